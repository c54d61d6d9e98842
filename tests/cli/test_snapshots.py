"""Snapshots through the real CLI (SPEC sections 1, 2 and 6): every indexed version is kept in
.cairn/snapshots/, a deleted index is rebuilt from them with the same verdicts, a snapshot that
does not hash to its name is never used, gc removes them with the versions, a snapshot from
elsewhere is not passed off as this machine's, and `cairn show` prints a chunk at a version."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

from cairn_testing import run_cairn
from policy_ws import chunk_id, cite

OLD = "The libffi library is thread-safe."
NEW = "The libffi library is not fully thread-safe."
MOVED = "Alpha beta gamma delta."


def make(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "sources").mkdir(parents=True)
    (ws / "drafts").mkdir()
    (ws / "cairn.toml").write_text('[principals]\nreader = ["public"]\n[[policy]]\npath = "sources/secret.md"\n'
                                   'access = ["counsel"]\n', encoding="utf-8")
    (ws / "sources" / "a.md").write_text(f"{MOVED}\n\n{OLD}\n", encoding="utf-8")
    (ws / "drafts" / "d.md").write_text(cite("libffi is thread-safe.", "sources/a.md", OLD)
                                        + cite("Alpha beta gamma delta.", "sources/a.md", MOVED), encoding="utf-8")
    return ws


def verdicts(ws: Path, env: dict | None = None) -> list[list[tuple[str, str]]]:
    proc = run_cairn(ws, "check", "--format", "json", env=env)
    assert proc.returncode in (0, 1), proc.stderr
    return [[(d["code"], d["message"]) for d in c["diagnostics"]]
            for d in json.loads(proc.stdout)["drafts"] for c in d["claims"]]


def supersede(ws: Path) -> None:
    """Edit the cited source: the first citation's quote is gone, the second's paragraph moved."""
    (ws / "sources" / "a.md").write_text(f"Zeta. {MOVED}\n\n{NEW}\n", encoding="utf-8")


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_deleted_index_gives_the_same_verdicts(tmp_path: Path) -> None:
    ws = make(tmp_path)
    assert verdicts(ws) == [[], []]
    supersede(ws)
    before = verdicts(ws)
    codes = [[c for c, _ in claim] for claim in before]
    assert codes == [["source-changed"], ["span-shifted"]], before
    assert NEW in before[0][0][1]  # "... now says ..."
    snaps = ws / ".cairn" / "snapshots"
    assert (snaps / f"{sha(MOVED + chr(10) * 2 + OLD + chr(10))}.gz").is_file()
    for p in (ws / ".cairn").glob("index.db*"):
        p.unlink()
    assert verdicts(ws) == before  # not unknown-chunk: the old version came back from its snapshot
    # and once more from a fresh index, in a copy of the workspace without any index
    copy = tmp_path / "copy"
    shutil.copytree(ws, copy, ignore=shutil.ignore_patterns("index.db*"))
    assert verdicts(copy) == before


def test_the_gitignore_keeps_the_snapshots_and_ignores_the_index(tmp_path: Path) -> None:
    ws = make(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    assert run_cairn(ws, "index").returncode == 0
    out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ws, check=True,
                         capture_output=True, text=True).stdout
    listed = {line[3:] for line in out.splitlines()}
    assert ".cairn/.gitignore" in listed
    assert any(p.startswith(".cairn/snapshots/") and p.endswith(".gz") for p in listed)
    assert any(p.startswith(".cairn/snapshots/") and p.endswith(".json") for p in listed)
    assert not any("index.db" in p or "snapshots.local" in p for p in listed), listed


def test_a_snapshot_that_does_not_hash_to_its_name_is_never_used(tmp_path: Path) -> None:
    ws = make(tmp_path)
    verdicts(ws)
    supersede(ws)
    verdicts(ws)
    old = ws / ".cairn" / "snapshots" / f"{sha(MOVED + chr(10) * 2 + OLD + chr(10))}.gz"
    # a forged snapshot: other bytes under the old version's name
    old.write_bytes(gzip.compress(f"{MOVED}\n\n{OLD} Forged.\n\n{OLD}\n".encode()))
    for p in (ws / ".cairn").glob("index.db*"):
        p.unlink()
    proc = run_cairn(ws, "check", "--format", "json")
    assert "do not hash to its name" in proc.stderr and old.name in proc.stderr
    codes = [[d["code"] for d in c["diagnostics"]] for d in json.loads(proc.stdout)["drafts"] for c in d["claims"]]
    assert codes[0] == ["unknown-chunk"]
    show = run_cairn(ws, "show", chunk_id("sources/a.md", OLD))
    assert show.returncode == 1 and "no such chunk" in show.stderr and OLD not in show.stdout


def test_index_reports_the_size_of_the_snapshots(tmp_path: Path) -> None:
    ws = make(tmp_path)
    (ws / "sources" / "long.txt").write_text("A sentence that repeats itself. " * 5000, encoding="utf-8")
    proc = run_cairn(ws, "index")
    assert proc.returncode == 0, proc.stderr
    line = next(ln for ln in proc.stderr.splitlines() if ln.startswith("snapshots:"))
    assert "2 version(s) in .cairn/snapshots/" in line and "x smaller" in line, line
    # the compressed size against the source bytes, and the index beside them
    found = re.search(r"([\d.]+ [KM]?B) compressed \(([\d.]+ [KM]?B) of source bytes", line)
    assert found, line
    compressed, raw = (_bytes(g) for g in found.groups())
    assert compressed < raw / 10 and raw > 150_000, line  # 160 KB of one sentence repeated
    assert "the index beside them" in line


def _bytes(size: str) -> float:
    number, unit = size.split()
    return float(number) * {"B": 1, "KB": 1024, "MB": 1024 * 1024}[unit]


def test_gc_and_purge_remove_snapshots_with_the_versions(tmp_path: Path) -> None:
    ws = make(tmp_path)
    (ws / "sources" / "b.md").write_text("Uncited text.\n", encoding="utf-8")
    verdicts(ws)
    (ws / "sources" / "b.md").write_text("Uncited text, changed.\n", encoding="utf-8")
    verdicts(ws)
    snaps = ws / ".cairn" / "snapshots"
    old_b = snaps / f"{sha('Uncited text.' + chr(10))}.gz"
    assert old_b.is_file()
    proc = run_cairn(ws, "gc")
    assert proc.returncode == 0, proc.stderr
    assert "removed 1 snapshot(s) of those versions" in proc.stderr, proc.stderr
    assert not old_b.exists() and not old_b.with_suffix(".json").exists()
    assert (snaps / f"{sha(MOVED + chr(10) * 2 + OLD + chr(10))}.gz").is_file()  # current: kept
    proc = run_cairn(ws, "gc", "--purge", "sources/a.md")
    assert proc.returncode == 0, proc.stderr
    assert "purged 1 stored version(s) of 1 source(s), and 1 snapshot(s)" in proc.stderr, proc.stderr
    assert not (snaps / f"{sha(MOVED + chr(10) * 2 + OLD + chr(10))}.gz").exists()


def test_show_prints_a_chunk_at_a_version(tmp_path: Path) -> None:
    ws = make(tmp_path)
    verdicts(ws)
    supersede(ws)
    verdicts(ws)
    cid = chunk_id("sources/a.md", OLD)
    old = sha(MOVED + "\n\n" + OLD + "\n")
    proc = run_cairn(ws, "show", cid)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith(OLD)
    assert "source:   sources/a.md" in proc.stdout
    assert f"version:  {old} (superseded" in proc.stdout and "the latest version holding it" in proc.stdout
    assert "span:     [25, 59)" in proc.stdout and "page:     none" in proc.stdout
    assert "written on this machine" in proc.stdout
    proc = run_cairn(ws, "show", f"{cid}@{old[:8]}", "--context")
    assert proc.returncode == 0, proc.stderr
    assert f"{MOVED}\n\n⟦{OLD}⟧" in proc.stdout
    # a version that does not hold it, an unknown id, a malformed one
    new = chunk_id("sources/a.md", NEW)
    proc = run_cairn(ws, "show", f"{new}@{old[:8]}")
    assert proc.returncode == 1 and "not in version" in proc.stderr
    proc = run_cairn(ws, "show", "0123456789abcdef")
    assert proc.returncode == 1 and "0123456789abcdef: no such chunk" in proc.stderr and proc.stdout == ""
    assert run_cairn(ws, "show", "nonsense").returncode == 2


def test_show_keeps_the_principal_s_access_rules(tmp_path: Path) -> None:
    ws = make(tmp_path)
    secret = "The settlement is capped at nine million dollars."
    (ws / "sources" / "secret.md").write_text(secret + "\n", encoding="utf-8")
    cid = chunk_id("sources/secret.md", secret)
    assert run_cairn(ws, "show", cid).stdout.rstrip().endswith(secret)
    proc = run_cairn(ws, "show", cid, "--as", "reader")
    assert proc.returncode == 1 and "not readable by principal 'reader'" in proc.stderr
    assert "nine million" not in proc.stdout + proc.stderr


def test_a_snapshot_from_elsewhere_is_the_repository_s_record(tmp_path: Path) -> None:
    ws = make(tmp_path)
    verdicts(ws)
    supersede(ws)
    before = verdicts(ws)
    # the workspace as another machine gets it: every file of .cairn but the index, even the local
    # record (a repository may ship one), under another machine key
    clone = tmp_path / "clone"
    shutil.copytree(ws, clone, ignore=shutil.ignore_patterns("index.db*"))
    other = {"XDG_DATA_HOME": str(tmp_path / "other-machine")}
    proc = run_cairn(clone, "show", chunk_id("sources/a.md", OLD), env=other)
    assert proc.returncode == 0, proc.stderr
    assert "recorded by the repository, not written here" in proc.stdout
    assert verdicts(clone, other) == before
