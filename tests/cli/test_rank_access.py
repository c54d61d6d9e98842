"""A source the principal may not read never changes what the ranking returns
(docs/security.md): `cairn ask` and `cairn cite --for`, on both stores, give the
same passages, as many and in the same order, whether the counsel-only memo
matches the question better than every readable passage or says nothing about it.

Before the fix, the store ranked every source's chunks and the denied ones were
dropped afterwards: the memo took a place among the `k` (or the 30 candidates
of `cite --for`), so one passage fewer came back, which told a reader that the
memo held the words asked about."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import run_cairn
from rank_ws import CLAIM, MEMO, QUESTION, UNRELATED, build


def _twice(demo: Path, *args: str) -> tuple[str, str]:
    """The command's output with the matching memo, then with the memo saying something else."""
    ws = build(demo, MEMO)
    first = run_cairn(ws, *args)
    (ws / "sources" / "counsel" / "memo.md").write_text(UNRELATED + "\n", encoding="utf-8")
    second = run_cairn(ws, *args)
    assert first.returncode in (0, 1) and second.returncode in (0, 1), first.stderr + second.stderr
    for out in (first.stdout, second.stdout, first.stderr, second.stderr):
        assert "9 percent" not in out and "counsel/memo" not in out
    assert first.returncode == second.returncode
    return first.stdout, second.stdout


def test_ask_returns_the_same_passages_whatever_the_denied_memo_says(demo: Path):
    with_memo, without = _twice(demo, "ask", "--format", "json", "-k", "3", QUESTION)
    a, b = json.loads(with_memo), json.loads(without)
    assert len(b["ask"]["passages"]) == 3
    assert a["ask"]["passages"] == b["ask"]["passages"]
    claims = [[c["text"] for c in d["drafts"][0]["claims"]] for d in (a, b)]
    assert claims[0] == claims[1]


def test_cite_for_finds_the_same_passages_whatever_the_denied_memo_says(demo: Path):
    with_memo, without = _twice(demo, "cite", "--for", CLAIM, "--json", "-k", "3")
    a, b = json.loads(with_memo), json.loads(without)
    assert b["supported"] is True and b["passages"][0]["source"] == "sources/notes/zz-board.md"
    assert a == b
