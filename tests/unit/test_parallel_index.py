"""Indexing with sources parsed in worker processes (cairn.parallel) stores
exactly what indexing in one process stores, bad sources included, on the
SQLite file and on PostgreSQL (tests/pg_server.py's throw-away server)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cairn.core.config import load_settings
from cairn.index.parallel import Parsers
from cairn.index.workspace import Workspace
from cairn.store import IndexStore, Store


def _corpus(root: Path) -> Path:
    rng = random.Random(3)
    src = root / "sources"
    src.mkdir(parents=True)
    words = "credit refund order days within policy customer store café 東京 14.5".split()
    for i in range(24):
        text = "\n\n".join(" ".join(rng.choice(words) for _ in range(rng.randint(5, 60))) + "."
                           for _ in range(rng.randint(3, 40)))
        (src / f"doc{i:02d}.{'md' if i % 2 else 'txt'}").write_text(text + "\n", encoding="utf-8")
    (src / "page.html").write_text("<html><body><p>An HTML source.</p><script>x()</script></body></html>")
    (src / "broken.pdf").write_bytes(b"%PDF-1.7 garbage")
    (src / "bad.txt").write_bytes(b"caf\xe9 latin-1 bytes\n")  # read with a warning
    return root


def _state(ws: Workspace) -> tuple:
    chunks = [(c.chunk_id, c.source, c.version, c.start, c.end, c.page, c.text) for c in ws.store.current_chunks()]
    versions = {s: (v.version, v.lineage, v.pages, ws.store.version_text(v.id))
                for s, v in ws.store.current_versions().items()}
    return chunks, versions, ws.store.source_errors()


def _store(kind: str, root: Path, name: str, request: pytest.FixtureRequest | None) -> IndexStore:
    if kind == "sqlite":
        return Store(root, path=root.parent / f"{name}.db")
    from cairn.store.postgres import PostgresStore

    assert request is not None
    return PostgresStore(root, request.getfixturevalue("postgres_server").new_database())


@pytest.mark.parametrize(("kind", "workers"), [("sqlite", 2), ("sqlite", 3), ("postgresql", 2)])
def test_worker_processes_store_what_one_process_stores(tmp_path: Path, monkeypatch, request, kind: str,
                                                        workers: int):
    root = _corpus(tmp_path / "ws")
    settings = load_settings(root)
    serial = Workspace(root, settings, store=_store(kind, root, "serial", request))
    monkeypatch.setenv("CAIRN_INDEX_WORKERS", "1")
    one = serial.index()

    monkeypatch.setenv("CAIRN_INDEX_WORKERS", str(workers))
    monkeypatch.setattr(Workspace, "PARALLEL_BYTES", 0)  # workers from the first source on
    used: list[bool] = []
    real_finish = Parsers.finish

    def finish(self):
        used.append(self.parallel)
        return real_finish(self)

    monkeypatch.setattr(Parsers, "finish", finish)
    parallel = Workspace(root, settings, store=_store(kind, root, "parallel", request))
    if kind == "postgresql":
        parallel.store.PARALLEL_CHUNKS = 1  # every batch stored over two connections at once
    many = parallel.index()
    assert used == [True]  # the workers did parse
    assert many.indexed == one.indexed and many.errors == one.errors and many.warnings == one.warnings
    assert "sources/broken.pdf" in many.errors and many.warnings.get("sources/bad.txt")
    assert _state(parallel) == _state(serial)
    # unchanged sources are not parsed again, whoever parsed them
    again = parallel.index()
    assert again.indexed == [] and again.unchanged == one.total
    serial.store.close()
    parallel.store.close()


def _searches(ws: Workspace) -> tuple:
    """What the store's searches answer on the corpus above."""
    quotes = [(c.chunk_id, c.start) for c, _ in ws.store.find_quote("refund order")]
    words = sorted(c.chunk_id for c in ws.store.search_words(["customer", "pol"], limit=500))
    ranked = [c.chunk_id for c in ws.store.rank(["credit", "café", "days"], 10)]
    return quotes, words, ranked


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_batches_stored_on_the_writer_thread_store_what_one_batch_stores(tmp_path: Path, monkeypatch, request,
                                                                          kind: str):
    """Batches handed to the Writer (on SQLite: its own connection on a thread of
    its own, while the next sources are parsed) store the same rows, errors,
    warnings and search answers as indexing in one batch."""
    import threading

    root = _corpus(tmp_path / "ws")
    settings = load_settings(root)
    monkeypatch.setenv("CAIRN_INDEX_WORKERS", "1")
    whole = Workspace(root, settings, store=_store(kind, root, "whole", request))
    one = whole.index()

    handles: list[IndexStore | None] = []
    real = type(whole.store).background_writer

    def background_writer(self):
        handles.append(real(self))
        return handles[-1]

    monkeypatch.setattr(type(whole.store), "background_writer", background_writer)
    monkeypatch.setattr(Workspace, "BATCH_FILES", 4)  # seven batches, six of them on the writer
    batched = Workspace(root, settings, store=_store(kind, root, "batched", request))
    many = batched.index()
    assert len(handles) == 1
    # SQLite: a second connection; PostgreSQL stores each batch in the caller (the server's
    # trigram index, not Cairn, limits it: overlapping gained nothing measurable)
    assert (handles[0] is not None) == (kind == "sqlite")
    assert sorted(many.indexed) == sorted(one.indexed) and many.errors == one.errors
    assert many.warnings == one.warnings
    assert _state(batched) == _state(whole)
    assert _searches(batched) == _searches(whole) and _searches(whole)[0]
    assert not [t for t in threading.enumerate() if t.name.startswith("cairn-index-writer")]
    if kind == "sqlite":
        import sqlite3

        batched.store.close()
        with sqlite3.connect(root.parent / "batched.db") as db:  # the search index equals the chunk rows
            db.execute("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('integrity-check', 1)")
    whole.store.close()


def test_a_failure_of_the_index_on_the_writer_thread_stops_the_run(tmp_path: Path, monkeypatch):
    """The index failing under the Writer (here: a full disk) is the run's error, as
    it is when the batch is written in the caller; no writer thread is left behind."""
    import sqlite3
    import threading

    from cairn.store import StoreUnavailable

    root = _corpus(tmp_path / "ws")
    ws = Workspace(root, load_settings(root), store=_store("sqlite", root, "full", None))
    monkeypatch.setattr(Workspace, "BATCH_FILES", 4)
    monkeypatch.setenv("CAIRN_INDEX_WORKERS", "1")
    real = Store._insert_version
    calls: list[str] = []

    def full(self, c, v, blob, firsts):  # the fault injected where SQLite would raise it
        calls.append(threading.current_thread().name)
        if len(calls) > 6:
            raise sqlite3.OperationalError("database or disk is full")
        return real(self, c, v, blob, firsts)

    monkeypatch.setattr(Store, "_insert_version", full)
    with pytest.raises(StoreUnavailable, match="disk is full"):
        ws.index()
    assert any(name.startswith("cairn-index-writer") for name in calls)
    assert not [t for t in threading.enumerate() if t.name.startswith("cairn-index-writer")]
    monkeypatch.setattr(Store, "_insert_version", real)
    again = ws.index()  # nothing half-written is trusted: the sources not stored are indexed now
    assert not again.errors.keys() - {"sources/broken.pdf"}
    assert len(ws.store.current_versions()) == len(again.indexed) + again.unchanged
    ws.store.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_up_to_date_pass_reads_the_current_versions_once(tmp_path: Path, monkeypatch, request, kind: str):
    """A warm pass over every source asks the store for its current versions in one
    query, not one a source (on a database server each is a round trip over the
    network: 35,000 of them were half of a warm check at 1 GB); a source edited in
    between is still seen as changed."""
    root = _corpus(tmp_path / "ws")
    ws = Workspace(root, load_settings(root), store=_store(kind, root, "once", request))
    first = ws.index()
    assert len(first.indexed) > 20
    asked: list[str] = []
    real_one = ws.store.current_version
    monkeypatch.setattr(ws.store, "current_version", lambda source: asked.append(source) or real_one(source))
    again = ws.index()
    assert again.unchanged == len(first.indexed) and not again.indexed
    assert asked == []
    (root / "sources" / "doc03.md").write_text("An edited source. Refund within 30 days.\n", encoding="utf-8")
    edited = ws.index()
    assert edited.indexed == ["sources/doc03.md"] and asked == []
    assert any("30 days" in c.text for c in ws.store.current_chunks(["sources/doc03.md"]))
    # a watcher's report names its sources: those are asked about one by one
    ws.index(only=["sources/doc03.md"])
    assert asked == ["sources/doc03.md"]
