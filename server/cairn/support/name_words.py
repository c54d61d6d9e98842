"""The words of a text as the name rule reads them (cairn.support.names): tokens with the
punctuation code names carry inside them, whether a word is written as a name (capitalised inside
a sentence, a capital inside it, a code name, or in no English dictionary), and the units that are
never names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from .unit_names import PER_UNITS, UNITS
from .words import ORDINALS, STOPWORDS, chunks, english_lexicon

# words with the punctuation code names carry inside them (auth_timeout, .FEATURES, -E, u+w);
# quotation marks and backticks, which make the words between them literal
_TOKEN_OR_STOP = re.compile(r"(?P<w>[\w.\-/+]*\w)|(?P<q>[\"`\u201c\u201d])|[.!?:;]")
_DIGIT = re.compile(r"\d")
_CODE_MARKS = "_./+"
_CODE_INSIDE = re.compile(f"[{re.escape(_CODE_MARKS)}]")


def _code_name(w: str) -> bool:
    """Written as code: `-E`, `.FEATURES`, `auth_timeout`, `u+w`."""
    return w[0] in "-." or _CODE_INSIDE.search(w, 1) is not None


_new = tuple.__new__


class _Word(NamedTuple):
    text: str
    opens: bool  # it opens a sentence (a capital there says nothing)
    quoted: bool  # between quotation marks or backticks: the very words a text uses or names


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[_Word, ...]:
    """The words of `text` (kept: quotes come again). _TOKEN_OR_STOP matches no
    white space, so each chunk (a run between white space) is matched alone and
    its matches kept; what carries from one to the next (a sentence's opening,
    an open quotation mark) is read over them in order: the same words as
    `_tokens_plain`."""
    kept = _CHUNK_TOKENS
    return _words_of(m for chunk in chunks(text)
                     for m in (kept.get(chunk) or _chunk_tokens(chunk)))


def _tokens_plain(text: str) -> tuple[_Word, ...]:
    """`_tokens` in one pass over the whole text."""
    return _words_of((m.group("w"), m.group("q") or "") for m in _TOKEN_OR_STOP.finditer(text))


def _words_of(matches: Iterable[tuple[str | None, str]]) -> tuple[_Word, ...]:
    """The words of _TOKEN_OR_STOP's matches, each as (word or None, quotation mark or
    ""), read in order: whether each opens a sentence, whether it stands between
    quotation marks."""
    out: list[_Word] = []
    opens = True
    mark = ""  # the open quotation mark, if any
    for word, q in matches:
        if q:
            if mark and (q == mark or (mark == "\u201c" and q == "\u201d")):
                mark = ""
            elif not mark and q != "\u201d":
                mark = q
        elif word is None:
            opens = True  # a full stop, question mark, colon…: the next word opens a sentence
        else:
            # tuple.__new__ makes the same record as _Word(...) without its Python-level __new__
            out.append(_new(_Word, (word, opens, bool(mark))))
            opens = False
    return tuple(out)


# per chunk seen: its matches as (word or None, quotation mark or ""); emptied when full
_CHUNK_TOKENS: dict[str, tuple[tuple[str | None, str], ...]] = {}


def _chunk_tokens(chunk: str) -> tuple[tuple[str | None, str], ...]:
    got = _CHUNK_TOKENS[chunk] = tuple((m.group("w"), m.group("q") or "") for m in _TOKEN_OR_STOP.finditer(chunk))
    if len(_CHUNK_TOKENS) > 65536:
        _CHUNK_TOKENS.clear()
    return got


def _written_as_name(word: str, opens: bool) -> bool:
    """A name by its spelling: a code name, a capital inside it, a capital inside a sentence."""
    return (_code_name(word)  # "-E", ".FEATURES", "auth_timeout"
            or any(c.isupper() for c in word[1:])  # "macOS", "GPL"
            or (word[0].isupper() and not opens))  # "Solaris" inside a sentence


def _is_name(word: str, opens: bool) -> bool:
    """A name by its spelling, or a word no dictionary holds (`printf`, `btrfs`)."""
    if _written_as_name(word, opens):
        return True
    return not any(_in_dictionary(p.lower()) for p in word.split("-") if p)


# the regular inflections of English, undone: the word list holds most words in their plain form only
# (`apply`, not `applies`; `introduce`, not `introducing`)
_ENDINGS = (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"))


@lru_cache(maxsize=65536)
def _in_dictionary(w: str) -> bool:
    lex = english_lexicon()
    if w in lex:
        return True
    for end, plain in _ENDINGS:
        if w.endswith(end) and len(w) - len(end) >= 2:
            stem = w[: -len(end)]
            if stem + plain in lex or (len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in lex):  # stopped
                return True
    return False


# ordinals and multiplicatives, by the number they stand for: `second edition` in place of `first edition`,
# `tripled` in place of `doubled` names another thing as much as a name does (`twice` and `doubled` agree)
_COUNT_WORDS: dict[str, float] = {w: float(i) for w, i in ORDINALS.items() if i <= 12}
_COUNT_WORDS.update({"once": 1, "twice": 2, "thrice": 3, "single": 1, "double": 2, "doubled": 2, "triple": 3,
                     "tripled": 3, "quadruple": 4, "quadrupled": 4, "halved": 0.5})


@lru_cache(maxsize=65536)
def _candidate(word: str, opens: bool) -> bool:
    """A claim's word that may stand in another name's place: a name, not a
    number, a stopword or a unit; or a count word (_COUNT_WORDS)."""
    low = word.lower()
    if low in _COUNT_WORDS:
        return True
    return low not in STOPWORDS and not _DIGIT.search(word) and _is_name(word, opens) and not _unit(word)


@lru_cache(maxsize=65536)
def _unit(word: str) -> bool:
    """A unit's spelling (`km`, `kilometres`, `Gbps`, `USD`) or a rate of two
    (`km/h`, `L/min`): what a number is counted in. The quantity rule compares
    units (`km/h` = `kilometres per hour`, `mph` is not `km/h`), so they are
    not names here."""
    low = word.lower()
    if low in UNITS:
        return True
    first, slash, second = low.partition("/")
    return bool(slash) and first in UNITS and (second in UNITS or second in PER_UNITS)
