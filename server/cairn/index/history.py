"""Finding a chunk id in the committed history of the sources (SPEC section 2):
a fresh clone resolves an old citation the way the writer's machine did.

The source the citation names is searched first, then every source root,
newest commit first, within a bound; each version read is indexed as
superseded, so the next lookup needs no git at all.

Only the workspace's own repository is read: the one whose `.git` folder is
a real folder at the workspace root or at a folder above it that holds the
workspace. A `.git` file (`gitdir: /elsewhere/.git`), a `.git` link, a
`core.worktree` naming another folder, a `commondir` naming another
repository, an `objects` link or `objects/info/alternates` would otherwise
copy another repository's committed text into this index, and let a draft
probe it chunk id by chunk id (the caller's `GIT_DIR` and the like are never
passed to git: core.gitsafe). Then history is not used, and the reason is logged
once. Whatever goes wrong in a lookup, the answer is "not found": the
citation gets its diagnostic as without git, never an exception.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.gitsafe import git_records, run_git
from ..sources import is_source_name
from ..store import StoreError
from .rebuild import restore

if TYPE_CHECKING:
    from .workspace import Workspace

log = logging.getLogger(__name__)

MAX_COMMITS = 200
MAX_BLOBS = 2000
MAX_BLOB_BYTES = 64 * 1024 * 1024
# a search lists at most this many tree entries (of every kind: an old commit may hold
# hundreds of thousands of images) and takes at most this long; then it stops and says so
MAX_ENTRIES = 1_000_000
MAX_SECONDS = 20.0

_told: set[tuple[Path, str]] = set()  # reasons already logged (a run makes several History objects)


def own_repository(root: Path) -> tuple[Path | None, str | None]:
    """(the top level of the workspace's own git repository, None) or (None, why
    history is not used); (None, None) when the workspace is in no repository."""
    out = run_git(root, "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir", timeout=10)
    if out is None:
        if run_git(root, "rev-parse", "--git-dir", timeout=10) is None:
            return None, None  # not a repository at all: nothing to say
        return None, "git cannot tell the repository's top-level folder (a bare repository, or core.worktree)"
    lines = out.decode("utf-8", "surrogateescape").splitlines()
    if len(lines) != 3:
        return None, "git gave an unexpected answer to rev-parse"
    try:
        top = Path(lines[0]).resolve()
        git_dir = Path(lines[1]).resolve()
        common_dir = (root / lines[2]).resolve()  # relative to the folder git ran in, when relative
    except (OSError, RuntimeError) as exc:
        return None, f"the repository's folders cannot be resolved ({exc})"
    if top != root and top not in root.parents:
        return None, f"its work tree is {top}, which does not hold the workspace (core.worktree)"
    dot_git = top / ".git"
    try:
        mode = os.lstat(dot_git).st_mode
    except OSError:
        return None, f"{dot_git} is missing (the repository is elsewhere: GIT_DIR or core.worktree)"
    if not stat.S_ISDIR(mode):
        kind = "a symbolic link" if stat.S_ISLNK(mode) else "a file"
        return None, f"{dot_git} is {kind} pointing to a repository elsewhere ({git_dir})"
    if git_dir != dot_git:
        return None, f"git reads the repository at {git_dir}, not {dot_git}"
    why = _elsewhere(dot_git, common_dir)
    return (None, why) if why is not None else (top, None)


def _elsewhere(dot_git: Path, common_dir: Path) -> str | None:
    """Why the repository's history lives (partly) outside its own `.git` folder, or None:
    a `commondir` naming another repository, an `objects` folder that is a link or
    resolves elsewhere, or alternates (objects read from another repository's store)."""
    if common_dir != dot_git:
        return f"its commondir names another repository ({common_dir})"
    objects = dot_git / "objects"
    try:
        if stat.S_ISLNK(os.lstat(objects).st_mode) or objects.resolve().parent != dot_git:
            return f"{objects} is a link to objects elsewhere"
    except (OSError, RuntimeError):
        return f"{objects} cannot be read"
    for name in ("alternates", "http-alternates"):
        if os.path.lexists(objects / "info" / name):
            return f"{objects / 'info' / name} reads objects from another repository"
    return None


class History:
    def __init__(self, workspace: Workspace) -> None:
        self.ws = workspace
        self._toplevel: Path | None | bool = False  # False: not looked up yet
        self.unused_reason: str | None = None  # why history is not used, when it is not
        self._missing: set[str] = set()  # ids already searched for in vain this run
        self.generation = 0  # bumped whenever a version from history is stored
        # scopes read to the end at this HEAD: every blob in them is indexed (or marked seen),
        # so a later miss needs no second scan (hundreds of stale ids cost one scan, not hundreds)
        self._done: tuple[str | None, set[str]] = (None, set())
        self._restored = False  # the snapshots brought into the index (rebuild.restore) by this object
        # why a search this run stopped at a bound before its end (None: each read all it could);
        # once one has, this run searches no more (each would stop at the same bound)
        self.stopped: str | None = None

    def toplevel(self) -> Path | None:
        """The top level of the workspace's own repository; None when history is not used."""
        if self._toplevel is False:
            top, why = own_repository(self.ws.root)
            self._toplevel = top
            self.unused_reason = why
            if why is not None and (self.ws.root, why) not in _told:
                _told.add((self.ws.root, why))
                log.warning("git history is not used: %s", why)
        return self._toplevel  # type: ignore[return-value]

    def _prefix(self) -> str:
        top = self.toplevel()
        if top is None:
            return ""
        rel = self.ws.root.relative_to(top).as_posix()
        return "" if rel == "." else rel + "/"

    def find(self, chunk_id: str, source_hint: str | None = None) -> bool:
        """Index the first committed version that holds `chunk_id`; True when found."""
        if chunk_id in self._missing:
            return False
        if not self._restored:
            # the snapshots first (.cairn/snapshots/, a deleted index's record), then git
            self._restored = True
            try:
                added = restore(self.ws)
            except StoreError as exc:  # an index it cannot write (read-only): checked as it is
                added = 0
                log.warning("the snapshots were not restored into the index: %s", exc)
            if added:
                self.generation += 1
                if self.ws.store.lookup(chunk_id):
                    return True
        try:
            return self._find(chunk_id, source_hint)
        except (sqlite3.Error, StoreError):
            raise  # the index's own trouble: the caller's to handle (rebuild, or exit 2)
        except Exception as exc:  # a failed lookup is "not found", never no diagnostics
            self._missing.add(chunk_id)
            if self.unused_reason is None:
                self.unused_reason = f"looking {chunk_id} up failed ({type(exc).__name__}: {exc})"
                log.warning("git history is not used: %s", self.unused_reason, exc_info=exc)
            return False

    def _find(self, chunk_id: str, source_hint: str | None) -> bool:
        if self.stopped is not None:  # a search this run already stopped at a bound: one costly scan a run
            self._missing.add(chunk_id)
            return False
        top = self.toplevel()
        if top is None:
            return False
        # git reads pathspecs relative to its working folder: run at the top level,
        # where the workspace's files are `prefix + identity`
        prefix = self._prefix()
        paths: list[str] = []
        if source_hint and self.ws.under_roots(source_hint):
            paths.append(source_hint)
        paths += [r for r in self.ws.roots]
        head_out = run_git(self.ws.root, "rev-parse", "HEAD", timeout=10)
        head = head_out.decode().strip() if head_out else None
        if self._done[0] != head:
            self._done = (head, set())
        done = self._done[1]
        scan = _Scan(time.monotonic() + MAX_SECONDS)
        for scope in paths:
            if scope in done:
                continue
            found = self._scan_scope(top, prefix, scope, chunk_id, scan)
            if found:
                return True
            if scan.stopped is not None:
                self.stopped = scan.stopped
                log.warning("the git history search for chunk %s was cut short: %s", chunk_id, scan.stopped)
                break
            if head is not None:
                done.add(scope)
        # a blob seen already may have been indexed by another process (a CLI
        # beside the server) after our caller looked in the store
        if self.ws.store.lookup(chunk_id):
            self.generation += 1
            return True
        self._missing.add(chunk_id)
        return False

    def _scan_scope(self, top: Path, prefix: str, scope: str, chunk_id: str, scan: _Scan) -> bool:
        """Read the versions of one scope (a source or a root), newest commit first, until
        `chunk_id` is found (True) or a bound of `scan` is reached (scan.stopped says which)."""
        commits = run_git(top, "log", f"-n{MAX_COMMITS}", "--format=%H", "--", prefix + scope,
                          timeout=max(1.0, scan.deadline - time.monotonic()))
        if not commits:
            return False
        for commit in commits.decode().split():
            # a tree listed once needs no second listing: most commits leave most folders as they were
            tree = run_git(top, "rev-parse", "--verify", "-q", f"{commit}:{prefix + scope}", timeout=10)
            if tree is not None:
                if (scope, tree) in scan.trees:
                    continue
                scan.trees.add((scope, tree))
            if time.monotonic() >= scan.deadline:
                scan.stopped = f"it took over {MAX_SECONDS:g} s (the bound for one search)"
                return False
            for entry in git_records(top, "ls-tree", "-r", "-z", commit, "--", prefix + scope, deadline=scan.deadline):
                if not entry:
                    continue
                scan.entries += 1
                if scan.entries > MAX_ENTRIES:
                    scan.stopped = f"it listed {MAX_ENTRIES:,} tree entries (the bound for one search)"
                    return False
                meta, _, name = entry.partition(b"\t")
                parts = meta.split()
                # regular files only: a symbolic link's blob is the path it points to
                if len(parts) < 3 or parts[1] != b"blob" or parts[0] not in (b"100644", b"100755"):
                    continue
                blob = parts[2].decode()
                path = name.decode("utf-8", "replace")
                if prefix and not path.startswith(prefix):
                    continue
                ident = path[len(prefix):]
                if not is_source_name(ident) or not self.ws.under_roots(ident):
                    continue
                key = f"{blob}:{ident}"
                if key in scan.seen or self.ws.store.git_seen(key):
                    continue
                scan.seen.add(key)
                scan.blobs += 1
                if scan.blobs > MAX_BLOBS:
                    if self.ws.store.lookup(chunk_id):
                        self.generation += 1
                        return True
                    scan.stopped = f"it read {MAX_BLOBS:,} versions of sources (the bound for one search)"
                    return False
                if self._read_blob(blob, ident, chunk_id, commit):
                    return True
            if time.monotonic() >= scan.deadline:
                scan.stopped = f"it took over {MAX_SECONDS:g} s (the bound for one search)"
                return False
        return False

    def _read_blob(self, blob: str, ident: str, chunk_id: str, commit: str) -> bool:
        """Index one committed version; True when it holds `chunk_id`."""
        size = run_git(self.ws.root, "cat-file", "-s", blob)
        if size is None or int(size.strip() or 0) > MAX_BLOB_BYTES:
            self.ws.store.mark_git_seen(f"{blob}:{ident}")
            return False
        data = run_git(self.ws.root, "cat-file", "blob", blob, timeout=60)
        if data is None:
            return False
        if self.ws.index_bytes(ident, data) is not None:
            self.generation += 1
        self.ws.store.mark_git_seen(f"{blob}:{ident}")
        if self.ws.store.lookup(chunk_id):
            log.info("found chunk %s in %s at commit %s", chunk_id, ident, commit[:10])
            return True
        return False


class _Scan:
    """What one history search has spent, against its bounds."""

    __slots__ = ("deadline", "entries", "blobs", "trees", "seen", "stopped")

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.entries = 0  # tree entries listed
        self.blobs = 0  # versions of sources read
        self.trees: set[tuple[str, bytes]] = set()  # (scope, tree) listed already
        self.seen: set[str] = set()  # blob:identity pairs passed this search
        self.stopped: str | None = None  # why the search stopped before its end
