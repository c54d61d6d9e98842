"""Issue 20 in the editor, through the real `cairn serve`: a paragraph typed
between a claim and its bound block gives `claim-moved`, whose quick-fix moves
the block back; the source action binding every block; a claim of three
sentences with one unbacked (its range and the hover's per-sentence support);
a block copied from a source (`cairn.citeSelection`) and pasted under a claim,
bound to it by `cairn.bindPasted`."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from binding_ws import door_block, frozen_block, make
from lsp_util import apply_edits, change_all, cli_report, edits_for, line_of, open_doc, plain, start, until, uri

CLAIM = "Frozen goods are held at or below -18 °C until dispatch."
INSERTED = "The warehouse is staffed around the clock by a team of forty."
WHOLE = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10_000, character=0))


async def _actions(client, u, line, only=None):
    pos = types.Position(line=line, character=0)
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=u), range=types.Range(start=pos, end=pos),
        context=types.CodeActionContext(diagnostics=[], only=only)))


async def _open_draft(client: LanguageClient, tmp_path: Path, text: str) -> tuple[Path, Path, str]:
    """The binding workspace with `text` as drafts/a.md, the server started on it and the
    draft open: (workspace, draft path, draft URI)."""
    ws = make(tmp_path / "ws")
    path = ws / "drafts" / "a.md"
    path.write_text(text, encoding="utf-8")
    await start(client, ws)
    return ws, path, open_doc(client, path)


def _codes(client, u) -> list[str]:
    return [d.code for d in client.diagnostics.get(u, [])]


async def test_insertion_between_claim_and_block_then_the_fix(client: LanguageClient, tmp_path: Path):
    text = f"# Notes\n\n{CLAIM}\n\n{frozen_block('Frozen goods are held at or below')}"
    ws, path, u = await _open_draft(client, tmp_path, text)
    await until(lambda: u in client.diagnostics, what="the first diagnostics")
    assert _codes(client, u) == []

    # the writer types a paragraph between the claim and its block
    edited = text.replace(f"{CLAIM}\n\n", f"{CLAIM}\n\n{INSERTED}\n\n")
    change_all(client, u, edited, 2)
    moved = await until(lambda: [d for d in client.diagnostics.get(u, []) if d.code == "claim-moved"],
                        what="claim-moved")
    fence = line_of(edited, "```cite")
    assert moved[0].range.start.line == fence
    assert "that claim is now on line 3" in moved[0].message

    got = await _actions(client, u, fence)
    move = next(a for a in got if a.title.startswith("Move this block back under its claim"))
    assert move.kind == types.CodeActionKind.QuickFix
    fixed = apply_edits(edited, edits_for(move.edit, u))
    assert fixed.index(CLAIM) < fixed.index("```cite") < fixed.index(INSERTED)
    change_all(client, u, fixed, 3)
    await until(lambda: u in client.diagnostics and "claim-moved" not in _codes(client, u),
                what="claim-moved to go")
    path.write_text(fixed, encoding="utf-8")
    report = cli_report(ws)
    assert [c["text"] for c in report["drafts"][0]["claims"]] == [CLAIM]
    assert report["drafts"][0]["claims"][0]["supported"] is True


async def test_bind_every_block_source_action(client: LanguageClient, tmp_path: Path):
    text = f"{CLAIM}\n\n{frozen_block()}\n- {CLAIM}\n\n  {frozen_block().replace(chr(10), chr(10) + '  ').rstrip()}\n"
    ws, path, u = await _open_draft(client, tmp_path, text)
    await until(lambda: u in client.diagnostics, what="the first diagnostics")
    # offered when source actions are asked for, not with every lightbulb
    assert all(a.kind != "source.bindClaims.cairn" for a in await _actions(client, u, 0))
    got = await _actions(client, u, 0, only=["source"])
    bind = next(a for a in got if a.kind == "source.bindClaims.cairn")
    bound = apply_edits(text, edits_for(bind.edit, u))
    assert bound.count('claim: "Frozen goods are held at or below -18"') == 2
    # once bound, an inserted paragraph is caught
    path.write_text(bound.replace(f"{CLAIM}\n\n", f"{CLAIM}\n\n{INSERTED}\n\n", 1), encoding="utf-8")
    report = cli_report(ws)
    codes = [d["code"] for c in report["drafts"][0]["claims"] for d in c["diagnostics"]]
    assert codes.count("claim-moved") == 1
    # a draft whose blocks are all bound is offered no binding
    change_all(client, u, bound, 2)
    got = await _actions(client, u, 0, only=["source.bindClaims.cairn"])
    assert not got


async def test_three_sentences_in_the_editor(client: LanguageClient, tmp_path: Path):
    text = (f"{CLAIM} Chilled goods are kept in the same\nroom as the frozen ones. Cold stores are cleaned daily.\n\n"
            f"{frozen_block()}")
    _, _, u = await _open_draft(client, tmp_path, text)
    sent = await until(lambda: [d for d in client.diagnostics.get(u, []) if d.code == "unsupported-sentence"],
                       what="unsupported-sentence")
    assert len(sent) == 2
    first = sent[0].range
    assert (first.start.line, first.start.character) == (0, len(CLAIM) + 1)
    assert (first.end.line, first.end.character) == (1, len("room as the frozen ones."))
    assert sent[0].severity == types.DiagnosticSeverity.Warning
    h = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(line=0, character=3)))
    value = h.contents.value
    assert "Each part alone:" in value
    assert "✅ 1.00" in value and value.count("⚠️") == 2


async def test_two_drafts_citing_one_span(client: LanguageClient, tmp_path: Path):
    ws = make(tmp_path / "ws")
    door = "The warehouse door on the north side is kept locked during the night."
    a, b = ws / "drafts" / "a.md", ws / "drafts" / "b.md"
    a.write_text(f"{CLAIM}\n\n{frozen_block()}", encoding="utf-8")
    b.write_text(f"# B\n\nThe loading door opens at 06:00.\n\n{door_block()}", encoding="utf-8")
    await start(client, ws)
    ua = open_doc(client, a)
    await until(lambda: ua in client.diagnostics, what="a.md's diagnostics")
    assert _codes(client, ua) == []
    # b.md is edited to cite a's span for an unrelated claim: both drafts get the warning
    ub = open_doc(client, b)
    text_b = f"# B\n\n{door}\n\n{frozen_block()}"
    change_all(client, ub, text_b, 2)
    got_b = await until(lambda: [d for d in client.diagnostics.get(ub, []) if d.code == "citation-reuse"],
                        what="citation-reuse on b.md")
    assert got_b[0].range.start.line == line_of(text_b, "quote:")
    assert f"\u201c{CLAIM}\u201d (drafts/a.md:1)" in got_b[0].message
    got_a = await until(lambda: [d for d in client.diagnostics.get(ua, []) if d.code == "citation-reuse"],
                        what="citation-reuse on a.md, re-published")
    assert "(drafts/b.md:3)" in got_a[0].message
    # the hover on a's quote lists every claim citing the span
    q = line_of(a.read_text(encoding="utf-8"), "quote:")
    h = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=ua), position=types.Position(line=q, character=2)))
    assert "the same span is also cited by:" in h.contents.value
    assert "drafts/b.md:3" in h.contents.value and "dated 2024-03-01" in h.contents.value
    # b.md goes back to its own passage: a.md's warning goes (the index is kept up to date)
    change_all(client, ub, f"# B\n\nThe loading door opens at 06:00.\n\n{door_block()}", 3)
    await until(lambda: not [d for d in client.diagnostics.get(ua, []) if d.code == "citation-reuse"],
                what="a.md's citation-reuse to go")


def _at(line: int, character: int = 0) -> dict:
    return {"line": line, "character": character}


async def _command(client, name: str, *args):
    return plain(await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=name, arguments=list(args))))


async def test_a_block_copied_from_a_source_is_bound_where_it_is_pasted(client: LanguageClient, tmp_path: Path):
    ws = make(tmp_path / "ws")
    source = ws / "sources" / "warehouse.md"
    lines = source.read_text(encoding="utf-8").splitlines()
    door = "The loading door on the north side opens at 06:00 every weekday."
    path = ws / "drafts" / "a.md"
    # the writer's draft: two claims, a placeholder line under the second
    text = f"# Notes\n\n{CLAIM}\n\n{door}\nPASTE\n"
    path.write_text(text, encoding="utf-8")
    await start(client, ws)
    u = open_doc(client, path)
    await until(lambda: u in client.diagnostics, what="the first diagnostics")

    # Copy selection as citation: the frozen-goods sentence, and then both paragraphs
    frozen = line_of("\n".join(lines), "Frozen goods")
    one = await _command(client, "cairn.citeSelection", uri(source),
                         {"start": _at(frozen), "end": _at(frozen, lines[frozen].index(" Chilled"))})
    both = await _command(client, "cairn.citeSelection", uri(source),
                          {"start": _at(frozen), "end": _at(line_of("\n".join(lines), "loading door") + 1)})
    assert "claim" not in one["text"] and len(both["citations"]) == 2

    # pasted on the blank line under the first claim: bound to it, nothing else changed
    got = await _command(client, "cairn.bindPasted", u, {"start": _at(3), "end": _at(3)}, one["text"])
    assert got["bound"] == 1
    assert got["text"] == one["text"].replace("\n```\n", '\nclaim: "Frozen goods are held at or below -18"\n```\n')
    # pasted over the placeholder under the second claim (a selection): every citation of the list
    place = line_of(text, "PASTE")
    got2 = await _command(client, "cairn.bindPasted", u, {"start": _at(place), "end": _at(place, 5)}, both["text"])
    assert got2["bound"] == 2
    assert got2["text"].count('claim: "The loading door on the north side opens"') == 2
    assert got2["text"].replace('  claim: "The loading door on the north side opens"\n', "") == both["text"]

    # the draft as the writer now has it verifies; a paragraph later typed under a claim is caught
    pasted = text.replace(f"{CLAIM}\n\n", f"{CLAIM}\n{got['text']}\n").replace("PASTE\n", got2["text"])
    path.write_text(pasted, encoding="utf-8")
    claims = cli_report(ws)["drafts"][0]["claims"]
    assert [(c["text"], c["supported"], c["diagnostics"]) for c in claims] == [(CLAIM, True, []), (door, True, [])]
    path.write_text(pasted.replace(f"{CLAIM}\n", f"{CLAIM}\n\n{INSERTED}\n\n", 1), encoding="utf-8")
    report = cli_report(ws)
    codes = [d["code"] for c in report["drafts"][0]["claims"] for d in c["diagnostics"]]
    assert codes.count("claim-moved") == 1

    # already bound, pasted inside a paragraph's line, or into a source: the text as it was
    again = await _command(client, "cairn.bindPasted", u, {"start": _at(3), "end": _at(3)}, got["text"])
    assert again == {"text": got["text"], "bound": 0}
    inline = await _command(client, "cairn.bindPasted", u, {"start": _at(2, 6), "end": _at(2, 6)}, one["text"])
    assert inline == {"text": one["text"], "bound": 0}
    us = open_doc(client, source)
    into_source = await _command(client, "cairn.bindPasted", us, {"start": _at(4), "end": _at(4)}, one["text"])
    assert into_source == {"text": one["text"], "bound": 0}
    with pytest.raises(Exception, match="expected the arguments"):
        await _command(client, "cairn.bindPasted", u, {"start": _at(3), "end": _at(3)})
