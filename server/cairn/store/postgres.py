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

import json
import logging
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..core.config import redact_url
from ..core.model import Chunk
from .base import (
    IndexStore,
    NewVersion,
    StoreError,
    StoreUnavailable,
    VersionInfo,
    versions_to_keep,
)
from .postgres_schema import (
    _BY_SOURCE,
    _COPY_TYPES,
    _JOIN_CURRENT,
    _LOCK_KEY,
    _NOT_TEXT,
    _QUOTE_WORDS,
    _R_AT,
    _R_EXACT,
    _R_TEXT,
    _R_VID,
    _ROWS_SQL,
    _UNDONE_BY,
    _UNDONE_LATER,
    _VERSION_COLS,
    _WORDS,
    EXTRA_HINT,
    MIGRATIONS,
    SCHEMA_VERSION,
    Conn,
    _clean,
    _import_driver,
    workspace_key,
)
from .postgres_search import Search
from .postgres_snapshots import Snapshots

log = logging.getLogger("cairn.store")

class PostgresStore(Search, Snapshots, IndexStore):
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


__all__ = [
    "_QUOTE_WORDS", "_WORDS", "EXTRA_HINT", "MIGRATIONS", "SCHEMA_VERSION", "PostgresStore", "_clean", "database_size",
    "workspace_key",
]
