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
    VersionInfo,
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
)
from .sqlite_bulk import bulk_batch
from .sqlite_faults import (
    guarded,
    immediate,
)
from .sqlite_keep import Keep
from .sqlite_open import SCHEMA_VERSION, Opening
from .sqlite_search import Search
from .sqlite_text import REST, stored_text, whole_text

log = logging.getLogger("cairn.store")

@dataclass(slots=True)
class _Prepared:
    """A version's rows as Store.prepare_version works them out beforehand."""

    vid: int  # the id the MACs name
    blob: bytes  # versions.text (sqlite_text.stored_text)
    pages: str | None
    sha: bytes
    mac: bytes
    rows: list[tuple[Any, ...]]  # the chunk rows, MACs included


class Store(Search, Opening, Keep, IndexStore):
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
        self._forged_current: set[int] = set()
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
            c.execute("INSERT INTO version_dates (version_id, date, mac) VALUES (?, ?, ?)",
                      (vid, v.date, self._date_mac(vid, v.date)))
        if v.make_current:
            c.execute("INSERT OR REPLACE INTO current (source, version_id, mac) VALUES (?, ?, ?)",
                      (v.source, vid, self._current_mac(v.source, vid)))
            self._forged_current.discard(vid)
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

    @guarded("write")
    def set_current(self, source: str, version_id: int) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO current (source, version_id, mac) VALUES (?, ?, ?)",
                               (source, version_id, self._current_mac(source, version_id)))
            self._forged_current.discard(version_id)
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
                f"SELECT d.date, v.id, {self._mac_cols[1]} FROM versions v JOIN version_dates d ON d.version_id = v.id"
                " WHERE v.source = ? AND v.version = ? ORDER BY v.id DESC LIMIT 1", (source, version)).fetchone()
        if row is None or not provenance.same(row[2], self._date_mac(row[1], row[0])):
            return None  # a date Cairn did not record here (it would decide `mixed-dates`)
        return row[0]

    @guarded("read")
    def current_versions(self) -> dict[str, VersionInfo]:
        with self._lock:
            self._note_edits(self._conn)
            rows = self._conn.execute(
                f"SELECT {_VERSION_COLS}, {self._mac_cols[0]} FROM current c JOIN versions v ON v.id = c.version_id"
            ).fetchall()
            return {r[1]: self._info(r) for r in rows
                    if self._current_proven(r[1], r[0], r[8]) and self._proven_version_row(r)}

    @guarded("read")
    def current_version(self, source: str) -> VersionInfo | None:
        with self._lock:
            self._note_edits(self._conn)
            r = self._conn.execute(
                f"SELECT {_VERSION_COLS}, {self._mac_cols[0]} FROM current c JOIN versions v ON v.id = c.version_id"
                " WHERE c.source = ?", (source,),
            ).fetchone()
            if r is None or not self._current_proven(r[1], r[0], r[8]):
                return None
            return self._info(r) if self._proven_version_row(r) else None

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
        forged = self._forged_current  # `current` rows without their MAC (all others are dropped at open)
        return [self._chunk(r) for r in rows if r[_R_VID] not in forged and self._proven(r)]

    @guarded("read")
    def current_version_ids(self) -> set[int]:
        with self._lock:
            rows = self._conn.execute(f"SELECT c.source, c.version_id, {self._mac_cols[0]} FROM current c")
            return {r[1] for r in rows if self._current_proven(r[0], r[1], r[2])}

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


def store_size(root: Path) -> int:
    p = root / STORE_DIR / STORE_FILE
    return p.stat().st_size if p.exists() else 0


__all__ = ["SCHEMA_VERSION", "Store", "store_size"]
