"""Issue 47 in the editor, through the real `cairn serve`: a claim's parts in the hover (each with
its score and the citations backing it, and `joint`), an unbacked clause underlined where it is,
the gamed authority minimum, and the parts in `cairn.report`."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from conflict_ws import DRAFT, OFFICE, PLAN_A, PLAN_B, POLICY, cite, draft, make

from lsp_util import open_doc, plain, start, until

COMPARISON = PLAN_A[:-1] + ", but " + PLAN_B
UNBACKED = POLICY[:-1] + ", and the office is closed on Sundays."


async def test_parts_hover_and_report(client: LanguageClient, tmp_path: Path):
    ws = make(tmp_path, minimum="official", conflicts="off")
    path = draft(ws, cite(COMPARISON, ("sources/plans/a.md", PLAN_A), ("sources/plans/b.md", PLAN_B))
                 + cite(UNBACKED, ("sources/policy/refunds.md", POLICY))
                 + cite(DRAFT, ("sources/internal/draft.md", DRAFT), ("sources/office.md", OFFICE)))
    await start(client, ws)
    u = open_doc(client, path)
    await until(lambda: any(d.code == "low-authority" for d in client.diagnostics.get(u, [])), what="diagnostics")
    got = client.diagnostics[u]
    (low,) = [d for d in got if d.code == "low-authority"]
    assert "sources/internal/draft.md (internal)" in low.message and "office" not in low.message
    (part,) = [d for d in got if d.code == "unsupported-sentence"]
    lines = path.read_text(encoding="utf-8").splitlines()
    row = lines.index(UNBACKED)
    assert (part.range.start.line, part.range.start.character) == (row, UNBACKED.index("the office"))
    assert part.range.end == types.Position(line=row, character=len(UNBACKED))
    h = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(line=lines.index(COMPARISON),
                                                                                   character=2)))
    value = h.contents.value
    assert "Each part alone (joint: no single quote backs the whole claim):" in value
    assert "· citation 1" in value and "· citation 2" in value and value.count("✅") >= 2
    report = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report")))
    comparison = next(c for d in report["drafts"] for c in d["claims"] if c["text"] == COMPARISON)
    assert comparison["joint"] is True and [p["citations"] for p in comparison["parts"]] == [[0], [1]]
