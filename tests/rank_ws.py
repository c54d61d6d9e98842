"""A workspace where a counsel-only memo matches a question better than any readable
passage (tests of docs/security.md's ranking promise, by the CLI and the language
server; importable: tests/ is on sys.path). `build(demo, MEMO)` adds it to a copy of
the demo; with UNRELATED instead, the memo says nothing about the question."""

from __future__ import annotations

from pathlib import Path

POLICY = """principal = "reader"
[ask]
k = 3
[[policy]]
path = "sources/counsel/**"
access = ["counsel"]
[principals]
counsel = ["counsel", "public"]
reader = ["public"]
"""
# the memo: the words asked about, often, in a short paragraph (BM25 puts it first)
MEMO = "Wharfinger quayage levy: the wharfinger quayage levy is 9 percent, 7 quayage levy per 7 wharfinger."
UNRELATED = "Lunch is served in the east room on Fridays."
CLAIM = "The wharfinger quayage levy is 7 percent."
QUESTION = "What is the wharfinger quayage levy?"
# readable notes: 29 short ones with the claim's words (none backs it), and one long
# paragraph that states it, which the ranking puts last: the 30th of 30 candidates
NOTES = 29
BACKING = ("The harbour board met in March and went through the accounts of the year, the dredging of the "
           "north basin, the repairs to the old crane, the lighting of the outer pier and the hiring of two "
           "pilots; among the charges it confirmed, the wharfinger quayage levy is 7 percent.")


def build(demo: Path, memo: str) -> Path:
    (demo / "cairn.toml").write_text((demo / "cairn.toml").read_text() + POLICY, encoding="utf-8")
    notes = demo / "sources" / "notes"
    notes.mkdir()
    for i in range(NOTES):
        mark = "abcdefghijklmnopqrstuvwxyz"[i % 26] * (1 + i // 26)  # no digit: no number to back the claim
        (notes / f"n{i:02}.md").write_text(f"Note {mark}: the wharfinger quayage levy rose 5 percent at 7 wharves.\n", encoding="utf-8")
    # named to sort last, as the ranking's ties go by source name (PostgreSQL's ts_rank does not
    # weigh a paragraph's length)
    (notes / "zz-board.md").write_text(BACKING + "\n", encoding="utf-8")
    (demo / "sources" / "counsel").mkdir()
    (demo / "sources" / "counsel" / "memo.md").write_text(memo + "\n", encoding="utf-8")
    return demo
