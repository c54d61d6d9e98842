"""The cheap tests before the polarity rule reads a claim, and what each quote
offers the comparison, kept per quote (for cairn.meaning.contradicting):
whether either side has a negation, a marked word, a direction word, or a
prefixed form of a word of the other (`_may_differ`); whether a claim with no
word that reads negatively can meet a concept the quotes deny, or a direction
word on both sides (`_claim_may_contradict`). Each test has a plain form the
tests hold it to; `prepare` reads a quote for the rule once, when first met.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from ..support.words import chunks as _chunks_of
from .clauses import POSITIVE, Marked, Reading, _word_stance
from .cues import _AGAIN, _CEASING_FIRST, _SIGN_CHARS, _analyse, _chunk_tokens, _keep
from .lexicon import (
    ANTONYMS,
    CEASING,
    DIRECTIONS,
    NEGATING_BEFORE_TO,
    NEGATING_VERBS,
    NEGATORS,
    PREFIXES,
    STEADY,
    privative,
)
from .polarity import read

__all__ = ["prepare"]


# ("must" is no cue by itself: what it can be opposed to, "optional", is one)
_CUE_WORDS = (frozenset(NEGATORS) | NEGATING_VERBS | NEGATING_BEFORE_TO | (frozenset(ANTONYMS) - {"must"})
              | _AGAIN
              | {"without", "used", "stopped", "ceased", "non"} | {p.split()[0] for p in DIRECTIONS} | {p.split()[0] for p in CEASING})
_WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
# "free of X", "free from X": a negation of X, though "free" alone is none
_FREE_OF = re.compile(r"\bfree\s+(?:of|from)\b", re.IGNORECASE)


def _may_differ_plain(claim: str, quotes: Iterable[str]) -> bool:
    """A cheap test before reading: False when neither side has a negation, a
    marked word or a direction word, and no word of one side is a prefixed
    form of a word of the other, so that no rule can find a difference.
    The plain form of `_may_differ`, which gives the same answer faster."""
    if _FREE_OF.search(claim) or any(_FREE_OF.search(q) for q in quotes):
        return True
    mine = set(_WORDS.findall(claim.lower()))
    theirs: set[str] = set()
    for q in quotes:
        theirs.update(_WORDS.findall(q.lower()))
    for words in (mine, theirs):
        if words & _CUE_WORDS or any("n't" in w or w.startswith(("non-", "no-")) or w.endswith("-free") for w in words):
            return True
    for a, b in ((mine, theirs), (theirs, mine)):
        for w in a:
            for p in PREFIXES:
                if p + w in b:
                    return True
    if not _SIGN_CHARS.isdisjoint(claim) or any(not _SIGN_CHARS.isdisjoint(q) for q in quotes):
        return True  # a comparison sign: a bound
    return "n't" in claim or any("n't" in q or "n\u2019t" in q for q in quotes) or "n\u2019t" in claim


class _Words(NamedTuple):
    """A text's words as `_may_differ` reads them: the words, whether one of
    them is a cue, and what is left of each word that opens with a prefix."""

    words: frozenset[str]
    cue: bool
    unprefixed: frozenset[str]  # "exclusive" for "nonexclusive"


def _chunk_words(chunk: str) -> _Words:
    """A chunk's words (a run of text between white space, which no word or
    cue crosses), kept in _CHUNK_WORDS."""
    words = frozenset(_WORDS.findall(chunk.lower()))
    cue = bool(words & _CUE_WORDS) or any("n't" in w or w.startswith(("non-", "no-")) or w.endswith("-free") for w in words)
    cue = cue or "n't" in chunk or "n\u2019t" in chunk or not _SIGN_CHARS.isdisjoint(chunk)
    return _keep(_CHUNK_WORDS, chunk, _Words(words, cue, frozenset(rest for w in words for rest in _unprefixed(w))))


# What is read of each chunk seen, kept in plain dicts emptied when full: a
# dict's get costs less than an lru_cache's look-up, and a claim has some
# twenty chunks, each looked up by several tests.
_CHUNK_WORDS: dict[str, _Words] = {}
_CHUNK_SIGNS: dict[str, tuple[bool, frozenset[str], tuple[str, ...]]] = {}


@lru_cache(maxsize=8192)
def _words_of(text: str) -> _Words:
    """A quote's words: those of its chunks taken together."""
    parts = [_CHUNK_WORDS.get(c) or _chunk_words(c) for c in text.split()]
    return _Words(frozenset().union(*(p.words for p in parts)),
                  any(p.cue for p in parts) or _FREE_OF.search(text) is not None,
                  frozenset().union(*(p.unprefixed for p in parts)))


@lru_cache(maxsize=65536)
def _unprefixed(w: str) -> tuple[str, ...]:
    return tuple(w[len(p):] for p in PREFIXES if w.startswith(p) and len(w) > len(p))


def _may_differ(claim: str, quotes: Iterable[str]) -> bool:
    """`_may_differ_plain`, with each chunk's and each quote's words read once
    (a quote is checked again and again): "p + w in b" is "w is what is left
    of a word of b that opens with p"."""
    kept = _CHUNK_WORDS
    mine = [kept.get(c) or _chunk_words(c) for c in _chunks_of(claim)]
    if any(p.cue for p in mine) or _FREE_OF.search(claim):
        return True
    theirs = [_words_of(q) for q in quotes]
    if any(t.cue for t in theirs):
        return True
    # the claim's chunks taken together: a word of one of them meets a quote's as well
    words = frozenset().union(*(p.words for p in mine))
    unprefixed = frozenset().union(*(p.unprefixed for p in mine))
    return any(not words.isdisjoint(t.unprefixed) or not unprefixed.isdisjoint(t.words) for t in theirs)


# --------------------------------------------------------------------------
# What a quote offers the comparison, kept per quote; and a test on the claim
# before it is read

_NEGATIVE_WORDS = (NEGATORS | NEGATING_VERBS | NEGATING_BEFORE_TO | _CEASING_FIRST | {"without", "non"}
                   | {w for w, (_, negative) in ANTONYMS.items() if negative})
_DIRECTION_ONE = frozenset(p for p in DIRECTIONS if " " not in p) | STEADY
_DIRECTION_TWO = frozenset(tuple(p.split()[:2]) for p in DIRECTIONS if " " in p)
# the word tokens of cairn.meaning.cues' _TOKEN, found alone (no other token holds a letter)
_WORD_TOKEN = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?(?:-[^\W\d_]+)*")


class _Concept(NamedTuple):
    """The words of the quotes that stand for one concept: whether one is
    marked, the stances they take, and the first as written."""

    marked: bool
    stances: frozenset[str]
    shown: str


class _QuoteView(NamedTuple):
    reading: Reading
    words: dict[str, _Concept]
    negative: frozenset[str]  # concepts a clause denies, or a word says negatively
    directions: bool


def _concepts(readings: list[Reading]) -> dict[str, _Concept]:
    by: dict[str, list[tuple[Marked, str]]] = {}
    for r in readings:
        for m in r.words:
            by.setdefault(m.concept, []).append((m, _word_stance(r, m)))
    return {k: _Concept(any(m.marked for m, _ in ms), frozenset(p for _, p in ms), ms[0][0].shown)
            for k, ms in by.items()}


@lru_cache(maxsize=8192)
def _quote_view(quote: str) -> _QuoteView:
    r = read(quote)
    denied = frozenset(g for cl in r.clauses if cl.polarity != POSITIVE for g in cl.concepts)
    return _QuoteView(r, _concepts([r]), denied.union(*(cl.negative for cl in r.clauses)), bool(r.directions))


def _merged(views: list[_QuoteView]) -> dict[str, _Concept]:
    out: dict[str, _Concept] = {}
    for v in views:
        for k, x in v.words.items():
            y = out.get(k)
            out[k] = x if y is None else _Concept(y.marked or x.marked, y.stances | x.stances, y.shown)
    return out


@lru_cache(maxsize=65536)
def _word_signs(w: str) -> tuple[bool, tuple[str, ...]]:
    """Whether a word can make its clause, or itself, read negatively; and
    every concept it can stand for."""
    analysed = _analyse(w, True)
    negative = w in _NEGATIVE_WORDS or w.endswith("n't") or analysed[1] or privative(w) is not None
    return negative, analysed[0]


def _chunk_signs(chunk: str) -> tuple[bool, frozenset[str], tuple[str, ...]]:
    """`_word_signs` over the words of a chunk (lower case, between white
    space), taken together: whether one reads negatively, every concept they
    can stand for, and the words (kept in _CHUNK_SIGNS)."""
    words = tuple(w for kind, w, _, _ in _chunk_tokens(chunk) if kind == "word")
    signs = [_word_signs(w) for w in words]
    return _keep(_CHUNK_SIGNS, chunk, (any(n for n, _ in signs), frozenset(c for _, cs in signs for c in cs), words))


def _claim_may_contradict(claim: str, views: list[_QuoteView]) -> bool:
    """False only when no rule can find the claim opposed to the quotes,
    without reading the claim: it has no word that reads negatively, so every
    clause and word of it is positive; then a contradiction needs a concept
    the quotes deny among its words, or a direction word on both sides."""
    lowered = unicodedata.normalize("NFKC", claim).lower().replace("\u2019", "'")
    if "free" in lowered and _FREE_OF.search(lowered):
        return True  # "free of X" denies X
    chunks = _chunks_of(lowered)
    denied = views[0].negative if len(views) == 1 else frozenset().union(*(v.negative for v in views))
    kept = _CHUNK_SIGNS
    signs = [kept.get(chunk) or _chunk_signs(chunk) for chunk in chunks]
    for negative, concepts, _ in signs:
        if negative or not denied.isdisjoint(concepts):
            return True
    if any(v.directions for v in views):
        if not _SIGN_CHARS.isdisjoint(lowered):
            return True  # a comparison sign: a bound
        words = [w for _, _, chunk_words in signs for w in chunk_words]
        for i, w in enumerate(words):
            if w in _DIRECTION_ONE or (i + 1 < len(words) and (w, words[i + 1]) in _DIRECTION_TWO):
                return True
    return False


def _claim_may_contradict_plain(claim: str, views: list[_QuoteView]) -> bool:
    """`_claim_may_contradict` word by word over the whole text (the tests hold the two together)."""
    lowered = unicodedata.normalize("NFKC", claim).lower().replace("\u2019", "'")
    if _FREE_OF.search(lowered):
        return True
    words = _WORD_TOKEN.findall(lowered)
    denied = frozenset().union(*(v.negative for v in views))
    if any(n or not denied.isdisjoint(cs) for n, cs in map(_word_signs, words)):
        return True
    return any(v.directions for v in views) and (not _SIGN_CHARS.isdisjoint(lowered) or any(
        w in _DIRECTION_ONE or (i + 1 < len(words) and (w, words[i + 1]) in _DIRECTION_TWO)
        for i, w in enumerate(words)))


def prepare(quote: str) -> None:
    """Read a quote for this rule once, when first met (its words for the
    cheap test, its reading and what it offers the comparison), so that a
    claim typed later against it reads only itself. Answers do not change."""
    _words_of(quote)
    _quote_view(quote)
