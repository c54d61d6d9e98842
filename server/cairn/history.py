"""Finding a chunk id in the committed history of the sources (SPEC section 2):
a fresh clone resolves an old citation the way the writer's machine did.

The source the citation names is searched first, then every source root,
newest commit first, within a bound; each version read is indexed as
superseded, so the next lookup needs no git at all.
"""

from __future__ import annotations

import logging
from pathlib import Path

from .gitsafe import run_git
from .sources import is_source_name

log = logging.getLogger(__name__)

MAX_COMMITS = 200
MAX_BLOBS = 2000
MAX_BLOB_BYTES = 64 * 1024 * 1024


class History:
    def __init__(self, workspace):
        self.ws = workspace
        self._toplevel: Path | None | bool = False  # False: not looked up yet
        self._missing: set[str] = set()  # ids already searched for in vain this run
        self.generation = 0  # bumped whenever a version from history is stored
        # scopes read to the end at this HEAD: every blob in them is indexed (or marked seen),
        # so a later miss needs no second scan (hundreds of stale ids cost one scan, not hundreds)
        self._done: tuple[str | None, set[str]] = (None, set())

    def toplevel(self) -> Path | None:
        if self._toplevel is False:
            out = run_git(self.ws.root, "rev-parse", "--show-toplevel", timeout=10)
            self._toplevel = Path(out.decode().strip()).resolve() if out else None
        return self._toplevel  # type: ignore[return-value]

    def _prefix(self) -> str:
        top = self.toplevel()
        if top is None:
            return ""
        rel = self.ws.root.relative_to(top).as_posix()
        return "" if rel == "." else rel + "/"

    def find(self, chunk_id: str, source_hint: str | None = None) -> bool:
        """Index the first committed version that holds `chunk_id`; True when found."""
        if chunk_id in self._missing or self.toplevel() is None:
            return False
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
        blobs_read = 0
        for scope in paths:
            if scope in done:
                continue
            commits = run_git(self.ws.root, "log", f"-n{MAX_COMMITS}", "--format=%H", "--", prefix + scope if prefix else scope)
            if not commits:
                continue
            for commit in commits.decode().split():
                listing = run_git(self.ws.root, "ls-tree", "-r", "-z", commit, "--", f"{prefix}{scope}")
                if not listing:
                    continue
                for entry in listing.split(b"\0"):
                    if not entry:
                        continue
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
                    if self.ws.store.git_seen(f"{blob}:{ident}"):
                        continue
                    blobs_read += 1
                    if blobs_read > MAX_BLOBS:
                        if self.ws.store.lookup(chunk_id):
                            self.generation += 1
                            return True
                        self._missing.add(chunk_id)
                        return False
                    size = run_git(self.ws.root, "cat-file", "-s", blob)
                    if size is None or int(size.strip() or 0) > MAX_BLOB_BYTES:
                        self.ws.store.mark_git_seen(f"{blob}:{ident}")
                        continue
                    data = run_git(self.ws.root, "cat-file", "blob", blob, timeout=60)
                    if data is None:
                        continue
                    if self.ws.index_bytes(ident, data) is not None:
                        self.generation += 1
                    self.ws.store.mark_git_seen(f"{blob}:{ident}")
                    if self.ws.store.lookup(chunk_id):
                        log.info("found chunk %s in %s at commit %s", chunk_id, ident, commit[:10])
                        return True
            if head is not None:
                done.add(scope)
        # a blob seen already may have been indexed by another process (a CLI
        # beside the server) after our caller looked in the store
        if self.ws.store.lookup(chunk_id):
            self.generation += 1
            return True
        self._missing.add(chunk_id)
        return False
