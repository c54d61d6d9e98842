"""`cairn fetch` (SPEC sections 2 and 7): download the web sources, keep each response whose
bytes differ as a new version (its snapshot and fetch record, index.snapshots), and make
the latest fetch the source's current version. Nothing else downloads: `check`, `index`
and the server index the latest fetch kept in the snapshots.

The web sources are the http(s) URLs in `sources` and in a `web.txt` at the top of a source
root (one URL a line; `#` starts a comment).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..core.config import Settings
from ..core.files import read_regular
from ..sources import web
from ..store import IndexStore
from .rebuild import parse_name_of
from .snapshots import Snapshots

WEB_LIST = "web.txt"
MAX_LIST_BYTES = 1024 * 1024


def web_sources(root: Path, settings: Settings, readable: Callable[[str], bool]) -> tuple[list[str], dict[str, str]]:
    """(the workspace's web sources, in order; entries that are not fetchable URLs and why).
    `readable`: may this file under a root be read (the workspace's access rule)."""
    found: list[str] = []
    problems: dict[str, str] = {}
    entries = list(settings.web_urls())
    for r in settings.source_roots():
        ident = WEB_LIST if r == "." else f"{r}/{WEB_LIST}"
        path = root / ident
        if not path.is_file() or not readable(ident):
            continue
        try:
            raw = read_regular(path, MAX_LIST_BYTES + 1)
        except OSError:
            continue
        if len(raw) > MAX_LIST_BYTES:
            problems[ident] = f"larger than {MAX_LIST_BYTES // 1024} KB: not read"
            continue
        for line in raw.decode("utf-8", "replace").splitlines():
            line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
            if line:
                entries.append(line)
    for url in entries:
        why = web.url_problem(url)
        if why:
            problems[url] = why
        elif url not in found:
            found.append(url)
    return found, problems


class FetchSite(Protocol):
    """What fetching needs of a workspace."""

    store: IndexStore

    @property
    def snapshots(self) -> Snapshots: ...

    def index_bytes(self, ident: str, data: bytes, *, current: bool = False,
                    parse_name: str | None = None, snapshot: bool = True) -> int | None: ...


@dataclass(slots=True)
class Fetched:
    url: str
    outcome: str  # "new", "unchanged", "failed"
    version: str | None = None
    message: str = ""
    response: web.Response | None = None
    redirects: list[tuple[int, str]] = field(default_factory=list)


def fetch_one(ws: FetchSite, url: str, *, allow_private: bool, lineage_for: Callable[[str], str],
              conditional: bool = True, **limits: float) -> Fetched:
    """Download one web source and keep what it served. `conditional=False` (`fetch --verify`):
    the whole body is asked for, never a 304, so its bytes are compared."""
    snaps = ws.snapshots
    prev = snaps.latest().get(url)
    etag = last_modified = None
    # a conditional request only on a version this machine fetched itself and still holds: a 304
    # then means the site still serves it (a repository's record is never confirmed that way)
    if conditional and prev is not None and snaps.written_here(prev["version"], url) \
            and snaps.read(prev["version"]) is not None:
        record = prev.get("fetch") or {}
        etag, last_modified = record.get("etag"), record.get("last_modified")
    try:
        resp = web.fetch(url, allow_private=allow_private, etag=etag, last_modified=last_modified,
                         **limits)  # type: ignore[arg-type]
    except web.FetchError as exc:
        return Fetched(url, "failed", message=str(exc))
    if resp.status == 304 and prev is not None:
        data = snaps.read(prev["version"]) or b""
        sha = prev["version"]
        record = {**resp.record(), "content_type": (prev.get("fetch") or {}).get("content_type")}
    else:
        data, sha, record = resp.body, hashlib.sha256(resp.body).hexdigest(), resp.record()
    parse_name = parse_name_of(url, record.get("content_type"))
    if parse_name is None:
        return Fetched(url, "failed", message=f"content type {record.get('content_type')!r} is not parsed"
                       " (HTML, PDF and plain text are)", response=resp, redirects=resp.redirects)
    if ws.index_bytes(url, data, current=True, parse_name=parse_name, snapshot=False) is None:
        return Fetched(url, "failed", message=f"its {record.get('content_type')} cannot be parsed",
                       response=resp, redirects=resp.redirects)
    changed = prev is None or prev["version"] != sha
    snaps.write(url, data, lineage_for(parse_name), fetch=record)
    snaps.set_latest(url, sha, record)
    return Fetched(url, "new" if changed else "unchanged", sha, response=resp, redirects=resp.redirects)
