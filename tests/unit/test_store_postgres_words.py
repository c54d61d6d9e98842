"""The PostgreSQL store's index of words (schema 5): a quote's candidate chunks
are those holding its whole words, and that must never leave out a chunk that
holds the quote as a substring, whatever its punctuation, case, hyphens,
apostrophes, digits, URLs, tags or other scripts. Checked on the test run's
own PostgreSQL (tests/pg_server.py): the words Cairn works out (store.pg_words),
read by the server as a tsvector and matched with its tsquery, against Python's
`in`; then find_quote and search_words against a scan of every chunk, and the
migration of databases made with schemas 3 and 4."""

from __future__ import annotations

import re
import re._casefix
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cairn.chunking import RawChunk, chunk_document
from cairn.store import pg_words
from cairn.store.postgres import MIGRATIONS, PostgresStore

# pieces whose tokens PostgreSQL's parser would make depend on what stands around them
PIECES = ["foo-bar", "don't", "l’été", "e-mail", "http://example.com/a-b?x=1", "www.example.com", "a@b.org",
          "1.2.3", "3.14", "-5", "1e5", "12ab34", "<b class=x y>", "</p>", "&amp;", "x²", "½", "Ⅻ", "İstanbul",
          "straße", "STRASSE", "ǅemal", "cafe\u0301", "café", "東京タワー", "Ωmega", "x_y", "C++", "/usr/bin",
          "50%", "a\\b", "#tag", "—", "…", "“q”", "\t", "\n", " ", "  ", ".", ",", "Word", "word", "WORD", "the",
          "of", "and", "0", "007", "٣٤", "ﬁne"]
TEXT = st.lists(st.one_of(st.sampled_from(PIECES),
                          st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                                  max_size=6)),
                min_size=1, max_size=30).map("".join).filter(bool)


def _slice(data: st.DataObject, text: str) -> str:
    start = data.draw(st.integers(0, len(text) - 1))
    return text[start:data.draw(st.integers(start + 1, len(text)))]


@pytest.fixture(scope="module")
def conn(postgres_server):
    import psycopg

    with psycopg.connect(postgres_server.new_database(), autocommit=True) as c:
        yield c


def _matches(conn, text: str, query: str) -> bool:
    """Whether the server, reading the words of `text` as COPY writes them, matches `query`."""
    with conn.transaction():
        conn.execute("CREATE TEMP TABLE w (words tsvector) ON COMMIT DROP")
        with conn.cursor().copy("COPY w (words) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types((pg_words.WORDS_COPY_TYPE,))
            copy.write_row((pg_words.tsvector_binary(text),))
        return conn.execute("SELECT words @@ %s::tsquery FROM w", (query,)).fetchone()[0]


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), text=TEXT)
def test_a_text_holding_a_quote_holds_its_words(conn, data, text):
    """The words of a text, as the server reads them, match the quote's query whenever the text holds the quote."""
    quote = _slice(data, text)
    query = pg_words.quote_query(quote)
    if not query:
        return  # no whole word: find_quote scans with LIKE alone
    assert _matches(conn, text, query), (text, quote, query)


@settings(max_examples=1500, deadline=None)
@given(text=st.one_of(TEXT, st.text(max_size=80)))
def test_the_quick_words_of_a_text_are_its_plain_words(text):
    """text_lexemes (bytes cut in C) gives the very words of reading each run of letters and digits."""
    assert pg_words.text_lexemes(text) == pg_words._lexemes(re.findall(r"[^\W_]+", text))


def test_the_server_reads_the_words_as_written(conn):
    text = "The Refund policy: see http://Example.com/a-b, or ΟΔΟΣ İstanbul."
    with conn.transaction():
        conn.execute("CREATE TEMP TABLE w (words tsvector) ON COMMIT DROP")
        with conn.cursor().copy("COPY w (words) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types((pg_words.WORDS_COPY_TYPE,))
            copy.write_row((pg_words.tsvector_binary(text),))
        held = conn.execute("SELECT words::text FROM w").fetchone()[0]
    assert held == "'a' 'b' 'com' 'example' 'http' 'istanbul' 'or' 'policy' 'refund' 'see' 'the' 'οδοσ'"
    assert not _matches(conn, text, "'refunds' | '-none-'") and _matches(conn, text, "'poli':*")


def test_the_query_holds_the_whole_words_only():
    q = pg_words.quote_query
    assert q("ing the refund pol") == "'refund' & 'the' | '-every-'"  # the cut first and last runs are left out
    assert q(" the Refund policy.") == "'policy' & 'refund' & 'the' | '-every-'"
    assert q("see http://Example.com/a-b") == "'a' & 'com' & 'example' & 'http' | '-every-'"
    assert q("refund") == q("refund policy") == q("...") == ""
    assert pg_words.words_query([], "Refu") == "'refu':* | '-every-'"
    assert pg_words.words_query(["Refund"], "po") == "'refund' | '-every-'"


def test_words_are_folded_as_case_insensitive_matching_compares_letters():
    """Two letters Python's case-insensitive matching takes for one another are one letter
    in the index (so search_words finds a word in any case), and no letter becomes another
    that such a match would not take for it."""
    for cp in range(0x30000):
        c = chr(cp)
        if not c.isalnum():
            continue
        folded = pg_words.fold(c)
        assert len(folded) == 1 and re.fullmatch(re.escape(folded), c, re.IGNORECASE), hex(cp)
        for other in {c.lower(), c.upper(), c.title(), c.casefold()}:
            if len(other) == 1 and re.fullmatch(re.escape(c), other, re.IGNORECASE):
                assert pg_words.fold(other) == folded, (hex(cp), hex(ord(other)))
    for cp, others in re._casefix._EXTRA_CASES.items():  # the letters the regular expressions join besides
        assert {pg_words.fold(chr(o)) for o in others} == {pg_words.fold(chr(cp))}, hex(cp)
    assert pg_words.fold("İSTANBUL") == pg_words.fold("istanbul") == "istanbul"
    assert pg_words.fold("ΟΔΟΣ") == pg_words.fold("οδος")


# -- through the store -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def store(tmp_path_factory, postgres_server):
    """Chunks of random texts with every piece above, stored through add_version."""
    import random

    rng = random.Random(17)
    root = tmp_path_factory.mktemp("words")
    s = PostgresStore(root, postgres_server.new_database())
    for n in range(40):
        text = "\n\n".join("".join(rng.choice(PIECES + ["refund", "policy", "Refund", "order"])
                                   for _ in range(rng.randint(3, 40))) for _ in range(8))
        ident = f"sources/doc{n}.md"
        s.add_version(ident, f"{n:064x}", "text/1", 1200, text, None, chunk_document(ident, text), make_current=True)
    yield s
    s.close()


def _scan(store: PostgresStore, quote: str) -> list[tuple[str, int]]:
    out = []
    for ch in store.current_chunks():
        pos = ch.text.find(quote)
        while pos >= 0:
            out.append((ch.chunk_id, pos))
            pos = ch.text.find(quote, pos + 1)
    return sorted(out)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_find_quote_finds_every_place_a_scan_finds(store, data):
    chunks = store.current_chunks()
    if data.draw(st.booleans()):
        quote = _slice(data, data.draw(st.sampled_from(chunks)).text)
    else:
        quote = data.draw(TEXT)
    got = sorted((ch.chunk_id, pos) for ch, pos in store.find_quote(quote, limit=10**6))
    assert got == _scan(store, quote)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_search_words_finds_every_chunk_holding_the_words(store, data):
    chunks = store.current_chunks()
    runs = re.findall(r"[^\W_]+", data.draw(st.sampled_from(chunks)).text)
    if not runs:
        return
    words = data.draw(st.lists(st.sampled_from(runs), min_size=1, max_size=3))
    if data.draw(st.booleans()):  # the last one typed in part
        words[-1] = words[-1][:data.draw(st.integers(1, len(words[-1])))]
    whole = [re.compile(r"(?<![^\W_])" + re.escape(w) + r"(?![^\W_])", re.IGNORECASE) for w in words[:-1]]
    whole.append(re.compile(r"(?<![^\W_])" + re.escape(words[-1]), re.IGNORECASE))
    want = {ch.chunk_id for ch in chunks if all(p.search(ch.text) for p in whole)}
    assert {ch.chunk_id for ch in store.search_words(words, limit=10**5)} == want


def test_quotes_and_words_use_the_index(store):
    def plan(c):
        with c.transaction():
            c.execute("SET LOCAL enable_seqscan = off")
            return "\n".join(r[0] for r in c.execute(
                "EXPLAIN SELECT ch.id FROM cairn_chunks ch WHERE ch.words @@ %s::tsquery",
                (pg_words.quote_query(" refund policy "),)))
    assert "Bitmap Index Scan on cairn_chunks_words" in store._run("read", plan)


def test_a_chunk_with_too_many_words_for_a_tsvector_is_still_found(postgres_server, tmp_path: Path):
    """A chunk of a million characters can hold more words than one tsvector takes: it is
    stored (nothing fails) and found by every quote it holds, read by the exact test."""
    import random

    rng = random.Random(5)
    words = list(dict.fromkeys("".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(3))
                               for _ in range(130_000)))
    text = " ".join(words)
    assert len(text.encode()) > pg_words.MAX_TSVECTOR_BYTES
    assert pg_words.tsvector_binary(text) == pg_words.tsvector_binary("-every-")[:4] + b"-every-\0\0\0"
    store = PostgresStore(tmp_path, postgres_server.new_database())
    try:
        store.add_version("sources/big.txt", "b" * 64, "text/1", 1_000_000, text, None,
                          [RawChunk("c" * 16, 0, len(text), None, text)], make_current=True)
        store.add_version("sources/small.txt", "c" * 64, "text/1", 1200, "a small text", None,
                          chunk_document("sources/small.txt", "a small text"), make_current=True)
        quote = " ".join(words[500:503])
        assert [(ch.chunk_id, pos) for ch, pos in store.find_quote(quote)] == [("c" * 16, text.index(quote))]
        assert [ch.source for ch, _ in store.find_quote(" small ")] == ["sources/small.txt"]
        assert [ch.chunk_id for ch in store.search_words([words[7], words[9]])] == ["c" * 16]
    finally:
        store.close()


# -- the migration -----------------------------------------------------------------------------


def _indexes(store: PostgresStore) -> set[str]:
    return store._run("read", lambda c: {r[0] for r in c.execute(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'cairn_chunks'")})


@pytest.mark.parametrize("schema", [3, 4])
def test_an_older_schema_is_migrated_to_the_index_of_words(postgres_server, tmp_path: Path, monkeypatch, schema):
    """Schema 3 (trigrams) and 4 (the server's words) to 5: the words of the chunks already
    stored are worked out, more of them than one batch of the migration. The older
    database is the same tables without the column of words, with that schema's index."""
    url = postgres_server.new_database()
    text = "The refund policy: thirty days.\n\nAnother paragraph, with an e-mail address a@b.org."
    chunks = chunk_document("sources/p.md", text)
    old = PostgresStore(tmp_path, url)
    try:
        old.add_version("sources/p.md", "a" * 64, "text/1", 1200, text, None, chunks, make_current=True)
        for n in range(30):  # more chunks than a batch of the fill below
            other = f"Filler paragraph {n}, nothing else."
            old.add_version(f"sources/f{n}.md", f"{n:064x}", "text/1", 1200, other, None,
                            chunk_document(f"sources/f{n}.md", other), make_current=True)

        def downgrade(c) -> None:
            c.execute("ALTER TABLE cairn_chunks DROP COLUMN words")  # its index goes with it
            old_index = [s for s in MIGRATIONS[schema - 1] if isinstance(s, str) and "CREATE INDEX" in s]
            for statement in [s for s in MIGRATIONS[0] if "trgm" in s] if schema == 3 else old_index:
                c.execute(statement)
            c.execute("UPDATE cairn_meta SET value = %s WHERE key = 'schema'", (str(schema),))
        old._run("write", downgrade, write=True)
        assert old.schema() == str(schema) and ("cairn_chunks_trgm" in _indexes(old)) == (schema == 3)
    finally:
        old.close()
    monkeypatch.setattr(pg_words.fill, "__defaults__", (7,))
    new = PostgresStore(tmp_path, url)  # first use migrates
    try:
        assert new.schema() == str(len(MIGRATIONS)) == "5"
        got = _indexes(new)
        assert "cairn_chunks_words" in got and "cairn_chunks_trgm" not in got
        assert new._run("read", lambda c: c.execute(
            "SELECT count(*) FROM cairn_chunks WHERE words = ''::tsvector").fetchone()[0]) == 0
        assert new._run("read", lambda c: c.execute(
            "SELECT words::text FROM cairn_chunks WHERE text LIKE 'Filler paragraph 3,%'").fetchone()[0]) == \
            "'3' 'else' 'filler' 'nothing' 'paragraph'"
        assert [ch.source for ch, _ in new.find_quote("Filler paragraph 17, nothing")] == ["sources/f17.md"]
        assert [(ch.chunk_id, pos) for ch, pos in new.find_quote("refund policy: thirty")] == [(chunks[0].chunk_id, 4)]
        assert [(ch.chunk_id, pos) for ch, pos in new.find_quote(", with an e-mail address a@b")] == \
            [(chunks[1].chunk_id, 17)]
        assert [c.chunk_id for c in new.search_words(["mail", "addr"])] == [chunks[1].chunk_id]
    finally:
        new.close()


def test_a_new_database_needs_no_trigram_extension(postgres_server, tmp_path: Path):
    store = PostgresStore(tmp_path, postgres_server.new_database())
    try:
        assert "cairn_chunks_trgm" not in _indexes(store) and "cairn_chunks_words" in _indexes(store)
        assert store._run("read", lambda c: c.execute(
            "SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'").fetchone()[0]) == 0
    finally:
        store.close()


def test_a_clone_making_stored_versions_current_refreshes_the_statistics(postgres_server, tmp_path: Path):
    """A second clone's index only makes stored versions current: cairn_current's statistics
    are refreshed as it goes, or the planner would take the clone for one with a single source."""
    url = postgres_server.new_database()
    first = PostgresStore(tmp_path / "a", url)
    second = PostgresStore(tmp_path / "b", url)
    try:
        ids = []
        for n in range(3):
            text = f"Paragraph {n} of a source."
            ident = f"sources/s{n}.md"
            ids.append(first.add_version(ident, f"{n:064x}", "text/1", 1200, text, None,
                                         chunk_document(ident, text), make_current=True))

        def tuples() -> float:
            return second._run("read", lambda c: c.execute(
                "SELECT reltuples FROM pg_class WHERE relname = 'cairn_current'").fetchone()[0])
        assert tuples() < 0  # never analyzed
        second.CURRENT_ANALYZE_AFTER = 3
        for n, vid in enumerate(ids):
            second.set_current(f"sources/s{n}.md", vid)
        assert tuples() == 6
    finally:
        first.close()
        second.close()
