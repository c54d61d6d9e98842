"""The shared PostgreSQL index's searches: a quote's candidate chunks (find_quote),
chunks holding given words (search_words), chunks ranked for a question (rank) and
chunk-id completion. A mixin of cairn.store.postgres.PostgresStore: it reads the
store's pool (_run) and workspace key, and returns current chunks only."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..core.model import Chunk
from .base import WORD, occurrences_in_quote_order
from .postgres_schema import (
    _BY_SOURCE,
    _JOIN_CURRENT,
    _NOT_TEXT,
    _QUOTE_QUERY,
    _QUOTE_WORDS,
    _ROWS_SQL,
    _WORDS,
    Conn,
    _like_pattern,
)


class Search:
    """The search half of PostgresStore."""

    workspace: str
    _run: Callable[..., Any]
    _rows: Callable[[str, dict | tuple], list[Chunk]]
    _chunk: Callable[..., Chunk]
    current_chunks: Callable[..., list[Chunk]]

    def find_quote(self, quote: str, *, sources: Iterable[str] | None = None, limit: int = 50,
                   terms: dict[str, int] | None = None) -> list[tuple[Chunk, int]]:
        """Where `quote` occurs verbatim in the current sources: (chunk, offset in chunk).

        Candidates are the chunks holding every whole word of the quote (the
        text-search index over runs of letters and digits, _WORDS): a chunk
        holding the quote holds them, as the quote's own separators cut them
        there too. LIKE is the exact, case-sensitive substring test. A quote
        with no whole word (one word, punctuation) is found by LIKE alone, a
        scan of the current chunks.
        """
        if not quote:
            return []
        only = set(sources) if sources is not None else None
        if _NOT_TEXT.search(quote):  # no stored text holds it as such: look in the exact texts
            chunks = [ch for ch in self.current_chunks(sorted(only) if only is not None else None)
                      if quote in ch.text]
        else:
            chunks = [self._chunk(r) for r in self._run("read", lambda c: self._quote_rows(c, quote))]
        return occurrences_in_quote_order(chunks, quote, only, limit)

    def _quote_rows(self, c: Conn, quote: str) -> list[Any]:
        """Rows of the current chunks holding `quote` (LIKE), found by its whole words when it has some.

        One statement when the quote is found (its words' query is worked out in
        it); when nothing is found, whether the quote had a whole word at all is
        asked, and a quote without one is looked for by LIKE alone."""
        params = {"ws": self.workspace, "p": _like_pattern(quote), "quote": quote}
        rows = c.execute(_ROWS_SQL + _JOIN_CURRENT + f" WHERE {_WORDS.format('ch.text')} @@ {_QUOTE_QUERY}"
                         " AND ch.text LIKE %(p)s" + _BY_SOURCE, params).fetchall()
        if rows or c.execute(_QUOTE_WORDS, params).fetchone()[0]:
            return rows
        return c.execute(_ROWS_SQL + _JOIN_CURRENT + " WHERE ch.text LIKE %(p)s" + _BY_SOURCE, params).fetchall()

    def search_words(self, words: list[str], limit: int = 20, *, readable: Sequence[str] | None = None) -> list[Chunk]:
        """Current chunks holding all these words (prefix match on the last), in any case;
        of the `readable` sources only when given, chosen in the query (before its limit).

        The text-search index finds the chunks holding the plain ASCII words but
        the last as whole words (the last one, as a prefix, only when it is
        alone); ILIKE narrows them to chunks holding every word anywhere, and
        whole words are then picked out here. Words with other letters are left
        to ILIKE alone (the server's notion of a letter and its lower case may
        differ from Python's); with no plain ASCII word at all, ILIKE reads every
        current chunk. Not exact: the server counts some combining marks (Hebrew
        points, Indic vowel signs, U+0345: 1,404 code points below U+30000 on
        the tests' C.UTF-8 server) as letters where Python's words end, so an
        ASCII word written against one is not found here (the trigram index of
        schema 3 found it)."""
        clean = [w for w in WORD.findall(" ".join(words)) if w]
        if not clean:
            return []
        conds = [f"ch.text ILIKE %(w{i})s" for i in range(len(clean))]
        params: dict[str, Any] = {f"w{i}": _like_pattern(w) for i, w in enumerate(clean)}
        # ASCII letters and digits only (WORD leaves no other ASCII), so each is one lexeme as it
        # stands: the whole words, else the last one as a prefix (a prefix reads many entries)
        terms = [f"'{w}'" for w in clean[:-1] if w.isascii() and len(w) < 256]
        if not terms and clean[-1].isascii() and len(clean[-1]) < 256:
            terms = [f"'{clean[-1]}':*"]
        if terms:
            conds.insert(0, f"{_WORDS.format('ch.text')} @@ to_tsquery('simple', %(q)s)")
            params["q"] = " & ".join(terms)
        if readable is not None:
            conds.append(_ONLY)
            params.update(_only_param(readable))
        rows = self._rows(_ROWS_SQL + _JOIN_CURRENT + f" WHERE {' AND '.join(conds)} ORDER BY ch.id LIMIT %(n)s",
                          {**params, "ws": self.workspace, "n": limit * 8})
        whole = [re.compile(r"(?<![^\W_])" + re.escape(w) + r"(?![^\W_])", re.IGNORECASE) for w in clean[:-1]]
        whole.append(re.compile(r"(?<![^\W_])" + re.escape(clean[-1]), re.IGNORECASE))
        return [ch for ch in rows if all(p.search(ch.text) for p in whole)][:limit]

    def rank(self, words: list[str], k: int, *, readable: Sequence[str] | None = None) -> list[Chunk]:
        """The `k` current chunks that best match these words, best first: PostgreSQL's
        own text ranking (ts_rank over the 'simple' configuration, so no language's
        stemming), on the chunks holding any of the words, of the `readable` sources
        only when given (a condition of the query; ts_rank scores each chunk by its
        own words alone, so no other chunk changes a score). No text-search index is
        kept for this expression (the index of quotes' words holds other tokens), so
        this reads the workspace's current chunks: fine for `cairn ask` on a team
        corpus, slower than SQLite's FTS5."""
        clean = list(dict.fromkeys(w.lower() for w in WORD.findall(" ".join(words))))[:64]
        if not clean or k <= 0:
            return []
        query = " | ".join("'" + w.replace("'", "''").replace("\\", "") + "'" for w in clean)
        only = "" if readable is None else " AND " + _ONLY
        rows = self._rows(
            _ROWS_SQL + _JOIN_CURRENT
            + " WHERE to_tsvector('simple', ch.text) @@ to_tsquery('simple', %(q)s)" + only +
            " ORDER BY ts_rank(to_tsvector('simple', ch.text), to_tsquery('simple', %(q)s)) DESC, v.source, ch.start_at"
            " LIMIT %(n)s",
            {"ws": self.workspace, "q": query, "n": k * 4, **_only_param(readable)})
        out, seen = [], set()
        for ch in rows:
            if ch.chunk_id not in seen:
                seen.add(ch.chunk_id)
                out.append(ch)
        return out[:k]

    def chunk_ids_with_prefix(self, prefix: str, limit: int = 50, *,
                              readable: Sequence[str] | None = None) -> list[Chunk]:
        pattern = _like_pattern(prefix.lower())[1:]  # no leading %: a prefix
        only = "" if readable is None else " AND " + _ONLY
        return self._rows(_ROWS_SQL + _JOIN_CURRENT + " WHERE ch.chunk_id LIKE %(p)s" + only
                          + " ORDER BY ch.id LIMIT %(n)s",
                          {"ws": self.workspace, "p": pattern, "n": limit, **_only_param(readable)})


# only the sources of a list (the principal's readable ones): a condition inside the query, before its limit
_ONLY = "v.source = ANY(%(only)s)"


def _only_param(readable: Sequence[str] | None) -> dict[str, list[str]]:
    """_ONLY's parameter, none when every source is searched."""
    return {} if readable is None else {"only": sorted(set(readable))}
