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
import sys
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


# --------------------------------------------------------------------------
# Findings 4 and 5: git runs with no stdin, no caller GIT_*, and on this repository only


def test_git_never_reads_cairns_standard_input(tmp_path: Path):
    """Finding 4: a workspace's `.git/config` naming /dev/stdin (an include, the excludes
    file) makes git read nothing of Cairn's own input (the editor's JSON-RPC stream): a
    `cairn check` whose stdin stays open ends promptly."""
    root = history_workspace(tmp_path / "ws")
    (root / "drafts" / "d.md").write_text(cite("Refunds are accepted within 30 days.", SOURCE, OLD), encoding="utf-8")
    with (root / ".git" / "config").open("a", encoding="utf-8") as f:
        f.write("[include]\n\tpath = /dev/stdin\n[core]\n\texcludesFile = /dev/stdin\n")
    env = {**os.environ, **machine(tmp_path, "one")}
    env = {k: v for k, v in env.items() if not k.startswith("CAIRN_")}
    proc = subprocess.Popen([sys.executable, "-m", "cairn", "check", "--format", "json"], cwd=root,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        out, err = _wait_open_stdin(proc, 25)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode in (0, 1), err
    report = json.loads(out)
    (claim,) = claims(report)
    assert claim["diagnostics"], "the superseded version was found in history (git ran)"


def _wait_open_stdin(proc: subprocess.Popen, timeout: float) -> tuple[bytes, bytes]:
    """Wait for the process with its stdin left open (a client that is still connected)."""
    import threading

    outs: dict[str, bytes] = {}
    readers = [threading.Thread(target=lambda k=k, s=s: outs.__setitem__(k, s.read()), daemon=True)
               for k, s in (("out", proc.stdout), ("err", proc.stderr))]
    for t in readers:
        t.start()
    proc.wait(timeout=timeout)
    for t in readers:
        t.join(5)
    return outs.get("out", b""), outs.get("err", b"")


SECRET = "The merger closes on the ninth of March at a price of 41 dollars."


def other_repository(root: Path) -> Path:
    """Another repository, beside the workspace, whose committed sources hold a secret."""
    workspace(root)
    git(root, "init", "-q")
    (root / "sources" / "secret.md").write_text(f"# Secret\n\n{SECRET}\n", encoding="utf-8")
    git(root, "add", ".")
    git(root, "commit", "-qm", "secret")
    return root


def probe(root: Path) -> None:
    (root / "drafts" / "probe.md").write_text(cite("The merger closes in March.", "sources/secret.md", SECRET),
                                              encoding="utf-8")


def assert_not_indexed(root: Path, report: dict) -> None:
    (claim,) = claims(report)
    assert not claim["supported"]
    with closing(sqlite3.connect(root / ".cairn" / "index.db")) as conn:
        texts = [r[0] for r in conn.execute("SELECT text FROM chunks")]
    assert not any("merger" in t for t in texts)


def test_a_commondir_naming_another_repository_is_not_read(tmp_path: Path):
    """Finding 5: a real `.git` folder whose `commondir` names another repository passes no
    own-repository check: that repository's text is never indexed."""
    other = other_repository(tmp_path / "other")
    root = history_workspace(tmp_path / "ws")
    probe(root)
    (root / ".git" / "commondir").write_text(str(other / ".git") + "\n", encoding="utf-8")
    _, report, _ = check(root, env=machine(tmp_path, "one"))
    assert_not_indexed(root, report)


def test_alternates_naming_another_repository_are_not_read(tmp_path: Path):
    """Finding 5: `objects/info/alternates` naming another repository's objects: history
    is not used, and the other repository's text is never indexed."""
    other = other_repository(tmp_path / "other")
    root = history_workspace(tmp_path / "ws")
    probe(root)
    (root / ".git" / "objects" / "info").mkdir(exist_ok=True)
    (root / ".git" / "objects" / "info" / "alternates").write_text(str(other / ".git" / "objects") + "\n")
    # the other repository's commit, reachable from a branch of this one
    git(root, "update-ref", "refs/heads/elsewhere", git(other, "rev-parse", "HEAD").strip())
    git(root, "reset", "-q", "--soft", "elsewhere")
    _, report, _ = check(root, env=machine(tmp_path, "one"))
    assert_not_indexed(root, report)


def test_the_callers_git_dir_is_not_passed_to_git(tmp_path: Path):
    """Findings 4 and 5: a `GIT_DIR` (or any GIT_*) in Cairn's environment never points git
    at another repository."""
    other = other_repository(tmp_path / "other")
    root = history_workspace(tmp_path / "ws")
    probe(root)
    env = {**machine(tmp_path, "one"), "GIT_DIR": str(other / ".git"), "GIT_WORK_TREE": str(root)}
    _, report, _ = check(root, env=env)
    assert_not_indexed(root, report)


# --------------------------------------------------------------------------
# Finding 9: a workspace's store URL carries where to connect, nothing more


def test_a_workspace_store_url_may_not_name_files_for_libpq(tmp_path: Path):
    """Finding 9: `[store] url` in a workspace's cairn.toml with `sslkeylogfile` (or any
    parameter but host, port, dbname, user and sslmode) is refused with a configuration
    error naming it, before anything connects; from the user (CAIRN_STORE_URL) it is passed on."""
    keylog = tmp_path / "keylog"
    for url in (f"postgresql://127.0.0.1:1/cairn?sslmode=disable&sslkeylogfile={keylog}",
                f"postgresql://127.0.0.1:1/cairn?passfile={tmp_path / 'pass'}",
                "postgresql://me:secret@127.0.0.1:1/cairn"):
        root = workspace(tmp_path / f"ws{abs(hash(url))}", toml=f"[store]\nurl = {json.dumps(url)}\n")
        (root / "sources" / "a.md").write_text("Text.\n", encoding="utf-8")
        proc = run_cairn(root, "check", env=machine(tmp_path, "one"))
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        name = "sslkeylogfile" if "sslkey" in url else "passfile" if "passfile" in url else "password"
        assert f"'{name}'" in proc.stderr, proc.stderr
    assert not keylog.exists()
    # the same URL from the user is the user's choice: no refusal by parameter (the port is closed)
    proc = run_cairn(root, "check", env={**machine(tmp_path, "one"),
                                         "CAIRN_STORE_URL": f"postgresql://127.0.0.1:1/cairn?sslmode=disable"
                                                            f"&sslkeylogfile={keylog}"})
    assert proc.returncode == 2 and "connection parameter" not in proc.stderr, proc.stderr
