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
