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

For the word-overlap score, `restated` writes a claim's backed amounts as
its quotes write them, and `without_identifiers` takes out (or writes as
the quote does) the identifiers the cited source names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from ..support import SupportResult
from ..support.words import SCALES
from .quantities import (
    _NEXT_WORD,
    _REFERENCE_NAMES,
    _SPANS_OF_YEARS,
    DateParts,
    NumberMismatch,
    Quantity,
    _calendar_year,
    _date_text,
    _month,
    _share,
    extract,
)
from .scan import _MONTH_NAMES, _REFERENCE_WORDS, _SMALL, _UNITS, _WORD_BEFORE, _trie, sentence_starts_at
from .units import amount_in, converts, hedged, hedged_rounding, in_words, rounds_to, same_unit

__all__ = ["compare", "names_literals", "prepare", "restated", "restated_score", "without_identifiers"]


def _numbers_of(qs: Iterable[Quantity]) -> list[Quantity]:
    """The numbers evidence offers: numbers, range ends, and the year of each date."""
    out = []
    for q in qs:
        if q.kind == "number":
            out.append(q)
        elif q.kind == "ratio":
            # a quote's "one in five" offers 20 % and its two numbers
            out.append(Quantity("number", q.text, q.start, q.end, value=_share(q), unit="%"))
            out.append(Quantity("number", q.text, q.start, q.end, value=q.value))
            out.append(Quantity("number", q.text, q.start, q.end, value=q.high))
        elif q.kind == "range" and q.unit in _SPANS_OF_YEARS:
            # a quote's decade offers its first year, as a number: "the 1930s" says 1930, no other year
            out.append(Quantity("number", q.text, q.start, q.end, value=q.value))
        elif q.kind == "range":
            out.append(Quantity("number", q.text, q.start, q.end, value=q.value, unit=q.unit))
            out.append(Quantity("number", q.text, q.start, q.end, value=q.high, unit=q.unit))
        elif q.kind == "date" and q.date and q.date[0]:
            out.append(Quantity("number", str(q.date[0]), q.start, q.end, value=Decimal(q.date[0])))
        elif q.kind == "time" and q.value is not None:
            # a quote's "9:30 pm" still offers its hour as written ("at 9")
            hour = int(q.value) // 60
            out.append(Quantity("number", q.text, q.start, q.end, value=Decimal(hour % 12 or 12)))
        elif q.kind == "identifier" and q.ident and len(q.ident) == 1:
            # a quote's "Top 10", "slice-by-8" still offers its number
            out.append(Quantity("number", q.text, q.start, q.end, value=Decimal(q.ident[0])))
    return out


def _shown(q: Quantity) -> str:
    if q.kind == "date" and q.date and q.value is None:  # a part of a month is shown as written
        return _date_text(*q.date)
    return q.text


class _Offered(NamedTuple):
    """What quotes offer a claim's quantities, kept per tuple of quotes (a
    quote is checked again on every edit of the claims citing it)."""

    quantities: tuple[Quantity, ...]
    numbers: list[Quantity]  # numbers, range ends, years of dates
    dates: list[Quantity]
    months: list[Quantity]  # month names standing alone
    ranges: list[Quantity]
    said_numbers: str  # what the quotes say instead, as a message shows it
    said_dates: str
    amounts: tuple[tuple[Quantity, str | None], ...]  # numbers stated plainly, no bound, with the word after
    bounds: tuple[Bounded, ...]  # numbers under a bound (_amounts)


@lru_cache(maxsize=8192)
def _offered(quotes: tuple[str, ...]) -> _Offered:
    qq = tuple(q for quote in quotes for q in extract(quote))
    scales = [n for quote in quotes
              for n in (*_scale_words(quote), *_how_often_in_words(quote), *_counts_in_compounds(quote))]

    def said(kinds: tuple[str, ...]) -> str:
        seen: dict[str, None] = {}
        for q in (*qq, *scales) if "number" in kinds else qq:
            if q.kind in kinds:
                seen.setdefault(_shown(q), None)
        if not seen:
            return "no date" if kinds == ("date",) else "no number"
        shown = list(seen)
        return ", ".join(shown[:6]) + (" …" if len(shown) > 6 else "")

    return _Offered(qq, _numbers_of(qq) + scales, [q for q in qq if q.kind == "date"],
                    [m for quote in quotes for m in _bare_months(quote)], [q for q in qq if q.kind == "range"],
                    said(("number", "range", "ratio", "time")), said(("date",)), *_amounts(quotes))


# "a hundred turbines": a scale word after "a" is one of it. Evidence only: a claim's "a thousand reasons" is
# no amount it states (quantities.extract reads neither), but a quote's "a hundred" backs a claim's "100"
_A_SCALE = re.compile(r"(?<![\w-])an?\s+(hundred|thousand|million|billion)(?![\w-])(?!\s+(?:and|of)\b)",
                      re.IGNORECASE)


def _scale_words(quote: str) -> list[Quantity]:
    if "hundred" not in quote and "thousand" not in quote and "illion" not in quote:
        return []
    return [Quantity("number", m.group(0), m.start(), m.end(), value=Decimal(10 ** SCALES[m.group(1).lower()]))
            for m in _A_SCALE.finditer(unicodedata.normalize("NFKC", quote))]


# "a two-digit number", "a pair of devices": a count in a compound or a pair. Evidence only: a claim's
# "two-way channel" or "a pair of them" states no count that needs backing ("two-way" is no number of
# ways), but a quote's "two-digit" backs a claim's "2-digit", and its "a pair of devices" a claim's "two"
_COMPOUND_COUNT = re.compile(r"(?<![\w-])(?:(?P<word>" + "|".join(_SMALL) + r")-(?P<tail>[^\W\d_]+)"
                             r"|(?:an?|one)\s+(?P<pair>pair)\s+of)(?![\w-])", re.IGNORECASE)


def _counts_in_compounds(quote: str) -> list[Quantity]:
    if "-" not in quote and "pair" not in quote:
        return []
    out = []
    for m in _COMPOUND_COUNT.finditer(unicodedata.normalize("NFKC", quote)):
        if m.group("tail") and m.group("tail").lower() in _UNITS:
            continue  # "a seven-month journey": an amount in its unit, which the scanner reads
        value = 2 if m.group("pair") else _SMALL.index(m.group("word").lower())
        out.append(Quantity("number", m.group(0), m.start(), m.end(), value=Decimal(value)))
    return out


# "monthly", "every week": once in each such span of time. Evidence only, as "a hundred" is: a claim's
# "paid monthly" states no amount that needs backing, but a quote's "monthly" backs a claim's "once a month"
# (and "fortnightly" its "every two weeks")
_EVERY = re.compile(r"(?<![\w-])(?:(?P<ly>hour|dai|week|month|year|annual|fortnight)ly|(?:every|each)\s+"
                    r"(?P<span>hour|day|week|month|year|fortnight))(?![\w-])", re.IGNORECASE)
_SPANS = {"hour": "hour", "dai": "day", "day": "day", "week": "week", "month": "month", "year": "year",
          "annual": "year"}


def _how_often_in_words(quote: str) -> list[Quantity]:
    if "ly" not in quote and "ever" not in quote and "ach" not in quote:
        return []
    out = []
    for m in _EVERY.finditer(quote):
        span = (m.group("ly") or m.group("span")).lower()
        if span == "fortnight":
            out.append(Quantity("number", m.group(0), m.start(), m.end(), value=Decimal(2), unit="week"))
        else:
            out.append(Quantity("number", m.group(0), m.start(), m.end(), value=Decimal(1),
                                unit=f"times/{_SPANS[span]}"))
    return out


class Bounded(NamedTuple):
    """A quote's number under a bound (`at least 3`, `10 or more`)."""

    n: Quantity
    up: bool  # the bound is a least amount
    inclusive: bool  # it takes its number in
    counted: str | None  # the word of the thing counted
    written: str  # the bound and its number as the quote writes them


_ONE = re.compile(r"(?<![\w-])one(?![\w-])", re.IGNORECASE)


def _amounts(quotes: tuple[str, ...]) -> tuple[tuple[tuple[Quantity, str | None], ...], tuple[Bounded, ...]]:
    """The quotes' numbers stated plainly, each with the word after it: not
    under a bound of their own (`up to 4 times`, `prior to 30 days`, `50% or
    more` say where a range ends, not an amount), not a figure in parentheses
    restating the amount before it (`fifty percent (50%)`). And those under a
    bound, each with its direction (up), whether the bound takes its number
    in, and the word of the thing counted."""
    plain, bounded = [], []
    for quote in quotes:
        text = unicodedata.normalize("NFKC", quote)
        qs = [q for q in extract(quote) if q.kind == "number" and q.value is not None]
        if "one" in text:
            # "more than one RTC": under a bound, "one" counts (a claim's "two or more RTCs" is that)
            qs = sorted(qs + [Quantity("number", m.group(0), m.start(), m.end(), value=Decimal(1))
                              for m in _ONE.finditer(text) if not any(q.start <= m.start() < q.end for q in qs)
                              and _bound_at(text, m.start(), m.end()) is not None],
                        key=lambda q: q.start)
        for n in qs:
            found = _bound_at(text, n.start, n.end)
            if found is not None:
                lo, hi = min(found.start(), n.start), max(found.end(), n.end)
                bounded.append(Bounded(n, found.group("up") is not None, _takes_in(found), _counted(text, n, found),
                                       text[lo:hi].strip()))
                continue
            if text[n.start - 1:n.start] == "(" and any(m is not n and n.start - 3 <= m.end < n.start for m in qs):
                continue
            plain.append((n, _noun_after(text, n.end)))
    return tuple(plain), tuple(bounded)


_RELEASE_NAMES = frozenset({"version", "release"})
_GENERIC_NAMES = _REFERENCE_NAMES | {"item"}


def compare(claim: str, quotes: list[str], context: Sequence[str] = (), titles: Sequence[str] = ()) -> list[NumberMismatch]:
    """The claim's quantities, dates and identifiers that its quotes do not
    back. `context` holds the cited chunks' text and `titles` their sources'
    titles, against which identifiers are checked."""
    cq = extract(claim)
    if not cq:
        return _one_counted(claim, quotes) + _literals_unnamed(claim, quotes, context, titles)
    named = (*context, *titles)
    offered = _offered(tuple(quotes))
    numbers = offered.numbers
    index = _Numbers(numbers)
    dates = offered.dates
    if any(q.kind == "date" for q in cq):
        dates = dates + offered.months
    ranges = offered.ranges
    out: list[NumberMismatch] = []
    for q in cq:
        if q.kind == "number":
            if _backing(claim, q, numbers, index) is None and _bound_backing(claim, q, offered.amounts) is None \
                    and _change_backing(claim, q, numbers) is None and _span_of(q, offered.ranges) is None \
                    and _bound_within(claim, q, offered.bounds) is None and _years_within(claim, q, ranges) is None \
                    and not _named_version(q, offered.quantities) and not _every(claim, q, offered.quantities):
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
            if (days or on) and not any(n.value == q.value for n in days) and q.value not in on:
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
    return out + _one_counted(claim, quotes) + _literals_unnamed(claim, quotes, context, titles)


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


# a command-line option as documentation writes it (`-r`, `--norc`, `-maxdepth`, `--preserve-xattr`): one or
# two hyphens and a letter, at the start of a word (after white space, an opening bracket or a quotation mark)
# (the hyphen first, and what may stand before it looked behind from there: the pattern engine then skips
# straight from one hyphen to the next)
_OPTION = re.compile(r"-(?<![^\s(\[\"'`]-)-?[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
# a file's path (`/etc/passwd`, `~/.bashrc`, `./configure`) or name with an extension (`README.md`,
# `debian-archive-keyring.gpg`), at the start of a word: not `and/or`, `km/h`, `e.g.` or `U.S.`
_FILE = re.compile(r"(?<![\w/.~-])(?:(?:~|\.{1,2})?/[\w.+-]+(?:/[\w.+-]+)*|[\w-]{2,}(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,4}\b(?![\w/-]))")


# the test before _FILE (a slow pattern to try at every word): a full stop between word characters
_DOTTED = re.compile(r"[\w-]\.[a-z]")


def _may_name_file(text: str) -> bool:
    """False when `text` surely names no file: no slash, and no full stop but at its very end."""
    return "/" in text or (0 <= text.find(".") < len(text) - 1 and _DOTTED.search(text) is not None)


@lru_cache(maxsize=4096)
def _literals_of(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The options and the files a text names, each once, in order (a sentence's full stop left off)."""
    options = tuple(dict.fromkeys(_OPTION.findall(text))) if "-" in text else ()
    files = tuple(dict.fromkeys(f.rstrip(".") for f in _FILE.findall(text))) if _may_name_file(text) else ()
    return options, tuple(f for f in files if f and f not in ("/", "~/", "./"))


def names_literals(text: str) -> bool:
    """Whether `text` names a command-line option or a file, which are checked
    against the cited chunks and their sources' titles as identifiers are."""
    options, files = _literals_of(text)
    return bool(options or files)


def _literals_unnamed(claim: str, quotes: Sequence[str], context: Sequence[str],
                      titles: Sequence[str] = ()) -> list[NumberMismatch]:
    """The claim's command-line options and files that the cited text does not name where it names
    others of the kind: an option or a file is an identifier, so `grep -R` is not backed by a chunk
    that documents `-r, --recursive`, nor `--noprofile` by a quote about `--norc`, nor
    `/usr/share/keyrings/debian-archive-keyring.gpg` by a chunk about `debian-archive-removed-keys.gpg`.
    Options are told apart by case, as programs read them; a file is the cited text's when the text
    holds it as written (`passwd.5` in `/usr/share/man/man5/passwd.5`). A cited text that names no
    option (no file) leaves the claim's alone: its name may be a heading of its own, outside the chunk.
    The sources' `titles` hold the claim's too (the README of `invoke-rc.d` on `policy-rc.d`), but
    what they name is not what the cited text names."""
    options, files = _literals_of(claim)
    if not options and not files:
        return []
    texts = (*quotes, *context)
    holding = (*texts, *titles)
    out: list[NumberMismatch] = []
    for kind, mine in enumerate((options, files)):  # (0: options, 1: files, as _literals_of gives them)
        if not mine:
            continue
        theirs = dict.fromkeys(x for text in texts for x in _literals_of(text)[kind])
        if not theirs:
            continue
        shown = ", ".join(list(theirs)[:4])
        held = dict.fromkeys(x for text in titles for x in _literals_of(text)[kind]) if titles else {}
        out += [NumberMismatch(x, shown, "identifier", where="source") for x in mine
                if (x not in theirs and x not in held if kind == 0 else not any(x in text for text in holding))]
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


class _Numbers:
    """The quotes' numbers (_numbers_of) kept for lookup by value and unit, so
    that a claim of many numbers is checked against quotes of many numbers in
    time proportional to the two, not their product (`_backing`)."""

    def __init__(self, numbers: list[Quantity]) -> None:
        self.numbers = numbers
        # for each finite value, the first number of each unit that has it (its place, the number)
        self.firsts: dict[Decimal, dict[str | None, tuple[int, Quantity]]] = {}
        self.units: set[str] = set()
        self.worded: list[Quantity] = []  # shares written in words ("a third")
        self.found: dict[tuple[Decimal | None, Decimal | None, str | None, str, bool], Quantity | None] = {}
        for i, n in enumerate(numbers):
            if n.value is not None and n.value.is_finite():
                self.firsts.setdefault(n.value, {}).setdefault(n.unit, (i, n))
            if n.unit is not None:
                self.units.add(n.unit)
            if in_words(n):
                self.worded.append(n)

    def first(self, value: Decimal | None, keep: Callable[[str | None], bool]) -> Quantity | None:
        """The first number equal to `value` whose unit `keep` accepts."""
        if value is None or not value.is_finite():
            return next((n for n in self.numbers if n.value == value and keep(n.unit)), None)
        got = [(i, n) for unit, (i, n) in self.firsts.get(value, {}).items() if keep(unit)]
        return min(got, key=lambda x: x[0])[1] if got else None


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


def restated(claim: str, quotes: Sequence[str]) -> str:
    """The claim (NFKC) with each of its numbers that a quote states in
    another form written as the quote writes it: `1.2 km` as `1,200 metres`,
    `a dozen` as `12`, `an hour and a half` as `90 minutes`, `the 1990s` as
    the year of them the quote gives, `15 years` as `1985 to 2000`. For the
    word-overlap score, which compares words: an amount the quantity rule
    reads as the quote's is the quote's, found, not missing. The claim's text
    as it is when no number of it is restated."""
    cq = [q for q in extract(claim) if q.kind in ("number", "time") or (q.kind == "range" and q.unit in _SPANS_OF_YEARS)
          or (q.kind == "date" and q.value is not None)]
    if not cq or not quotes:
        return claim
    offered = _offered(tuple(quotes))
    numbers = offered.numbers
    index = _Numbers(numbers)
    text = unicodedata.normalize("NFKC", claim)
    out: list[str] = []
    last = 0
    for q in cq:
        written: str | None = None
        if q.kind == "number" and offered.bounds and (same := _same_bound(text, q, offered.bounds)) is not None:
            # "no fewer than three" for "at least 3": the bound as the quote writes it, words and number
            lo, hi, written = same
            if lo >= last and written != text[lo:hi]:
                out += [text[last:lo], written]
                last = hi
            continue
        if q.kind == "range":  # "the 1990s" for the year in it that the quote gives
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


# a bound before a claim's number ("over 8,000 m", "fewer than 10 members", "before 9 am"), and after it
# ("50 or more"): the claim says the amount lies beyond the number, which a quote's larger (or smaller)
# amount of the same thing backs
_BOUND_BEFORE = re.compile(
    r"""(?:(?P<up>(?:more|greater|higher|longer|larger|bigger|older|later)\s+than|over|above|exceeding|exceeds
            |exceeded|beyond|after|at\s+least|no\s+(?:less|fewer|earlier|sooner)\s+than
            |not\s+(?:less|fewer|earlier|sooner)\s+than|(?:a\s+)?minimum\s+of
            |minimum\s+(?:[^\W\d_]+\s+){0,6}?(?:is|are|was|were))
        |(?P<down>(?:less|fewer|lower|shorter|smaller|younger|earlier)\s+than|under|below|before|prior\s+to|until
            |within|up\s+to|at\s+most|no\s+(?:more|later)\s+than|not\s+(?:more|later)\s+than|not\s+exceeding
            |(?:a\s+)?maximum\s+of|limited\s+to|capped\s+at
            |(?:maximum|limit|cap)\s+(?:[^\W\d_]+\s+){0,6}?(?:is|are|was|were)))
       \s+(?:about\s+|approximately\s+|around\s+|roughly\s+|some\s+)?$""",
    re.IGNORECASE | re.VERBOSE)
_BOUND_AFTER = re.compile(
    r"(?:\s*\([^()]{1,24}\))?[)\]\"'\u201d]*\s+(?:or|and)\s+(?:(?P<up>more|over|above|greater|higher|longer|later|larger)|(?P<down>less|fewer|under|below"
    r"|lower|shorter|earlier|smaller))\b", re.IGNORECASE)


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


# the bounds that take their number in (`at least 4`, `4 or more`, `up to 4`); the rest leave it out (`more than 3`)
_INCLUSIVE = re.compile(r"least|no\s|not\s|minimum|maximum|limit|cap|up\s+to|most|^[^a-z]*\s+(?:or|and)\s",
                        re.IGNORECASE)


def _takes_in(found: re.Match[str]) -> bool:
    """Whether a bound (_bound_at) takes its number in: `at least 4` does, `more than 3` does not."""
    return _INCLUSIVE.search(found.group(0)) is not None


def _counted(text: str, n: Quantity, found: re.Match[str]) -> str | None:
    """The word of the thing a bounded number counts: after the number, or after the bound when the bound
    follows it ("50 or more people")."""
    return _noun_after(text, found.end() if found.start() >= n.end else n.end)


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


def _whole_edge(q: Quantity, up: bool, inclusive: bool) -> Decimal | None:
    """The least (`up`) or most count a bound on a whole count allows: `more
    than 3` is 4, `fewer than 10` is 9, `at least 4` is 4; None for an
    amount that need not be whole (one with a unit, or a fraction)."""
    if q.unit is not None or q.value is None or q.value != q.value.to_integral():
        return None
    return q.value if inclusive else q.value + 1 if up else q.value - 1


# the last word of every _BOUND_BEFORE phrase, and of the words it lets stand between a bound and its number
_BOUND_LAST = frozenset("""than over above exceeding exceeds exceeded beyond after least of under below before to
    until within most about approximately around roughly some is are was were at""".split())


def _bound_at(text: str, start: int, end: int) -> re.Match[str] | None:
    """The bound the number text[start:end] stands under: a phrase before it
    (`over`, `fewer than`) or after it (`or more`); None when it has none."""
    # (60 characters: "the maximum weight for a depot locker bag is 23 kg" names its bound six words before)
    if _may_bound(text, start) and (before := _BOUND_BEFORE.search(text, max(0, start - 60), start)) is not None:
        return before
    return _BOUND_AFTER.match(text, end)


def _may_bound(text: str, start: int) -> bool:
    """A cheap test before _BOUND_BEFORE's search: the word before `start` can end a bound (and after a
    copula or `at`, a word of a limit stands before it: "the maximum weight is", "capped at")."""
    window = text[max(0, start - 60):start]
    head = window[-20:].split()
    if not head or (last := head[-1].lower()) not in _BOUND_LAST:
        return False
    if last in _COPULA_OR_AT:
        lowered = window.lower()
        return "maximum" in lowered or "minimum" in lowered or "limit" in lowered or "cap" in lowered
    return True


_COPULA_OR_AT = frozenset("is are was were at".split())


def _noun_after(text: str, end: int) -> str | None:
    """The word right after a number, lower case and without a plural -s (`members` -> `member`)."""
    m = _NEXT_WORD.match(text, end)
    if m is None:
        return None
    w = m.group(1).lower()
    return w[:-1] if w.endswith("s") and len(w) > 3 else w


def _ident_shown(q: Quantity) -> str:
    """An identifier as a message names it: `version 3`, `section 5.1`, `GPLv3`."""
    return q.text if q.name not in _REFERENCE_WORDS.values() and q.name != "item" else f"{q.name} {q.text}"


_BARE_MONTH = re.compile(rf"(?<![^\W\d_])(?:{_trie(_MONTH_NAMES)})(?![^\W\d_])")


@lru_cache(maxsize=4096)
def _bare_months(quote: str) -> tuple[Quantity, ...]:
    """A quote's month names standing alone ("in May", "through October"): the
    month part of a date, which backs a claimed date's month (its year must
    still be in the quotes). Evidence only: a claim's bare month is not a date
    it must back. `May` counts only inside a sentence (a sentence may open with
    the verb)."""
    out = []
    for m in _BARE_MONTH.finditer(quote):
        name = m.group(0)
        if name == "May" and sentence_starts_at(quote, m.start()):
            continue
        out.append(Quantity("date", name, m.start(), m.end(), date=(None, _month(name), None)))
    return tuple(out)


def _date_holds(evidence: Quantity, claimed: Quantity) -> bool:
    """Whether a quote's date backs a claimed date (`_date_backs`); a part of
    a month (`early March 2022`, its days as value to high) by a day of the
    month in that part."""
    if not _date_backs(evidence.date, claimed.date):
        return False
    day = evidence.date[2] if evidence.date else None
    return claimed.value is None or claimed.high is None or (day is not None and claimed.value <= day <= claimed.high)


def _date_backs(evidence: DateParts | None, claimed: DateParts | None) -> bool:
    """Evidence (y, m, d) backs a claimed date when it gives every part the
    claim gives, with the same value."""
    if evidence is None or claimed is None:
        return False
    for c, e in zip(claimed, evidence):
        if c is not None and c != e:
            return False
    return True


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


def prepare(quote: str) -> None:
    """Read a quote's quantities, bare months and plain amounts once, when
    first met (answers do not change)."""
    extract(quote)
    _bare_months(quote)
    _offered((quote,))

