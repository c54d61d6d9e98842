"""The snapshots on the shared PostgreSQL index (SPEC section 1: on that store they live in
the database, not in the workspace). A mixin of cairn.store.postgres.PostgresStore: one table
of named byte strings, the names those of the `.cairn/snapshots/` folder (index.snapshot_shelf),
shared by every clone, as the versions are."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .postgres_schema import Conn


class Snapshots:
    """The snapshot half of PostgresStore."""

    _run: Callable[..., Any]
    keeps_snapshots = True

    def snapshot_get(self, name: str) -> bytes | None:
        row = self._run("read", lambda c: c.execute(
            "SELECT data FROM cairn_snapshots WHERE name = %s", (name,)).fetchone())
        return bytes(row[0]) if row else None

    def snapshot_put(self, name: str, data: bytes) -> None:
        def write(c: Conn) -> None:
            c.execute("INSERT INTO cairn_snapshots VALUES (%s, %s) ON CONFLICT (name) DO UPDATE"
                      " SET data = excluded.data", (name, data))
        self._run("write", write, write=True)

    def snapshot_delete(self, name: str) -> None:
        self._run("write", lambda c: c.execute("DELETE FROM cairn_snapshots WHERE name = %s", (name,)), write=True)

    def snapshot_names(self) -> list[str]:
        return [r[0] for r in self._run("read", lambda c: c.execute(
            'SELECT name FROM cairn_snapshots ORDER BY name COLLATE "C"').fetchall())]

    def snapshot_sizes(self) -> dict[str, int]:
        return {r[0]: r[1] for r in self._run("read", lambda c: c.execute(
            "SELECT name, octet_length(data) FROM cairn_snapshots").fetchall())}

    def snapshot_values(self, prefix: str) -> list[bytes]:
        return [bytes(r[0]) for r in self._run("read", lambda c: c.execute(
            'SELECT data FROM cairn_snapshots WHERE starts_with(name, %s) ORDER BY name COLLATE "C"',
            (prefix,)).fetchall())]
