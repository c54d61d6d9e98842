"""Positions in the negotiated encoding: UTF-16 by default, UTF-8 when the
client offers it. Emoji (two UTF-16 units, four UTF-8 bytes) and CJK (one
unit, three bytes) stand before a claim, inside a block line and before a
cited span in the source."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import change_range, line_of, open_doc, start, units, until, uri

QUOTE = "dairy, meat, fresh produce"


def draft(chunk_text: str) -> str:
    s = chunk_text.index(QUOTE)
    return (
        "# Encodings 😀 漢字\n\n"
        "😀 漢字 Dairy, meat, fresh produce must be reported within 30 days.\n\n"
        "```cite\n"
        f'{{"note": "😀漢字", "chunk_id": "a0fd0941ad0af9e0", "start": {s}, "end": {s + len(QUOTE)}, '
        f'"quote": "{QUOTE}", "source": "sources/policy.md"}}\n'
        "```\n\n"
        "😀 Perishable goods are reviewed later.\n\n"
        "```cite\n"
        '{"note": "😀漢字", "chunk_id": "a0fd0941ad0af9e0", "start": 0, "end": 5, "quote": "not in the chunk", '
        '"source": "sources/policy.md"}\n'
        "```\n"
    )


@pytest.mark.parametrize("offered, encoding", [(None, "utf-16"), (["utf-16", "utf-8"], "utf-8")])
async def test_columns_in_both_encodings(client: LanguageClient, demo, offered, encoding):
    result = await start(client, demo, encodings=offered)
    assert result.capabilities.position_encoding == encoding
    policy_text = (demo / "sources/policy.md").read_text(encoding="utf-8")
    para = policy_text[policy_text.index("Perishable goods"):policy_text.index("care team.") + len("care team.")]
    text = draft(para)
    lines = text.splitlines()
    u = open_doc(client, demo / "drafts/encodings.md", text)
    diags = await until(lambda: client.diagnostics.get(u) if len(client.diagnostics.get(u, [])) >= 2 else None)

    claim = line_of(text, "must be reported within 30 days")
    nm = next(d for d in diags if d.code == "number-mismatch")
    assert (nm.range.start.line, nm.range.start.character) == (claim, 0)
    assert (nm.range.end.line, nm.range.end.character) == (claim, units(lines[claim], encoding))

    qnf = next(d for d in diags if d.code == "quote-not-found")
    ql = line_of(text, '"quote": "not in the chunk"')
    assert qnf.range.start.line == ql
    assert qnf.range.start.character == units(lines[ql][: lines[ql].index('"quote"')], encoding)
    assert qnf.range.end.character == units(lines[ql], encoding)

    # the cited span, after 🥛🥩 and 生鮮食品 on its source line
    src_lines = policy_text.splitlines()
    sl = line_of(policy_text, QUOTE)
    want = types.Range(
        start=types.Position(line=sl, character=units(src_lines[sl][: src_lines[sl].index(QUOTE)], encoding)),
        end=types.Position(line=sl, character=units(src_lines[sl][: src_lines[sl].index(QUOTE) + len(QUOTE)], encoding)),
    )
    assert nm.related_information[0].location.range == want
    block = line_of(text, '"quote": "dairy')
    got = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=u),
                               position=types.Position(line=block, character=units(lines[block][:40], encoding)))
    )
    assert got[0].uri == uri(demo / "sources/policy.md") and got[0].range == want

    # a position given after the emoji finds the claim; the hover's range is in the same units
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=u),
                          position=types.Position(line=claim, character=units("😀 漢字 Dai", encoding)))
    )
    assert h.range.end == types.Position(line=claim, character=units(lines[claim], encoding))
    assert f"**{QUOTE}**" in h.contents.value

    # an edit after the emoji, in client units, lands where the client meant it
    col = units(lines[claim][: lines[claim].index("30")], encoding)
    change_range(client, u, 2, claim, col, col + 3, "")
    await until(lambda: not any(d.code == "number-mismatch" for d in client.diagnostics.get(u, [])))


async def test_report_offers_no_fix_on_a_draft_that_is_not_utf8(client: LanguageClient, demo):
    """`cairn.report` says what `--fix` would do, as `cairn check` does: nothing
    on a draft with invalid UTF-8, which `--fix` never writes."""
    import json

    from lsprotocol import types as t

    from lsp_util import cli_report, plain

    legacy = demo / "drafts" / "legacy-import.md"
    legacy.write_bytes(legacy.read_bytes().replace(b"start: 30", b"start: 31").replace(b"end: 90", b"end: 91"))
    want = cli_report(demo)
    await start(client, demo)
    got = json.loads(json.dumps(plain(await client.workspace_execute_command_async(
        t.ExecuteCommandParams(command="cairn.report")))))
    (draft,) = [d for d in got["drafts"] if d["path"] == "drafts/legacy-import.md"]
    diags = [d for c in draft["claims"] for d in c["diagnostics"]]
    assert "span-shifted" in [d["code"] for d in diags] and all(d["fix"] is None for d in diags)
    notes = next(d for d in got["drafts"] if d["path"] == "drafts/review-notes.md")
    assert any(d["fix"] for c in notes["claims"] for d in c["diagnostics"])  # a valid draft has them
    assert got == want


async def test_a_draft_opened_while_the_first_index_runs_keeps_its_encoding_problem(client: LanguageClient, demo):
    """An editor restoring its tabs opens a draft right after `initialized`, before the
    workspace is indexed: the draft's invalid bytes on disk still give its `encoding`
    diagnostic, and source.fixAll.cairn then offers no edit (as `--fix` writes nothing)."""
    from lsp_util import capabilities, watch_client

    legacy = demo / "drafts" / "legacy-import.md"  # its span moved by one: a span-shifted with a safe fix
    legacy.write_bytes(legacy.read_bytes().replace(b"start: 30", b"start: 31").replace(b"end: 90", b"end: 91"))
    watch_client(client)
    await client.initialize_session(types.InitializeParams(
        capabilities=capabilities(), root_uri=uri(demo),
        workspace_folders=[types.WorkspaceFolder(uri=uri(demo), name=demo.name)],
        initialization_options={"debounce_ms": 0}))
    u = open_doc(client, legacy)  # at once, without waiting for the first check cycle
    await until(lambda: client.checked, timeout=30, what="the first check cycle")
    diags = await until(lambda: [d for d in client.diagnostics.get(u, []) if d.code == "span-shifted"]
                        and client.diagnostics[u], timeout=30, what="the draft's diagnostics")
    assert "encoding" in [d.code for d in diags]
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=u),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10_000, character=0)),
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.cairn"])))
    edits = [e for a in got or [] if a.edit for es in (a.edit.changes or {}).values() for e in es]
    assert edits == []
