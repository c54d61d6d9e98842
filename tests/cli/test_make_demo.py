"""`make demo` as a new user meets it: it installs Cairn alone (no test or PostgreSQL
extras, no compiled rules: quick on a fresh clone) and says where its copy is and how to
check it again. Read from make's own plan (`make -n`) for a fresh virtual environment."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _plan(target: str, venv: Path) -> list[str]:
    proc = subprocess.run(["make", "-n", target, f"VENV={venv}"], cwd=REPO, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_installs_cairn_alone_and_says_where_its_copy_is(tmp_path: Path):
    venv = tmp_path / "fresh-venv"
    plan = _plan("demo", venv)
    installs = [line for line in plan if " install " in line and "pip" in line]
    assert any(line.rstrip().endswith("install --quiet -e .") for line in installs), installs
    assert not any("[test" in line or "postgres" in line or "[" in line.split("install")[-1] for line in installs), installs
    assert not any("native_build" in line for line in plan), "make demo compiles the rules"
    where = str(venv / "demo")
    assert any("copy is " + where in line and f"cd {where} && ../bin/cairn check" in line for line in plan), plan


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_test_still_installs_the_test_extras_and_builds_the_rules(tmp_path: Path):
    plan = _plan("test-python", tmp_path / "fresh-venv")
    assert any("-e '.[test,postgres]'" in line for line in plan), plan
    assert any("native_build build" in line for line in plan), plan
