"""Snapshots: the record of every indexed source version, kept beside the index (SPEC section 1).

`.cairn/index.db` is a cache; `.cairn/snapshots/` is the record. Each source version Cairn
indexes is written there once, gzip-compressed and named by the SHA-256 of its bytes
(`<sha>.gz`), with a small JSON sidecar (`<sha>.json`) naming the sources that had these
bytes, the parser lineage each was indexed with and, for a web source, its fetch records.
A fresh or deleted index is rebuilt from them (`restore`), so the verdicts of old citations
outlive the cache.

The folder is meant to be committed, so it may come from anyone: a snapshot is used only
when its bytes hash to its name (else it is ignored and reported), a sidecar is read with
limits, and what this machine wrote itself is kept apart in `.cairn/snapshots.local` (in
the ignored part of `.cairn`), each line signed with the machine key (store.provenance), so
a cloned repository cannot pass off its snapshots, or its fetch records, as this machine's.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..store import provenance
from .snapshot_shelf import LOCAL_FILE, SNAPSHOT_DIR, FolderShelf, Shelf, write_gitignore

log = logging.getLogger(__name__)

WEB_FILE = "web.json"  # each web source's latest fetch (committed with the snapshots)
NAME = re.compile(r"^([0-9a-f]{64})\.gz$")
MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024  # as a local source (index.workspace.MAX_SOURCE_BYTES)
MAX_SIDECAR_BYTES = 1024 * 1024
MAX_FETCHES = 20  # fetch records kept per source and version (the latest ones)
MAX_LOCAL_BYTES = 64 * 1024 * 1024

REPOSITORY_RECORD = "recorded by the repository, not fetched here"

__all__ = ["LOCAL_FILE", "REPOSITORY_RECORD", "SNAPSHOT_DIR", "Record", "Snapshots", "human_size", "write_gitignore"]


def fetch_key(record: dict[str, Any]) -> str:
    """What names one fetch record among a version's (the facts it states)."""
    return json.dumps([record.get(k) for k in ("time", "status", "final_url", "etag", "last_modified")],
                      ensure_ascii=False)


@dataclass(slots=True)
class Record:
    """What a sidecar says about one source that had a snapshot's bytes."""

    source: str
    lineage: str
    fetches: list[dict[str, Any]] = field(default_factory=list)  # web: oldest first


class Snapshots:
    def __init__(self, root: Path, *, shelf: Shelf | None = None) -> None:
        self.root = root
        # a folder of the workspace, or the shared index's table (snapshot_shelf)
        self.shelf: Shelf = shelf or FolderShelf(root)
        self.where = self.shelf.where
        self.bad: dict[str, str] = {}  # snapshot name -> why it is not used (reported once each)
        self._local: dict[str, set[str]] | None = None  # sha -> sources (and fetches) this machine wrote
        self._cant_write = False

    def has(self, sha: str) -> bool:
        return self.shelf.usable() and self.shelf.exists(f"{sha}.gz")

    # -- writing -----------------------------------------------------------------

    def _ensure(self) -> bool:
        if self._cant_write:
            return False
        try:
            self.shelf.ensure()
            return True
        except OSError as exc:
            self._cant_write = True
            log.warning("snapshots cannot be written to %s (%s): the index is the only copy of old versions",
                        self.where, getattr(exc, "strerror", None) or exc)
            return False

    def write(self, source: str, data: bytes, lineage: str, fetch: dict[str, Any] | None = None) -> str | None:
        """Keep these bytes as a version of `source` (its sha, or None when nothing could be written).
        Writing what is there already changes nothing but the sidecar's new facts. A `fetch`
        record is this machine's own: it is signed in the local record too."""
        sha = hashlib.sha256(data).hexdigest()
        if not self._ensure():
            return None
        try:
            if not self.shelf.exists(f"{sha}.gz") or f"{sha}.gz" in self.bad:
                # mtime 0: the same bytes make the same file on every machine (no merge conflicts)
                self.shelf.put(f"{sha}.gz", gzip.compress(data, compresslevel=6, mtime=0))
                self.bad.pop(f"{sha}.gz", None)
            records = self.records(sha)
            rec = next((r for r in records if r.source == source), None)
            changed = False
            if rec is None:
                rec = Record(source, lineage)
                records.append(rec)
                changed = True
            elif rec.lineage != lineage:
                rec.lineage, changed = lineage, True
            if fetch is not None:
                rec.fetches = (rec.fetches + [fetch])[-MAX_FETCHES:]
                changed = True
            if changed or self.shelf.get(f"{sha}.json", MAX_SIDECAR_BYTES) is None:
                self._write_sidecar(sha, len(data), records)
            self._note_local(sha, source)
            if fetch is not None:
                self._note_local(sha, source, fetch_key(fetch))
        except OSError as exc:
            log.warning("snapshot of %s not written (%s)", source, getattr(exc, "strerror", None) or exc)
            return None
        return sha

    def _write_sidecar(self, sha: str, size: int, records: list[Record]) -> None:
        body = {"version": sha, "bytes": size, "sources": [
            {"source": r.source, "lineage": r.lineage, **({"fetches": r.fetches} if r.fetches else {})}
            for r in sorted(records, key=lambda r: r.source)]}
        self.shelf.put(f"{sha}.json", (json.dumps(body, indent=1, ensure_ascii=False, sort_keys=True)
                                       + "\n").encode("utf-8"))

    # -- reading -----------------------------------------------------------------

    def names(self) -> list[str]:
        """The sha of every snapshot here (whatever its content)."""
        return sorted(m.group(1) for n in self.shelf.names() if (m := NAME.match(n)))

    def records(self, sha: str) -> list[Record]:
        """What the sidecar says (nothing when it is missing, too large or not what Cairn writes)."""
        raw = self.shelf.get(f"{sha}.json", MAX_SIDECAR_BYTES)
        if raw is None:
            return []
        try:
            body = json.loads(raw.decode("utf-8"))
            out = []
            for item in body.get("sources", []):
                src, lin = item.get("source"), item.get("lineage")
                if not isinstance(src, str) or not isinstance(lin, str):
                    continue
                fetches = [f for f in item.get("fetches", []) if isinstance(f, dict)]
                out.append(Record(src, lin, fetches[-MAX_FETCHES:]))
            return out
        except (ValueError, AttributeError, TypeError):
            return []

    def read(self, sha: str, limit: int = MAX_SNAPSHOT_BYTES) -> bytes | None:
        """A snapshot's bytes when they hash to its name; else None, and the snapshot is reported."""
        name = f"{sha}.gz"
        if name in self.bad:
            return None
        raw = self.shelf.get(name, limit)  # compressed is never larger in practice
        if raw is None:
            return None
        try:
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            data = d.decompress(raw, limit + 1)
            if len(data) > limit or d.unconsumed_tail:
                return self._reject(name, f"larger than {limit // (1024 * 1024)} MB once decompressed")
        except zlib.error as exc:
            return self._reject(name, f"not a gzip file ({exc})")
        if hashlib.sha256(data).hexdigest() != sha:
            return self._reject(name, "its bytes do not hash to its name")
        return data

    def _reject(self, name: str, why: str) -> bytes | None:
        self.bad[name] = why
        log.warning("snapshot %s is ignored, never used as evidence: %s", self.shelf.label(name), why)
        return None

    def entries(self) -> Iterator[tuple[str, Record]]:
        """(sha, record) of every snapshot and source its sidecar names."""
        for sha in self.names():
            for rec in self.records(sha):
                yield sha, rec

    def size(self) -> tuple[int, int, int]:
        """(snapshots, bytes kept, bytes of the versions they hold, as the sidecars say)."""
        count = disk = raw = 0
        sizes = self.shelf.sizes()
        for sha in self.names():
            if f"{sha}.gz" not in sizes:
                continue
            disk += sizes[f"{sha}.gz"]
            count += 1
            side = self.shelf.get(f"{sha}.json", MAX_SIDECAR_BYTES)
            if side is not None:
                disk += len(side)
                try:
                    raw += int(json.loads(side).get("bytes", 0))
                except (ValueError, AttributeError, TypeError):
                    pass
        return count, disk, raw

    # -- removing ----------------------------------------------------------------

    def forget(self, sha: str, source: str) -> bool:
        """Remove `source` from a snapshot; the snapshot goes with its last source. True when removed."""
        records = self.records(sha)
        left = [r for r in records if r.source != source]
        if len(left) == len(records) and records:
            return False
        try:
            if left:
                size = len(self.read(sha) or b"")
                self._write_sidecar(sha, size, left)
            else:
                for n in (f"{sha}.gz", f"{sha}.json"):
                    self.shelf.delete(n)
        except OSError as exc:
            log.warning("snapshot %s not removed (%s)", sha, getattr(exc, "strerror", None) or exc)
            return False
        return True

    # -- what this machine wrote ---------------------------------------------------

    def _line(self, sha: str, source: str) -> str:
        msg = f"{sha}\n{source}".encode("utf-8", "surrogatepass")
        return provenance.mac(provenance.machine_key(), msg).hex()

    def _load_local(self) -> dict[str, set[str]]:
        if self._local is None:
            self._local = {}
            raw = self.shelf.local(MAX_LOCAL_BYTES)
            for line in raw.decode("utf-8", "replace").splitlines():
                parts = line.split("\t")
                if len(parts) != 3:
                    continue
                sha, source, tag = parts
                try:
                    source = json.loads(source)
                except ValueError:
                    continue
                if isinstance(source, str) and provenance.same(bytes.fromhex(tag) if _hex(tag) else None,
                                                               bytes.fromhex(self._line(sha, source))):
                    self._local.setdefault(sha, set()).add(source)
        return self._local

    def _note_local(self, sha: str, source: str, fetch: str | None = None) -> None:
        # a fetch is noted under its source and its facts (fetch_key): "<source>\n<facts>"
        what = source if fetch is None else f"{source}\n{fetch}"
        local = self._load_local()
        if what in local.get(sha, set()):
            return
        local.setdefault(sha, set()).add(what)
        self.shelf.add_local(f"{sha}\t{json.dumps(what, ensure_ascii=False)}\t{self._line(sha, what)}")

    def written_here(self, sha: str, source: str) -> bool:
        """Did Cairn on this machine write (or fetch) this version of this source?"""
        return source in self._load_local().get(sha, set())

    def fetched_here(self, sha: str, source: str, record: dict[str, Any]) -> bool:
        """Is this fetch record of this version one this machine's own `cairn fetch` made?"""
        mine = self._load_local().get(sha, set())
        if f"{source}\n{fetch_key(record)}" in mine:
            return True
        # a version fetched here before fetches were signed one by one: all its records are ours
        return source in mine and not any(w.startswith(source + "\n") for w in mine)

    # -- web sources: the latest fetch of each URL ----------------------------------

    def latest(self) -> dict[str, dict[str, Any]]:
        """URL -> {"version": sha, "fetch": record} of its latest fetch."""
        if not self.shelf.usable():
            return {}
        raw = self.shelf.get(WEB_FILE, MAX_SIDECAR_BYTES * 16)
        if raw is None:
            return {}
        try:
            body = json.loads(raw.decode("utf-8"))
        except ValueError:
            return {}
        if not isinstance(body, dict):
            return {}
        return {k: v for k, v in body.items()
                if isinstance(k, str) and isinstance(v, dict) and isinstance(v.get("version"), str)
                and re.fullmatch(r"[0-9a-f]{64}", v["version"])}

    def set_latest(self, url: str, sha: str, fetch: dict[str, Any]) -> None:
        if not self._ensure():
            return
        body = self.latest()
        body[url] = {"version": sha, "fetch": fetch}
        try:
            self.shelf.put(WEB_FILE, (json.dumps(body, indent=1, ensure_ascii=False, sort_keys=True)
                                      + "\n").encode("utf-8"))
        except OSError as exc:
            log.warning("the latest fetch of %s not recorded (%s)", url, getattr(exc, "strerror", None) or exc)


def _hex(s: str) -> bool:
    return bool(re.fullmatch(r"[0-9a-f]{32}", s))


def human_size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"
