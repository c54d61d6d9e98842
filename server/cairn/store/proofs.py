"""Provenance of the SQLite index's rows (see cairn.provenance): the MACs each
version and chunk row is stored with, and their checks, remembered per row.

A `.cairn/index.db` travels with a workspace and may come from anyone: a row
whose MAC does not check under this machine's key is never read as the current
text of a source."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from .. import provenance
from ..model import Chunk
from .base import UNVERIFIED_PROVENANCE

# The columns of a chunk row as the queries below select them: a Chunk's, then
# what the provenance check needs (Store._proven).
_CHUNK_COLS = (
    "ch.chunk_id, v.source, v.version, ch.start, ch.end, ch.page, ch.text, v.id, v.indexed_at, ch.rowid, ch.mac"
)
_R_ID, _R_SOURCE, _R_VERSION, _R_START, _R_END, _R_PAGE, _R_TEXT, _R_VID, _R_AT, _R_ROWID, _R_MAC = range(11)
_VERSION_COLS = "v.id, v.source, v.version, v.lineage, v.chunk_chars, v.pages, v.text_sha, v.mac"


class Proofs:
    """The provenance half of the SQLite Store (a mixin: it reads the store's
    connection, key and proof caches)."""

    _conn: sqlite3.Connection
    _key: bytes
    _proven_versions: set[int]
    _proven_chunks: dict[int, bytes]
    _unproven: set[tuple[str, str, str, int]]
    PROVEN_CACHE: int

    def _version_mac(self, vid: int, source: str, version: str, lineage: str, chunk_chars: int,
                     pages: str | None, text_sha: bytes) -> bytes:
        head = f"version\0{vid}\0{source}\0{version}\0{lineage}\0{chunk_chars}\0{pages}\0"
        return provenance.mac(self._key, head.encode("utf-8", "surrogatepass") + text_sha)

    def _chunk_mac(self, vid: int, chunk_id: str, start: int, end: int, page: int | None, text: str) -> bytes:
        msg = f"chunk\0{vid}\0{chunk_id}\0{start}\0{end}\0{page}\0{text}"
        return provenance.mac(self._key, msg.encode("utf-8", "surrogatepass"))

    def _version_proven(self, vid: int, source: str, version: str, lineage: str, chunk_chars: int,
                        pages: str | None, text_sha: bytes | None, vmac: bytes | None) -> bool:
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
