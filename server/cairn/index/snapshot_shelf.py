"""Where the snapshots (index.snapshots) are kept: a shelf of named byte strings.

- `FolderShelf`: `.cairn/snapshots/` in the workspace (the SQLite index beside it), meant to be
  committed; the record of what this machine wrote, `.cairn/snapshots.local`, in the ignored
  part of `.cairn`. A symbolic link is never followed, a file is read with a limit.
- `DatabaseShelf`: the shared PostgreSQL index's own table (SPEC section 1: on that store the
  snapshots live in the database), so nothing is written in the workspace. Every machine's
  signed lines sit in the same table; each machine can prove only its own.

Names are those of the folder: `<sha>.gz`, `<sha>.json`, `web.json`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Protocol

from ..store import STORE_DIR, IndexStore, StoreUnavailable
from ..store.base import STORE_GITIGNORE

SNAPSHOT_DIR = "snapshots"
LOCAL_FILE = "snapshots.local"
OLD_GITIGNORE = "*\n"  # what Cairn wrote before snapshots: replaced, anything else is the user's
LOCAL_PREFIX = "local/"  # the database's rows of signed lines (one row a line)


class Shelf(Protocol):
    where: str  # what messages name: `.cairn/snapshots/` or the shared index

    def usable(self) -> bool: ...

    def label(self, name: str) -> str: ...  # one snapshot file as messages name it

    def ensure(self) -> None: ...  # ready to be written (OSError when it cannot be)

    def get(self, name: str, limit: int) -> bytes | None: ...

    def put(self, name: str, data: bytes) -> None: ...  # atomic; OSError when not written

    def delete(self, name: str) -> None: ...

    def names(self) -> list[str]: ...

    def exists(self, name: str) -> bool: ...

    def sizes(self) -> dict[str, int]: ...  # name -> bytes kept

    def local(self, limit: int) -> bytes: ...  # the signed lines, one a line

    def add_local(self, line: str) -> None: ...


def _write_new(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def read_limited(path: Path, limit: int) -> bytes | None:
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


def write_gitignore(folder: Path) -> None:
    """`.cairn/.gitignore`: the index ignored, the snapshots kept. Written when missing or when
    it is the one an earlier Cairn wrote (`*`); never through a symbolic link."""
    path = folder / ".gitignore"
    try:
        if os.path.islink(path):
            return
        if path.exists():
            if (read_limited(path, 1024 * 1024) or b"").decode("utf-8", errors="replace") != OLD_GITIGNORE:
                return
            tmp = folder / ".gitignore.tmp"
            _write_new(tmp, STORE_GITIGNORE.encode())
            os.replace(tmp, path)
            return
        _write_new(path, STORE_GITIGNORE.encode())
    except OSError:  # a read-only workspace: snapshots are still written where they can be
        pass


class FolderShelf:
    def __init__(self, root: Path) -> None:
        self.store_dir = root / STORE_DIR
        self.folder = self.store_dir / SNAPSHOT_DIR
        self.where = f"{STORE_DIR}/{SNAPSHOT_DIR}/"

    def label(self, name: str) -> str:
        return self.where + name

    def usable(self) -> bool:
        """The folder is a real folder inside a real `.cairn` (a link there is never followed)."""
        return not os.path.islink(self.store_dir) and not os.path.islink(self.folder) and self.folder.is_dir()

    def ensure(self) -> None:
        if os.path.islink(self.store_dir):
            raise OSError(f"{self.store_dir} is a symbolic link")
        self.store_dir.mkdir(exist_ok=True)
        write_gitignore(self.store_dir)
        if os.path.islink(self.folder):
            raise OSError(f"{self.folder} is a symbolic link")
        self.folder.mkdir(exist_ok=True)

    def get(self, name: str, limit: int) -> bytes | None:
        return read_limited(self.folder / name, limit)

    def put(self, name: str, data: bytes) -> None:
        tmp = self.folder / f".{name}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, self.folder / name)

    def delete(self, name: str) -> None:
        if os.path.lexists(self.folder / name):
            os.unlink(self.folder / name)

    def names(self) -> list[str]:
        if not self.usable():
            return []
        try:
            return sorted(os.listdir(self.folder))
        except OSError:
            return []

    def exists(self, name: str) -> bool:
        path = self.folder / name
        return os.path.isfile(path) and not os.path.islink(path)

    def sizes(self) -> dict[str, int]:
        out = {}
        for name in self.names():
            try:
                st = os.lstat(self.folder / name)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                out[name] = st.st_size
        return out

    def local(self, limit: int) -> bytes:
        return read_limited(self.store_dir / LOCAL_FILE, limit) or b""

    def add_local(self, line: str) -> None:
        path = self.store_dir / LOCAL_FILE
        if os.path.islink(path):
            return
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


class DatabaseShelf:
    """The snapshots in the shared index (`IndexStore.snapshot_*`). A role that may only read
    keeps none (a write is an OSError, as for a read-only folder)."""

    def __init__(self, store: IndexStore) -> None:
        self.store = store
        self.where = f"the shared index {store.where} (table cairn_snapshots)"
        self._names: set[str] | None = None  # read once, then kept up to date by this process

    def _known(self) -> set[str]:
        if self._names is None:
            self._names = set(self.store.snapshot_names())
        return self._names

    def label(self, name: str) -> str:
        return f"{name} in {self.where}"

    def usable(self) -> bool:
        return True

    def ensure(self) -> None:
        pass

    def get(self, name: str, limit: int) -> bytes | None:
        data = self.store.snapshot_get(name)
        return None if data is None or len(data) > limit else data

    def put(self, name: str, data: bytes) -> None:
        try:
            self.store.snapshot_put(name, data)
        except StoreUnavailable as exc:
            raise OSError(str(exc)) from None
        self._known().add(name)

    def delete(self, name: str) -> None:
        try:
            self.store.snapshot_delete(name)
        except StoreUnavailable as exc:
            raise OSError(str(exc)) from None
        self._known().discard(name)

    def names(self) -> list[str]:
        self._names = None  # a full listing is read afresh (another client may have added some)
        return sorted(n for n in self._known() if not n.startswith(LOCAL_PREFIX))

    def exists(self, name: str) -> bool:
        return name in self._known()

    def sizes(self) -> dict[str, int]:
        return {n: size for n, size in self.store.snapshot_sizes().items() if not n.startswith(LOCAL_PREFIX)}

    def local(self, limit: int) -> bytes:
        rows = self.store.snapshot_values(LOCAL_PREFIX)
        return b"\n".join(rows)[:limit]

    def add_local(self, line: str) -> None:
        tag = line.rsplit("\t", 1)[-1]
        self.put(LOCAL_PREFIX + tag, line.encode("utf-8", "surrogatepass"))
