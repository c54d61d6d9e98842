"""The index's provenance (issue 11, item 2): `.cairn/index.db` may come with
the workspace (committed with `git add -f`, in an archive), so nothing in it
is trusted unless Cairn wrote it on this machine.

Each "machine" here is its own data folder (XDG_DATA_HOME), where Cairn keeps
the key it signs the index with. The attacker's machine indexes the demo,
plants text, verdicts or judge answers in the index and hands the workspace
over; the victim's `cairn check` must give the verdicts of a clean index.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from judge_server import JudgeServer  # tests/judge_server.py (tests/conftest.py puts tests/ on the path)
from robust_util import cairn_env, copy_tree, lsp_start, open_doc, run_cairn, until

FABRICATED = "Refunds are paid in cash on request, no questions asked."
# the editor's machine, for the server tests (the fixture's environment is fixed when the module loads)
EDITOR_DATA = tempfile.mkdtemp(prefix="cairn-trust-editor-")
atexit.register(shutil.rmtree, EDITOR_DATA, ignore_errors=True)
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"],
                            server_env=cairn_env({"XDG_DATA_HOME": EDITOR_DATA}))


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()
POLICY = "sources/policy.md"


def machine(tmp_path: Path, name: str) -> dict:
    """The environment of one machine: its own data folder, so its own key."""
    return {"XDG_DATA_HOME": str(tmp_path / f"data-{name}")}


def check(root: Path, *args: str, env: dict) -> tuple[int, dict, str]:
    proc = run_cairn(root, "check", "--format", "json", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def verdicts(report: dict) -> dict:
    return {d["path"]: [(c["line"], c["supported"], [x["code"] for x in c["diagnostics"]]) for c in d["claims"]]
            for d in report["drafts"]}


def messages(report: dict, path: str) -> list[str]:
    draft = next(d for d in report["drafts"] if d["path"] == path)
    return [x["message"] for c in draft["claims"] for x in c["diagnostics"]]


def db(root: Path) -> Path:
    return root / ".cairn" / "index.db"


def plant_chunk(root: Path, source: str, text: str) -> str:
    """Insert a chunk of made-up text into the current version of `source`, with the
    chunk id the SPEC gives it and, where the index has them, the MAC of a real chunk
    of that version: the best a forger without the key can do. Returns the chunk id."""
    cid = hashlib.sha256((source + "\n" + text).encode()).hexdigest()[:16]
    with closing(sqlite3.connect(db(root))) as conn:
        vid = conn.execute("SELECT version_id FROM current WHERE source = ?", (source,)).fetchone()[0]
        has_mac = "mac" in {r[1] for r in conn.execute("PRAGMA table_info(chunks)")}
        mac = conn.execute("SELECT mac FROM chunks WHERE version_id = ?", (vid,)).fetchone()[0] if has_mac else None
        cur = conn.execute(
            "INSERT INTO chunks (version_id, chunk_id, start, end, page, text) VALUES (?, ?, 5000, ?, NULL, ?)",
            (vid, cid, 5000 + len(text), text),
        )
        if has_mac:
            conn.execute("UPDATE chunks SET mac = ? WHERE rowid = ?", (mac, cur.lastrowid))
        conn.execute("INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)", (cur.lastrowid, text))
        conn.commit()
    return cid


def write_draft(root: Path, name: str, claim: str, cid: str, quote: str, source: str = POLICY) -> str:
    (root / "drafts" / name).write_text(
        f"# A draft\n\n{claim}\n\n```cite\nchunk_id: {cid}\nstart: 0\nend: {len(quote)}\n"
        f'quote: "{quote}"\nsource: {source}\n```\n',
        encoding="utf-8",
    )
    return f"drafts/{name}"


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=Mallory", "-c", "user.email=m@example.invalid", *args],
                   cwd=root, check=True, capture_output=True)


def commit_and_clone(root: Path, dest: Path) -> Path:
    """Commit the index with the drafts (`git add -f`, past .cairn/.gitignore) and clone it."""
    git(root, "add", "-f", ".cairn/index.db", "drafts")
    git(root, "commit", "-q", "-m", "drafts and a ready index")
    subprocess.run(["git", "clone", "-q", str(root), str(dest)], check=True, capture_output=True)
    assert db(dest).is_file()
    return dest


@pytest.fixture
def clean(demo_template: Path, tmp_path: Path) -> dict:
    """The demo's verdicts from an index made on the victim's machine."""
    ws = copy_tree(demo_template, tmp_path / "clean")
    _, report, _ = check(ws, env=machine(tmp_path, "victim"))
    return verdicts(report)


# --------------------------------------------------------------------------
# Planted chunks


def test_a_chunk_planted_in_a_committed_index_verifies_nothing(demo: Path, tmp_path: Path, clean: dict):
    attacker, victim = machine(tmp_path, "attacker"), machine(tmp_path, "victim")
    assert run_cairn(demo, "index", env=attacker).returncode == 0
    cid = plant_chunk(demo, POLICY, FABRICATED)
    forged = write_draft(demo, "forged.md", FABRICATED, cid, FABRICATED)
    clone = commit_and_clone(demo, tmp_path / "clone")

    code, report, stderr = check(clone, env=victim)
    got = verdicts(report)
    assert got.pop(forged) == [(3, False, ["unknown-chunk"])]
    assert got == clean
    assert code == 1
    assert "not written by Cairn on this machine" in stderr
    # the index was made right: the next run finds every source as it was stored
    again = run_cairn(clone, "index", env=victim)
    assert "indexed 0 source(s)" in again.stderr, again.stderr


def test_a_chunk_planted_in_this_machines_own_index_verifies_nothing(demo: Path, tmp_path: Path):
    """The same key, a row added behind Cairn's back (with a MAC copied from a real
    chunk): the row does not re-derive from the file, so it is never current."""
    me = machine(tmp_path, "me")
    assert run_cairn(demo, "index", env=me).returncode == 0
    cid = plant_chunk(demo, POLICY, FABRICATED)
    forged = write_draft(demo, "forged.md", FABRICATED, cid, FABRICATED)

    code, report, _ = check(demo, forged, env=me)
    ((line, supported, codes),) = verdicts(report)[forged]
    assert not supported and code == 1
    assert codes in (["source-changed"], ["unknown-chunk"])
    chunks = run_cairn(demo, "chunks", "--json", env=me)
    assert chunks.returncode == 0 and cid not in chunks.stdout and FABRICATED not in chunks.stdout


async def test_the_editor_does_not_read_a_planted_chunk_as_current(client: LanguageClient, demo: Path,
                                                                    tmp_path: Path):
    """The server opens the clone with the editor's own key: the planted chunk is no
    evidence there either (the draft shows unknown-chunk, not a clean claim)."""
    assert run_cairn(demo, "index", env=machine(tmp_path, "attacker")).returncode == 0
    cid = plant_chunk(demo, POLICY, FABRICATED)
    forged = write_draft(demo, "forged.md", FABRICATED, cid, FABRICATED)
    clone = commit_and_clone(demo, tmp_path / "clone")
    await lsp_start(client, clone)
    u = open_doc(client, clone / forged)
    diags = await until(lambda: client.diagnostics.get(u), what="the forged draft's diagnostics")
    assert [d.code for d in diags] == ["unknown-chunk"]


# --------------------------------------------------------------------------
# Planted verdicts: the draft-report cache and the judge cache


def test_a_verdict_planted_in_the_report_cache_is_not_served(demo: Path, tmp_path: Path):
    """A workspace handed over as an archive (no git: nothing in the cache key
    is unknown to the sender): the sender checks a draft, turns its cached report
    into a VERIFIED one, and the receiver's check must not serve it."""
    attacker, victim = machine(tmp_path, "attacker"), machine(tmp_path, "victim")
    shutil.rmtree(demo / ".git")
    forged = write_draft(demo, "forged.md", FABRICATED, "0123456789abcdef", FABRICATED)
    code, report, _ = check(demo, forged, env=attacker)
    assert code == 1
    with closing(sqlite3.connect(db(demo))) as conn:
        rows = conn.execute("SELECT key, value FROM kv_cache WHERE key LIKE 'draft-report:%'").fetchall()
        # the forged draft's report (an earlier check of the template may have cached others)
        # a cached value is the list of a file's answers (one for a Markdown draft)
        ((key, value),) = [(k, v) for k, v in rows
                           if any(d.get("path", "").endswith("forged.md") for d in json.loads(v))]
        outs = json.loads(value)
        for out in outs:
            out["faithful"] = True
            for claim in out["claims"]:
                claim.update(supported=True, support_score=1.0, diagnostics=[])
                for c in claim["citations"]:
                    c.update(resolved=True, source=POLICY)
        conn.execute("UPDATE kv_cache SET value = ? WHERE key = ?", (json.dumps(outs), key))
        conn.commit()
    archive = copy_tree(demo, tmp_path / "received")

    code, report, _ = check(archive, forged, env=victim)
    assert verdicts(report)[forged] == [(3, False, ["unknown-chunk"])]
    assert code == 1


def test_a_judge_answer_planted_in_the_cache_is_not_read(demo: Path, tmp_path: Path):
    """The sender's judge said "supported" to every claim; the receiver's judge
    (same loopback URL, nothing listening now) cannot be asked: every judged
    claim falls back to the lexical check, none is decided by the sender's answers."""
    attacker, victim = machine(tmp_path, "attacker"), machine(tmp_path, "victim")
    lexical = verdicts(check(copy_tree(demo, tmp_path / "lexical"), env=victim)[1])
    with JudgeServer() as srv:
        srv.answer = lambda claim, quotes: {"label": "supported", "score": 0.99}
        with (demo / "cairn.toml").open("a", encoding="utf-8") as f:
            f.write(f'\n[judge]\nprovider = "openai"\nurl = "{srv.url}"\nmodel = "m"\ntimeout = 2\nretries = 0\n')
        _, report, _ = check(demo, env=attacker)
        assert srv.requests
    by_judge = [c for d in report["drafts"] for c in d["claims"] if c["judge"] == "openai"]
    assert by_judge  # the sender's index holds these answers
    archive = copy_tree(demo, tmp_path / "received")

    _, report, _ = check(archive, env=victim)
    assert not [c for d in report["drafts"] for c in d["claims"] if c["judge"] == "openai"]
    supported = {(d["path"], c["line"]): c["supported"] for d in report["drafts"] for c in d["claims"]}
    assert supported == {(p, line): s for p, cs in lexical.items() for line, s, _ in cs}


# --------------------------------------------------------------------------
# Superseded versions from a foreign index, and the cheap path at home


def test_superseded_versions_from_a_foreign_index_are_marked(demo: Path, tmp_path: Path):
    """Old versions the sender's index holds still resolve (they may exist nowhere
    else), but each diagnostic that rests on one says its provenance is unverified."""
    attacker, victim = machine(tmp_path, "attacker"), machine(tmp_path, "victim")
    _, own, _ = check(demo, env=attacker)  # reads policy.md's 2024 edition from git history
    assert not any("unverified provenance" in m for m in messages(own, "drafts/review-notes.md"))
    archive = copy_tree(demo, tmp_path / "received")
    shutil.rmtree(archive / ".git")  # only the index holds the old edition now

    _, report, _ = check(archive, env=victim)
    assert verdicts(report) == verdicts(own)
    old = [m for m in messages(report, "drafts/review-notes.md") if "since version 977ec965" in m]
    assert len(old) == 2
    assert all("977ec965 comes from an index Cairn did not write on this machine (unverified provenance)" in m
               for m in old)


def test_the_index_this_machine_wrote_is_used_as_it_is(demo: Path, tmp_path: Path):
    """The key lives outside the workspace, readable by the user alone; with it the
    index needs no second parse (indexing again reads nothing)."""
    me = machine(tmp_path, "me")
    first = run_cairn(demo, "index", env=me)
    assert "indexed 4 source(s)" in first.stderr
    again = run_cairn(demo, "index", env=me)
    assert "indexed 0 source(s), 4 unchanged" in again.stderr and "not written" not in again.stderr
    key = Path(me["XDG_DATA_HOME"]) / "cairn" / "index-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert not any(p.name == "index-key" for p in demo.rglob("*"))


def test_a_key_others_can_read_is_not_used(demo: Path, tmp_path: Path):
    """A key file others may read could sign an index for them: it is refused, and
    each run reads the sources again (slower, never less safe)."""
    me = machine(tmp_path, "me")
    assert run_cairn(demo, "index", env=me).returncode == 0
    key = Path(me["XDG_DATA_HOME"]) / "cairn" / "index-key"
    os.chmod(key, 0o644)
    for _ in range(2):
        proc = run_cairn(demo, "index", env=me)
        assert proc.returncode == 0 and "indexed 4 source(s)" in proc.stderr
        assert "cannot keep Cairn's key" in proc.stderr
