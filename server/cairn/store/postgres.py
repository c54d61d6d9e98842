"""A chunk store shared by many clones and CI runs: PostgreSQL (`[store] url`).

Versions and chunks are keyed by workspace-relative path and version hash, so
every clone of a repository shares them: a second clone's `cairn index` finds
its sources stored and parses only what changed. What each clone has on disk
now (`current`), its per-source errors and its cache of verdicts are kept per
clone (a workspace key: this host and the workspace's absolute path).

Concurrency: every write is one transaction at READ COMMITTED. A version is
inserted with ON CONFLICT DO NOTHING, so two writers storing the same version
meet on its unique key and the second uses the first's row (no lost update,
no duplicate); versions are written in one sorted order so two batches never
wait on each other in a cycle, and a deadlock or serialization failure the
server reports anyway is retried. Migrations and `gc` take an advisory lock.

Provenance differs from the SQLite file's on purpose (docs/team.md): rows
carry no MAC under a per-user key, since every writer of a shared index is a
different user. The SQLite MACs guard against an index that travels inside a
workspace; a database server cannot travel in a clone, and a URL the
workspace's own file names is used only when it is on this machine or the
user allowed it (cairn.config). What protects a shared index is the server's
own access control: CI's role writes, people's roles read.

Errors: an unreachable server, a failed login, a schema newer than this Cairn
or tables that are not Cairn's are StoreErrors naming the database (without
its password); nothing falls back to an empty index.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import socket
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..core.config import redact_url
from ..core.model import Chunk
from .base import (
    WORD,
    IndexStore,
    NewVersion,
    StoreError,
    StoreUnavailable,
    VersionInfo,
    occurrences_in_quote_order,
    versions_to_keep,
)

log = logging.getLogger("cairn.store")

# a psycopg connection: the driver is an optional extra, imported when this store is opened
Conn = Any

EXTRA_HINT = "pip install 'cairn[postgres]'"
# one key for the advisory lock of migrations and gc (any constant of Cairn's own)
_LOCK_KEY = 0x6361_6972_6E00_0001

# A chunk's words, as its text-search index holds them: every run of letters and digits
# (the server's own notion of them, [[:alnum:]]), lowercased by the 'simple' configuration.
# Everything else becomes a space first, so the parser never sees a URL, a tag, a hyphen or
# a number with dots, whose tokens would depend on the text around them: a run of letters
# and digits between spaces is always the same token, wherever it stands.
_WORDS = "to_tsvector('simple', regexp_replace({}, '[^[:alnum:]]+', ' ', 'g'))"
# the whole words of a quote, as a query of them all: its runs of letters and digits, but
# for the first and the last when the quote starts or ends inside one (a quote may begin or
# end in the middle of a word); empty when no run is whole
_QUOTE_QUERY = ("plainto_tsquery('simple', regexp_replace(regexp_replace(%(quote)s, '^[[:alnum:]]+|[[:alnum:]]+$',"
                " '', 'g'), '[^[:alnum:]]+', ' ', 'g'))")
_QUOTE_WORDS = f"SELECT {_QUOTE_QUERY}::text"

# Each migration is applied once, in order, in one transaction; `cairn_meta.schema`
# is the number of the last one applied.
MIGRATIONS: list[list[str]] = [
    [
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        """CREATE TABLE cairn_versions (
             id bigserial PRIMARY KEY, source text NOT NULL, version text NOT NULL, lineage text NOT NULL,
             chunk_chars integer NOT NULL, pages text, indexed_at double precision NOT NULL, text bytea NOT NULL,
             UNIQUE (source, version, lineage, chunk_chars))""",
        """CREATE TABLE cairn_chunks (
             id bigserial PRIMARY KEY,
             version_id bigint NOT NULL REFERENCES cairn_versions (id) ON DELETE CASCADE,
             chunk_id text NOT NULL, start_at integer NOT NULL, end_at integer NOT NULL, page integer,
             text text NOT NULL,
             exact bytea)""",  # the text as stored when PostgreSQL's text cannot hold it (NUL, lone surrogates)
        "CREATE INDEX cairn_chunks_by_id ON cairn_chunks (chunk_id)",
        "CREATE INDEX cairn_chunks_by_version ON cairn_chunks (version_id)",
        "CREATE INDEX cairn_chunks_trgm ON cairn_chunks USING gin (text gin_trgm_ops)",
        """CREATE TABLE cairn_current (
             workspace text NOT NULL, source text NOT NULL,
             version_id bigint NOT NULL REFERENCES cairn_versions (id) ON DELETE CASCADE,
             PRIMARY KEY (workspace, source))""",
        "CREATE INDEX cairn_current_by_version ON cairn_current (version_id)",
        """CREATE TABLE cairn_source_errors (
             workspace text NOT NULL, source text NOT NULL, version text, message text NOT NULL,
             PRIMARY KEY (workspace, source))""",
        "CREATE TABLE cairn_source_warnings (source text NOT NULL, version text NOT NULL, message text NOT NULL)",
        "CREATE INDEX cairn_source_warnings_by_version ON cairn_source_warnings (source, version)",
        "CREATE TABLE cairn_git_seen (blob text PRIMARY KEY)",
        """CREATE TABLE cairn_kv_cache (
             workspace text NOT NULL, key text NOT NULL, value text NOT NULL, created double precision NOT NULL,
             PRIMARY KEY (workspace, key))""",
    ],
    [  # 2: retention: versions `cairn gc --purge` removed, never brought back from history
        "CREATE TABLE cairn_purged (source text NOT NULL, version text NOT NULL, PRIMARY KEY (source, version))",
    ],
    [  # 3: a source version's own date (front matter, HTML meta, PDF metadata), for mixed-dates
        """CREATE TABLE cairn_version_dates (
             version_id bigint PRIMARY KEY REFERENCES cairn_versions (id) ON DELETE CASCADE, date text NOT NULL)""",
    ],
    [  # 4: a quote's candidate chunks found by its words (text search) instead of trigrams:
        # the trigram index cost the server about 0.5 CPU seconds a MB of sources (docs/team.md)
        "DROP INDEX IF EXISTS cairn_chunks_trgm",
        f"CREATE INDEX cairn_chunks_words ON cairn_chunks USING gin ({_WORDS.format('text')})",
        # no statistics of the expression: ANALYZE would work it out again for every sampled
        # row (30,000), each time it runs (every ANALYZE_AFTER chunks stored, and autovacuum's)
        "ALTER INDEX cairn_chunks_words ALTER COLUMN 1 SET STATISTICS 0",
    ],
]
SCHEMA_VERSION = str(len(MIGRATIONS))
# statements of migration 1 that migration 4 undoes: a database made from nothing skips them,
# so it needs no pg_trgm extension (a database made before schema 4 has them and is migrated)
_UNDONE_BY = 4
_UNDONE_LATER = {s for s in MIGRATIONS[0] if "trgm" in s}

# the columns of cairn_chunks as COPY writes them, in PostgreSQL's binary format: no text
# to format and parse for the numbers, no escaping of the chunks' text
_COPY_TYPES = ("int8", "text", "int4", "int4", "int4", "text", "bytea")

_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")  # what a PostgreSQL text value cannot hold

_CHUNK_COLS = ("ch.chunk_id, v.source, v.version, ch.start_at, ch.end_at, ch.page, ch.text, v.id, v.indexed_at,"
               " ch.exact")
_R_TEXT, _R_VID, _R_AT, _R_EXACT = 6, 7, 8, 9
_VERSION_COLS = "v.id, v.source, v.version, v.lineage, v.chunk_chars, v.pages"
_ROWS_SQL = f"SELECT {_CHUNK_COLS} FROM cairn_chunks ch JOIN cairn_versions v ON v.id = ch.version_id"
_JOIN_CURRENT = " JOIN cairn_current c ON c.version_id = v.id AND c.workspace = %(ws)s"
_BY_SOURCE = ' ORDER BY v.source COLLATE "C", ch.start_at'  # the order of SQLite's binary collation


def workspace_key(root: Path) -> str:
    """Which clone this is: its host and absolute path (current versions are per clone)."""
    return hashlib.sha256(f"{socket.gethostname()}\0{root.resolve()}".encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _import_driver() -> tuple[Any, Any]:
    try:
        import psycopg
        import psycopg_pool
    except ImportError as exc:
        raise StoreError(
            f"[store] url names a PostgreSQL database, but its driver is not installed ({exc.name} is missing):"
            f" {EXTRA_HINT}"
        ) from None
    return psycopg, psycopg_pool


def _clean(text: str) -> tuple[str, bytes | None]:
    """Text PostgreSQL can hold, and the exact text when that differs."""
    if _NOT_TEXT.search(text) is None:
        return text, None
    return _NOT_TEXT.sub("\ufffd", text), text.encode("utf-8", "surrogatepass")


def _like_pattern(quote: str) -> str:
    return "%" + quote.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class PostgresStore(IndexStore):
    """A workspace's view of a shared PostgreSQL index. Thread-safe: a pool of connections."""

    POOL_SIZE = 4
    CONNECT_TIMEOUT = 10  # seconds to reach the server
    RETRIES = 3  # a transaction the server aborted for a deadlock or a serialization failure
    ANALYZE_AFTER = 5000  # chunks stored by this process before the tables' statistics are refreshed
    CURRENT_ANALYZE_AFTER = 100  # stored versions made current (set_current) before cairn_current's are
    WRITERS = 2  # connections a large batch of versions is stored over at once (add_versions)
    PARALLEL_CHUNKS = 1000  # chunks in a batch from which it is stored over WRITERS connections

    def __init__(self, root: Path, url: str, *, workspace: str | None = None):
        self._psycopg, pool_mod = _import_driver()
        self.root = root
        self.url = url
        self.path = redact_url(url)  # what messages name (the SQLite store's file path)
        self.workspace = workspace or workspace_key(root)
        self.rebuilt_reason = None
        self.read_only = False
        self._told_cache = False
        self._new_chunks = 0
        self._new_current = 0
        # the first connection tells why a server cannot be reached (a pool would only time out)
        try:
            with self._psycopg.connect(url, connect_timeout=self.CONNECT_TIMEOUT, autocommit=True) as conn:
                self._migrate(conn)
        except self._psycopg.Error as exc:
            raise self.failure(exc, "open") from exc
        self._pool = pool_mod.ConnectionPool(
            url, min_size=1, max_size=self.POOL_SIZE, open=True, timeout=60.0, name="cairn",
            kwargs={"autocommit": True, "connect_timeout": self.CONNECT_TIMEOUT},
        )

    @property
    def where(self) -> str:
        return self.path

    # -- failures -------------------------------------------------------------------

    def failure(self, exc: BaseException, verb: str) -> StoreError:
        pg = self._psycopg
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if isinstance(exc, StoreError):
            return exc
        if isinstance(exc, pg.OperationalError) or type(exc).__name__ == "PoolTimeout":
            return StoreUnavailable(f"cannot {verb} the shared index {self.path}: {first}; nothing was changed")
        if isinstance(exc, (pg.errors.UndefinedTable, pg.errors.UndefinedColumn)):
            return StoreError(f"the shared index {self.path} is damaged (its tables are not Cairn's: {first});"
                              " run `cairn store migrate`, or ask its administrator")
        if isinstance(exc, pg.errors.InsufficientPrivilege):
            return StoreUnavailable(f"cannot {verb} the shared index {self.path}: permission denied ({first})")
        return StoreError(f"the shared index {self.path}: {first}")

    def recover(self, exc: Exception) -> None:
        """A shared index is never rebuilt by one client: the failure is raised."""
        raise self.failure(exc, "use")

    def close(self) -> None:
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool.close()

    def _run(self, verb: str, fn: Callable[[Any], Any], *, write: bool = False) -> Any:
        """fn(connection), in a transaction when writing; driver errors become StoreErrors."""
        pg = self._psycopg
        for attempt in range(self.RETRIES):
            try:
                with self._pool.connection() as conn:
                    if not write:
                        return fn(conn)
                    with conn.transaction():
                        return fn(conn)
            except (pg.errors.DeadlockDetected, pg.errors.SerializationFailure) as exc:
                if attempt + 1 == self.RETRIES:
                    raise self.failure(exc, verb) from exc
                time.sleep(0.05 * (attempt + 1))
            except StoreError:
                raise
            except Exception as exc:
                if isinstance(exc, pg.Error) or type(exc).__name__ == "PoolTimeout":
                    raise self.failure(exc, verb) from exc
                raise
        raise AssertionError("unreachable")

    # -- schema ---------------------------------------------------------------------

    def _migrate(self, conn: Any) -> None:
        """Apply the migrations this database lacks (under an advisory lock, so
        two first runs do not both apply them)."""
        if self._schema_of(conn) == len(MIGRATIONS):
            return
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            conn.execute("CREATE TABLE IF NOT EXISTS cairn_meta (key text PRIMARY KEY, value text NOT NULL)")
            have = self._schema_of(conn)
            if have > len(MIGRATIONS):
                raise StoreError(f"the shared index {self.path} has schema {have}, newer than this Cairn's"
                                 f" {len(MIGRATIONS)}: upgrade Cairn")
            for n in range(have, len(MIGRATIONS)):
                log.info("migrating the shared index %s to schema %d", self.path, n + 1)
                for statement in MIGRATIONS[n]:
                    if n < _UNDONE_BY <= len(MIGRATIONS) and statement in _UNDONE_LATER:
                        continue
                    conn.execute(statement)
            conn.execute("INSERT INTO cairn_meta VALUES ('schema', %s) ON CONFLICT (key) DO UPDATE SET value ="
                         " excluded.value", (str(len(MIGRATIONS)),))

    @staticmethod
    def _schema_of(conn: Any) -> int:
        if conn.execute("SELECT to_regclass('cairn_meta')").fetchone()[0] is None:
            return 0
        row = conn.execute("SELECT value FROM cairn_meta WHERE key = 'schema'").fetchone()
        if row is None or not row[0].isdigit():
            return 0
        return int(row[0])

    def schema(self) -> str:
        return self._run("read", lambda c: str(self._schema_of(c)))

    # -- writing ------------------------------------------------------------------

    def find_version(self, source: str, version: str, lineage: str, chunk_chars: int) -> int | None:
        def q(c: Conn) -> int | None:
            row = c.execute("SELECT id FROM cairn_versions WHERE source=%s AND version=%s AND lineage=%s"
                            " AND chunk_chars=%s", (source, version, lineage, chunk_chars)).fetchone()
            return row[0] if row else None
        return self._run("read", q)

    def add_versions(self, versions: list[NewVersion]) -> list[int]:
        """Store parsed versions and their chunks; a version another writer stored
        first is used as it is. A small batch is one transaction; a large one is
        cut in WRITERS parts stored at once, each in its own transaction over its
        own connection, so the server maintains its indexes (the text-search
        index costs most of the time) on as many cores. A version, its chunks and its
        current row are always in one transaction."""
        blobs = [v.compressed() for v in versions]
        order = sorted(range(len(versions)), key=lambda i: (versions[i].source, versions[i].version))

        def write(part: list[int]) -> dict[int, int]:
            return self._run("write", lambda c: {i: self._insert_version(c, versions[i], blobs[i]) for i in part},
                             write=True)

        ids: dict[int, int] = {}
        parts = self._parts(order, versions)
        if len(parts) == 1:
            ids.update(write(parts[0]))
        else:
            with ThreadPoolExecutor(len(parts), thread_name_prefix="cairn-store") as pool:
                for done in pool.map(write, parts):
                    ids.update(done)
        out = [ids[i] for i in range(len(versions))]
        added = sum(len(v.chunks) for v in versions)
        if added >= self.PARALLEL_CHUNKS:
            # the words of new chunks wait in the index's pending list, which every search
            # reads through until it is merged (at 4 MB, or by autovacuum): after a large
            # batch, a quote took 9 ms instead of 0.6 on 15 MB. Merged now, by the index's
            # owner (another role leaves it to autovacuum).
            self._maintain("SELECT gin_clean_pending_list('cairn_chunks_words')")
        self._new_chunks += added
        if self._new_chunks >= self.ANALYZE_AFTER:
            # fresh statistics: right after a large first index the planner would otherwise
            # guess the tables empty and scan them for every quote
            self._new_chunks = 0
            self._maintain("ANALYZE cairn_chunks, cairn_versions, cairn_current")
        return out

    def _maintain(self, statement: str) -> None:
        """Run a maintenance statement (ANALYZE, merging an index's pending list) that
        only some roles may run: for another role it is skipped, and autovacuum does it."""
        try:
            self._run("write", lambda c: c.execute(statement))
        except StoreUnavailable:
            pass

    def _parts(self, order: list[int], versions: list[NewVersion]) -> list[list[int]]:
        """`order` cut in up to WRITERS runs of about as many chunks each (one run when small)."""
        total = sum(len(v.chunks) for v in versions)
        n = min(self.WRITERS, len(order))
        if n <= 1 or total < self.PARALLEL_CHUNKS:
            return [order]
        parts: list[list[int]] = [[]]
        filled = 0
        for i in order:
            if filled >= total * len(parts) / n and len(parts) < n:
                parts.append([])
            parts[-1].append(i)
            filled += len(versions[i].chunks)
        return [p for p in parts if p]

    def _insert_version(self, c: Any, v: NewVersion, blob: bytes) -> int:
        key = (v.source, v.version, v.lineage, v.chunk_chars)
        row = c.execute("SELECT id FROM cairn_versions WHERE source=%s AND version=%s AND lineage=%s"
                        " AND chunk_chars=%s", key).fetchone()
        if row is None:
            pages = json.dumps(v.pages) if v.pages else None
            row = c.execute(
                "INSERT INTO cairn_versions (source, version, lineage, chunk_chars, pages, indexed_at, text)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING id",
                (*key, pages, time.time(), blob),
            ).fetchone()
            if row is not None:
                with c.cursor().copy("COPY cairn_chunks (version_id, chunk_id, start_at, end_at, page, text, exact)"
                                     " FROM STDIN (FORMAT BINARY)") as copy:
                    copy.set_types(_COPY_TYPES)
                    for ch in v.chunks:
                        text, exact = _clean(ch.text)
                        copy.write_row((row[0], ch.chunk_id, ch.start, ch.end, ch.page, text, exact))
            else:  # another writer stored it meanwhile (its transaction has committed)
                row = c.execute("SELECT id FROM cairn_versions WHERE source=%s AND version=%s AND lineage=%s"
                                " AND chunk_chars=%s", key).fetchone()
        vid = row[0]
        if v.date:
            c.execute("INSERT INTO cairn_version_dates (version_id, date) VALUES (%s, %s)"
                      " ON CONFLICT (version_id) DO UPDATE SET date = excluded.date", (vid, v.date))
        if v.make_current:
            self._set_current(c, v.source, vid)
        return vid

    def version_date(self, source: str, version: str) -> str | None:
        """The date (YYYY-MM-DD) stored with a version of a source, if its metadata gave one."""
        row = self._run("read", lambda c: c.execute(
            "SELECT d.date FROM cairn_versions v JOIN cairn_version_dates d ON d.version_id = v.id"
            " WHERE v.source = %s AND v.version = %s ORDER BY v.id DESC LIMIT 1", (source, version)).fetchone())
        return row[0] if row else None

    def _set_current(self, c: Any, source: str, vid: int) -> None:
        c.execute("INSERT INTO cairn_current VALUES (%s, %s, %s) ON CONFLICT (workspace, source) DO UPDATE"
                  " SET version_id = excluded.version_id", (self.workspace, source, vid))
        c.execute("DELETE FROM cairn_source_errors WHERE workspace = %s AND source = %s", (self.workspace, source))

    def set_current(self, source: str, version_id: int) -> None:
        """Make a stored version this clone's current one (a second clone's index does this
        for every source it finds stored). Every CURRENT_ANALYZE_AFTER of them the statistics
        of cairn_current are refreshed: until they are, the planner takes a new clone for one
        with a single current source and reads all of its chunks for every quote (measured:
        25 ms a quote instead of 3 on 10 MB)."""
        self._run("write", lambda c: self._set_current(c, source, version_id), write=True)
        self._new_current += 1
        if self._new_current >= self.CURRENT_ANALYZE_AFTER:
            self._new_current = 0
            self._maintain("ANALYZE cairn_current")

    def drop_current(self, source: str) -> None:
        def write(c: Conn) -> None:
            c.execute("DELETE FROM cairn_current WHERE workspace = %s AND source = %s", (self.workspace, source))
            c.execute("DELETE FROM cairn_source_errors WHERE workspace = %s AND source = %s",
                      (self.workspace, source))
        self._run("write", write, write=True)

    def record_error(self, source: str, version: str | None, message: str) -> None:
        self._run("write", lambda c: c.execute(
            "INSERT INTO cairn_source_errors VALUES (%s, %s, %s, %s) ON CONFLICT (workspace, source) DO UPDATE"
            " SET version = excluded.version, message = excluded.message",
            (self.workspace, source, version, _clean(message)[0])), write=True)

    def record_warnings(self, source: str, version: str, messages: list[str]) -> None:
        def write(c: Conn) -> None:
            c.execute("DELETE FROM cairn_source_warnings WHERE source = %s AND version = %s", (source, version))
            for m in messages:
                c.execute("INSERT INTO cairn_source_warnings VALUES (%s, %s, %s)", (source, version, _clean(m)[0]))
        self._run("write", write, write=True)

    def warnings_for(self, source: str, version: str) -> list[str]:
        return self._run("read", lambda c: [r[0] for r in c.execute(
            "SELECT message FROM cairn_source_warnings WHERE source = %s AND version = %s", (source, version))])

    def source_errors(self) -> dict[str, str]:
        return self._run("read", lambda c: dict(c.execute(
            "SELECT source, message FROM cairn_source_errors WHERE workspace = %s", (self.workspace,)).fetchall()))

    # -- reading ------------------------------------------------------------------

    @staticmethod
    def _info(r: Sequence[Any]) -> VersionInfo:
        return VersionInfo(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]) if r[5] else None)

    def current_versions(self) -> dict[str, VersionInfo]:
        return self._run("read", lambda c: {r[1]: self._info(r) for r in c.execute(
            f"SELECT {_VERSION_COLS} FROM cairn_current cu JOIN cairn_versions v ON v.id = cu.version_id"
            " WHERE cu.workspace = %s", (self.workspace,))})

    def current_version(self, source: str) -> VersionInfo | None:
        def q(c: Conn) -> VersionInfo | None:
            r = c.execute(f"SELECT {_VERSION_COLS} FROM cairn_current cu JOIN cairn_versions v ON v.id ="
                          " cu.version_id WHERE cu.workspace = %s AND cu.source = %s",
                          (self.workspace, source)).fetchone()
            return self._info(r) if r else None
        return self._run("read", q)

    def version_text(self, version_id: int) -> str:
        row = self._run("read", lambda c: c.execute("SELECT text FROM cairn_versions WHERE id = %s",
                                                    (version_id,)).fetchone())
        if row is None:
            raise KeyError(version_id)
        return zlib.decompress(row[0]).decode("utf-8", "surrogatepass")

    @staticmethod
    def _chunk(r: Sequence[Any], current: bool = True) -> Chunk:
        text = r[_R_TEXT] if r[_R_EXACT] is None else bytes(r[_R_EXACT]).decode("utf-8", "surrogatepass")
        return Chunk(r[0], r[1], r[2], r[3], r[4], r[5], text, current)

    def _rows(self, sql: str, params: dict | tuple) -> list[Chunk]:
        return [self._chunk(r) for r in self._run("read", lambda c: c.execute(sql, params).fetchall())]

    def current_version_ids(self) -> set[int]:
        return self._run("read", lambda c: {r[0] for r in c.execute(
            "SELECT version_id FROM cairn_current WHERE workspace = %s", (self.workspace,))})

    def lookup_many(self, chunk_ids: Iterable[str], current: set[int] | None = None) -> dict[str, list[Chunk]]:
        """lookup() for many ids in one query: current ones first, then newest first."""
        ids = list(dict.fromkeys(chunk_ids))
        if not ids:
            return {}
        if current is None:
            current = self.current_version_ids()
        rows = self._run("read", lambda c: c.execute(
            _ROWS_SQL + " WHERE ch.chunk_id = ANY(%s) ORDER BY ch.id", (ids,)).fetchall())
        found: dict[str, list[tuple]] = {}
        for r in rows:
            found.setdefault(r[0], []).append(r)
        out: dict[str, list[Chunk]] = {}
        for cid, got in found.items():
            got.sort(key=lambda r: (r[_R_VID] not in current, -r[_R_AT], -r[_R_VID]))
            out[cid] = [self._chunk(r, r[_R_VID] in current) for r in got]
        return out

    def current_chunks(self, sources: Iterable[str] | None = None) -> list[Chunk]:
        if sources is None:
            return self._rows(_ROWS_SQL + _JOIN_CURRENT + _BY_SOURCE, {"ws": self.workspace})
        out: list[Chunk] = []
        for s in sources:
            out += self._rows(_ROWS_SQL + _JOIN_CURRENT + " WHERE v.source = %(s)s ORDER BY ch.start_at",
                              {"ws": self.workspace, "s": s})
        return out

    def current_chunk_count(self) -> int:
        return self._run("read", lambda c: c.execute(
            "SELECT count(*) FROM cairn_chunks ch JOIN cairn_current cu ON cu.version_id = ch.version_id"
            " WHERE cu.workspace = %s", (self.workspace,)).fetchone()[0])

    def find_quote(self, quote: str, *, sources: Iterable[str] | None = None, limit: int = 50,
                   terms: dict[str, int] | None = None) -> list[tuple[Chunk, int]]:
        """Where `quote` occurs verbatim in the current sources: (chunk, offset in chunk).

        Candidates are the chunks holding every whole word of the quote (the
        text-search index over runs of letters and digits, _WORDS): a chunk
        holding the quote holds them, as the quote's own separators cut them
        there too. LIKE is the exact, case-sensitive substring test. A quote
        with no whole word (one word, punctuation) is found by LIKE alone, a
        scan of the current chunks.
        """
        if not quote:
            return []
        only = set(sources) if sources is not None else None
        if _NOT_TEXT.search(quote):  # no stored text holds it as such: look in the exact texts
            chunks = [ch for ch in self.current_chunks(sorted(only) if only is not None else None)
                      if quote in ch.text]
        else:
            chunks = [self._chunk(r) for r in self._run("read", lambda c: self._quote_rows(c, quote))]
        return occurrences_in_quote_order(chunks, quote, only, limit)

    def _quote_rows(self, c: Conn, quote: str) -> list[Any]:
        """Rows of the current chunks holding `quote` (LIKE), found by its whole words when it has some.

        One statement when the quote is found (its words' query is worked out in
        it); when nothing is found, whether the quote had a whole word at all is
        asked, and a quote without one is looked for by LIKE alone."""
        params = {"ws": self.workspace, "p": _like_pattern(quote), "quote": quote}
        rows = c.execute(_ROWS_SQL + _JOIN_CURRENT + f" WHERE {_WORDS.format('ch.text')} @@ {_QUOTE_QUERY}"
                         " AND ch.text LIKE %(p)s" + _BY_SOURCE, params).fetchall()
        if rows or c.execute(_QUOTE_WORDS, params).fetchone()[0]:
            return rows
        return c.execute(_ROWS_SQL + _JOIN_CURRENT + " WHERE ch.text LIKE %(p)s" + _BY_SOURCE, params).fetchall()

    def search_words(self, words: list[str], limit: int = 20) -> list[Chunk]:
        """Current chunks holding all these words (prefix match on the last), in any case.

        The text-search index finds the chunks holding the plain ASCII words but
        the last as whole words (the last one, as a prefix, only when it is
        alone); ILIKE narrows them to chunks holding every word anywhere, and
        whole words are then picked out here. Words with other letters are left
        to ILIKE alone (the server's notion of a letter and its lower case may
        differ from Python's); with no plain ASCII word at all, ILIKE reads every
        current chunk. Not exact: the server counts some combining marks (Hebrew
        points, Indic vowel signs, U+0345: 1,404 code points below U+30000 on
        the tests' C.UTF-8 server) as letters where Python's words end, so an
        ASCII word written against one is not found here (the trigram index of
        schema 3 found it)."""
        clean = [w for w in WORD.findall(" ".join(words)) if w]
        if not clean:
            return []
        conds = [f"ch.text ILIKE %(w{i})s" for i in range(len(clean))]
        params: dict[str, Any] = {f"w{i}": _like_pattern(w) for i, w in enumerate(clean)}
        # ASCII letters and digits only (WORD leaves no other ASCII), so each is one lexeme as it
        # stands: the whole words, else the last one as a prefix (a prefix reads many entries)
        terms = [f"'{w}'" for w in clean[:-1] if w.isascii() and len(w) < 256]
        if not terms and clean[-1].isascii() and len(clean[-1]) < 256:
            terms = [f"'{clean[-1]}':*"]
        if terms:
            conds.insert(0, f"{_WORDS.format('ch.text')} @@ to_tsquery('simple', %(q)s)")
            params["q"] = " & ".join(terms)
        rows = self._rows(_ROWS_SQL + _JOIN_CURRENT + f" WHERE {' AND '.join(conds)} ORDER BY ch.id LIMIT %(n)s",
                          {**params, "ws": self.workspace, "n": limit * 8})
        whole = [re.compile(r"(?<![^\W_])" + re.escape(w) + r"(?![^\W_])", re.IGNORECASE) for w in clean[:-1]]
        whole.append(re.compile(r"(?<![^\W_])" + re.escape(clean[-1]), re.IGNORECASE))
        return [ch for ch in rows if all(p.search(ch.text) for p in whole)][:limit]

    def rank(self, words: list[str], k: int) -> list[Chunk]:
        """The `k` current chunks that best match these words, best first: PostgreSQL's
        own text ranking (ts_rank over the 'simple' configuration, so no language's
        stemming), on the chunks holding any of the words. No text-search index is
        kept for this expression (the index of quotes' words holds other tokens), so
        this reads the workspace's current chunks: fine for `cairn ask` on a team
        corpus, slower than SQLite's FTS5."""
        clean = list(dict.fromkeys(w.lower() for w in WORD.findall(" ".join(words))))[:64]
        if not clean or k <= 0:
            return []
        query = " | ".join("'" + w.replace("'", "''").replace("\\", "") + "'" for w in clean)
        rows = self._rows(
            _ROWS_SQL + _JOIN_CURRENT
            + " WHERE to_tsvector('simple', ch.text) @@ to_tsquery('simple', %(q)s)"
            " ORDER BY ts_rank(to_tsvector('simple', ch.text), to_tsquery('simple', %(q)s)) DESC, v.source, ch.start_at"
            " LIMIT %(n)s",
            {"ws": self.workspace, "q": query, "n": k * 4})
        out, seen = [], set()
        for ch in rows:
            if ch.chunk_id not in seen:
                seen.add(ch.chunk_id)
                out.append(ch)
        return out[:k]

    def chunk_ids_with_prefix(self, prefix: str, limit: int = 50) -> list[Chunk]:
        pattern = _like_pattern(prefix.lower())[1:]  # no leading %: a prefix
        return self._rows(_ROWS_SQL + _JOIN_CURRENT + " WHERE ch.chunk_id LIKE %(p)s ORDER BY ch.id LIMIT %(n)s",
                          {"ws": self.workspace, "p": pattern, "n": limit})

    def versions_of(self, chunk_id: str) -> list[str]:
        return self._run("read", lambda c: [r[0] for r in c.execute(
            "SELECT DISTINCT v.version FROM cairn_chunks ch JOIN cairn_versions v ON v.id = ch.version_id"
            " WHERE ch.chunk_id = %s", (chunk_id,))])

    def version_info(self, source: str, version: str) -> VersionInfo | None:
        def q(c: Conn) -> VersionInfo | None:
            r = c.execute(f"SELECT {_VERSION_COLS} FROM cairn_versions v WHERE v.source = %s AND v.version = %s"
                          " ORDER BY v.indexed_at DESC, v.id DESC LIMIT 1", (source, version)).fetchone()
            return self._info(r) if r else None
        return self._run("read", q)

    # -- retention ----------------------------------------------------------------------

    def purge(self, sources: list[str]) -> int:
        """Every clone's versions of these sources go (the index is shared: so is retention)."""
        def write(c: Conn) -> int:
            c.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            c.execute("INSERT INTO cairn_purged SELECT DISTINCT source, version FROM cairn_versions"
                      " WHERE source = ANY(%s) ON CONFLICT DO NOTHING", (sources,))
            n = c.execute("DELETE FROM cairn_versions WHERE source = ANY(%s)", (sources,)).rowcount
            c.execute("DELETE FROM cairn_source_errors WHERE source = ANY(%s)", (sources,))
            c.execute("DELETE FROM cairn_source_warnings WHERE source = ANY(%s)", (sources,))
            c.execute("DELETE FROM cairn_kv_cache")  # cached reports may quote them
            c.execute("DELETE FROM cairn_git_seen")
            return n
        n = self._run("write", write, write=True)
        # rewrite the tables so the deleted rows' text is gone from their files
        self._run("write", lambda c: c.execute("VACUUM FULL cairn_chunks, cairn_versions, cairn_kv_cache"))
        return n

    def purged_versions(self, source: str | None = None) -> set[tuple[str, str]]:
        def q(c: Conn) -> list[Any]:
            if source is None:
                return c.execute("SELECT source, version FROM cairn_purged").fetchall()
            return c.execute("SELECT source, version FROM cairn_purged WHERE source = %s", (source,)).fetchall()
        return {(r[0], r[1]) for r in self._run("read", q)}

    def lift_purge(self, sources: list[str]) -> int:
        def write(c: Conn) -> int:
            n = c.execute("DELETE FROM cairn_purged WHERE source = ANY(%s)", (sources,)).rowcount
            c.execute("DELETE FROM cairn_git_seen")
            c.execute("DELETE FROM cairn_kv_cache")  # reports made without them are stale
            return n
        return self._run("write", write, write=True)

    def drop_superseded_before(self, cutoff: float, keep: set[tuple[str, str]] | None = None) -> int:
        def write(c: Conn) -> int:
            c.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            rows = c.execute("SELECT id, source, version FROM cairn_versions WHERE indexed_at < %s AND id NOT IN"
                             " (SELECT version_id FROM cairn_current)", (cutoff,)).fetchall()
            drop = [r[0] for r in rows if not keep or (r[1], r[2]) not in keep]
            if not drop:
                return 0
            return c.execute("DELETE FROM cairn_versions WHERE id = ANY(%s)", (drop,)).rowcount
        return self._run("write", write, write=True)

    # -- small key-value cache (per clone) -------------------------------------------

    def cache_get(self, key: str) -> str | None:
        row = self._run("read", lambda c: c.execute(
            "SELECT value FROM cairn_kv_cache WHERE workspace = %s AND key = %s", (self.workspace, key)).fetchone())
        return row[0] if row else None

    def _best_effort(self, fn: Callable[[Any], Any]) -> None:
        """A cache write: a role that may only read just keeps no cache."""
        try:
            self._run("write", fn, write=True)
        except StoreUnavailable as exc:
            if not self._told_cache:
                self._told_cache = True
                log.info("the shared index %s is not written (%s): cached verdicts are not kept", self.path, exc)

    def cache_put(self, key: str, value: str) -> None:
        if _NOT_TEXT.search(key + value):
            return  # not storable as text: simply not cached
        self._best_effort(lambda c: c.execute(
            "INSERT INTO cairn_kv_cache VALUES (%s, %s, %s, %s) ON CONFLICT (workspace, key) DO UPDATE"
            " SET value = excluded.value, created = excluded.created", (self.workspace, key, value, time.time())))

    def cache_prune(self, prefix: str, max_age: float) -> None:
        self._best_effort(lambda c: c.execute(
            "DELETE FROM cairn_kv_cache WHERE workspace = %s AND key >= %s AND key < %s AND created < %s",
            (self.workspace, prefix, prefix + "\uffff", time.time() - max_age)))

    def state_token(self) -> str:
        """Changes whenever a version is stored or dropped or this clone's `current` moves."""
        def q(c: Conn) -> str:
            n, top = c.execute("SELECT count(*), coalesce(max(id), 0) FROM cairn_versions").fetchone()
            cur = c.execute("SELECT string_agg(source || ':' || version_id, '|' ORDER BY source COLLATE \"C\")"
                            " FROM cairn_current WHERE workspace = %s", (self.workspace,)).fetchone()[0]
            return f"{n}:{top}:{cur or ''}"
        return self._run("read", q)

    # -- git history bookkeeping (shared: a blob's chunks are the same for every clone) --

    def git_seen(self, blob: str) -> bool:
        return self._run("read", lambda c: c.execute(
            "SELECT 1 FROM cairn_git_seen WHERE blob = %s", (blob,)).fetchone() is not None)

    def mark_git_seen(self, blob: str) -> None:
        self._best_effort(lambda c: c.execute(
            "INSERT INTO cairn_git_seen VALUES (%s) ON CONFLICT DO NOTHING", (blob,)))

    # -- gc -------------------------------------------------------------------------

    def gc(self, cited: set[tuple[str, str | None]]) -> int:
        """Drop the versions no clone has on disk and no citation of this
        workspace's drafts resolves to (another clone finds a dropped version
        again in its git history when it needs it)."""
        def write(c: Conn) -> int:
            c.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            holders: dict[str, list[tuple[int, str]]] = {}
            for chunk_id in {cid for cid, _ in cited}:
                holders[chunk_id] = [tuple(r) for r in c.execute(
                    "SELECT v.id, v.version FROM cairn_chunks ch JOIN cairn_versions v ON v.id = ch.version_id"
                    " WHERE ch.chunk_id = %s ORDER BY v.indexed_at DESC, v.id DESC", (chunk_id,))]
            everyone = {r[0] for r in c.execute("SELECT DISTINCT version_id FROM cairn_current")}
            keep = versions_to_keep(everyone, cited, holders)
            drop = [r[0] for r in c.execute("SELECT id FROM cairn_versions") if r[0] not in keep]
            dropped = 0
            if drop:  # a version another clone made current meanwhile stays
                dropped = c.execute("DELETE FROM cairn_versions WHERE id = ANY(%s)"
                                    " AND id NOT IN (SELECT version_id FROM cairn_current)", (drop,)).rowcount
            c.execute("DELETE FROM cairn_git_seen")
            return dropped
        return self._run("write", write, write=True)

    def stats(self) -> dict[str, int]:
        def q(c: Conn) -> dict[str, int]:
            return {
                "versions": c.execute("SELECT count(*) FROM cairn_versions").fetchone()[0],
                "current_sources": c.execute("SELECT count(*) FROM cairn_current WHERE workspace = %s",
                                             (self.workspace,)).fetchone()[0],
                "chunks": c.execute("SELECT count(*) FROM cairn_chunks").fetchone()[0],
            }
        return self._run("read", q)


def database_size(store: PostgresStore) -> int:
    """Bytes the database holds (for the benchmark)."""
    return store._run("read", lambda c: c.execute("SELECT pg_database_size(current_database())").fetchone()[0])


__all__ = ["EXTRA_HINT", "MIGRATIONS", "SCHEMA_VERSION", "PostgresStore", "database_size", "workspace_key"]
