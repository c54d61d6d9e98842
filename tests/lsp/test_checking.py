"""The server's draft cache (cairn/lsp/checking.py), in process: an edit
re-verifies only the claim it touches; claims that merely moved keep their
verdicts, ranges moved, and their quick-fixes edit the new text."""

from __future__ import annotations

from pathlib import Path

import pytest

from cairn.core.config import load_settings
from cairn.drafts import apply_edits, field_edits
from cairn.lsp.checking import Folder
from cairn.lsp.positions import Codec

from lsp_util import build_demo


# a workspace of its own for each test: the verdicts a server verifies are kept in the index
# (lsp/stored.py), so a claim one test verified would be read back, not verified, by the next
@pytest.fixture
def folder(tmp_path_factory) -> Folder:
    root = build_demo(tmp_path_factory.mktemp("checking") / "demo")
    f = Folder(root, load_settings(root), Codec("utf-16"))
    f.index_all()
    return f


def counting(folder: Folder) -> list:
    calls = []
    real = folder.verifier.verify_claim

    def verify_claim(claim):
        calls.append(claim.text)
        return real(claim)

    folder.verifier.verify_claim = verify_claim
    return calls


def diagnostics(state):
    return sorted((d.code, d.range.start.line + shift, d.range.end.line + shift)
                  for shift, cr, _ in state.claims() for d in cr.diagnostics)


@pytest.mark.parametrize("whole", [False, True], ids=["in pieces", "one piece"])
def test_moved_claims_keep_their_verdicts(folder: Folder, whole: bool):
    path = folder.root / "drafts/review-notes.md"
    text = path.read_text(encoding="utf-8")
    if whole:
        text += "\n[ref]: http://example.com\n"  # a reference definition: the draft is parsed whole
    calls = counting(folder)
    first = folder.check(path, "file:///x", text, 1, is_open=True, encoding_problem=False, previous=None)
    assert len(first.placed) == (1 if whole else len(first.placed)) and (whole or len(first.placed) > 5)
    n = len(calls)
    assert n == 14
    moved = folder.check(path, "file:///x", "Intro.\n\nMore intro.\n" + text, 2, is_open=True,
                         encoding_problem=False, previous=first)
    assert len(calls) == n  # nothing verified again
    assert diagnostics(moved) == [(c, a + 3, b + 3) for c, a, b in diagnostics(first)]
    # a quick-fix of a moved claim edits the new text at the right place
    new_text = "Intro.\n\nMore intro.\n" + text
    shift, cr, _ = next((s, cr, seg) for s, cr, seg in moved.claims()
                        if any(d.code == "quote-not-found" and d.fixes and d.fixes[0].safe for d in cr.diagnostics))
    d = next(d for d in cr.diagnostics if d.code == "quote-not-found")
    edits = field_edits(d.citation, d.fixes[0].values)
    from cairn.core.model import Pos, Range, TextEdit

    edits = [TextEdit(Range(Pos(e.range.start.line + shift, e.range.start.col),
                            Pos(e.range.end.line + shift, e.range.end.col)), e.new_text) for e in edits]
    fixed = apply_edits(new_text, edits)
    assert 'quote: "Open the order in the app and choose \\"Report a problem\\"."' in fixed
    # an edit inside one claim verifies that claim again, and only it
    edited = new_text.replace("Customers have 30 days", "Customers have 14 days")
    again = folder.check(path, "file:///x", edited, 3, is_open=True, encoding_problem=False, previous=moved)
    assert calls[n:] == ["Customers have 14 days to request a credit for a damaged delivery."]
    # the edited claim now agrees with its quote (the draft's other claims keep their own findings)
    assert not [d for _, cr, _ in again.claims() for d in cr.diagnostics
                if d.code == "number-mismatch" and "30 days" in d.message]
    assert [d for _, cr, _ in moved.claims() for d in cr.diagnostics
            if d.code == "number-mismatch" and "30 days" in d.message]


def test_a_source_change_reverifies_only_what_cites_it(folder: Folder, tmp_path: Path):
    path = folder.root / "drafts/credits-answer.md"
    text = path.read_text(encoding="utf-8")
    calls = counting(folder)
    first = folder.check(path, "file:///c", text, 1, is_open=True, encoding_problem=False, previous=None)
    n = len(calls)
    faq = folder.root / "sources/faq.txt"
    faq.write_text(faq.read_text(encoding="utf-8") + "\nA new answer.\n", encoding="utf-8")
    res, affected = folder.reindex(["sources/faq.txt"])
    assert res.indexed == ["sources/faq.txt"]
    assert path not in affected  # credits-answer.md cites no FAQ chunk
    again = folder.check(path, "file:///c", text, 1, is_open=True, encoding_problem=False, previous=first)
    assert len(calls) == n
    policy = folder.root / "sources/policy.md"
    policy.write_text(policy.read_text(encoding="utf-8").replace("Members of", "Every member of"), encoding="utf-8")
    res, affected = folder.reindex(["sources/policy.md"])
    assert path in affected
    folder.check(path, "file:///c", text, 1, is_open=True, encoding_problem=False, previous=again)
    assert len(calls) == n + 3, calls[n:]  # the three claims citing policy.md
