"""The SQLite index's retention (purge, gc, dropping superseded versions), its small
key-value cache of verdicts and reports (each entry with its MAC), and its record
of git blobs already read. A mixin of cairn.store.sqlite.Store."""

from __future__ import annotations

import sqlite3
import threading
import time

from . import provenance
from .base import versions_to_keep
from .proofs import EDITS_DDL, Proofs
from .sqlite_faults import best_effort, guarded, immediate


class Keep(Proofs):
    """The retention and bookkeeping half of the SQLite Store."""

    _lock: threading.RLock

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
