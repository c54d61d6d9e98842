"""Running git on a workspace Cairn may not trust.

A repository's own configuration (`.git/config`, which a downloaded or
copied workspace brings along) can name programs that git runs by itself:
`core.fsmonitor` on any command that reads the index (`ls-files`),
`gpg.program` with `log.showSignature` on `git log` over a signed commit, a
promisor remote's `uploadpack` or transport on a lazy fetch of a blob a
partial clone lacks (`cat-file`). Cairn only reads history, so every git
call turns these off, never fetches and never takes optional locks (it
writes nothing into `.git`).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SAFE_CONFIG = (
    "core.fsmonitor=false",
    "log.showSignature=false",
    "protocol.allow=never",
)


def git_command(root: Path | str, *args: str) -> list[str]:
    """`git -C root args...` with the repository's program-running settings turned off."""
    cmd = ["git"]
    for setting in SAFE_CONFIG:
        cmd += ["-c", setting]
    return [*cmd, "-C", str(root), *args]


def git_env() -> dict[str, str]:
    return {
        **os.environ,
        "GIT_NO_LAZY_FETCH": "1",  # a partial clone never fetches a missing blob
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",  # no index refresh written back
    }


def run_git(root: Path | str, *args: str, timeout: float = 30) -> bytes | None:
    """A git command's output, run as above; None when git is missing, fails or times out."""
    try:
        out = subprocess.run(git_command(root, *args), capture_output=True, timeout=timeout, env=git_env())
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None
