"""Provenance of the index: what Cairn itself wrote on this machine.

The `.cairn` folder travels with a workspace (a commit made with
`git add -f`, an archive, a synced folder), so its content may come from
anyone. Cairn signs what it stores there with a key that never leaves this
machine: `$XDG_DATA_HOME/cairn/index-key` (else `~/.local/share/cairn`;
`%LOCALAPPDATA%\\cairn` on Windows), 32 random bytes made on first use,
readable by the user alone. Each stored version, chunk and cache entry
carries a MAC of its content under that key (keyed BLAKE2b, 16 bytes); a row
whose MAC does not check was not written by Cairn on this machine, or was
changed since, and is never trusted as the current text of a source.

Without a usable key file (no home folder, a read-only one, a key file that
others can read), the process makes a key of its own: nothing an earlier run
stored is proven, so every run re-derives the current versions from the
files, as for a foreign index. Slower, never less safe.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import stat
import threading
from pathlib import Path

log = logging.getLogger(__name__)

KEY_FILE = "index-key"
MAC_BYTES = 16

_lock = threading.Lock()
_key: bytes | None = None


def user_folder(xdg_var: str, home_default: str, windows_sub: str = "") -> Path | None:
    """Cairn's folder of one kind in the user's own space, outside every workspace:
    `$<xdg_var>/cairn`, else `~/<home_default>/cairn`; on Windows
    `%LOCALAPPDATA%\\cairn`, then `windows_sub` when given. None when none is known."""
    base = os.environ.get(xdg_var, "")
    if base and os.path.isabs(base):
        return Path(base) / "cairn"
    if os.name == "nt":
        local = os.environ.get("LOCALAPPDATA", "")
        if not local:
            return None
        folder = Path(local) / "cairn"
        return folder / windows_sub if windows_sub else folder
    try:
        return Path.home() / home_default / "cairn"
    except (RuntimeError, KeyError):  # no home folder known
        return None


def key_dir() -> Path | None:
    """Where the machine key is kept (outside every workspace)."""
    return user_folder("XDG_DATA_HOME", ".local/share")


def machine_key() -> bytes:
    """This machine's key (made on first use); a key of this process alone when
    none can be kept, with a warning saying so."""
    global _key
    with _lock:
        if _key is None:
            folder = key_dir()
            try:
                if folder is None:
                    raise OSError("no home folder or XDG_DATA_HOME to keep it in")
                _key = _read_or_make(folder / KEY_FILE)
            except (OSError, ValueError) as exc:
                log.warning(
                    "cannot keep Cairn's key in %s (%s): nothing stored by an earlier run is trusted,"
                    " so current versions are re-read from the files on every run",
                    folder / KEY_FILE if folder else "a data folder", getattr(exc, "strerror", None) or exc,
                )
                _key = secrets.token_bytes(32)
        return _key


def _read_or_make(path: Path) -> bytes:
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.parent / f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_hex(32) + "\n")
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)  # fails if another process made the key meanwhile: theirs wins
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            os.replace(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return _read(path)


def _read(path: Path) -> bytes:
    # O_NONBLOCK: a pipe put in the key's place opens at once, and its mode refuses it
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "r", encoding="ascii") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file")
        if os.name != "nt":
            if st.st_uid != os.geteuid():
                raise ValueError("owned by another user")
            if st.st_mode & 0o077:
                raise ValueError("others may read it (it must be mode 600)")
        key = bytes.fromhex(f.read(200).strip())
    if len(key) != 32:
        raise ValueError("not a key of 32 bytes")
    return key


def mac(key: bytes, message: bytes) -> bytes:
    # BLAKE2b's keyed mode is a MAC by design, and about a third cheaper here than HMAC-SHA256
    return hashlib.blake2b(message, key=key, digest_size=MAC_BYTES).digest()


def same(a: bytes | None, b: bytes) -> bool:
    return a is not None and hmac.compare_digest(a, b)
