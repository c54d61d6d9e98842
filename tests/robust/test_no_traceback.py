"""No traceback reaches a user (issue 11, item 11): every command, under
faults a workspace can bring (files that cannot be read, a folder that cannot
be written, a bad configuration, paths that do not exist, Cairn's own folder
in the way), ends with one-line messages and exit 0, 1 or 2.

A failed `--fix` write is exit 2 with one line naming the draft and saying it
was not changed. The commands are read from `cairn --help`, so a new one is
run too (with no argument when this file does not know what it needs).

The tests run as root in CI, where permissions do not stop a read or a write:
the read-only faults then use the immutable attribute (`chattr +i`) when the
file system allows it.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import stat
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from robust_util import popen_cairn, run_cairn

# what each known command is given under every fault; a command not listed runs with no argument
ARGS = {
    "index": [[]],
    "chunks": [["--json"]],
    "check": [["--format", "json"], ["--fix"]],
    "gc": [[]],
    "calibrate": [["labels.jsonl"]],
    "cite": [["14 days"]],
    "ask": [["How long does a customer have?"]],
    "init": [[]],
}
# paths that do not exist or are not what they should be (run once, in the intact workspace)
MISSING = [["chunks", "sources/nope.md"], ["check", "nope.md"], ["check", "--baseline", "nope.json"],
           ["check", "--baseline", "drafts"], ["check", "--fix", "drafts/nope/"], ["calibrate", "nope.jsonl"],
           ["calibrate", "drafts"], ["gc", "--purge", "sources/nope.md"], ["cite", "--source", "nope.md", "x"]]
SKIP = {"serve"}  # the language server: tests/robust/test_server_*.py


@functools.cache
def commands() -> tuple[str, ...]:
    out = run_cairn(Path.cwd(), "--help").stdout
    section = out.split("Commands:", 1)[1]
    return tuple(m.group(1) for m in re.finditer(r"^  (\S+)", section, re.M) if m.group(1) not in SKIP)


def _run_all(root: Path, invocations: list[list[str]], what: str) -> None:
    """Run each invocation (two at a time: the machine has two cores) and check what a user sees."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        procs = list(pool.map(lambda args: run_cairn(root, *args, timeout=120), invocations))
    for args, proc in zip(invocations, procs):
        where = f"cairn {' '.join(args)} {what}"
        assert "Traceback" not in proc.stderr + proc.stdout, f"{where}:\n{proc.stderr[-3000:]}"
        assert "internal error" not in proc.stderr, f"{where}: a bug caught by the last resort:\n{proc.stderr}"
        assert proc.returncode in (0, 1, 2), f"{where}: exit {proc.returncode}\n{proc.stderr[-2000:]}"
        if proc.returncode == 2:
            assert proc.stderr.strip(), f"{where}: exit 2 without a word"


def _immutable(path: Path, on: bool) -> bool:
    """chattr +i / -i; False when the file system or the user cannot."""
    try:
        return subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True).returncode == 0
    except OSError:
        return False


def _cannot_write(path: Path) -> list[Path]:
    """Make `path` (a folder) unwritable; returns what to restore."""
    path.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP)
    if os.geteuid() == 0:
        return [path] if _immutable(path, True) else []
    return []


def _restore(paths: list[Path], root: Path) -> None:
    for p in paths:
        _immutable(p, False)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            if not p.is_symlink():
                p.chmod(0o755 if p.is_dir() else 0o644)


def _fault_unreadable(root: Path) -> list[Path]:
    (root / "sources" / "policy.md").chmod(0)
    (root / "drafts" / "review-notes.md").chmod(0)
    (root / "sources" / "dir.md").mkdir()  # a folder where a file is expected
    (root / "drafts" / "dir.md").mkdir()
    (root / "sources" / "gone.md").symlink_to(root / "nowhere.md")
    return []


def _fault_read_only_workspace(root: Path) -> list[Path]:
    shutil.rmtree(root / ".cairn", ignore_errors=True)
    return _cannot_write(root)


def _fault_cairn_folder_is_a_file(root: Path) -> list[Path]:
    shutil.rmtree(root / ".cairn", ignore_errors=True)
    (root / ".cairn").write_text("not a folder\n", encoding="utf-8")
    return []


def _fault_index_is_a_folder(root: Path) -> list[Path]:
    shutil.rmtree(root / ".cairn", ignore_errors=True)
    (root / ".cairn" / "index.db").mkdir(parents=True)
    return []


def _fault_bad_config(root: Path) -> list[Path]:
    (root / "cairn.toml").write_text('sources = ["sources"\nthreshold = [', encoding="utf-8")
    return []


def _fault_config_is_a_folder(root: Path) -> list[Path]:
    (root / "cairn.toml").unlink()
    (root / "cairn.toml").mkdir()
    return []


def _fault_missing_source_root(root: Path) -> list[Path]:
    (root / "cairn.toml").write_text('sources = ["nothere"]\ndrafts = ["drafts/*.md"]\n', encoding="utf-8")
    return []


def _fault_drafts_read_only(root: Path) -> list[Path]:
    return _cannot_write(root / "drafts")


FAULTS = {name[len("_fault_"):]: fn for name, fn in globals().items() if name.startswith("_fault_")}


def _labels(root: Path) -> None:
    (root / "labels.jsonl").write_text(json.dumps({"claim": "A customer has 14 days.", "quotes": [
        "A customer has 14 days to request a credit"], "label": True}) + "\n", encoding="utf-8")


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_every_command_under_faults_prints_no_traceback(demo: Path, fault: str):
    _labels(demo)
    assert run_cairn(demo, "index").returncode == 0  # an index to work on, before the fault
    restore = FAULTS[fault](demo)
    try:
        _run_all(demo, [[c, *args] for c in commands() for args in ARGS.get(c, [[]])], f"under {fault}")
    finally:
        _restore(restore, demo)


def test_missing_paths_print_no_traceback(demo: Path):
    _labels(demo)
    known = set(commands())
    _run_all(demo, [args for args in MISSING if args[0] in known], "(a missing path)")


def test_a_fix_that_cannot_be_written_is_exit_2_and_one_line(demo: Path):
    before = (demo / "drafts" / "review-notes.md").read_bytes()
    assert b"```cite" in before
    restore = _cannot_write(demo / "drafts")
    if os.geteuid() == 0 and not restore:
        pytest.fail("running as root without chattr: the fault cannot be made")  # never a silent pass
    try:
        proc = run_cairn(demo, "check", "--fix")
    finally:
        _restore(restore, demo)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    (line,) = [x for x in proc.stderr.splitlines() if "could not write" in x]
    assert "drafts/" in line and "not changed" in line
    assert (demo / "drafts" / "review-notes.md").read_bytes() == before
    assert not list((demo / "drafts").glob(".*.cairn-tmp"))


def test_a_closed_pipe_is_no_traceback(demo: Path):
    """`cairn chunks | head -1`: the reader goes away (more chunks than a pipe holds)."""
    (demo / "sources" / "many.txt").write_text("".join(f"Paragraph {i} of a long source.\n\n" for i in range(20_000)),
                                              encoding="utf-8")
    proc = popen_cairn(demo, "chunks")
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert "Traceback" not in err, err
