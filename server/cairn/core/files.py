"""Reading a file of the workspace (a draft, a source, cairn.toml, a list of web sources):
only a regular file is ever read, and finding out never blocks.

`Path.read_bytes()` on a named pipe waits for a writer that may never come, and on a
device reads whatever it hands out (/dev/zero: forever). Here the file is looked at
first (`stat`, links followed), then opened without blocking (`O_NONBLOCK`: opening a
pipe for reading returns at once) and looked at again through the open descriptor
(`fstat`), so a file swapped for a pipe between the two is still refused before a
byte is read. A refusal is a `NotRegularFile`, an OSError whose message says what
the file is, so every caller that already reports an unreadable file reports it too.
"""

from __future__ import annotations

import errno
import os
import stat

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class NotRegularFile(OSError):
    """A file that is not a regular file (a pipe, a device, a socket, a folder): not read."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        message = f"not a regular file ({kind}): not read"
        super().__init__(errno.EINVAL, message, os.fspath(path))
        self.kind = kind

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def kind_of(mode: int) -> str:
    """What a file of this mode is, in words."""
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a plain file"


def is_regular(path: str | os.PathLike[str]) -> bool:
    """Whether the path (links followed) is a regular file; False when it cannot be looked at."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def not_regular(path: str | os.PathLike[str]) -> str | None:
    """What the path is when it exists and is not a regular file ("a named pipe"), else None."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return None if stat.S_ISREG(mode) else kind_of(mode)


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a regular file (at most `limit` of them when given); a pipe, a device, a
    socket or a folder raises NotRegularFile without waiting, other failures their OSError."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, kind_of(mode))
    fd = os.open(path, _FLAGS)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # swapped since the stat above
            raise NotRegularFile(path, kind_of(mode))
        # O_NONBLOCK means nothing to a regular file's reads
        with os.fdopen(fd, "rb", closefd=True) as f:
            fd = -1
            return f.read() if limit is None else f.read(limit)
    finally:
        if fd >= 0:
            os.close(fd)


def read_regular_text(path: str | os.PathLike[str], encoding: str = "utf-8", errors: str = "strict") -> str:
    """A regular file's text (see read_regular)."""
    return read_regular(path).decode(encoding, errors)
