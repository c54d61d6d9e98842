"""Whether a claim's quantities, dates and identifiers are backed by its
quotes (SPEC section 4, `number-mismatch`): the comparison half of the
quantity rule, over what cairn.meaning.quantities reads.

A claim's number is backed by the same amount in its quotes, in the same
unit or one that converts (cairn.meaning.units), by its rounding after a
hedge, by an amount that meets the bound it is under (`over 8,000 m`), by
two amounts whose difference or ratio it states (`fell by 2 percentage
points`, `tripled`), or by a range of years as long as it says. A share
written as a fraction fails only against quotes that give a share; a day
of the week only against quotes that name a day or give a full date.

What the quotes offer is read once per tuple of quotes (cairn.meaning.offered);
command-line options and files are checked by cairn.meaning.literals; the
claim written as its quotes write it, for the word-overlap score, is
cairn.meaning.restating's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal

from .figures import _REFERENCE_NAMES, _SPANS_OF_YEARS, DateParts, _calendar_year
from .frequency import frequency_mismatches
from .literals import _literals_unnamed
from .offered import Bounded, _bound_at, _counted, _noun_after, _Numbers, _offered, _shown, _takes_in
from .phrases import _share, days_through
from .quantities import NumberMismatch, extract
from .quantity import Quantity
from .scan import _REFERENCE_WORDS
from .units import amount_in, converts, hedged, hedged_rounding, in_words, rounds_to, same_unit
from .worked import worked_out

__all__ = ["compare"]


_RELEASE_NAMES = frozenset({"version", "release"})
_GENERIC_NAMES = _REFERENCE_NAMES | {"item"}


def compare(claim: str, quotes: list[str], context: Sequence[str] = (), titles: Sequence[str] = ()) -> list[NumberMismatch]:
    """The claim's quantities, dates and identifiers that its quotes do not
    back. `context` holds the cited chunks' text and `titles` their sources'
    titles, against which identifiers are checked."""
    cq = extract(claim)
    # how often (`every six months`, `twice a year`): one rate, compared as such where the quotes give
    # one for the same thing; the numbers it is written with are then its, not the number rule's
    often, decided = frequency_mismatches(claim, quotes)
    if decided:
        cq = tuple(q for q in cq if not any(s <= q.start < e for s, e in decided))
    if not cq:
        return often + _one_counted(claim, quotes) + _literals_unnamed(claim, quotes, context, titles)
    named = (*context, *titles)
    offered = _offered(tuple(quotes))
    numbers = offered.numbers
    index = _Numbers(numbers)
    dates = offered.dates
    if any(q.kind == "date" for q in cq):
        dates = dates + offered.months
    ranges = offered.ranges
    out: list[NumberMismatch] = []
    worked: set[int] | None = None
    for q in cq:
        if q.kind == "number":
            if _backing(claim, q, numbers, index) is None and _bound_backing(claim, q, offered.amounts) is None \
                    and _change_backing(claim, q, numbers) is None and _span_of(q, offered.ranges) is None \
                    and _bound_within(claim, q, offered.bounds) is None and _years_within(claim, q, ranges) is None \
                    and not _named_version(q, offered.quantities) and not _every(claim, q, offered.quantities) \
                    and not _between_times(claim, q, offered.quantities):
                if worked is None:
                    worked = worked_out(claim, quotes)
                if q.start in worked:
                    continue  # a figure the quote's sentence states by one step of arithmetic (cairn.meaning.worked)
                if in_words(q) and not any(n.unit == "%" for n in numbers) \
                        and _BY.search(claim, max(0, q.start - 24), q.start) is None:
                    continue  # "half of the members": the quotes give no share to hold it to
                if _counts_its_list(claim, q):
                    continue  # "Two friends, Steve and Carly": the claim's own list states the count
                out.append(NumberMismatch(q.text, offered.said_numbers, "number"))
        elif q.kind == "time":
            when = {v for v in (q.value, q.high) if v is not None}
            times = [n for n in offered.quantities if n.kind == "time"]
            if _same_time(q, times) is None and not (
                    not times and any(n.unit is None and n.value is not None and _hours(n.value) &
                                      {v - v % 60 for v in when} for n in numbers)) \
                    and not _time_bound_met(claim, q, times):
                # no time of the quotes is the claim's; without one, the hour alone may be given ("at 9",
                # "let's make it 7": a bare hour of a twelve-hour clock is either of its two readings)
                out.append(NumberMismatch(q.text, offered.said_numbers, "number"))
        elif q.kind == "factor":
            # "tripled" is backed by two amounts of one unit the quotes give, the later a multiple of the
            # earlier (to a tenth); it fails only against quotes that give two such amounts (years apart)
            multiples = [n for n in offered.quantities if n.kind == "factor"]
            amounts = [n for n in numbers if n.value is not None and n.value > 0 and not _a_year(n)]
            pairs = [(a, b) for a in amounts for b in amounts if a is not b and a.unit == b.unit]
            if multiples:
                if not any(n.value == q.value for n in multiples):  # "tripled" against "doubled"
                    out.append(NumberMismatch(q.text, ", ".join(dict.fromkeys(n.text for n in multiples)), "number"))
            elif pairs and q.value is not None and not any(
                    abs(b.value / a.value - q.value) <= q.value / 10 for a, b in pairs  # type: ignore[operator]
                    if a.start < b.start or a.value != b.value):
                out.append(NumberMismatch(q.text, offered.said_numbers, "number"))
        elif q.kind == "weekday":
            # a day of the week is backed by the same day, or by a full date falling on it; it fails only
            # against quotes that name a day or give such a date
            days = [n for n in offered.quantities if n.kind == "weekday"]
            on = [w for d in dates if d.date and (w := _weekday(d.date)) is not None]
            if (days or on) and not any(q.value in _days_of(n) and (q.high is None or _days_of(q) <= _days_of(n))
                                        for n in days) and q.value not in on:
                out.append(NumberMismatch(q.text, ", ".join(dict.fromkeys(n.text for n in days)) or offered.said_dates,
                                          "date"))
        elif q.kind == "ratio":
            # backed by the same share written as a percentage (to the nearest whole one) or as a ratio,
            # or by both of its numbers
            share = _share(q)
            if not (any(n.unit == "%" and n.value is not None and abs(n.value - share) <= Decimal("0.5")
                        for n in numbers) or
                    (any(n.value == q.value for n in numbers) and any(n.value == q.high for n in numbers))):
                out.append(NumberMismatch(q.text, offered.said_numbers, "number"))
        elif q.kind == "range" and q.unit in _SPANS_OF_YEARS:
            # a decade (or century) is backed by the same one, or by a year in it (a number, a range's end, a date's year)
            if not (any(r.unit == q.unit and r.value == q.value for r in ranges) or _year_in(q, numbers) is not None):
                out.append(NumberMismatch(q.text, offered.said_numbers, "range"))
        elif q.kind == "range":
            ok = any(r.value == q.value and r.high == q.high and same_unit(q.unit, r.unit) for r in ranges) or (
                any(n.value == q.value and same_unit(q.unit, n.unit) for n in numbers)
                and any(n.value == q.high and same_unit(q.unit, n.unit) for n in numbers)
            ) or any(_range_converts(q, r) for r in ranges)
            if not ok:
                out.append(NumberMismatch(q.text, offered.said_numbers, "range"))
        elif q.kind == "date":
            assert q.date is not None
            if q.value is not None and q.high is not None:
                # a part of a month ("late March 2022"): held to the days of that month the quotes give
                given = [d.date[2] for d in dates if d.date and d.date[2] is not None and d.date[1] == q.date[1]
                         and d.date[0] in (None, q.date[0])]
                if given:
                    if not any(q.value <= day <= q.high for day in given):
                        out.append(NumberMismatch(_shown(q), offered.said_dates, "date"))
                    continue
            if not any(_date_backs(d.date, q.date) for d in dates):
                y, mo, day = q.date
                if mo is None and day is None and y and any(n.value == y for n in numbers):
                    continue
                # a passage often gives the year once: "on 2 November" with 2004 elsewhere in it
                if y and mo and any(_date_backs(d.date, (None, mo, day)) for d in dates) and \
                        any(n.value == y for n in numbers):
                    continue
                out.append(NumberMismatch(_shown(q), offered.said_dates, "date"))
        elif q.kind == "identifier":
            others = [x for text in (*quotes, *named) for x in extract(text)
                      if x.kind == "identifier" and x.name == q.name]
            ids = [x for x in cq if x.kind == "identifier" and x.name != "revision"]  # `1.2.13-1`: one release
            if not others and q.name not in _GENERIC_NAMES and _REFERENCE_NAMES.isdisjoint(
                    x.name for x in ids) and len(ids) == 1:
                # the claim's one release of a thing it names ("grep 2.5.1"), where the quote itself
                # gives a release or version without the name ("since release 2.5.3"): that thing's.
                # Only the quote's and the chunk's heading ("Changes in 1.2.13 (13 Oct 2022)", the
                # release a changelog's chunk is about): the rest of a chunk may name other releases
                # ("reverts a change made in release 8.32")
                others = [x for text in (*quotes, *filter(None, map(_heading, context))) for x in extract(text)
                          if x.kind == "identifier" and x.name in _RELEASE_NAMES]
            if others and not any(x.ident == q.ident for x in others):
                shown = list(dict.fromkeys(_ident_shown(x) for x in others))
                mine = _ident_shown(q)
                out.append(NumberMismatch(mine, ", ".join(shown[:4]), "identifier", where="source"))
    return out + often + _one_counted(claim, quotes) + _literals_unnamed(claim, quotes, context, titles)


_MINUTES = {"hour": 60, "minute": 1}


def _between_times(claim: str, q: Quantity, quantities: tuple[Quantity, ...]) -> bool:
    """A span of hours or minutes that is the time between two times of day the quotes give: "eight and a
    half hours between sunrise and sunset" from "sunrise is at 07:42 and sunset at 16:12"; with a hedge
    ("about two hours after sunset") to a tenth of the span."""
    if q.unit not in _MINUTES or q.value is None or q.high is not None:
        return False
    span = q.value * _MINUTES[q.unit]
    slack = span / 10 if hedged(claim, q.start) else Decimal(0)
    times = [t for t in quantities if t.kind == "time"]
    readings = [[v for v in (t.value, t.high) if v is not None] for t in times]
    return any(abs((b - a) % 1440 - span) <= slack
               for i, first in enumerate(readings) for later in readings[i + 1:] for a in first for b in later)


def _heading(chunk: str) -> str | None:
    """A chunk's first line when it heads the chunk, as a changelog's entry does ("Changes in 1.2.13
    (13 Oct 2022)" over its items): short, one sentence at most, a blank line or a list item after it."""
    lines = chunk.lstrip().split("\n", 2)
    if len(lines) < 2 or len(lines[0]) > 80 or ". " in lines[0]:
        return None
    after = lines[1].strip()
    return lines[0] if lines[0].startswith("#") or not after or after[0] in "-*+\u2022" else None


# "one" before a noun: a count, or a word of a pronoun's or an article's kind ("one possibility is",
# "one day"); not "no one", "any one", "every one", "one of", "one another", "one or two"
_ONE_BEFORE_NOUN = re.compile(
    r"(?<![\w-])(?<!no )(?<!any )(?<!every )(?<!No )(?<!Any )(?<!Every )[Oo]ne\s+"
    r"(?!(?:of|another|or|and|more|such|that|which|who|to|in|at|by|is|was)\b)([A-Za-z][a-z]+)\b")


def _one_counted(claim: str, quotes: Sequence[str]) -> list[NumberMismatch]:
    """`one` before a noun is held as a count only where the quotes count that thing: "one
    manager" against "two managers" is a number-mismatch; against quotes that give no number of
    managers it says nothing (it may be an article's "one": "one possibility is ..."). Under a
    bound ("at least one manager") it is left to the bound."""
    if "one " not in claim and "One " not in claim:
        return []
    out = []
    for m in _ONE_BEFORE_NOUN.finditer(claim):
        noun = _noun_after(claim, m.end() - len(m.group(1)) - 1)
        if noun is None or _bound_at(claim, m.start(), m.end() - len(m.group(1)) - 1) is not None:
            continue
        offered = _offered(tuple(quotes))
        counts = [n for n, after in offered.amounts if after == noun and n.value is not None]
        if counts and not any(n.value == 1 for n in counts):
            out.append(NumberMismatch(claim[m.start():m.end()], ", ".join(dict.fromkeys(n.text for n in counts)),
                                      "number"))
    return out


# a change by an amount: "fell by 2 percentage points", "rose by about 12%"
_BY = re.compile(r"(?<![\w-])by\s+(?:about\s+|around\s+|roughly\s+|some\s+|nearly\s+|almost\s+)?$", re.IGNORECASE)


def _change_backing(claim: str, q: Quantity, numbers: list[Quantity]) -> str | None:
    """Where the claim gives a change by an amount (`fell by 2 percentage
    points`, `rose by 50%`, `grew by 3 days`) that two of the quotes' amounts
    make: their difference, in the same unit (percentage points between two
    percentages), or, for a percentage, the change relative to the smaller or
    the larger (`from 8% to 6%` is a fall of 2 points, or 25%). The two
    amounts as the quotes write them, or None."""
    if q.unit is None or q.value is None or q.value <= 0 or _BY.search(claim, max(0, q.start - 24), q.start) is None:
        return None
    unit = "%" if q.unit == "percentage point" else q.unit
    relative = q.unit == "%"
    if relative and any(n.unit == "percentage point" and n.value == q.value for n in numbers):
        return None  # the quote writes the change in points itself: "by 5%" is another change than "by 5 points"
    pool = [n for n in numbers if n.value is not None and (n.unit == unit or (relative and n.unit is None))]
    written = q.value
    shares = in_words(q)  # "by a third": a round figure

    def rounds(x: Decimal) -> bool:
        return rounds_to(x, written) or (shares and abs(x - written) <= written / 10)

    for x in pool:
        for y in pool:
            a, b = x.value, y.value
            if a is None or b is None or a >= b or x.unit != y.unit:
                continue
            if (not relative and b - a == written) or (relative and x.unit == "%" and rounds(b - a)) \
                    or (relative and a > 0 and (rounds((b - a) * 100 / a) or rounds((b - a) * 100 / b))):
                # "fell by 2%" is often written for a fall of two points
                return x.text if x.text == y.text else f"{x.text} {y.text}"
    return None


def _years_within(claim: str, q: Quantity, ranges: list[Quantity]) -> Quantity | None:
    """The quotes' span of calendar years (a decade, a century, `from 1931 to
    1938`) wholly within the claim's bound on a year: `before 1950` against
    `in the 1930s`; None when the claim bounds no year or no span meets it."""
    if q.value is None or not _calendar_year(q):
        return None
    found = _bound_at(claim, q.start, q.end)
    if found is None or _A_LIMIT.search(found.group(0)) is not None:
        return None
    up, inclusive = found.group("up") is not None, _takes_in(found)
    for r in ranges:
        if r.value is None or r.high is None or not (r.unit in _SPANS_OF_YEARS or (
                r.unit is None and 1000 <= r.value < r.high < 3000)):
            continue
        if (r.value >= q.value if inclusive else r.value > q.value) if up else \
                (r.high <= q.value if inclusive else r.high < q.value):
            return r
    return None


def _span_of(q: Quantity, ranges: list[Quantity]) -> Quantity | None:
    """The quotes' range of calendar years that lasts the claim's number of
    years: `for 15 years` in `from 1985 to 2000`."""
    if q.unit != "year" or q.value is None:
        return None
    for r in ranges:
        if r.unit is None and r.value is not None and r.high is not None and 1000 <= r.value < r.high < 3000 \
                and r.high - r.value == q.value:
            return r
    return None


def _a_year(n: Quantity) -> bool:
    """Whether a number may be a year: whole, 1000 to 2100, no unit, written without a comma."""
    return n.unit is None and n.value is not None and 1000 <= n.value <= 2100 and n.value == n.value.to_integral() \
        and "," not in n.text


def _days_of(q: Quantity) -> set[Decimal]:
    """The days of the week a weekday quantity names: one day, or a run from `value` to `high`."""
    if q.value is None:
        return set()
    if q.high is None:
        return {q.value}
    return {Decimal(d) for d in days_through(int(q.value), int(q.high))}


def _weekday(d: DateParts) -> int | None:
    """The day of the week (Monday 0) of a full date; None when a part is missing."""
    y, mo, day = d
    if y is None or mo is None or day is None:
        return None
    try:
        return datetime(y, mo, day).weekday()
    except ValueError:
        return None


def _year_in(q: Quantity, numbers: list[Quantity]) -> Quantity | None:
    """The quotes' year (a whole number without a unit, a range's end, a date's year) that
    lies in the claim's decade or century `q`."""
    if q.value is None or q.high is None:
        return None
    return next((n for n in numbers if n.unit is None and n.value is not None and q.value <= n.value <= q.high
                 and n.value == n.value.to_integral()), None)


# a count with its noun, then the names it counts: "two friends, Steve and Carly", "three members (Ann, Bo and Cy)"
_NAME = r"[A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*)?"
_ITS_LIST = re.compile(rf"\s+(?:[a-z][\w-]*\s+){{0,2}}?[a-z][\w-]*s\s*(?:,|:|\(|\u2014|\u2013|-)\s*"
                       rf"(?P<names>{_NAME}(?:\s*,\s*{_NAME})*,?\s+(?:and|&)\s+{_NAME})")


def _counts_its_list(claim: str, q: Quantity) -> bool:
    """Whether a count is restated by the list of names right after its noun in the claim itself."""
    if q.unit is not None or q.value is None or not 2 <= q.value <= 9:
        return False
    m = _ITS_LIST.match(claim, q.end)
    if m is None:
        return False
    names = re.split(r"\s*,\s*(?:(?:and|&)\s+)?|\s+(?:and|&)\s+", m.group("names").strip())
    return len([n for n in names if n]) == q.value


def _range_converts(q: Quantity, r: Quantity) -> bool:
    """Whether the quotes' range `r` is the claim's range `q` in another unit, end for end
    ("0.41 kg to 0.45 kg" for "between 410 g and 450 g")."""
    if q.high is None or r.high is None:
        return False
    lo, hi = (Quantity("number", x.text, x.start, x.end, value=v, unit=x.unit)
              for x, v in ((q, q.value), (q, q.high)))
    rlo, rhi = (Quantity("number", r.text, r.start, r.end, value=v, unit=r.unit) for v in (r.value, r.high))
    return converts(lo, rlo) and converts(hi, rhi)


def _hours(value: Decimal) -> set[Decimal]:
    """The minutes after midnight a bare hour may be: `7` is 7:00 or 19:00, `19` only 19:00."""
    if value != value.to_integral() or not 0 <= value <= 24:
        return set()
    return {value * 60, (value + 12) * 60} if 1 <= value <= 12 else {value * 60}


def _same_time(q: Quantity, times: list[Quantity]) -> Quantity | None:
    """The quotes' time of day that may be the claim's (either reading of a twelve-hour time)."""
    when = {v for v in (q.value, q.high) if v is not None}
    return next((n for n in times if when & {n.value, n.high}), None)


def _time_bound_met(claim: str, q: Quantity, times: list[Quantity]) -> bool:
    """Whether the claim bounds its time of day (`before 9 am`, `after 6 pm`)
    and a quote gives a time within the bound (`at 8 am`)."""
    found = _bound_at(claim, q.start, q.end)
    if found is None:
        return False
    up = found.group("up") is not None
    for n in times:
        for v in (n.value, n.high):
            if v is not None and any(w is not None and (v >= w if up else v <= w) for w in (q.value, q.high)):
                return True
    return False


def _backing(claim: str, q: Quantity, numbers: list[Quantity], index: _Numbers | None = None) -> Quantity | None:
    """The quotes' number (of `numbers`, _numbers_of) that states the claim's
    number `q`: the same value in the same unit, the amount in another unit
    (`converts`), or, after a hedge (`about 3 km`), its rounding; None when
    none does. `index` is `numbers` kept for lookup (the same answer, found
    without reading every number)."""
    found = index if index is not None and index.numbers is numbers else _Numbers(numbers)
    key = (q.value, q.high, q.unit, q.text, hedged(claim, q.start))
    if key in found.found:
        return found.found[key]
    got = _backing_in(claim, q, found, key[4])
    found.found[key] = got
    return got


def _backing_in(claim: str, q: Quantity, found: _Numbers, hedge: bool) -> Quantity | None:
    numbers = found.numbers
    unit = q.unit
    # a claim's unit, when the quotes use that unit, is matched among those: "8 times
    # faster" is not backed by "4 times faster ... slice by 8"
    by_unit = bool(unit) and unit in found.units
    if unit:
        # the same figure with a unit that may name it ("£16.95" after "£25.60 a week ... and"): a rate
        # given once for several figures
        n = found.first(q.value, lambda u: bool(u) and u != unit and same_unit(unit, u))
        if n is not None:
            return n
    n = found.first(q.value, (lambda u: u == unit) if by_unit else (lambda u: same_unit(unit, u)))
    if n is not None:
        return n
    if unit is not None:
        for n in numbers:
            # the same figure in another unit is another quantity (-40 °F is not -40 °C, though they
            # are the same temperature): the writer changed the unit, not the figure
            if n.unit is not None and n.unit != unit and converts(q, n) and not (n.value == q.value and n.unit):
                return n
    if q.value is not None and q.value.is_finite() and (unit == "m" or (unit is None and "m" in found.units)):
        # "40m passengers" may be forty million, not forty metres
        if unit == "m":
            n = found.first(q.value * 10**6, lambda u: u is None) \
                if q.text[-1:] == "m" and q.text[-2:-1].isdigit() else None
        else:
            n = found.first(q.value / 10**6, lambda u: u == "m")
            if n is not None and not (n.text[-1:] == "m" and n.text[-2:-1].isdigit() and n.value is not None
                                      and q.value == n.value * 10**6):
                n = None
        if n is not None:
            return n
    pool = [n for n in numbers if n.unit == unit] if by_unit else numbers
    if hedge or in_words(q):  # a fraction word is a round figure: "half" for 48 %
        for n in pool:
            if hedged_rounding(q, n):
                return n
    if unit == "%" and q.value is not None:
        for n in found.worded:
            if (not by_unit or n.unit == unit) and n.value is not None and rounds_to(n.value, q.value):
                return n  # "33 %" for "a third"
    return None


_A_LIMIT = re.compile(r"up\s+to|maximum|minimum|limit|cap", re.IGNORECASE)


_EVERY_BEFORE = re.compile(r"(?<![\w-])(?:every|each)\s+$", re.IGNORECASE)


def _every(claim: str, q: Quantity, quantities: tuple[Quantity, ...]) -> bool:
    """Whether `every seven days` in the claim is a quote's `once a week`:
    once in each span of that length, the same frequency."""
    if q.unit is None or q.value is None or not q.value or _EVERY_BEFORE.search(claim, max(0, q.start - 8), q.start) is None:
        return False
    for f in quantities:
        if f.unit is not None and f.unit.startswith("times/") and f.value is not None:
            span = amount_in(q, f.unit.partition("/")[2])
            if span is not None and f.value * span == 1:
                return True
    return False


def _named_version(q: Quantity, quantities: tuple[Quantity, ...]) -> bool:
    """Whether a claim's bare number with a dot (`kernels older than 3.19`)
    is the release a quote names (`Before Linux 3.19`): the same parts, read
    as a release's (`3.10` is not `3.1`). A number with a unit is an amount."""
    if q.unit is not None or "." not in q.text or "," in q.text:
        return False
    parts = tuple(int(p) for p in q.text.split(".") if p.isdigit())
    return len(parts) == q.text.count(".") + 1 and any(
        x.kind == "identifier" and x.ident == parts for x in quantities)


# a negation of the clause before a bound: "cannot keep it for longer than 200 µs" is at most 200 µs, where
# "users who do not log in for more than 90 days" is a long absence: which way it turns the bound is not read
_NEGATION_BEFORE = re.compile(r"(?<![\w-])(?:not|never|cannot|no)(?![\w-])|n't(?![\w-])", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;:!?]\s|,\s+(?:and|but|or|which|while|whereas)\s", re.IGNORECASE)


def _denied_before(text: str, at: int) -> bool:
    """Whether the clause holding text[at] denies something before `at` (a
    negation other than the bound's own `no more than`): then an amount on
    either side of the bound may be what the claim says, and only the same
    amount backs it."""
    start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, at)), default=0)
    return _NEGATION_BEFORE.search(text, start, at) is not None


def _bound_backing(claim: str, q: Quantity, amounts: tuple[tuple[Quantity, str | None], ...]) -> Quantity | None:
    """The quotes' amount that meets the claim's bound on its number (`over
    8,000 m`, `fewer than 10 members`, `50 or more`): an amount of the same
    thing within the bound (_amounts), in the same unit, or, without one,
    with the same word after it (`8 members`), or both years; None when
    the claim bounds nothing or no amount meets it."""
    if q.value is None or not amounts:
        return None
    found = _bound_at(claim, q.start, q.end)
    if found is None or _denied_before(claim, min(found.start(), q.start)):
        return None
    up = found.group("up") is not None
    year = _calendar_year(q)
    noun = None if q.unit or year else _counted(claim, q, found)
    # a limit ("up to 400", "a maximum of 400") names the amount it allows: an amount under it is not that limit
    limit = _A_LIMIT.search(found.group(0)) is not None
    for n, word in amounts:
        assert n.value is not None
        if q.unit is not None and n.unit is not None and n.unit != q.unit:
            # in another unit of the same dimension: "over two minutes" against "2 minutes and 10 seconds"
            if limit:
                if converts(q, n):
                    return n
            elif (amount := amount_in(n, q.unit)) is not None and (amount > q.value if up else amount < q.value):
                return n
            continue
        if (n.value != q.value) if limit else (n.value < q.value if up else n.value > q.value):
            continue
        if q.unit is not None:
            if n.unit == q.unit:
                return n
        elif year:
            if _calendar_year(n):
                return n
        elif n.unit is None and noun is not None and word == noun:
            return n
    return None


def _bound_within(claim: str, q: Quantity, bounds: tuple[Bounded, ...]) -> Quantity | None:
    """The quotes' bound on a whole count that allows the same counts as the
    claim's, written from the other side of its edge: `more than three
    steps` for `four or more steps`, `fewer than 10 people` for `no more than
    9 people`. Only the same counts: where a bound stands in a condition
    (`stairs with four or more steps must …`), a wider or a narrower one says
    something else. The same thing counted: the same word after the number."""
    if q.value is None or q.unit is not None:
        return None
    found = _bound_at(claim, q.start, q.end)
    if found is None:
        return None
    up = found.group("up") is not None
    mine = _whole_edge(q, up, _takes_in(found))
    if mine is None:
        return None
    noun = _counted(claim, q, found)
    return next((b.n for b in bounds if _same_edge(b, up, mine, noun)), None)


def _same_edge(b: Bounded, up: bool, edge: Decimal, noun: str | None) -> bool:
    """Whether a quote's bound on a whole count allows the counts a claim's
    bound does (the least or most count `edge`, `up` or down) of the same
    thing (`noun`): `more than 3 steps` and `4 or more steps`."""
    return b.up == up and b.n.unit is None and b.counted == noun and _whole_edge(b.n, up, b.inclusive) == edge


def _whole_edge(q: Quantity, up: bool, inclusive: bool) -> Decimal | None:
    """The least (`up`) or most count a bound on a whole count allows: `more
    than 3` is 4, `fewer than 10` is 9, `at least 4` is 4; None for an
    amount that need not be whole (one with a unit, or a fraction)."""
    if q.unit is not None or q.value is None or q.value != q.value.to_integral():
        return None
    return q.value if inclusive else q.value + 1 if up else q.value - 1


def _ident_shown(q: Quantity) -> str:
    """An identifier as a message names it: `version 3`, `section 5.1`, `GPLv3`."""
    return q.text if q.name not in _REFERENCE_WORDS.values() and q.name != "item" else f"{q.name} {q.text}"


def _date_backs(evidence: DateParts | None, claimed: DateParts | None) -> bool:
    """Evidence (y, m, d) backs a claimed date when it gives every part the
    claim gives, with the same value."""
    if evidence is None or claimed is None:
        return False
    for c, e in zip(claimed, evidence):
        if c is not None and c != e:
            return False
    return True
