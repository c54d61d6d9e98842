"""Parsing and chunking sources in worker processes while indexing.

Indexing reads, hashes and looks every source up in the store in the calling
process, in order; the sources that need parsing are handed here. The first
PARALLEL_BYTES of them are parsed in the calling process (a small change
never pays for starting workers); past that, a pool of processes started
afresh ("spawn": the caller may hold threads and open connections that a
forked child must not inherit) parses the rest, and the results come back in
the order the sources were given, so what is stored does not depend on the
number of workers. A worker sends back what is cheap to send and costly to
make: the text and each chunk's id and span (the chunk texts are cut from the
text again here), so receiving a source costs the indexing process far less
than parsing it would.
CAIRN_INDEX_WORKERS sets how many (default 1: no worker process; see workers()
for why).

Parsed sources are stored in batches. A Writer stores a batch on a thread of its
own, through the handle IndexStore.background_writer gives (SQLite: a second
connection), while the calling thread goes on reading, hashing and parsing:
SQLite works without holding Python's lock, so writing the index and parsing
the next sources share the two cores even without worker processes.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass

from ..core import chunking
from ..core.chunking import RawChunk
from ..sources import SourceError, parse_bytes
from ..store import IndexStore, NewVersion

PARALLEL_BYTES = 8 * 1024 * 1024  # parsed in this process before workers are started


@dataclass(slots=True)
class Job:
    ident: str
    version: str
    data: bytes
    chunk_chars: int


Parsed = tuple[NewVersion, list[str]]  # the version to store, the parser's warnings
# what a worker sends back: text, pages, lineage, date, warnings, (chunk id, start, end, page)...
Packed = tuple[str, list[int] | None, str, str | None, list[str], list[tuple[str, int, int, int | None]]]
Outcome = tuple[Job, Parsed | None, Exception | None]  # exactly one of the two is set


def parse_job(ident: str, version: str, data: bytes, chunk_chars: int) -> Parsed:
    """Parse and chunk one source (in a worker or here); SourceError when it cannot be read."""
    doc = parse_bytes(ident, data)
    chunks = chunking.chunk_document(ident, doc.text, doc.pages, chunk_chars)
    return (NewVersion(ident, version, doc.lineage, chunk_chars, doc.text, doc.pages, chunks, True, doc.date),
            doc.warnings)


def parse_packed(ident: str, version: str, data: bytes, chunk_chars: int) -> Packed:
    """parse_job in a worker process, packed for the trip back (see the module's docstring)."""
    v, warnings = parse_job(ident, version, data, chunk_chars)
    return v.text, v.pages, v.lineage, v.date, warnings, [(c.chunk_id, c.start, c.end, c.page) for c in v.chunks]


def unpack(job: Job, packed: Packed) -> Parsed:
    """What parse_job would have returned for this job, from a worker's packed answer."""
    text, pages, lineage, date, warnings, spans = packed
    chunks = [RawChunk(cid, start, end, page, text[start:end]) for cid, start, end, page in spans]
    return NewVersion(job.ident, job.version, lineage, job.chunk_chars, text, pages, chunks, True, date), warnings


def workers() -> int:
    """CAIRN_INDEX_WORKERS, else 1. One process already keeps two cores busy on
    SQLite (it parses while the Writer's thread writes the index), and worker
    processes cost CPU of their own (starting, sending texts back): on the 50 MB
    corpus of bench/scale_bench.py one process spent 5.1 CPU seconds, two
    workers 6.2 (docs/team.md, "Measured")."""
    raw = os.environ.get("CAIRN_INDEX_WORKERS", "").strip()
    if raw.isdigit() and int(raw) >= 1:
        return min(int(raw), 32)
    return 1


class Parsers:
    """Jobs in, outcomes out in the same order (see the module's docstring)."""

    def __init__(self, parallel_bytes: int = PARALLEL_BYTES, n_workers: int | None = None):
        self.parallel_bytes = parallel_bytes
        self.n_workers = workers() if n_workers is None else n_workers
        self._seen = 0
        self._pool: ProcessPoolExecutor | None = None
        self._pending: deque[tuple[Job, Future]] = deque()

    @property
    def parallel(self) -> bool:
        return self._pool is not None

    def submit(self, job: Job) -> Iterator[Outcome]:
        """Hand a job over; yields the outcomes that are ready (in order)."""
        self._seen += len(job.data)
        if self._pool is None and self.n_workers > 1 and self._seen > self.parallel_bytes:
            self._pool = ProcessPoolExecutor(self.n_workers, mp_context=multiprocessing.get_context("spawn"))
        if self._pool is None:
            yield self._here(job)
            return
        try:
            fut = self._pool.submit(parse_packed, job.ident, job.version, job.data, job.chunk_chars)
        except RuntimeError:  # the pool broke (a worker killed): the rest is parsed here
            yield from self.finish()
            self.n_workers = 1
            yield self._here(job)
            return
        self._pending.append((job, fut))
        while len(self._pending) > 2 * self.n_workers:  # bounded: the bytes in flight stay few
            yield self._collect()

    def finish(self) -> Iterator[Outcome]:
        try:
            while self._pending:
                yield self._collect()
        finally:
            self.close()

    def close(self) -> None:
        if self._pool is not None:
            for _, fut in self._pending:
                fut.cancel()
            self._pending.clear()
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    @staticmethod
    def _here(job: Job) -> Outcome:
        try:
            return job, parse_job(job.ident, job.version, job.data, job.chunk_chars), None
        except Exception as exc:  # noqa: BLE001 - the caller decides what a failed source is
            return job, None, exc

    def _collect(self) -> Outcome:
        job, fut = self._pending.popleft()
        try:
            return job, unpack(job, fut.result()), None
        except SourceError as exc:
            return job, None, exc
        except Exception as exc:  # noqa: BLE001 - a worker that died is parsed again here
            if type(exc).__name__ == "BrokenProcessPool":
                return self._here(job)
            return job, None, exc


Stored = tuple[list[Parsed], Exception | None]  # a batch handed to a Writer and what storing it raised


class Writer:
    """Batches of parsed versions stored on a thread of its own, one batch at a
    time. `start` hands a batch over and returns at once; `wait` gives back the
    batch started last with its error (None: stored). Without a background
    handle on the store, `start` stores the batch itself, before it returns."""

    def __init__(self, store: IndexStore):
        self._store = store
        self._handle: IndexStore | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._running: tuple[list[Parsed], Future | None, Exception | None] | None = None
        self._inline = False  # the store offers no background handle: batches are stored in start()

    def start(self, batch: list[Parsed]) -> None:
        """Store this batch (the caller has waited for the one before)."""
        assert self._running is None, "wait() for the batch before"
        if self._handle is None and not self._inline:
            self._handle = self._store.background_writer()
            if self._handle is None:
                self._inline = True
            else:
                self._thread = ThreadPoolExecutor(1, thread_name_prefix="cairn-index-writer")
        versions = [v for v, _ in batch]
        if self._thread is None or self._handle is None:
            try:
                self._store.add_versions(versions)
                self._running = (batch, None, None)
            except Exception as exc:  # noqa: BLE001 - handed back to the caller by wait()
                self._running = (batch, None, exc)
            return
        self._running = (batch, self._thread.submit(self._handle.add_versions, versions), None)

    def wait(self) -> Stored | None:
        """The batch started last and what storing it raised; None when there is none."""
        if self._running is None:
            return None
        batch, fut, exc = self._running
        self._running = None
        if fut is not None:
            try:
                fut.result()
            except Exception as err:  # noqa: BLE001 - handed back to the caller
                exc = err
        return batch, exc

    def close(self) -> None:
        """Wait for a batch still being stored (its outcome is dropped), then let the
        thread and the second handle go."""
        try:
            self.wait()
        finally:
            if self._thread is not None:
                self._thread.shutdown(wait=True)
                self._thread = None
            if self._handle is not None:
                if self._handle is not self._store:  # a handle of its own (SQLite: a second connection)
                    self._handle.close()
                self._handle = None
