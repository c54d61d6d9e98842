"""Finding a quote across the current sources (store.find_quote) and the
unknown-chunk suggestion that uses it, on a real index."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cairn.core.config import load_settings
from cairn.core.model import Chunk
from cairn.drafts import parse_draft
from cairn.index.workspace import Workspace
from cairn.store import Store
from cairn.verify.verifier import Verifier

COMMON = "policy refund order store customer days within the of and".split()
RARE = [f"zq{i:03d}" for i in range(400)]
ODD = [
    "café", "cafe\u0301", "naïve", "हिन्दी", "ภาษาไทย", "مَرْحَبًا", "ǅemal", "Ⅻ", "x²", "東京", "x_y", "C++", "1,000",
    "14.5", "don't", "—", "\u00a0",
]


def _paragraph(rng: random.Random) -> str:
    words = []
    for _ in range(rng.randint(6, 30)):
        r = rng.random()
        words.append(rng.choice(COMMON) if r < 0.7 else rng.choice(RARE) if r < 0.93 else rng.choice(ODD))
    return " ".join(words) + "."


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Workspace:
    """Sources where the common words are in far more chunks than Store.RARE_TERM,
    with superseded versions (in the search index, never current) beside them."""
    root = tmp_path_factory.mktemp("corpus")
    rng = random.Random(11)
    src = root / "sources"
    src.mkdir()
    for i in range(8):
        (src / f"doc{i}.md").write_text("\n\n".join(_paragraph(rng) for _ in range(40)) + "\n", encoding="utf-8")
    ws = Workspace(root, load_settings(root))
    ws.index()
    for i in range(0, 8, 2):  # half the sources change: their old chunks stay stored
        (src / f"doc{i}.md").write_text("\n\n".join(_paragraph(rng) for _ in range(40)) + "\n", encoding="utf-8")
    ws.index()
    assert ws.store.current_chunk_count() == 320
    return ws


def _scan(store: Store, quote: str, limit: int = 50) -> list[tuple[str, str, int]]:
    out = []
    for ch in store.current_chunks():
        pos = ch.text.find(quote)
        while pos >= 0 and len(out) < limit:
            out.append((ch.source, ch.chunk_id, pos))
            pos = ch.text.find(quote, pos + 1)
    return out


def _found(store: Store, quote: str, terms: dict) -> list[tuple[str, str, int]]:
    return [(ch.source, ch.chunk_id, pos) for ch, pos in store.find_quote(quote, terms=terms)]


# the store's own limits, and limits under which this corpus's common words are common
LIMITS = [None, (40, 8)]
_TERMS: dict = {}  # counts shared across examples, as a Verifier keeps them while the store is unchanged


@pytest.mark.parametrize("limits", LIMITS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_find_quote_equals_a_scan_of_every_current_chunk(corpus: Workspace, limits, monkeypatch, data):
    store = corpus.store
    if limits:
        monkeypatch.setattr(store, "RARE_TERM", limits[0])
        monkeypatch.setattr(store, "VERY_RARE_TERM", limits[1])
    chunks = data.draw(st.sampled_from(["current", "old", "made-up"]))
    if chunks == "made-up":
        words = data.draw(st.lists(st.sampled_from(COMMON + RARE[:20] + ODD), min_size=1, max_size=8))
        quote = " ".join(words)
    else:
        pool = store.current_chunks() if chunks == "current" else _superseded(store)
        text = data.draw(st.sampled_from(pool)).text
        start = data.draw(st.integers(0, len(text) - 1))
        end = data.draw(st.integers(start + 1, min(len(text), start + 120)))
        quote = text[start:end]
    assert _found(store, quote, _TERMS.setdefault(limits, {})) == _scan(store, quote)


_OLD: list = []


def _superseded(store: Store) -> list:
    if not _OLD:
        with store._lock:
            rows = store._conn.execute(
                store._ROWS_SQL + " WHERE ch.version_id NOT IN (SELECT version_id FROM current)"
            ).fetchall()
        _OLD.extend(Chunk(r[0], r[1], r[2], r[3], r[4], r[5], r[6], False) for r in rows)
    return _OLD


def test_common_words_only_fall_back_to_the_phrase_search(corpus: Workspace, monkeypatch):
    store = corpus.store
    monkeypatch.setattr(store, "RARE_TERM", 40)
    terms: dict = {}
    quote = next(
        ch.text[:60] for ch in store.current_chunks()
        if not any(w in ch.text[:60] for w in RARE + ODD) and len(ch.text) > 60
    )
    assert _found(store, quote, terms) == _scan(store, quote) != []
    assert terms and all(n == 40 for n in terms.values())  # every word was too common to narrow the search


def test_a_quote_found_nowhere_is_not_found(corpus: Workspace):
    assert corpus.store.find_quote("zq001 zq002 zq003 zq004 zq005", terms={}) == []
    assert corpus.store.find_quote("東京 café naïve 東京 café", terms={}) == []


def _unknown_chunk_citing(store: Store) -> tuple[Chunk, str]:
    """A chunk whose text [5, 45) is in one place only, and a draft citing that
    quote under a chunk id no version has."""
    target = next(ch for ch in store.current_chunks() if "zq" in ch.text and len(_scan(store, ch.text[5:45])) == 1)
    body = json.dumps({"chunk_id": "0000000000000000", "start": 5, "end": 45, "quote": target.text[5:45]})
    return target, f"The claim.\n\n```cite\n{body}\n```\n"


def test_unknown_chunk_suggestion_runs_when_read(corpus: Workspace, monkeypatch):
    """Verifying never searches the corpus for an unknown chunk's quote; reading
    the diagnostic does, once, and gives the re-anchor fix."""
    store = corpus.store
    target, text = _unknown_chunk_citing(store)
    draft = parse_draft(text)
    calls = []
    real = store.find_quote
    monkeypatch.setattr(store, "find_quote", lambda *a, **k: calls.append(a) or real(*a, **k))
    result = Verifier(corpus).verify_draft("drafts/a.md", draft)
    (diag,) = result.claims[0].diagnostics
    assert diag.code == "unknown-chunk" and calls == []
    assert diag.message.endswith(f"; the quote is found in {target.source}")
    assert len(calls) == 1
    (fix,) = diag.fixes
    assert fix.safe and fix.values == {
        "chunk_id": target.chunk_id, "start": 5, "end": 45, "source": target.source, "version": target.version,
    }
    assert len(calls) == 1  # completed once
    moved = diag.copy(line=diag.line + 3)
    assert moved.fixes == diag.fixes and moved.message == diag.message and len(calls) == 1


TRICKY = ODD + ["ﬁne", "ＡＢＣ", "İstanbul", "straße", "x\u200dy", "a·b", "ʼn", "e\u0301t\u0301e\u0301"]


@pytest.fixture(scope="module")
def tricky(tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("tricky")
    (root / "sources").mkdir()
    (root / "sources" / "a.md").write_text("\n\n".join(f"aaa {w} bbb" for w in TRICKY) + "\n", encoding="utf-8")
    ws = Workspace(root, load_settings(root))
    ws.index()
    return ws


@pytest.mark.parametrize("word", TRICKY)
def test_words_the_search_tokenises_differently_are_still_found(tricky: Workspace, word: str):
    """Combining marks, dotted capitals and the like split into other tokens in
    SQLite's search than in ours: a non-ASCII quote the search misses is scanned for."""
    for quote in (f" {word} ", f"aaa {word} bbb", word):
        assert _found(tricky.store, quote, {}) == _scan(tricky.store, quote) != []


def test_a_diagnostic_read_from_many_threads_is_completed_once(corpus: Workspace):
    import threading

    target, text = _unknown_chunk_citing(corpus.store)
    for _ in range(20):
        draft = parse_draft(text)
        (diag,) = Verifier(corpus).verify_draft("drafts/a.md", draft).claims[0].diagnostics
        seen: list[str] = []
        gate = threading.Barrier(4)

        def read(d=diag, out=seen, g=gate):
            g.wait()
            out.append(d.message)

        threads = [threading.Thread(target=read) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        want = f"chunk 0000000000000000 is in no indexed version of any source; the quote is found in {target.source}"
        assert seen == [want] * 4
