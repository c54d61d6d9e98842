"""A draft's first diagnostics kept in the index across starts (lsp/kept_diagnostics.py), through
real servers: a reopened, unchanged draft is published from the index, once, with what the first
start published; an edited text is checked and never gets the kept ones."""

from __future__ import annotations

import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import pytest
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


@pytest.fixture
def kept_ws(tmp_path: Path) -> tuple[Path, str]:
    """The demo with a draft of a verified claim and a failing one, checked once by the command line
    (lsp/test_kept_verdicts.ws), and opened once by a server, which keeps its first diagnostics."""
    from lsp_util import build_demo

    root = build_demo(tmp_path / "demo")
    write_draft(root, GOOD, BAD)
    cli_report(root)
    return root, (root / DRAFT).read_text(encoding="utf-8")


def _draft_rows(root: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(root / ".cairn/index.db")) as conn:
        return conn.execute("SELECT key, value FROM kv_cache WHERE key LIKE 'lsp-draft:%'").fetchall()


async def test_a_changed_source_is_checked_not_published_from_the_index(kept_ws):
    root, text = kept_ws
    first, _ = await opened(root, text)
    policy = root / "sources/policy.md"
    policy.write_text(policy.read_text(encoding="utf-8").replace("14 days", "10 days"), encoding="utf-8")
    again, read = await opened(root, text)
    assert not read
    # the quote of "14 days" is no longer in the current source: the first publication already says so
    assert again[0] != first[-1]


async def test_a_changed_threshold_is_checked_not_published_from_the_index(kept_ws):
    root, text = kept_ws
    await opened(root, text)
    assert (await opened(root, text))[1]  # unchanged, it is read
    toml = root / "cairn.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("threshold = 0.5", "threshold = 0.99"), encoding="utf-8")
    _, read = await opened(root, text)
    assert not read


async def test_an_edited_entry_is_not_read_and_a_broken_store_falls_back(kept_ws):
    """Someone with the index file (not this machine's key) empties the kept diagnostics: the entry
    is not read and the draft's failing claim is still published; then the cache table is gone."""
    root, text = kept_ws
    first, _ = await opened(root, text)
    rows = _draft_rows(root)
    assert rows and any("number-mismatch" in v for _, v in rows)
    with closing(sqlite3.connect(root / ".cairn/index.db")) as conn:
        for key, value in rows:
            conn.execute("UPDATE kv_cache SET value = ? WHERE key = ?",
                         (value.replace("number-mismatch", "kept-forged"), key))
        conn.commit()
    again, read = await opened(root, text)
    assert not read
    assert again[0] == first[-1] and not any(code == "kept-forged" for _, code, _ in again[0])
    with closing(sqlite3.connect(root / ".cairn/index.db")) as conn:
        conn.execute("DROP TABLE kv_cache")
        conn.commit()
    last, read = await opened(root, text)
    assert not read and last[-1] == first[-1]
