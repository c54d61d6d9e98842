"""Running git on a workspace Cairn may not trust.

A repository's own configuration (`.git/config`, which a downloaded or
copied workspace brings along) can name programs that git runs by itself:
`core.fsmonitor` on any command that reads the index (`ls-files`),
`gpg.program` with `log.showSignature` on `git log` over a signed commit, a
promisor remote's `uploadpack` or transport on a lazy fetch of a blob a
partial clone lacks (`cat-file`), a pager, an external diff or a textconv
filter. It can also name files git reads as it starts: `[include] path =
/dev/stdin` or `core.excludesFile = /dev/stdin` would make git read the
language server's own input, its JSON-RPC messages. So every git call:

- runs with no standard input (`stdin=DEVNULL`: a config naming /dev/stdin
  reads nothing);
- gets a minimal environment: none of the caller's `GIT_*` variables (a
  `GIT_DIR`, `GIT_COMMON_DIR`, `GIT_OBJECT_DIRECTORY` or
  `GIT_ALTERNATE_OBJECT_DIRECTORIES` would read another repository; a
  `GIT_CONFIG_*` would add settings), no system or user configuration
  (`GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL` the null device, `HOME` an
  empty folder of Cairn's), `PATH` and the C locale;
- turns the program-running settings off with `-c` (SAFE_CONFIG) and
  `--no-pager`, never fetches and never takes optional locks (it writes
  nothing into `.git`).

git has no setting that turns `[include]` off; an include of any other file
is read as configuration like the repository's own, and the settings above
come after it (the command line wins over every file).
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

SAFE_CONFIG = (
    "core.fsmonitor=false",
    "core.hooksPath=" + os.devnull,
    "core.pager=cat",
    "core.excludesFile=",  # only .gitignore files and .git/info/exclude, never a file the config names
    "core.attributesFile=" + os.devnull,
    "core.sshCommand=false",
    "core.askPass=",
    "credential.helper=",
    "diff.external=",
    "log.showSignature=false",
    "protocol.allow=never",
    "safe.bareRepository=explicit",  # a bare repository inside the workspace is never read by itself
)

# what git keeps of the caller's environment (with the C locale, set below)
_KEEP = ("PATH", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP")

_home_lock = threading.Lock()
_home: str | None = None


def _empty_home() -> str:
    """An empty folder of this process's own, for git's HOME (so no ~/.gitconfig is read)."""
    global _home
    with _home_lock:
        if _home is None or not os.path.isdir(_home):
            _home = tempfile.mkdtemp(prefix="cairn-git-home-")
            atexit.register(shutil.rmtree, _home, True)
        return _home


def git_command(root: Path | str, *args: str) -> list[str]:
    """`git -C root args...` with the repository's program-running settings turned off."""
    cmd = ["git", "--no-pager"]
    for setting in SAFE_CONFIG:
        cmd += ["-c", setting]
    return [*cmd, "-C", str(root), *args]


def git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in _KEEP}
    env.update({
        "HOME": _empty_home(),
        "LC_ALL": "C",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_NO_LAZY_FETCH": "1",  # a partial clone never fetches a missing blob
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",  # no index refresh written back
        "GIT_PAGER": "cat",
    })
    return env


def run_git(root: Path | str, *args: str, timeout: float = 30) -> bytes | None:
    """A git command's output, run as above; None when git is missing, fails or times out."""
    try:
        out = subprocess.run(git_command(root, *args), stdin=subprocess.DEVNULL, capture_output=True,
                             timeout=timeout, env=git_env())
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def git_records(root: Path | str, *args: str, deadline: float) -> Iterator[bytes]:
    """The NUL-separated records of a git command's output, read as git writes them, so a
    caller that stops early (a bound reached) never holds the whole listing; git is stopped
    when the caller stops, at `deadline` (time.monotonic()) or on failure. Nothing is
    yielded when git is missing."""
    try:
        proc = subprocess.Popen(git_command(root, *args), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=git_env())
    except OSError:
        return
    assert proc.stdout is not None
    rest = b""
    try:
        while time.monotonic() < deadline:
            block = os.read(proc.stdout.fileno(), 1 << 16)
            if not block:
                break
            *records, rest = (rest + block).split(b"\0")
            yield from records
        else:
            return
        if rest:
            yield rest
    finally:
        proc.kill()
        proc.stdout.close()
        proc.wait()
