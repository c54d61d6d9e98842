"""Evidence for a claim (cairn.evidence), on the demo workspace's sources."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cairn.answers.evidence import find_evidence, query_words
from cairn.core.config import load_settings
from cairn.index.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("evidence") / "demo"
    subprocess.run([sys.executable, str(ROOT / "fixtures/make_demo.py"), str(dest)], check=True,
                   capture_output=True)
    ws = Workspace(dest, load_settings(dest))
    ws.index()
    yield ws
    ws.store.close()


def test_the_passage_that_backs_the_claim_comes_first(demo):
    claim = "A customer has 14 days to request a credit for a damaged delivery."
    got = find_evidence(claim, demo.store.current_chunks(), allowed=demo.allowed)
    assert got and got[0].supports
    assert got[0].chunk.source == "sources/policy.md"
    assert got[0].quote == "A customer has 14 days to request a credit for a damaged delivery."
    # the quote is the chunk's own text at the offsets a cite block writes
    assert got[0].chunk.text[got[0].start:got[0].end] == got[0].quote


def test_a_passage_with_another_number_is_labelled_not_offered_as_support(demo):
    claim = "A customer has 30 days to request a credit for a damaged delivery."
    got = find_evidence(claim, demo.store.current_chunks(), allowed=demo.allowed)
    assert got and not any(p.supports for p in got)
    first = got[0]
    assert "14 days" in first.quote and "claim says 30 days" in first.why


def test_the_smallest_span_of_whole_sentences_is_offered(demo):
    claim = "Approved credits go back to the original payment method."
    got = find_evidence(claim, demo.store.current_chunks(), allowed=demo.allowed)
    assert got[0].supports
    quote = got[0].quote
    assert quote.rstrip().endswith((".", "!", "?")) and quote.count(". ") == 0  # one sentence


def test_nothing_backs_a_claim_about_something_else(demo):
    got = find_evidence("The moon is made of cheese.", demo.store.current_chunks(), allowed=demo.allowed)
    assert got == []


def test_denied_sources_are_never_offered(demo):
    claim = "A customer has 14 days to request a credit for a damaged delivery."
    got = find_evidence(claim, demo.store.current_chunks(), allowed=lambda s: s != "sources/policy.md")
    assert all(p.chunk.source != "sources/policy.md" for p in got)


def test_query_words_put_numbers_and_names_first():
    assert query_words("Agents in Leeds may approve credits of up to $200.")[:2] == ["200", "Leeds"]


def test_a_dotted_version_is_one_key_term():
    """A version is one term: a passage about 1.2.3.6 holds the parts 1, 2 and 6 of 1.2.6.1 but
    not 1.2.6.1 (issue 46: relevance read a version's parts as terms apart)."""
    from cairn.answers.relevance import key_terms, words_of

    assert words_of("zlib 1:1.2.13.dfsg-1, 1.2.11.1 and 14.0") == ["zlib", "1", "1.2.13", "dfsg", "1", "1.2.11.1",
                                                                  "and", "14.0"]
    terms = key_terms("What changed in zlib 1.2.6.1?", None)
    source = "sources/zlib-changelog"
    assert terms.about("Changes in 1.2.6.1 (12 Feb 2012)", source) == 1.0
    assert terms.about("Changes in 1.2.3.6 (17 Jan 2010)", source) < 0.7
    assert terms.missing("Changes in 1.2.3.6 (17 Jan 2010)", source) == ["1.2.6.1"]
    # written with a trailing zero part, the same number; 1.10 stays a release apart from 1.1
    assert key_terms("zlib 1.2.0", None).about("zlib 1.2 is out") == 1.0
    assert key_terms("Python 3.10", None).about("Python 3.1 is out") < 1.0
