"""A framing error stops the server (issue 11, item 10).

After `Content-Length: abc`, or a length shorter than the body, the stream is
out of step: `cairn serve` used to answer nothing more, `shutdown` included,
and the editor waited for ever. It must exit non-zero with the reason on
stderr, so the editor starts it again. Raw bytes on the server's stdin, which
stays open (an end of stream would stop any server), with a timeout.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from robust_util import cairn_env


def frame(message: dict, *, length: int | None = None) -> bytes:
    body = json.dumps(message).encode()
    return f"Content-Length: {len(body) if length is None else length}\r\n\r\n".encode() + body


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"processId": None, "rootUri": None, "capabilities": {}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "initialized", "params": {}}
SHUTDOWN = {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}
EXIT = {"jsonrpc": "2.0", "method": "exit"}


def run_server(tmp_path: Path, chunks: list[bytes], timeout: float = 30) -> tuple[int | None, bytes, str]:
    """Send `chunks` (a pause between them) and wait for the server to end, stdin left open.
    Returns (exit code or None when it is still running, stdout, stderr)."""
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    with out.open("wb") as fo, err.open("wb") as fe:
        proc = subprocess.Popen([sys.executable, "-m", "cairn", "serve"], cwd=tmp_path, stdin=subprocess.PIPE,
                                stdout=fo, stderr=fe, env=cairn_env())
        try:
            for chunk in chunks:
                try:
                    proc.stdin.write(chunk)
                    proc.stdin.flush()
                except BrokenPipeError:
                    break  # the server already stopped (what a framing error must do): nothing more to send
                time.sleep(0.3)
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                code = None
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass
    return code, out.read_bytes(), err.read_text(encoding="utf-8", errors="replace")


def test_a_clean_session_ends_with_exit_0(tmp_path: Path):
    """The harness itself: initialize, shutdown, exit; a header other than the two LSP
    names is passed over, as before."""
    other = b"X-Trace: 1\r\n" + frame(INITIALIZED)
    code, stdout, _ = run_server(tmp_path, [frame(INITIALIZE), other, frame(SHUTDOWN), frame(EXIT)])
    assert code == 0
    assert b'"id": 2' in stdout or b'"id":2' in stdout


@pytest.mark.parametrize("garbage", [
    b"Content-Length: abc\r\n\r\n" + json.dumps(INITIALIZE).encode(),
    b"Content-Length: 12\r\n\r\n" + json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                                                  "params": {"textDocument": {"uri": "file:///x.md"}}}).encode(),
    b"Content-Length: 99999999999999\r\n\r\n{}",
    b"content-length: 2\r\n\r\n{}",
    b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    json.dumps(SHUTDOWN).encode() + b"\r\n",
], ids=["not-a-number", "shorter-than-body", "absurd-length", "lower-case", "two-lengths", "no-header"])
def test_a_framing_error_stops_the_server(tmp_path: Path, garbage: bytes):
    """No `exit` is sent: before, the server hung; a server in step would wait for it too,
    but one out of step cannot read it, so it stops by itself."""
    code, stdout, stderr = run_server(tmp_path, [frame(INITIALIZE), frame(INITIALIZED), garbage, frame(SHUTDOWN)])
    assert code is not None, "the server hung after a framing error"
    assert code != 0
    assert "framing error" in stderr, stderr[-2000:]
    assert "Traceback" not in stderr, stderr[-2000:]
    assert b'"id": 1' in stdout or b'"id":1' in stdout  # it did answer before


def test_a_framing_error_as_the_first_message(tmp_path: Path):
    code, _, stderr = run_server(tmp_path, [b"Content-Length: abc\r\n\r\n" + json.dumps(INITIALIZE).encode()
                                            + frame(SHUTDOWN)])
    assert code is not None and code != 0, stderr[-2000:]
    assert "framing error" in stderr


def _replies(stdout: bytes) -> dict:
    """The server's responses by id, from its framed output."""
    out, rest = {}, stdout
    while b"\r\n\r\n" in rest:
        head, rest = rest.split(b"\r\n\r\n", 1)
        n = int(head.split(b"Content-Length:")[-1].split(b"\r\n")[0])
        msg, rest = json.loads(rest[:n]), rest[n:]
        if "id" in msg and "method" not in msg:
            out[msg["id"]] = msg
    return out


def test_a_request_it_cannot_read_is_answered_with_its_error(tmp_path: Path):
    """Params of the wrong shape (a hover without a position, params that are no object, a
    command without its name): each request is answered with Invalid Params, as JSON-RPC wants,
    instead of being dropped while the client waits; the server goes on answering."""
    bad = [
        {"jsonrpc": "2.0", "id": 777, "method": "textDocument/hover",
         "params": {"textDocument": {"uri": "file:///x.md"}}},
        {"jsonrpc": "2.0", "id": "s1", "method": "textDocument/hover", "params": "notanobject"},
        {"jsonrpc": "2.0", "id": 778, "method": "workspace/executeCommand", "params": {}},
    ]
    code, stdout, stderr = run_server(
        tmp_path, [frame(INITIALIZE), frame(INITIALIZED), *map(frame, bad), frame(SHUTDOWN), frame(EXIT)])
    assert code == 0, stderr[-2000:]
    got = _replies(stdout)
    for msg_id in (777, "s1", 778):
        assert got[msg_id]["error"]["code"] == -32602, got.get(msg_id)
    assert "result" in got[2]  # shutdown, after them
