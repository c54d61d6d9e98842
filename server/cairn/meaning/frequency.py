"""How often, as English writes it (SPEC section 4, `number-mismatch`): `every
six months`, `every year`, `each week`, `every other day`, `three times a
year`, `twice a week`, `once every two weeks`, `daily`, `weekly`, `annually`,
`fortnightly`. Each is read as one rate: the time between two occasions, in
days (`every 6 months` and `twice a year` are the same rate, `weekly`, `once a
week` and `every week` another). A month is 28 to 31 days and a year 365 or 366,
so a frequency is a span of days, and two agree when their spans meet
(`every 4 weeks` is `monthly`; `every year` is not `every six months`).

A claim's frequency is compared with its quotes' where both state one for the
same thing: a word of the claim near its frequency (the thing done, `inspect`,
`meet`) is near the quote's too. A bound or a hedge before a frequency (`at
least once a year`, `about every 3 months`) leaves it to other rules, as does
a negation (`not every year`). As an adjective before a noun, `daily` or
`monthly` may measure an amount per day or month (`a daily dose`, `a monthly
fee`): only the adverb (`paid monthly`, `on a weekly basis`) says how often.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from ..support.words import STOPWORDS
from .quantities import NumberMismatch, extract
from .scan import NUMBER_WORDS

__all__ = ["Frequency", "agreeing", "frequencies", "frequency_mismatches"]


class Frequency(NamedTuple):
    text: str  # as written
    start: int
    end: int
    low: Fraction  # the time between two occasions, in days: its least
    high: Fraction  # and its most (a month is 28 to 31 days)


# a period's length in days, least and most
_DAYS: dict[str, tuple[Fraction, Fraction]] = {
    "second": (Fraction(1) / 86400, Fraction(1) / 86400), "minute": (Fraction(1) / 1440, Fraction(1) / 1440),
    "hour": (Fraction(1) / 24, Fraction(1) / 24), "day": (Fraction(1), Fraction(1)), "night": (Fraction(1), Fraction(1)),
    "week": (Fraction(7), Fraction(7)), "fortnight": (Fraction(14), Fraction(14)),
    "month": (Fraction(28), Fraction(31)), "quarter": (Fraction(89), Fraction(92)),
    "year": (Fraction(365), Fraction(366)), "decade": (Fraction(3652), Fraction(3653)),
}
# the adverbs of how often: the period between two occasions, and how many periods
_ADVERBS = {"hourly": ("hour", 1), "daily": ("day", 1), "nightly": ("night", 1), "weekly": ("week", 1),
            "fortnightly": ("week", 2), "monthly": ("month", 1), "quarterly": ("month", 3),
            "yearly": ("year", 1), "annually": ("year", 1), "semi-annually": ("month", 6),
            "semiannually": ("month", 6), "half-yearly": ("month", 6), "biennially": ("year", 2)}
_ORDINAL_STEP = {"other": 2, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6}
_TIMES_WORDS = {"once": 1, "twice": 2, "thrice": 3}

_PERIODS = "second|minute|hour|day|night|week|fortnight|month|quarter|year|decade"
_PERIOD = rf"(?P<p>{_PERIODS})s?"
_COUNT = r"\d+(?:\.\d+)?|half|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_EVERY = (rf"(?:every|each)\s+(?:(?P<o>other|second|third|fourth|fifth|sixth)\s+(?=(?:{_PERIODS}))"
          rf"|(?P<n>{_COUNT})(?:\s*(?:-|\u2013|to|or)\s*(?P<n2>{_COUNT}))?(?:\s+|(?<=half)-))?{_PERIOD}")
# "once or twice a week", "2-3 times a day": the fewer times first
_TIMES = (rf"(?:(?P<tl>once|twice|thrice|{_COUNT})(?:\s*(?:-|\u2013)\s*|\s+(?:or|to)\s+))?"
          rf"(?:(?P<t>once|twice|thrice)|(?P<tn>{_COUNT})\s+times)")
_FREQUENCY = re.compile(
    rf"""(?<![\w-])(?:
        {_TIMES}\s+(?:(?:a|an|per)\s+(?P<tp>{_PERIODS})(?![\w-])
                      |{_EVERY.replace('(?P<', '(?P<e')}
                      |(?P<tly>{"|".join(_ADVERBS)}))
      | {_EVERY}
      | (?P<ly>{"|".join(_ADVERBS)})
    )(?![\w-])""",
    re.IGNORECASE | re.VERBOSE)
# before a frequency: a bound, a hedge or a negation (`at least once a year`, `about every 3 months`,
# `not every year`), or `for each year`, a share per period (`a day of leave for each year worked`)
_QUALIFIED = re.compile(
    r"(?<![\w-])(?:at\s+(?:least|most)|up\s+to|no\s+(?:more|less|fewer)\s+than|not\s+(?:more|less)\s+than|"
    r"more\s+than|less\s+than|fewer\s+than|(?:a\s+)?(?:maximum|minimum)\s+of|about|around|roughly|"
    r"approximately|nearly|almost|some|up\s+to|not|never|for|per|by)\s+$", re.IGNORECASE)
# after an adverb: what shows it is one (a pause or an end, a preposition or a conjunction, `basis`)
_ADVERB_AFTER = re.compile(
    r"\s*(?:$|[.,;:!?)\]\u2014\u2013-]|(?:by|in|on|at|for|from|to|with|and|or|but|until|since|during|throughout|"
    r"thereafter|after|before|basis|if|when|unless|as|so|is|are|was|were|the|a|an)(?![\w-]))", re.IGNORECASE)


# the units of an amount a frequency after it makes a rate ("$185 every month", "3% annually")
_PER_PERIOD = frozenset({"USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "INR", "CNY", "%"})
_AND_A_HALF = re.compile(r"\s+and\s+a\s+half(?![\w-])", re.IGNORECASE)


def _count(word: str | None) -> Fraction | None:
    if word is None:
        return None
    w = word.lower()
    if w == "half":
        return Fraction(1, 2)
    if w in NUMBER_WORDS:
        return Fraction(NUMBER_WORDS[w])
    try:
        return Fraction(w)
    except ValueError:
        return None


def _span(period: str, n: Fraction, n2: Fraction | None, times: Fraction) -> tuple[Fraction, Fraction]:
    lo, hi = _DAYS[period.lower()]
    return lo * n / times, hi * (n2 if n2 is not None else n) / times


@lru_cache(maxsize=8192)
def frequencies(text: str) -> tuple[Frequency, ...]:
    """Every frequency `text` states plainly (no bound, hedge or negation before it), in order."""
    text = unicodedata.normalize("NFKC", text)
    out = []
    amounts: tuple[int, ...] | None = None
    for m in _FREQUENCY.finditer(text):
        if _QUALIFIED.search(text, max(0, m.start() - 24), m.start()) is not None:
            continue
        if amounts is None:
            amounts = tuple(x for q in extract(text) if (q.unit or "").partition("/")[0] in _PER_PERIOD
                            for x in (q.start, q.end))
        if any(s < m.start() <= e + 2 for s, e in zip(amounts[::2], amounts[1::2])):
            continue  # "$185 every month", "grows 3% annually": how much a period, the amount's rate
        span = _read(m)
        if span is None:
            continue
        word = m.group("ly") or m.group("tly")
        if word and m.group("ly") and _ADVERB_AFTER.match(text, m.end()) is None:
            continue  # "a daily dose", "a monthly fee": an amount per period, not how often
        if text[m.end():m.end() + 2] in ("'s", "\u2019s") or re.match(r"\s+of(?![\w-])", text[m.end():]):
            continue  # "each year's budget", "each day of the trip": the periods of something, not how often
        end = m.end()
        if (half := _AND_A_HALF.match(text, end)) is not None and not (m.group("n") or m.group("en")):
            # "every hour and a half": one period and a half
            end, span = half.end(), (span[0] * 3 / 2, span[1] * 3 / 2)
        elif half is not None:
            continue  # "every two hours and a half" is left unread
        out.append(Frequency(text[m.start():end], m.start(), end, *span))
    return tuple(out)


def _read(m: re.Match[str]) -> tuple[Fraction, Fraction] | None:
    """The span of days between two occasions of a frequency's match."""
    g = m.groupdict()
    if g["t"] or g["tn"]:
        times = _times(g["t"] or g["tn"])
        if times is None or times <= 0:
            return None
        if g["tl"]:
            fewer = _times(g["tl"])
            if fewer is None or not 0 < fewer < times:
                return None
            span = _read_times(g, times)
            return None if span is None else (span[0], span[1] * times / fewer)
        return _read_times(g, times)
    if g["ly"]:
        period, n = _ADVERBS[g["ly"].lower()]
        return _span(period, Fraction(n), None, Fraction(1))
    return _every(g["o"], g["n"], g["n2"], g["p"], Fraction(1))


def _times(word: str) -> Fraction | None:
    return Fraction(_TIMES_WORDS[word.lower()]) if word.lower() in _TIMES_WORDS else _count(word)


def _read_times(g: dict[str, str | None], times: Fraction) -> tuple[Fraction, Fraction] | None:
    """The span of days of `times` a period (`twice a week`, `3 times every two years`)."""
    if g["tp"]:
        return _span(g["tp"], Fraction(1), None, times)
    if g["tly"]:
        period, n = _ADVERBS[g["tly"].lower()]
        return _span(period, Fraction(n), None, times)
    assert g["ep"] is not None
    return _every(g["eo"], g["en"], g["en2"], g["ep"], times)


def _every(ordinal: str | None, n: str | None, n2: str | None, period: str, times: Fraction) -> tuple[Fraction, Fraction] | None:
    if ordinal:
        return _span(period, Fraction(_ORDINAL_STEP[ordinal.lower()]), None, times)
    first, last = (_count(n), _count(n2)) if n else (Fraction(1), None)
    if first is None or first <= 0 or (n2 is not None and (last is None or last < first)):
        return None
    return _span(period, first, last, times)


def _agree(a: Frequency, b: Frequency) -> bool:
    return a.low <= b.high and b.low <= a.high


_WORD = re.compile(r"[^\W\d_]{3,}")
_NEAR = 60  # characters each side of a frequency in which the thing it says how often of is named


def _near(text: str, f: Frequency) -> set[str]:
    """The stems (first four letters) of the content words near a frequency, within its sentence."""
    lo, hi = max(0, f.start - _NEAR), min(len(text), f.end + _NEAR)
    before, after = text[lo:f.start], text[f.end:hi]
    before = re.split(r"[.!?;]\s", before)[-1]
    after = re.split(r"[.!?;]\s", after)[0]
    return {w.lower()[:4] for w in _WORD.findall(before + " " + after)
            if w.lower() not in STOPWORDS and w.lower() not in _FREQUENCY_WORDS}


_FREQUENCY_WORDS = frozenset({*_DAYS, *(p + "s" for p in _DAYS), *_ADVERBS, "every", "each", "once", "twice",
                              "thrice", "times", "other", "half", *NUMBER_WORDS})


def agreeing(claim: str, quotes: Sequence[str]) -> list[tuple[int, int, str]]:
    """The claim's frequencies (their spans in the claim, NFKC) that a quote
    gives in other words, each with the quote's words (`twice a year` for
    `every six months`): for the word-overlap score (cairn.meaning.restating)."""
    out = []
    for f, same in _paired(claim, quotes):
        g = next((g for g in same if _agree(f, g)), None)
        if g is not None and g.text.casefold() != f.text.casefold():
            out.append((f.start, f.end, g.text))
    return out


def _paired(claim: str, quotes: Sequence[str]) -> list[tuple[Frequency, list[Frequency]]]:
    """Each frequency of the claim with its quotes' frequencies of the same thing (a stem near both)."""
    mine = frequencies(claim)
    if not mine:
        return []
    theirs = [(quote, f) for quote in quotes for f in frequencies(quote)]
    if not theirs:
        return []
    claim_n = unicodedata.normalize("NFKC", claim)
    out = []
    for f in mine:
        near = _near(claim_n, f)
        same = [g for quote, g in theirs if near & _near(unicodedata.normalize("NFKC", quote), g)]
        if same:
            out.append((f, same))
    return out


def frequency_mismatches(claim: str, quotes: Sequence[str]) -> tuple[list[NumberMismatch], list[tuple[int, int]]]:
    """The claim's frequencies that its quotes' frequencies for the same thing
    do not give, and the claim's spans whose frequency the quotes decided (a
    number inside them, `six` of `every six months`, is this rule's, not the
    number rule's)."""
    out, decided = [], []
    for f, same in _paired(claim, quotes):
        decided.append((f.start, f.end))
        if not any(_agree(f, g) for g in same):
            out.append(NumberMismatch(f.text, ", ".join(dict.fromkeys(g.text for g in same)), "number"))
    return out, decided
