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
