"""Issue 47 in the editor, through the real `cairn serve`: `conflicting-source` is searched in the
background once a draft's check is done and published when ready, with the message the CLI gives;
a denied source is never named; `conflicts = "off"` publishes none."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from conflict_ws import DRAFT, cite, draft, make

from lsp_util import change_all, open_doc, start, until

DRF = ("sources/internal/draft.md", DRAFT)


def _found(client: LanguageClient, u: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics.get(u, []) if d.code == "conflicting-source"]


async def test_conflicting_source_arrives_in_the_background(client: LanguageClient, tmp_path: Path):
    ws = make(tmp_path, draft_tier="official")
    (ws / "cairn.toml").write_text((ws / "cairn.toml").read_text(encoding="utf-8") + 'principal = "reader"\n',
                                   encoding="utf-8")
    path = draft(ws, cite(DRAFT, DRF))
    await start(client, ws)
    u = open_doc(client, path)
    (d,) = await until(lambda: _found(client, u), what="conflicting-source")
    assert d.severity == types.DiagnosticSeverity.Warning
    assert "sources/policy/refunds.md (authoritative, 2024-06-01)" in d.message and "14 days" in d.message
    assert "counsel" not in d.message and "memo" not in d.message and "60 days" not in d.message
    assert "1 more" not in d.message  # the counsel-only memo is not even counted
    # edited away and back: each check comes without the search, which then puts the finding back
    text = path.read_text(encoding="utf-8")
    change_all(client, u, "# Answer\n\nNothing cited here yet.\n", 2)
    await until(lambda: u in client.diagnostics and not _found(client, u), what="no finding")
    change_all(client, u, text, 3)
    (again,) = await until(lambda: _found(client, u), what="the finding again")
    assert again.message == d.message


async def test_conflicts_off_publishes_none(client: LanguageClient, tmp_path: Path):
    ws = make(tmp_path, conflicts="off")
    path = draft(ws, cite(DRAFT, DRF))
    await start(client, ws)
    u = open_doc(client, path)
    await until(lambda: u in client.diagnostics, what="diagnostics")
    await asyncio.sleep(2.0)  # longer than the background search's delay and work
    assert _found(client, u) == []
