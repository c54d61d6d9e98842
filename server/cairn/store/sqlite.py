"""The default chunk store: one SQLite file, `.cairn/index.db`, per workspace.

Provenance: the index may come from anyone (docs/security.md), so every
version, chunk and cache entry is stored with a MAC under this machine's key
(cairn.provenance). Rows whose MAC does not check are never read as the
current text of a source: indexing parses the file again and replaces them;
as superseded versions they still resolve, marked as of unverified provenance.

Faults: only real damage (not a database, a failed integrity check, a schema
that is not Cairn's) makes a new index, after the damaged file is moved aside
as `index.db.damaged-<time>`; it is never deleted. A file that cannot be read
or written (read-only, a full disk, an I/O error, a lock held by another
process) is a StoreUnavailable error, and the file is left as it was.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.model import Chunk
from . import provenance
from .base import (
    STORE_DIR,
    STORE_FILE,
    IndexStore,
    NewVersion,
    StoreError,
    StoreUnavailable,
    VersionInfo,
    ignore_store_folder,
    versions_to_keep,
)
from .proofs import (
    _R_AT,
    _R_ID,
    _R_MAC,
    _R_ROWID,
    _R_SOURCE,
    _R_START,
    _R_VERSION,
    _R_VID,
    _VERSION_COLS,
    EDITS_DDL,
    Proofs,
)
from .sqlite_bulk import bulk_batch, tune_search
from .sqlite_faults import (
    StoreDamaged,
    _Damage,
    _rollback,
    _unlink_if_link,
    best_effort,
    guarded,
    immediate,
    is_damage,
    unavailable_reason,
)
from .sqlite_search import Search
from .sqlite_text import REST, stored_text, whole_text

log = logging.getLogger("cairn.store")

# 2: versions.text last; 3: MACs (provenance) on versions, chunks and the cache;
# 4: versions.text of a new version holds only the text outside its chunks (sqlite_text)
SCHEMA_VERSION = "4"

_VERSIONS_DDL = """
CREATE TABLE IF NOT EXISTS versions (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  version TEXT NOT NULL,
  lineage TEXT NOT NULL,
  chunk_chars INTEGER NOT NULL,
  pages TEXT,
  indexed_at REAL NOT NULL,
  text_sha BLOB,       -- sha256 of the stored (compressed) text
  mac BLOB,            -- provenance: NULL or wrong = not written by Cairn on this machine
  text BLOB NOT NULL,  -- last: a column after a large value costs a walk through its overflow pages
  UNIQUE (source, version, lineage, chunk_chars)
)"""

_SCHEMA = _VERSIONS_DDL + """;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS current (
  source TEXT PRIMARY KEY,
  version_id INTEGER NOT NULL REFERENCES versions(id)
);
CREATE TABLE IF NOT EXISTS chunks (
  version_id INTEGER NOT NULL,
  chunk_id TEXT NOT NULL,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  page INTEGER,
  text TEXT NOT NULL,
  mac BLOB
);
CREATE INDEX IF NOT EXISTS chunks_by_id ON chunks (chunk_id);
CREATE INDEX IF NOT EXISTS chunks_by_version ON chunks (version_id);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5 (
  text, content='chunks', content_rowid='rowid', tokenize='unicode61 remove_diacritics 0'
);
CREATE TABLE IF NOT EXISTS source_errors (source TEXT PRIMARY KEY, version TEXT, message TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS source_warnings (source TEXT NOT NULL, version TEXT NOT NULL, message TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS git_seen (blob TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS version_dates (version_id INTEGER PRIMARY KEY, date TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS kv_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL, mac BLOB);
CREATE TABLE IF NOT EXISTS purged (source TEXT NOT NULL, version TEXT NOT NULL, PRIMARY KEY (source, version));
"""


@dataclass(slots=True)
class _Prepared:
    """A version's rows as Store.prepare_version works them out beforehand."""

    vid: int  # the id the MACs name
    blob: bytes  # versions.text (sqlite_text.stored_text)
    pages: str | None
    sha: bytes
    mac: bytes
    rows: list[tuple[Any, ...]]  # the chunk rows, MACs included


class Store(Search, Proofs, IndexStore):
    """One workspace's chunk store. Thread-safe: one connection, one lock."""

    # larger batches than the default: FTS5 then writes larger segments (sqlite_bulk);
    # PostgreSQL keeps the default (larger batches gained nothing there)
    BATCH_FILES = 256
    BATCH_CHARS = 16_000_000
    # chunk rows remembered as proven at most this many (about 12 MB); then forgotten and checked again
    PROVEN_CACHE = 100_000
    PREPARE_RESYNC = 64  # prepare_version looks up the largest stored id again every so many versions

    def __init__(self, root: Path, *, path: Path | None = None, checked: bool = True):
        self.root = root
        self.path = path or root / STORE_DIR / STORE_FILE
        self._lock = threading.RLock()
        self.rebuilt_reason: str | None = None
        self.read_only = False  # opened read-only (a read-only folder): no write will succeed
        self._key = provenance.machine_key()
        self._proven_versions: set[int] = set()
        # rowid -> MAC of chunk rows proven: a row found at a remembered rowid counts only with
        # the same MAC (another process's VACUUM may number rows anew)
        self._proven_chunks: dict[int, bytes] = {}
        self._unproven: set[tuple[str, str, str, int]] = set()  # (source, version, chunk_id, start) seen
        self._edited: set[int] = set()  # versions whose rows were changed outside Cairn (proofs.TRIGGERS)
        self._told_edited: set[int] = set()
        self._unnoted_edits: set[int] = set()
        self._told_cache = False
        self._vid_hint: int | None = None  # the id prepare_version gives the next version
        self._prepared_count = 0
        if checked:
            self._conn = self._open()
        else:  # an index another handle has just opened and checked (background_writer)
            try:
                self._conn = self._connect()
            except sqlite3.Error as exc:
                raise self.failure(exc, "open") from exc

    def background_writer(self) -> Store | None:
        """A second connection to this index: a thread writes on it while this one reads
        (the write-ahead log lets readers go on during a write transaction)."""
        if self.read_only:
            return None
        return Store(self.root, path=self.path, checked=False)

    # -- failures -------------------------------------------------------------------

    def failure(self, exc: sqlite3.Error, verb: str) -> StoreError:
        """The StoreError an SQLite failure on this index is (see _guarded)."""
        if is_damage(exc):
            return StoreDamaged(f"the index {self.path} is damaged: {exc}")
        reason = unavailable_reason(exc)
        if reason == "locked by another process":
            return StoreUnavailable(f"the index {self.path} is locked by another process: {exc}")
        if reason is not None:
            return StoreUnavailable(f"cannot {verb} the index {self.path}: {reason}; nothing was changed")
        return StoreError(f"the index {self.path}: {exc}")

    # -- opening, damage and rebuilding ---------------------------------------------

    def _connect(self, *, read_only: bool = False) -> sqlite3.Connection:
        # The index's folder and files are Cairn's own and never symbolic links: a workspace
        # that brings links there could make Cairn write into files outside it. A link is
        # removed (never what it points to) and the store starts afresh.
        folder = self.path.parent
        _unlink_if_link(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise StoreError(f"{folder} is not a folder; Cairn keeps its index there: move it away") from None
        except OSError as exc:
            raise StoreUnavailable(f"cannot make the folder {folder} for the index: {exc.strerror or exc}") from exc
        for suffix in ("", "-wal", "-shm", "-journal"):
            p = Path(str(self.path) + suffix)
            _unlink_if_link(p)
            if p.exists() and not p.is_file():
                raise StoreError(f"{p} is not a file; Cairn keeps its index there: move it away")
        if folder.name == STORE_DIR and not read_only:
            _unlink_if_link(folder / ".gitignore")
            ignore_store_folder(folder)
        uri = self.path.absolute().as_uri() + "?nofollow=1"  # SQLite refuses a link swapped in meanwhile
        if read_only:
            # a read-only folder has no room for SQLite's shared-memory file: read the
            # file as it is (nothing else can write it either)
            uri += "&mode=ro&immutable=1"
        conn = sqlite3.connect(uri, uri=True, timeout=30.0, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA busy_timeout = 30000")
        if not read_only:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.OperationalError as exc:
                if unavailable_reason(exc) != "it is read-only":
                    raise  # a read-only index keeps the journal mode it has
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def _open(self) -> sqlite3.Connection:
        try:
            return self._open_checked()
        except _Damage as exc:
            return self._rebuild(str(exc))
        except sqlite3.Error as exc:
            if is_damage(exc):
                return self._rebuild(str(exc))
            if unavailable_reason(exc) in ("it is read-only", "the file cannot be opened") and self.path.is_file():
                try:
                    conn = self._open_checked(read_only=True)
                    self.read_only = True
                    log.info("the index %s is read-only: it is read, never written", self.path)
                    return conn
                except (sqlite3.Error, _Damage):
                    pass
            raise self.failure(exc, "open") from exc

    def _open_checked(self, *, read_only: bool = False) -> sqlite3.Connection:
        conn = self._connect(read_only=read_only)
        try:
            self._check(conn, read_only=read_only)
        except BaseException:
            conn.close()
            raise
        return conn

    def _check(self, conn: sqlite3.Connection, *, read_only: bool = False) -> None:
        conn.executescript(_SCHEMA)
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        elif row[0] == "3" and read_only:
            pass  # read as it is (schema 4 reads schema 3's rows); nothing is written to a read-only index
        elif row[0] in ("1", "2", "3"):
            self._migrate(conn, row[0])
        elif row[0] != SCHEMA_VERSION:
            raise _Damage(f"index schema {row[0]} is not {SCHEMA_VERSION}")
        ok = conn.execute("PRAGMA quick_check(1)").fetchone()
        if not ok or ok[0] != "ok":
            raise _Damage(f"index failed its integrity check: {ok[0] if ok else '?'}")
        if not read_only:
            tune_search(conn)
        self._check_owner(conn)
        if not read_only:
            self._guard_edits(conn)
        self._note_edits(conn)

    @staticmethod
    def _migrate(conn: sqlite3.Connection, schema: str) -> None:
        """Schema 1 or 2 -> 3: the versions table made anew (its text column last, the
        MAC columns before it), MAC columns added to chunks and the cache. Migrated,
        not rebuilt: superseded versions may exist nowhere else (no git history).
        Nothing migrated has a MAC: it is of unverified provenance, like a foreign index.
        3 -> 4: nothing to rewrite (a version's text is read in either form, see
        sqlite_text); the number keeps a Cairn that knows only schema 3 from misreading
        the new rows."""
        log.info("migrating the index from schema %s to %s", schema, SCHEMA_VERSION)
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] != schema:
                conn.execute("ROLLBACK")  # another process migrated it meanwhile
                return
            if schema in ("1", "2"):
                conn.execute(_VERSIONS_DDL.replace("EXISTS versions (", "EXISTS versions_new (", 1))
                conn.execute(
                    "INSERT INTO versions_new (id, source, version, lineage, chunk_chars, pages, indexed_at, text)"
                    " SELECT id, source, version, lineage, chunk_chars, pages, indexed_at, text FROM versions"
                )
                conn.execute("DROP TABLE versions")
                conn.execute("ALTER TABLE versions_new RENAME TO versions")
                for table in ("chunks", "kv_cache"):
                    if "mac" not in {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}:
                        conn.execute(f"ALTER TABLE {table} ADD COLUMN mac BLOB")
            conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise

    def _check_owner(self, conn: sqlite3.Connection) -> None:
        """Note an index last opened with another key (or before keys): its rows
        are checked one by one anyway; this forgets what it says about git
        history (a forged `seen` would hide a version) and says so once."""
        owner = provenance.mac(self._key, b"cairn index owner").hex()
        row = conn.execute("SELECT value FROM meta WHERE key = 'owner'").fetchone()
        if row is not None and row[0] == owner:
            return
        if conn.execute("SELECT 1 FROM versions LIMIT 1").fetchone() is not None:
            log.warning(
                "the index %s was not written by Cairn on this machine (or by an older Cairn): the current"
                " versions of the sources are read again from the files; older versions it holds are"
                " of unverified provenance", self.path,
            )
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("DELETE FROM git_seen")
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('owner', ?)", (owner,))
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            _rollback(conn)
            if unavailable_reason(exc) is None:
                raise
            # read-only or full: it is noted on a later run

    def _rebuild(self, reason: str) -> sqlite3.Connection:
        kept = self._move_aside(reason)
        log.warning("index %s is damaged (%s); it is kept as %s and a new index is made", self.path, reason, kept.name)
        self.rebuilt_reason = f"{reason}; the damaged file is kept as {kept.name}"
        self._forget_proofs()
        try:
            return self._open_checked()
        except (sqlite3.Error, _Damage) as exc:
            if isinstance(exc, sqlite3.Error) and not is_damage(exc):
                raise self.failure(exc, "make") from exc
            raise StoreError(f"a new index at {self.path} could not be made: {exc}") from exc

    def _move_aside(self, reason: str) -> Path:
        """Rename the damaged index (and its journal files) to index.db.damaged-<time>;
        never delete it: superseded versions may be stored nowhere else."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        kept = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        n = 1
        while any(Path(str(kept) + s).exists() for s in ("", "-wal", "-shm", "-journal")):
            n += 1
            kept = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{n}")
        for suffix in ("", "-wal", "-journal", "-shm"):
            p = Path(str(self.path) + suffix)
            if not p.exists():
                continue
            try:
                os.rename(p, str(kept) + suffix)
            except OSError as exc:
                raise StoreUnavailable(
                    f"the index {self.path} is damaged ({reason}) and cannot be moved aside:"
                    f" {exc.strerror or exc}; nothing was changed"
                ) from exc
        return kept

    def recover(self, exc: Exception) -> None:
        """After a failure found mid-run: real damage is moved aside and a new index made
        (the caller re-indexes); anything else (I/O, read-only, locked) is raised as a
        StoreError and the file is left as it is."""
        if not is_damage(exc):
            if isinstance(exc, StoreError):
                raise exc
            raise self.failure(exc, "use") if isinstance(exc, sqlite3.Error) else StoreError(str(exc))
        with self._lock:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
            self._conn = self._rebuild(str(exc))

    @property
    def where(self) -> str:
        return str(self.path)

    @guarded("read")
    def schema(self) -> str:
        with self._lock:
            return self._conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- writing ------------------------------------------------------------------

    @guarded("read")
    def find_version(self, source: str, version: str, lineage: str, chunk_chars: int) -> int | None:
        """The id of this version as Cairn stored it on this machine, or None."""
        with self._lock:
            row = self._conn.execute(
                f"SELECT {_VERSION_COLS} FROM versions v"
                " WHERE source=? AND version=? AND lineage=? AND chunk_chars=?",
                (source, version, lineage, chunk_chars),
            ).fetchone()
            self._note_edits(self._conn)
            if not row or not self._proven_version_row(row):
                return None
            # reused instead of parsing the file: its chunk rows must check too (a version noted
            # as changed outside Cairn is not proven; this finds one changed while nothing noted it)
            return row[0] if self._chunks_proven(self._conn, row[0]) else None

    @guarded("write")
    def add_versions(self, versions: list[NewVersion]) -> list[int]:
        """Store parsed versions and their chunks, all in one transaction
        (indexing a corpus: one commit per file would cost a quarter of the time).
        The new chunks enter the full-text index in one statement at the end: one
        statement a version cost twice the time (FTS5 works per statement)."""
        blobs = [v.prepared.blob if isinstance(v.prepared, _Prepared) else stored_text(v.text, v.chunks)
                 for v in versions]
        with self._lock:
            c = self._conn
            self._note_edits(c, tell=False)  # this may be the background writer's own handle
            with bulk_batch(c, sum(len(v.text) for v in versions)), immediate(c):
                firsts: list[int] = []
                ids = [self._insert_version(c, v, blob, firsts) for v, blob in zip(versions, blobs)]
                if firsts:
                    # every chunk row above the lowest of these was written in this transaction
                    c.execute("INSERT INTO chunks_fts (rowid, text) SELECT rowid, text FROM chunks WHERE rowid > ?",
                              (min(firsts),))
        return ids

    def _insert_version(self, c: sqlite3.Connection, v: NewVersion, blob: bytes, firsts: list[int]) -> int:
        """Write one version and its chunks (in the caller's transaction); the rowid its
        chunk rows follow goes to `firsts`, for the caller to index them."""
        row = c.execute(
            f"SELECT {_VERSION_COLS} FROM versions v WHERE source=? AND version=? AND lineage=? AND chunk_chars=?",
            (v.source, v.version, v.lineage, v.chunk_chars),
        ).fetchone()
        if row and self._proven_version_row(row) and self._chunks_proven(c, row[0]):
            vid = row[0]
        else:
            # the largest id before a row is dropped: a version is never stored under the id of
            # the one it replaces (another handle may still hold that id as not to be trusted)
            top = c.execute("SELECT coalesce(max(id), 0) FROM versions").fetchone()[0]
            if row:
                # stored by someone else (or changed since): this parse of the file replaces it
                self._drop_version(c, row[0])
            p = v.prepared
            if not (isinstance(p, _Prepared) and p.vid > top and p.blob is blob):
                # not prepared, or under an id that is taken now: worked out here, under the next id
                p = self._prepared(top + 1, v, blob)
            vid = p.vid
            c.execute(
                "INSERT INTO versions (id, source, version, lineage, chunk_chars, pages, indexed_at, text_sha, mac,"
                " text) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (vid, v.source, v.version, v.lineage, v.chunk_chars, p.pages, time.time(), p.sha, p.mac, blob),
            )
            rows = p.rows
            firsts.append(c.execute("SELECT coalesce(max(rowid), 0) FROM chunks").fetchone()[0])
            c.executemany(
                "INSERT INTO chunks (version_id, chunk_id, start, end, page, text, mac) VALUES (?,?,?,?,?,?,?)", rows
            )
        # the date row follows the version written now (a stale row of a reused id never survives)
        c.execute("DELETE FROM version_dates WHERE version_id = ?", (vid,))
        if v.date:
            c.execute("INSERT INTO version_dates (version_id, date) VALUES (?, ?)", (vid, v.date))
        if v.make_current:
            c.execute("INSERT OR REPLACE INTO current (source, version_id) VALUES (?, ?)", (v.source, vid))
            c.execute("DELETE FROM source_errors WHERE source = ?", (v.source,))
        return vid

    def _prepared(self, vid: int, v: NewVersion, blob: bytes) -> _Prepared:
        """The version row's MAC and its chunk rows (with theirs) under the id `vid`."""
        pages = json.dumps(v.pages) if v.pages else None
        sha = hashlib.sha256(blob).digest()
        vmac = self._version_mac(vid, v.source, v.version, v.lineage, v.chunk_chars, pages, sha)
        mac = self._chunk_mac
        rows = [(vid, ch.chunk_id, ch.start, ch.end, ch.page, ch.text,
                 mac(vid, ch.chunk_id, ch.start, ch.end, ch.page, ch.text)) for ch in v.chunks]
        return _Prepared(vid, blob, pages, sha, vmac, rows)

    def prepare_version(self, version: NewVersion) -> None:
        """The version's stored text, its MAC and its chunk rows with theirs, worked out
        on the thread that parses while the writing thread stores the batch before (about
        a seventh of that thread's work on 100 MB, which is the longest stage of
        indexing; docs/team.md, "Measured"). The MACs name the version's id, which the
        writer gives only in its transaction: they are made under the id it will most
        likely give, the next after the largest one stored or predicted here, and the
        writer takes that id when it is still above every stored one (ids need not be
        consecutive); otherwise it works the rows out again under its own. The rows
        stored are the same either way."""
        if self._vid_hint is None or self._prepared_count % self.PREPARE_RESYNC == 0:
            # now and then the largest id another writer may have stored meanwhile
            try:
                with self._lock:
                    top = self._conn.execute("SELECT coalesce(max(id), 0) FROM versions").fetchone()[0]
            except sqlite3.Error:
                return  # the writer works it out (and reports what is wrong)
            self._vid_hint = max(self._vid_hint or 0, top + 1)
        self._prepared_count += 1
        vid = self._vid_hint
        self._vid_hint = vid + 1
        version.prepared = self._prepared(vid, version, stored_text(version.text, version.chunks))

    def _drop_versions(self, c: sqlite3.Connection, vids: list[int]) -> None:
        """Drop these versions in one transaction (all or none)."""
        try:
            with immediate(c):
                for vid in vids:
                    self._drop_version(c, vid)
        finally:
            self._forget_proofs()

    @staticmethod
    def _drop_version(c: sqlite3.Connection, vid: int) -> None:
        """Remove a version, its chunks and their search entries (in the caller's transaction),
        and the note that its rows were changed outside Cairn (which deleting its chunk rows
        makes, proofs.TRIGGERS)."""
        for rowid, text in c.execute("SELECT rowid, text FROM chunks WHERE version_id = ?", (vid,)).fetchall():
            c.execute("INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', ?, ?)", (rowid, text))
        c.execute("DELETE FROM chunks WHERE version_id = ?", (vid,))
        c.execute("DELETE FROM versions WHERE id = ?", (vid,))
        c.execute("DELETE FROM current WHERE version_id = ?", (vid,))
        c.execute("DELETE FROM version_dates WHERE version_id = ?", (vid,))
        c.execute(EDITS_DDL)
        c.execute("DELETE FROM outside_edits WHERE version_id = ?", (vid,))

    @guarded("write")
    def set_current(self, source: str, version_id: int) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO current (source, version_id) VALUES (?, ?)", (source, version_id))
            self._conn.execute("DELETE FROM source_errors WHERE source = ?", (source,))

    @guarded("write")
    def drop_current(self, source: str) -> None:
        """The source is gone from disk (or from the roots): its versions stay, superseded."""
        with self._lock:
            self._conn.execute("DELETE FROM current WHERE source = ?", (source,))
            self._conn.execute("DELETE FROM source_errors WHERE source = ?", (source,))

    @guarded("write")
    def record_error(self, source: str, version: str | None, message: str) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO source_errors VALUES (?, ?, ?)", (source, version, message))

    @guarded("write")
    def record_warnings(self, source: str, version: str, messages: list[str]) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM source_warnings WHERE source = ? AND version = ?", (source, version))
            self._conn.executemany(
                "INSERT INTO source_warnings VALUES (?, ?, ?)", [(source, version, m) for m in messages]
            )

    @guarded("read")
    def warnings_for(self, source: str, version: str) -> list[str]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT message FROM source_warnings WHERE source = ? AND version = ?", (source, version)
            ).fetchall()
        return [r[0] for r in rows]

    @guarded("read")
    def source_errors(self) -> dict[str, str]:
        with self._lock:
            return dict(self._conn.execute("SELECT source, message FROM source_errors").fetchall())

    # -- reading ------------------------------------------------------------------
    #
    # Rows that fail the provenance check (_proven) are never read as current:
    # the current-only queries leave them out, and lookup() returns them as
    # superseded (marked, see provenance_note).

    @staticmethod
    def _info(r: Sequence[Any]) -> VersionInfo:
        return VersionInfo(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]) if r[5] else None)

    @guarded("read")
    def version_date(self, source: str, version: str) -> str | None:
        """The date (YYYY-MM-DD) stored with a version of a source, if its metadata gave one."""
        with self._lock:
            row = self._conn.execute(
                "SELECT d.date FROM versions v JOIN version_dates d ON d.version_id = v.id"
                " WHERE v.source = ? AND v.version = ? ORDER BY v.id DESC LIMIT 1", (source, version)).fetchone()
        return row[0] if row else None

    @guarded("read")
    def current_versions(self) -> dict[str, VersionInfo]:
        with self._lock:
            self._note_edits(self._conn)
            rows = self._conn.execute(
                f"SELECT {_VERSION_COLS} FROM current c JOIN versions v ON v.id = c.version_id"
            ).fetchall()
            return {r[1]: self._info(r) for r in rows if self._proven_version_row(r)}

    @guarded("read")
    def current_version(self, source: str) -> VersionInfo | None:
        with self._lock:
            self._note_edits(self._conn)
            r = self._conn.execute(
                f"SELECT {_VERSION_COLS} FROM current c JOIN versions v ON v.id = c.version_id WHERE c.source = ?",
                (source,),
            ).fetchone()
            return self._info(r) if r and self._proven_version_row(r) else None

    @guarded("read")
    def version_text(self, version_id: int) -> str:
        """The parsed text of a version Cairn stored on this machine (KeyError otherwise)."""
        with self._lock:
            row = self._conn.execute(f"SELECT {_VERSION_COLS}, v.text FROM versions v WHERE v.id = ?",
                                     (version_id,)).fetchone()
            if row is None or not self._proven_version_row(row) or hashlib.sha256(row[8]).digest() != row[6]:
                raise KeyError(version_id)
            chunks = [] if row[8][:1] != REST else self._conn.execute(
                "SELECT start, end, text FROM chunks WHERE version_id = ?", (version_id,)).fetchall()
        text = whole_text(row[8], chunks)
        if text is None:
            raise KeyError(version_id)
        return text


    @staticmethod
    def _chunk(row: Sequence[Any], current: bool = True) -> Chunk:
        return Chunk(row[0], row[1], row[2], row[3], row[4], row[5], row[6], current)

    def _current_rows(self, rows: Iterable[Sequence[Any]]) -> list[Chunk]:
        self._note_edits(self._conn)
        return [self._chunk(r) for r in rows if self._proven(r)]

    @guarded("read")
    def current_version_ids(self) -> set[int]:
        with self._lock:
            return {r[0] for r in self._conn.execute("SELECT version_id FROM current")}

    @guarded("read")
    def lookup_many(self, chunk_ids: Iterable[str], current: set[int] | None = None) -> dict[str, list[Chunk]]:
        """lookup() for many ids in few queries; `current`: current_version_ids(), if known.

        Occurrences Cairn did not store on this machine come after the others,
        never as current."""
        ids = list(dict.fromkeys(chunk_ids))
        found: dict[str, list[tuple]] = {}
        if current is None:
            current = self.current_version_ids()
        with self._lock:
            self._note_edits(self._conn)
            proven_before = self._proven_chunks  # the common case inline: a row proven earlier
            for i in range(0, len(ids), 500):
                part = ids[i:i + 500]
                marks = ",".join("?" * len(part))
                for r in self._conn.execute(self._ROWS_SQL + f" WHERE ch.chunk_id IN ({marks})", part):
                    known = proven_before.get(r[_R_ROWID])
                    proven = (known is not None and known == r[_R_MAC]) or self._proven(r)
                    if not proven:
                        self._unproven.add((r[_R_SOURCE], r[_R_VERSION], r[_R_ID], r[_R_START]))
                    found.setdefault(r[0], []).append((proven and r[_R_VID] in current, proven, r))
        out: dict[str, list[Chunk]] = {}
        for cid, rows in found.items():
            if len(rows) > 1:
                rows.sort(key=lambda x: (not x[0], not x[1], -x[2][_R_AT], -x[2][_R_VID]))
            out[cid] = [Chunk(r[0], r[1], r[2], r[3], r[4], r[5], r[6], cur) for cur, _, r in rows]
        return out

    @guarded("read")
    def current_chunks(self, sources: Iterable[str] | None = None) -> list[Chunk]:
        with self._lock:
            if sources is None:
                rows = self._conn.execute(
                    self._ROWS_SQL + " JOIN current c2 ON c2.version_id = v.id ORDER BY v.source, ch.start"
                ).fetchall()
            else:
                rows = []
                for s in sources:
                    rows += self._conn.execute(
                        self._ROWS_SQL + self._JOIN_CURRENT + " WHERE v.source = ? ORDER BY ch.start",
                        (s,),
                    ).fetchall()
            return self._current_rows(rows)

    @guarded("read")
    def current_chunk_count(self) -> int:
        with self._lock:
            return self._conn.execute(
                "SELECT count(*) FROM chunks ch JOIN current c ON c.version_id = ch.version_id"
            ).fetchone()[0]

    @guarded("read")
    def versions_of(self, chunk_id: str) -> list[str]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT DISTINCT v.version FROM chunks ch JOIN versions v ON v.id = ch.version_id WHERE ch.chunk_id = ?",
                (chunk_id,),
            ).fetchall()
        return [r[0] for r in rows]

    @guarded("read")
    def version_info(self, source: str, version: str) -> VersionInfo | None:
        with self._lock:
            r = self._conn.execute(
                f"SELECT {_VERSION_COLS} FROM versions v WHERE v.source = ? AND v.version = ?"
                " ORDER BY v.indexed_at DESC, v.id DESC LIMIT 1", (source, version)).fetchone()
            return self._info(r) if r else None

    # -- retention ----------------------------------------------------------------

    @guarded("write")
    def purge(self, sources: list[str]) -> int:
        with self._lock:
            c = self._conn
            c.execute("PRAGMA secure_delete = ON")  # freed pages are overwritten with zeros
            try:
                with immediate(c):
                    n = 0
                    for source in sources:
                        for vid, version in c.execute("SELECT id, version FROM versions WHERE source = ?",
                                                      (source,)).fetchall():
                            c.execute("INSERT OR IGNORE INTO purged VALUES (?, ?)", (source, version))
                            self._drop_version(c, vid)
                            n += 1
                        c.execute("DELETE FROM current WHERE source = ?", (source,))
                        c.execute("DELETE FROM source_errors WHERE source = ?", (source,))
                        c.execute("DELETE FROM source_warnings WHERE source = ?", (source,))
                    # cached reports and verdicts may quote a purged source: all of them go
                    c.execute("DELETE FROM kv_cache")
                    c.execute("DELETE FROM git_seen")
            finally:
                self._forget_proofs()
            # rebuild the search index's own pages and rewrite the file: deleted rows
            # would otherwise stay readable in free pages
            c.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild')")
            c.execute("VACUUM")
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # and the write-ahead log holds none of it
            c.execute("PRAGMA secure_delete = OFF")
            self._forget_proofs()
        return n

    @guarded("read")
    def purged_versions(self, source: str | None = None) -> set[tuple[str, str]]:
        with self._lock:
            if source is None:
                rows = self._conn.execute("SELECT source, version FROM purged").fetchall()
            else:
                rows = self._conn.execute("SELECT source, version FROM purged WHERE source = ?", (source,)).fetchall()
        return {(r[0], r[1]) for r in rows}

    @guarded("write")
    def lift_purge(self, sources: list[str]) -> int:
        with self._lock:
            n = 0
            for source in sources:
                n += self._conn.execute("DELETE FROM purged WHERE source = ?", (source,)).rowcount
            self._conn.execute("DELETE FROM git_seen")  # history may be read again for them
            self._conn.execute("DELETE FROM kv_cache")  # and reports made without them are stale
        return n

    @guarded("write")
    def drop_superseded_before(self, cutoff: float, keep: set[tuple[str, str]] | None = None) -> int:
        with self._lock:
            c = self._conn
            rows = c.execute("SELECT id, source, version FROM versions WHERE indexed_at < ? AND id NOT IN"
                             " (SELECT version_id FROM current)", (cutoff,)).fetchall()
            drop = [r[0] for r in rows if not keep or (r[1], r[2]) not in keep]
            if not drop:
                return 0
            self._drop_versions(c, drop)
        return len(drop)

    # -- small key-value cache (judge verdicts, draft reports) ----------------------
    #
    # An entry counts only with its MAC: a cached verdict planted in a committed
    # index (say, a judge's "supported") is never read.

    def _kv_mac(self, key: str, value: str) -> bytes:
        return provenance.mac(self._key, f"kv\0{key}\0{value}".encode("utf-8", "surrogatepass"))

    @guarded("read")
    def cache_get(self, key: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT value, mac FROM kv_cache WHERE key = ?", (key,)).fetchone()
        if row is None or not provenance.same(row[1], self._kv_mac(key, row[0])):
            return None
        return row[0]

    @best_effort
    def cache_put(self, key: str, value: str) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO kv_cache (key, value, created, mac) VALUES (?, ?, ?, ?)",
                (key, value, time.time(), self._kv_mac(key, value)),
            )

    @best_effort
    def cache_prune(self, prefix: str, max_age: float) -> None:
        with self._lock:
            self._conn.execute(
                "DELETE FROM kv_cache WHERE key >= ? AND key < ? AND created < ?",
                (prefix, prefix + "\uffff", time.time() - max_age),
            )

    @guarded("read")
    def state_token(self) -> str:
        """Changes whenever a version is stored or dropped or `current` moves."""
        with self._lock:
            c = self._conn
            n, top = c.execute("SELECT count(*), coalesce(max(id), 0) FROM versions").fetchone()
            cur = c.execute("SELECT group_concat(source || ':' || version_id, '|') FROM "
                            "(SELECT source, version_id FROM current ORDER BY source)").fetchone()[0]
        return f"{n}:{top}:{cur or ''}"

    # -- git history bookkeeping ---------------------------------------------------

    @guarded("read")
    def git_seen(self, blob: str) -> bool:
        with self._lock:
            return self._conn.execute("SELECT 1 FROM git_seen WHERE blob = ?", (blob,)).fetchone() is not None

    @best_effort
    def mark_git_seen(self, blob: str) -> None:
        with self._lock:
            self._conn.execute("INSERT OR IGNORE INTO git_seen VALUES (?)", (blob,))

    # -- gc -------------------------------------------------------------------------

    @guarded("write")
    def gc(self, cited: set[tuple[str, str | None]]) -> int:
        """Drop the superseded versions no citation resolves to.

        `cited` holds (chunk_id, version prefix or None). A citation keeps the
        version its `version` names; without one, the version a lookup picks
        (a current one, else the newest holding the chunk)."""
        with self._lock:
            c = self._conn
            holders = {
                chunk_id: c.execute(
                    "SELECT v.id, v.version FROM chunks ch JOIN versions v ON v.id = ch.version_id"
                    " WHERE ch.chunk_id = ? ORDER BY v.indexed_at DESC, v.id DESC",
                    (chunk_id,),
                ).fetchall()
                for chunk_id in {cid for cid, _ in cited}
            }
            keep = versions_to_keep({r[0] for r in c.execute("SELECT version_id FROM current")}, cited, holders)
            drop = [r[0] for r in c.execute("SELECT id FROM versions").fetchall() if r[0] not in keep]
            self._drop_versions(c, drop)
            c.execute("DELETE FROM git_seen")
        try:
            with self._lock:
                self._conn.execute("VACUUM")  # may number chunk rows anew
                self._forget_proofs()
        except sqlite3.OperationalError:
            pass
        return len(drop)

    @guarded("read")
    def stats(self) -> dict[str, int]:
        with self._lock:
            c = self._conn
            return {
                "versions": c.execute("SELECT count(*) FROM versions").fetchone()[0],
                "current_sources": c.execute("SELECT count(*) FROM current").fetchone()[0],
                "chunks": c.execute("SELECT count(*) FROM chunks").fetchone()[0],
            }


def store_size(root: Path) -> int:
    p = root / STORE_DIR / STORE_FILE
    return p.stat().st_size if p.exists() else 0
