"""Provenance of the SQLite index's rows (see cairn.provenance): the MACs each
version and chunk row is stored with, and their checks, remembered per row.

A `.cairn/index.db` travels with a workspace and may come from anyone: a row
whose MAC does not check under this machine's key is never read as the current
text of a source.

A row changed behind Cairn's back (`sqlite3 index.db "UPDATE chunks ..."`) no longer
checks either, but finding that out means reading and hashing every chunk of the
current versions (about a second a 100 MB), too much for each run. Cairn itself never
updates a chunk or version row, and deletes chunk rows only with their version (and
the note of it); so triggers note in `outside_edits` the version of every row changed
otherwise, and a noted version is not trusted (not current, not reused): indexing
reads its source again from the file and replaces its rows. When the triggers are
missing or not Cairn's own (an index made before them, or one whose triggers were
dropped), the chunks of the current versions are all proven once, and the triggers
made again."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.model import Chunk
from . import provenance
from .base import UNVERIFIED_PROVENANCE
from .sqlite_faults import _rollback, unavailable_reason

# The columns of a chunk row as the queries below select them: a Chunk's, then
# what the provenance check needs (Store._proven).
_CHUNK_COLS = (
    "ch.chunk_id, v.source, v.version, ch.start, ch.end, ch.page, ch.text, v.id, v.indexed_at, ch.rowid, ch.mac"
)
_R_ID, _R_SOURCE, _R_VERSION, _R_START, _R_END, _R_PAGE, _R_TEXT, _R_VID, _R_AT, _R_ROWID, _R_MAC = range(11)
_VERSION_COLS = "v.id, v.source, v.version, v.lineage, v.chunk_chars, v.pages, v.text_sha, v.mac"

log = logging.getLogger("cairn.store")

EDITS_DDL = "CREATE TABLE IF NOT EXISTS outside_edits (version_id INTEGER PRIMARY KEY)"
# name -> the statement, as sqlite_master keeps it (a trigger of that name with other text is not Cairn's)
TRIGGERS = {
    "cairn_chunk_updated": "CREATE TRIGGER cairn_chunk_updated AFTER UPDATE ON chunks BEGIN"
                           " INSERT OR IGNORE INTO outside_edits VALUES (old.version_id);"
                           " INSERT OR IGNORE INTO outside_edits VALUES (new.version_id); END",
    # Cairn deletes chunk rows only with their version (Store._drop_version), which then
    # forgets the version's note in the same transaction
    "cairn_chunk_deleted": "CREATE TRIGGER cairn_chunk_deleted AFTER DELETE ON chunks BEGIN"
                           " INSERT OR IGNORE INTO outside_edits VALUES (old.version_id); END",
    "cairn_version_updated": "CREATE TRIGGER cairn_version_updated AFTER UPDATE ON versions BEGIN"
                             " INSERT OR IGNORE INTO outside_edits VALUES (old.id);"
                             " INSERT OR IGNORE INTO outside_edits VALUES (new.id); END",
}


class Proofs:
    """The provenance half of the SQLite Store (a mixin: it reads the store's
    connection, key and proof caches)."""

    _conn: sqlite3.Connection
    _key: bytes
    _proven_versions: set[int]
    _proven_chunks: dict[int, bytes]
    _unproven: set[tuple[str, str, str, int]]
    # versions whose rows were changed outside Cairn (outside_edits): never proven
    _edited: set[int]
    _told_edited: set[int]
    _unnoted_edits: set[int]  # found when the table could not be written (a lock): kept in memory
    _mac_cols: tuple[str, str] = ("c.mac", "d.mac")  # current's and version_dates' MAC columns, in queries
    _forged_current: set[int]  # versions a `current` row names without its MAC (kept when it cannot be dropped)
    PROVEN_CACHE: int

    def _version_mac(self, vid: int, source: str, version: str, lineage: str, chunk_chars: int,
                     pages: str | None, text_sha: bytes) -> bytes:
        head = f"version\0{vid}\0{source}\0{version}\0{lineage}\0{chunk_chars}\0{pages}\0"
        return provenance.mac(self._key, head.encode("utf-8", "surrogatepass") + text_sha)

    def _chunk_mac(self, vid: int, chunk_id: str, start: int, end: int, page: int | None, text: str) -> bytes:
        msg = f"chunk\0{vid}\0{chunk_id}\0{start}\0{end}\0{page}\0{text}"
        return provenance.mac(self._key, msg.encode("utf-8", "surrogatepass"))

    def _current_mac(self, source: str, vid: int) -> bytes:
        """The MAC of a `current` row: which version of a source is current decides verdicts."""
        return provenance.mac(self._key, f"current\0{source}\0{vid}".encode("utf-8", "surrogatepass"))

    def _date_mac(self, vid: int, date: str) -> bytes:
        return provenance.mac(self._key, f"date\0{vid}\0{date}".encode("utf-8", "surrogatepass"))

    def _current_proven(self, source: str, vid: int, mac: bytes | None) -> bool:
        return vid not in self._forged_current and provenance.same(mac, self._current_mac(source, vid))

    def _sweep_current(self, conn: sqlite3.Connection, *, read_only: bool = False) -> None:
        """Drop the `current` rows whose MAC does not check (a committed index pointing a
        source at a version of its choosing): their sources are indexed again from the
        files. A read-only index keeps them, and they are never read as current here."""
        has_mac = "mac" in {r[1] for r in conn.execute("PRAGMA table_info(current)")}
        # a read-only index of schema 4 has no MAC columns: nothing in them is trusted
        self._mac_cols = ("c.mac", "d.mac") if has_mac else ("NULL", "NULL")
        rows = conn.execute(f"SELECT source, version_id, {'mac' if has_mac else 'NULL'} FROM current").fetchall()
        bad = [(s, vid) for s, vid, m in rows if not provenance.same(m, self._current_mac(s, vid))]
        if not bad:
            return
        log.warning("the index %s names current versions Cairn did not record on this machine (%d): they are"
                    " not trusted, and their sources are read again from the files", getattr(self, "path", "?"),
                    len(bad))
        if not read_only:
            try:
                conn.execute("BEGIN IMMEDIATE")
                conn.executemany("DELETE FROM current WHERE source = ? AND version_id = ?", bad)
                conn.execute("COMMIT")
                return
            except sqlite3.OperationalError as exc:
                _rollback(conn)
                if unavailable_reason(exc) is None:
                    raise
        self._forged_current |= {vid for _, vid in bad}

    def _version_proven(self, vid: int, source: str, version: str, lineage: str, chunk_chars: int,
                        pages: str | None, text_sha: bytes | None, vmac: bytes | None) -> bool:
        if vid in self._edited:
            return False
        if vid in self._proven_versions:
            return True
        if text_sha is None or vmac is None:
            return False
        ok = provenance.same(vmac, self._version_mac(vid, source, version, lineage, chunk_chars, pages, text_sha))
        if ok:
            self._proven_versions.add(vid)
        return ok

    def _proven(self, r: Sequence[Any]) -> bool:
        """Did Cairn store this chunk row (a _CHUNK_COLS row) on this machine, as it is?"""
        known = self._proven_chunks.get(r[_R_ROWID])
        if known is not None and known == r[_R_MAC]:
            return True
        vid = r[_R_VID]
        if vid not in self._proven_versions:
            row = self._conn.execute(f"SELECT {_VERSION_COLS} FROM versions v WHERE v.id = ?", (vid,)).fetchone()
            if row is None or not self._proven_version_row(row):
                return False
        mac = self._chunk_mac(vid, r[_R_ID], r[_R_START], r[_R_END], r[_R_PAGE], r[_R_TEXT])
        if not provenance.same(r[_R_MAC], mac):
            return False
        if len(self._proven_chunks) >= self.PROVEN_CACHE:
            self._proven_chunks.clear()
        self._proven_chunks[r[_R_ROWID]] = r[_R_MAC]
        return True

    def _proven_version_row(self, r: Sequence[Any]) -> bool:
        """The same for a _VERSION_COLS row."""
        return self._version_proven(*r[:8])

    def _chunks_proven(self, conn: sqlite3.Connection, vid: int) -> bool:
        """Does every chunk row of this version check (its version row proven already)?"""
        rows = conn.execute("SELECT chunk_id, start, end, page, text, mac FROM chunks WHERE version_id = ?", (vid,))
        return all(provenance.same(r[5], self._chunk_mac(vid, r[0], r[1], r[2], r[3], r[4])) for r in rows)

    def _guard_edits(self, conn: sqlite3.Connection) -> None:
        """Make sure the triggers that note rows changed outside Cairn are there, as Cairn
        made them; when they are not, prove every chunk of the current versions once (the
        rows may have been changed while nothing noted it) and note the versions that fail."""
        have = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'trigger')"
                                 " AND (name = 'outside_edits' OR name LIKE 'cairn%')").fetchall())
        if "outside_edits" in have and all(have.get(name) == sql for name, sql in TRIGGERS.items()):
            return
        if "outside_edits" in have or conn.execute("SELECT 1 FROM current LIMIT 1").fetchone() is not None:
            log.info("the index %s has no record of rows changed outside Cairn: proving its current chunks",
                     getattr(self, "path", "?"))
        edited = []
        for r in conn.execute(f"SELECT {_VERSION_COLS} FROM current c JOIN versions v ON v.id = c.version_id"
                              ).fetchall():
            if self._proven_version_row(r) and not self._chunks_proven(conn, r[0]):
                edited.append(r[0])
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(EDITS_DDL)
            for name, sql in TRIGGERS.items():
                conn.execute(f"DROP TRIGGER IF EXISTS {name}")
                conn.execute(sql)
            conn.executemany("INSERT OR IGNORE INTO outside_edits VALUES (?)", [(vid,) for vid in edited])
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            _rollback(conn)
            if unavailable_reason(exc) is None:
                raise
            # locked or full: made on a later run; meanwhile what failed is not trusted here
            self._unnoted_edits |= set(edited)
        except BaseException:
            _rollback(conn)
            raise
        self._forget_proofs()

    def _note_edits(self, conn: sqlite3.Connection, *, tell: bool = True) -> None:
        """Read which versions were changed outside Cairn (a small table, empty as a rule);
        say so once for those that are current."""
        try:
            noted = {r[0] for r in conn.execute("SELECT version_id FROM outside_edits")}
        except sqlite3.OperationalError:  # a read-only index made before the table: nothing noted
            noted = set()
        noted |= self._unnoted_edits
        if noted == self._edited:
            return
        self._edited = noted
        self._forget_proofs()
        new = noted - self._told_edited
        if not new or not tell:
            return
        self._told_edited |= new
        sources = sorted({r[0] for r in self._sources_of(conn, new)})
        if sources:
            log.warning(
                "the index %s holds rows changed outside Cairn, of %s: they are not trusted, and %s read again"
                " from %s", getattr(self, "path", "?"), ", ".join(sources), "it is" if len(sources) == 1 else "they are",
                "its file" if len(sources) == 1 else "their files")

    @staticmethod
    def _sources_of(conn: sqlite3.Connection, vids: Iterable[int]) -> list[tuple[str]]:
        """The sources whose current version is one of these."""
        out: list[tuple[str]] = []
        ids = list(vids)
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            out += conn.execute(f"SELECT source FROM current WHERE version_id IN ({','.join('?' * len(part))})",
                                part).fetchall()
        return out

    def _forget_proofs(self) -> None:
        """Row ids may be used again (gc, a new index): proofs are made again."""
        self._proven_versions.clear()
        self._proven_chunks.clear()

    def provenance_note(self, chunk: Chunk) -> str:
        """"" for a chunk read from a row Cairn stored on this machine; else a sentence
        for the diagnostic that names its version."""
        if (chunk.source, chunk.version, chunk.chunk_id, chunk.start) in self._unproven:
            return UNVERIFIED_PROVENANCE.format(version=chunk.version[:8])
        return ""
