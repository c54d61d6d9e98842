"""The chunk store: SQLite at `.cairn/index.db`.

Every indexed version of every source is kept (until `cairn gc`), so an old
chunk id still resolves to the text it named; `current` says which version of
each source is on disk now. A damaged database is moved aside and rebuilt.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import threading
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .chunking import RawChunk
from .model import Chunk

log = logging.getLogger(__name__)

SCHEMA_VERSION = "2"  # 2: versions.text last (reading indexed_at no longer walks the text)
STORE_DIR = ".cairn"
STORE_FILE = "index.db"

_VERSIONS_DDL = """
CREATE TABLE IF NOT EXISTS versions (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  version TEXT NOT NULL,
  lineage TEXT NOT NULL,
  chunk_chars INTEGER NOT NULL,
  pages TEXT,
  indexed_at REAL NOT NULL,
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
  text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_by_id ON chunks (chunk_id);
CREATE INDEX IF NOT EXISTS chunks_by_version ON chunks (version_id);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5 (
  text, content='chunks', content_rowid='rowid', tokenize='unicode61 remove_diacritics 0'
);
CREATE TABLE IF NOT EXISTS source_errors (source TEXT PRIMARY KEY, version TEXT, message TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS source_warnings (source TEXT NOT NULL, version TEXT NOT NULL, message TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS git_seen (blob TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS kv_cache (key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL);
"""

_WORD = re.compile(r"[^\W_]+")


class StoreError(Exception):
    pass


@dataclass(slots=True)
class VersionInfo:
    id: int
    source: str
    version: str
    lineage: str
    chunk_chars: int
    pages: list[int] | None


@dataclass(slots=True)
class NewVersion:
    """A parsed version of a source, to be stored (Store.add_versions)."""

    source: str
    version: str
    lineage: str
    chunk_chars: int
    text: str
    pages: list[int] | None
    chunks: list[RawChunk]
    make_current: bool


class Store:
    """One workspace's chunk store. Thread-safe: one connection, one lock."""

    def __init__(self, root: Path, *, path: Path | None = None):
        self.root = root
        self.path = path or root / STORE_DIR / STORE_FILE
        self._lock = threading.RLock()
        self.rebuilt_reason: str | None = None
        self._conn = self._open()

    # -- opening, damage and rebuilding ---------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        # The index's folder and files are Cairn's own and never symbolic links: a workspace
        # that brings links there could make Cairn write into files outside it. A link is
        # removed (never what it points to) and the store starts afresh.
        folder = self.path.parent
        _unlink_if_link(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise StoreError(f"{folder} is not a folder; Cairn keeps its index there: move it away") from None
        for suffix in ("", "-wal", "-shm", "-journal"):
            p = Path(str(self.path) + suffix)
            _unlink_if_link(p)
            if p.exists() and not p.is_file():
                raise StoreError(f"{p} is not a file; Cairn keeps its index there: move it away")
        ignore = folder / ".gitignore"
        if folder.name == STORE_DIR:
            _unlink_if_link(ignore)
            try:
                fd = os.open(ignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write("*\n")
            except OSError:  # it exists, or a read-only workspace: the store still works
                pass
        uri = self.path.absolute().as_uri() + "?nofollow=1"  # SQLite refuses a link swapped in meanwhile
        conn = sqlite3.connect(uri, uri=True, timeout=30.0, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA busy_timeout = 30000")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def _open(self) -> sqlite3.Connection:
        try:
            conn = self._connect()
            self._check(conn)
            return conn
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError(f"the index {self.path} is locked by another process: {exc}") from exc
            return self._rebuild(f"{exc}")
        except (sqlite3.DatabaseError, StoreError) as exc:
            return self._rebuild(f"{exc}")

    def _check(self, conn: sqlite3.Connection) -> None:
        conn.executescript(_SCHEMA)
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        elif row[0] == "1":
            self._migrate_from_1(conn)
        elif row[0] != SCHEMA_VERSION:
            raise StoreError(f"index schema {row[0]} is not {SCHEMA_VERSION}")
        ok = conn.execute("PRAGMA quick_check(1)").fetchone()
        if not ok or ok[0] != "ok":
            raise StoreError(f"index failed its integrity check: {ok[0] if ok else '?'}")

    @staticmethod
    def _migrate_from_1(conn: sqlite3.Connection) -> None:
        """Schema 1 -> 2: the versions table with its text column last. Migrated,
        not rebuilt: superseded versions may exist nowhere else (no git history)."""
        log.info("migrating the index to schema 2")
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] != "1":
                conn.execute("ROLLBACK")  # another process migrated it meanwhile
                return
            conn.execute(_VERSIONS_DDL.replace("EXISTS versions (", "EXISTS versions_2 (", 1))
            conn.execute(
                "INSERT INTO versions_2 (id, source, version, lineage, chunk_chars, pages, indexed_at, text)"
                " SELECT id, source, version, lineage, chunk_chars, pages, indexed_at, text FROM versions"
            )
            conn.execute("DROP TABLE versions")
            conn.execute("ALTER TABLE versions_2 RENAME TO versions")
            conn.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _rebuild(self, reason: str) -> sqlite3.Connection:
        log.warning("index %s is damaged (%s); rebuilding it", self.path, reason)
        self.rebuilt_reason = reason
        for suffix in ("", "-wal", "-shm", "-journal"):
            p = Path(str(self.path) + suffix)
            try:
                if p.exists():
                    p.unlink()
            except OSError:
                pass
        conn = self._connect()
        self._check(conn)
        return conn

    def recover(self, exc: Exception) -> None:
        """Rebuild after a damage found mid-run (the caller re-indexes)."""
        with self._lock:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
            self._conn = self._rebuild(str(exc))

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- writing ------------------------------------------------------------------

    def find_version(self, source: str, version: str, lineage: str, chunk_chars: int) -> int | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT id FROM versions WHERE source=? AND version=? AND lineage=? AND chunk_chars=?",
                (source, version, lineage, chunk_chars),
            ).fetchone()
        return row[0] if row else None

    def add_version(
        self,
        source: str,
        version: str,
        lineage: str,
        chunk_chars: int,
        text: str,
        pages: list[int] | None,
        chunks: Iterable[RawChunk],
        *,
        make_current: bool,
    ) -> int:
        """Store one parsed version and its chunks in one transaction."""
        return self.add_versions(
            [NewVersion(source, version, lineage, chunk_chars, text, pages, list(chunks), make_current)]
        )[0]

    def add_versions(self, versions: list[NewVersion]) -> list[int]:
        """Store parsed versions and their chunks, all in one transaction
        (indexing a corpus: one commit per file would cost a quarter of the time)."""
        blobs = [zlib.compress(v.text.encode("utf-8", "surrogatepass"), 1) for v in versions]
        with self._lock:
            c = self._conn
            c.execute("BEGIN IMMEDIATE")
            try:
                ids = [self._insert_version(c, v, blob) for v, blob in zip(versions, blobs)]
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
        return ids

    @staticmethod
    def _insert_version(c: sqlite3.Connection, v: NewVersion, blob: bytes) -> int:
        row = c.execute(
            "SELECT id FROM versions WHERE source=? AND version=? AND lineage=? AND chunk_chars=?",
            (v.source, v.version, v.lineage, v.chunk_chars),
        ).fetchone()
        if row:
            vid = row[0]
        else:
            cur = c.execute(
                "INSERT INTO versions (source, version, lineage, chunk_chars, pages, text, indexed_at)"
                " VALUES (?,?,?,?,?,?,?)",
                (v.source, v.version, v.lineage, v.chunk_chars, json.dumps(v.pages) if v.pages else None, blob,
                 time.time()),
            )
            vid = cur.lastrowid
            rows = [(vid, ch.chunk_id, ch.start, ch.end, ch.page, ch.text) for ch in v.chunks]
            first = c.execute("SELECT coalesce(max(rowid), 0) FROM chunks").fetchone()[0]
            c.executemany("INSERT INTO chunks (version_id, chunk_id, start, end, page, text) VALUES (?,?,?,?,?,?)", rows)
            c.execute("INSERT INTO chunks_fts (rowid, text) SELECT rowid, text FROM chunks WHERE rowid > ?", (first,))
        if v.make_current:
            c.execute("INSERT OR REPLACE INTO current (source, version_id) VALUES (?, ?)", (v.source, vid))
            c.execute("DELETE FROM source_errors WHERE source = ?", (v.source,))
        return vid

    def set_current(self, source: str, version_id: int) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO current (source, version_id) VALUES (?, ?)", (source, version_id))
            self._conn.execute("DELETE FROM source_errors WHERE source = ?", (source,))

    def drop_current(self, source: str) -> None:
        """The source is gone from disk (or from the roots): its versions stay, superseded."""
        with self._lock:
            self._conn.execute("DELETE FROM current WHERE source = ?", (source,))
            self._conn.execute("DELETE FROM source_errors WHERE source = ?", (source,))

    def record_error(self, source: str, version: str | None, message: str) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO source_errors VALUES (?, ?, ?)", (source, version, message))

    def record_warnings(self, source: str, version: str, messages: list[str]) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM source_warnings WHERE source = ? AND version = ?", (source, version))
            self._conn.executemany(
                "INSERT INTO source_warnings VALUES (?, ?, ?)", [(source, version, m) for m in messages]
            )

    def warnings_for(self, source: str, version: str) -> list[str]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT message FROM source_warnings WHERE source = ? AND version = ?", (source, version)
            ).fetchall()
        return [r[0] for r in rows]

    def source_errors(self) -> dict[str, str]:
        with self._lock:
            return dict(self._conn.execute("SELECT source, message FROM source_errors").fetchall())

    # -- reading ------------------------------------------------------------------

    def current_versions(self) -> dict[str, VersionInfo]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT v.id, v.source, v.version, v.lineage, v.chunk_chars, v.pages"
                " FROM current c JOIN versions v ON v.id = c.version_id"
            ).fetchall()
        return {r[1]: VersionInfo(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]) if r[5] else None) for r in rows}

    def current_version(self, source: str) -> VersionInfo | None:
        with self._lock:
            r = self._conn.execute(
                "SELECT v.id, v.source, v.version, v.lineage, v.chunk_chars, v.pages"
                " FROM current c JOIN versions v ON v.id = c.version_id WHERE c.source = ?",
                (source,),
            ).fetchone()
        return VersionInfo(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]) if r[5] else None) if r else None

    def version_text(self, version_id: int) -> str:
        with self._lock:
            row = self._conn.execute("SELECT text FROM versions WHERE id = ?", (version_id,)).fetchone()
        if row is None:
            raise KeyError(version_id)
        return zlib.decompress(row[0]).decode("utf-8", "surrogatepass")

    # rows of current versions only: joined by `current`'s key (a join on version_id alone scans it)
    _JOIN_CURRENT = " JOIN current c2 ON c2.source = v.source AND c2.version_id = v.id"
    _CHUNK_SQL = (
        "SELECT ch.chunk_id, v.source, v.version, ch.start, ch.end, ch.page, ch.text,"
        " (SELECT 1 FROM current c WHERE c.source = v.source AND c.version_id = v.id) IS NOT NULL AS cur,"
        " v.id"
        " FROM chunks ch JOIN versions v ON v.id = ch.version_id"
    )
    _PLAIN_SQL = (
        "SELECT ch.chunk_id, v.source, v.version, ch.start, ch.end, ch.page, ch.text, v.id, v.indexed_at"
        " FROM chunks ch JOIN versions v ON v.id = ch.version_id"
    )

    @staticmethod
    def _chunk(row) -> Chunk:
        return Chunk(row[0], row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]))

    def lookup(self, chunk_id: str) -> list[Chunk]:
        """Every stored occurrence of a chunk id, current ones first, newest first."""
        return self.lookup_many([chunk_id]).get(chunk_id, [])

    def current_version_ids(self) -> set[int]:
        with self._lock:
            return {r[0] for r in self._conn.execute("SELECT version_id FROM current")}

    def lookup_many(self, chunk_ids: Iterable[str], current: set[int] | None = None) -> dict[str, list[Chunk]]:
        """lookup() for many ids in few queries; `current`: current_version_ids(), if known."""
        ids = list(dict.fromkeys(chunk_ids))
        found: dict[str, list[tuple]] = {}
        if current is None:
            current = self.current_version_ids()
        with self._lock:
            for i in range(0, len(ids), 500):
                part = ids[i:i + 500]
                marks = ",".join("?" * len(part))
                for r in self._conn.execute(self._PLAIN_SQL + f" WHERE ch.chunk_id IN ({marks})", part):
                    found.setdefault(r[0], []).append(r)
        out: dict[str, list[Chunk]] = {}
        for cid, rows in found.items():
            rows.sort(key=lambda r: (r[7] not in current, -r[8], -r[7]))
            out[cid] = [Chunk(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7] in current) for r in rows]
        return out

    def current_chunks(self, sources: Iterable[str] | None = None) -> list[Chunk]:
        with self._lock:
            if sources is None:
                rows = self._conn.execute(
                    self._CHUNK_SQL + " JOIN current c2 ON c2.version_id = v.id ORDER BY v.source, ch.start"
                ).fetchall()
            else:
                rows = []
                for s in sources:
                    rows += self._conn.execute(
                        self._CHUNK_SQL + self._JOIN_CURRENT + " WHERE v.source = ? ORDER BY ch.start",
                        (s,),
                    ).fetchall()
        return [self._chunk(r) for r in rows]

    def current_chunk_count(self) -> int:
        with self._lock:
            return self._conn.execute(
                "SELECT count(*) FROM chunks ch JOIN current c ON c.version_id = ch.version_id"
            ).fetchone()[0]

    # words in fewer chunks than this narrow a quote search; more are "common"
    RARE_TERM = 1024
    # words in fewer chunks than this are rare enough to stop counting more
    VERY_RARE_TERM = 256
    # at most this many words a search: uncached counts, then the words searched
    # (tuned on bench/engine_bench.py's corpus: 420 -> 340 µs a quote)
    TERM_PROBES = 8
    SEARCH_TERMS = 2

    # the columns _chunk() reads, for rows known to be current
    _CURRENT_COLS = "SELECT ch.chunk_id, v.source, v.version, ch.start, ch.end, ch.page, ch.text, 1, v.id"
    _FTS_ROWS_SQL = (
        _CURRENT_COLS + " FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?) f"
        " JOIN chunks ch ON ch.rowid = f.rowid JOIN versions v ON v.id = ch.version_id"
        + _JOIN_CURRENT
        + " WHERE instr(ch.text, ?) > 0 ORDER BY v.source, ch.start"
    )

    def _term_count(self, term: str, terms: dict[str, int]) -> int:
        """In how many chunks (any version) `term` is, counted up to RARE_TERM."""
        n = terms.get(term)
        if n is None:
            try:
                n = self._conn.execute(
                    "SELECT count(*) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)",
                    ('"' + term + '"', self.RARE_TERM),
                ).fetchone()[0]
            except sqlite3.OperationalError:
                n = self.RARE_TERM  # a term the search cannot take is never a filter
            terms[term] = n
        return n

    def _search_query(self, words: list[str], terms: dict[str, int]) -> str | None:
        """The full-text query for a quote holding these whole words: its rarest
        words, all required; None when every word is common.

        A chunk holding the quote holds each of its whole words, so the chunks
        holding its rarest words are a superset of the answer, and a small one.
        Words are counted longest first (long words tend to be rarer); `terms`
        keeps the counts, so a common word is counted once per store state.
        """
        counted: list[tuple[int, str]] = []
        probes = 0
        for w in sorted(dict.fromkeys(w.lower() for w in words), key=len, reverse=True):
            if w not in terms:
                if probes >= self.TERM_PROBES:
                    continue
                probes += 1
            n = self._term_count(w, terms)
            if n < self.RARE_TERM:
                counted.append((n, w))
                if n == 0 or sum(1 for c, _ in counted if c < self.VERY_RARE_TERM) >= self.SEARCH_TERMS:
                    break
        if not counted:
            return None
        counted.sort()
        return " AND ".join('"' + w + '"' for _, w in counted[: self.SEARCH_TERMS])

    def find_quote(
        self, quote: str, *, sources: Iterable[str] | None = None, limit: int = 50, terms: dict[str, int] | None = None
    ) -> list[tuple[Chunk, int]]:
        """Where `quote` occurs verbatim in the current sources: (chunk, offset in chunk).

        Full-text search finds candidate chunks (those holding the quote's
        rarest whole words, else its longest three-word phrase); an
        exact substring test decides. When the quote has no whole word, or is
        not plain ASCII (where the search's tokens may differ from ours) and
        the search finds nothing, a plain scan of the current chunks decides.
        `terms`: a cache of word answers kept by the caller while the store
        does not change (see Verifier).
        """
        if not quote:
            return []
        only = set(sources) if sources is not None else None
        words = _WORD.findall(quote)
        # the first and last words may be cut by the quote's ends
        if words and quote[:1].isalnum():
            words = words[1:]
        if words and quote[-1:].isalnum():
            words = words[:-1]
        found: list[tuple[Chunk, int]] = []
        with self._lock:
            rows: list[tuple] | None = None
            if words:
                query = self._search_query(words, {} if terms is None else terms)
                if query is None:
                    # every word is common: a phrase of three adjacent whole words, the longest such run
                    k = min(3, len(words))
                    best = max(range(len(words) - k + 1), key=lambda i: sum(len(w) for w in words[i:i + k]))
                    query = '"' + " ".join(words[best:best + k]) + '"'
                try:
                    rows = self._conn.execute(self._FTS_ROWS_SQL, (query, quote)).fetchall()
                except sqlite3.OperationalError:
                    rows = None
            hits = [r for r in rows or () if quote in r[6]]
            # the search is exact for plain ASCII words; anything else is checked by a scan
            if not hits and (rows is None or not quote.isascii()):
                hits = self._conn.execute(
                    self._CURRENT_COLS + " FROM current c2 JOIN versions v ON v.id = c2.version_id"
                    " JOIN chunks ch ON ch.version_id = v.id"
                    " WHERE instr(ch.text, ?) > 0 ORDER BY v.source, ch.start",
                    (quote,),
                ).fetchall()
        for r in hits:
            ch = self._chunk(r)
            if only is not None and ch.source not in only:
                continue
            pos = ch.text.find(quote)
            while pos >= 0 and len(found) < limit:
                found.append((ch, pos))
                pos = ch.text.find(quote, pos + 1)
        return found

    def search_words(self, words: list[str], limit: int = 20) -> list[Chunk]:
        """Current chunks holding all these words (prefix match on the last)."""
        clean = [w for w in (_WORD.findall(" ".join(words))) if w]
        if not clean:
            return []
        q = " ".join(f'"{w}"' for w in clean[:-1]) + f' "{clean[-1]}"*'
        with self._lock:
            try:
                rows = self._conn.execute(
                    self._CHUNK_SQL + self._JOIN_CURRENT
                    + " WHERE ch.rowid IN (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)",
                    (q.strip(), limit * 4),
                ).fetchall()
            except sqlite3.OperationalError:
                return []
        return [self._chunk(r) for r in rows][:limit]

    def chunk_ids_with_prefix(self, prefix: str, limit: int = 50) -> list[Chunk]:
        with self._lock:
            rows = self._conn.execute(
                self._CHUNK_SQL + self._JOIN_CURRENT + " WHERE ch.chunk_id LIKE ? LIMIT ?",
                (prefix.lower() + "%", limit),
            ).fetchall()
        return [self._chunk(r) for r in rows]

    def versions_of(self, chunk_id: str) -> list[str]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT DISTINCT v.version FROM chunks ch JOIN versions v ON v.id = ch.version_id WHERE ch.chunk_id = ?",
                (chunk_id,),
            ).fetchall()
        return [r[0] for r in rows]

    # -- small key-value cache (judge verdicts) -------------------------------------

    def cache_get(self, key: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT value FROM kv_cache WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def cache_put(self, key: str, value: str) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO kv_cache VALUES (?, ?, ?)", (key, value, time.time()))

    def cache_prune(self, prefix: str, max_age: float) -> None:
        with self._lock:
            self._conn.execute(
                "DELETE FROM kv_cache WHERE key >= ? AND key < ? AND created < ?",
                (prefix, prefix + "\uffff", time.time() - max_age),
            )

    def state_token(self) -> str:
        """Changes whenever a version is stored or dropped or `current` moves."""
        with self._lock:
            c = self._conn
            n, top = c.execute("SELECT count(*), coalesce(max(id), 0) FROM versions").fetchone()
            cur = c.execute("SELECT group_concat(source || ':' || version_id, '|') FROM "
                            "(SELECT source, version_id FROM current ORDER BY source)").fetchone()[0]
        return f"{n}:{top}:{cur or ''}"

    # -- git history bookkeeping ---------------------------------------------------

    def git_seen(self, blob: str) -> bool:
        with self._lock:
            return self._conn.execute("SELECT 1 FROM git_seen WHERE blob = ?", (blob,)).fetchone() is not None

    def mark_git_seen(self, blob: str) -> None:
        with self._lock:
            self._conn.execute("INSERT OR IGNORE INTO git_seen VALUES (?)", (blob,))

    # -- gc -------------------------------------------------------------------------

    def gc(self, cited: set[tuple[str, str | None]]) -> int:
        """Drop the superseded versions no citation resolves to.

        `cited` holds (chunk_id, version prefix or None). A citation keeps the
        version its `version` names; without one, the version a lookup picks
        (a current one, else the newest holding the chunk)."""
        with self._lock:
            c = self._conn
            keep: set[int] = {r[0] for r in c.execute("SELECT version_id FROM current")}
            for chunk_id, prefix in cited:
                rows = c.execute(
                    "SELECT v.id, v.version FROM chunks ch JOIN versions v ON v.id = ch.version_id"
                    " WHERE ch.chunk_id = ? ORDER BY v.indexed_at DESC, v.id DESC",
                    (chunk_id,),
                ).fetchall()
                if not rows:
                    continue
                named = [vid for vid, ver in rows if prefix and ver.startswith(prefix)]
                if named:
                    keep.update(named)
                elif not any(vid in keep for vid, _ in rows):
                    keep.add(rows[0][0])
            drop = [r[0] for r in c.execute("SELECT id FROM versions").fetchall() if r[0] not in keep]
            c.execute("BEGIN IMMEDIATE")
            try:
                for vid in drop:
                    for rowid, text in c.execute("SELECT rowid, text FROM chunks WHERE version_id = ?", (vid,)).fetchall():
                        c.execute("INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', ?, ?)", (rowid, text))
                    c.execute("DELETE FROM chunks WHERE version_id = ?", (vid,))
                    c.execute("DELETE FROM versions WHERE id = ?", (vid,))
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
            c.execute("DELETE FROM git_seen")
        try:
            with self._lock:
                self._conn.execute("VACUUM")
        except sqlite3.OperationalError:
            pass
        return len(drop)

    def stats(self) -> dict[str, int]:
        with self._lock:
            c = self._conn
            return {
                "versions": c.execute("SELECT count(*) FROM versions").fetchone()[0],
                "current_sources": c.execute("SELECT count(*) FROM current").fetchone()[0],
                "chunks": c.execute("SELECT count(*) FROM chunks").fetchone()[0],
            }


def _unlink_if_link(p: Path) -> None:
    if p.is_symlink():
        log.warning("%s is a symbolic link; Cairn's index files never are: the link is removed", p)
        try:
            p.unlink()
        except OSError as exc:
            raise StoreError(f"{p} is a symbolic link that cannot be removed: {exc.strerror or exc}") from exc


def store_size(root: Path) -> int:
    p = root / STORE_DIR / STORE_FILE
    return p.stat().st_size if p.exists() else 0


