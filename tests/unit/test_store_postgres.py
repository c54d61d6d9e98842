"""The PostgreSQL store against the SQLite store on the same sources: quote
search, word search, id prefixes, lookups of superseded versions and texts
PostgreSQL's text type cannot hold. A real server: the test run's own
throw-away PostgreSQL on 127.0.0.1 (tests/pg_server.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cairn.core.chunking import chunk_document
from cairn.core.config import load_settings
from cairn.index.workspace import Workspace
from cairn.store import Store
from cairn.store.postgres import PostgresStore

WORDS = "policy refund order store customer days within the of and zq1 zq2 zq3".split()
ODD = ["café", "cafe\u0301", "東京", "x_y", "C++", "1,000", "14.5", "don't", "—", "50%", "a\\b", "e-mail",
       "example.com/path", "Ⅻ", "ǅemal", "(see §3)", "“quoted”"]


def _paragraph(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) if rng.random() < 0.75 else rng.choice(ODD)
                    for _ in range(rng.randint(5, 25))) + "."


@pytest.fixture(scope="module")
def both(tmp_path_factory, postgres_server) -> tuple[Workspace, Workspace]:
    """One corpus indexed twice, into SQLite and into PostgreSQL, with superseded versions."""
    root = tmp_path_factory.mktemp("corpus")
    rng = random.Random(5)
    src = root / "sources"
    src.mkdir()
    for i in range(6):
        (src / f"doc{i}.md").write_text("\n\n".join(_paragraph(rng) for _ in range(30)) + "\n", encoding="utf-8")
    settings_ = load_settings(root)
    lite = Workspace(root, settings_, store=Store(root))
    pg = Workspace(root, settings_, store=PostgresStore(root, postgres_server.new_database()))
    for ws in (lite, pg):
        ws.index()
    for i in (0, 3):
        (src / f"doc{i}.md").write_text("\n\n".join(_paragraph(rng) for _ in range(30)) + "\n", encoding="utf-8")
    for ws in (lite, pg):
        ws.index()
    yield lite, pg
    pg.store.close()


def _found(ws: Workspace, quote: str) -> list[tuple[str, str, int, int]]:
    return [(ch.source, ch.chunk_id, ch.start, pos) for ch, pos in ws.store.find_quote(quote, terms={})]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_quotes_are_found_as_sqlite_finds_them(both, data):
    lite, pg = both
    if data.draw(st.booleans()):
        text = data.draw(st.sampled_from(lite.store.current_chunks())).text
        start = data.draw(st.integers(0, len(text) - 1))
        quote = text[start:data.draw(st.integers(start + 1, min(len(text), start + 80)))]
    else:
        quote = " ".join(data.draw(st.lists(st.sampled_from(WORDS + ODD + ["%", "_", "\\", "%_"]),
                                            min_size=1, max_size=4)))
    assert _found(pg, quote) == _found(lite, quote)


def test_current_chunks_lookups_and_versions_match(both):
    lite, pg = both
    key = [(c.chunk_id, c.source, c.version, c.start, c.end, c.page, c.text, c.current)
           for c in lite.store.current_chunks()]
    assert [(c.chunk_id, c.source, c.version, c.start, c.end, c.page, c.text, c.current)
            for c in pg.store.current_chunks()] == key
    assert pg.store.current_chunk_count() == lite.store.current_chunk_count() == len(key)
    # every id ever stored, superseded ones included, resolves the same way
    ids = {c[0] for c in key}
    for v in lite.store.current_versions().values():
        assert pg.store.version_text(pg.store.current_version(v.source).id) == lite.store.version_text(v.id)
    old = set()
    for vid in range(1, 20):
        try:
            text = lite.store.version_text(vid)
        except KeyError:
            continue
        old |= {c.chunk_id for c in chunk_document("sources/doc0.md", text)}
    wanted = sorted(ids | old)
    got_lite = lite.store.lookup_many(wanted)
    got_pg = pg.store.lookup_many(wanted)
    assert {k: [(c.version, c.start, c.current) for c in v] for k, v in got_pg.items()} == \
        {k: [(c.version, c.start, c.current) for c in v] for k, v in got_lite.items()}
    assert any(not c.current for v in got_pg.values() for c in v)  # superseded versions resolve too
    cid = key[0][0]
    assert sorted(pg.store.versions_of(cid)) == sorted(lite.store.versions_of(cid))
    assert [c.chunk_id for c in pg.store.chunk_ids_with_prefix(cid[:3])] == \
        [c.chunk_id for c in lite.store.chunk_ids_with_prefix(cid[:3])]


def test_word_search_finds_whole_words_and_a_prefix(both):
    lite, pg = both
    for words in (["refund", "cus"], ["zq1"], ["café"], ["days", "within", "po"]):
        got = {c.chunk_id for c in pg.store.search_words(words, limit=500)}
        want = {c.chunk_id for c in lite.store.search_words(words, limit=500)}
        assert got == want and got, words
    assert pg.store.search_words(["zq"]) and not pg.store.search_words(["zqzq"])


def test_text_postgresql_cannot_hold_round_trips(postgres_server, tmp_path: Path):
    store = PostgresStore(tmp_path, postgres_server.new_database())
    try:
        text = "before\x00after and a lone \ud800 surrogate\n\nplain paragraph"
        chunks = chunk_document("sources/odd.txt", text)
        vid = store.add_version("sources/odd.txt", "f" * 64, "text/1", 1200, text, None, chunks, make_current=True)
        assert store.version_text(vid) == text
        got = store.current_chunks()
        assert [c.text for c in got] == [c.text for c in chunks]
        assert [(ch.chunk_id, pos) for ch, pos in store.find_quote("e\x00a")] == [(chunks[0].chunk_id, 5)]
        assert store.lookup(chunks[0].chunk_id)[0].text == chunks[0].text
    finally:
        store.close()


def test_purge_retention_and_version_info_match_sqlite(postgres_server, tmp_path: Path):
    """The retention operations give the same answers on both stores; a purge
    leaves no row of the source, and its versions are recorded until lifted."""
    import time

    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    memo, other = root / "sources" / "memo.md", root / "sources" / "other.md"
    memo.write_text("The first memo text.\n", encoding="utf-8")
    other.write_text("Another source.\n", encoding="utf-8")
    settings_ = load_settings(root)
    lite = Workspace(root, settings_, store=Store(root))
    pg = Workspace(root, settings_, store=PostgresStore(root, postgres_server.new_database()))
    try:
        for ws in (lite, pg):
            ws.index()
        memo.write_text("The second memo text.\n", encoding="utf-8")
        for ws in (lite, pg):
            ws.index()
        first = lite.store.lookup(chunk_document("sources/memo.md", "The first memo text.\n", None, 1200)[0].chunk_id)
        old_version = first[0].version
        for ws in (lite, pg):
            info = ws.store.version_info("sources/memo.md", old_version)
            assert info is not None and info.lineage.startswith("text/") and info.version == old_version
            assert ws.store.version_info("sources/memo.md", "0" * 64) is None
            # nothing superseded is older than an hour ago
            assert ws.store.drop_superseded_before(time.time() - 3600) == 0
        got = [ws.store.purge(["sources/memo.md"]) for ws in (lite, pg)]
        assert got == [2, 2]
        for ws in (lite, pg):
            assert "sources/memo.md" not in ws.store.current_versions()
            assert ws.store.version_info("sources/memo.md", old_version) is None
            assert {v for s, v in ws.store.purged_versions("sources/memo.md")} >= {old_version}
            assert len(ws.store.purged_versions()) == 2
            assert ws.store.lift_purge(["sources/memo.md"]) == 2
            assert ws.store.purged_versions() == set()
            assert "sources/other.md" in ws.store.current_versions()
    finally:
        pg.store.close()
        lite.store.close()
