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
import os
import re
import stat
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.files import read_regular
from ..store import STORE_DIR, provenance
from ..store.base import STORE_GITIGNORE

log = logging.getLogger(__name__)

SNAPSHOT_DIR = "snapshots"
LOCAL_FILE = "snapshots.local"
WEB_FILE = "web.json"  # in snapshots/: each web source's latest fetch (committed with the snapshots)
NAME = re.compile(r"^([0-9a-f]{64})\.gz$")
MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024  # as a local source (index.workspace.MAX_SOURCE_BYTES)
MAX_SIDECAR_BYTES = 1024 * 1024
MAX_FETCHES = 20  # fetch records kept per source and version (the latest ones)

GITIGNORE = STORE_GITIGNORE
OLD_GITIGNORE = "*\n"  # what Cairn wrote before snapshots: replaced, anything else is the user's

REPOSITORY_RECORD = "recorded by the repository, not fetched here"


def write_gitignore(folder: Path) -> None:
    """`.cairn/.gitignore`: the index ignored, the snapshots kept. Written when missing or when
    it is the one an earlier Cairn wrote (`*`); never through a symbolic link."""
    path = folder / ".gitignore"
    try:
        if os.path.islink(path):
            return
        if path.exists():
            if read_regular(path).decode("utf-8", errors="replace") != OLD_GITIGNORE:
                return
            tmp = folder / ".gitignore.tmp"
            _write_new(tmp, GITIGNORE.encode())
            os.replace(tmp, path)
            return
        _write_new(path, GITIGNORE.encode())
    except OSError:  # a read-only workspace: snapshots are still written where they can be
        pass


def _write_new(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def _read_limited(path: Path, limit: int) -> bytes | None:
    """A regular file's bytes (never through a link), None when missing, a link or too large."""
    try:
        # not blocking: a pipe put there opens at once and is refused by its mode
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        data = f.read(limit + 1)
    return None if len(data) > limit else data


@dataclass(slots=True)
class Record:
    """What a sidecar says about one source that had a snapshot's bytes."""

    source: str
    lineage: str
    fetches: list[dict[str, Any]] = field(default_factory=list)  # web: oldest first


class Snapshots:
    def __init__(self, root: Path, *, enabled: bool = True) -> None:
        self.root = root
        # off with a shared index (PostgreSQL): it keeps every version for everyone, and nothing is
        # written in the workspace; what a workspace already holds is still read
        self.enabled = enabled
        self.store_dir = root / STORE_DIR
        self.folder = self.store_dir / SNAPSHOT_DIR
        self.bad: dict[str, str] = {}  # snapshot name -> why it is not used (reported once each)
        self._local: dict[str, set[str]] | None = None  # sha -> sources this machine wrote
        self._cant_write = False

    # -- where -------------------------------------------------------------------

    def usable(self) -> bool:
        """The folder is a real folder inside a real `.cairn` (a link there is never followed)."""
        return not os.path.islink(self.store_dir) and not os.path.islink(self.folder) and self.folder.is_dir()

    def blob_path(self, sha: str) -> Path:
        return self.folder / f"{sha}.gz"

    def sidecar_path(self, sha: str) -> Path:
        return self.folder / f"{sha}.json"

    def has(self, sha: str) -> bool:
        return os.path.isfile(self.blob_path(sha))

    # -- writing -----------------------------------------------------------------

    def _ensure(self) -> bool:
        if self._cant_write or not self.enabled:
            return False
        try:
            if os.path.islink(self.store_dir):
                raise OSError(f"{self.store_dir} is a symbolic link")
            self.store_dir.mkdir(exist_ok=True)
            write_gitignore(self.store_dir)
            if os.path.islink(self.folder):
                raise OSError(f"{self.folder} is a symbolic link")
            self.folder.mkdir(exist_ok=True)
            return True
        except OSError as exc:
            self._cant_write = True
            log.warning("snapshots cannot be written to %s (%s): the index is the only copy of old versions",
                        self.folder, getattr(exc, "strerror", None) or exc)
            return False

    def write(self, source: str, data: bytes, lineage: str, fetch: dict[str, Any] | None = None) -> str | None:
        """Keep these bytes as a version of `source` (its sha, or None when nothing could be written).
        Writing what is there already changes nothing but the sidecar's new facts."""
        sha = hashlib.sha256(data).hexdigest()
        if not self._ensure():
            return None
        try:
            blob = self.blob_path(sha)
            if not os.path.isfile(blob) or os.path.islink(blob):
                tmp = self.folder / f".{sha}.{os.getpid()}.tmp"
                with open(tmp, "wb") as f:
                    # mtime 0: the same bytes make the same file on every machine (no merge conflicts)
                    f.write(gzip.compress(data, compresslevel=6, mtime=0))
                os.replace(tmp, blob)
                self.bad.pop(blob.name, None)
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
            if changed or not self.sidecar_path(sha).is_file():
                self._write_sidecar(sha, len(data), records)
            self._note_local(sha, source)
        except OSError as exc:
            log.warning("snapshot of %s not written (%s)", source, getattr(exc, "strerror", None) or exc)
            return None
        return sha

    def _write_sidecar(self, sha: str, size: int, records: list[Record]) -> None:
        body = {"version": sha, "bytes": size, "sources": [
            {"source": r.source, "lineage": r.lineage, **({"fetches": r.fetches} if r.fetches else {})}
            for r in sorted(records, key=lambda r: r.source)]}
        tmp = self.folder / f".{sha}.{os.getpid()}.json.tmp"
        tmp.write_text(json.dumps(body, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, self.sidecar_path(sha))

    # -- reading -----------------------------------------------------------------

    def names(self) -> list[str]:
        """The sha of every snapshot file here (whatever its content)."""
        if not self.usable():
            return []
        try:
            return sorted(m.group(1) for n in os.listdir(self.folder) if (m := NAME.match(n)))
        except OSError:
            return []

    def records(self, sha: str) -> list[Record]:
        """What the sidecar says (nothing when it is missing, too large or not what Cairn writes)."""
        raw = _read_limited(self.sidecar_path(sha), MAX_SIDECAR_BYTES)
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
        raw = _read_limited(self.blob_path(sha), limit)  # compressed is never larger in practice
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
        log.warning("snapshot %s/%s is ignored, never used as evidence: %s", SNAPSHOT_DIR, name, why)
        return None

    def entries(self) -> Iterator[tuple[str, Record]]:
        """(sha, record) of every snapshot and source its sidecar names."""
        for sha in self.names():
            for rec in self.records(sha):
                yield sha, rec

    def size(self) -> tuple[int, int, int]:
        """(snapshots, bytes on disk, bytes of the versions they hold, as the sidecars say)."""
        count = disk = raw = 0
        for sha in self.names():
            try:
                disk += self.blob_path(sha).stat().st_size
            except OSError:
                continue
            count += 1
            side = _read_limited(self.sidecar_path(sha), MAX_SIDECAR_BYTES)
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
                for p in (self.blob_path(sha), self.sidecar_path(sha)):
                    if os.path.lexists(p):
                        os.unlink(p)
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
            raw = _read_limited(self.store_dir / LOCAL_FILE, 64 * 1024 * 1024) or b""
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

    def _note_local(self, sha: str, source: str) -> None:
        local = self._load_local()
        if source in local.get(sha, set()):
            return
        local.setdefault(sha, set()).add(source)
        path = self.store_dir / LOCAL_FILE
        if os.path.islink(path):
            return
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{sha}\t{json.dumps(source, ensure_ascii=False)}\t{self._line(sha, source)}\n")

    def written_here(self, sha: str, source: str) -> bool:
        """Did Cairn on this machine write (or fetch) this version of this source?"""
        return source in self._load_local().get(sha, set())

    # -- web sources: the latest fetch of each URL ----------------------------------

    def latest(self) -> dict[str, dict[str, Any]]:
        """URL -> {"version": sha, "fetch": record} of its latest fetch."""
        if not self.usable():
            return {}
        raw = _read_limited(self.folder / WEB_FILE, MAX_SIDECAR_BYTES * 16)
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
        tmp = self.folder / f".{WEB_FILE}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(body, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, self.folder / WEB_FILE)


def _hex(s: str) -> bool:
    return bool(re.fullmatch(r"[0-9a-f]{32}", s))


def human_size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"
