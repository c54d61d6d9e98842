"""Snapshots on the shared PostgreSQL index, through the real CLI (SPEC section 1: on that store
they live in the database): nothing written in the workspace, web sources fetched into the
table, verdicts and old text kept for another clone of the same database, a row whose bytes do
not hash to its name never used, gc --purge removing them. The server is the test run's own
throw-away PostgreSQL on 127.0.0.1 (tests/pg_server.py); the pages come from a loopback server
the test starts."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from pathlib import Path

import psycopg

from web_server import Page, Site
from web_ws import LOCAL_NEW, LOCAL_OLD, NEW, OLD, html, make

from cairn_testing import run_cairn
from policy_ws import chunk_id


def verdicts(ws: Path, env: dict) -> list[list[str]]:
    proc = run_cairn(ws, "check", "--format", "json", env=env)
    assert proc.returncode in (0, 1), proc.stderr
    return [[d["code"] for d in c["diagnostics"]] for d in json.loads(proc.stdout)["drafts"] for c in d["claims"]]


def rows(pg_url: str) -> dict[str, bytes]:
    with psycopg.connect(pg_url) as db:
        return {name: bytes(data) for name, data in db.execute("SELECT name, data FROM cairn_snapshots")}


def test_snapshots_live_in_the_database(site: Site, tmp_path: Path, pg_url: str) -> None:
    env = {"CAIRN_STORE_URL": pg_url, "XDG_DATA_HOME": str(tmp_path / "machine-a")}
    url = site.url("/notes.html")
    site.pages["/notes.html"] = Page(html(OLD))
    ws = make(tmp_path / "ws", url)
    proc = run_cairn(ws, "fetch", "--allow-private", env=env)
    assert proc.returncode == 0, proc.stderr
    assert verdicts(ws, env) == [[], []]
    first_web = hashlib.sha256(html(OLD)).hexdigest()
    first_local = hashlib.sha256((LOCAL_OLD + "\n").encode()).hexdigest()
    kept = rows(pg_url)
    assert {f"{first_web}.gz", f"{first_web}.json", f"{first_local}.gz", "web.json"} <= set(kept)
    assert gzip.decompress(kept[f"{first_web}.gz"]) == html(OLD)
    assert not (ws / ".cairn" / "snapshots").exists()  # nothing of the record in the workspace

    proc = run_cairn(ws, "index", env=env)
    line = next(ln for ln in proc.stderr.splitlines() if ln.startswith("snapshots:"))
    assert "2 version(s) in the shared index" in line and "kept in the database" in line, line

    site.pages["/notes.html"] = Page(html(NEW))
    assert run_cairn(ws, "fetch", "--allow-private", env=env).returncode == 0
    (ws / "sources" / "local.md").write_text(LOCAL_NEW + "\n", encoding="utf-8")
    assert verdicts(ws, env) == [["source-changed"], ["source-changed"]]
    proc = run_cairn(ws, "fetch", "--verify", "--allow-private", env=env)
    assert proc.returncode == 1 and "no longer served" in proc.stdout

    # another clone of the workspace on another machine, the same database: the same verdicts,
    # the old text, and the first machine's fetch records as not this machine's
    clone = tmp_path / "clone"
    shutil.copytree(ws, clone, ignore=shutil.ignore_patterns(".cairn"))
    other = {**env, "XDG_DATA_HOME": str(tmp_path / "machine-b")}
    assert verdicts(clone, other) == [["source-changed"], ["source-changed"]]
    proc = run_cairn(clone, "show", chunk_id(url, OLD), env=other)
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith(OLD), proc.stderr
    assert "not fetched here" in proc.stdout and "fetched on this machine" not in proc.stdout
    proc = run_cairn(ws, "show", chunk_id(url, OLD), env=env)
    assert "fetched on this machine" in proc.stdout

    # a row whose bytes do not hash to its name: reported, never used
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute("UPDATE cairn_snapshots SET data = %s WHERE name = %s",
                   (gzip.compress(html(OLD + " Forged.")), f"{first_web}.gz"))
    proc = run_cairn(clone, "show", f"{chunk_id(url, OLD)}@{first_web[:12]}", env=other)
    assert "do not hash to its name" in proc.stderr + proc.stdout and "Forged" not in proc.stdout

    # gc --purge removes a source's snapshots with its versions
    proc = run_cairn(ws, "gc", "--purge", "sources/local.md", env=env)
    assert proc.returncode == 0 and "2 snapshot(s) from the shared index" in proc.stderr, proc.stderr
    assert f"{first_local}.gz" not in rows(pg_url)
