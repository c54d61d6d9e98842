"""The chunk store: which one a workspace uses, and the names callers import.

`[store] url` (or CAIRN_STORE_URL) chooses: empty, the default, is the SQLite
file `.cairn/index.db` of the workspace (cairn.store.sqlite); a
`postgresql://` URL is an index shared by many clones and CI runs
(cairn.store.postgres, with the optional `cairn[postgres]` extra). Both
implement cairn.store.base.IndexStore and give the same verdicts.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .base import (
    STORE_DIR,
    STORE_FILE,
    UNVERIFIED_PROVENANCE,
    IndexStore,
    NewVersion,
    StoreError,
    StoreUnavailable,
    VersionInfo,
)
from .sqlite import SCHEMA_VERSION, Store, store_size
from .sqlite_faults import StoreDamaged, is_damage, unavailable_reason

if TYPE_CHECKING:
    from ..core.config import Settings

__all__ = [
    "SCHEMA_VERSION", "STORE_DIR", "STORE_FILE", "UNVERIFIED_PROVENANCE", "IndexStore", "NewVersion", "Store",
    "StoreDamaged", "StoreError", "StoreUnavailable", "VersionInfo", "is_damage", "open_store", "store_size",
    "unavailable_reason",
]


def open_store(root: Path, settings: Settings) -> IndexStore:
    """The store the workspace's settings name (cairn.config decides whether a
    URL may be used: a non-loopback one from the workspace's own file needs
    the user's consent)."""
    url = settings.store_url
    if not url:
        return Store(root)
    from .postgres import PostgresStore

    return PostgresStore(root, url)
