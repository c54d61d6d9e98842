"""A claim's figure worked out from its quote's figures in one step (SPEC
section 4, `number-mismatch`).

A careful writer restates an amount by the arithmetic its sentence invites:
`Tickets cost £10 each` backs `two tickets cost £20`, `5% … and the
employer adds 3%` backs `8% in all`, `20% off the £50 fee` backs `£40`. The
claim's figure is then a quantity its quote states, only not in one number.
The rule takes one step of arithmetic over the figures of one quote
sentence, all in the claim's unit, so that a figure of a long document is
never matched by chance against two figures far apart:

- a total (the claim says `in total`, `in all`, `altogether`, `combined`,
  `together`, `between them`, `overall`): two or three figures that add up;
- a difference (the claim says `more`, `less`, `fewer`, `longer`,
  `shorter`, `extra`, `difference`, `saving`, `cheaper`, `dearer`): two
  figures that far apart;
- a share or a change by a percentage of the same sentence: `20% of £50`,
  `20% off £50`, `£50 plus 20%`;
- a figure for each thing times the claim's count of those things (`£15 per
  adult per night` and `two adults`, `three nights`): the count is then
  backed too;
- the same rate over another span of time of the calendar (`£3,000 a month`
  and `£36,000 a year`; days and weeks, not months and days), and an amount
  shared out in the quote's count of parts (`£36,000 … in twelve monthly
  instalments` and `£3,000 each month`);
- a change by a percentage between two amounts of one unit, where the claim
  says it is a change (`rose 10%` from `$440 million, compared with $400
  million`);
- a year and a span of years (`1823` from `1781 … 42 years later`), a span
  or an age between two years (`lasted six years`, `died aged 58`; an age
  may be a year less, a birthday not yet come);
- the margin or the sum of a tally (`by two goals`, `four goals in all` from
  `3-1`);
- the count of a list, where the claim names two of its items or the quote's
  sentence names the counted thing (`four kinds of hazard, among them lahars
  and ashfall`); not under a bound (`at least four`) nor an ordinal.

A figure the arithmetic does not reach is left to the number rule, which
fails it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from .quantities import extract
from .quantity import Quantity
from .sentences import sentence_spans
from .units import SPAN_LENGTH, rounds_to

__all__ = ["worked_out"]

_TOTAL = re.compile(r"(?<![\w-])(?:in\s+total|total(?:s|led|ing)?|in\s+all|altogether|combined|together"
                    r"|between\s+them|overall|all\s+told|add(?:s|ing)?\s+up\s+to|sum)(?![\w-])", re.IGNORECASE)
_APART = re.compile(r"(?<![\w-])(?:more|less|fewer|longer|shorter|extra|difference|saving|saves?|save[sd]"
                    r"|cheaper|dearer|higher|lower|additional|on\s+top)(?![\w-])", re.IGNORECASE)
# a figure for each one thing: `£10 each`, `£15 per adult`, `£3 a ticket`, `£5 for each child`, `£2 every hour`
_EACH_AFTER = re.compile(r"\s*(?:each|apiece|per\s+[^\W\d_]+|an?\s+[^\W\d_]+|for\s+(?:each|every)\s+[^\W\d_]+"
                         r"|every\s+[^\W\d_]+)(?![\w-])", re.IGNORECASE)
# a change by a percentage: `20% off`, `a 20% discount`, `reduced by 20%`, `plus 20%`, `20% more`
_OFF = re.compile(r"off|discount|reduc|less|cut|lower|cheaper|saving|rebate", re.IGNORECASE)
_ON = re.compile(r"plus|more|surcharge|increase|rise|higher|extra|add|on\s+top|uplift|premium|interest|VAT",
                 re.IGNORECASE)
_MAX_FIGURES = 8  # a sentence with more figures than this offers too many sums to trust one


def _figures(text: str) -> list[Quantity]:
    return [q for q in extract(text) if q.kind == "number" and q.value is not None and q.value.is_finite()]


def _counts(claim: str, figures: Sequence[Quantity]) -> list[Quantity]:
    """The claim's counts of things: whole numbers without a unit, before a word (`two adults`)."""
    out = []
    for q in figures:
        assert q.value is not None
        if q.unit is None and q.value == q.value.to_integral_value() and 1 < q.value <= 1000 \
                and re.match(r"\s+[^\W\d_]", claim[q.end:q.end + 3]):
            out.append(q)
    return out


def _per_each(sentence: str, q: Quantity) -> bool:
    return _EACH_AFTER.match(sentence, q.end) is not None


def _per_span(q: Quantity) -> tuple[str, str] | None:
    """A rate's amount unit and span of time (`£36,000 a year`: GBP and year), as the scanner reads it."""
    if q.unit is None or "/" not in q.unit:
        return None
    base, _, span = q.unit.partition("/")
    return (base, span) if span in SPAN_LENGTH else None


def _same_rate(v: Decimal, mine: str, a: Decimal, theirs: str) -> bool:
    """`£3,000 a month` and `£36,000 a year`: one rate over two spans of time of one family."""
    (f1, n1), (f2, n2) = SPAN_LENGTH[mine], SPAN_LENGTH[theirs]
    return f1 == f2 and n1 != n2 and v * n2 == a * n1


def worked_out(claim: str, quotes: Sequence[str]) -> set[int]:
    """The starts of the claim's figures that one step of arithmetic over one
    quote sentence's figures backs (see the module's docstring)."""
    mine = _figures(claim)
    if not mine:
        return set()
    total = _TOTAL.search(claim) is not None
    apart = _APART.search(claim) is not None
    counts = _counts(claim, mine)
    out: set[int] = set()
    for quote in quotes:
        if not counts and not any(ch.isdigit() for ch in quote) and not re.search(r"(?i)per\s*cent|each|per\s", quote):
            continue
        for s, e in sentence_spans(quote):
            sentence = quote[s:e]
            theirs = _figures(sentence)
            if not theirs and (not counts or "," not in sentence) or len(theirs) > _MAX_FIGURES:
                continue
            for q in mine:
                if q.start in out:
                    continue
                if _one_more_step(claim, q, sentence, theirs):
                    out.add(q.start)
                    continue
                if q.unit is None:
                    continue
                v = q.value
                assert v is not None
                same = [n for n in theirs if n.unit == q.unit]
                values = [n.value for n in same if n.value is not None]
                hit = False
                if total and len(values) >= 2:
                    hit = any(a + b == v for i, a in enumerate(values) for b in values[i + 1:]) or any(
                        a + b + c == v for i, a in enumerate(values) for j, b in enumerate(values[i + 1:], i + 1)
                        for c in values[j + 1:])
                if not hit and apart and len(values) >= 2:
                    hit = any(abs(a - b) == v and a != b for i, a in enumerate(values) for b in values[i + 1:])
                if not hit and q.unit != "%":
                    for p in (n for n in theirs if n.unit == "%"):
                        assert p.value is not None
                        share = p.value / 100
                        before = sentence[max(0, p.start - 24):p.start] + sentence[p.end:p.end + 24]
                        for a in values:
                            if a * share == v or _OFF.search(before) and a * (1 - share) == v \
                                    or _ON.search(before) and a * (1 + share) == v:
                                hit = True
                rate = _per_span(q)
                if not hit and rate is not None:
                    # the same rate over another span of time, or an amount shared out in the quote's count
                    # of parts (`£36,000 a year, paid in twelve equal monthly instalments`)
                    for x in theirs:
                        other = _per_span(x)
                        base = other[0] if other is not None else x.unit
                        if base != rate[0] or x.value is None:
                            continue
                        if other is not None and _same_rate(v, rate[1], x.value, other[1]) or any(
                                v * n.value == x.value for n in theirs if n.unit is None and n.value is not None
                                and n.value == n.value.to_integral_value() and 1 < n.value <= 100):
                            hit = True
                if not hit and counts:
                    for n in same:
                        if not _per_each(sentence, n):
                            continue
                        assert n.value is not None
                        used = _product(n.value, v, counts)
                        if used:
                            hit = True
                            out.update(c.start for c in used)
                            break
                if hit:
                    out.add(q.start)
    return out


def _product(each: Decimal, v: Decimal, counts: list[Quantity]) -> list[Quantity]:
    """The claim's one or two counts that, times a figure for each thing, make v."""
    for i, a in enumerate(counts):
        assert a.value is not None
        if each * a.value == v:
            return [a]
        for b in counts[i + 1:]:
            assert b.value is not None
            if each * a.value * b.value == v:
                return [a, b]
    return []


# a change by a percentage stated in the claim: `rose 10%`, `a 10% increase`, `down 5% on last year`
_CHANGE = re.compile(r"(?<![\w-])(?:ris(?:e|es|ing)|rose|risen|f[ae]ll(?:s|ing|en)?|up|down|increas\w*|decreas\w*"
                     r"|gr[eo]w(?:s|n|th|ing)?|drop(?:s|ped|ping)?|declin\w*|jump\w*|climb\w*|gain\w*|slump\w*"
                     r"|higher|lower|more|less|cut|grew|shr[au]nk|shrink\w*)(?![\w-])", re.IGNORECASE)
# a year as written: four digits, a plausible year of the calendar
_YEAR = re.compile(r"\d{4}")
# the claim's age: `aged 58`, `at the age of 58`, `at 58`, `58-year-old`
_AGE_BEFORE = re.compile(r"(?<![\w-])(?:aged|age\s+of|at)\s+$", re.IGNORECASE)
# a tally of a match or a vote, `3-1`, `2–0`: the first at least the second
_TALLY = re.compile(r"(?<![\w.,:/-])(\d{1,3})\s?[-–](\d{1,3})(?![\w.,:/%-])")
_BOUND_BEFORE = re.compile(r"(?<![\w-])(?:at\s+least|at\s+most|over|more\s+than|fewer\s+than|less\s+than|up\s+to"
                           r"|about|around|nearly|almost|some|roughly|under)\s+$", re.IGNORECASE)
_BY_BEFORE = re.compile(r"(?<![\w-])by\s+$", re.IGNORECASE)
# a list of names or noun phrases: items of up to four words, joined by commas and a last `and`/`or`
_ITEM = r"[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,3}"
_LIST = re.compile(rf"{_ITEM}(?:,\s+{_ITEM})+,?\s+(?:and|or)\s+{_ITEM}")


def _year(q: Quantity) -> bool:
    assert q.value is not None
    return q.unit is None and _YEAR.fullmatch(q.text) is not None and 1000 <= q.value <= 2100


def _one_more_step(claim: str, q: Quantity, sentence: str, theirs: Sequence[Quantity]) -> bool:
    """The further steps of arithmetic a claim's figure may take from one quote sentence: a change by a
    percentage between two of its amounts, a year and a span of years, a span or an age between two years,
    the margin or the sum of a tally, and the count of a list."""
    v = q.value
    assert v is not None
    if q.unit == "%" and _CHANGE.search(claim) is not None:
        amounts = [n.value for n in theirs if n.unit not in (None, "%") and n.value]
        amounts += [n.value for n in theirs if n.unit is None and n.value and not _year(n)]
        if any(a != b and rounds_to(abs(a / b - 1) * 100, v) for a in amounts for b in amounts
               if _same_kind(theirs, a, b)):
            return True
    years = [n.value for n in theirs if n.value is not None and _year(n)]
    spans = [n.value for n in theirs if n.unit == "year" and n.value is not None]
    if _year(q):
        return any(y + s == v or y - s == v for y in years for s in spans)
    if (q.unit == "year" or q.unit is None and _AGE_BEFORE.search(claim, max(0, q.start - 20), q.start)) \
            and len(years) >= 2:
        gaps = {abs(a - b) for a in years for b in years if a != b}
        return v in gaps or q.unit is None and v + 1 in gaps
    if q.unit is None and v == v.to_integral_value() and 1 < v <= 30:
        tallies = [(int(m.group(1)), int(m.group(2))) for m in _TALLY.finditer(sentence)
                   if int(m.group(1)) >= int(m.group(2))]
        if tallies and _BY_BEFORE.search(claim, max(0, q.start - 6), q.start) and any(a - b == v for a, b in tallies):
            return True
        if tallies and _TOTAL.search(claim) and any(a + b == v for a, b in tallies):
            return True
        noun = re.match(r"\s+([^\W\d_]+)", claim[q.end:q.end + 40])
        cardinal = q.text.isdigit() or q.text.isalpha()  # `4` or `four`, not `3rd`
        if cardinal and noun is not None and _BOUND_BEFORE.search(claim, max(0, q.start - 16), q.start) is None:
            for m in _LIST.finditer(sentence):
                if _items(m.group(0)) == v and _tied(claim, noun.group(1), sentence, m.group(0)):
                    return True
    return False


def _tied(claim: str, noun: str, sentence: str, run: str) -> bool:
    """Whether a list is the one the claim counts: the sentence names the claim's counted noun (`four
    starters` and `… as starters`), or the claim names two of the list's items (`among them lahars and
    ashfall`). A list elsewhere in a long document is not counted by chance."""
    if re.search(rf"(?i)(?<![\w-]){re.escape(noun)}", sentence):
        return True
    items = re.split(r",?\s+(?:and|or)\s+|,\s+", run)
    named = [i for i in items[1:] if i and re.search(rf"(?i)(?<![\w-]){re.escape(i.split()[-1])}(?![\w-])", claim)]
    return len(named) >= 2


def _same_kind(theirs: Sequence[Quantity], a: Decimal, b: Decimal) -> bool:
    """Whether two of a sentence's amounts are in one unit (so that one is a change on the other)."""
    ua = {n.unit for n in theirs if n.value == a}
    ub = {n.unit for n in theirs if n.value == b}
    return bool(ua & ub)


def _items(run: str) -> int:
    """The number of items of a list as _LIST matched it: one more than its separators."""
    return len(re.findall(r",(?!\s+(?:and|or)\s)|,?\s+(?:and|or)\s+", run)) + 1
