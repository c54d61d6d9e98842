"""Trust boundaries, round two, finding 12: a named pipe (or a device) where Cairn expects a
file of the workspace never blocks it. Opening a pipe for reading waits for a writer; the
language server has one engine thread, so one such read stopped every later check until it
was restarted. Every read of a workspace file now looks at what the file is first, without
blocking, and says what it refused.

Each test unblocks its own pipes when it ends (a writer opened and closed), so a regression
fails the test instead of leaving a process stuck."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from robust_util import check_json, lsp_start, open_doc, popen_cairn, until

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"])

# a test's subprocess gets this long; a check of the demo takes about two seconds
PROMPTLY = 30


@contextlib.contextmanager
def pipes(*paths: Path):
    """Make named pipes; when done, let whatever is blocked reading one see its end."""
    for p in paths:
        os.mkfifo(p)
    try:
        yield
    finally:
        for p in paths:
            try:
                fd = os.open(p, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO when no one reads it: nothing stuck
            except OSError:
                continue
            os.close(fd)


def _check(demo: Path, *args: str):
    proc = popen_cairn(demo, "check", *args)
    try:
        out, err = proc.communicate(timeout=PROMPTLY)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"`cairn check {' '.join(args)}` did not finish in {PROMPTLY} s") from None
    return proc.returncode, out, err


def test_check_passes_over_pipes_under_drafts_and_sources_and_says_so(demo: Path):
    with pipes(demo / "drafts" / "pipe.md", demo / "sources" / "pipe.md"):
        code, out, err = _check(demo, "--format", "json")
        assert code == 1, err
        assert "drafts/pipe.md: not a regular file (a named pipe): not read, not checked" in err
        assert "Traceback" not in err
        # the other drafts are checked as usual
        assert '"drafts/credits-answer.md"' in out
        code, _, err = _check(demo, "drafts/pipe.md")
        assert code == 2 and "drafts/pipe.md: not a regular file (a named pipe)" in err
        index = popen_cairn(demo, "index")
        _, err = index.communicate(timeout=PROMPTLY)
        assert "sources/pipe.md: skipped: not a regular file" in err


def test_a_pipe_for_cairn_toml_is_a_configuration_error_not_an_empty_one(demo: Path):
    (demo / "cairn.toml").unlink()
    with pipes(demo / "cairn.toml"):
        code, _, err = _check(demo)
    assert code == 2, err
    assert "cairn.toml: not a regular file (a named pipe): not read" in err


def test_a_pipe_in_the_index_folder_is_not_waited_on(demo: Path):
    """.cairn/.gitignore and a snapshot's record are read by every check that indexes."""
    assert check_json(demo)[0] == 1  # makes .cairn/ and its snapshots
    gitignore = demo / ".cairn" / ".gitignore"
    gitignore.unlink()
    with pipes(gitignore):
        code, _, err = _check(demo)
        assert code == 1, err
        assert "Traceback" not in err


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def test_the_server_opens_a_pipe_draft_and_still_checks_the_next(client: LanguageClient, demo: Path):
    """A pipe opened in the editor: its text is what the editor holds; the file on disk is
    never waited on, and the engine goes on to check the next draft."""
    fifo = demo / "drafts" / "pipe.md"
    normal = demo / "drafts" / "credits-answer.md"
    text = normal.read_text(encoding="utf-8")
    with pipes(fifo):
        await lsp_start(client, demo)
        pipe_uri = open_doc(client, fifo, text)
        await until(lambda: pipe_uri in client.diagnostics, timeout=20, what="diagnostics of the pipe draft")
        # the same claims as the file they came from: the editor's text was checked
        assert {d.code for d in client.diagnostics[pipe_uri]} <= {"citation-reuse", "unsupported-claim", "uncited-prose"}
        normal_uri = open_doc(client, normal, text.replace("14 days", "30 days", 1), version=2)
        diags = await until(lambda: [d for d in client.diagnostics.get(normal_uri, [])
                                     if d.code == "number-mismatch"], timeout=20,
                            what="the number-mismatch of a draft opened after the pipe")
        assert diags
        # and the server still answers requests
        hover = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=normal_uri), position=types.Position(line=0, character=0)))
        assert hover is None or hover.contents is not None
