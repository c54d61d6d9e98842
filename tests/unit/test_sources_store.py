"""Source parsers, incremental indexing and a damaged store, on the real engine."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from cairn.core.config import load_settings
from cairn.index.workspace import Workspace
from cairn.sources import SourceError, parse_bytes
from cairn.store import Store


def _ws(root: Path) -> Workspace:
    return Workspace(root, load_settings(root))


def _pdf(pages: list[str]) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text)
    buf = io.BytesIO()
    pdf.output(buf)
    return buf.getvalue()


def test_text_keeps_everything_but_a_bom():
    doc = parse_bytes("a.md", b"\xef\xbb\xbf# Title\r\n\r\nBody  text\t\n")
    assert doc.text == "# Title\r\n\r\nBody  text\t\n"
    assert doc.warnings == [] and doc.pages is None and doc.lineage == "text/1"


def test_invalid_utf8_is_replaced_and_reported():
    doc = parse_bytes("a.txt", b"caf\xe9 and \xff\xfe more")
    assert doc.text == "caf\ufffd and \ufffd\ufffd more"
    assert "2" in doc.warnings[0] or "3" in doc.warnings[0]
    assert "UTF-8" in doc.warnings[0]


def test_binary_and_empty_files():
    # a file's bytes decide whether it is text, whatever its extension (SPEC section 2)
    with pytest.raises(SourceError, match="binary"):
        parse_bytes("a.txt", b"\x00\x01\x02ELF")
    with pytest.raises(SourceError, match="binary"):
        parse_bytes("BLOB", b"\x00\x01\x02ELF")
    assert parse_bytes("empty.md", b"").text == ""
    assert parse_bytes("empty.html", b"").text == ""


def test_html_visible_text_blocks_separated():
    html = (
        b"<html><head><title>T</title><style>p{color:red}</style></head><body>"
        b"<h1>Head</h1><p>Some <b>bold</b>\n   text<script>evil()</script> here.</p>"
        b"<ul><li>one</li><li>two<br>three</li></ul><div>a<div>nested</div>b</div></body></html>"
    )
    doc = parse_bytes("p.html", html)
    assert doc.text == "Head\n\nSome bold text here.\n\none\n\ntwo\nthree\n\na\n\nnested\n\nb"
    assert "evil" not in doc.text and "color" not in doc.text and "T" not in doc.text.split("\n")[0][:1] + "x"
    assert doc.parser == "html-lxml"


def test_html_deep_nesting_is_handled():
    deep = b"<div>" * 5000 + b"deep text" + b"</div>" * 5000
    doc = parse_bytes("deep.html", deep)
    assert isinstance(doc.text, str)
    assert doc.warnings and "nested" in doc.warnings[0]


def test_pdf_pages_joined_by_form_feed():
    doc = parse_bytes("x.pdf", _pdf(["First page text.", "Second page text."]))
    assert doc.text.split("\f") == ["First page text.", "Second page text."]
    assert doc.pages == [0, len("First page text.") + 1]
    assert doc.parser == "pdf-pypdf"


def test_corrupt_and_encrypted_pdf():
    with pytest.raises(SourceError, match="PDF"):
        parse_bytes("bad.pdf", b"%PDF-1.4\nthis is not a pdf at all")
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in PdfReader(io.BytesIO(_pdf(["Secret."]))).pages:
        writer.add_page(page)
    writer.encrypt(user_password="pw", owner_password="owner")
    buf = io.BytesIO()
    writer.write(buf)
    with pytest.raises(SourceError, match="encrypted|password"):
        parse_bytes("locked.pdf", buf.getvalue())


def test_incremental_index_and_bad_sources_skipped(tmp_path: Path):
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "a.md").write_text("Alpha paragraph.\n\nBeta paragraph.\n")
    (tmp_path / "sources" / "BIN").write_bytes(b"\x00\x00binary")  # no extension: read only when text
    (tmp_path / "sources" / "bad.pdf").write_bytes(b"%PDF-garbage")
    ws = _ws(tmp_path)
    res = ws.index()
    assert res.indexed == ["sources/a.md"]
    assert set(res.errors) == {"sources/BIN", "sources/bad.pdf"}
    res = ws.index()
    assert res.indexed == [] and res.unchanged == 1
    # an edit re-indexes that file; the old version stays, superseded
    (tmp_path / "sources" / "a.md").write_text("Alpha paragraph.\n\nGamma paragraph.\n")
    res = ws.index()
    assert res.indexed == ["sources/a.md"]
    from cairn.core.chunking import chunk_id

    old = ws.store.lookup(chunk_id("sources/a.md", "Beta paragraph."))
    assert len(old) == 1 and old[0].current is False and old[0].text == "Beta paragraph."
    same = ws.store.lookup(chunk_id("sources/a.md", "Alpha paragraph."))
    assert any(c.current for c in same)
    # a deleted source: its chunks remain, none current
    (tmp_path / "sources" / "a.md").unlink()
    res = ws.index()
    assert res.removed == ["sources/a.md"]
    assert not any(c.current for c in ws.store.lookup(chunk_id("sources/a.md", "Alpha paragraph.")))


def test_chunk_chars_change_reindexes(tmp_path: Path):
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "a.md").write_text("word " * 100 + "\n")
    ws = _ws(tmp_path)
    ws.index()
    n_before = ws.store.current_chunk_count()
    (tmp_path / "cairn.toml").write_text("chunk_chars = 100\n")
    ws2 = _ws(tmp_path)
    res = ws2.index()
    assert res.indexed == ["sources/a.md"]
    assert ws2.store.current_chunk_count() > n_before


@pytest.mark.parametrize("damage", ["garbage", "truncate", "delete"])
def test_damaged_index_is_rebuilt(tmp_path: Path, damage: str):
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "a.md").write_text("Alpha paragraph.\n")
    ws = _ws(tmp_path)
    ws.index()
    ws.store.close()
    db = tmp_path / ".cairn" / "index.db"
    for extra in ("-wal", "-shm"):
        Path(str(db) + extra).unlink(missing_ok=True)
    if damage == "garbage":
        db.write_bytes(b"this is not sqlite" * 100)
    elif damage == "truncate":
        data = db.read_bytes()
        db.write_bytes(data[: len(data) // 3])
    else:
        shutil.rmtree(tmp_path / ".cairn")
    ws = _ws(tmp_path)
    res = ws.index()
    assert res.indexed == ["sources/a.md"]
    assert ws.store.current_chunk_count() == 1
    assert (tmp_path / ".cairn" / ".gitignore").read_text().splitlines()[1:] == ["*", "!.gitignore", "!snapshots/", "!snapshots/**"]
    if damage != "delete":
        assert ws.store.rebuilt_reason


def test_find_quote_uses_search_then_exact_check(tmp_path: Path):
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "a.md").write_text(
        "The cat sat on the mat.\n\nA cat sat there too, on a mat.\n\n東京は大きい都市です。\n"
    )
    ws = _ws(tmp_path)
    ws.index()
    hits = ws.store.find_quote("cat sat on the mat")
    assert [(c.source, pos) for c, pos in hits] == [("sources/a.md", 4)]
    assert ws.store.find_quote("at sat on the ma")[0][1] == 5  # words cut at both ends
    assert ws.store.find_quote("大きい")[0][1] == 3  # no whole word: a scan decides
    assert ws.store.find_quote("dog") == []


def test_symlink_leaving_the_roots_is_never_read(tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("Top secret paragraph.\n")
    ws_root = tmp_path / "ws"
    (ws_root / "sources").mkdir(parents=True)
    (ws_root / "sources" / "ok.md").write_text("Fine paragraph.\n")
    (ws_root / "sources" / "leak.md").symlink_to(outside / "secret.md")
    ws = _ws(ws_root)
    res = ws.index()
    assert res.indexed == ["sources/ok.md"]
    assert res.denied == ["sources/leak.md"]
    assert all("secret" not in c.text for c in ws.store.current_chunks())
    assert not ws.allowed("sources/leak.md")
    assert not ws.allowed("../outside/secret.md")
    assert not ws.allowed("/etc/passwd")
    assert not ws.allowed("sources/../../outside/secret.md")


def test_store_gc_keeps_cited_versions(tmp_path: Path):
    (tmp_path / "sources").mkdir()
    src = tmp_path / "sources" / "a.md"
    ws = _ws(tmp_path)
    src.write_text("One.\n")
    ws.index()
    src.write_text("Two.\n")
    ws.index()
    src.write_text("Three.\n")
    ws.index()
    from cairn.core.chunking import chunk_id

    assert ws.store.stats()["versions"] == 3
    dropped = ws.store.gc({(chunk_id("sources/a.md", "One."), None)})
    assert dropped == 1
    assert ws.store.lookup(chunk_id("sources/a.md", "One."))
    assert not ws.store.lookup(chunk_id("sources/a.md", "Two."))
    assert isinstance(Store, type)


def test_an_index_of_schema_1_is_migrated_with_its_superseded_versions(tmp_path: Path):
    """Schema 2 moved versions.text last. An index made by a Cairn of schema 1
    is migrated, not rebuilt: an old version may be stored nowhere else."""
    import sqlite3

    from cairn.store import SCHEMA_VERSION

    (tmp_path / "sources").mkdir()
    src = tmp_path / "sources" / "a.md"
    src.write_text("Refunds take 14 days.\n")
    ws = _ws(tmp_path)
    ws.index()
    (old,) = ws.store.current_chunks()
    src.write_text("Refunds take 30 days.\n")
    ws.index()
    ws.store.close()
    db = tmp_path / ".cairn" / "index.db"
    with sqlite3.connect(db) as conn:  # the layout schema 1 had: text before indexed_at
        conn.executescript(
            """
            CREATE TABLE v1 (id INTEGER PRIMARY KEY, source TEXT NOT NULL, version TEXT NOT NULL,
              lineage TEXT NOT NULL, chunk_chars INTEGER NOT NULL, pages TEXT, text BLOB NOT NULL,
              indexed_at REAL NOT NULL, UNIQUE (source, version, lineage, chunk_chars));
            INSERT INTO v1 SELECT id, source, version, lineage, chunk_chars, pages, text, indexed_at FROM versions;
            DROP TABLE versions;
            ALTER TABLE v1 RENAME TO versions;
            UPDATE meta SET value = '1' WHERE key = 'schema';
            """
        )
    store = Store(tmp_path)
    assert store.rebuilt_reason is None
    (superseded,) = store.lookup(old.chunk_id)
    assert not superseded.current and superseded.text == "Refunds take 14 days."
    # migrated rows carry no MAC (cairn.provenance): the current text is read from the file again
    assert store.current_chunks() == []
    Workspace(tmp_path, load_settings(tmp_path), store=store).index()
    assert [c.text for c in store.current_chunks()] == ["Refunds take 30 days."]
    assert store.provenance_note(store.lookup(old.chunk_id)[0])
    with sqlite3.connect(db) as conn:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(versions)")]
        assert cols[-1] == "text"
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == SCHEMA_VERSION
    # and the index keeps working: a new version is stored beside them
    src.write_text("Refunds take 45 days.\n")
    ws2 = Workspace(tmp_path, load_settings(tmp_path), store=store)
    ws2.index()
    assert len(store.lookup(old.chunk_id)) == 1 and store.current_chunks()[0].text == "Refunds take 45 days."


@pytest.mark.parametrize("batch_files", [64, 2])
def test_a_source_that_cannot_be_stored_costs_only_itself(tmp_path: Path, monkeypatch, batch_files: int):
    """Parsed sources are stored together; when that fails, one by one, so
    only the source at fault is reported and every other one is kept."""
    (tmp_path / "sources").mkdir()
    for name in "abcde":
        (tmp_path / "sources" / f"{name}.md").write_text(f"Paragraph of {name}.\n")
    ws = _ws(tmp_path)
    monkeypatch.setattr(ws, "BATCH_FILES", batch_files)
    real = Store._insert_version

    def failing(self, c, v, blob, firsts):  # a fault injected into the real write path
        if v.source == "sources/c.md":
            raise ValueError("injected write failure")
        return real(self, c, v, blob, firsts)

    monkeypatch.setattr(Store, "_insert_version", failing)
    res = ws.index()
    assert res.errors == {"sources/c.md": "ValueError: injected write failure"}
    assert sorted(res.indexed) == ["sources/a.md", "sources/b.md", "sources/d.md", "sources/e.md"]
    assert sorted(c.source for c in ws.store.current_chunks()) == sorted(res.indexed)
    assert ws.store.source_errors() == {"sources/c.md": "ValueError: injected write failure"}
    monkeypatch.setattr(Store, "_insert_version", real)
    again = ws.index()
    assert again.indexed == ["sources/c.md"] and again.errors == {} and again.unchanged == 4
    assert ws.store.source_errors() == {}


def test_every_chunk_of_a_batch_enters_the_full_text_index(tmp_path: Path):
    """Versions stored together are indexed for search together (one statement a
    batch); replacing versions in a later batch keeps the search index equal to
    the chunks (FTS5's own integrity check compares them)."""
    import sqlite3

    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)

    def write(tag: str) -> None:
        for i in range(6):
            paras = [f"Paragraph {j} of file {i} holds the word w{tag}f{i}p{j} once." for j in range(4)]
            (root / "sources" / f"d{i}.md").write_text("\n\n".join(paras) + "\n", encoding="utf-8")

    ws = _ws(root)
    write("one")
    assert len(ws.index().indexed) == 6
    write("two")  # every file changes: six new versions in one batch, the old ones superseded
    assert len(ws.index().indexed) == 6
    for tag in ("one", "two"):
        for i in range(6):
            for j in range(4):
                word = f"w{tag}f{i}p{j}"
                found = ws.store.search_words([word])
                assert [c.source for c in found] == ([f"sources/d{i}.md"] if tag == "two" else []), word
    ws.store.close()
    with sqlite3.connect(root / ".cairn" / "index.db") as db:
        db.execute("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('integrity-check', 1)")
        rows = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        assert rows == 6 * 4 * 2  # both versions of every file are kept
        hits = db.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'wonef0p0 OR wtwof5p3'").fetchone()
        assert hits[0] == 2  # superseded chunks stay searchable (their versions are kept)


def test_the_full_text_index_is_written_in_large_segments_on_old_and_new_indexes(tmp_path: Path):
    """A new index sets FTS5's in-memory table size (sqlite_bulk.FTS_HASH_BYTES); an index
    made without it gets it when opened, and answers every search as before."""
    import sqlite3

    from cairn.store.sqlite_bulk import FTS_HASH_BYTES

    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    for i in range(5):
        (root / "sources" / f"d{i}.md").write_text(
            f"# Doc {i}\n\nRefunds for order {i} are paid within {10 + i} days.\n\nCredit notes expire.\n")
    db = root / ".cairn" / "index.db"
    ws = _ws(root)
    ws.index()

    def hashsize() -> int | None:
        with sqlite3.connect(db) as conn:
            row = conn.execute("SELECT v FROM chunks_fts_config WHERE k = 'hashsize'").fetchone()
        return row[0] if row else None

    def answers(store: Store) -> tuple:
        return ([(c.chunk_id, off) for c, off in store.find_quote("are paid within 12 days")],
                sorted(c.chunk_id for c in store.search_words(["credit", "exp"])),
                [c.chunk_id for c in store.rank(["refunds", "order", "3"], 3)])

    before = answers(ws.store)
    assert before[0] and len(before[1]) == 5 and before[2]
    assert hashsize() == FTS_HASH_BYTES
    ws.store.close()
    with sqlite3.connect(db) as conn:  # as an index written before the setting was
        conn.execute("DELETE FROM chunks_fts_config WHERE k = 'hashsize'")
    assert hashsize() is None
    store = Store(root)
    assert hashsize() == FTS_HASH_BYTES
    assert answers(store) == before
    store.close()


def test_ranking_sees_a_change_of_the_index_made_by_this_store_or_another(tmp_path: Path) -> None:
    """The word counts the ranking keeps between searches (sqlite_search._vocab_counts) are
    dropped when the index changes, through this connection or another process's."""
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    for i in range(3):
        (root / "sources" / f"d{i}.md").write_text(f"# Doc {i}\n\nParcels to island {i} travel by ferry.\n")
    ws = _ws(root)
    ws.index()
    store = ws.store
    assert store.rank(["zeppelin"], 3) == []  # the word is in no chunk: counted as absent
    (root / "sources" / "d9.md").write_text("# Doc 9\n\nParcels to the mainland travel by zeppelin.\n")
    ws.index()  # the same store writes the new version
    assert [c.source for c in store.rank(["zeppelin"], 3)] == ["sources/d9.md"]
    assert store.rank(["rocket"], 3) == []
    other = _ws(root)  # another handle on the same file, as another process would be
    (root / "sources" / "d8.md").write_text("# Doc 8\n\nLetters to the moon travel by rocket.\n")
    other.index()
    assert [c.source for c in store.rank(["rocket"], 3)] == ["sources/d8.md"]
