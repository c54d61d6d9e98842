"""What each source file hashed to when it was last read, keyed by its file status.

A pass over the sources (`cairn check`, `cairn index`) used to read and hash
every file to learn whether it changed: at 1 GB of sources that is 1 GB read,
and from disk whenever the page cache has been reclaimed. Like git's index,
Cairn keeps, per source, the status the file had when it was read (size,
modification and change times in nanoseconds, inode, device) and the SHA-256
of its bytes. A file whose status is unchanged is not read again.

Why this is safe:

- Any write to a file changes its change time (ctime), which no user call can
  set back; restoring the modification time (`touch -d`, `rsync -t`) is not
  enough to hide an edit.
- A file modified or touched within `SETTLE_SECONDS` of being read is not
  recorded (a later write within the same clock tick could leave its status
  unchanged); it is read again next time, until it has settled.
- The record is kept outside the workspace, in the user's cache folder
  (`$XDG_CACHE_HOME/cairn/source-status/`, else `~/.cache/cairn/...`;
  `%LOCALAPPDATA%\\cairn\\cache` on Windows), one file per workspace folder:
  nothing a workspace ships can stand in for it, and a workspace on a shared
  index gets it too without Cairn writing into the workspace. It carries a MAC
  under this machine's key (cairn.provenance) bound to the workspace folder,
  so a file that was not written for this folder is ignored, never trusted.
  Inode and device numbers differ in every copy of a folder anyway.
- It only ever saves reading: a source whose recorded hash is not the
  store's current version is read and parsed as before.

Losing the record (deleted, damaged, unwritable folder) costs one full read.
Records not used for `MAX_AGE_DAYS` are removed when another is saved.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import stat
import time
from collections.abc import Iterable
from pathlib import Path

from ..store import provenance

log = logging.getLogger(__name__)

FOLDER = "source-status"
FORMAT = "cairn-source-status 1"
MAX_AGE_DAYS = 60
SETTLE_SECONDS = 2.0
MAX_BYTES = 256 * 1024 * 1024  # a larger file is not Cairn's: ignored

Status = tuple[int, int, int, int, int]  # size, mtime_ns, ctime_ns, inode, device


def status_of(st: os.stat_result) -> Status:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _status(raw: list) -> Status:
    size, mtime, ctime, ino, dev = (int(x) for x in raw)
    return (size, mtime, ctime, ino, dev)


def cache_dir() -> Path | None:
    """Where the records are kept (outside every workspace), None when no such folder is known."""
    folder = provenance.user_folder("XDG_CACHE_HOME", ".cache", "cache")
    return folder / FOLDER if folder is not None else None


class SourceStatus:
    """The record of one workspace: `known()` to look up, `note()` to add, `save()`."""

    def __init__(self, root: Path):
        self.root = root
        self._root_bytes = os.fsencode(str(root.absolute()))  # what the file's name and its MAC are bound to
        folder = cache_dir()
        name = hashlib.sha256(self._root_bytes).hexdigest()[:32]
        self.path = folder / f"{name}.json" if folder is not None else None
        self._entries: dict[str, tuple[Status, str]] = {}
        self._changed = False
        self._load()

    def _mac(self, body: bytes) -> str:
        message = FORMAT.encode() + b"\0" + self._root_bytes + b"\0" + body
        return provenance.mac(provenance.machine_key(), message).hex()

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            # O_NONBLOCK: a pipe in its place opens at once and is refused by its mode below
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return  # none yet, or a link: start empty
        try:
            with os.fdopen(fd, "rb") as f:
                st = os.fstat(f.fileno())
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
                    return
                head, _, body = f.read().partition(b"\n")
            name, _, mac = head.decode("ascii").rpartition(" ")
            if name != FORMAT or not provenance.same(bytes.fromhex(mac), bytes.fromhex(self._mac(body))):
                log.info("%s was not written by Cairn on this machine for this folder: ignored", self.path)
                return
            raw = json.loads(body)
            self._entries = {str(k): (_status(v[0]), str(v[1])) for k, v in raw.items()}
            os.utime(self.path)  # in use: kept by _prune
        except (OSError, ValueError, TypeError, IndexError, AttributeError) as exc:
            log.info("ignoring %s: %s", self.path, exc)
            self._entries = {}

    def known(self, ident: str, status: Status) -> str | None:
        """The recorded hash of this source when its file still has this status."""
        got = self._entries.get(ident)
        return got[1] if got is not None and got[0] == status else None

    def note(self, ident: str, status: Status, version: str) -> None:
        """Record what a file just read hashed to, once it has settled."""
        if time.time() - max(status[1], status[2]) / 1e9 < SETTLE_SECONDS:
            if self._entries.pop(ident, None) is not None:
                self._changed = True
            return
        if self._entries.get(ident) != (status, version):
            self._entries[ident] = (status, version)
            self._changed = True

    def forget(self, ident: str) -> None:
        if self._entries.pop(ident, None) is not None:
            self._changed = True

    def keep_only(self, idents: Iterable[str]) -> None:
        keep = set(idents)
        gone = [k for k in self._entries if k not in keep]
        for k in gone:
            del self._entries[k]
        self._changed = self._changed or bool(gone)

    def save(self) -> None:
        """Write the record when it changed: a file of its own, renamed into place, never
        through a link. Best effort: a workspace that cannot be written only reads more."""
        if not self._changed:
            return
        if self.path is None:
            return
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            log.info("cannot make %s: %s", folder, exc)
            return
        self._prune(folder)
        body = json.dumps({k: [list(s), v] for k, (s, v) in sorted(self._entries.items())},
                          separators=(",", ":")).encode()
        tmp = folder / f".{self.path.stem}.{os.getpid()}.{secrets.token_hex(4)}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(f"{FORMAT} {self._mac(body)}\n".encode() + body)
            os.replace(tmp, self.path)
            self._changed = False
        except OSError as exc:
            log.info("cannot save %s: %s", self.path, exc)
            try:
                os.unlink(tmp)
            except OSError:
                pass

    def _prune(self, folder: Path) -> None:
        """Remove the records of folders no pass has used for MAX_AGE_DAYS (a workspace
        deleted or moved); at most once a day (the time stamp of a marker file)."""
        now = time.time()
        marker = folder / ".pruned"
        try:
            if marker.exists() and now - marker.stat().st_mtime < 24 * 3600:
                return
            marker.touch()
            for p in folder.glob("*.json"):
                if now - p.stat().st_mtime > MAX_AGE_DAYS * 24 * 3600:
                    p.unlink()
        except OSError:
            pass
