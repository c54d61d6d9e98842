"""The SQLite store's searches over its full-text index (chunks_fts): a quote's
candidate chunks (find_quote), chunks holding given words (search_words), chunks
ranked for a question or a claim (rank, BM25), and chunk-id completion. A mixin
of cairn.store.sqlite.Store: it reads the store's connection, lock and
provenance checks, and returns current, proven chunks only."""

from __future__ import annotations

import json
import math
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..core.model import Chunk
from .base import WORD, inner_words, occurrences_in_quote_order
from .proofs import _CHUNK_COLS, _R_TEXT
from .sqlite_faults import guarded, unavailable_reason

# rows of current versions only: joined by `current`'s key (a join on version_id alone scans it)
_JOIN_CURRENT = " JOIN current c2 ON c2.source = v.source AND c2.version_id = v.id"
# only the sources of a JSON array (the principal's readable ones): a condition inside the query, before its limit
_ONLY = " AND v.source IN (SELECT value FROM json_each(?))"


class Search:
    """The search half of the SQLite Store."""

    _conn: sqlite3.Connection
    _lock: threading.RLock
    _JOIN_CURRENT = _JOIN_CURRENT
    _ROWS_SQL = f"SELECT {_CHUNK_COLS} FROM chunks ch JOIN versions v ON v.id = ch.version_id"

    _current_rows: Callable[[Iterable[Sequence[Any]]], list[Chunk]]  # the store's: proven rows as chunks
    current_chunk_count: Callable[[], int]  # the store's
    WORD_COUNT_CAP: int  # IndexStore's

    # words in fewer chunks than this narrow a quote search; more are "common"
    RARE_TERM = 1024
    # words in fewer chunks than this are rare enough to stop counting more
    VERY_RARE_TERM = 256
    # at most this many words a search: uncached counts, then the words searched
    # (tuned on bench/engine_bench.py's corpus: 420 -> 340 µs a quote)
    TERM_PROBES = 8
    SEARCH_TERMS = 2

    _FTS_ROWS_SQL = (
        f"SELECT {_CHUNK_COLS} FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?) f"
        " JOIN chunks ch ON ch.rowid = f.rowid JOIN versions v ON v.id = ch.version_id"
        + _JOIN_CURRENT
        + " WHERE instr(ch.text, ?) > 0 ORDER BY v.source, ch.start"
    )

    def _term_count(self, term: str, terms: dict[str, int]) -> int:
        """In how many chunks (any version) `term` is, counted up to RARE_TERM."""
        n = terms.get(term)
        if n is None:
            try:
                n = self._conn.execute(
                    "SELECT count(*) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)",
                    ('"' + term + '"', self.RARE_TERM),
                ).fetchone()[0]
            except sqlite3.OperationalError:
                n = self.RARE_TERM  # a term the search cannot take is never a filter
            terms[term] = n
        return n

    def _search_query(self, words: list[str], terms: dict[str, int]) -> str | None:
        """The full-text query for a quote holding these whole words: its rarest
        words, all required; None when every word is common.

        A chunk holding the quote holds each of its whole words, so the chunks
        holding its rarest words are a superset of the answer, and a small one.
        Words are counted longest first (long words tend to be rarer); `terms`
        keeps the counts, so a common word is counted once per store state.
        """
        counted: list[tuple[int, str]] = []
        probes = 0
        for w in sorted(dict.fromkeys(w.lower() for w in words), key=len, reverse=True):
            if w not in terms:
                if probes >= self.TERM_PROBES:
                    continue
                probes += 1
            n = self._term_count(w, terms)
            if n < self.RARE_TERM:
                counted.append((n, w))
                if n == 0 or sum(1 for c, _ in counted if c < self.VERY_RARE_TERM) >= self.SEARCH_TERMS:
                    break
        if not counted:
            return None
        counted.sort()
        return " AND ".join('"' + w + '"' for _, w in counted[: self.SEARCH_TERMS])

    @guarded("read")
    def find_quote(
        self, quote: str, *, sources: Iterable[str] | None = None, limit: int = 50, terms: dict[str, int] | None = None
    ) -> list[tuple[Chunk, int]]:
        """Where `quote` occurs verbatim in the current sources: (chunk, offset in chunk).

        Full-text search finds candidate chunks (those holding the quote's
        rarest whole words, else its longest three-word phrase); an
        exact substring test decides. When the quote has no whole word, or is
        not plain ASCII (where the search's tokens may differ from ours) and
        the search finds nothing, a plain scan of the current chunks decides.
        `terms`: a cache of word answers kept by the caller while the store
        does not change (see Verifier).
        """
        if not quote:
            return []
        only = set(sources) if sources is not None else None
        words = inner_words(quote)
        with self._lock:
            rows: list[tuple] | None = None
            if words:
                query = self._search_query(words, {} if terms is None else terms)
                if query is None:
                    # every word is common: a phrase of three adjacent whole words, the longest such run
                    k = min(3, len(words))
                    best = max(range(len(words) - k + 1), key=lambda i: sum(len(w) for w in words[i:i + k]))
                    query = '"' + " ".join(words[best:best + k]) + '"'
                try:
                    rows = self._conn.execute(self._FTS_ROWS_SQL, (query, quote)).fetchall()
                except sqlite3.OperationalError:
                    rows = None
            hits = [r for r in rows or () if quote in r[_R_TEXT]]
            # the search is exact for plain ASCII words; anything else is checked by a scan
            if not hits and (rows is None or not quote.isascii()):
                hits = self._conn.execute(
                    f"SELECT {_CHUNK_COLS} FROM current c2 JOIN versions v ON v.id = c2.version_id"
                    " JOIN chunks ch ON ch.version_id = v.id"
                    " WHERE instr(ch.text, ?) > 0 ORDER BY v.source, ch.start",
                    (quote,),
                ).fetchall()
            chunks = self._current_rows(hits)
        return occurrences_in_quote_order(chunks, quote, only, limit)

    @guarded("read")
    def search_words(self, words: list[str], limit: int = 20, *, readable: Sequence[str] | None = None) -> list[Chunk]:
        """Current chunks holding all these words (prefix match on the last); of the
        `readable` sources only when given, chosen before the limit."""
        clean = [w for w in (WORD.findall(" ".join(words))) if w]
        if not clean:
            return []
        q = " ".join(f'"{w}"' for w in clean[:-1]) + f' "{clean[-1]}"*'
        params: tuple[Any, ...]
        if readable is None:
            where = " WHERE ch.rowid IN (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)"
            params = (q.strip(), limit * 4)
        else:  # the other sources' rows must not take the places the limit leaves
            where = " WHERE ch.rowid IN (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?)" + _ONLY + " LIMIT ?"
            params = (q.strip(), _names(readable), limit * 4)
        with self._lock:
            try:
                rows = self._conn.execute(self._ROWS_SQL + self._JOIN_CURRENT + where, params).fetchall()
            except sqlite3.OperationalError as exc:
                if unavailable_reason(exc):
                    raise
                return []  # words the search syntax cannot take
            return self._current_rows(rows)[:limit]

    # a question's words are searched rarest first, until they are in about this many
    # chunks: BM25 ranks only those rows (a common word adds little and costs much)
    RANK_ROWS = 2000

    @guarded("read")
    def rank(self, words: list[str], k: int, *, readable: Sequence[str] | None = None) -> list[Chunk]:
        """The `k` current chunks that best match these words, best first (SQLite
        full-text search's BM25 ranking; `cairn ask`'s retrieval). The rarest words
        are searched (see RANK_ROWS); identical paragraphs count once. With
        `readable`, see _rank_readable."""
        clean = list(dict.fromkeys(w.lower() for w in WORD.findall(" ".join(words))))[:64]
        if not clean or k <= 0:
            return []
        if readable is not None:
            return self._rank_readable(clean, k, _names(readable))
        with self._lock:
            conn = self._conn
            try:
                counts = self._vocab_counts(conn, clean)
            except sqlite3.OperationalError as exc:
                if unavailable_reason(exc):
                    raise
                counts = [(0, w) for w in clean]
            keep: list[str] = []
            rows_seen = 0
            for n, w in counts:
                if keep and rows_seen + n > self.RANK_ROWS:
                    break
                keep.append(w)
                rows_seen += n
            if not keep:
                return []
            query = " OR ".join(f'"{w}"' for w in keep)
            sql = (f"SELECT {_CHUNK_COLS} FROM (SELECT rowid, rank AS r FROM chunks_fts WHERE chunks_fts MATCH ?"
                   " ORDER BY rank LIMIT ?) f JOIN chunks ch ON ch.rowid = f.rowid"
                   " JOIN versions v ON v.id = ch.version_id" + self._JOIN_CURRENT
                   + " ORDER BY f.r, v.source, ch.start")
            out: list[Chunk] = []
            for limit in (k * 4, k * 64):  # superseded versions' rows may crowd the first try
                try:
                    rows = conn.execute(sql, (query, limit)).fetchall()
                except sqlite3.OperationalError as exc:
                    if unavailable_reason(exc):
                        raise
                    return []
                out, seen = [], set()
                for ch in self._current_rows(rows):
                    if ch.chunk_id not in seen:
                        seen.add(ch.chunk_id)
                        out.append(ch)
                if len(out) >= k or len(rows) < limit:
                    break
            return out[:k]

    # word -> in how many rows of the full-text index it is (None: in none), while the index is
    # unchanged: a check ranks a search per claim, and the claims of a workspace share most words
    _vocab: tuple[tuple[int, int], dict[str, int | None]] | None = None
    VOCAB_MEMO = 65536

    def _vocab_counts(self, conn: sqlite3.Connection, words: list[str]) -> list[tuple[int, str]]:
        """(rows holding it, word) for each word the index holds, fewest rows first. The counts
        are kept while neither this connection (total_changes) nor another (data_version) has
        changed the file."""
        state = (conn.total_changes, conn.execute("PRAGMA data_version").fetchone()[0])
        if self._vocab is None or self._vocab[0] != state or len(self._vocab[1]) > self.VOCAB_MEMO:
            self._vocab = (state, {})
        memo = self._vocab[1]
        out = []
        for w in words:
            if w in memo:
                n = memo[w]
            else:
                # the index's own word counts, on this connection only (nothing is written to the file)
                conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.cairn_vocab USING fts5vocab(main, chunks_fts, row)")
                row = conn.execute("SELECT doc FROM temp.cairn_vocab WHERE term = ?", (w,)).fetchone()
                n = memo[w] = row[0] if row else None
            if n is not None:
                out.append((n, w))
        return sorted(out)

    @guarded("read")
    def word_counts(self, words: list[str], *, readable: Sequence[str] | None = None) -> tuple[dict[str, int], int]:
        """IndexStore.word_counts from the full-text index's own word statistics (rows of
        every stored version, a close enough rarity); with `readable`, counted in a query
        among those sources' current chunks only."""
        clean = list(dict.fromkeys(w.lower() for w in WORD.findall(" ".join(words))))[:256]
        if not clean:
            return {}, max(self.current_chunk_count(), 1)
        cap = self.WORD_COUNT_CAP
        with self._lock:
            conn = self._conn
            try:
                if readable is None:
                    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.cairn_vocab USING fts5vocab(main, chunks_fts, row)")
                    out = dict.fromkeys(clean, 0)
                    marks = ",".join("?" * len(clean))
                    for term, doc in conn.execute(f"SELECT term, doc FROM temp.cairn_vocab WHERE term IN ({marks})",
                                                  clean):
                        out[term] = min(cap, doc)
                    total = conn.execute("SELECT count(*) FROM chunks ch JOIN current c ON c.version_id = ch.version_id"
                                         ).fetchone()[0]
                    return out, max(total, 1)
                names = _names(readable)
                base = ("SELECT 1 FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?) f"
                        " JOIN chunks ch ON ch.rowid = f.rowid JOIN versions v ON v.id = ch.version_id"
                        + _JOIN_CURRENT + " WHERE 1" + _ONLY)
                out = {w: conn.execute(f"SELECT count(*) FROM ({base} LIMIT ?)", ('"' + w + '"', names, cap)
                                       ).fetchone()[0] for w in clean}
                total = conn.execute("SELECT count(*) FROM current c2 JOIN versions v ON v.id = c2.version_id"
                                     " JOIN chunks ch ON ch.version_id = v.id WHERE 1" + _ONLY, (names,)).fetchone()[0]
                return out, max(total, 1)
            except sqlite3.OperationalError as exc:
                if unavailable_reason(exc):
                    raise
                return {w: 0 for w in clean}, 1

    def _rank_readable(self, clean: list[str], k: int, names: str) -> list[Chunk]:
        """rank among the named sources only. FTS5's own BM25 takes its word and
        length statistics from the whole index, the sources the principal may not
        read included, so here the statistics are those of the named sources' current
        chunks (the words kept as RANK_ROWS says, counted among them) and the score
        is worked out here (readable_bm25)."""
        base = (f"SELECT {_CHUNK_COLS} FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?) f"
                " JOIN chunks ch ON ch.rowid = f.rowid JOIN versions v ON v.id = ch.version_id"
                + _JOIN_CURRENT + " WHERE 1" + _ONLY)
        with self._lock:
            conn = self._conn
            try:
                counts = []
                for w in clean:
                    n = conn.execute(f"SELECT count(*) FROM ({base} LIMIT ?)",
                                     ('"' + w + '"', names, self.RANK_ROWS + 1)).fetchone()[0]
                    if n:
                        counts.append((n, w))
                counts.sort()
                keep: list[str] = []
                rows_seen = 0
                for n, w in counts:
                    if keep and rows_seen + n > self.RANK_ROWS:
                        break
                    keep.append(w)
                    rows_seen += n
                if not keep:
                    return []
                total = conn.execute("SELECT count(*) FROM current c2 JOIN versions v ON v.id = c2.version_id"
                                     " JOIN chunks ch ON ch.version_id = v.id WHERE 1" + _ONLY, (names,)).fetchone()[0]
                rows = conn.execute(base + " ORDER BY v.source, ch.start LIMIT ?",
                                    (" OR ".join(f'"{w}"' for w in keep), names, self.RANK_ROWS * 4)).fetchall()
            except sqlite3.OperationalError as exc:
                if unavailable_reason(exc):
                    raise
                return []
            chunks = self._current_rows(rows)
        out, seen = [], set()
        for ch in readable_bm25(chunks, keep, total):
            if ch.chunk_id not in seen:
                seen.add(ch.chunk_id)
                out.append(ch)
        return out[:k]

    @guarded("read")
    def chunk_ids_with_prefix(self, prefix: str, limit: int = 50, *,
                              readable: Sequence[str] | None = None) -> list[Chunk]:
        only, params = ("", ()) if readable is None else (_ONLY, (_names(readable),))
        with self._lock:
            rows = self._conn.execute(
                self._ROWS_SQL + self._JOIN_CURRENT + " WHERE ch.chunk_id LIKE ?" + only + " LIMIT ?",
                (prefix.lower() + "%", *params, limit),
            ).fetchall()
            return self._current_rows(rows)


def _names(readable: Sequence[str]) -> str:
    """The readable sources as the one parameter of _ONLY (a JSON array)."""
    return json.dumps(sorted(set(readable)))


def readable_bm25(chunks: list[Chunk], words: list[str], total: int) -> list[Chunk]:
    """The chunks best first by BM25 (FTS5's constants, k1 = 1.2 and b = 0.75) for
    these lower-case words, with the statistics of these chunks and `total` (how many
    chunks the ranked sources have) alone. Words are runs of letters and digits in
    lower case, as the full-text index's tokenizer cuts them; ties go by source
    and place."""
    if not chunks:
        return []
    wanted = set(words)
    tfs = []
    for ch in chunks:
        toks = [t.lower() for t in WORD.findall(ch.text)]
        tfs.append((Counter(t for t in toks if t in wanted), len(toks)))
    avgdl = sum(n for _, n in tfs) / len(tfs) or 1.0
    df = Counter(w for tf, _ in tfs for w in tf)
    n = max(total, len(chunks))
    idf = {w: math.log((n - df[w] + 0.5) / (df[w] + 0.5) + 1) for w in df}
    scored = []
    for ch, (tf, dl) in zip(chunks, tfs):
        score = sum(idf[w] * tf[w] * 2.2 / (tf[w] + 1.2 * (0.25 + 0.75 * dl / avgdl)) for w in tf)
        scored.append((-score, ch.source, ch.start, ch.chunk_id, ch))
    scored.sort(key=lambda x: x[:4])
    return [x[4] for x in scored]
