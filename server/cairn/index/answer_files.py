"""The answers of a workspace (SPEC section 5): the files named on the command line, else the
`drafts` globs, else the Markdown files outside the source roots that hold a cite block."""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path, PurePosixPath

from ..core.config import Settings
from ..core.files import is_regular, not_regular, read_regular
from ..core.gitsafe import run_git
from .access import SKIP_DIRS, SourceAccess

# what a named folder or a `drafts` glob takes as answers: Markdown drafts and JSON answers (SPEC section 3)
ANSWER_SUFFIXES = (".md", ".json", ".jsonl")


def _head(path: Path) -> bytes | None:
    """The first 16 MB of a Markdown file, read once for discovery (the cheap tests
    for a cite block and for a near-miss fence; the real parser decides the rest)."""
    try:
        return read_regular(path, 16 * 1024 * 1024)
    except OSError:
        return None


class AnswerFiles(SourceAccess):
    """Which files of a workspace are its answers, the drafts and JSON answers to check."""

    root: Path
    settings: Settings
    near_misses: list[Path]
    last_answers: list[Path]
    # what the last answers() passed over for not being a regular file: path -> what it is
    # ("a named pipe"), so a writer who made one is told why it is not checked
    special_answers: dict[Path, str]

    def drafts_glob(self, pattern: str) -> list[Path]:
        """The paths a `drafts` glob names below the root. `drafts/**` is every file below
        drafts/, as in `exclude` and a policy's path (Path.glob gives only the folders for a
        pattern ending in `**`)."""
        if pattern == "**" or pattern.endswith("/**"):
            pattern += "/*"
        return list(self.root.glob(pattern))

    def _excluded(self, rel: str) -> bool:
        return any(fnmatch.fnmatch(rel, pat) or PurePosixPath(rel).match(pat) for pat in self.settings.config.exclude)

    def answers(self, paths: list[Path] | None = None) -> list[Path]:
        """The drafts to check: named paths, else `drafts` globs, else discovery."""
        self.near_misses = []
        self.special_answers = {}
        self.last_answers = self._answers(paths)
        return self.last_answers

    def _answers(self, paths: list[Path] | None) -> list[Path]:
        if paths:
            out: list[Path] = []
            for p in paths:
                # the rule of globs and discovery: a regular file whose real path is inside
                if p.is_dir():
                    out += sorted(x for x in p.rglob("*") if x.suffix.lower() in ANSWER_SUFFIXES
                                  and self._draft_file(x) and not self._hidden(x, p))
                elif self._draft_file(p):
                    out.append(p)
            # an answer is one draft file: named twice (`a.md ./a.md`, or also through its folder) it is one
            seen: set[str] = set()
            unique = []
            for p in out:
                if (real := os.path.realpath(p)) not in seen:
                    seen.add(real)
                    unique.append(p)
            return [p for p in unique if not self.is_under_source_root(p)]
        cfg = self.settings.config
        if cfg.drafts:
            found: set[Path] = set()
            for pat in cfg.drafts:
                for p in self.drafts_glob(pat):
                    if p.suffix.lower() in ANSWER_SUFFIXES and self._draft_file(p):
                        found.add(p)
            return sorted(
                p for p in found if not self.is_under_source_root(p) and not self._excluded(self.relpath(p))
            )
        candidates = []
        ignored = self._git_ignored()
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS)
            for name in sorted(filenames):
                if not name.lower().endswith(".md"):
                    continue
                p = Path(dirpath) / name
                rel = self.relpath(p)
                if rel in ignored or self.is_under_source_root(p) or self._excluded(rel):
                    continue
                if self._draft_file(p):
                    candidates.append(p)
        from ..drafts import has_cite_block, might_have_near_miss

        with_blocks: list[Path] = []
        self.near_misses = []
        for p in candidates:
            text = _head(p)
            if text is None:
                continue
            if b"cite" in text and has_cite_block(text.decode("utf-8", "replace")):
                with_blocks.append(p)
            elif might_have_near_miss(text.decode("utf-8", "replace")):
                self.near_misses.append(p)
        return with_blocks

    def _draft_file(self, p: Path) -> bool:
        """A regular file whose real path is inside the workspace: a link to a pipe or a
        device (/dev/stdin would block, or eat the server's protocol stream) or to a file
        elsewhere is not a draft of this workspace."""
        try:
            real = p.resolve()
        except (OSError, RuntimeError):
            return False
        if not (real == self.root or self.root in real.parents):
            return False
        if is_regular(real):
            return True
        kind = not_regular(real)
        if kind is not None and kind != "a folder" and not self.is_under_source_root(p):
            self.special_answers[p] = kind
        return False

    @staticmethod
    def _hidden(p: Path, base: Path) -> bool:
        try:
            parts = p.relative_to(base).parts
        except ValueError:
            return False
        return any(x.startswith(".") or x in SKIP_DIRS for x in parts[:-1])

    def _git_ignored(self) -> set[str]:
        out = run_git(self.root, "ls-files", "--others", "--ignored", "--exclude-standard", "-z", timeout=20)
        if out is None:
            return set()
        prefix = self._git_prefix()
        names = set()
        for raw in out.split(b"\0"):
            if raw:
                name = raw.decode("utf-8", "replace")
                names.add(name)
                if prefix and name.startswith(prefix):
                    names.add(name[len(prefix):])
        return names

    def _git_prefix(self) -> str:
        out = run_git(self.root, "rev-parse", "--show-prefix", timeout=10)
        return out.decode().strip() if out is not None else ""
