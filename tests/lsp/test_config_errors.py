"""A refused configuration and refused commands, through the real server.

While a folder's cairn.toml is invalid, nothing is checked: each open draft
gets one diagnostic on its first line naming the error, not a `source-denied`
on every citation, and the normal diagnostics return once the file is fixed.
A command the server refuses on purpose is logged as one plain line, never
with a Python traceback."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from cairn_testing import assert_diagnostics_match, expected_diagnostics
from lsp_util import build_demo, cli_report, open_doc, start, until, uri

DRAFTS = ("drafts/review-notes.md", "drafts/credits-answer.md")


async def test_an_invalid_cairn_toml_is_one_diagnostic_until_it_is_fixed(client: LanguageClient, tmp_path: Path):
    root = build_demo(tmp_path / "demo")
    report = cli_report(root)  # the verdicts with the valid file
    toml = root / "cairn.toml"
    good = toml.read_text(encoding="utf-8")
    toml.write_text(good.replace("threshold = 0.5", 'threshold = "high"'), encoding="utf-8")
    await start(client, root)
    assert any("threshold" in m.message for m in client.messages)  # said once as a message too
    us = [open_doc(client, root / rel) for rel in DRAFTS]
    for u in us:
        diags = await until(lambda: client.diagnostics.get(u), what="the configuration error on the open draft")
        (d,) = diags
        assert d.code == "configuration" and d.severity == types.DiagnosticSeverity.Error
        assert d.range.start.line == d.range.end.line == 0 and d.range.start.character == 0
        assert d.message.startswith("configuration error: ") and "threshold" in d.message
    # nothing else is checked or counted: no refusal of every citation, no closed draft published
    assert not [d for u in us for d in client.diagnostics[u] if d.code == "source-denied"]
    assert not client.diagnostics.get(uri(root / "drafts/legacy-import.md"))
    await until(lambda: client.checked[-1]["metrics"]["answers"] == 0, what="no answer counted")
    # an edit of an open draft keeps the one diagnostic
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=us[0], version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text="New text.\n")]))
    await until(lambda: client.diagnostics.get(us[0]) and client.diagnostics[us[0]][0].range.end.character == 9,
                what="the diagnostic on the edited first line")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=us[0], version=3),
        content_changes=[types.TextDocumentContentChangeWholeDocument(
            text=(root / DRAFTS[0]).read_text(encoding="utf-8"))]))
    # fixed: the normal diagnostics return, the same as `cairn check`'s
    toml.write_text(good, encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri(toml), type=types.FileChangeType.Changed)]))
    for rel, u in zip(DRAFTS, us):
        want = expected_diagnostics(report, rel)
        await until(lambda: len(client.diagnostics.get(u, [])) == len(want)
                    and all(d.code != "configuration" for d in client.diagnostics[u]), what=f"{rel} checked again")
        assert_diagnostics_match(client.diagnostics[u], want)
    await until(lambda: client.checked[-1]["metrics"] == report["metrics"], what="the metrics of the fixed folder")


# -- a refused command -------------------------------------------------------------------

# The server's environment allows no model URL: the workspace's own non-loopback URL is refused
# before any connection (ask.AskModel sets `problem` when the URL is not trusted; cairn.ask raises
# on it before write_answer). 192.0.2.1 is TEST-NET-1, reserved for documentation, in any case.
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("CAIRN_ASK_URL", "CAIRN_JUDGE_URL")}
REFUSING = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"], server_env=CLEAN_ENV)


@pytest_lsp.fixture(config=REFUSING)
async def refusing(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def test_a_refused_command_is_one_log_line_without_a_traceback(refusing: LanguageClient, tmp_path: Path):
    root = build_demo(tmp_path / "demo")
    with (root / "cairn.toml").open("a", encoding="utf-8") as f:
        f.write('\n[ask]\nprovider = "openai"\nurl = "http://192.0.2.1:9/v1"\nmodel = "m"\n')
    await start(refusing, root)
    with pytest.raises(Exception, match="refused to contact the ask URL"):
        await refusing.workspace_execute_command_async(
            types.ExecuteCommandParams(command="cairn.ask", arguments=["How long?", uri(root)]))
    with pytest.raises(Exception, match="with a question"):  # a refused argument: the same
        await refusing.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.ask", arguments=[]))
    lines = await until(lambda: [m for m in refusing.log_messages if "refused" in m.message] or None,
                        what="the refusal logged")
    assert any("cairn.ask: refused to contact the ask URL" in m.message for m in lines)
    assert [m.message for m in refusing.log_messages if "Traceback" in m.message] == []
    assert all("\n" not in m.message for m in lines)
    assert not [m for m in refusing.log_messages if m.type == types.MessageType.Error]
