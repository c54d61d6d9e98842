"""Bringing the snapshots (index.snapshots) into the index: a deleted or fresh index gets
back every version it held, and each web source's latest fetch becomes its current version.

Both are reached through what a workspace offers (`SnapshotSite`), so this module does not
import the workspace that calls it.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Protocol

from ..store import IndexStore
from .snapshots import Snapshots

log = logging.getLogger(__name__)


class SnapshotSite(Protocol):
    """What restoring snapshots needs of a workspace."""

    store: IndexStore

    @property
    def snapshots(self) -> Snapshots: ...

    @property
    def web_sources(self) -> list[str]: ...

    def under_roots(self, identity: str) -> bool: ...

    def index_bytes(self, ident: str, data: bytes, *, current: bool = False,
                    parse_name: str | None = None, snapshot: bool = True) -> int | None: ...


def parse_name_of(url: str, content_type: str | None) -> str | None:
    """The file name a web source's bytes are parsed as, by its content type (None: not parsed)."""
    kind = (content_type or "").split(";")[0].strip().lower()
    if kind in ("text/html", "application/xhtml+xml"):
        return "page.html"
    if kind == "application/pdf":
        return "page.pdf"
    if kind in ("text/plain", "text/markdown", "text/x-markdown", "text/csv"):
        return "page.txt"
    return None


def restore(ws: SnapshotSite) -> int:
    """Index every snapshot the index lacks, as a superseded version; how many were added.
    A snapshot whose source is not one of this workspace's, or whose bytes do not hash to
    its name, is left out (the latter reported by Snapshots.read)."""
    snaps = ws.snapshots
    names = snaps.names()
    if not names:
        return 0
    # the listing seen last: nothing new since, nothing to look at
    digest = hashlib.sha256("\n".join(names).encode()).hexdigest()
    key = "snapshots:restored"
    if ws.store.cache_get(key) == digest:
        return 0
    web = set(ws.web_sources)
    latest = snaps.latest()
    added = 0
    for sha, rec in snaps.entries():
        if rec.source not in web and not ws.under_roots(rec.source):
            continue
        mark = f"snapshot:{sha}:{rec.source}"
        if ws.store.git_seen(mark):
            continue
        parse_name = None
        if rec.source in web:
            fetch = rec.fetches[-1] if rec.fetches else (latest.get(rec.source) or {}).get("fetch") or {}
            parse_name = parse_name_of(rec.source, fetch.get("content_type"))
            if parse_name is None:
                continue
        data = snaps.read(sha)
        if data is None:
            continue
        if ws.index_bytes(rec.source, data, parse_name=parse_name, snapshot=False) is not None:
            added += 1
        ws.store.mark_git_seen(mark)
    ws.store.cache_put(key, digest)
    if added:
        log.info("restored %d version(s) from %s", added, snaps.where)
    return added


def index_web(ws: SnapshotSite) -> tuple[list[str], int, dict[str, str]]:
    """Make each web source's latest fetch its current version: (indexed, unchanged, errors).
    Nothing is downloaded here (only `cairn fetch` does)."""
    indexed: list[str] = []
    unchanged = 0
    errors: dict[str, str] = {}
    latest = ws.snapshots.latest()
    for url in ws.web_sources:
        entry = latest.get(url)
        if entry is None:
            errors[url] = "a web source not fetched yet: run `cairn fetch`"
            continue
        sha = entry["version"]
        fetch = entry.get("fetch") or {}
        parse_name = parse_name_of(url, fetch.get("content_type") if isinstance(fetch, dict) else None)
        if parse_name is None:
            errors[url] = "its latest fetch has no content type Cairn parses"
            continue
        cur = ws.store.current_version(url)
        if cur is not None and cur.version == sha:
            unchanged += 1
            continue
        data = ws.snapshots.read(sha)
        if data is None:
            errors[url] = f"the snapshot of its latest fetch ({sha[:12]}) is missing or damaged: run `cairn fetch`"
            continue
        if ws.index_bytes(url, data, current=True, parse_name=parse_name, snapshot=False) is None:
            errors[url] = "its latest fetch cannot be parsed"
            continue
        indexed.append(url)
    return indexed, unchanged, errors


def held(ws: SnapshotSite) -> set[tuple[str, str]]:
    """(sha, source) of every snapshot record whose version the index holds now (before `gc`)."""
    web = set(ws.web_sources)
    return {(sha, rec.source) for sha, rec in ws.snapshots.entries()
            if (rec.source in web or ws.under_roots(rec.source))
            and ws.store.version_info(rec.source, sha) is not None}


def sweep(ws: SnapshotSite, before: set[tuple[str, str]]) -> int:
    """After `gc`: remove the snapshot records of the versions it dropped (of `before`, what
    `held` gave); a snapshot the index never held is left alone. How many were removed."""
    removed = 0
    for sha, source in sorted(before):
        if ws.store.version_info(source, sha) is None and ws.snapshots.forget(sha, source):
            removed += 1
    return removed


def forget_sources(ws: SnapshotSite, sources: list[str]) -> int:
    """`gc --purge`: remove every snapshot record of these sources; how many."""
    wanted = set(sources)
    removed = 0
    for sha, rec in list(ws.snapshots.entries()):
        if rec.source in wanted and ws.snapshots.forget(sha, rec.source):
            removed += 1
    return removed
