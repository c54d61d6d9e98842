"""The shared PostgreSQL index's schema (its migrations, in order) and the SQL pieces
and small helpers its store and its searches share (cairn.store.postgres)."""

from __future__ import annotations

import hashlib
import re
import socket
from pathlib import Path
from typing import Any

from .base import StoreError

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
    [  # 5: the snapshots (SPEC section 1), named as in a workspace's .cairn/snapshots/ folder
        "CREATE TABLE cairn_snapshots (name text PRIMARY KEY, data bytea NOT NULL)",
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
