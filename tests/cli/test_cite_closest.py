"""`cairn cite QUOTE` for a quote that is not in the sources, through the real CLI: the
closest passages are the ones holding most of the quote, never a fragment equal to one of
its words (issue 46: `users-and-groups.html:67 (100% similar): man` listed first)."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import run_cairn

QUOTE = "The man program may run as user man, so that it can write its cat pages to /var/cache/man"


def _workspace(root: Path) -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('drafts = ["drafts/*.md"]\n', encoding="utf-8")
    # a definition list as an HTML page cuts it: the term alone in its paragraph, then what it means
    (root / "sources" / "groups.md").write_text(
        "# Users and groups\n\n"
        "man\n\n"
        "The man program (sometimes) runs as user man, so it can write cat pages to /var/cache/man "
        "and update its databases there.\n\n"
        "cat\n\n"
        "Members of the staff group may write to /usr/local without root.\n",
        encoding="utf-8")
    return root


def test_the_passage_holding_most_of_the_quote_comes_first_and_no_one_word_fragment_is_listed(tmp_path: Path):
    root = _workspace(tmp_path / "ws")
    proc = run_cairn(root, "cite", QUOTE)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.splitlines()
    head = lines.index("cairn: the quote is not in the sources; the closest passages:")
    listed = lines[head + 1:]
    assert listed, proc.stderr
    assert listed[0].startswith("sources/groups.md:5 (") and "The man program (sometimes) runs as user man" in listed[0]
    # "man" and "cat" are each a word of the quote, 100% alike as a partial match, and cover nothing of it
    assert not any(line.endswith("% similar): man") or line.endswith("% similar): cat") for line in listed), listed
    assert proc.stdout == ""


def test_json_gives_each_passage_its_similarity_and_coverage(tmp_path: Path):
    root = _workspace(tmp_path / "ws")
    proc = run_cairn(root, "cite", "--json", QUOTE)
    assert proc.returncode == 1, proc.stderr
    got = json.loads(proc.stdout)
    assert got["found"] == 0
    first = got["closest"][0]
    assert first["line"] == 5 and first["citation"]["quote"].startswith("The man program (sometimes)")
    assert 0.6 < first["similarity"] < 1 and first["coverage"] >= 0.7
    # every passage listed covers a meaningful part of the quote, best first
    assert all(c["coverage"] >= 0.4 for c in got["closest"])
    assert [c["similarity"] for c in got["closest"]] == sorted((c["similarity"] for c in got["closest"]), reverse=True)


def test_a_quote_no_passage_holds_much_of_lists_none(tmp_path: Path):
    root = _workspace(tmp_path / "ws")
    proc = run_cairn(root, "cite", "Printing is handled by the lp group, which owns the spool queue of man")
    assert proc.returncode == 1
    assert "the quote is not in the sources; no passage holds much of it" in proc.stderr
    assert "% similar)" not in proc.stderr
