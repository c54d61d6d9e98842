"""Which files of a workspace are its sources, and who may read them (SPEC section 2).

Only regular files under the source roots are ever read as sources: a path is checked lexically
(no `..`, no absolute path, inside a root) and by its real path (symbolic links followed); the
current principal's access labels decide what may be shown. A link is judged by every path it
goes by: the policy (access, tier, derived) of its own path and of each path it leads to inside
the workspace, the stricter winning, and the rules that keep hidden files, `node_modules/` and
Cairn's own folder from being read apply to its real path as to its own."""

from __future__ import annotations

import os
from pathlib import Path

from ..core.config import Settings
from ..store import STORE_DIR

SKIP_DIRS = {"node_modules", "__pycache__"}
MAX_HOPS = 40  # links followed one by one in a chain (the system's own limit is about as many)


def text_name(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (which os functions hand over as
    lone surrogates) become U+FFFD, so the name can be stored and written as UTF-8."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return os.fsencode(name).decode("utf-8", "replace")


class SourceAccess:
    """Which files of a workspace are its sources, and who may read them (SPEC section 2)."""

    root: Path
    settings: Settings
    _real_roots: list[Path] | None
    _roots: list[str] | None
    _allowed: dict[str, bool]
    _real_dirs: dict[str, str | None]
    _links: dict[str, list[str]]
    _web: list[str] | None

    @property
    def web_sources(self) -> list[str]:
        """The workspace's web sources (URLs, index.fetch); a Workspace lists them."""
        return []

    @property
    def roots(self) -> list[str]:
        if self._roots is None:
            self._roots = self.settings.source_roots()
        return self._roots

    def forget_access(self) -> None:
        """Forget cached access decisions (files or settings changed)."""
        self._allowed.clear()
        self._real_dirs.clear()
        self._links.clear()
        self.settings.policy.forget()
        self._real_roots = None
        self._roots = None
        self._web = None

    def real_roots(self) -> list[Path]:
        if self._real_roots is None:
            self._real_roots = [(self.root / r).resolve() for r in self.roots]
        return self._real_roots

    def identity(self, path: Path) -> str | None:
        """The source identity of a path, or None when it is not under the roots."""
        try:
            rel = path.absolute().relative_to(self.root)
        except ValueError:
            try:
                rel = path.resolve().relative_to(self.root)
            except ValueError:
                return None
        ident = rel.as_posix()
        return ident if self.under_roots(ident) else None

    def under_roots(self, identity: str) -> bool:
        """Lexical check: a relative path with `/`, no `..`, inside a root."""
        if not identity or "\\" in identity or "\x00" in identity or identity.startswith("/"):
            return False
        if any(part in ("..", "", ".") for part in identity.split("/")):
            return False
        if len(identity) > 1 and identity[1] == ":":
            return False
        for root in self.roots:
            if root == "." or identity.startswith(root + "/"):
                return True
        return False

    def allowed(self, identity: str) -> bool:
        """May this source be read and shown? Under the source roots (in_roots)
        and readable by the current principal (permitted). Every output filters
        by this; indexing reads by in_roots, so a source the principal may not
        read is still indexed and its citations are `source-denied`, not unknown."""
        return self.in_roots(identity) and self.permitted(identity)

    def in_roots(self, identity: str) -> bool:
        """May this file be read at all? Lexically under a root, and its real path
        (symbolic links followed) under a root's real path."""
        got = self._allowed.get(identity)
        if got is None:
            got = self._allowed[identity] = identity in self.web_sources or self._decide_allowed(identity)
        return got

    def _decide_allowed(self, identity: str) -> bool:
        if not self.under_roots(identity):
            return False
        # inside the store's own folder never counts
        if STORE_DIR in identity.split("/"):
            return False
        real = self._real_path(identity)
        if real is None:
            return False
        for r in self.real_roots():
            top = str(r)
            if real == top or real.startswith(top.rstrip("/") + "/"):
                return self.link_target_not_read(identity) is None
        return False

    def link_target_not_read(self, identity: str) -> str | None:
        """Why a link's real path is not read although it is under a root, or None: the
        rules a path is read by apply to where a link leads as to the link (a hidden file or
        folder, node_modules/, __pycache__/, Cairn's own folder)."""
        real = self._real_path(identity)
        if real is None:
            return None
        for r in self.real_roots():
            try:
                parts = Path(real).relative_to(r).parts
            except ValueError:
                continue
            if any(part.startswith(".") or part in SKIP_DIRS or part == STORE_DIR for part in parts):
                return "a link to a hidden file or folder, node_modules/, __pycache__/ or .cairn/: not read"
        return None

    def link_paths(self, identity: str) -> list[str]:
        """The other paths inside the workspace that a source identity goes by: each hop of a
        link (or a chain of links) and the real path it ends at (folder links followed), as
        paths relative to the root; [] for a plain file. The policy applies to each of them
        as to the identity, the stricter winning (SPEC section 2)."""
        got = self._links.get(identity)
        if got is None:
            got = self._links[identity] = [p for p in dict.fromkeys(self._hops(identity)) if p != identity]
        return got

    def _hops(self, identity: str) -> list[str]:
        out: list[str] = []
        path = os.path.join(self.root, identity)
        try:
            for _ in range(MAX_HOPS):
                if not os.path.islink(path):
                    break
                nxt = os.path.join(os.path.dirname(path), os.readlink(path))
                folder, name = os.path.split(nxt)
                path = (os.path.realpath(nxt) if name in ("", ".", "..")
                        else os.path.join(os.path.realpath(folder), name))
                out.append(path)
        except (OSError, RuntimeError, ValueError):
            pass
        real = self._real_path(identity)
        if real is not None:
            out.append(real)
        inside = []
        for p in out:
            try:
                inside.append(text_name(Path(p).relative_to(self.root).as_posix()))
            except ValueError:
                continue  # outside the workspace: the roots check refuses it already
        return inside

    def _real_path(self, identity: str) -> str | None:
        """The real path of a source (symbolic links followed), None when it cannot be
        worked out (a loop of links). A file that is not itself a link is its folder's
        real path and its name, so each folder is resolved once, not once a file."""
        folder, _, name = identity.rpartition("/")
        try:
            if os.path.islink(os.path.join(self.root, identity)):
                return str((self.root / identity).resolve())
        except (OSError, RuntimeError):
            return None
        if folder not in self._real_dirs:
            try:
                self._real_dirs[folder] = str((self.root / folder).resolve())
            except (OSError, RuntimeError):
                self._real_dirs[folder] = None
        real_folder = self._real_dirs[folder]
        return None if real_folder is None else os.path.join(real_folder, name)

    def permitted(self, identity: str) -> bool:
        """May the current principal read this source (its access labels, SPEC
        section 7)? Integrity (the version hash) never enters into it."""
        return self.settings.policy.readable(identity)

    def readable_source(self, identity: str) -> Path | None:
        if not self.in_roots(identity):
            return None
        path = self.root / identity
        return path if path.is_file() else None

    def is_under_source_root(self, path: Path) -> bool:
        try:
            rel = path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return False
        return any(root == "." or rel == root or rel.startswith(root + "/") for root in self.roots)

    def relpath(self, path: Path) -> str:
        """Relative to the root with `/`, as text (see text_name)."""
        try:
            return text_name(path.resolve().relative_to(self.root).as_posix())
        except ValueError:
            return text_name(path.as_posix())
