"""Work done before storing (IndexStore.prepare_version) and PostgreSQL's binary
COPY store exactly the rows the plain paths store (docs/team.md, "Measured")."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from pathlib import Path

import pytest

from cairn.core.chunking import chunk_document
from cairn.core.config import load_settings
from cairn.index.workspace import Workspace
from cairn.store import NewVersion, Store

WORDS = "refund order days within policy customer café 東京 14.5 (see §3) don't".split()


def _version(i: int, rng: random.Random, *, current: bool = True) -> NewVersion:
    source = f"sources/doc{i:02d}.md"
    text = "\n\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 40))) + "."
                       for _ in range(rng.randint(2, 12))) + "\n\nrepeated\n\nrepeated\n"
    return NewVersion(source, hashlib.sha256(text.encode()).hexdigest(), "markdown/1", 1200, text, None,
                      chunk_document(source, text), current)


def _rows(path: Path) -> tuple:
    with sqlite3.connect(path) as c:
        versions = c.execute("SELECT id, source, version, lineage, chunk_chars, pages, text_sha, mac, text"
                             " FROM versions ORDER BY id").fetchall()
        chunks = c.execute("SELECT rowid, version_id, chunk_id, start, end, page, text, mac FROM chunks"
                           " ORDER BY rowid").fetchall()
        fts = c.execute("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'refund' ORDER BY rowid").fetchall()
    return versions, chunks, fts


def test_prepared_versions_store_the_rows_the_writer_would_make(tmp_path: Path):
    rng = random.Random(7)
    versions = [_version(i, rng) for i in range(12)]
    plain = Store(tmp_path, path=tmp_path / "plain.db")
    ready = Store(tmp_path, path=tmp_path / "ready.db")
    writer = ready.background_writer()
    assert writer is not None
    try:
        for part in (versions[:5], versions[5:]):
            plain.add_versions(part)
            for v in part:
                ready.prepare_version(v)
            assert all(v.prepared is not None for v in part)
            writer.add_versions(part)  # another connection, as the indexing writer thread does
        assert _rows(tmp_path / "plain.db") == _rows(tmp_path / "ready.db")
        assert ready.current_chunks() and [c.text for c in ready.current_chunks()] == \
            [c.text for c in plain.current_chunks()]
        assert all(ready.provenance_note(c) == "" for c in ready.current_chunks())
    finally:
        writer.close()
        plain.close()
        ready.close()


def test_a_prediction_another_writer_took_is_worked_out_again_under_the_real_id(tmp_path: Path):
    rng = random.Random(8)
    a, b, c = _version(1, rng), _version(2, rng), _version(3, rng)
    store = Store(tmp_path)
    other = Store(tmp_path)  # another process's handle on the same file
    try:
        store.prepare_version(a)
        store.prepare_version(b)
        assert (a.prepared.vid, b.prepared.vid) == (1, 2)
        other.add_versions([c])  # takes id 1 before the prepared versions are stored
        ids = store.add_versions([a, b])
        assert ids == [2, 3]  # a's prediction (1) was taken: both worked out again, under the next ids
        b2 = _version(4, rng)
        store.prepare_version(b2)  # still predicts from what this handle saw: 3, taken by b
        d = _version(5, rng)
        store.prepare_version(d)
        assert store.add_versions([d]) == [d.prepared.vid] and d.prepared.vid == 4  # above every stored id: taken
        for s in (store, other):
            s._forget_proofs()
            for src in ("sources/doc01.md", "sources/doc02.md", "sources/doc03.md", "sources/doc05.md"):
                info = s.current_version(src)
                assert info is not None
                assert s.find_version(src, info.version, info.lineage, info.chunk_chars) == info.id
            assert all(s.provenance_note(ch) == "" for ch in s.current_chunks())
        with sqlite3.connect(store.path) as conn:
            assert conn.execute("SELECT count(*) FROM chunks WHERE version_id NOT IN (SELECT id FROM versions)"
                                ).fetchone()[0] == 0
    finally:
        other.close()
        store.close()


def test_a_prediction_above_the_stored_ids_leaves_a_gap_and_reads_back(tmp_path: Path):
    rng = random.Random(9)
    store = Store(tmp_path)
    try:
        skipped, kept = _version(1, rng), _version(2, rng)
        store.prepare_version(skipped)  # never stored (as when its batch is stored by another clone first)
        store.prepare_version(kept)
        assert store.add_versions([kept]) == [2]
        store._forget_proofs()
        assert store.find_version(kept.source, kept.version, kept.lineage, 1200) == 2
        assert store.version_text(2) == kept.text
        assert store.add_versions([skipped]) == [3]  # its prediction (1) is below the largest id now
        assert store.version_text(3) == skipped.text
    finally:
        store.close()


def test_indexing_prepares_every_version_it_stores(tmp_path: Path, monkeypatch):
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    rng = random.Random(10)
    for i in range(30):
        v = _version(i, rng)
        (root / v.source).write_text(v.text, encoding="utf-8")
    worked_out: list[int] = []
    made = Store._prepared

    def counted(self, vid, v, blob):
        worked_out.append(vid)
        return made(self, vid, v, blob)

    monkeypatch.setattr(Store, "_prepared", counted)
    monkeypatch.setattr(Workspace, "BATCH_FILES", 4)  # several batches on the writer thread
    ws = Workspace(root, load_settings(root), store=Store(root))
    try:
        res = ws.index()
        assert len(res.indexed) == 30
        assert sorted(worked_out) == list(range(1, 31))  # once each, when prepared: the writer used them all
        ws.store._forget_proofs()
        assert all(ws.store.provenance_note(c) == "" for c in ws.store.current_chunks())
    finally:
        ws.store.close()


def test_binary_copy_stores_the_rows_a_plain_insert_stores(postgres_server, tmp_path: Path):
    """Chunks go to PostgreSQL with COPY in its binary format; the same rows written
    with plain INSERTs (PostgreSQL parses the values itself) are the same rows."""
    import psycopg

    from cairn.store.postgres import PostgresStore, _clean

    rng = random.Random(11)
    odd = "before\x00after, a lone \ud800 surrogate\n\ntabs\tand\\backslashes\r\nand CR\n\n\"quotes\" ' 東京\n"
    versions = [_version(i, rng) for i in range(5)]
    versions.append(NewVersion("sources/odd.txt", "e" * 64, "text/1", 1200, odd, [0, 10],
                               chunk_document("sources/odd.txt", odd, [0, 10]), True))
    url = postgres_server.new_database()
    store = PostgresStore(tmp_path, url)
    try:
        store.add_versions(versions)
        cols = "version_id, chunk_id, start_at, end_at, page, text, exact"
        with psycopg.connect(url, autocommit=True) as c:
            copied = c.execute(f"SELECT {cols} FROM cairn_chunks ORDER BY id").fetchall()
            c.execute("CREATE TABLE plain_chunks (LIKE cairn_chunks INCLUDING ALL)")
            vids = dict(c.execute("SELECT source, id FROM cairn_versions").fetchall())
            for v in versions:
                for ch in v.chunks:
                    text, exact = _clean(ch.text)
                    c.execute(f"INSERT INTO plain_chunks ({cols}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                              (vids[v.source], ch.chunk_id, ch.start, ch.end, ch.page, text, exact))
            plain = c.execute(f"SELECT {cols} FROM plain_chunks ORDER BY id").fetchall()
        assert copied == plain and len(copied) == sum(len(v.chunks) for v in versions)
        assert any(r[6] is not None for r in copied) and any(r[4] == 1 for r in copied)
        for v in versions:
            assert store.version_text(vids_of(store, v)) == v.text
        got = {(ch.source, ch.chunk_id, ch.start, ch.text) for ch in store.current_chunks()}
        assert got == {(v.source, ch.chunk_id, ch.start, ch.text) for v in versions for ch in v.chunks}
        assert [pos for _, pos in store.find_quote("e\x00a")] == [5]
        assert {ch.source for ch, _ in store.find_quote("tabs\tand\\backslashes")} == {"sources/odd.txt"}
    finally:
        store.close()


def vids_of(store, v: NewVersion) -> int:
    vid = store.find_version(v.source, v.version, v.lineage, v.chunk_chars)
    assert vid is not None
    return vid


@pytest.mark.parametrize("pages", [None, [0, 5]])
def test_pages_are_kept_as_json_on_the_prepared_path(tmp_path: Path, pages):
    text = "one paragraph\n\nanother paragraph\n"
    v = NewVersion("sources/p.txt", "a" * 64, "text/1", 1200, text, pages, chunk_document("sources/p.txt", text, pages),
                   True)
    store = Store(tmp_path)
    try:
        store.prepare_version(v)
        vid = store.add_versions([v])[0]
        with sqlite3.connect(store.path) as c:
            assert c.execute("SELECT pages FROM versions WHERE id = ?", (vid,)).fetchone()[0] == \
                (json.dumps(pages) if pages else None)
        assert store.current_version("sources/p.txt").pages == pages
    finally:
        store.close()
