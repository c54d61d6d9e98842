"""Retention through the real CLI (SPEC section 6, `cairn gc --purge`): every
stored version of a purged source goes, its text is gone from the index's
files byte for byte, and the git-history lookup does not bring it back until
the purge is lifted; `[retention] superseded_days` drops old superseded versions."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import make_demo
from cairn_testing import run_cairn
from policy_ws import SECRET, cite

OTHER = "Deliveries arrive within two working days of the order."
# a paragraph of the memo no draft quotes: a draft's own quotes may stay in its cached report
UNQUOTED = "Payment follows in three instalments through the spring of 2027."


def index_bytes(ws: Path) -> bytes:
    """Every file Cairn keeps its index in (the database, its write-ahead log, its journal)."""
    return b"".join(p.read_bytes() for p in sorted((ws / ".cairn").iterdir()) if p.is_file())


def make(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "sources").mkdir(parents=True)
    (ws / "drafts").mkdir()
    (ws / "sources" / "memo.md").write_text(SECRET + "\n\n" + UNQUOTED + "\n", encoding="utf-8")
    (ws / "sources" / "other.md").write_text(OTHER + "\n", encoding="utf-8")
    (ws / "drafts" / "a.md").write_text(cite("The settlement is capped.", "sources/memo.md", SECRET)
                                        + cite("Deliveries take two working days.", "sources/other.md", OTHER),
                                        encoding="utf-8")
    make_demo._git(ws, "init", "-q", "-b", "main")
    make_demo._git(ws, "add", "-A")
    make_demo._git(ws, "commit", "-q", "-m", "memo")
    return ws


def codes(ws: Path) -> list[list[str]]:
    proc = run_cairn(ws, "check", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    return [[d["code"] for d in c["diagnostics"]] for d in json.loads(proc.stdout)["drafts"] for c in d["claims"]]


def test_purge_removes_every_version_and_history_stays_out(tmp_path: Path) -> None:
    ws = make(tmp_path)
    secret = UNQUOTED.encode()
    assert codes(ws) == [[], []]
    # a second, superseded version, still cited by its chunk id
    (ws / "sources" / "memo.md").write_text(SECRET + "\n\nA later note.\n\n" + UNQUOTED + "\n", encoding="utf-8")
    run_cairn(ws, "index")
    (ws / "sources" / "memo.md").unlink()
    run_cairn(ws, "check")
    assert secret in index_bytes(ws)  # the byte search below can find it

    proc = run_cairn(ws, "gc", "--purge", "sources/memo.md")
    assert proc.returncode == 0, proc.stderr
    assert "purged 2 stored version(s) of 1 source(s)" in proc.stderr
    for gone in (secret, SECRET.encode(), b"A later note", b"nine million dollars"):
        assert gone not in index_bytes(ws)
    con = sqlite3.connect(ws / ".cairn" / "index.db")
    assert con.execute("SELECT count(*) FROM versions WHERE source = 'sources/memo.md'").fetchone() == (0,)
    con.close()

    # the committed version is in git history, but the purge keeps it out
    assert codes(ws) == [["unknown-chunk"], []]
    assert secret not in index_bytes(ws)
    assert UNQUOTED not in run_cairn(ws, "chunks").stdout

    # lifting the purge lets history bring it back
    proc = run_cairn(ws, "gc", "--lift-purge", "sources/memo.md")
    assert proc.returncode == 0 and "lifted 2 purge record(s)" in proc.stderr
    assert codes(ws)[0] != ["unknown-chunk"]
    assert secret in index_bytes(ws)


def test_purge_warns_about_a_file_still_on_disk(tmp_path: Path) -> None:
    ws = make(tmp_path)
    run_cairn(ws, "index")
    proc = run_cairn(ws, "gc", "--purge", "sources/other.md")
    assert proc.returncode == 0
    assert "still on disk" in proc.stderr and "sources/other.md" in proc.stderr


def test_purge_refuses_a_path_outside_the_sources(tmp_path: Path) -> None:
    ws = make(tmp_path)
    run_cairn(ws, "index")
    for bad in ("../elsewhere.md", "drafts/a.md", "/etc/passwd"):
        proc = run_cairn(ws, "gc", "--purge", bad)
        assert proc.returncode == 2 and "nothing was purged" in proc.stderr, bad
    assert codes(ws) == [[], []]


def test_retention_drops_old_superseded_versions_even_cited(tmp_path: Path) -> None:
    ws = make(tmp_path)
    assert codes(ws) == [[], []]
    (ws / "sources" / "memo.md").write_text("Replaced entirely.\n", encoding="utf-8")
    run_cairn(ws, "index")
    con = sqlite3.connect(ws / ".cairn" / "index.db")
    con.execute("UPDATE versions SET indexed_at = indexed_at - 40 * 86400")  # indexed 40 days ago
    con.commit()
    con.close()
    run_cairn(ws, "gc")  # no retention set: the cited superseded version stays
    assert codes(ws)[0] == ["source-changed"]
    (ws / "cairn.toml").write_text("[retention]\nsuperseded_days = 30\n", encoding="utf-8")
    proc = run_cairn(ws, "gc")
    assert proc.returncode == 0 and "older than the retention period" in proc.stderr
    con = sqlite3.connect(ws / ".cairn" / "index.db")
    rows = con.execute("SELECT count(*) FROM versions WHERE source = 'sources/memo.md'").fetchone()
    con.close()
    assert rows == (1,)  # only the current one
