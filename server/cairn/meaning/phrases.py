"""What the numbers cairn.meaning.figures reads say together, and what words
alone say of an amount, for the scan of cairn.meaning.quantities: two numbers
as a range (`10-12 weeks`, `between 0 and 4 °C`, `2018-19`) or a span of days
(`5 to 9 June`), two read as one number (`twenty five`, `twelve point five`,
`twelve euros fifty`, `2 hours 5 minutes`), a list that names its unit once
(`3 or 4 days`), a release bounded by `or newer`; and the amounts written in
words: shares (`half of`, `two-thirds`, in percent), ratios (`one in five`), a
whole and a half (`two and a half hours`), how often (`twice a day`), which
quarter or half (`the second quarter`), centuries in words, multiples
(`tripled`), days of the week and times of day (`9:30 pm`, `21:00`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal
from functools import partial

from ..support.words import ORDINALS
from .figures import _calendar_year, _date, _decimal, _ident, _period, _rate, _reference_before
from .quantity import Quantity
from .scan import (
    _BETWEEN_BEFORE,
    _LONE_LETTER_UNITS,
    _RANGE_JOIN,
    _SCALES,
    _UNITS,
    NUMBER_WORDS,
    TIME_UNITS,
    _trie,
)
from .units import BASE, SHARES


def _whole(text: str, found: tuple[Quantity, ...]) -> tuple[Quantity, ...]:
    """What the scanner's quantities `found` say read together with the words
    around them, and the amounts written in words alone: shares and ratios,
    a whole and a half, how often, which quarter or half, multiples, days of
    the week, times of day, and amounts in two units."""
    if _may_read_words(text) and _SHARE_HINT.search(text) is not None and (
            bare := [b for b in _bare_shares(text) if not any(q.start <= b.start < q.end for q in found)]):
        found = _instead(found, bare)  # "half of", not the "half" of "one half of" read already
    if " of a" in text and any(q.unit == "%" for q in found):
        found = tuple(_share_of_a_unit(text, q) for q in found)  # "three quarters of an hour": 0.75 hours
    if (" in " in text or " out of " in text) and (ratios := _ratios(text)):
        # "one in five": one quantity, a share, in place of the two numbers it is written with
        found = _instead(found, ratios)
    if ("and a half" in text or "and-a-half" in text or "half a" in text) and (halves := _and_a_half(text)):
        found = _instead(found, halves)
    if ("wice" in text or "hrice" in text or "once" in text or "Once" in text) and (often := _how_often(text)):
        found = _instead(found, often)
    if "entur" in text and (centuries := _centuries_in_words(text)):
        found = _instead(found, centuries)
    if ("quarter" in text or "half" in text) and (parts := _ordinal_parts(text)):
        found = _instead(found, parts)
    if ("oubl" in text or "ripl" in text or "uadrupl" in text or "alv" in text) and (
            factors := [Quantity("factor", m.group(0), m.start(), m.end(), value=_FACTORS[m.group(1).lower()[:4]])
                        for m in _FACTOR.finditer(text)]):
        found = _instead(found, factors)
    if "day" in text and (days := _weekdays(text)):
        found = _instead(found, days)
    if (":" in text or any(q.unit in ("am", "pm") for q in found) or "past " in text or "clock" in text
            or "quarter to" in text or "noon" in text or "midday" in text) and (times := [
            t for t in _clock_times(text) if not any(q.kind == "range" and q.start <= t.start and t.end <= q.end
                                                     for q in found)]):
        # not the end of a range read already ("between 6 and 7 pm"); a range that ends inside a time ("from
        # 00:30 to 07" of "from 00:30 to 07:30") is a misreading the times replace
        found = _instead(found, times)
    if ("p" in text or "enn" in text) and any(q.unit is None for q in found):
        found = tuple(_pence(text, q) for q in found)  # "30p", "30 pence": £0.30
    if "newer" in text and any(q.kind == "number" and "." in q.text for q in found):
        found = tuple(map(partial(_newer_release, text), found))
    if len(found) > 1:
        found = _compounds(text, found)
    if len(found) > 1 and (" or " in text or " and " in text or ", " in text):
        found = _listed_units(text, found)
    return found


# what parts the numbers of a list: a comma, "or", "and" ("0.01, 0.004, or 0.001 seconds")
_LIST_GAP = re.compile(r"\s*,\s*(?:(?:or|and)\s+)?|\s+(?:or|and)\s+", re.IGNORECASE)


def _listed_units(text: str, found: tuple[Quantity, ...]) -> tuple[Quantity, ...]:
    """A list of amounts that names its unit once, after its last number
    (`0.01, 0.004, or 0.001 seconds`, `3 or 4 days`, `10, 20 and 30 %`):
    each bare number of the list in that unit. Not a year before it (`in
    2019 and 5 days later`), nor a unit written before its number (`$10`)."""
    out = list(found)
    for i in range(len(out) - 1, 0, -1):
        last = out[i]
        if last.kind != "number" or last.unit is None or not last.text[:1].isdigit():
            continue
        j = i
        while j > 0:
            prev = out[j - 1]
            if prev.kind != "number" or prev.unit is not None or prev.value is None or not prev.text[:1].isdigit() \
                    or _LIST_GAP.fullmatch(text, prev.end, out[j].start) is None \
                    or (_calendar_year(prev) and "." not in prev.text):
                break
            j -= 1
            out[j] = prev._replace(unit=last.unit)
    return tuple(out)


# "or newer" after a number: a bound on releases ("bison (3.0 or newer)"); newer is said of releases,
# not of amounts ("2.5 or more") or times ("8.30 or later")
_OR_NEWER = re.compile(r"\)?\s*(?:or|and)\s+newer\b", re.IGNORECASE)


def _newer_release(text: str, q: Quantity) -> Quantity:
    """A number with a decimal part bounded by "or newer" as the release it is, an identifier."""
    if q.kind != "number" or "." not in q.text or q.unit is not None or _OR_NEWER.match(text, q.end) is None:
        return q
    ref = _reference_before(text, q.start) or "version"
    return Quantity("identifier", q.text, q.start, q.end, name=ref.split(":", 1)[-1], ident=_ident(q.text))


def _instead(found: Iterable[Quantity], readings: list[Quantity]) -> tuple[Quantity, ...]:
    """`found` with `readings` in place of the quantities inside their spans, in order."""
    return tuple(sorted([q for q in found if not any(r.start <= q.start < r.end for r in readings)] + readings,
                        key=lambda q: q.start))


# "half of the patients", "half the votes", "a third of the budget": a share with no count before it
_SHARE_HINT = re.compile(
    r"(?i)(?:half|third|quarter|fifth|tenth)\s+(?:of|the)\b|-(?:half|third|quarter|fifth|tenth)|\bby\s+(?:an?\s+|one\s+)?(?:half|third|quarter|fifth|tenth)\b")
_BARE_SHARE = re.compile(
    r"""(?<![\w-])(?:(?:(?P<a>an?)\s+(?P<f>half|third|quarter|fifth|tenth)|(?P<h>half))(?=\s+(?:of|the)\b)
       |(?<=\bby\s)(?:(?:an?|one)\s+)?(?P<bf>half|third|quarter|fifth|tenth)(?![\w-])
       |(?P<k>one|two|three|four|five|six|seven|eight|nine)-(?P<kf>half|thirds?|quarters?|fifths?|tenths?)(?![\w-]))""",
    re.IGNORECASE | re.VERBOSE)
_A_PART = re.compile(r"(?<![\w-])the\s+(?:[^\W\d_]+\s+)?$", re.IGNORECASE)


# a time of day: "9 am", "9:30 p.m.", "21:00", "9:00 in the morning" (a colon's minutes are two digits:
# "3:1" is a score, not a time)
_CLOCK = re.compile(
    r"""(?<![\w.:,])(?P<h>1[0-2]|0?[1-9])(?:[:.](?P<mi>[0-5]\d))?\s?(?P<ap>[AaPp])\.?\s?[Mm]\.?(?![\w])
      |(?<![\w.:,])(?P<h2>[01]?\d|2[0-3]):(?P<mi2>[0-5]\d)(?![\d:])
       (?:\s+(?P<part>in\s+the\s+(?:morning|afternoon|evening)|at\s+night|(?:tonight|tomorrow\s+morning)))?""",
    re.VERBOSE | re.IGNORECASE)


# a time of day in words: "half past midnight", "quarter to nine", "seven o'clock in the evening", "12 noon"
# (midnight and noon alone are left to the words: "before midnight" names no figure to compare)
_HOUR_WORDS = {w: i for i, w in enumerate("twelve one two three four five six seven eight nine ten eleven".split())}
_CLOCK_WORDS = re.compile(
    r"""(?<![\w-])(?:(?P<rel>half|(?:a\s+)?quarter)\s+(?P<dir>past|to)\s+(?P<h>midnight|midday|noon|1[0-2]|[1-9]|"""
    + "|".join(_HOUR_WORDS) + r""")|(?P<h2>1[0-2]|[1-9]|""" + "|".join(_HOUR_WORDS) + r""")\s+o['\u2019]clock
      |12\s+(?P<h3>midnight|noon|midday))(?![\w-])
      (?:\s+(?P<part>in\s+the\s+(?:morning|afternoon|evening)|at\s+night|[ap]\.?m\.?(?![\w])))?""",
    re.VERBOSE | re.IGNORECASE)


def _clock_words(text: str) -> list[Quantity]:
    out = []
    for m in _CLOCK_WORDS.finditer(text):
        word = (m.group("h") or m.group("h2") or m.group("h3")).lower()
        fixed = word in ("midnight", "noon", "midday")
        h = 0 if word == "midnight" else 12 if fixed else int(word) % 12 if word.isdigit() else _HOUR_WORDS[word]
        mi = 30 if m.group("rel") and m.group("rel").lower() == "half" else 15 if m.group("rel") else 0
        if m.group("dir") and m.group("dir").lower() == "to":
            h, mi = (h - 1) % 24, 60 - mi
        part = (m.group("part") or "").lower()
        later = None
        if not fixed and part:
            h = h % 12 + (0 if "morning" in part or part.startswith("a") else 12)
        elif not fixed:
            later = Decimal((h % 12 + 12) * 60 + mi)  # "quarter to nine": morning or evening
        shown = m.group(0).rstrip(".")
        out.append(Quantity("time", shown, m.start(), m.start() + len(shown), value=Decimal(h * 60 + mi), high=later))
    return out


def _clock_times(text: str) -> list[Quantity]:
    """The times of day in `text` (kind "time"): the minutes since midnight,
    and, for a time on a twelve-hour clock with nothing saying which half of
    the day (`9:00`), the same time twelve hours later as `high`."""
    out = _clock_words(text)
    for m in _CLOCK.finditer(text):
        if any(q.start <= m.start() < q.end for q in out):
            continue  # the "12" of "12 noon"
        if m.group("h"):
            if m.group(0)[-1] == "M" and m.group("ap").islower():
                continue  # "5 pM" is picomolar: a time's "pm" is written in one case ("pm", "PM", "p.M." none)
            h, mi = int(m.group("h")) % 12, int(m.group("mi") or 0)
            if m.group("ap").lower() == "p":
                h += 12
            shown = m.group(0).rstrip(".")  # a full stop after "pm" may end the sentence
            out.append(Quantity("time", shown, m.start(), m.start() + len(shown), value=Decimal(h * 60 + mi)))
            continue
        h, mi = int(m.group("h2")), int(m.group("mi2"))
        part = (m.group("part") or "").lower()
        later = None
        if 1 <= h <= 12 and part:
            h = h % 12 + (0 if "morning" in part else 12)  # "9:00 in the morning", "8:30 in the evening"
        elif 1 <= h <= 12 and not m.group("h2").startswith("0"):
            # "9:00": morning or evening; "09:00", with its leading zero, is a 24-hour clock's: morning
            later = Decimal((h % 12 + 12) * 60 + mi)
            h %= 12
        out.append(Quantity("time", m.group(0), m.start(), m.end(), value=Decimal(h * 60 + mi), high=later))
    return out


# "the second quarter", "the first half of the season": which part, not a share
# "the third century", "the twenty-first century": a century named by an ordinal in words, as "the 3rd
# century" is (not one of another era: "the first century BC")
_CENTURY_IN_WORDS = re.compile(
    r"(?<![\w-])(?:(?P<t>twenty|thirty)[\s-])?(?P<o>" + "|".join(ORDINALS) + r")[\s-]centur(?:y|ies)(?![\w-])"
    r"(?!\s+(?:BC|BCE|B\.C\.)(?![\w]))", re.IGNORECASE)


def _centuries_in_words(text: str) -> list[Quantity]:
    out = []
    for m in _CENTURY_IN_WORDS.finditer(text):
        n = ORDINALS[m.group("o").lower()] + (20 if m.group("t") and m.group("t").lower() == "twenty" else
                                                    30 if m.group("t") else 0)
        if m.group("t") and n > 29:
            continue
        out.append(_period(text, m.start(), m.end(), Decimal((n - 1) * 100), Decimal(100), "century"))
    return out


_ORDINAL_PART = re.compile(r"(?<![\w-])(?P<o>first|second|third|fourth)\s+(?P<p>quarter|half)(?![\w-])", re.IGNORECASE)


_TWICE = re.compile(r"(?<![\w-])(once|twice|thrice)(?![\w-])", re.IGNORECASE)
_OFTEN = {"once": Decimal(1), "twice": Decimal(2), "thrice": Decimal(3)}


def _how_often(text: str) -> list[Quantity]:
    """`once a week`, `twice a day`, `thrice weekly`: a frequency, one, two or
    three times per a unit of time. Not `twice as many`, a factor the quote
    may give in words, nor `once the item is returned`."""
    out = []
    for m in _TWICE.finditer(text):
        rate = _rate(text, m.end())
        if rate is None or rate[0] not in TIME_UNITS:
            continue
        out.append(Quantity("number", text[m.start():rate[1]], m.start(), rate[1],
                            value=_OFTEN[m.group(1).lower()], unit=f"times/{rate[0]}"))
    return out


def _ordinal_parts(text: str) -> list[Quantity]:
    """`the second quarter`, `the first half`: an identifier (the quarter of a
    year `Q2` names, the half `H1` names), not a share."""
    return [Quantity("identifier", m.group(0), m.start(), m.end(), name=m.group("p").lower(),
                     ident=(ORDINALS[m.group("o").lower()],)) for m in _ORDINAL_PART.finditer(text)]


# the verbs of a multiple: a change by a factor ("the town's population tripled")
_FACTOR = re.compile(r"(?<![\w-])((?:doubl|tripl|quadrupl)(?:ed|ing)|halv(?:ed|ing))(?![\w-])", re.IGNORECASE)
_FACTORS = {"doub": Decimal(2), "trip": Decimal(3), "quad": Decimal(4), "halv": Decimal("0.5")}
# the days of the week, as English writes them (with a capital): a claim's day must be its quotes'
_WEEKDAYS = ["Mon", "Tues", "Wednes", "Thurs", "Fri", "Satur", "Sun"]
_WEEKDAY = re.compile(r"(?<![\w-])(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?(?![\w-])")
# between two days, a run of days: "Tuesday to Sunday", "Monday through Friday", "Mon–Fri" is not read here
_DAY_RUN = re.compile(r"\s*(?:to|through|thru|till|until|-|\u2013)\s*$")


def days_through(first: int, last: int) -> frozenset[int]:
    """The days of the week (Monday 0) from `first` to `last`, counted on through the weekend
    (`Friday to Monday` is Friday, Saturday, Sunday and Monday)."""
    return frozenset(d % 7 for d in range(first, first + (last - first) % 7 + 1))


def _weekdays(text: str) -> list[Quantity]:
    """The days of the week a text names, a run of days (`Tuesday to Sunday`) as one, from its first
    day (`value`) to its last (`high`), counted on through the weekend."""
    out: list[Quantity] = []
    for m in _WEEKDAY.finditer(text):
        day = Decimal(_WEEKDAYS.index(m.group(1)))
        last = out[-1] if out else None
        if last is not None and last.high is None and _DAY_RUN.match(text[last.end:m.start()]):
            out[-1] = last._replace(text=text[last.start:m.end()], end=m.end(), high=day)
            continue
        out.append(Quantity("weekday", m.group(0), m.start(), m.end(), value=day))
    return out


def _may_read_words(text: str) -> bool:
    """A cheap test before the readings of words alone (_SHARE_HINT, _AND_A_HALF,
    _TWICE, _FACTOR): the text holds part of a fraction word, of twice or
    thrice, or of a verb of a multiple."""
    return "alf" in text or "hird" in text or "uarter" in text or "ifth" in text or "enth" in text \
        or "rice" in text or "wice" in text or "oubl" in text or "ripl" in text or "uadrupl" in text or "alv" in text \
        or "entur" in text or "once" in text or "Once" in text


def _bare_shares(text: str) -> list[Quantity]:
    """`half of`, `half the`, `a third of`, `a quarter of`, `by a third`: a
    share, in percent, as the fraction after a count is (`two thirds`). Not a
    part named by `the` (`the first half of the season`, `the other half of`)."""
    out = []
    for m in _BARE_SHARE.finditer(text):
        if _A_PART.search(text, max(0, m.start() - 30), m.start()) is not None:
            continue
        if m.group("k"):  # "two-thirds majority", "one-third of"
            share = NUMBER_WORDS[m.group("k").lower()] * SHARES[m.group("kf").lower().rstrip("s")]
        else:
            share = SHARES[(m.group("f") or m.group("h") or m.group("bf")).lower()]  # "fell by a third"
        out.append(Quantity("number", m.group(0), m.start(), m.end(), value=share, unit="%"))
    return out


_PENCE_AFTER = re.compile(r"\s*(?:pence|penny|pennies)(?![\w-])", re.IGNORECASE)
_PENCE_WRITTEN = re.compile(r"(\d{1,3}(?:\.\d+)?)p")
_RESOLUTIONS = frozenset({"144", "240", "360", "480", "576", "720", "1080"})  # "720p" video, not pence


def _pence(text: str, q: Quantity) -> Quantity:
    """An amount in pence (`30p`, `31.4p`, `30 pence`, `one penny`) as the
    pounds it is: £0.30 compares with `£0.30` and with `30 pence`."""
    if q.kind == "identifier" and q.name == "item" and (m := _PENCE_WRITTEN.fullmatch(q.text)) \
            and m.group(1) not in _RESOLUTIONS:
        return Quantity("number", q.text, q.start, q.end, value=Decimal(m.group(1)) / 100, unit="GBP")
    if q.kind == "number" and q.unit is None and q.value is not None and (m := _PENCE_AFTER.match(text, q.end)):
        return Quantity("number", text[q.start:m.end()], q.start, m.end(), value=q.value / 100, unit="GBP")
    return q


_OF_A_UNIT = re.compile(r"\s+of\s+an?\s+([^\W\d_]+)(?![\w-])", re.IGNORECASE)


def _share_of_a_unit(text: str, q: Quantity) -> Quantity:
    """A share written in words of one unit as that many of the unit: `three
    quarters of an hour` is 0.75 hours, `a third of a mile` a third of a mile.
    Not a share of a scale word (`a quarter of a million` is a number) nor a
    share written in figures (`25% of a day` stays a share)."""
    if q.kind != "number" or q.unit != "%" or q.value is None or not text[q.start:q.start + 1].isalpha():
        return q
    m = _OF_A_UNIT.match(text, q.end)
    if m is None or m.group(1).lower() in _SCALES:
        return q
    unit = _UNITS.get(m.group(1).lower())
    if unit is None or unit == "%" or unit not in BASE:
        return q
    return Quantity("number", text[q.start:m.end()], q.start, m.end(), value=q.value / 100, unit=unit)


def _and_a_half(text: str) -> list[Quantity]:
    """A whole number and a half of a unit or a scale word, as one number:
    `two and a half hours` is 2.5 hours, `an hour and a half` (or `every hour
    and a half`) 1.5 hours, `one and a half million` 1,500,000, `half an
    hour` 0.5 hours."""
    out = []
    for m in _and_a_half_re().finditer(text):
        n = m.group("n")
        word = " ".join((m.group("u") or m.group("u2") or m.group("u3")).lower().split())
        whole = Decimal(0) if m.group("u3") else Decimal(1) if n is None or n.lower() in ("a", "an") else _decimal(n)
        if whole is None:
            continue
        value = whole + Decimal("0.5")  # "half an hour": a half and no whole
        unit = _UNITS.get(word)
        end = m.end()
        if word in _SCALES:
            value, unit = value * _SCALES[word], None
            after = _NEXT_WORD.match(text, end)  # "half a million dollars": money
            if after is not None and _UNITS.get(after.group(1).lower()) in ("USD", "EUR", "GBP", "JPY"):
                unit, end = _UNITS[after.group(1).lower()], after.end()
        elif unit is None:
            continue
        out.append(Quantity("number", text[m.start():end], m.start(), end, value=value, unit=unit))
    return out


# the word after a number or a phrase
_NEXT_WORD = re.compile(r"\s*([^\W\d_]+)")


_COMPOUND_GAP = re.compile(r"\s+(?:and\s+)?")


def _compounds(text: str, found: tuple[Quantity, ...]) -> tuple[Quantity, ...]:
    """Two amounts of one dimension written one after the other, the larger
    unit first, as one amount in the smaller unit: `2 hours 5 minutes` is 125
    minutes, `1 year and 6 months` 18 months, `3 lb 4 oz` 52 oz. Not across a
    comma or a range (`between 2 hours and 30 minutes` is read as a range)."""
    out: list[Quantity] = []
    for q in found:
        prev = out[-1] if out else None
        if prev is not None and prev.kind == q.kind == "number" and prev.value is not None \
                and q.value is not None and prev.value >= 0 and q.value >= 0:
            big, small = BASE.get(prev.unit or ""), BASE.get(q.unit or "")
            if big is not None and small is not None and big[0] == small[0] and big[1] > small[1] \
                    and _COMPOUND_GAP.fullmatch(text, prev.end, q.start) is not None \
                    and _BETWEEN_BEFORE.search(text, max(0, prev.start - 12), prev.start) is None:
                out[-1] = Quantity("number", text[prev.start:q.end], prev.start, q.end,
                                   value=prev.value * big[1] / small[1] + q.value, unit=q.unit)
                continue
        out.append(q)
    return tuple(out)


_SMALL_NUMBER = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_HALF_UNITS = _trie([u for u in _UNITS if u[0].isalpha() and len(u) > 2]
                    + ["hundred", "thousand", "million", "billion", "trillion"], fold=True).replace(r"\ ", r"\s+")
# "two and a half hours", "1-and-a-half miles", "an hour and a half", "a year and a half"
# a compound of tens and units written with a hyphen ("thirty-seven and a half hours")
_COMPOUND_NUMBER = r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(?:one|two|three|four|five|six|seven|eight|nine)"
_AND_A_HALF_SOURCE = rf"""(?<![\w.,-])(?P<n>\d+|{_COMPOUND_NUMBER}|{_SMALL_NUMBER}|an?)[\s-]+and[\s-]+a[\s-]+half\s+(?P<u>{_HALF_UNITS})(?![^\W\d_])
       |(?<![\w-])(?:an?|one|every|each)\s+(?P<u2>{_HALF_UNITS})\s+and\s+a\s+half(?![\w-])
       |(?<![\w-])half\s+an?\s+(?P<u3>{_HALF_UNITS})(?![^\W\d_])"""
_AND_A_HALF: re.Pattern[str] | None = None  # compiled on first use (a start that verifies nothing skips it)


def _and_a_half_re() -> re.Pattern[str]:
    global _AND_A_HALF
    if _AND_A_HALF is None:
        _AND_A_HALF = re.compile(_AND_A_HALF_SOURCE, re.IGNORECASE | re.VERBOSE)
    return _AND_A_HALF


# the two sides of a ratio, read from where its "in" or "out of" stands
_RATIO_FIRST = re.compile(rf"(?<![\w.,])(?:\d+|{_SMALL_NUMBER})$", re.IGNORECASE)
_RATIO_REST = re.compile(
    rf"""\s+(?:in|out\s+of)\s+(?:every\s+)?
         (?P<m>\d{{1,3}}(?:,\d{{3}})+|\d{{1,3}}|{_SMALL_NUMBER}|(?:a\s+)?(?:hundred|thousand|million))(?![\w.,])""",
    re.IGNORECASE | re.VERBOSE)


def _ratios(text: str) -> list[Quantity]:
    """`one in five`, `3 out of 10`, `1 in every 1,000`: a share, read as a
    percentage (kind "ratio": value N, high M; `_share` gives the percent).
    Not when a unit follows (`3 in 20 minutes`), nor when the first number is
    not the smaller. Looked for only where " in " or " out of " stands."""
    out = []
    lowered = text.lower()
    for joint in (" in ", " out of "):
        at = lowered.find(joint)
        while at >= 0:
            first = _RATIO_FIRST.search(text, max(0, at - 10), at)
            rest = _RATIO_REST.match(text, at) if first else None
            at = lowered.find(joint, at + 1)
            if first is None or rest is None:
                continue
            n, d = _decimal(first.group(0)), _decimal(rest.group("m").lower().removeprefix("a").strip())
            if n is None or d is None or not 0 < n < d:
                continue
            after = _NEXT_WORD.match(text, rest.end())
            if after is not None and (after.group(1).lower() in _UNITS or after.group(1) in _LONE_LETTER_UNITS):
                continue
            out.append(Quantity("ratio", text[first.start():rest.end()], first.start(), rest.end(), value=n, high=d,
                                unit="%"))
    return sorted(out, key=lambda q: q.start)


def _share(q: Quantity) -> Decimal:
    """A ratio's share in percent."""
    assert q.value is not None and q.high is not None
    return q.value * 100 / q.high


# a tens word and a unit word written apart ("twenty five", "twenty - five" in a transcript): one number
_TENS_WORDS = frozenset("twenty thirty forty fifty sixty seventy eighty ninety".split())
_UNIT_WORDS = frozenset("one two three four five six seven eight nine".split())
_TENS_GAP = re.compile(r"[ \t]+(?:-[ \t]+)?|[ \t]+-|-[ \t]+")


def _tens_and_unit(text: str, a: Quantity, b: Quantity) -> Quantity | None:
    first, second = text[a.start:a.end].lower(), text[b.start:b.end].split()[0].lower() if b.text else ""
    if a.kind == b.kind == "number" and a.unit is None and first in _TENS_WORDS and second in _UNIT_WORDS \
            and a.value is not None and b.value is not None and _TENS_GAP.fullmatch(text, a.end, b.start):
        return Quantity("number", text[a.start:b.end], a.start, b.end, value=a.value + b.value, unit=b.unit)
    return None


_MONEY = frozenset("USD EUR GBP".split())


def _money_and_cents(text: str, a: Quantity, b: Quantity) -> Quantity | None:
    """"twelve euros fifty", "five pounds 20": an amount of money said with its cents after the unit."""
    if a.kind == b.kind == "number" and a.unit in _MONEY and b.unit is None and a.value is not None \
            and b.value is not None and a.value == a.value.to_integral() and 1 <= b.value <= 99 \
            and b.value == b.value.to_integral() and text[a.end:b.start] in (" ", "\t") \
            and text[a.start:a.end][:1] not in "$\u00a3\u20ac":
        return Quantity("number", text[a.start:b.end], a.start, b.end, value=a.value + b.value / 100, unit=a.unit)
    return None


_SPOKEN_POINT = re.compile(r"\s+(?:point|dot)\s+", re.IGNORECASE)


def _spoken_decimal(text: str, a: Quantity, b: Quantity) -> Quantity | None:
    """"twelve point five", "twelve dot fifty euros" (a transcript): one number with its decimals."""
    if a.kind == b.kind == "number" and a.unit is None and a.value is not None and b.value is not None \
            and a.value == a.value.to_integral() and b.value == b.value.to_integral() and 0 <= b.value < 100 \
            and _SPOKEN_POINT.fullmatch(text, a.end, b.start):
        digits = len(str(int(b.value)))
        return Quantity("number", text[a.start:b.end], a.start, b.end, value=a.value + b.value / 10**digits,
                        unit=b.unit)
    return None


def _ranges(text: str, qs: list[Quantity]) -> list[Quantity]:
    """Two numbers joined by `-`, `to` or `and` (after `between`/`from`) are a range."""
    out: list[Quantity] = []
    i = 0
    while i < len(qs):
        a = qs[i]
        if i + 1 < len(qs) and ((one := _tens_and_unit(text, a, qs[i + 1])) is not None
                                or (one := _money_and_cents(text, a, qs[i + 1])) is not None
                                or (one := _spoken_decimal(text, a, qs[i + 1])) is not None):
            out.append(one)
            i += 2
            continue
        if a.kind == "number" and i + 1 < len(qs) and qs[i + 1].kind == "number":
            b = qs[i + 1]
            if b.value is not None and a.value is not None and (word := _span_word(text, a, b)) is not None:
                unit = a.unit or b.unit
                if a.unit is None or b.unit is None or a.unit == b.unit:
                    lo, hi = a.value, b.value
                    if word == "-" and b.value < 0 and a.value >= 0 and text[b.start] in "-\u2212":
                        lo, hi = a.value, -b.value  # "10-12" read with a sign: a hyphen, not a minus
                    if 1000 <= lo < 3000 and lo == lo.to_integral() and 0 <= hi < 100 and \
                            word in ("-", "\u2013", "\u2014") and re.match(r"[-\u2212]?\d\d(?!\d)", text[b.start:b.end]):
                        hi = lo - lo % 100 + hi  # "2018-19": the short end of a span of years is a year
                    out.append(Quantity("range", text[a.start:b.end], a.start, b.end, value=lo, high=hi,
                                        unit=unit))
                    i += 2
                    continue
        if i + 1 < len(qs) and _day_span(text, a, qs[i + 1]):
            # "5 to 9 June", "June 5-9": the bare day takes the month (and year) of the date beside it
            b = qs[i + 1]
            day, date = (a, b) if a.kind == "number" else (b, a)
            assert date.date is not None and day.value is not None
            made = _date(date.date[0], date.date[1], int(day.value))
            if made is not None:
                shown = Quantity("date", day.text, day.start, day.end, date=made)
                out.extend((shown, b) if day is a else (a, shown))
                i += 2
                continue
        out.append(a)
        i += 1
    return out


def _day_span(text: str, a: Quantity, b: Quantity) -> bool:
    """Whether a bare day number and a date with a day stand joined as a span of days ("5 to 9 June",
    "June 5-9", "between 5 and 9 June")."""
    if a.kind == "number" and b.kind == "date":
        day, date = a, b
    elif a.kind == "date" and b.kind == "number":
        day, date = b, a
    else:
        return False
    if date.date is None or date.date[1] is None or date.date[2] is None or day.unit is not None or \
            day.value is None or not day.text.isdigit() or not 1 <= day.value <= 31:
        return False
    if (day is a) != date.text[:1].isdigit():
        return False  # "5 to 9 June" (the date opens with its day), "June 5 to 9" (the date ends with it)
    if day is a and not day.value < date.date[2]:
        return False  # a span runs forward
    if day is b and (date.date[0] is not None or not date.date[2] < day.value or text[b.end:b.end + 1] == ":"
                       or (text[b.end:b.end + 1] == "." and text[b.end + 1:b.end + 2].isdigit())):
        return False  # "May 12, 2013 - 6:00pm": a year or a time after a date is no span of days
    return _span_word(text, a, b) is not None


def _span_word(text: str, a: Quantity, b: Quantity) -> str | None:
    """The word that joins two quantities as the ends of a span (`-`, `to`,
    `through`, or `and` after `between` or `from`), lower case; None when
    what stands between them is not such a word."""
    gap = text[a.end:b.start]
    if not gap.strip() or not _RANGE_JOIN.fullmatch(gap):
        return None
    word = gap.strip().lower()
    if word in ("-", "\u2013", "\u2014", "to", "through", "thru") or (
            word == "and" and _BETWEEN_BEFORE.search(text, max(0, a.start - 12), a.start) is not None):
        return word
    return None
