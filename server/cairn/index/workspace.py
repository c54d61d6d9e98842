"""A workspace: its configuration, its sources, its store and its answers.

This is where access is decided: only regular files under the source roots
are ever read as sources (SPEC section 2).
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..core import chunking
from ..core.config import Settings, load_settings
from ..core.files import read_regular
from ..sources import SourceError, has_extension, is_source_name, parse_bytes, skip_reason
from ..store import STORE_DIR, IndexStore, NewVersion, StoreError, VersionInfo, open_store
from . import rebuild
from .access import SKIP_DIRS, text_name
from .answer_files import AnswerFiles
from .fetch import WEB_LIST, web_sources
from .parallel import PARALLEL_BYTES, Job, Parsers, Stored, Writer
from .snapshot_shelf import DatabaseShelf
from .snapshots import Snapshots
from .statcache import SourceStatus, status_of

log = logging.getLogger(__name__)

MAX_SOURCE_BYTES = 256 * 1024 * 1024


@dataclass(slots=True)
class IndexResult:
    indexed: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)  # source -> message
    warnings: dict[str, list[str]] = field(default_factory=dict)  # source -> messages (e.g. encoding)
    denied: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # file under a root -> why it is not a source
    reused: list[str] = field(default_factory=list)  # of `indexed`: a version the store held already, not parsed
    # of `skipped`: hidden files and folders, node_modules/, __pycache__/, links to folders within the
    # roots: named by `cairn index`, not counted in the other commands' note
    passed_over: set[str] = field(default_factory=set)

    @property
    def total(self) -> int:
        return len(self.indexed) + self.unchanged


ProgressFn = Callable[[int, int, str], None]  # done, total, current source


def lineage_for(name: str) -> str:
    """The parser lineage a file of this name gets, without parsing it."""
    lower = name.lower()
    if lower.endswith((".md", ".txt")) or not has_extension(name):
        from ..sources import text

        return f"{text.PARSER}/{text.VERSION}"
    if lower.endswith((".html", ".htm")):
        from ..sources import html

        return f"{html.PARSER}/{html._lineage()}"
    import pypdf

    from ..sources import pdf

    return f"{pdf.PARSER}/{pdf.VERSION}+pypdf{pypdf.__version__}"


class Workspace(AnswerFiles):
    """A workspace: its configuration, its sources and who may read them (SourceAccess), its store,
    indexing, and its answers (AnswerFiles)."""

    def __init__(self, root: Path, settings: Settings | None = None, *, store: IndexStore | None = None):
        self.root = root.resolve()
        self.settings = settings or load_settings(self.root)
        self.store = store or open_store(self.root, self.settings)
        self._real_roots: list[Path] | None = None
        self._roots: list[str] | None = None
        self._allowed: dict[str, bool] = {}
        self._status: SourceStatus | None = None  # what each source file hashed to (cairn.statcache), read on first use
        self._real_dirs: dict[str, str | None] = {}  # folder identity -> its real path (None: unresolvable)
        self._links: dict[str, list[str]] = {}  # source identity -> the other paths it goes by (links)
        # every rule the policy keys by path also applies to where a link leads (access.link_paths)
        self.settings.policy.aliases = self.link_paths
        # Markdown files discovery passed over that hold a fence almost `cite` (```Cite):
        # not answers, but a writer who meant them as citations is told
        self.near_misses: list[Path] = []
        self.last_answers: list[Path] = []  # what answers() found last
        self.special_answers: dict[Path, str] = {}  # what answers() passed over as no regular file
        # of what list_sources() skipped last: what is passed over as a matter of course (hidden
        # files and folders, node_modules/, __pycache__/, links within the roots), named by
        # `cairn index` but not counted by the other commands
        self.passed_over: set[str] = set()
        self._snapshots: Snapshots | None = None
        self._web: list[str] | None = None
        self.web_problems: dict[str, str] = {}  # entries naming no fetchable URL, and why

    @property
    def snapshots(self) -> Snapshots:
        """The record of every indexed version (index.snapshots): `.cairn/snapshots/`, or the
        shared index's own table on a store that keeps them (PostgreSQL)."""
        if self._snapshots is None:
            shelf = DatabaseShelf(self.store) if self.store.keeps_snapshots else None
            self._snapshots = Snapshots(self.root, shelf=shelf)
        return self._snapshots

    @property
    def web_sources(self) -> list[str]:
        """The web sources (SPEC section 2): the URLs in `sources` and in each root's web.txt."""
        if self._web is None:
            self._web, self.web_problems = web_sources(self.root, self.settings, self._decide_allowed)
        return self._web

    def readable_sources(self, also: Callable[[str], bool] | None = None) -> list[str] | None:
        """The current sources the principal may read (allowed), and that `also` keeps
        when given: the only ones the store's searches rank and limit among (its
        `readable`), so a denied source's text never decides what else comes back.
        None when that is every current source."""
        current = self.store.current_versions()
        keep = [s for s in current if self.allowed(s) and (also is None or also(s))]
        return None if len(keep) == len(current) else sorted(keep)

    # -- sources ------------------------------------------------------------------

    def is_source_file(self, name: str) -> bool:
        """A name read as a source here: a known suffix, or no extension unless
        `text_without_extension` is off."""
        if not has_extension(name):
            return self.settings.config.text_without_extension
        return is_source_name(name)

    def list_sources(self) -> tuple[list[str], list[str], dict[str, str]]:
        """(allowed source identities, denied ones, skipped files and why) under the roots.

        Hidden files and folders (a name starting with `.`), node_modules/ and __pycache__/
        and links to folders are never read, but named among the skipped with the reason
        (a folder once, not each file in it); `passed_over` says which of the skipped are
        such, for the commands that count what they skipped instead of naming it."""
        found: list[str] = []
        denied: list[str] = []
        skipped: dict[str, str] = {}
        self.passed_over = set()
        seen: set[str] = set()
        store_dir = os.path.join(self.root, STORE_DIR)
        for root in self.roots:
            base = self.root / root
            if not base.is_dir():
                continue
            for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
                kept = []
                for d in sorted(dirnames):
                    path = os.path.join(dirpath, d)
                    if path == store_dir:
                        continue  # Cairn's own index, never a source
                    why = self._folder_not_read(d, path)
                    if why is None:
                        kept.append(d)
                        continue
                    ident = text_name(Path(path).relative_to(self.root).as_posix())
                    skipped[ident], passed = why
                    if passed:
                        self.passed_over.add(ident)
                dirnames[:] = kept
                for name in sorted(filenames):
                    ident = (Path(dirpath) / name).relative_to(self.root).as_posix()
                    if STORE_DIR in PurePosixPath(ident).parts:
                        continue
                    if name.startswith("."):
                        skipped[text_name(ident)] = "a hidden file (its name starts with '.'): not read"
                        self.passed_over.add(text_name(ident))
                        continue
                    if name == WEB_LIST and dirpath == str(base):
                        skipped[text_name(ident)] = "the list of web sources: `cairn fetch` downloads them"
                        self.passed_over.add(text_name(ident))
                        continue
                    if not self.is_source_file(name):
                        skipped[text_name(ident)] = (
                            skip_reason(name) if has_extension(name)
                            else "no extension, and text_without_extension = false in cairn.toml")
                        continue
                    if ident in seen:
                        continue
                    seen.add(ident)
                    hidden = self.link_target_not_read(ident)
                    if hidden is not None:
                        skipped[text_name(ident)] = hidden
                    elif not self.in_roots(ident):
                        denied.append(ident)
                    elif (self.root / ident).is_file():
                        found.append(ident)
                    elif not os.path.exists(self.root / ident):
                        skipped[text_name(ident)] = "a symbolic link to nothing (its target does not exist): not read"
                    else:
                        skipped[text_name(ident)] = "not a regular file (a pipe, a device or a socket): not read"
        return found, denied, skipped

    def _folder_not_read(self, name: str, path: str) -> tuple[str, bool] | None:
        """Why a folder under a source root is not walked (and whether it is passed over as a
        matter of course: hidden, node_modules, a link within the roots), or None."""
        if name.startswith("."):
            return "a hidden folder (its name starts with '.'): nothing in it is read", True
        if name in SKIP_DIRS:
            return f"a {name} folder: nothing in it is read", True
        if not os.path.islink(path):
            return None
        try:
            real = os.path.realpath(path, strict=True)
        except (OSError, RuntimeError):
            return "a folder link that cannot be followed (a loop of links, or its target is gone): not read", False
        for r in self.real_roots():
            top = str(r)
            if real == top or real.startswith(top.rstrip("/") + "/"):
                return ("a link to a folder within the source roots: not followed (what it points to is read"
                        " under its own path)", True)
        return "a folder link that leaves the source roots: nothing in it is read", False

    def index(self, progress: ProgressFn | None = None, only: list[str] | None = None) -> IndexResult:
        """Bring the store up to date with the sources on disk (incremental).

        With `only`, just those source identities are looked at (a file
        watcher's report); sources missing from disk are dropped.
        """
        res = IndexResult()
        self.forget_access()
        known: dict[str, VersionInfo] | None = None  # the current versions, read at once for a whole pass
        if only is None:
            sources, res.denied, res.skipped = self.list_sources()
            res.passed_over = set(self.passed_over)
            known = self.store.current_versions()
            stale = known.keys() - sources - set(self.web_sources)
        else:
            sources = [s for s in only if self.is_source_file(s) and self.readable_source(s)]
            stale = {s for s in only if s not in sources}
        for ident in [s for s in sources if text_name(s) != s]:
            # the store and the reports hold text: such a name cannot be a source identity
            sources.remove(ident)
            stale.discard(ident)
            res.errors[text_name(ident)] = "the file name is not valid UTF-8: not read (rename the file)"
        chunk_chars = self.settings.config.chunk_chars
        total = len(sources)
        pending: list[tuple[NewVersion, list[str]]] = []
        pending_chars = 0
        parsers = Parsers(self.PARALLEL_BYTES)
        writer = Writer(self.store)
        batch_files = min(self.BATCH_FILES, self.store.BATCH_FILES)
        batch_chars = min(self.BATCH_CHARS, self.store.BATCH_CHARS)

        def take(outcomes: Iterable[tuple[Job, tuple[NewVersion, list[str]] | None, Exception | None]]) -> None:
            nonlocal pending, pending_chars
            for job, parsed, exc in outcomes:
                if exc is not None:
                    self._parse_failed(job, exc, res)
                    continue
                assert parsed is not None  # an outcome holds either the parse or its error
                self.snapshots.write(job.ident, job.data, parsed[0].lineage)
                pending.append(parsed)
                pending_chars += len(parsed[0].text)
                # the store's own work on it, here while the writer stores the batch before
                self.store.prepare_version(parsed[0])
                if len(pending) >= batch_files or pending_chars >= batch_chars:
                    self._stored(writer.wait(), res)
                    writer.start(pending)  # stored while the next sources are read and parsed
                    pending, pending_chars = [], 0

        try:
            for i, ident in enumerate(sources):
                if progress:
                    progress(i, total, ident)
                try:
                    job = self._prepare(ident, chunk_chars, res, known)
                except Exception as exc:  # one bad source never stops the run
                    if _is_store_failure(exc):
                        raise
                    self._failed(ident, exc, res)
                    continue
                if job is not None:
                    take(parsers.submit(job))
            take(parsers.finish())
            self._stored(writer.wait(), res)
        finally:
            parsers.close()
            writer.close()
        self._store_parsed(pending, res)
        if only is None:
            web, unchanged, errors = rebuild.index_web(self)
            res.indexed += web
            res.unchanged += unchanged
            res.errors.update(errors)
        for ident in sorted(stale):
            self.store.drop_current(ident)
            res.removed.append(ident)
            self.source_status.forget(ident)
        if only is None:
            self.source_status.keep_only(sources)
        self.source_status.save()
        if progress:
            progress(total, total, "")
        return res

    PARALLEL_BYTES = PARALLEL_BYTES  # of sources parsed here before worker processes take over
    # parsed sources are stored together, up to this many files or characters, or the
    # store's own limits when smaller (IndexStore.BATCH_FILES: SQLite's are the larger,
    # which feeds its full-text index larger segments, see store.sqlite_bulk)
    BATCH_FILES = 256
    BATCH_CHARS = 16_000_000

    @property
    def source_status(self) -> SourceStatus:
        """What each source file hashed to when last read (cairn.statcache), read on first use."""
        if self._status is None:
            self._status = SourceStatus(self.root)
        return self._status

    def _prepare(self, ident: str, chunk_chars: int, res: IndexResult,
                 known: dict[str, VersionInfo] | None = None) -> Job | None:
        """Bring one source up to date when the store holds its version; else the job of parsing it.
        `known`: the store's current versions read beforehand (one query for a whole pass instead
        of one a source, which a database server answers over the network); None to ask."""
        path = self.root / ident
        lineage = lineage_for(ident)
        cur = known.get(ident) if known is not None else self.store.current_version(ident)

        def is_current(version: str | None) -> bool:
            return (cur is not None and cur.version == version and cur.lineage == lineage
                    and cur.chunk_chars == chunk_chars)

        try:
            status = status_of(path.stat())
            if status[0] > MAX_SOURCE_BYTES:
                raise SourceError(f"larger than {MAX_SOURCE_BYTES // (1024 * 1024)} MB")
            # the file unchanged since it was last read, as the store's current version
            known_version = self.source_status.known(ident, status)
            if is_current(known_version) and known_version is not None and self.snapshots.has(known_version):
                res.unchanged += 1
                return None
            data = read_regular(path)  # a file swapped for a pipe since it was listed is refused
        except (OSError, SourceError) as exc:
            msg = str(exc) if isinstance(exc, SourceError) else f"cannot read: {exc.strerror or exc}"
            res.errors[ident] = msg
            self.store.record_error(ident, None, msg)
            self.store.drop_current(ident)
            self.source_status.forget(ident)
            return None
        version = hashlib.sha256(data).hexdigest()
        if len(data) == status[0]:
            self.source_status.note(ident, status, version)
        existing = None if is_current(version) else self.store.find_version(ident, version, lineage, chunk_chars)
        if is_current(version) or existing is not None:
            self.snapshots.write(ident, data, lineage)  # the record, when an earlier run kept none
        if is_current(version):
            res.unchanged += 1
            return None
        if existing is not None:
            self.store.set_current(ident, existing)
            res.indexed.append(ident)
            res.reused.append(ident)
            return None
        return Job(ident, version, data, chunk_chars)

    def _parse_failed(self, job: Job, exc: Exception, res: IndexResult) -> None:
        if not isinstance(exc, SourceError):
            self._failed(job.ident, exc, res)
            return
        res.errors[job.ident] = str(exc)
        self.store.record_error(job.ident, job.version, str(exc))
        self.store.drop_current(job.ident)

    def _store_parsed(self, parsed: list[tuple[NewVersion, list[str]]], res: IndexResult) -> None:
        """Store parsed sources in one transaction; if that fails, one by one,
        so that only the source at fault is reported and the others are kept."""
        if not parsed:
            return
        try:
            self.store.add_versions([v for v, _ in parsed])
        except Exception as exc:  # noqa: BLE001 - one bad source never stops the run; _stored raises a store failure
            self._stored((parsed, exc), res)
            return
        self._stored((parsed, None), res)

    def _stored(self, outcome: Stored | None, res: IndexResult) -> None:
        """Note a stored batch (a Writer's outcome); when storing it failed, store its
        sources one by one, so that only the source at fault is reported."""
        if outcome is None:
            return
        parsed, exc = outcome
        stored = parsed
        if exc is not None:
            if _is_store_failure(exc):
                raise exc
            if len(parsed) == 1:
                self._failed(parsed[0][0].source, exc, res)
                return
            stored = []
            for item in parsed:
                try:
                    self.store.add_versions([item[0]])
                    stored.append(item)
                except Exception as one:
                    if _is_store_failure(one):
                        raise
                    self._failed(item[0].source, one, res)
        for v, warnings in stored:
            if warnings:
                res.warnings[v.source] = warnings
                self.store.record_warnings(v.source, v.version, warnings)
            res.indexed.append(v.source)

    def _failed(self, ident: str, exc: Exception, res: IndexResult) -> None:
        log.error("indexing %s failed", ident, exc_info=exc)
        res.errors[ident] = f"{exc.__class__.__name__}: {exc}"
        self.store.record_error(ident, None, res.errors[ident])

    def index_bytes(self, ident: str, data: bytes, *, current: bool = False,
                    parse_name: str | None = None, snapshot: bool = True) -> int | None:
        """Index a version given as bytes (from git history, a snapshot or a fetch), as superseded
        unless `current`. `parse_name`: the file name it is parsed as (a web source's, by its
        content type); `snapshot`: also keep it in the snapshots (not when it comes from there)."""
        version = hashlib.sha256(data).hexdigest()
        if (ident, version) in self.store.purged_versions(ident):
            return None  # removed by `cairn gc --purge`: history never brings it back
        chunk_chars = self.settings.config.chunk_chars
        name = parse_name or ident
        lineage = lineage_for(name)
        existing = self.store.find_version(ident, version, lineage, chunk_chars)
        if existing is not None:
            if current:
                self.store.set_current(ident, existing)
            return existing
        try:
            doc = parse_bytes(name, data)
        except SourceError:
            return None
        if snapshot:
            self.snapshots.write(ident, data, doc.lineage)
        chunks = chunking.chunk_document(ident, doc.text, doc.pages, chunk_chars)
        return self.store.add_version(ident, version, doc.lineage, chunk_chars, doc.text, doc.pages, chunks,
                                      make_current=current, date=doc.date)

def _is_store_failure(exc: Exception) -> bool:
    """A failure of the index itself (damage, I/O, read-only, locked), not of one
    source: it stops the run instead of being blamed on the source being stored."""
    import sqlite3

    if isinstance(exc, StoreError):
        return True
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)
