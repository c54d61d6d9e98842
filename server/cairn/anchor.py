"""Re-anchoring: finding where a quote really sits in a source's text.

Three strengths of match, from safe to editor-only: verbatim; equal once
white space, quote marks and dashes are normalised (a safe fix, `--fix`
applies it); and a close match by rapidfuzz similarity (offered in the
editor only, a writer must look at it).
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

NEAR_MISS_SIMILARITY = 90.0
CLOSEST_MIN_SIMILARITY = 60.0

_QUOTES = {c: "'" for c in "\u2018\u2019\u201a\u201b\u2032\u0060\u00b4"}
_QUOTES.update({c: '"' for c in "\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033"})
_DASHES = {c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"}
_FOLD = {**_QUOTES, **_DASHES}
_WS = re.compile(r"\s+")
_FOLD_TABLE = str.maketrans(_FOLD)


def fold(text: str) -> tuple[str, list[int]]:
    """Normalise white space runs to one space, quote marks and dashes to
    ASCII; returns the folded text and, for each folded character, its index
    in `text` (plus one final entry for the end)."""
    out: list[str] = []
    index: list[int] = []
    pos = 0
    translated = text.translate(_FOLD_TABLE)
    for m in _WS.finditer(text):
        s, e = m.span()
        out.append(translated[pos:s])
        index.extend(range(pos, s))
        out.append(" ")
        index.append(s)
        pos = e
    out.append(translated[pos:])
    index.extend(range(pos, len(text)))
    index.append(len(text))
    return "".join(out), index




def _fold_fast(text: str) -> str:
    return _WS.sub(" ", text.translate(_FOLD_TABLE))


def loose_find(quote: str, text: str) -> list[tuple[int, int]]:
    """Spans of `text` equal to `quote` up to white space, quote marks and dashes."""
    fq = _fold_fast(quote.strip())
    if not fq.strip() or fq not in _fold_fast(text):
        return []  # the common case, decided without the index map
    ft, idx = fold(text)
    spans = []
    pos = ft.find(fq)
    while pos >= 0:
        # fq starts and ends with a non-space, so both ends map to one character
        spans.append((idx[pos], idx[pos + len(fq) - 1] + 1))
        pos = ft.find(fq, pos + 1)
    return spans


def fuzzy_find(quote: str, text: str, min_similarity: float = NEAR_MISS_SIMILARITY) -> tuple[int, int, float] | None:
    """The closest span of `text` to `quote`, when its similarity is high enough."""
    if not quote or not text:
        return None
    res = fuzz.partial_ratio_alignment(quote, text, score_cutoff=min_similarity)
    if res is None:
        return None
    start, end = res.dest_start, res.dest_end
    # widen to whole words at both ends when the match stopped inside one
    while start > 0 and text[start - 1].isalnum() and text[start].isalnum():
        start -= 1
    while end < len(text) and end > 0 and text[end - 1].isalnum() and text[end].isalnum():
        end += 1
    span = text[start:end].strip()
    if not span:
        return None
    start = text.find(span, start)
    return start, start + len(span), float(res.score)


def nearest(occurrences: list[int], wanted: int) -> int:
    return min(occurrences, key=lambda p: (abs(p - wanted), p))


def all_occurrences(text: str, quote: str) -> list[int]:
    out = []
    pos = text.find(quote)
    while pos >= 0:
        out.append(pos)
        pos = text.find(quote, pos + 1)
    return out
