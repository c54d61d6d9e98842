"""The shared index on PostgreSQL through the real CLI: choosing it, the consent
rule for a URL a workspace names, clear errors, migrations, several clones
sharing one index, writers at once, and gc. The server is the test run's own
throw-away PostgreSQL on 127.0.0.1 (tests/pg_server.py); a remote URL is only
ever refused, never reached."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest

import make_demo
from cairn_testing import run_cairn

REMOTE = "postgresql://cairn:secret@db.example.invalid:5432/cairn"


@pytest.fixture
def demo(tmp_path: Path, monkeypatch) -> Path:
    """The demo once (these tests name the store each command uses)."""
    monkeypatch.delenv("CAIRN_STORE_URL", raising=False)
    return make_demo.build(tmp_path / "demo")


def _clone(origin: Path, where: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(origin), str(where)], check=True)
    return where


def _sqlite_report(tmp_path: Path) -> dict:
    """The verdicts the default store gives on a fresh demo (no CAIRN_STORE_URL)."""
    ws = make_demo.build(tmp_path / "sqlite-demo")
    proc = run_cairn(ws, "check", "--format", "json", env={"CAIRN_STORE_URL": ""})
    assert proc.returncode == 1, proc.stderr
    return json.loads(proc.stdout)


# -- choosing the store, and the consent rule --------------------------------------


def test_a_remote_url_only_the_workspace_names_is_refused(demo: Path):
    (demo / "cairn.toml").write_text((demo / "cairn.toml").read_text() + f'\n[store]\nurl = "{REMOTE}"\n')
    proc = run_cairn(demo, "check", env={"CAIRN_STORE_URL": ""})
    assert proc.returncode == 2
    assert "not on this machine" in proc.stderr and "CAIRN_STORE_URL" in proc.stderr
    assert "secret" not in proc.stderr and "cairn:***@db.example.invalid" in proc.stderr
    assert not (demo / ".cairn").exists()  # refused: no silent fall back to the SQLite file
    # libpq's host parameter wins over the URL's host: it cannot smuggle a remote server in
    sneaky = "postgresql://localhost/cairn?host=db.example.invalid"
    (demo / "cairn.toml").write_text(f'[store]\nurl = "{sneaky}"\n')
    proc = run_cairn(demo, "index", env={"CAIRN_STORE_URL": ""})
    assert proc.returncode == 2 and "not on this machine" in proc.stderr


def test_the_consent_decision(tmp_path: Path, monkeypatch):
    from cairn.core.config import ConfigError, load_settings

    monkeypatch.delenv("CAIRN_STORE_URL", raising=False)
    (tmp_path / "cairn.toml").write_text(f'[store]\nurl = "{REMOTE}"\n')
    settings = load_settings(tmp_path)
    assert settings.store_url_trusted is False
    with pytest.raises(ConfigError):
        _ = settings.store_url
    # the user's own environment or editor settings allow it
    monkeypatch.setenv("CAIRN_STORE_URL", REMOTE)
    assert load_settings(tmp_path).store_url == REMOTE
    monkeypatch.delenv("CAIRN_STORE_URL")
    assert load_settings(tmp_path, {"store": {"url": REMOTE}}).store_url == REMOTE
    # on this machine: allowed from the workspace's file
    for local in ("postgresql://me@127.0.0.1:5432/x", "postgresql://localhost/x", "postgresql:///x?host=/run/pg",
                  "postgresql://[::1]/x"):
        (tmp_path / "cairn.toml").write_text(f'[store]\nurl = "{local}"\n')
        assert load_settings(tmp_path).store_url == local
    from cairn.core.config import redact_url

    assert redact_url("postgresql://u:pw@h/db?sslmode=require&password=pw2") == \
        "postgresql://u:***@h/db?sslmode=require&password=***"
    for remote in ("postgresql://localhost,db.example.invalid/x", "postgresql:///x?service=team",
                   "postgresql://10.0.0.5/x", "postgresql:///x?hostaddr=10.0.0.5"):
        (tmp_path / "cairn.toml").write_text(f'[store]\nurl = "{remote}"\n')
        assert load_settings(tmp_path).store_url_trusted is False, remote


def test_a_missing_driver_names_the_extra(demo: Path):
    code = "import sys; sys.modules['psycopg'] = None; from cairn.cli.main import main; main()"
    proc = subprocess.run([sys.executable, "-c", code, "index"], cwd=demo, capture_output=True, text=True,
                          env={**__import__("os").environ, "CAIRN_STORE_URL": "postgresql://127.0.0.1:1/x"})
    assert proc.returncode == 2
    assert "pip install 'cairn[postgres]'" in proc.stderr and "Traceback" not in proc.stderr


def test_an_unreachable_server_is_exit_2_never_an_empty_index(demo: Path):
    url = "postgresql://nobody:pw@127.0.0.1:1/cairn"  # loopback, a port nothing listens on
    proc = run_cairn(demo, "check", env={"CAIRN_STORE_URL": url})
    assert proc.returncode == 2
    assert "cannot open the shared index postgresql://nobody:***@127.0.0.1:1/cairn" in proc.stderr
    assert "pw@" not in proc.stderr and not proc.stdout and not (demo / ".cairn").exists()


# -- migrations ------------------------------------------------------------------------


def test_store_migrate_and_schema_errors(demo: Path, pg_url: str):
    env = {"CAIRN_STORE_URL": pg_url}
    proc = run_cairn(demo, "store", "migrate", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().endswith("is at schema 5")
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT value FROM cairn_meta WHERE key = 'schema'").fetchone()[0] == "5"
        assert db.execute("SELECT count(*) FROM cairn_versions").fetchone()[0] == 0
    assert run_cairn(demo, "store", "migrate", env=env).returncode == 0  # again: nothing to do
    # an index of schema 1 (before retention's purge records, the sources' dates and the index
    # of words, the snapshots) is brought up to date
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("DROP TABLE cairn_version_dates")
        db.execute("DROP TABLE cairn_purged")
        db.execute("DROP TABLE cairn_snapshots")
        db.execute("DROP INDEX cairn_chunks_words")
        db.execute("UPDATE cairn_meta SET value = '1' WHERE key = 'schema'")
    proc = run_cairn(demo, "store", "migrate", env=env)
    assert proc.returncode == 0 and proc.stderr.strip().endswith("is at schema 5")
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT count(*) FROM cairn_purged").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM cairn_version_dates").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM cairn_snapshots").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM pg_indexes WHERE indexname = 'cairn_chunks_words'").fetchone()[0] == 1
    assert run_cairn(demo, "index", env=env).returncode == 0
    # a schema from a newer Cairn: a clear error, nothing touched
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("UPDATE cairn_meta SET value = '99' WHERE key = 'schema'")
    proc = run_cairn(demo, "check", env=env)
    assert proc.returncode == 2 and "schema 99, newer than this Cairn's 5" in proc.stderr
    # tables that are not Cairn's any more: damaged, said so, never replaced by an empty index
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("UPDATE cairn_meta SET value = '5' WHERE key = 'schema'")
        db.execute("DROP TABLE cairn_chunks")
    proc = run_cairn(demo, "check", env=env)
    assert proc.returncode == 2 and "is damaged" in proc.stderr and "Traceback" not in proc.stderr
    # the SQLite store answers the same command
    proc = run_cairn(demo, "store", "migrate", env={"CAIRN_STORE_URL": ""})
    assert proc.returncode == 0 and "index.db is at schema 5" in proc.stderr


# -- sharing -----------------------------------------------------------------------------


def test_clones_share_one_index_and_give_the_sqlite_verdicts(demo: Path, pg_url: str, tmp_path: Path):
    env = {"CAIRN_STORE_URL": pg_url}
    first = run_cairn(demo, "index", env=env)
    assert "indexed 4 source(s)" in first.stderr and "not parsed again" not in first.stderr
    clone = _clone(demo, tmp_path / "clone")
    second = run_cairn(clone, "index", env=env)
    assert second.returncode == 0
    assert "indexed 4 source(s), 0 unchanged" in second.stderr
    assert "(4 of them found in the index already, not parsed again)" in second.stderr
    with psycopg.connect(pg_url) as db:
        versions = db.execute("SELECT count(*) FROM cairn_versions").fetchone()[0]
        assert db.execute("SELECT count(DISTINCT workspace) FROM cairn_current").fetchone()[0] == 2
    mine = run_cairn(demo, "check", "--format", "json", env=env)
    theirs = run_cairn(clone, "check", "--format", "json", env=env)
    assert json.loads(mine.stdout) == json.loads(theirs.stdout) == _sqlite_report(tmp_path)
    # a changed source in one clone moves only that clone's current version
    (clone / "sources" / "faq.txt").write_text("A new answer for the clone.\n", encoding="utf-8")
    proc = run_cairn(clone, "index", env=env)
    assert "indexed 1 source(s), 3 unchanged" in proc.stderr
    assert json.loads(run_cairn(demo, "check", "--format", "json", env=env).stdout) == json.loads(mine.stdout)
    with psycopg.connect(pg_url) as db:
        assert db.execute("SELECT count(*) FROM cairn_versions").fetchone()[0] >= versions + 1


def test_writers_at_once_lose_nothing(demo: Path, pg_url: str, tmp_path: Path):
    """Four clones index and check at the same moment against one empty index."""
    env = {"CAIRN_STORE_URL": pg_url}
    clones = [_clone(demo, tmp_path / f"c{i}") for i in range(4)]
    with ThreadPoolExecutor(4) as pool:
        procs = list(pool.map(lambda c: run_cairn(c, "check", "--format", "json", env=env), clones))
    assert [p.returncode for p in procs] == [1] * 4, [p.stderr for p in procs]
    reports = [json.loads(p.stdout) for p in procs]
    assert all(r == reports[0] for r in reports)
    with psycopg.connect(pg_url) as db:
        dupes = db.execute("SELECT count(*) FROM (SELECT source, version FROM cairn_versions"
                           " GROUP BY source, version, lineage, chunk_chars HAVING count(*) > 1) d").fetchone()[0]
        assert dupes == 0
        assert db.execute("SELECT count(*) FROM cairn_current").fetchone()[0] == 4 * 4


def test_gc_keeps_what_another_clone_has_on_disk(demo: Path, pg_url: str, tmp_path: Path):
    env = {"CAIRN_STORE_URL": pg_url}
    _, before = check_json_env(demo, env)
    clone = _clone(demo, tmp_path / "clone")
    (clone / "sources" / "faq.txt").write_text("Something else entirely.\n", encoding="utf-8")
    assert run_cairn(clone, "index", env=env).returncode == 0
    proc = run_cairn(clone, "gc", env=env)
    assert proc.returncode == 0, proc.stderr
    # the first clone's faq.txt is superseded in the clone, but current in the first: kept
    _, after = check_json_env(demo, env)
    assert after == before


def check_json_env(cwd: Path, env: dict) -> tuple[int, dict]:
    proc = run_cairn(cwd, "check", "--format", "json", env=env)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)

