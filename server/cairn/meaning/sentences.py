"""Sentence boundaries in a chunk of source text.

A sentence ends at `.`, `!` or `?` (with any closing quote marks or brackets
after it) followed by white space and then something that can open a
sentence: an upper-case letter, a digit, an opening quote or bracket, or a
list marker. A full stop does not end a sentence after a known abbreviation
(`e.g.`, `i.e.`, `etc.`, `No.`, `Sec.`, `Mr.`, …) or after a single letter
(an initial: `J. Smith`, `U.S. law`). A line break followed by a list
marker or a blank line also ends one, as does a form feed.

This is the rule of English orthography, not a statistical model: it is
exact on the texts Cairn cites (licences, manuals, handbooks), and
tests/unit/test_meaning_sentences.py holds it on the demo and licence texts.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["sentence_spans", "sentence_around"]

# Abbreviations after which a full stop seldom ends a sentence (lower case,
# without the final dot).
_ABBREVIATIONS = frozenset(
    """
    e.g i.e etc vs v cf al approx incl esp viz ca
    mr mrs ms dr prof sr jr st mt rev gen col lt sgt capt
    no nos sec secs art arts para paras fig figs ch chap vol vols pp p ed eds
    inc ltd co corp dept univ assn
    jan feb mar apr jun jul aug sep sept oct nov dec
    """.split()
)

_END = re.compile(
    r"""[.!?]+["'\u201d\u2019)\]]*   # the end mark and what closes after it
        (?=\s+["'\u201c\u2018(\[]*[A-Z0-9\u00c0-\u024f\u0391-\u03a9\u0410-\u042f]|\s*$)""",
    re.VERBOSE,
)
_LIST_BREAK = re.compile(r"\n(?=[ \t]*(?:[-*+\u2022]|\d{1,3}[.)]|\([a-z0-9]{1,3}\))[ \t])|\f|\n[ \t]*\n")
_OPENERS = "([\"'\u201c\u2018"


def _abbreviation(text: str, dot: int) -> bool:
    """True when the `.` at `dot` closes an abbreviation or an initial."""
    i = dot
    lo = max(0, dot - 40)
    while i > lo and not (text[i - 1].isspace() or text[i - 1] in _OPENERS):
        i -= 1  # back to the word's start (a pattern searched from 0 made this quadratic)
    word = text[i:dot]
    if not word:
        return False
    lowered = word.lower()
    if lowered in _ABBREVIATIONS:
        return True
    if len(word) == 1 and word.isalpha():
        return True  # an initial: "J. Smith", "U.S." (the last part)
    if "." in word and all(len(p) <= 2 for p in word.split(".") if p):
        return True  # "U.S", "e.g" written inside a longer token
    return False


@lru_cache(maxsize=4096)
def sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The sentences of `text` as (start, end) offsets, white space at either
    end excluded; together they cover every non-blank character."""
    cuts: set[int] = set()
    for m in _END.finditer(text):
        mark = m.group(0)
        if mark[0] == "." and not mark.startswith("..") and _abbreviation(text, m.start()):
            continue
        cuts.add(m.end())
    for m in _LIST_BREAK.finditer(text):
        cuts.add(m.start())
    spans: list[tuple[int, int]] = []
    start = 0
    for cut in sorted(cuts) + [len(text)]:
        if cut <= start:
            continue
        s, e = start, cut
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            spans.append((s, e))
        start = cut
    return tuple(spans)


def _is_cut(text: str, m: re.Match[str]) -> bool:
    mark = m.group(0)
    return not (mark[0] == "." and not mark.startswith("..") and _abbreviation(text, m.start()))


def _cut_before(text: str, pos: int) -> int:
    """The last sentence cut at or before `pos` (0 when none): what
    sentence_spans would cut, found by reading back from `pos` only."""
    window = 512
    while True:
        lo = max(0, pos - window)
        while lo > 0 and text[lo - 1] in ".!?":
            lo -= 1  # never start inside a run of end marks
        best = -1
        for m in _END.finditer(text, lo):
            if m.end() > pos:
                break
            if _is_cut(text, m):
                best = m.end()
        for m in _LIST_BREAK.finditer(text, lo):
            if m.start() > pos:
                break
            best = max(best, m.start())
        if best >= 0 or lo == 0:
            return max(best, 0)
        window *= 4


def _cut_after(text: str, pos: int) -> int:
    """The first sentence cut at or after `pos` (the text's length when none)."""
    lo = max(0, pos - 8)
    while lo > 0 and text[lo - 1] in ".!?":
        lo -= 1
    best = len(text)
    for m in _END.finditer(text, lo):
        if m.end() >= pos and _is_cut(text, m):
            best = m.end()
            break
    brk = _LIST_BREAK.search(text, pos)
    if brk is not None and brk.start() < best:
        best = brk.start()
    return best


def sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the sentence(s) of `text` that hold [start, end).

    The same span as read from sentence_spans(text), found by reading only
    around the quote (a chunk can be long, and a check reads one sentence)."""
    # white space next to a cut belongs to neither sentence: read from its far side
    ahead = start
    while ahead < len(text) and text[ahead].isspace():
        ahead += 1
    if ahead == len(text):
        return start, end  # nothing but white space from the quote on
    s = _cut_before(text, ahead)
    while s < start and text[s].isspace():
        s += 1
    back = min(max(end, start + 1), len(text))
    while back > 0 and text[back - 1].isspace():
        back -= 1
    if back == 0:
        return start, end  # nothing but white space up to the quote's end
    e = _cut_after(text, back)
    while e > s and text[e - 1].isspace():
        e -= 1
    return min(s, start), max(e, end)


def sentence_around_slow(text: str, start: int, end: int) -> tuple[int, int]:
    """sentence_around read from every sentence of the text (kept as the
    reference the tests hold the fast version to)."""
    spans = sentence_spans(text)
    first = last = None
    for s, e in spans:
        if e > start and first is None:
            first = s
        if s < max(end, start + 1):
            last = e
    if first is None or last is None:
        return start, end
    return min(first, start), max(last, end)
