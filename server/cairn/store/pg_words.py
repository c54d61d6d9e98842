"""The words of the PostgreSQL store's index of words (schema 5), worked out by Cairn.

Each chunk row carries its words as a `tsvector` (`cairn_chunks.words`) with a
GIN index on it, and a quote's candidate chunks are those whose words match a
`tsquery` of the quote's whole words: PostgreSQL's text search, with the words
of both sides found here rather than by the server's parser. Until schema 4 the
server found them itself, in an index on an expression (`to_tsvector` over the
text with punctuation replaced by spaces); working that expression out for
every chunk stored was most of the server's work in indexing (docs/team.md).

A word is a run of letters and digits (`WORD`, Python's notion of them), in
lower case. A chunk holding a quote verbatim holds each of the quote's whole
words (not the first or last when the quote starts or ends inside a run), as
the quote's own separators cut them there too, so the same function on both
sides never leaves such a chunk out: the exact test (LIKE) decides after.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import Any

from .base import WORD, inner_words

# PostgreSQL refuses a lexeme this long or longer (bytes of UTF-8); such a word is
# left out on both sides, which only lets more chunks through to the exact test
MAX_LEXEME_BYTES = 2047
# nor a tsvector whose words take a MB or more
MAX_TSVECTOR_BYTES = 1_000_000
# the one word of a chunk whose words are too many: no run of letters and digits
EVERY = "-every-"
_COUNT = struct.Struct(">i")
_NO_POSITIONS = b"\0\0\0"  # the lexeme's closing NUL, then no positions (an int16 0)


# Letters Python's case-insensitive matching takes for one another although neither
# case mapping below joins them (their upper cases are several letters)
_SAME = {"\u1fd3": "\u0390", "\u1fe3": "\u03b0", "\ufb05": "\ufb06"}


class _Letters(dict):
    """Each letter as `fold` writes it, worked out the first time it is met."""

    def __missing__(self, cp: int) -> str:
        c = chr(cp)
        up = c.upper()
        # the lower case of the upper case joins what matching joins: the long s and s,
        # the dotless i and i, final sigma and sigma, the Greek symbol forms, the micro sign
        low = up.lower() if len(up) == 1 else ""
        got = _SAME.get(c) or (low if len(low) == 1 else c.lower()[:1])
        self[cp] = got
        return got


_FOLD = _Letters()


def fold(word: str) -> str:
    """A word as the index holds it: in lower case, letter by letter as Python's
    case-insensitive matching compares letters (so the dotted capital I is an i,
    where `lower` adds a combining dot, and a long s is an s), so two runs that
    such a match takes for the same word are the same word here."""
    if word.isascii():
        return word.lower()
    return word.translate(_FOLD)


def _lexemes(words: Iterable[str]) -> list[bytes]:
    """These words as the index holds them: folded, UTF-8, each once, in byte order."""
    out = {fold(w).encode("utf-8", "surrogatepass") for w in words}
    return sorted(w for w in out if len(w) < MAX_LEXEME_BYTES)


# ASCII letters in lower case, every other ASCII byte that is not a letter or a digit a
# space; the bytes of other letters (0x80 and up) as they are
_ASCII_FOLD = bytes(c + 32 if 65 <= c <= 90 else c if c >= 128 or chr(c).isalnum() else 32 for c in range(256))


def text_lexemes(text: str) -> list[bytes]:
    """`_lexemes(WORD.findall(text))`, the same list, quicker: the bytes of the text cut
    at every ASCII byte that is not a letter or a digit, ASCII letters lowered, in
    C; only the pieces holding other letters (or other separators: a curly quote,
    a dash) are read again as words, and they are few."""
    raw = text.encode("utf-8", "surrogatepass").translate(_ASCII_FOLD)
    pieces = set(raw.split())
    if not raw.isascii():
        other = [p for p in pieces if not p.isascii()]
        pieces.difference_update(other)
        pieces.update(_lexemes(WORD.findall(b" ".join(other).decode("utf-8", "surrogatepass"))))
    words = sorted(pieces)
    if words and max(map(len, words)) >= MAX_LEXEME_BYTES:
        words = [w for w in words if len(w) < MAX_LEXEME_BYTES]
    return words


def tsvector_binary(text: str) -> bytes:
    """The words of `text` as a tsvector in PostgreSQL's binary form (what COPY's
    binary format carries for the column): their count, then each, NUL-terminated,
    with no positions, sorted as the server keeps them (byte order, a prefix
    first), so it has nothing to sort. A text whose words are too many for one
    tsvector (a chunk of a million characters) gets the word EVERY alone, which
    every query asks for too: the exact test reads that chunk for every quote."""
    words = text_lexemes(text)
    if not words:
        return _COUNT.pack(0)
    joined = _NO_POSITIONS.join(words) + _NO_POSITIONS
    if len(joined) - len(_NO_POSITIONS) * len(words) >= MAX_TSVECTOR_BYTES:
        return _COUNT.pack(1) + EVERY.encode() + _NO_POSITIONS
    return _COUNT.pack(len(words)) + joined


def _query(terms: list[str]) -> str:
    # the terms are runs of letters and digits, with no quote or backslash: quoted as they stand
    return "" if not terms else " & ".join(terms) + f" | '{EVERY}'"


def quote_query(quote: str) -> str:
    """The tsquery text of all the quote's whole words; empty when it has none."""
    return _query(["'" + w.decode() + "'" for w in _lexemes(inner_words(quote))])


def words_query(whole: list[str], prefix: str | None) -> str:
    """The tsquery text of these whole words, else of `prefix` as the start of a
    word; empty for neither."""
    terms = ["'" + w.decode() + "'" for w in _lexemes(whole)]
    if not terms and prefix:
        terms = ["'" + w.decode() + "':*" for w in _lexemes([prefix])]
    return _query(terms)


# COPY's binary rows carry no types: the server reads each field with its column's own
# binary input, and psycopg writes a bytea as the bytes it is given. So a tsvector made
# by tsvector_binary goes through as "bytea" and the server reads it as a tsvector.
WORDS_COPY_TYPE = "bytea"
COPY_WORDS_TYPES = ("int8", WORDS_COPY_TYPE)


def fill(conn: Any, batch: int = 2000) -> None:
    """Migration 5: work out the words of every stored chunk, `batch` rows at a time
    (read through a cursor on the server, so memory stays bounded whatever the size)."""
    conn.execute("CREATE TEMP TABLE cairn_new_words (id bigint PRIMARY KEY, words tsvector NOT NULL) ON COMMIT DROP")
    with conn.cursor(name="cairn_fill_words") as rows:
        rows.execute("SELECT id, text, exact FROM cairn_chunks")
        while got := rows.fetchmany(batch):
            # a connection in COPY reads nothing else: each batch is fetched, then written
            with conn.cursor().copy("COPY cairn_new_words (id, words) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(COPY_WORDS_TYPES)
                for cid, text, exact in got:
                    if exact is not None:
                        text = bytes(exact).decode("utf-8", "surrogatepass")
                    copy.write_row((cid, tsvector_binary(text)))
    conn.execute("UPDATE cairn_chunks ch SET words = n.words FROM cairn_new_words n WHERE ch.id = n.id")
