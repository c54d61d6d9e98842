"""A claim written as its quotes write it, for the word-overlap score (which
compares words): `restated` writes each amount of the claim that a quote
states in another form as the quote writes it (`1.2 km` as `1,200 metres`,
`no fewer than three` as `at least 3`), `restated_score` scores the claim again
so written, and `without_identifiers` takes out (or writes as the quote does)
the identifiers the cited source names. Which amount of the quotes backs the
claim's is cairn.meaning.backing's answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from decimal import Decimal

from ..support import SupportResult
from .backing import (
    _backing,
    _bound_backing,
    _change_backing,
    _date_backs,
    _range_converts,
    _same_edge,
    _same_time,
    _span_of,
    _whole_edge,
    _year_in,
)
from .figures import _SPANS_OF_YEARS
from .frequency import agreeing
from .offered import Bounded, _bound_at, _counted, _Numbers, _offered, _takes_in
from .quantities import extract
from .quantity import Quantity
from .scan import _REFERENCE_WORDS, _WORD_BEFORE

__all__ = ["restated", "restated_score", "without_identifiers"]


def restated(claim: str, quotes: Sequence[str]) -> str:
    """The claim (NFKC) with each of its numbers that a quote states in
    another form written as the quote writes it: `1.2 km` as `1,200 metres`,
    `a dozen` as `12`, `an hour and a half` as `90 minutes`, `the 1990s` as
    the year of them the quote gives, `15 years` as `1985 to 2000`. For the
    word-overlap score, which compares words: an amount the quantity rule
    reads as the quote's is the quote's, found, not missing. The claim's text
    as it is when no number of it is restated."""
    if not quotes:
        return claim
    # how often, as the quote writes it ("every six months" for "twice a year"); the numbers inside are its
    often = agreeing(claim, quotes)
    cq = [q for q in extract(claim) if (q.kind in ("number", "time", "range")
                                        or (q.kind == "date" and q.value is not None))
          and not any(s <= q.start < e for s, e, _ in often)]
    cq += _one_span(claim, cq)
    if not cq and not often:
        return claim
    offered = _offered(tuple(quotes))
    numbers = offered.numbers
    index = _Numbers(numbers)
    text = unicodedata.normalize("NFKC", claim)
    out: list[str] = []
    last = 0
    for q in sorted([*cq, *(Quantity("frequency", w, s, e) for s, e, w in often)], key=lambda q: q.start):
        written: str | None = None
        if q.kind == "frequency":
            if q.start >= last:
                out += [text[last:q.start], q.text]
                last = q.end
            continue
        if q.kind == "number" and offered.bounds and (same := _same_bound(text, q, offered.bounds)) is not None:
            # "no fewer than three" for "at least 3": the bound as the quote writes it, words and number
            lo, hi, written = same
            if lo >= last and written != text[lo:hi]:
                out += [text[last:lo], written]
                last = hi
            continue
        if q.kind == "range" and q.unit not in _SPANS_OF_YEARS:  # "0.41 kg to 0.45 kg" for "410 g and 450 g"
            n = next((r for r in offered.ranges if _range_converts(q, r)), None)
        elif q.kind == "range":  # "the 1990s" for the year in it that the quote gives
            n = _year_in(q, numbers)
        elif q.kind == "time":  # "3 pm" for "15:00"
            n = _same_time(q, [x for x in offered.quantities if x.kind == "time"])
        elif q.kind == "date":  # "early March 2022" for "6 March 2022"
            n = next((d for d in offered.dates if _date_holds(d, q)), None)
        else:
            n = _backing(text, q, numbers, index) or _span_of(q, offered.ranges) or _bound_backing(text, q, offered.amounts)
            if n is None:
                written = _change_backing(text, q, numbers)  # "a third" for "from 300 to 200"
        if n is not None:
            written = n.text
        if written is None or written == q.text or q.start < last:
            continue
        out += [text[last:q.start], written]
        last = q.end
    if not out:
        return claim
    return "".join(out) + text[last:]


# one span of time written with "a" ("held for a week", "within a day"): not a rate ("twice a week", "£5 a day")
_ONE_SPAN = re.compile(r"(?<![\w-])(?:an?|one)\s+(second|minute|hour|day|week|fortnight|month|year)(?![\w-])",
                       re.IGNORECASE)
_RATE_BEFORE = re.compile(r"(?:\d|once|twice|thrice|times|per|[^\W\d_]+ly)\s*$", re.IGNORECASE)


def _one_span(claim: str, cq: Sequence[Quantity]) -> list[Quantity]:
    """The claim's spans of one unit of time written in words (`a week`, `an hour`, `a fortnight`), as amounts
    for restating: `for a week` is written `for seven days` where the quote says so."""
    if " a" not in claim and "one " not in claim.lower():
        return []
    out = []
    for m in _ONE_SPAN.finditer(claim):
        if any(q.start <= m.start() < q.end for q in cq) or _RATE_BEFORE.search(claim, max(0, m.start() - 12),
                                                                                   m.start()):
            continue
        unit = m.group(1).lower()
        value, unit = (Decimal(2), "week") if unit == "fortnight" else (Decimal(1), unit)
        out.append(Quantity("number", m.group(0), m.start(), m.end(), value=value, unit=unit))
    return out


def restated_score(text: str, quotes: Sequence[str], lex: SupportResult, threshold: float,
                   score: Callable[[str], SupportResult]) -> tuple[SupportResult, str]:
    """A score `lex` of `text` below the threshold, read again (`score`) with
    the amounts the quotes state in another form written as they write them
    (`restated`): that result and text when it scores higher, else `lex` and
    `text` as they are. What `cairn check`, each sentence of a claim and the
    bench do alike."""
    if lex.score is None or lex.score >= threshold:
        return lex, text
    again = restated(text, quotes)
    if again == text:
        return lex, text
    other = score(again)
    return (other, again) if other.score is not None and other.score > lex.score else (lex, text)


def _same_bound(claim: str, q: Quantity, bounds: tuple[Bounded, ...]) -> tuple[int, int, str] | None:
    """Where the claim's bound on its number is, and the quotes' bound that
    allows the same amounts, as they write it: `at least 3` for `no fewer
    than three`, `more than 3` for `4 or more` (whole counts of the same
    word), `up to 5 kg` for `no more than 5 kg`. None when the claim bounds
    nothing there or no quote bounds it alike. Only a bound written as a
    phrase next to its number: `the maximum stay is 3 nights` names what it
    bounds in the words between, which are the claim's to be found."""
    if q.value is None:
        return None
    found = _bound_at(claim, q.start, q.end)
    if found is None or _STATED_BOUND.search(found.group(0)):
        return None
    up, inclusive = found.group("up") is not None, _takes_in(found)
    edge = _whole_edge(q, up, inclusive)
    noun = _counted(claim, q, found) if edge is not None else None
    for b in bounds:
        if b.up != up or _STATED_BOUND.search(b.written):
            continue
        if edge is not None:
            if _same_edge(b, up, edge, noun):
                break
        elif b.n.unit == q.unit and b.n.value == q.value and b.inclusive == inclusive:
            break
    else:
        return None
    return min(found.start(), q.start), max(found.end(), q.end), b.written


# a bound that names its number through a copula: "the maximum stay is"
_STATED_BOUND = re.compile(r"\b(?:is|are|was|were)\b", re.IGNORECASE)


def _date_holds(evidence: Quantity, claimed: Quantity) -> bool:
    """Whether a quote's date backs a claimed date (`_date_backs`); a part of
    a month (`early March 2022`, its days as value to high) by a day of the
    month in that part."""
    if not _date_backs(evidence.date, claimed.date):
        return False
    day = evidence.date[2] if evidence.date else None
    return claimed.value is None or claimed.high is None or (day is not None and claimed.value <= day <= claimed.high)


def without_identifiers(claim: str, context: list[str] | tuple[str, ...], quotes: Sequence[str] = ()) -> str:
    """The claim with its identifiers taken out, for the word-overlap score:
    an identifier's number is never missing from a quote (it names the
    source), and its name is not missing when the cited chunk or its source's
    title names it (`Under Apache 2.0, …` cited to the Apache licence). An
    identifier one of the `quotes` names too is found, not taken out: written
    as the quote writes it (`the third quarter` cited to `Q3`, `part 2` to
    `Part Two`; `kernel 5.15` to `Linux 5.15`, the same release under
    another name)."""
    qs = [q for q in extract(claim) if q.kind == "identifier"]
    if not qs:
        return claim
    said = [x for quote in quotes for x in extract(quote) if x.kind == "identifier"]
    text = unicodedata.normalize("NFKC", claim)
    named = " ".join(context).lower()
    edits: list[tuple[int, int, str]] = []
    for q in qs:
        same = next((x for x in said if x.ident == q.ident and (x.name == q.name or (q.ident and len(q.ident) > 1))),
                    None)
        if same is not None:
            edits.append((q.start, q.end, same.text))
            continue
        start = q.start
        if q.name and q.name not in _REFERENCE_WORDS.values():
            m = _WORD_BEFORE.search(text, max(0, q.start - 40), q.start)
            if m and m.group(1).lower() == q.name and re.search(rf"(?<![^\W\d_]){re.escape(q.name)}", named):
                start = m.start()
        elif q.name:
            m = _WORD_BEFORE.search(text, max(0, q.start - 40), q.start)
            if m and _REFERENCE_WORDS.get(m.group(1).lower().rstrip("'’")) == q.name:
                start = m.start()
        edits.append((start, q.end, ""))
    out, last = [], 0
    for s0, e0, written in sorted(edits):
        if s0 >= last:
            out += [text[last:s0], written]
            last = e0
    out.append(text[last:])
    return " ".join("".join(out).split())
