"""Faults of the index (issue 11, items 4 and 11): only real damage makes a new
index, and the damaged file is moved aside, never deleted; a full disk, an I/O
error or a read-only index stops a command that must write with exit 2 and one
line saying what failed and that nothing was changed, the file untouched; a
read-only index still serves a check that needs no writes. The server shows
such an error and keeps running.

A full disk is simulated with a file size limit (RLIMIT_FSIZE, as `ulimit -f`);
a read-only file or folder with chmod, or as root (who writes anyway) with the
immutable attribute.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from robust_util import cairn_env, copy_tree, lsp_start, open_doc, run_cairn, until

# one machine for the whole module: the CLI and the server share the key the index is signed with
DATA = {"XDG_DATA_HOME": tempfile.mkdtemp(prefix="cairn-io-data-")}
atexit.register(shutil.rmtree, DATA["XDG_DATA_HOME"], ignore_errors=True)
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"], server_env=cairn_env(DATA))


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def cairn(root: Path, *args: str, fsize: int | None = None) -> subprocess.CompletedProcess:
    """`cairn ARGS`, with files limited to `fsize` bytes (a full disk) when given."""
    if fsize is None:
        return run_cairn(root, *args, env=DATA)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run([sys.executable, "-m", "cairn", *args], cwd=root, capture_output=True, text=True,
                          env=cairn_env(DATA), preexec_fn=limit, timeout=120)


def verdicts(stdout: str) -> dict:
    report = json.loads(stdout)
    return {d["path"]: [(c["line"], c["supported"], [x["code"] for x in c["diagnostics"]]) for c in d["claims"]]
            for d in report["drafts"]}


def db(root: Path) -> Path:
    return root / ".cairn" / "index.db"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_one_line_exit_2(proc: subprocess.CompletedProcess, *words: str) -> None:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for w in words:
        assert w in lines[0], lines[0]


@contextmanager
def read_only(*paths: Path):
    """Files and folders no one may write: mode a-w, or for root the immutable attribute."""
    if os.geteuid() == 0:
        for p in paths:
            subprocess.run(["chattr", "+i", str(p)], check=True)
        try:
            yield
        finally:
            for p in reversed(paths):
                subprocess.run(["chattr", "-i", str(p)], check=True)
    else:
        modes = [p.stat().st_mode for p in paths]
        for p, m in zip(paths, modes):
            p.chmod(m & ~0o222)
        try:
            yield
        finally:
            for p, m in zip(paths, modes):
                p.chmod(m)


@pytest.fixture
def checked(demo_template: Path, tmp_path: Path) -> tuple[Path, dict]:
    """A demo whose index a full check made (the versions git history holds included),
    closed cleanly (no journal files beside it), and its verdicts."""
    root = copy_tree(demo_template, tmp_path / "demo")
    proc = cairn(root, "check", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    # the index and the snapshots a check keeps beside it (snapshots/, snapshots.local); no journal
    names = sorted(p.name for p in (root / ".cairn").iterdir())
    assert names == [".gitignore", "index.db", "snapshots", "snapshots.local"], names
    return root, verdicts(proc.stdout)


def add_source(root: Path, kb: int = 300) -> None:
    """A new source of distinct paragraphs: the next check must write the index."""
    paras, size, i = [], 0, 0
    while size < kb * 1024:
        para = f"Parcel {i} for the islands leaves on a Tuesday and is {i % 97} days on its way. " * 8
        paras.append(para)
        size += len(para) + 2
        i += 1
    (root / "sources" / "islands.md").write_text("\n\n".join(paras), "utf-8")


def no_damaged_copy(root: Path) -> bool:
    return not any(".damaged-" in p.name for p in (root / ".cairn").iterdir())


# --------------------------------------------------------------------------
# A full disk


def test_a_write_error_while_opening_leaves_the_index_as_it_was(checked):
    """The case that deleted the index: the first writes (SQLite's shared-memory and
    log files) fail, which is not damage."""
    root, clean = checked
    before = digest(db(root))
    proc = cairn(root, "check", fsize=1024)
    assert_one_line_exit_2(proc, "cannot open the index", str(db(root)), "nothing was changed")
    assert digest(db(root)) == before and no_damaged_copy(root)
    again = cairn(root, "check", "--format", "json")
    assert verdicts(again.stdout) == clean and "damaged" not in again.stderr


def test_a_full_disk_while_indexing_is_exit_2_and_the_index_stays(checked):
    root, clean = checked
    add_source(root)
    before = digest(db(root))
    proc = cairn(root, "check", fsize=96 * 1024)
    assert_one_line_exit_2(proc, "cannot write the index", "nothing was changed")
    assert digest(db(root)) == before and no_damaged_copy(root)
    again = cairn(root, "check", "--format", "json")  # room again: the source is indexed, nothing lost
    assert verdicts(again.stdout) == clean and "damaged" not in again.stderr
    assert "indexed 0 source(s), 5 unchanged" in cairn(root, "index").stderr


# --------------------------------------------------------------------------
# A read-only index


def test_a_read_only_index_serves_a_check_that_needs_no_writes(checked):
    root, clean = checked
    before = digest(db(root))
    with read_only(db(root)):
        proc = cairn(root, "check", "--format", "json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert verdicts(proc.stdout) == clean
    assert digest(db(root)) == before


def test_a_read_only_index_folder_serves_a_check_that_needs_no_writes(checked):
    """No room for SQLite's shared-memory file either: the index is read as it is."""
    root, clean = checked
    before = digest(db(root))
    with read_only(db(root), db(root).parent):
        proc = cairn(root, "check", "--format", "json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert verdicts(proc.stdout) == clean
    assert digest(db(root)) == before


def test_a_read_only_index_of_schema_3_is_read_as_it_is(checked):
    """Schema 4 reads schema 3's rows as they are, so an index that cannot be migrated
    (read-only) still serves a check, and is left at schema 3."""
    root, clean = checked
    with sqlite3.connect(db(root)) as conn:
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
    conn.close()
    before = digest(db(root))
    with read_only(db(root), db(root).parent):
        proc = cairn(root, "check", "--format", "json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert verdicts(proc.stdout) == clean
    assert digest(db(root)) == before


@pytest.mark.parametrize("folder_too", [False, True])
def test_a_check_that_must_write_a_read_only_index_is_exit_2(checked, folder_too: bool):
    """Neither deleted and rebuilt (as the index once was) nor a traceback."""
    root, _ = checked
    add_source(root, kb=4)
    before = digest(db(root))
    with read_only(db(root), *([db(root).parent] if folder_too else [])):
        proc = cairn(root, "check")
    assert_one_line_exit_2(proc, "cannot write the index", "read-only", "nothing was changed")
    assert digest(db(root)) == before and no_damaged_copy(root)


# --------------------------------------------------------------------------
# Real damage


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not an SQLite database at all\n" * 300)


def _newer_schema(path: Path) -> None:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
        conn.commit()


@pytest.mark.parametrize("damage", [_garbage, _newer_schema])
def test_a_damaged_index_is_moved_aside_never_deleted(checked, damage):
    """A new index is made; the old file is kept, byte for byte, as index.db.damaged-<time>
    (an index of a newer Cairn, say, holds superseded versions stored nowhere else)."""
    root, clean = checked
    damage(db(root))
    damaged = db(root).read_bytes()
    proc = cairn(root, "check", "--format", "json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert verdicts(proc.stdout) == clean
    (kept,) = [p for p in (root / ".cairn").iterdir() if p.name.startswith("index.db.damaged-")]
    assert kept.read_bytes() == damaged
    assert kept.name in proc.stderr


# --------------------------------------------------------------------------
# The server


async def test_the_server_shows_an_index_it_cannot_write_and_keeps_running(client: LanguageClient, checked):
    root, _ = checked
    add_source(root, kb=4)
    before = digest(db(root))
    with read_only(db(root), db(root).parent):
        await lsp_start(client, root)
        shown = await until(lambda: [m.message for m in client.messages if "cannot write the index" in m.message],
                            what="a message about the index")
        assert "read-only" in shown[0] and "nothing was changed" in shown[0]
        # still checking drafts against what the index holds, and answering requests
        notes = open_doc(client, root / "drafts" / "review-notes.md")
        await until(lambda: len(client.diagnostics.get(notes, [])) > 5, what="diagnostics of an open draft")
        hover = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=notes),
                              position=types.Position(line=0, character=0)))
        assert hover is None or hover.contents is not None
    assert digest(db(root)) == before and no_damaged_copy(root)
    assert not [m for m in client.log_messages if "Traceback" in m.message]
