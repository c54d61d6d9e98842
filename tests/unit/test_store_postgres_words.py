"""The PostgreSQL store's index of words (schema 4): a quote's candidate chunks
are those holding its whole words, and that must never leave out a chunk that
holds the quote as a substring, whatever its punctuation, case, hyphens,
apostrophes, digits, URLs, tags or other scripts. Checked on the test run's
own PostgreSQL (tests/pg_server.py): the server's own expressions against
Python's `in`, then find_quote and search_words against a scan of every
chunk, and the migration of a database made with schema 3."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cairn.store.postgres as pg_mod
from cairn.core.chunking import chunk_document
from cairn.store.postgres import _QUOTE_WORDS, _WORDS, MIGRATIONS, PostgresStore

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


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), text=TEXT)
def test_a_text_holding_a_quote_holds_its_words(conn, data, text):
    """The server's own words of a text match the quote's query whenever the text holds the quote."""
    quote = _slice(data, text)
    words = conn.execute(_QUOTE_WORDS, {"quote": quote}).fetchone()[0]
    if not words:
        return  # no whole word: find_quote scans with LIKE alone
    hit = conn.execute(f"SELECT {_WORDS.format('%s::text')} @@ %s::tsquery", (text, words)).fetchone()[0]
    assert hit, (text, quote, words)


def test_the_query_holds_the_whole_words_only(conn):
    def words(q: str) -> str:
        return conn.execute(_QUOTE_WORDS, {"quote": q}).fetchone()[0]
    assert words("ing the refund pol") == "'the' & 'refund'"  # the cut first and last runs are left out
    assert words(" the refund policy.") == "'the' & 'refund' & 'policy'"
    assert words("see http://Example.com/a-b") == "'http' & 'example' & 'com' & 'a'"
    assert words("refund") == words("refund policy") == words("...") == ""


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
    """The queries name the index's own expression, so the planner can use it."""
    def plan(c):
        with c.transaction():
            c.execute("SET LOCAL enable_seqscan = off")
            return "\n".join(r[0] for r in c.execute(
                f"EXPLAIN SELECT ch.id FROM cairn_chunks ch WHERE {_WORDS.format('ch.text')} @@ %s::tsquery",
                ("'refund' & 'policy'",)))
    assert "Bitmap Index Scan on cairn_chunks_words" in store._run("read", plan)


# -- the migration -----------------------------------------------------------------------------


def _indexes(store: PostgresStore) -> set[str]:
    return store._run("read", lambda c: {r[0] for r in c.execute(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'cairn_chunks'")})


def test_schema_3_is_migrated_to_the_index_of_words(postgres_server, tmp_path: Path, monkeypatch):
    url = postgres_server.new_database()
    text = "The refund policy: thirty days.\n\nAnother paragraph, with an e-mail address a@b.org."
    chunks = chunk_document("sources/p.md", text)
    monkeypatch.setattr(pg_mod, "MIGRATIONS", MIGRATIONS[:3])
    old = PostgresStore(tmp_path, url)
    try:
        assert old.schema() == "3" and "cairn_chunks_trgm" in _indexes(old)
        old.add_version("sources/p.md", "a" * 64, "text/1", 1200, text, None, chunks, make_current=True)
    finally:
        old.close()
    monkeypatch.setattr(pg_mod, "MIGRATIONS", MIGRATIONS[:4])
    new = PostgresStore(tmp_path, url)  # first use migrates
    try:
        assert new.schema() == "4"
        got = _indexes(new)
        assert "cairn_chunks_words" in got and "cairn_chunks_trgm" not in got
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
