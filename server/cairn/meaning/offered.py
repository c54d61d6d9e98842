"""What a claim's quotes offer its quantities, read once per tuple of quotes
and kept (a quote is checked again on every edit of the claims citing it), for
the comparison of cairn.meaning.backing: the quotes' quantities
(cairn.meaning.quantities); the numbers they give, with range ends, the years
of dates, the hour of a time and counts in words that no claim is held to (`a
hundred`, `two-digit`, `a pair of`, `monthly`), kept for lookup by value and
unit; their dates, and month names standing alone; and their amounts stated
plainly or under a bound (`at least 3`, `10 or more`), with the word of the
thing counted. The bound phrase at a number (`over`, `fewer than`, `or more`)
is read here, for a claim's numbers too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from ..support.words import SCALES
from .figures import _SPANS_OF_YEARS, _date_text, _month
from .phrases import _NEXT_WORD, _share
from .quantities import extract
from .quantity import Quantity
from .scan import _MONTH_NAMES, _SMALL, _UNITS, _trie, sentence_starts_at
from .units import EVERY_SPAN, in_words

__all__ = ["prepare"]


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


def _how_often_in_words(quote: str) -> list[Quantity]:
    if "ly" not in quote and "ever" not in quote and "ach" not in quote:
        return []
    out = []
    for m in _EVERY.finditer(quote):
        span = EVERY_SPAN[m.group(0).lower()] if m.group("ly") else m.group("span").lower()
        if span == "fortnight":
            out.append(Quantity("number", m.group(0), m.start(), m.end(), value=Decimal(2), unit="week"))
        else:
            out.append(Quantity("number", m.group(0), m.start(), m.end(), value=Decimal(1),
                                unit=f"times/{span}"))
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
    r"(?:\s*\([^()]{1,24}\))?[)\]\"'\u201d]*\s+(?:or|and)\s+(?:(?P<up>more|over|above|greater|higher|longer|later|larger|older)|(?P<down>less|fewer|under"
    r"|below|lower|shorter|earlier|smaller|younger))\b", re.IGNORECASE)


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


def prepare(quote: str) -> None:
    """Read a quote's quantities, bare months and plain amounts once, when
    first met (answers do not change)."""
    extract(quote)
    _bare_months(quote)
    _offered((quote,))
