"""Trust boundaries, round two (issue 45): the store, git and the policy, each
finding driven through the real CLI (or the real server) on a workspace made
here. Each test's docstring names the finding it holds (docs/security.md,
"Round two: store, git and policy")."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from robust_util import run_cairn

OLD = "Refunds are accepted within 30 days of purchase."
NEW = "Refunds are accepted within 14 days of purchase."
SOURCE = "sources/policy.md"
GIT_ENV = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.invalid", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@example.invalid", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout


def chunk_id(source: str, text: str) -> str:
    return hashlib.sha256((source + "\n" + text).encode()).hexdigest()[:16]


def cite(claim: str, source: str, text: str, quote: str | None = None) -> str:
    quote = quote or text
    start = text.index(quote)
    return (f"{claim}\n\n```cite\nchunk_id: {chunk_id(source, text)}\nstart: {start}\nend: {start + len(quote)}\n"
            f'quote: "{quote}"\nsource: {source}\n```\n')


def workspace(root: Path, *, toml: str = "") -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text(toml, encoding="utf-8")
    return root


def history_workspace(root: Path) -> Path:
    """A repository whose policy said 30 days and now says 14."""
    workspace(root)
    git(root, "init", "-q")
    (root / SOURCE).write_text(f"# Policy\n\n{OLD}\n", encoding="utf-8")
    git(root, "add", ".")
    git(root, "commit", "-qm", "30 days")
    (root / SOURCE).write_text(f"# Policy\n\n{NEW}\n", encoding="utf-8")
    git(root, "commit", "-qam", "14 days")
    return root


def machine(tmp_path: Path, name: str) -> dict:
    return {"XDG_DATA_HOME": str(tmp_path / f"data-{name}"), "XDG_CONFIG_HOME": str(tmp_path / f"config-{name}")}


def check(root: Path, *args: str, env: dict | None = None, timeout: float = 120) -> tuple[int, dict, str]:
    proc = run_cairn(root, "check", "--format", "json", *args, env=env, timeout=timeout)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def claims(report: dict) -> list[dict]:
    return [c for d in report["drafts"] for c in d["claims"]]


# --------------------------------------------------------------------------
# Finding 1: a committed index with its own triggers


POINT_CURRENT = (
    "CREATE TRIGGER evil AFTER INSERT ON chunks WHEN new.text LIKE '%30 days%' BEGIN"
    " INSERT OR REPLACE INTO current (source, version_id) SELECT source, id FROM versions WHERE id = new.version_id;"
    " END"
)


def test_a_foreign_trigger_cannot_point_current_at_a_superseded_version(tmp_path: Path):
    """Finding 1: a committed index whose own trigger points `current` at the superseded
    version (the one Cairn signs when a citation pulls it from git history) forges no
    verdict: the claim of 30 days against a source saying 14 fails."""
    root = history_workspace(tmp_path / "ws")
    (root / "drafts" / "d.md").write_text(cite("Refunds are accepted within 30 days.", SOURCE, OLD), encoding="utf-8")
    attacker, victim = machine(tmp_path, "attacker"), machine(tmp_path, "victim")
    assert run_cairn(root, "index", env=attacker).returncode == 0
    with closing(sqlite3.connect(root / ".cairn" / "index.db")) as conn:
        conn.execute(POINT_CURRENT)
        conn.commit()
    for _ in range(2):  # the first run finds the trigger; the second reads the index the first made
        code, report, _ = check(root, env=victim)
        assert code == 1, report
        (claim,) = claims(report)
        assert not claim["supported"]
    with closing(sqlite3.connect(root / ".cairn" / "index.db")) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'view')")}
    assert "evil" not in names


def test_a_recursive_foreign_trigger_hangs_no_index_write(tmp_path: Path):
    """Finding 1: a `WITH RECURSIVE` trigger planted in the index is found before any write
    and the file rebuilt: `cairn check` ends promptly."""
    root = history_workspace(tmp_path / "ws")
    (root / "drafts" / "d.md").write_text(cite("Refunds are accepted within 14 days.", SOURCE, NEW), encoding="utf-8")
    env = machine(tmp_path, "one")
    assert run_cairn(root, "index", env=env).returncode == 0
    with closing(sqlite3.connect(root / ".cairn" / "index.db")) as conn:
        conn.execute("CREATE TRIGGER spin BEFORE INSERT ON versions BEGIN"
                     " SELECT count(*) FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)"
                     " SELECT n FROM r); END")
        conn.execute("CREATE VIEW extra AS SELECT 1")
        conn.commit()
    (root / SOURCE).write_text(f"# Policy\n\n{NEW}\n\nA new paragraph.\n", encoding="utf-8")
    code, report, err = check(root, env=env, timeout=60)
    assert code == 0, report
    assert list((root / ".cairn").glob("index.db.damaged-*")), err
