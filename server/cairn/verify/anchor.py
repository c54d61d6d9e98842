"""Re-anchoring: finding where a quote really sits in a source's text.

Three strengths of match, from safe to editor-only: verbatim; equal once
white space, quote marks and dashes are normalised (a safe fix, `--fix`
applies it); and a close match by rapidfuzz similarity (offered in the
editor only, a writer must look at it).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from rapidfuzz import fuzz

NEAR_MISS_SIMILARITY = 90.0
CLOSEST_MIN_SIMILARITY = 60.0

_QUOTES = {c: "'" for c in "\u2018\u2019\u201a\u201b\u2032\u0060\u00b4"}
_QUOTES.update({c: '"' for c in "\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033"})
_DASHES = {c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"}
_FOLD = {**_QUOTES, **_DASHES}
_WS = re.compile(r"\s+")
_WS_RUN = re.compile(r"\s{2,}")
_FOLD_TABLE = str.maketrans(_FOLD)


def fold(text: str) -> str:
    """White space runs to one space, quote marks and dashes to ASCII."""
    return _WS.sub(" ", text.translate(_FOLD_TABLE))


def _unfold(text: str) -> tuple[list[int], list[int]]:
    """Where white space runs of two or more characters sit in fold(text), and
    how far each moves what follows it: (folded offsets, cumulative shifts).
    Every other character keeps its length, so this is the whole map."""
    at: list[int] = []
    shifts: list[int] = []
    shift = 0
    for m in _WS_RUN.finditer(text):
        s, e = m.span()
        at.append(s - shift)
        shift += e - s - 1
        shifts.append(shift)
    return at, shifts


def loose_find(quote: str, text: str) -> list[tuple[int, int]]:
    """Spans of `text` equal to `quote` up to white space, quote marks and dashes."""
    fq = fold(quote.strip())
    if not fq.strip():
        return []
    ft = fold(text)
    pos = ft.find(fq)
    if pos < 0:
        return []
    at, shifts = _unfold(text)

    def original(p: int) -> int:  # p is never a run's space: fq starts and ends with a non-space
        k = bisect_right(at, p)
        return p + (shifts[k - 1] if k else 0)

    spans = []
    while pos >= 0:
        spans.append((original(pos), original(pos + len(fq) - 1) + 1))
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
