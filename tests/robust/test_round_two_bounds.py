"""Trust boundaries, round two (issue 45), findings 10, 15 and 16: work bounded by the
input's structure, not only its size. Each test drives the real CLI on a workspace made
here and names its finding (docs/security.md, "Round two: bounded work")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from robust_util import cairn_env

GIT_ENV = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.invalid", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@example.invalid", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}
STALE = (
    "# Draft\n\nRefunds are accepted within 30 days.\n\n```cite\nchunk_id: 0123456789abcdef\n"
    'start: 0\nend: 7\nquote: "Refunds"\nsource: sources/policy.md\n```\n'
)


def workspace(root: Path) -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text("", encoding="utf-8")
    return root


def _data(b: bytes) -> bytes:
    return b"data %d\n" % len(b) + b + b"\n"


def many_entries_repository(root: Path, entries: int, commits: int) -> Path:
    """A repository whose old commits hold `entries` images under the source root, one of
    them changed by each of `commits` commits (so no two trees are the same), all removed
    at HEAD: only the policy is a source now."""
    workspace(root)
    subprocess.run(["git", "init", "-q", str(root)], check=True, env={**os.environ, **GIT_ENV})
    out = [b"blob\nmark :1\n" + _data(b"png"), b"blob\nmark :2\n" + _data(b"# Policy\n\nRefunds within 14 days.\n")]
    for c in range(commits + 1):
        out.append(b"commit HEAD\ncommitter a <a@example.invalid> %d +0000\n" % (1_700_000_000 + c) + _data(b"c"))
        if c == 0:
            out.append(b"M 100644 :2 sources/policy.md\n")
            out.append(b"".join(b"M 100644 :1 sources/assets/f%d.png\n" % i for i in range(entries)))
        elif c < commits:
            out.append(b"M 100644 inline sources/assets/f0.png\n" + _data(str(c).encode()))
        else:
            out.append(b"D sources/assets\n")
    branch = subprocess.run(["git", "-C", str(root), "symbolic-ref", "HEAD"], check=True, capture_output=True,
                            text=True, env={**os.environ, **GIT_ENV}).stdout.strip()
    data = b"".join(out).replace(b"commit HEAD\n", b"commit " + branch.encode() + b"\n")
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input=data, check=True,
                   env={**os.environ, **GIT_ENV})
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "-f"], check=True, env={**os.environ, **GIT_ENV})
    (root / "drafts" / "stale.md").write_text(STALE, encoding="utf-8")
    return root


def cairn_with(root: Path, setting: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The real `cairn` command line, in its own process, with one of its module constants
    lowered first (`module.NAME = value`): a bound the test can reach with a small input."""
    module, _, assignment = setting.partition(":")
    code = (f"import sys, {module} as m; m.{assignment}; from cairn.cli.main import main; "
            "sys.argv[0] = 'cairn'; main()")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=root, capture_output=True, text=True,
                          env=cairn_env(), timeout=timeout)


# --------------------------------------------------------------------------
# Finding 10: a history search is bounded by the entries it lists and by time


def test_a_history_search_stops_at_its_entry_bound_and_says_so(tmp_path: Path):
    """Finding 10: 3,000 images in each of 40 old commits (120,000 tree entries in all, none a
    source). The search for an unknown chunk id lists at most MAX_ENTRIES of them (lowered
    to 5,000 here), and both the warning and the `unknown-chunk` message say the history
    search was cut short and why. Before, every entry of every commit was listed."""
    root = many_entries_repository(tmp_path / "ws", entries=3000, commits=40)
    began = time.monotonic()
    proc = cairn_with(root, "cairn.index.history:MAX_ENTRIES = 5000", "check", "--format", "json")
    took = time.monotonic() - began
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "git history search for chunk 0123456789abcdef was cut short" in proc.stderr, proc.stderr
    assert "5,000 tree entries" in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    diags = [d for draft in report["drafts"] for c in draft["claims"] for d in c["diagnostics"]]
    unknown = [d for d in diags if d["code"] == "unknown-chunk"]
    assert unknown and "history search was cut short" in unknown[0]["message"], diags
    assert took < 30, took
