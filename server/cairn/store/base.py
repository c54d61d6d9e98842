"""What every chunk store offers (the SQLite file and the shared PostgreSQL
index): the errors they raise, the rows they take and give, and the
interface the engine, the CLI and the language server call.

A store keeps every indexed version of every source (until `cairn gc`), so an
old chunk id still resolves to the text it named; `current` says which version
of each source is on disk now, in this workspace.
"""

from __future__ import annotations

import os
import re
import zlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.chunking import RawChunk
from ..core.model import Chunk

STORE_DIR = ".cairn"


# the store folder's `.gitignore`: the index is a cache, never committed; snapshots/ is the record (SPEC section 1)
STORE_GITIGNORE = (
    "# written by Cairn: index.db is a cache (never committed); snapshots/ is the record (commit it)\n"
    "*\n!.gitignore\n!snapshots/\n!snapshots/**\n"
)


def ignore_store_folder(folder: Path) -> None:
    """Write STORE_GITIGNORE to the store folder's `.gitignore` when it has none (so git commits only the
    snapshots of what Cairn keeps there), never through a symbolic link; nothing when it exists or the
    folder is read-only."""
    try:
        fd = os.open(folder / ".gitignore", os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(STORE_GITIGNORE)
    except OSError:  # it exists, or a read-only workspace: the store still works
        pass
STORE_FILE = "index.db"

WORD = re.compile(r"[^\W_]+")

UNVERIFIED_PROVENANCE = (
    "version {version} comes from an index Cairn did not write on this machine (unverified provenance)"
)


class StoreError(Exception):
    pass


class StoreUnavailable(StoreError):
    """The index cannot be read or written now (read-only, full disk, I/O error,
    locked by another process, a database server that does not answer). Nothing
    was changed: not the index, not a draft."""


@dataclass(slots=True)
class VersionInfo:
    id: int
    source: str
    version: str
    lineage: str
    chunk_chars: int
    pages: list[int] | None


@dataclass(slots=True)
class NewVersion:
    """A parsed version of a source, to be stored (IndexStore.add_versions)."""

    source: str
    version: str
    lineage: str
    chunk_chars: int
    text: str
    pages: list[int] | None
    chunks: list[RawChunk]
    make_current: bool
    date: str | None = None  # YYYY-MM-DD from the source's metadata, stored with the version
    # what the store worked out beforehand (IndexStore.prepare_version), on the thread that parses
    prepared: Any = field(default=None, compare=False, repr=False)

    def compressed(self) -> bytes:
        """The text as PostgreSQL keeps it: UTF-8 (lone surrogates kept), zlib level 1.
        (The SQLite file keeps only the text outside the chunks: store.sqlite_text.)"""
        return compressed_text(self.text)


def compressed_text(text: str) -> bytes:
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 1)


def inner_words(quote: str) -> list[str]:
    """The whole words of a quote: the first and last may be cut by its ends."""
    words = WORD.findall(quote)
    if words and quote[:1].isalnum():
        words = words[1:]
    if words and quote[-1:].isalnum():
        words = words[:-1]
    return words


def occurrences_in_quote_order(chunks: list[Chunk], quote: str, only: set[str] | None,
                               limit: int) -> list[tuple[Chunk, int]]:
    """(chunk, offset) of every place `quote` occurs in these chunks, up to `limit`."""
    found: list[tuple[Chunk, int]] = []
    for ch in chunks:
        if only is not None and ch.source not in only:
            continue
        pos = ch.text.find(quote)
        while pos >= 0 and len(found) < limit:
            found.append((ch, pos))
            pos = ch.text.find(quote, pos + 1)
    return found


def versions_to_keep(current: set[int], cited: set[tuple[str, str | None]],
                     holders: dict[str, list[tuple[int, str]]]) -> set[int]:
    """What `gc` keeps: the current versions, each version a citation names by its
    `version` prefix, and for a citation without one the version a lookup picks
    (a current one, else the newest holding the chunk). `holders`: chunk id ->
    (version id, version hash) newest first."""
    keep = set(current)
    for chunk_id, prefix in cited:
        rows = holders.get(chunk_id)
        if not rows:
            continue
        named = [vid for vid, ver in rows if prefix and ver.startswith(prefix)]
        if named:
            keep.update(named)
        elif not any(vid in keep for vid, _ in rows):
            keep.add(rows[0][0])
    return keep


class IndexStore(ABC):
    """A workspace's view of a chunk store. Implementations are thread-safe.

    Every failure of the store itself reaches callers as a StoreError (never a
    driver's own exception), with the index named and what failed."""

    root: Path
    rebuilt_reason: str | None = None  # set when a damaged index was moved aside and made anew
    read_only: bool = False
    # indexing stores parsed sources in batches of at most this many files or characters
    # (Workspace.index; the smaller of the workspace's and the store's limits applies)
    BATCH_FILES = 64
    BATCH_CHARS = 4_000_000

    @property
    @abstractmethod
    def where(self) -> str:
        """The index as a person would name it (a path; a URL without its password)."""

    @abstractmethod
    def schema(self) -> str:
        """The schema version this index is at (after the migrations done on opening)."""

    @abstractmethod
    def recover(self, exc: Exception) -> None:
        """After a failure found mid-run: rebuild what may be rebuilt, else raise a StoreError."""

    @abstractmethod
    def close(self) -> None: ...

    def provenance_note(self, chunk: Chunk) -> str:
        """"" when the chunk's row is trusted; else a sentence naming its version."""
        return ""

    # -- writing
    @abstractmethod
    def find_version(self, source: str, version: str, lineage: str, chunk_chars: int) -> int | None: ...

    def add_version(self, source: str, version: str, lineage: str, chunk_chars: int, text: str,
                    pages: list[int] | None, chunks: Iterable[RawChunk], *, make_current: bool,
                    date: str | None = None) -> int:
        """Store one parsed version and its chunks in one transaction."""
        return self.add_versions(
            [NewVersion(source, version, lineage, chunk_chars, text, pages, list(chunks), make_current, date)]
        )[0]

    @abstractmethod
    def add_versions(self, versions: list[NewVersion]) -> list[int]: ...

    def prepare_version(self, version: NewVersion) -> None:
        """Do beforehand, on the calling thread, what storing this version will need and
        no transaction does (indexing calls it for each parsed source while the
        background writer stores the batch before). Default: nothing. Whatever is
        prepared, add_versions stores the same rows as without it."""
        return None

    def background_writer(self) -> IndexStore | None:
        """Another handle on this index, for one other thread to store versions with
        (add_versions) while this handle goes on being read; None when writes must go
        through this handle. The caller closes it."""
        return None

    @abstractmethod
    def set_current(self, source: str, version_id: int) -> None: ...

    @abstractmethod
    def drop_current(self, source: str) -> None: ...

    @abstractmethod
    def record_error(self, source: str, version: str | None, message: str) -> None: ...

    @abstractmethod
    def record_warnings(self, source: str, version: str, messages: list[str]) -> None: ...

    @abstractmethod
    def warnings_for(self, source: str, version: str) -> list[str]: ...

    @abstractmethod
    def source_errors(self) -> dict[str, str]: ...

    # -- reading
    @abstractmethod
    def current_versions(self) -> dict[str, VersionInfo]: ...

    @abstractmethod
    def current_version(self, source: str) -> VersionInfo | None: ...

    @abstractmethod
    def version_text(self, version_id: int) -> str: ...

    def lookup(self, chunk_id: str) -> list[Chunk]:
        """Every stored occurrence of a chunk id, current ones first, newest first."""
        return self.lookup_many([chunk_id]).get(chunk_id, [])

    @abstractmethod
    def current_version_ids(self) -> set[int]: ...

    @abstractmethod
    def lookup_many(self, chunk_ids: Iterable[str], current: set[int] | None = None) -> dict[str, list[Chunk]]: ...

    @abstractmethod
    def current_chunks(self, sources: Iterable[str] | None = None) -> list[Chunk]: ...

    @abstractmethod
    def current_chunk_count(self) -> int: ...

    @abstractmethod
    def find_quote(self, quote: str, *, sources: Iterable[str] | None = None, limit: int = 50,
                   terms: dict[str, int] | None = None) -> list[tuple[Chunk, int]]: ...

    @abstractmethod
    def search_words(self, words: list[str], limit: int = 20, *, readable: Sequence[str] | None = None) -> list[Chunk]:
        """Current chunks holding all these words (prefix match on the last). `readable`,
        when given, names the only sources searched (the principal's: see rank)."""

    WORD_COUNT_CAP = 400  # a word in more chunks than this is common: its count stops there

    def word_counts(self, words: list[str], *, readable: Sequence[str] | None = None) -> tuple[dict[str, int], int]:
        """How many current chunks hold each of these lower-case words as a whole word
        (up to WORD_COUNT_CAP), and how many current chunks there are: the rarity that
        weighs a claim's terms (answers.relevance). With `readable`, counted among
        those sources only, so no other source's text changes a weight."""
        out: dict[str, int] = {}
        for w in words:
            pat = re.compile(r"(?<![^\W_])" + re.escape(w) + r"(?![^\W_])", re.IGNORECASE)
            found = self.search_words([w], limit=self.WORD_COUNT_CAP * 2, readable=readable)
            out[w] = min(self.WORD_COUNT_CAP, sum(1 for ch in found if pat.search(ch.text)))
        if readable is None:
            total = self.current_chunk_count()
        else:
            total = len(self.current_chunks(readable))
        return out, max(total, 1)

    @abstractmethod
    def version_date(self, source: str, version: str) -> str | None:
        """The date (YYYY-MM-DD) stored with a version of a source, if its metadata gave one."""

    @abstractmethod
    def rank(self, words: list[str], k: int, *, readable: Sequence[str] | None = None) -> list[Chunk]:
        """The `k` current chunks that best match these words, best first (full-text
        ranking; the retrieval of `cairn ask` and of evidence for a claim).

        `readable`, when given, names the only sources ranked: the ones the principal
        may read (Workspace.readable_sources). They are chosen in the query, before
        any limit, and nothing of the other sources enters the scores, so which
        chunks come back, how many and in what order never depends on the text of
        a source the principal may not read (docs/security.md)."""

    @abstractmethod
    def chunk_ids_with_prefix(self, prefix: str, limit: int = 50, *,
                              readable: Sequence[str] | None = None) -> list[Chunk]: ...

    @abstractmethod
    def versions_of(self, chunk_id: str) -> list[str]: ...

    @abstractmethod
    def version_info(self, source: str, version: str) -> VersionInfo | None:
        """The newest stored parse of this version of a source (its lineage, pages, id), or None."""

    # -- retention
    @abstractmethod
    def purge(self, sources: list[str]) -> int:
        """Remove every stored version of these sources, cited or not (their chunks,
        search entries, errors, warnings and the cached reports, which may quote
        them), record the versions as purged, and compact the index so their text
        is gone from its files. Returns how many versions were removed."""

    @abstractmethod
    def purged_versions(self, source: str | None = None) -> set[tuple[str, str]]:
        """(source, version hash) of every purged version (of one source)."""

    @abstractmethod
    def lift_purge(self, sources: list[str]) -> int:
        """Forget the purge records of these sources (history may bring them back); how many."""

    @abstractmethod
    def drop_superseded_before(self, cutoff: float, keep: set[tuple[str, str]] | None = None) -> int:
        """Drop superseded versions indexed before `cutoff` (a time.time() value); how many."""

    # -- the small key-value cache, git bookkeeping, gc
    @abstractmethod
    def cache_get(self, key: str) -> str | None: ...

    @abstractmethod
    def cache_put(self, key: str, value: str) -> None: ...

    @abstractmethod
    def cache_prune(self, prefix: str, max_age: float) -> None: ...

    @abstractmethod
    def state_token(self) -> str: ...

    @abstractmethod
    def git_seen(self, blob: str) -> bool: ...

    @abstractmethod
    def mark_git_seen(self, blob: str) -> None: ...

    @abstractmethod
    def gc(self, cited: set[tuple[str, str | None]]) -> int: ...

    @abstractmethod
    def stats(self) -> dict[str, int]: ...

    # -- the snapshots, on a store that keeps them itself (index.snapshot_shelf.DatabaseShelf);
    # the SQLite file keeps none: its snapshots are a folder of the workspace
    keeps_snapshots: bool = False

    def snapshot_get(self, name: str) -> bytes | None:
        raise NotImplementedError

    def snapshot_put(self, name: str, data: bytes) -> None:
        raise NotImplementedError

    def snapshot_delete(self, name: str) -> None:
        raise NotImplementedError

    def snapshot_names(self) -> list[str]:
        raise NotImplementedError

    def snapshot_sizes(self) -> dict[str, int]:
        raise NotImplementedError

    def snapshot_values(self, prefix: str) -> list[bytes]:
        raise NotImplementedError
