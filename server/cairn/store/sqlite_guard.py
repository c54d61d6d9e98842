"""What an SQLite index file may hold, and the settings it is opened with.

An index file may come with the workspace (docs/security.md), and SQLite runs
what a file's own schema says: a trigger fires on Cairn's writes (it could point
`current` at any version, or loop for ever), a view or an index on an expression
runs SQL when read. So a file holding any schema object Cairn did not make is
damage: it is found before anything is written, moved aside and a new index
made (sqlite_open). The connection is opened with `trusted_schema = OFF` (no
function with side effects from a schema) and, where the sqlite3 module offers
it (Python 3.12+), SQLite's defensive mode (no writable schema, no writes to
shadow tables)."""

from __future__ import annotations

import re
import sqlite3

from .proofs import TRIGGERS

# tables Cairn makes, with the full-text index's own (shadow) tables and SQLite's statistics
_TABLES = frozenset({
    "versions", "meta", "current", "chunks", "chunks_fts", "source_errors", "source_warnings", "git_seen",
    "version_dates", "kv_cache", "purged", "outside_edits",
    "chunks_fts_data", "chunks_fts_idx", "chunks_fts_docsize", "chunks_fts_config",
    "sqlite_stat1", "sqlite_stat4", "sqlite_sequence",
})
# index name -> its statement as sqlite_master keeps it (white space folded)
_INDEXES = {
    "chunks_by_id": "CREATE INDEX chunks_by_id ON chunks (chunk_id)",
    "chunks_by_version": "CREATE INDEX chunks_by_version ON chunks (version_id)",
}
_FTS = "CREATE VIRTUAL TABLE chunks_fts USING fts5 ("


def _fold(sql: str | None) -> str:
    return re.sub(r"\s+", " ", sql or "").strip()


def foreign_objects(conn: sqlite3.Connection) -> list[str]:
    """The schema objects of this file that Cairn did not make ("trigger evil", ...)."""
    out = []
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    for kind, name, table, sql in rows:
        if kind == "table" and name in _TABLES:
            if name == "chunks_fts" and not _fold(sql).startswith(_FTS):
                out.append(f"table {name}")
            continue
        if kind == "index":
            if sql is None and name.startswith("sqlite_autoindex_") and table in _TABLES:
                continue  # SQLite's own index of a UNIQUE or PRIMARY KEY constraint
            if _INDEXES.get(name) == _fold(sql):
                continue
        if kind == "trigger" and TRIGGERS.get(name) == sql:
            continue
        out.append(f"{kind} {name}")
    return out


def harden(conn: sqlite3.Connection) -> None:
    """SQLite's defensive settings on a new connection (see the module's docstring)."""
    conn.execute("PRAGMA trusted_schema = OFF")
    setconfig = getattr(conn, "setconfig", None)
    defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
    if setconfig is not None and defensive is not None:
        setconfig(defensive, True)
