"""The nli judge in the language server: the tiny ONNX classifier of tests/nli_model.py, loaded
by the real provider inside `cairn serve`, driven over JSON-RPC. The lexical verdicts are
published at once; the model's replace them when ready (diagnostics and hover); a damaged
model folder leaves the lexical verdicts with a judge-fallback note; a folder outside the
workspace is loaded only when the user's own settings name it."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

import nli_model
import nli_ws
from lsp_util import line_of, open_doc, start, until
from nli_ws import BRIDGE, FERRIES


async def hover(client: LanguageClient, u: str, line: int) -> str:
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=u),
                          position=types.Position(line=line, character=3))
    )
    return h.contents.value if h is not None else ""


def coded(client: LanguageClient, u: str, code: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics.get(u, []) if d.code == code]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return nli_ws.build(tmp_path / "ws")


def lines(root: Path) -> tuple[Path, int, int]:
    path = root / "drafts" / "answer.md"
    text = path.read_text(encoding="utf-8")
    return path, line_of(text, FERRIES), line_of(text, BRIDGE)


async def test_the_models_verdicts_replace_the_lexical_ones(client: LanguageClient, ws: Path):
    await start(client, ws)
    path, ferries, bridge = lines(ws)
    u = open_doc(client, path)
    # the model's verdicts arrive: its no fails the bridge claim the lexical check passed ...
    diags = await until(lambda: [d for d in coded(client, u, "unsupported-claim") if d.range.start.line == bridge],
                        timeout=30, what="the model's verdict")
    assert "nli judge" in diags[0].message
    md = await hover(client, u, bridge)
    assert "❌ **Not supported**" in md and "· nli" in md
    # ... and its yes passes the ferries claim the lexical check failed
    assert not [d for d in coded(client, u, "unsupported-claim") if d.range.start.line == ferries]
    md = await hover(client, u, ferries)
    assert "✅ **Supported**" in md and "· nli" in md
    assert not coded(client, u, "judge-fallback")


async def test_a_damaged_model_falls_back_in_the_editor(client: LanguageClient, ws: Path):
    (ws / nli_ws.MODEL / "model.onnx").write_bytes(b"not a graph" * 100)
    await start(client, ws)
    path, ferries, bridge = lines(ws)
    u = open_doc(client, path)
    notes = await until(lambda: coded(client, u, "judge-fallback"), timeout=30, what="the judge-fallback notes")
    assert all("model.onnx cannot be loaded" in d.message and "lexical check decided" in d.message for d in notes)
    assert notes[0].severity == types.DiagnosticSeverity.Information
    # the lexical check decided
    md = await hover(client, u, bridge)
    assert "✅ **Supported**" in md and "· fallback" in md
    assert [d.range.start.line for d in coded(client, u, "unsupported-claim")] == [ferries]


async def test_an_outside_folder_is_loaded_only_when_the_user_names_it(client: LanguageClient, ws: Path,
                                                                       tmp_path: Path):
    outside = nli_model.build(tmp_path / "elsewhere" / "tiny")
    nli_ws.configure(ws, str(outside))
    client.set_configuration({"judge": {"model": str(outside)}}, section="cairn")
    await start(client, ws)
    path, ferries, bridge = lines(ws)
    u = open_doc(client, path)
    await until(lambda: [d for d in coded(client, u, "unsupported-claim") if d.range.start.line == bridge],
                timeout=30, what="the model's verdict")
    assert "· nli" in await hover(client, u, ferries)


async def test_an_outside_folder_only_the_workspace_names_is_refused(client: LanguageClient, ws: Path,
                                                                     tmp_path: Path):
    outside = nli_model.build(tmp_path / "elsewhere" / "tiny")
    nli_ws.configure(ws, str(outside))
    await start(client, ws)
    path, ferries, bridge = lines(ws)
    u = open_doc(client, path)
    notes = await until(lambda: coded(client, u, "judge-fallback"), timeout=30, what="the refusal")
    assert all("refused to load the judge model folder" in d.message for d in notes)
    assert "· fallback" in await hover(client, u, bridge)
    shown = [m.message for m in client.messages]
    assert any("refused to load" in m for m in shown), shown
