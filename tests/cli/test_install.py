"""Installing Cairn for real use, as the README says: a wheel built by `make dist`
from a fresh clone, installed into an environment of its own, outside the repository's
.venv; then the guide's first steps run verbatim, as a script, with that `cairn`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _first_steps() -> tuple[str, str, str]:
    """The guide's first-steps script, the chunk listing it shows and the draft it shows."""
    guide = (REPO / "docs" / "guide.md").read_text(encoding="utf-8")
    section = guide.split("## First steps", 1)[1].split("\n## ", 1)[0]
    script = re.search(r"^````sh\n(.*?)^````$", section, re.S | re.M).group(1)
    listing = re.search(r"```console\n(.*?)```", section, re.S).group(1)
    draft = re.search(r"````markdown\n(.*?)\n\s*````", section, re.S).group(1)
    return (script, "\n".join(line.strip() for line in listing.splitlines()),
            "\n".join(line[2:] for line in draft.splitlines()) + "\n")


def test_a_wheel_of_a_fresh_clone_runs_the_guides_first_steps(tmp_path: Path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True, timeout=120)
    made = subprocess.run(["make", "-C", str(clone), "dist", f"PYTHON={sys.executable}"], capture_output=True,
                          text=True, timeout=600)
    assert made.returncode == 0, made.stderr
    (wheel,) = (clone / "dist").glob("cairn-*-py3-none-any.whl")

    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    site = Path(subprocess.run([env / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # Cairn's dependencies come from the test's own environment (no network needed for them);
    # Cairn itself only from the wheel: a path added by a .pth runs no .pth of its own,
    # so the editable install of this checkout is not seen
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install", "--quiet",
                    "--no-deps", "--no-index", str(wheel)], check=True, timeout=300)
    where = subprocess.run([env / "bin" / "python", "-c", "import cairn; print(cairn.__file__)"],
                           capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(site)), where
    path = f"{env / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("CAIRN_", "VIRTUAL_ENV", "PYTHON"))}
    clean["PATH"] = path
    version = subprocess.run(["cairn", "--version"], capture_output=True, text=True, env=clean, timeout=60)
    # a wheel's environment has no compiled build of the rules (the repository's venv has, cairn/native.py)
    assert version.stdout.splitlines() == ["cairn, version 0.1.0", "support check rules: pure Python (not built)"]

    script, listing, draft = _first_steps()
    work = tmp_path / "work"
    work.mkdir()
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=work, capture_output=True, text=True,
                         env=clean, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("claims 1/1 verified") == 2, run.stdout
    assert listing in run.stdout  # the chunk ids and ranges the guide shows are the real ones
    report = work / "my-report"
    assert (report / "cairn.toml").is_file() and (report / ".cairn" / "index.db").is_file()
    # the draft the guide shows is the one `cairn cite` wrote, and `cite --for` offered that passage
    assert (report / "drafts" / "refunds.md").read_text(encoding="utf-8") == draft
    assert "supports it" in run.stdout and "quote: \"Refunds are paid within 14 days of the request.\"" in run.stdout
    assert "Traceback" not in run.stderr


def test_make_package_names_a_missing_node(tmp_path: Path):
    empty = tmp_path / "bin"
    empty.mkdir()
    proc = subprocess.run(["/bin/bash", str(REPO / "client-vscode" / "scripts" / "package.sh")],
                          capture_output=True, text=True, env={"PATH": str(empty)}, timeout=60)
    assert proc.returncode == 2
    assert "make package needs Node.js 20 or newer, with npm, on PATH (found: none)" in proc.stderr


def test_the_pre_commit_hook_checks_a_real_repository(tmp_path: Path):
    """`pre-commit try-repo` installs Cairn from this repository into pre-commit's own
    environment and runs the hook in a git repository holding a workspace: a failing
    claim fails the hook, a fixed one passes."""
    ws = tmp_path / "ws"
    ws.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "init", "--quiet"], cwd=ws, check=True)
    subprocess.run([sys.executable, "-m", "cairn", "init"], cwd=ws, check=True, capture_output=True)
    draft = ws / "drafts" / "first-draft.md"
    good = draft.read_text()
    draft.write_text(good.replace("quote: \"a reader can", "quote: \"a writer can"))
    subprocess.run([*git, "add", "-A"], cwd=ws, check=True)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    env = {k: v for k, v in env.items() if not k.startswith("CAIRN_")}
    pre_commit = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "cairn-check", "--all-files"]
    bad = subprocess.run(pre_commit, cwd=ws, capture_output=True, text=True, env=env, timeout=900)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "quote-not-found" in bad.stdout, bad.stdout
    draft.write_text(good)
    subprocess.run([*git, "add", "-A"], cwd=ws, check=True)
    ok = subprocess.run(pre_commit, cwd=ws, capture_output=True, text=True, env=env, timeout=900)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert re.search(r"^cairn check \(span citations\)\.+Passed$", ok.stdout, re.M), ok.stdout
