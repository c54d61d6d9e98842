"""A draft's first diagnostics kept in the index across starts (lsp/kept_diagnostics.py), through
real servers: a reopened, unchanged draft is published from the index, once, with what the first
start published; an edited text is checked and never gets the kept ones."""

from __future__ import annotations

import sys
from pathlib import Path

from lsprotocol import types
from pytest_lsp import ClientServerConfig
from test_kept_verdicts import BAD, DRAFT, GOOD, cli_report, write_draft

from lsp_util import capabilities, until, uri, watch_client

KEPT = "first diagnostics read from the index"


async def opened(root: Path, text: str) -> tuple[list, bool]:
    """One server's life with the draft open as `text`: the diagnostics of every publication of
    the draft, and whether the kept ones were read."""
    client = await ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"]).start()
    fm = client.protocol.fm
    shown: list = []
    handler = fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params: types.PublishDiagnosticsParams):
        if params.uri == uri(root / DRAFT):
            shown.append(sorted((d.range.start.line, d.code, d.message) for d in params.diagnostics))
        return handler(params)

    fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    try:
        # opened as an editor reopening a workspace opens it: right after `initialize`, before the
        # first check cycle (lsp_util.start, with the open in between)
        watch_client(client)
        await client.initialize_session(types.InitializeParams(
            capabilities=capabilities(), root_uri=uri(root),
            workspace_folders=[types.WorkspaceFolder(uri=uri(root), name=root.name)],
            initialization_options={"debounce_ms": 0}))
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri(root / DRAFT), language_id="markdown", version=1, text=text)))
        await until(lambda: client.checked, timeout=30, what="the first check cycle")
        await until(lambda: any("claim(s) verified" in m.message and DRAFT in m.message
                                for m in client.log_messages[-20:]) and shown, what="the draft checked")
        read = any(KEPT in m.message for m in client.log_messages)
    finally:
        await client.shutdown_session()
        await client.stop()
    return shown, read


async def test_an_unchanged_draft_is_published_from_the_index_once_and_an_edited_one_is_not(tmp_path: Path):
    from lsp_util import build_demo

    root = build_demo(tmp_path / "demo")
    path = write_draft(root, GOOD, BAD)
    cli_report(root)
    text = path.read_text(encoding="utf-8")
    first, read1 = await opened(root, text)
    assert not read1 and first
    again, read2 = await opened(root, text)
    assert read2
    assert again[0] == first[-1] and again[-1] == first[-1]
    edited = text.replace(BAD, "Customers have 14 days to request a credit for a damaged delivery.")
    shown, read3 = await opened(root, edited)
    assert not read3
    assert not any(code == "number-mismatch" for _, code, _ in shown[0])
