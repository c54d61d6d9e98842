"""Shared test helpers: the demo workspace and the real `cairn` process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "fixtures"))

import make_demo  # noqa: E402

SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A fresh runnable copy of fixtures/demo (a git repo with its history)."""
    return make_demo.build(tmp_path / "demo")


def run_cairn(cwd: Path, *args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    full_env.pop("CAIRN_JUDGE_URL", None) if env is None or "CAIRN_JUDGE_URL" not in env else None
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


@pytest.fixture
def cairn():
    return run_cairn
