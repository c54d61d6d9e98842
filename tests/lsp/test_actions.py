"""Quick-fixes and source.fixAll.cairn: each action carries its edit, which
rewrites only the fields concerned; once applied, the diagnostic is gone."""

from __future__ import annotations

import shutil

from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import apply_edits, build_demo, change_all, cli, edits_for, line_of, open_doc, start, until

WHOLE = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10_000, character=0))


async def actions(client, u, rng, only=None):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=u),
            range=rng,
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )


async def test_quick_fix_applied_removes_the_diagnostic(client: LanguageClient, demo):
    await start(client, demo)
    path = demo / "drafts/review-notes.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path)
    await until(lambda: any(d.code == "quote-not-found" for d in client.diagnostics.get(u, [])))
    q = line_of(text, 'quote: "Open the order')
    got = await actions(client, u, types.Range(start=types.Position(line=q, character=3), end=types.Position(line=q, character=3)))
    fixes = [a for a in got if a.kind == types.CodeActionKind.QuickFix]
    assert [a.title for a in fixes] == ["Replace the quote with the source's exact text"]
    assert all(a.kind == types.CodeActionKind.QuickFix for a in got)  # fix-all only when asked for
    fix = fixes[0]
    assert fix.is_preferred is True
    assert fix.diagnostics[0].code == "quote-not-found" and fix.diagnostics[0].range.start.line == q
    edits = edits_for(fix.edit, u)
    new = apply_edits(text, edits)
    # only the quote: line changed (and start/end, equal here), and the block, which named no
    # claim, is bound to the one it follows (a `claim:` line at its end); the rest is byte for byte the same
    old_lines, new_lines = text.splitlines(), new.splitlines()
    assert len(old_lines) + 1 == len(new_lines)
    bound = line_of(new, 'claim: "To report a missing item, open the order"')
    rest = new_lines[:bound] + new_lines[bound + 1:]
    diff = [i for i, (a, b) in enumerate(zip(old_lines, rest)) if a != b]
    assert diff == [q]
    assert new_lines[q] == 'quote: "Open the order in the app and choose \\"Report a problem\\"."'
    assert bound == q + 3  # after source and version, before the closing fence
    change_all(client, u, new, 2)
    await until(lambda: not any(d.code == "quote-not-found" and d.range.start.line == q
                                for d in client.diagnostics.get(u, [])), what="the fixed diagnostic to go")
    # an editor-only fix (not safe) is offered, not preferred
    q2 = line_of(new, 'quote: "Missing items are refunded')
    got = await actions(client, u, types.Range(start=types.Position(line=q2, character=0), end=types.Position(line=q2, character=0)))
    near = [a for a in got if a.kind == types.CodeActionKind.QuickFix]
    assert near and near[0].title.startswith("Replace the quote with the closest source text")
    assert not near[0].is_preferred
    # a fix that adds fields to a block: re-anchor an unknown chunk (sets chunk_id, start, end, source, version)
    u2 = line_of(new, "chunk_id: 5e1f0c0de0a1b2c3")
    got = await actions(client, u, types.Range(start=types.Position(line=u2, character=0), end=types.Position(line=u2, character=0)))
    reanchor = next(a for a in got if a.title.startswith("Re-anchor to sources/handbook.html"))
    fixed = apply_edits(new, edits_for(reanchor.edit, u))
    change_all(client, u, fixed, 3)
    await until(lambda: not any(d.code == "unknown-chunk" for d in client.diagnostics.get(u, [])))


async def test_fix_all_equals_cairn_check_fix(client: LanguageClient, demo, tmp_path):
    # what `cairn check --fix` writes, on another copy
    other = build_demo(tmp_path / "other")
    cli(other, "check", "--fix")
    expected = (other / "drafts/review-notes.md").read_text(encoding="utf-8")
    shutil.rmtree(other)

    await start(client, demo)
    path = demo / "drafts/review-notes.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path)
    await until(lambda: client.diagnostics.get(u))
    got = await actions(client, u, WHOLE, only=["source.fixAll"])
    assert [a.kind for a in got] == ["source.fixAll.cairn"]
    # (the demo's blocks carry no `claim` field: binding them is offered too)
    assert [a.kind for a in await actions(client, u, WHOLE, only=["source"])] == [
        "source.fixAll.cairn", "source.bindClaims.cairn"]
    fixed = apply_edits(text, edits_for(got[0].edit, u))
    assert fixed == expected
    change_all(client, u, fixed, 2)
    await until(lambda: not any(d.code in ("span-shifted", "version-mismatch") for d in client.diagnostics.get(u, [])),
                what="the safe fixes to take effect")
    # nothing left to fix safely
    again = await actions(client, u, WHOLE, only=["source.fixAll.cairn"])
    assert not again
    # quick-fixes only when asked for quick-fixes
    only_qf = await actions(client, u, WHOLE, only=["quickfix"])
    assert all(a.kind == types.CodeActionKind.QuickFix for a in only_qf)


async def test_missing_offsets_quick_fix_sets_them(client: LanguageClient, demo):
    """A block with its chunk id and quote but no start/end: the editor offers where the quote is."""
    path = demo / "drafts" / "offsets.md"
    text = ("A customer has 14 days to request a credit for a damaged delivery.\n\n```cite\n"
            "chunk_id: 691d71e4b46d8b0d\nquote: \"A customer has 14 days to request a credit for a damaged delivery\"\n```\n")
    path.write_text(text, encoding="utf-8")
    await start(client, demo)
    u = open_doc(client, path)
    await until(lambda: any(d.code == "block-syntax" for d in client.diagnostics.get(u, [])))
    got = await actions(client, u, WHOLE, only=["quickfix"])
    (fix,) = [a for a in got if a.title.startswith("Set start and end")]
    assert fix.is_preferred is True
    new = apply_edits(text, edits_for(fix.edit, u))
    assert "start: 0\n" in new and "end: 65\n" in new
    change_all(client, u, new, 2)
    await until(lambda: client.diagnostics.get(u) is not None
                and not any(d.code == "block-syntax" for d in client.diagnostics.get(u, [])),
                what="the block-syntax error to go")
