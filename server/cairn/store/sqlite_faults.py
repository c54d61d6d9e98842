"""How SQLite's failures are told apart: real damage (the file is not an index
Cairn can use: it is moved aside and made anew) and a store unavailable now
(read-only, full, I/O, locked: the file is left as it is), and the guards that
turn every SQLite error of a store method into one of Cairn's StoreErrors."""

from __future__ import annotations

import contextlib
import functools
import logging
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from .base import StoreError

log = logging.getLogger("cairn.store")


class StoreDamaged(StoreError, sqlite3.DatabaseError):
    """Found damaged in the middle of a run (Store.recover moves it aside and starts afresh)."""


class _Damage(Exception):
    """Found at open: the file is not an index this Cairn can use."""


# SQLite's primary result codes (sqlite3.SQLITE_* on Python 3.11+)
_CORRUPT, _NOTADB, _ERROR = 11, 26, 1
_IOERR_SHORT_READ = 522  # the file ends before its pages do: truncated
_UNAVAILABLE = {
    3: "permission denied",  # PERM
    5: "locked by another process",  # BUSY
    6: "locked by another process",  # LOCKED
    7: "out of memory",  # NOMEM
    8: "it is read-only",  # READONLY
    10: "disk I/O error",  # IOERR
    13: "the disk is full",  # FULL
    14: "the file cannot be opened",  # CANTOPEN
    15: "locking protocol error",  # PROTOCOL
    22: "the file is too large for this system",  # NOLFS
    23: "access denied",  # AUTH
}


def _code(exc: BaseException) -> int | None:
    return getattr(exc, "sqlite_errorcode", None)


def is_damage(exc: BaseException) -> bool:
    """Real damage: the file is not an SQLite database, or not one of Cairn's
    (a failed page, a table without the columns Cairn reads)."""
    if isinstance(exc, StoreDamaged):
        return True
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = _code(exc)
    if code is None:  # an older sqlite3 module: by the message
        msg = str(exc).lower()
        return "not a database" in msg or "malformed" in msg or "no such" in msg
    return code == _IOERR_SHORT_READ or (code & 0xFF) in (_CORRUPT, _NOTADB, _ERROR)


def unavailable_reason(exc: BaseException) -> str | None:
    """Why the index cannot be used now (read-only, full, I/O, locked), or None."""
    if not isinstance(exc, sqlite3.Error) or is_damage(exc):
        return None
    code = _code(exc)
    if code is None:
        msg = str(exc).lower()
        for word, reason in (("locked", "locked by another process"), ("busy", "locked by another process"),
                             ("readonly", "it is read-only"), ("disk is full", "the disk is full"),
                             ("i/o", "disk I/O error"), ("unable to open", "the file cannot be opened")):
            if word in msg:
                return reason
        return None
    return _UNAVAILABLE.get(code & 0xFF)


F = TypeVar("F", bound=Callable[..., Any])


def guarded(verb: str) -> Callable[[F], F]:
    """A Store method whose SQLite failures become StoreDamaged or StoreUnavailable
    (which say which index and what failed), so no caller meets a raw SQLite error."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return fn(self, *args, **kwargs)
            except sqlite3.Error as exc:
                raise self.failure(exc, verb) from exc

        return method  # type: ignore[return-value]  # the same signature, wrapped

    return wrap


def best_effort(fn: F) -> F:
    """A cache write: an index that cannot be written now (read-only, full)
    only means the entry is not kept."""

    @functools.wraps(fn)
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(self, *args, **kwargs)
        except sqlite3.Error as exc:
            reason = unavailable_reason(exc)
            if reason is None:
                raise self.failure(exc, "write") from exc
            if not self._told_cache:
                self._told_cache = True
                log.info("the index %s is not written (%s): cached verdicts are not kept", self.path, reason)
            return None

    return method  # type: ignore[return-value]  # the same signature, wrapped



@contextlib.contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction (BEGIN IMMEDIATE ... COMMIT): all of the block's writes
    or none; any error rolls it back and goes on to the caller."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back what is left of a transaction: SQLite may already have rolled it
    back after an I/O error, and a failed rollback must not hide the first error."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _unlink_if_link(p: Path) -> None:
    if p.is_symlink():
        log.warning("%s is a symbolic link; Cairn's index files never are: the link is removed", p)
        try:
            p.unlink()
        except OSError as exc:
            raise StoreError(f"{p} is a symbolic link that cannot be removed: {exc.strerror or exc}") from exc

