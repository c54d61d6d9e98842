"""Indexing with sources parsed in worker processes (cairn.parallel) stores
exactly what indexing in one process stores, bad sources included, on the
SQLite file and on PostgreSQL (tests/pg_server.py's throw-away server)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cairn.config import load_settings
from cairn.parallel import Parsers
from cairn.store import IndexStore, Store
from cairn.workspace import Workspace


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


def _store(kind: str, root: Path, name: str, request: pytest.FixtureRequest) -> IndexStore:
    if kind == "sqlite":
        return Store(root, path=root.parent / f"{name}.db")
    from cairn.store.postgres import PostgresStore

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
