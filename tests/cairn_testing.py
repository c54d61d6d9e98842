"""Helpers for tests that run the real `cairn` command or drive the real
`cairn serve` as a language client (importable from any test folder:
tests/conftest.py puts this folder on sys.path)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path


def run_cairn(cwd: Path, *args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    for name in ("CAIRN_JUDGE_URL", "CAIRN_ASK_URL", "CAIRN_JUDGE_MODEL"):
        if env is None or name not in env:
            full_env.pop(name, None)  # a developer's own judge or model must not leak into tests
    return subprocess.run(
        [sys.executable, "-m", "cairn", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


def check_json(cwd: Path, *args: str) -> tuple[int, dict]:
    proc = run_cairn(cwd, "check", "--format", "json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def run_in_pty(cwd: Path, *args: str, stdout_to_pty: bool = True, timeout: float = 60) -> tuple[int, str]:
    """Run `cairn ARGS` with stderr (and stdout) on a pseudo-terminal, as a
    person at a terminal would; returns the exit code and what the terminal showed."""
    import pty

    env = {k: v for k, v in os.environ.items() if k not in ("CAIRN_JUDGE_URL", "CAIRN_ASK_URL", "CAIRN_JUDGE_MODEL")}
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "cairn", *args], cwd=cwd, stdin=slave,
                            stdout=slave if stdout_to_pty else subprocess.DEVNULL, stderr=slave,
                            close_fds=True, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the other side closed
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=timeout)
    os.close(master)
    return proc.returncode, b"".join(chunks).decode("utf-8", "replace")


# -- a language client's helpers (tests/lsp, tests/robust) --------------------------

SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}  # LSP DiagnosticSeverity


def uri(path: Path) -> str:
    return path.resolve().as_uri()


async def until(predicate, *, timeout: float = 15.0, what: str = "a condition"):
    """Wait for `predicate()` to be truthy and return its value."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def open_doc(client, path: Path, text: str | None = None, version: int = 1) -> str:
    """textDocument/didOpen of a Markdown file (its text on disk unless given)."""
    from lsprotocol import types

    u = uri(path)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=u, language_id="markdown", version=version,
                text=path.read_text(encoding="utf-8", errors="replace") if text is None else text,
            )
        )
    )
    return u


def expected_diagnostics(report: dict, rel: str) -> list[tuple]:
    """(code, 0-based line, LSP severity, message) of a draft in a `cairn check` JSON report."""
    draft = next(d for d in report["drafts"] if d["path"] == rel)
    out = [(d["code"], d["line"] - 1, SEVERITY[d["severity"]], d["message"]) for d in draft["diagnostics"]]
    for c in draft["claims"]:
        out += [(d["code"], d["line"] - 1, SEVERITY[d["severity"]], d["message"]) for d in c["diagnostics"]]
    # the editor shows each uncited prose paragraph the report lists as an information finding
    from cairn.report.base import uncited_message

    out += [("uncited-prose", u["line"] - 1, SEVERITY["information"], uncited_message(u["text"]))
            for u in draft.get("uncited", [])]
    return sorted(out)


def assert_diagnostics_match(diags, want: list[tuple]) -> None:
    """Published diagnostics equal the report's: each code, severity and
    message once, its range covering the report's line."""
    assert len(diags) == len(want), (sorted(d.code for d in diags), [w[0] for w in want])
    left = list(diags)
    for code, line, severity, message in want:
        hit = next(
            (d for d in left if d.code == code and d.message == message and d.severity == severity
             and d.range.start.line <= line <= d.range.end.line),
            None,
        )
        assert hit is not None, (code, line, message)
        left.remove(hit)
    assert all(d.source == "cairn" for d in diags)
