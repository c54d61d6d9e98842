"""A claim's verdict as the server keeps it in the index (lsp/stored.py): written and read back,
it equals the verdict the verifier made, field by field, for every claim of the demo's drafts
(verified ones, failing ones, superseded versions, unknown chunks); read back onto a parse of
the claim moved down some lines, its findings move with it."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

from cairn import drafts
from cairn.core.config import load_settings
from cairn.core.model import ClaimResult, Pos, Range
from cairn.index.workspace import Workspace
from cairn.lsp import stored
from cairn.verify.verifier import Verifier


def verdicts(demo: Path) -> list[ClaimResult]:
    ws = Workspace(demo, load_settings(demo))
    ws.index()
    verifier = Verifier(ws)
    out = []
    for path in sorted((demo / "drafts").glob("*.md")):
        doc = drafts.parse_draft(drafts.read_draft(path)[0])
        out += [verifier.verify_claim(c) for c in doc.claims]
    ws.store.close()
    return out


def test_every_verdict_of_the_demo_reads_back_equal(demo: Path):
    results = verdicts(demo)
    codes = {d.code for cr in results for d in cr.diagnostics}
    assert len(results) > 10 and {"number-mismatch", "unknown-chunk"} <= codes, codes
    assert any(r.chunk is not None and not r.chunk.current for cr in results for r in cr.citations)
    for cr in results:
        back = stored.load(stored.dump(cr), cr.claim)
        assert back is not None
        for f in fields(ClaimResult):
            assert getattr(back, f.name) == getattr(cr, f.name), f.name
        # a finding about a citation names the claim's own citation object, as the verifier's does
        for a, b in zip(back.diagnostics, cr.diagnostics):
            assert (a.citation is None) == (b.citation is None)
            if a.citation is not None:
                assert any(a.citation is c for c in cr.claim.citations)


def test_a_verdict_read_onto_a_moved_claim_moves_its_findings(demo: Path):
    cr = next(cr for cr in verdicts(demo) if cr.diagnostics)
    moved = replace(cr.claim, line=cr.claim.line + 7)
    back = stored.load(stored.dump(cr), moved)
    assert back is not None and back.claim is moved
    for a, b in zip(back.diagnostics, cr.diagnostics):
        assert a.line == b.line + 7
        assert a.range == Range(Pos(b.range.start.line + 7, b.range.start.col), Pos(b.range.end.line + 7, b.range.end.col))


def test_an_entry_of_another_format_or_garbage_is_not_read(demo: Path):
    cr = verdicts(demo)[0]
    text = stored.dump(cr)
    assert stored.load(text.replace(f'"format":"{stored.FORMAT}"', '"format":"0"'), cr.claim) is None
    assert stored.load("not json", cr.claim) is None
    assert stored.load('{"format": "%s", "line": 0, "result": {}}' % stored.FORMAT, cr.claim) is None
