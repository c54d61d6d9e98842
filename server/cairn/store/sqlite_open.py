"""Opening the SQLite index: its schema, the checks made when it is opened (a schema
that is not Cairn's, a failed integrity check, an index last written under another
key), its migrations, and what happens to real damage: the file is moved aside as
`index.db.damaged-<time>` (never deleted) and a new index made. A mixin of
cairn.store.sqlite.Store."""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from pathlib import Path

from . import provenance
from .base import STORE_DIR, StoreError, StoreUnavailable, ignore_store_folder
from .proofs import Proofs
from .sqlite_bulk import tune_search
from .sqlite_faults import (
    StoreDamaged,
    _Damage,
    _rollback,
    _unlink_if_link,
    is_damage,
    unavailable_reason,
)
from .sqlite_guard import foreign_objects, harden

log = logging.getLogger("cairn.store")

# 2: versions.text last; 3: MACs (provenance) on versions, chunks and the cache;
# 4: versions.text of a new version holds only the text outside its chunks (sqlite_text);
# 5: MACs on `current` and `version_dates`
SCHEMA_VERSION = "5"

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
  version_id INTEGER NOT NULL REFERENCES versions(id),
  mac BLOB  -- provenance of which version is current (Proofs._current_mac)
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
CREATE TABLE IF NOT EXISTS version_dates (version_id INTEGER PRIMARY KEY, date TEXT NOT NULL, mac BLOB);
CREATE TABLE IF NOT EXISTS kv_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL, mac BLOB);
CREATE TABLE IF NOT EXISTS purged (source TEXT NOT NULL, version TEXT NOT NULL, PRIMARY KEY (source, version));
"""


class Opening(Proofs):
    """The opening half of the SQLite Store."""

    root: Path
    path: Path
    _lock: threading.RLock
    rebuilt_reason: str | None
    read_only: bool
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
        harden(conn)
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
        # before anything is written: a trigger of the file's own would fire on Cairn's writes
        foreign = foreign_objects(conn)
        if foreign:
            more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
            raise _Damage(f"the index holds schema objects Cairn did not make ({', '.join(foreign[:5])}{more})")
        conn.executescript(_SCHEMA)
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        elif row[0] in ("3", "4") and read_only:
            # read as it is (schema 4 reads schema 3's rows); nothing is written to a read-only index.
            # Its `current` rows carry no MAC: none is trusted (_sweep_current)
            pass
        elif row[0] in ("1", "2", "3", "4"):
            self._migrate(conn, row[0])
        elif row[0] != SCHEMA_VERSION:
            raise _Damage(f"index schema {row[0]} is not {SCHEMA_VERSION}")
        ok = conn.execute("PRAGMA quick_check(1)").fetchone()
        if not ok or ok[0] != "ok":
            raise _Damage(f"index failed its integrity check: {ok[0] if ok else '?'}")
        if not read_only:
            tune_search(conn)
        self._check_owner(conn)
        self._sweep_current(conn, read_only=read_only)
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
        the new rows. 4 -> 5: MAC columns on `current` and `version_dates` (which
        version of a source is current decides verdicts); the rows before have none,
        so the current versions are worked out again from the files."""
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
            for table in ("current", "version_dates"):
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
