"""Schema 4 of the SQLite index: a version's text kept as the text outside its
chunks (store.sqlite_text), and an index of schema 3 migrated to it."""

from __future__ import annotations

import hashlib
import sqlite3
import zlib
from pathlib import Path

import pytest

from cairn.core.chunking import chunk_document
from cairn.core.config import load_settings
from cairn.index.workspace import Workspace
from cairn.store import SCHEMA_VERSION, Store
from cairn.store.proofs import TRIGGERS
from cairn.store.sqlite_text import REST, stored_text, whole_text

TEXTS = [
    "",
    "One paragraph.",
    "\n\n  Lead space.\r\n\r\nSame.\n\nSame.\n\n\fForm feed\x0bvertical tab.\n\n\n",
    "Twice.\n\nMiddle.\n\nTwice.\n\nTwice.\n",
    ("A long paragraph. " * 200).strip() + "\n\n" + "x" * 3000 + "\n\nEnd ünïcødé \U0001f600 and \x00 a NUL.\n",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_text_outside_the_chunks_and_the_chunks_make_the_text_again(text: str):
    chunks = chunk_document("sources/a.md", text, None, 400)
    blob = stored_text(text, chunks)
    assert blob[:1] == REST
    rows = [(c.start, c.end, c.text) for c in chunks]
    assert whole_text(blob, reversed(rows)) == text  # in any order
    if rows:  # a chunk row missing, or changed, makes no text
        assert whole_text(blob, rows[1:]) is None
        assert whole_text(blob, [(rows[0][0], rows[0][1], rows[0][2][:-1] + "?"), *rows[1:]]) is None
    # a repeated paragraph (one chunk id) is kept with the text outside the chunks
    if "Twice." in text:
        assert len(zlib.decompress(blob[33:]).decode()) > text.count("\n")


def test_a_text_before_schema_4_is_read_as_it_is():
    assert whole_text(zlib.compress(b"Whole.\n", 1), []) == "Whole.\n"


def _ws(root: Path, store: Store | None = None) -> Workspace:
    return Workspace(root, load_settings(root), store=store)


def _write_schema_3(store: Store, db: Path) -> None:
    """Make an index of this Cairn look as schema 3 wrote it: the whole text of each
    version compressed, with its hash and MAC as that schema made them."""
    texts = {vid: store.version_text(vid) for (vid,) in store._conn.execute("SELECT id FROM versions")}
    store.close()
    with sqlite3.connect(db) as conn:
        # nor had it the record of rows changed outside Cairn (store.proofs), which would note these updates
        for name in TRIGGERS:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("DROP TABLE outside_edits")
        for vid, text in texts.items():
            blob = zlib.compress(text.encode("utf-8", "surrogatepass"), 1)
            sha = hashlib.sha256(blob).digest()
            source, version, lineage, chunk_chars, pages = conn.execute(
                "SELECT source, version, lineage, chunk_chars, pages FROM versions WHERE id = ?", (vid,)).fetchone()
            mac = store._version_mac(vid, source, version, lineage, chunk_chars, pages, sha)
            conn.execute("UPDATE versions SET text = ?, text_sha = ?, mac = ? WHERE id = ?", (blob, sha, mac, vid))
        conn.execute("UPDATE current SET mac = NULL")  # schema 3 had no MAC of which version is current
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")


def test_an_index_of_schema_3_is_migrated_and_read_as_it_was(tmp_path: Path):
    (tmp_path / "sources").mkdir()
    src = tmp_path / "sources" / "a.md"
    common = "the one and the other of the two"
    src.write_text(f"Refunds take 14 days.\n\nAnd {common} are here.\n")
    ws = _ws(tmp_path)
    ws.index()
    old = next(c for c in ws.store.current_chunks() if "14" in c.text)
    src.write_text(f"Refunds take 30 days.\n\nAnd {common} are here.\n")
    ws.index()
    db = tmp_path / ".cairn" / "index.db"
    _write_schema_3(ws.store, db)

    store = Store(tmp_path)
    assert store.rebuilt_reason is None and store.schema() == SCHEMA_VERSION == "5"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM versions WHERE substr(text, 1, 1) = ?", (REST,)).fetchone()[0] == 0
    # which version is current had no MAC before schema 5 (issue 45, finding 1): it is worked
    # out again from the files, and the stored versions are reused as they are
    assert store.current_chunks() == []
    _ws(tmp_path, store).index()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM versions WHERE substr(text, 1, 1) = ?", (REST,)).fetchone()[0] == 0
    # the versions of schema 3 are read as they were, the current ones as current (their MACs hold)
    assert [c.text for c in store.current_chunks()] == ["Refunds take 30 days.", f"And {common} are here."]
    (superseded,) = store.lookup(old.chunk_id)
    assert not superseded.current and superseded.text == "Refunds take 14 days."
    info = store.current_version("sources/a.md")
    assert info is not None and store.version_text(info.id) == f"Refunds take 30 days.\n\nAnd {common} are here.\n"
    # the searches are as they were
    assert [(c.text, o) for c, o in store.find_quote("take 30")] == [("Refunds take 30 days.", 8)]
    assert [(c.start, o) for c, o in store.find_quote(f"d {common} a")] == [(23, 2)]
    assert [c.text for c in store.rank(["refunds"], 5)] == ["Refunds take 30 days."]
    # a new version is written in the new form beside the old ones
    src.write_text("Refunds take 45 days.\n")
    _ws(tmp_path, store).index()
    info = store.current_version("sources/a.md")
    assert info is not None and store.version_text(info.id) == "Refunds take 45 days.\n"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM versions WHERE substr(text, 1, 1) = ?", (REST,)).fetchone()[0] == 1
    store.close()


def test_a_changed_chunk_row_makes_no_version_text(tmp_path: Path):
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "a.md").write_text("One.\n\nTwo.\n")
    ws = _ws(tmp_path)
    ws.index()
    info = ws.store.current_version("sources/a.md")
    assert info is not None and ws.store.version_text(info.id) == "One.\n\nTwo.\n"
    ws.store._conn.execute("UPDATE chunks SET text = 'Six.' WHERE text = 'Two.'")
    with pytest.raises(KeyError):
        ws.store.version_text(info.id)
