"""Helpers for tests that run the real `cairn` command (importable from any
test folder: tests/conftest.py puts this folder on sys.path)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def run_cairn(cwd: Path, *args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    if env is None or "CAIRN_JUDGE_URL" not in env:
        full_env.pop("CAIRN_JUDGE_URL", None)  # a developer's own judge must not leak into tests
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

    env = {k: v for k, v in os.environ.items() if k != "CAIRN_JUDGE_URL"}
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
