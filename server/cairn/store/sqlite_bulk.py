"""How the SQLite store writes large batches of chunks quickly (indexing a
corpus) without changing what it stores: the size of the segments its
full-text index writes, and the page cache and checkpoints of a bulk batch.
Measured in docs/team.md ("Measured")."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

from .sqlite_faults import immediate, unavailable_reason

# FTS5 keeps the words of the rows being written in a table in memory and writes it
# out as a new segment when it grows past this many bytes (1 MB unless set) or at a
# commit; segments are merged as they pile up. Larger segments need fewer merges:
# with batches of 16 M characters (Store.BATCH_CHARS) the full-text index cost about
# 40 % less. The setting is kept in the index's own chunks_fts_config table; it
# changes how the index is written, never what it holds (no schema change).
FTS_HASH_BYTES = 64 * 1024 * 1024

# A batch whose texts reach this many characters is written with a larger page
# cache and fewer checkpoints (about a tenth less CPU on 50 MB). (Counted in
# compressed bytes before schema 4, 1 MB: about 2.4 M characters of prose.) Neither setting
# changes what a commit makes durable: a checkpoint only copies committed pages from
# the write-ahead log into the file, and SQLite reads a page from the log when it is
# newer there.
BULK_CHARS = 2_500_000
BULK_CACHE_KB = 65_536
BULK_CHECKPOINT_PAGES = 16_384  # about 64 MB of log between checkpoints (SQLite's default: 1,000)


def tune_search(conn: sqlite3.Connection) -> None:
    """Set FTS_HASH_BYTES on an index made without it (or with another value)."""
    row = conn.execute("SELECT v FROM chunks_fts_config WHERE k = 'hashsize'").fetchone()
    if row is not None and row[0] == FTS_HASH_BYTES:
        return
    try:
        with immediate(conn):
            conn.execute("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('hashsize', ?)", (FTS_HASH_BYTES,))
    except sqlite3.OperationalError as exc:
        if unavailable_reason(exc) is None:
            raise
        # read-only or full: written the slower way until it can be set


@contextlib.contextmanager
def bulk_batch(conn: sqlite3.Connection, nchars: int) -> Iterator[None]:
    """The bulk settings around writing a batch of texts of `nchars` characters, when large."""
    if nchars < BULK_CHARS:
        yield
        return
    conn.execute(f"PRAGMA cache_size = -{BULK_CACHE_KB}")
    conn.execute(f"PRAGMA wal_autocheckpoint = {BULK_CHECKPOINT_PAGES}")
    try:
        yield
    finally:
        conn.execute("PRAGMA cache_size = -2000")  # SQLite's default: the pages above are freed
        conn.execute("PRAGMA wal_autocheckpoint = 1000")
