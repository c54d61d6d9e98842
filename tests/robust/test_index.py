"""The index (issue point 4): a corrupt, truncated, locked or misplaced
.cairn/index.db is detected and rebuilt (or waited for); the CLI and the
server indexing one workspace at once neither fail nor damage it; a process
killed in the middle of indexing leaves an index the next run uses.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from cairn.store import SCHEMA_VERSION

from robust_util import check_json, copy_tree, lsp_start, popen_cairn, run_cairn, until, uri

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"])


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def db_path(root: Path) -> Path:
    return root / ".cairn" / "index.db"


def integrity(root: Path) -> str:
    with sqlite3.connect(db_path(root)) as conn:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]


def current_count(root: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{db_path(root)}?mode=ro", uri=True, timeout=0.2)
        try:
            return conn.execute("SELECT count(*) FROM current").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def generate_sources(root: Path, n: int, seed: int = 3) -> None:
    """n Markdown sources of about 8 kB each under sources/gen (indexing takes seconds)."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randrange(3, 10)))
             for _ in range(5000)]
    gen = root / "sources" / "gen"
    gen.mkdir()
    for i in range(n):
        paras = [" ".join(rng.choice(words) for _ in range(rng.randrange(30, 120))) + "." for _ in range(12)]
        (gen / f"doc{i:04d}.md").write_text("\n\n".join(paras) + "\n", encoding="utf-8")


def verdicts(report: dict) -> dict:
    return {d["path"]: [(c["line"], c["supported"], [x["code"] for x in c["diagnostics"]]) for c in d["claims"]]
            for d in report["drafts"]}


@pytest.fixture
def clean(demo_template, tmp_path) -> dict:
    ws = copy_tree(demo_template, tmp_path / "clean")
    _, report, _ = check_json(ws)
    return verdicts(report)


# --------------------------------------------------------------------------
# Damaged index files


def _garbage(db: Path) -> None:
    db.write_bytes(b"this is not an SQLite database at all\n" * 300)


def _truncated(db: Path) -> None:
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2 + 77])


def _scribbled(db: Path) -> None:
    data = bytearray(db.read_bytes())
    rng = random.Random(5)
    for page in range(1, len(data) // 4096):  # every page but the header's, mangled in its middle
        at = page * 4096 + 100
        data[at:at + 200] = bytes(rng.randrange(256) for _ in range(200))
    db.write_bytes(bytes(data))


def _header_only(db: Path) -> None:
    db.write_bytes(db.read_bytes()[:100])


def _empty(db: Path) -> None:
    db.write_bytes(b"")


def _future_schema(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")


def _foreign_tables(db: Path) -> None:
    db.unlink()
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE chunks (a, b)")
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))


def _wal_garbage(db: Path) -> None:
    Path(str(db) + "-wal").write_bytes(os.urandom(50_000))
    Path(str(db) + "-shm").write_bytes(os.urandom(32_768))


DAMAGE = [_garbage, _truncated, _scribbled, _header_only, _empty, _future_schema, _foreign_tables, _wal_garbage]


def test_a_damaged_index_is_detected_and_rebuilt(demo: Path, clean: dict):
    assert run_cairn(demo, "index").returncode == 0
    db = db_path(demo)
    for damage in DAMAGE:
        with sqlite3.connect(db) as conn:  # fold the WAL in, so the damage hits real pages
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for suffix in ("-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        damage(db)
        code, report, stderr = check_json(demo)
        assert verdicts(report) == clean, damage.__name__
        assert "Traceback" not in stderr
        if damage not in (_wal_garbage, _empty):  # an empty file is a new database
            assert "the index was damaged" in stderr and "rebuilt" in stderr, (damage.__name__, stderr)
        assert integrity(demo) == "ok"
        again = run_cairn(demo, "index")  # the rebuilt index is used as it is
        assert "indexed 0 source(s)" in again.stderr and "damaged" not in again.stderr, damage.__name__


def test_an_index_path_that_is_a_folder_is_a_clear_error(demo: Path):
    store = demo / ".cairn"
    if store.exists():
        import shutil

        shutil.rmtree(store)
    (store / "index.db").mkdir(parents=True)
    proc = run_cairn(demo, "check")
    assert proc.returncode == 2
    assert "index.db is not a file" in proc.stderr and "Traceback" not in proc.stderr


def test_a_locked_index_is_waited_for(demo: Path, clean: dict):
    """Another process holds the write lock for two seconds: the check waits (busy timeout)
    and then gives the usual verdicts; it neither fails nor rebuilds."""
    assert run_cairn(demo, "index").returncode == 0
    # a source changes, so the check must write
    faq = demo / "sources" / "faq.txt"
    faq.write_text(faq.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    locked = threading.Event()

    def hold():
        conn = sqlite3.connect(db_path(demo), isolation_level=None)
        conn.execute("BEGIN EXCLUSIVE")
        locked.set()
        time.sleep(2.0)
        conn.execute("COMMIT")
        conn.close()

    t = threading.Thread(target=hold)
    t.start()
    locked.wait(5)
    t0 = time.monotonic()
    code, report, stderr = check_json(demo)
    waited = time.monotonic() - t0
    t.join()
    assert waited > 1.0  # it did wait for the lock
    assert verdicts(report) == clean
    assert "damaged" not in stderr and "locked" not in stderr
    assert integrity(demo) == "ok"


# --------------------------------------------------------------------------
# Many writers at once


async def test_cli_and_server_index_one_workspace_at_once(client: LanguageClient, demo: Path, clean: dict):
    import shutil

    shutil.rmtree(demo / ".cairn", ignore_errors=True)
    generate_sources(demo, 500)
    procs = [popen_cairn(demo, "index"), popen_cairn(demo, "check", "--format", "json"),
             popen_cairn(demo, "index"), popen_cairn(demo, "check", "--format", "json")]
    await lsp_start(client, demo, timeout=120)  # the server indexes meanwhile
    outs = [p.communicate(timeout=180) for p in procs]
    for p, (_, err) in zip(procs, outs):
        assert p.returncode in (0, 1), err
        assert "Traceback" not in err and "locked" not in err and "damaged" not in err, err
    for p, (out, _) in zip(procs, outs):
        if p.args[-1] == "json":
            assert verdicts(json.loads(out)) == clean
    notes = uri(demo / "drafts" / "review-notes.md")
    await until(lambda: len(client.diagnostics.get(notes, [])) > 5, what="the server's diagnostics")
    assert not any("damaged" in m.message for m in client.messages)
    assert integrity(demo) == "ok"
    with sqlite3.connect(db_path(demo)) as conn:  # readers never wait for a writer
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    code, report, stderr = check_json(demo)
    assert verdicts(report) == clean and "damaged" not in stderr
    assert "indexed 0 source(s)" in run_cairn(demo, "index").stderr
    assert current_count(demo) == 500 + 4


# --------------------------------------------------------------------------
# A crash in the middle of indexing


def test_a_process_killed_mid_index_leaves_a_usable_index(demo: Path, clean: dict):
    import shutil

    shutil.rmtree(demo / ".cairn", ignore_errors=True)
    generate_sources(demo, 1200)
    proc = subprocess.Popen([sys.executable, "-m", "cairn", "index"], cwd=demo, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while current_count(demo) < 150:  # part of the sources are in
        assert proc.poll() is None, "indexing ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = current_count(demo)
    assert 150 <= done < 1204, done
    # the next run uses what is there and indexes only the rest
    again = run_cairn(demo, "index")
    assert again.returncode == 0 and "damaged" not in again.stderr, again.stderr
    unchanged = int(again.stderr.split(" unchanged")[0].split()[-1])
    assert unchanged >= done - 1  # the source being written when killed may be redone
    assert integrity(demo) == "ok"
    code, report, stderr = check_json(demo)
    assert verdicts(report) == clean
    assert current_count(demo) == 1204


def test_a_check_killed_mid_index_then_checked_again(demo: Path, clean: dict):
    """Killed at random moments, again and again: every next run still gives the clean verdicts."""
    import shutil

    shutil.rmtree(demo / ".cairn", ignore_errors=True)
    generate_sources(demo, 600, seed=9)
    rng = random.Random(1)
    for _ in range(4):
        proc = subprocess.Popen([sys.executable, "-m", "cairn", "check"], cwd=demo, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 1.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    code, report, stderr = check_json(demo)
    assert verdicts(report) == clean and "damaged" not in stderr
    assert integrity(demo) == "ok"


# --------------------------------------------------------------------------
# A lock held past the busy timeout


def _hold_write_lock(root: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db_path(root), isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    return conn


def _changed_source(root: Path) -> None:
    faq = root / "sources" / "faq.txt"
    faq.write_text(faq.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")


def test_a_lock_held_past_the_busy_timeout_is_an_error_not_a_rebuild(demo: Path):
    """Past the busy timeout (30 s; shortened here) a locked index must not count as damaged:
    rebuilding deleted the index files under the process holding them."""
    from cairn.engine import checks as engine
    from cairn.index.workspace import Workspace
    from cairn.store import StoreError

    assert run_cairn(demo, "index").returncode == 0
    _changed_source(demo)
    inode = db_path(demo).stat().st_ino
    ws = Workspace(demo)
    ws.store._conn.execute("PRAGMA busy_timeout = 200")
    holder = _hold_write_lock(demo)
    try:
        with pytest.raises(StoreError, match="locked by another process"):
            engine.index(ws)
    finally:
        holder.execute("COMMIT")
        holder.close()
    assert db_path(demo).stat().st_ino == inode  # not deleted and made anew
    assert ws.store.rebuilt_reason is None
    assert integrity(demo) == "ok"


def test_the_server_does_not_rebuild_an_index_that_is_only_locked(demo: Path):
    """The server's own indexing (Folder.index_all) follows the same rule as engine.index."""
    from cairn.core.config import load_settings
    from cairn.lsp.checking import Folder
    from cairn.lsp.positions import Codec

    assert run_cairn(demo, "index").returncode == 0
    _changed_source(demo)
    inode = db_path(demo).stat().st_ino
    folder = Folder(demo, load_settings(demo), Codec("utf-16"), uri=uri(demo))
    folder.ws.store._conn.execute("PRAGMA busy_timeout = 200")
    holder = _hold_write_lock(demo)
    try:
        try:
            folder.index_all()
        except Exception:  # noqa: BLE001 - an error is fine; deleting the index is not
            pass
    finally:
        holder.execute("COMMIT")
        holder.close()
    assert db_path(demo).stat().st_ino == inode
    assert folder.ws.store.rebuilt_reason is None
