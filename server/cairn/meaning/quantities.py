"""Quantities, dates, times and identifiers as a claim or a quote states
them (SPEC section 4, `number-mismatch`); whether a claim's are backed by its
quotes is cairn.meaning.backing's question, when two amounts are the same
cairn.meaning.units'.

A **quantity** is a number with its sign, its scale and its unit: `-18 °C`,
`30 days`, `5 %`, `$40 million`, `2 km`, `fourteen days`. Unit spellings are
normalised (`°C` = `C` = `degrees Celsius`; `%` = `percent` = `per cent`;
`km` = `kilometres`; `$` = `USD` = `dollars`; singular = plural), and a
range (`between 0 and 4 °C`, `10-12 weeks`) is kept as a range. Amounts
written in words are read too: `a dozen`, `two and a half hours`, `2 hours
5 minutes` (one amount), `twice a day`, `a seven-month journey`, shares
(`half of`, `two-thirds`, in percent), `doubled` (a factor), `the late
1990s`.

A **date** is read in the common written forms (`12 May 2024`,
`May 12, 2024`, `2024-05-12`, `12th of May`, `May 2024`) and compared by
its parts; the parts must make a real date (31 February is none). The
reader is tested against python-dateutil on generated dates; it reads only
the forms above, about a hundred times faster. A **time of day** (`9 pm`,
`21:00`, `9:00 in the morning`) is minutes since midnight; a **day of the
week** is its index.

An **identifier** is a number that is part of a name or a reference, not an
amount: `Apache 2.0`, `GPLv3`, `version 3`, `section 5.1`, `RFC 9110`,
`Python 3.11`, `1.2.3`, `Q3`, `the second quarter`, `Part Two`.

`one` is a count only before a unit (`one day`, `one percent`): in `one of`,
`no one`, `one another`, `one possibility` it is a determiner or a pronoun.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from functools import lru_cache, partial

from ..support.unit_names import PER_UNITS
from ..support.words import ORDINALS
from .quantity import Quantity
from .scan import (
    _BETWEEN_BEFORE,
    _CASED,
    _CURRENCY_CODES,
    _CURRENCY_SIGNS,
    _LONE_LETTER_UNITS,
    _MONTH_OF,
    _MONTHS,
    _NOT_NAMES,
    _NUMBER_GROUPS,
    _RANGE_JOIN,
    _REFERENCE_WORDS,
    _SCALES,
    _UNITS,
    NUMBER_WORDS,
    TIME_UNITS,
    _candidates,
    _PlainNumber,
    _scan_chunks,
    _trie,
    sentence_starts_at,
)
from .units import BASE, SHARES

DateParts = tuple[int | None, int | None, int | None]  # (year, month, day), a part None when not given

__all__ = ["DateParts", "NumberMismatch", "Quantity", "extract"]


@dataclass(frozen=True, slots=True)
class NumberMismatch:
    claim: str  # the claim's side, as written
    quotes: str  # what the quotes (or the source) say instead
    kind: str  # "number", "range", "date", "identifier"
    where: str = "quotes"  # "quotes" or "source" (an identifier checked against the chunk and title)

    @property
    def message(self) -> str:
        return f"claim says {self.claim}; {self.where} say{'s' if self.where == 'source' else ''} {self.quotes}"


def _decimal(written: str) -> Decimal | None:
    w = written.lower()
    if w in NUMBER_WORDS:
        return Decimal(NUMBER_WORDS[w])
    if "-" in w:
        a, _, b = w.partition("-")
        if a in NUMBER_WORDS and b in NUMBER_WORDS and NUMBER_WORDS[a] >= 20 and NUMBER_WORDS[b] < 10:
            return Decimal(NUMBER_WORDS[a] + NUMBER_WORDS[b])
        return None
    if w in _SCALES:
        return Decimal(_SCALES[w])
    try:
        return Decimal(w.replace(",", ""))
    except InvalidOperation:
        return None


def _ident(number: str) -> tuple[int, ...]:
    # through Decimal: int() of a string refuses more than 4300 digits, and a claim may hold a longer run
    parts = [int(Decimal(p)) for p in re.findall(r"\d+", number)]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _calendar_year(n: Quantity) -> bool:
    """Whether a number reads as a calendar year: whole, 1000 to 2999, no unit (`before 1950`)."""
    return n.unit is None and n.value is not None and 1000 <= n.value < 3000 and n.value == n.value.to_integral()


def _year(full: str | None, short: str | None) -> int:
    """A year written whole (`2006`) or by its last two digits after an
    apostrophe (`November '06`), read as POSIX reads a two-digit year: 69 to
    99 in the 1900s, 00 to 68 in the 2000s."""
    if full is not None:
        return int(full)
    yy = int(short or 0)
    return yy + (1900 if yy >= 69 else 2000)


def _date(year: int | None, month: int | None, day: int | None) -> tuple[int | None, int | None, int | None] | None:
    """(year, month, day) when the parts make a real date (a day without a
    year may be 29 February); None otherwise."""
    if month is None or not 1 <= month <= 12:
        return None
    try:
        datetime(year if year is not None else 2000, month, day or 1)
    except ValueError:
        return None
    return year, month, day


def _month(name: str) -> int | None:
    return _MONTH_OF.get(name.rstrip(".").lower()) or _MONTH_OF.get(name.rstrip(".").lower()[:3])


def _date_text(y: int | None, m: int | None, d: int | None) -> str:
    parts = []
    if d:
        parts.append(str(d))
    if m:
        parts.append(_MONTHS[m - 1].capitalize())
    if y:
        parts.append(str(y))
    return " ".join(parts)




def _at_line_start(text: str, pos: int) -> bool:
    """Whether only spaces and tabs stand between `pos` and the start of its line (or of the text):
    a walk back from `pos`, so that a text of many numbers is read in linear time."""
    i = pos
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    return i == 0 or text[i - 1] == "\n"


_LIST_BEFORE = re.compile(r"\d+(?:\.\d+)*[a-z]?\s*(?:,\s*(?:and|or)?|and|or|&)\s*$")


def _reference_before(text: str, start: int) -> str | None:
    ref = _reference_and_start(text, start)
    return ref[0] if ref else None


def _word_before(text: str, start: int) -> tuple[str, int] | None:
    """The word right before `start` (white space and one full stop between), as
    _WORD_BEFORE finds it, by a walk back instead of a search over a window."""
    i = start
    lo = max(0, start - 40)
    while i > lo and text[i - 1].isspace():
        i -= 1
    if i > lo and text[i - 1] == ".":
        i -= 1
    end = i
    while i > lo and text[i - 1] == "§" and end - i < 2:
        i -= 1
    if i < end:
        return text[i:end], i
    j = i
    while j > lo and (text[j - 1].isalnum() or text[j - 1] in "_'’"):
        j -= 1
    while j < end and not (text[j].isalpha()):
        j += 1
    if j >= end:
        return None
    return text[j:end], j


def _reference_and_start(text: str, start: int) -> tuple[str, int] | None:
    """The reference word a number belongs to, and where that word starts.
    Most numbers follow a plain word and one space ("city 2208"): that word
    is found with one rfind, and what it names is kept per word; any other
    case (a list, punctuation, other white space) takes the plain path, which
    the tests hold this one to."""
    if start >= 2 and text[start - 1] == " ":
        lo = max(0, start - 40)
        at = text.rfind(" ", lo, start - 1) + 1
        word = text[at:start - 1]
        if (at > 0 or lo == 0) and word.isalpha() and not word.endswith(("and", "or")):
            ref = _reference_of(word)
            return (ref, at) if ref else None
    return _reference_and_start_plain(text, start)


def _reference_and_start_plain(text: str, start: int) -> tuple[str, int] | None:
    # "Sections 3.1, 3.2, and 3.4": every number of the list belongs to the word before it
    if text[max(0, start - 6):start].rstrip().endswith((",", "&", "and", "or")):
        for _ in range(12):
            m = _LIST_BEFORE.search(text, max(0, start - 40), start)
            if not m:
                break
            start = m.start()
    found = _word_before(text, start)
    if not found:
        return None
    word, at = found
    ref = _reference_of(word)
    return (ref, at) if ref else None


@lru_cache(maxsize=32768)
def _reference_of(word: str) -> str | None:
    """What the word before a number makes of it: a reference word's name
    ("section"), "name:…" for a capitalised name, "word:…" for another noun."""
    key = _REFERENCE_WORDS.get(word.lower().rstrip("'’"))
    if key:
        return key
    if word[0].isupper() and word.lower() not in _NOT_NAMES and len(word) > 1:
        return "name:" + word.lower()
    if len(word) > 1 and word.isalpha() and (word.lower() not in _NOT_NAMES or word.lower() in _TOOL_NAMES) \
            and word.lower() not in _QUANTITY_VERBS and not _inflected(word.lower()):
        return "word:" + word.lower()  # "grep 3.8": a decimal right after a noun names a release
    return None


def _inflected(word: str) -> bool:
    """A verb's past or -ing form ("increased 4.5", "reaching 3.5"): a stem of two
    letters or more before the ending, so that "sed" or "king" stay nouns."""
    return (word.endswith("ed") and len(word) >= 4) or (word.endswith("ing") and len(word) >= 5)


# words of _NOT_NAMES that are also names of programs: a decimal after them in lower case
# ("make 4.3", "see 4.3") names a release or a section, not an amount
_TOOL_NAMES = frozenset("make see note".split())
# what a reference word names ("section", "version"): an identifier's name
_REFERENCE_NAMES = frozenset(_REFERENCE_WORDS.values())

# verbs after which a number is an amount ("costs 3.5", "weighs 2.5")
_QUANTITY_VERBS = frozenset(
    "cost costs total totals equal equals weigh weighs measure measures reach reaches score scores hit hits "
    "rate rates average averages number numbers count counts is are was were be been has have had "
    "takes take gives give pays pay earns earn contains contain holds hold weighs".split()
)


@lru_cache(maxsize=16384)
def extract(text: str) -> tuple[Quantity, ...]:
    """Every quantity, date and identifier in `text`, in order."""
    text = unicodedata.normalize("NFKC", text)
    # the chunks that can hold a start, looked up per chunk in what is kept for each: none for most
    # texts without a number (cheaper than lowering and splitting the text to look for number words)
    spans = _candidates(text)
    if not spans and not _may_read_words(text) and "day" not in text:
        return ()
    return _whole(text, _quantities(text, _scan_chunks(text, spans)) if spans else ())


def _whole(text: str, found: tuple[Quantity, ...]) -> tuple[Quantity, ...]:
    """What the scanner's quantities `found` say read together with the words
    around them, and the amounts written in words alone: shares and ratios,
    a whole and a half, how often, which quarter or half, multiples, days of
    the week, times of day, and amounts in two units."""
    if _may_read_words(text) and _SHARE_HINT.search(text) is not None and (
            bare := [b for b in _bare_shares(text) if not any(q.start <= b.start < q.end for q in found)]):
        found = _instead(found, bare)  # "half of", not the "half" of "one half of" read already
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
    if "day" in text and (days := [Quantity("weekday", m.group(0), m.start(), m.end(), value=Decimal(_WEEKDAYS.index(m.group(1))))
                                   for m in _WEEKDAY.finditer(text)]):
        found = _instead(found, days)
    if (":" in text or any(q.unit in ("am", "pm") for q in found)) and (times := [
            t for t in _clock_times(text) if not any(q.kind == "range" and q.start <= t.start < q.end for q in found)]):
        found = _instead(found, times)  # not the end of a range read already ("between 6 and 7 pm")
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


def _clock_times(text: str) -> list[Quantity]:
    """The times of day in `text` (kind "time"): the minutes since midnight,
    and, for a time on a twelve-hour clock with nothing saying which half of
    the day (`9:00`), the same time twelve hours later as `high`."""
    out = []
    for m in _CLOCK.finditer(text):
        if m.group("h"):
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
_AND_A_HALF_SOURCE = rf"""(?<![\w.,-])(?P<n>\d+|{_SMALL_NUMBER}|an?)[\s-]+and[\s-]+a[\s-]+half\s+(?P<u>{_HALF_UNITS})(?![^\W\d_])
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


def _quantities(text: str, matches: Iterable[re.Match[str] | _PlainNumber]) -> tuple[Quantity, ...]:
    """The quantities of _SCAN's matches in `text` (NFKC), in order; the plain
    path is `_quantities(text, _scan(text))`."""
    out: list[Quantity] = []
    for m in matches:
        s, e = m.span()
        g = m.lastgroup
        if g == "iso":
            date = _date(int(m.group("iy")), int(m.group("im")), int(m.group("id")))
            if date:
                out.append(Quantity("date", m.group(0), s, e, date=date))
            continue
        if g in ("dmy", "mdy", "my2"):
            written = m.group(0)
            if g == "mdy" and m.group("mm").rstrip(".").lower() == "may" and not m.group("my") \
                    and m.group("mm").islower():
                continue
            if g == "dmy":
                date = _date(int(m.group("dy")) if m.group("dy") else None, _month(m.group("dm")), int(m.group("dd")))
            elif g == "mdy":
                date = _date(int(m.group("my")) if m.group("my") else None, _month(m.group("mm")), int(m.group("md")))
            else:
                date = _date(_year(m.group("my2y"), m.group("my2yy")), _month(m.group("mm2")), None)
                part = _PERIOD_PART.search(text, max(0, s - 12), s) if date else None
                if date and part is not None and date[0] and date[1]:
                    out.append(_month_part(text, part, e, date))
                    continue
            if date:
                out.append(Quantity("date", written, s, e, date=date))
            continue
        if g == "slash":
            a, b, y = int(m.group("s1")), int(m.group("s2")), int(m.group("s3"))
            dates = [(y, b, a)] if a > 12 else [(y, a, b)] if b > 12 else [(y, b, a), (y, a, b)]
            for dt in dates:
                if 1 <= dt[1] <= 12 and 1 <= dt[2] <= 31:
                    out.append(Quantity("date", m.group(0), s, e, date=dt))
            continue
        if g == "dotted":
            ref = _reference_before(text, s) or "version"
            out.append(Quantity("identifier", m.group(0), s, e, name=ref.split(":", 1)[-1],
                                ident=_ident(m.group(0))))
            continue
        if g == "alnum":
            letters = m.group("an")
            if letters.lower() in _UNITS or letters.lower() in _CURRENCY_CODES or letters in _LONE_LETTER_UNITS:
                # "US$40", "km2": leave to the number branch below by reading the number alone
                pass
            elif letters.lower() in ("mid", "pre", "post") and m.group("ax") == "s" and len(m.group("ad")) == 4 \
                    and m.group("ad").endswith("0") and m.group("anv") is None:
                # "the mid-1990s": a part of a decade, not an identifier "mid"; "pre-1990s": before it
                value = Decimal(m.group("ad"))
                if letters.lower() == "mid":
                    out.append(_period(text, s + 4, e, value, Decimal(9), "decade")._replace(start=s, text=m.group(0)))
                continue
            else:
                name = letters.lower().split("-")[-1]
                if letters == "Q" and m.group("ad") in ("1", "2", "3", "4"):
                    name = "quarter"  # "Q2" is the second quarter of a year
                if m.group("anv") is None and len(name) > 2 and name.endswith("v"):
                    name = name[:-1]  # "GPLv3": the name is GPL
                if name == "v" and m.group("anv") is None:
                    name = "version"
                out.append(Quantity("identifier", m.group(0), s, e, name=name, ident=_ident(m.group("ad"))))
                continue
            continue
        # a number, perhaps with currency, sign, scale and unit
        q = _number(text, m)
        if q is not None:
            out.append(q)
    return tuple(_ranges(text, out))


def _number(text: str, m: re.Match[str] | _PlainNumber) -> Quantity | None:
    written, cur, scale, u, lone, sign, ordinal = m.group(*_NUMBER_GROUPS)
    value = _decimal(written)
    if value is None:
        return None
    s, e = m.span()
    word = not written[0].isdigit()
    unit = None
    if cur:
        cur = cur.strip()
        unit = _CURRENCY_SIGNS.get(cur) or _CURRENCY_CODES.get(cur.lower())
    if scale:
        if scale.lower() in ("k", "m", "bn", "mn") and not cur:
            # "5m" is metres, "5k" a thousand only next to money
            if scale.lower() == "m" and scale == "m":
                unit, scale = "m", None
            elif scale.lower() in ("k", "bn", "mn"):
                pass
            else:
                scale = None
        if scale:
            value = value * _SCALES[scale.lower()]
    if u and u.lower().rstrip("s") in _FRACTIONS and text[m.end("unit"):m.end("unit") + 1] == "-":
        # "one third-party library", "a half-open range": the fraction word opens a compound, it is no unit
        u = None
        e = m.start("unit")
        while text[e - 1].isspace():
            e -= 1
    if u:
        key = " ".join(u.lower().split())  # a unit's words, one space between (it has none around it)
        if len(u) == 1 and u.isalpha() and u not in _CASED:
            return _bare(text, m, value, word, unit)
        if key in ("m", "g", "h", "t", "l") and u not in _CASED:
            return _bare(text, m, value, word, unit)
        unit2 = _UNITS.get(key)
        if unit2 in _CURRENCY_CODES.values() or unit2 in ("USD", "EUR", "GBP", "JPY"):
            unit = unit2
        elif unit is None:
            unit = unit2
    elif lone:
        if lone in _LONE_LETTER_UNITS and (text[m.start("lone") - 1] == " " or text[m.start("lone") - 1].isdigit()):
            unit = unit or _LONE_LETTER_UNITS[lone]
        else:
            e = m.start("lone")
    if ordinal and unit in ("quarter", "half") and value == value.to_integral():
        # "the 3rd quarter": which quarter (_ordinal_parts), not three of them
        return Quantity("identifier", text[s:e].strip(), s, e, name=unit, ident=(int(value),))
    if unit in SHARES:
        value, unit = value * SHARES[unit], "%"  # "two thirds": a share, in percent ("one half" = "50%")
    if sign:
        value = -value
    if ordinal and unit == "century" and 1 <= value <= 30 and value == value.to_integral():
        # "the 19th century": its hundred years, counted 1801-1900 or 1800-1899; any year of them backs it
        low = (value - 1) * 100
        return _period(text, s, e, low, Decimal(100), "century")
    if word and not (unit or ordinal or sign or scale or cur) and written.lower() in NUMBER_WORDS \
            and (found := _reference_and_start(text, s)) is not None and found[0] in _REFERENCE_NAMES \
            and found[0] != "number" and found[1] + 1 < s:
        # "Part Two", "phase one", "Chapter Three": a number in words names an item as digits do
        return Quantity("identifier", written, s, e, name=found[0], ident=(int(value),))
    if word and written.lower() == "one" and unit is None and not scale:
        return None  # "one of", "no one", "one possibility": not a count
    if word and written.lower() in _SCALES and written.lower() not in NUMBER_WORDS:
        # "hundreds of", "a thousand reasons", "million dollars": a bare scale word is not a stated amount
        return None
    if word and written.lower() == "dozen" and (half := _HALF_A.search(text, max(0, s - 12), s)) is not None:
        s, value = half.start(), value / 2  # "half a dozen": six
    n_end = m.end("n")
    bare = not (unit or ordinal or scale or sign or cur or word) and e == n_end  # digits and nothing read after
    if bare and len(written) == 4 and written.endswith("0") and 1000 <= value < 3000 and \
            (decade := _DECADE_END.match(text, n_end)) is not None:
        # "the 1930s", "the 1980's": a decade, ten years; any year of it backs it. "The 1900s" may be the
        # century as well as its first decade: read as the century, so that no year of it fails
        return _period(text, m.start("n"), decade.end(), value, Decimal(99 if written.endswith("00") else 9), "decade")
    if bare and n_end < len(text) and text[n_end].isalpha() and text[n_end].isascii() and text[n_end] not in "sS" and \
            (n_end + 1 == len(text) or not text[n_end + 1].isalnum()):
        # "subsection 6d", "Option 6c", "Article 12a": a number with a letter glued to it numbers an
        # item (units and scales glued to a number were read above); the letter is part of its name.
        # Not an "s": "1930s", "the '80s" are plurals, decades
        item = _reference_and_start(text, s)
        letter = text[n_end]
        return Quantity("identifier", text[m.start("n"):n_end + 1], m.start("n"), n_end + 1,
                        name=item[0].split(":", 1)[-1] if item else "item",
                        ident=(*_ident(written), 1000 + ord(letter.lower())))
    if bare and text[n_end:n_end + 1] in (".", ")") \
            and (n_end + 1 == len(text) or text[n_end + 1] in " \t\n") and _at_line_start(text, s):
        # "5.1. The rights granted …", "3) Fallback": a number opening a line and closed by a full
        # stop or a parenthesis numbers a clause of the text, as "section 5.1" does
        return Quantity("identifier", written, m.start("n"), n_end, name="section", ident=_ident(written))
    # the reference word before a number matters only for a plain one (no unit, ordinal, sign or word)
    found = None if (unit or ordinal or sign or word) else _reference_and_start(text, s)
    ref, word_start = found if found else (None, 0)
    if ref and not sign and not word:
        if ref.startswith("word:") and "." not in written:
            ref = None  # only a decimal ("grep 3.8"), never "files 3", names a release after a plain noun
        elif ref.startswith("name:"):
            # "Apache 2.0", "Python 3.11": a name before a number; but "Allow 30 days" opens a sentence
            whole_year = "." not in written and 1000 <= value < 3000
            if whole_year or ("." not in written and sentence_starts_at(text, word_start)
                              and not ref[5:].isupper() and not text[word_start:s].strip().isupper()):
                ref = None
        if ref:
            return Quantity("identifier", text[m.start("n"):m.end("n")], m.start("n"), m.end("n"),
                            name=ref.split(":", 1)[-1], ident=_ident(written))
    if unit is not None and "/" not in unit and e < len(text) and text[e] in _PER_FIRST:
        rate = _rate(text, e)
        if rate is not None:  # "50 km/h", "5 mg per kilogram", "$1,200 a month": one unit, a rate
            unit, e = f"{unit}/{rate[0]}", rate[1]
    # as Quantity("number", text[s:e].strip(), s, e, value=value, unit=unit), without its Python-level __new__
    return _new(Quantity, ("number", text[s:e].strip(), s, e, value, None, unit, None, None, None))


# the part of a period a word before it names, as shares of its length (overlapping: where the early
# years end and the middle ones start is the writer's to judge)
_PERIOD_PART = re.compile(r"(?<![\w-])(early|mid|middle|late)(?:-|\s+|\s+to\s+mid-?)$", re.IGNORECASE)
_PARTS = {"early": (Decimal(0), Decimal("0.4")), "mid": (Decimal("0.3"), Decimal("0.7")),
          "middle": (Decimal("0.3"), Decimal("0.7")), "late": (Decimal("0.6"), Decimal(1))}


def _period(text: str, s: int, e: int, low: Decimal, length: Decimal, unit: str) -> Quantity:
    """A decade or a century (`the 1990s`, `the 19th century`) as the range of
    its years; `early`, `mid-` or `late` before it narrows the range to that
    part (`the late 1990s`: 1995 to 1999; `the early 19th century`: 1800 to 1840)."""
    part = _PERIOD_PART.search(text, max(0, s - 12), s)
    high = low + length
    if part is not None:
        a, b = _PARTS[part.group(1).lower()]
        s, low, high = part.start(), (low + a * length).to_integral_value(), (low + b * length).to_integral_value()
    return Quantity("range", text[s:e].strip(), s, e, value=low, high=high, unit=unit)


def _month_part(text: str, part: re.Match[str], e: int, date: tuple[int | None, int | None, int | None]) -> Quantity:
    """A part of a month (`early March 2022`): the date of its month, with the
    days that part may mean as `value` to `high` (the shares of `_PARTS`:
    early March is the 1st to the 13th, late March the 19th to the 31st)."""
    a, b = _PARTS[part.group(1).lower()]
    assert date[0] is not None and date[1] is not None
    days = Decimal(calendar.monthrange(date[0], date[1])[1])
    low, high = (a * days).to_integral_value(rounding="ROUND_FLOOR") + 1, (b * days).to_integral_value(rounding="ROUND_CEILING")
    return Quantity("date", text[part.start():e].strip(), part.start(), e, value=low, high=high, date=date)


_HALF_A = re.compile(r"(?<![\w-])half\s+an?\s+$", re.IGNORECASE)
_PER = re.compile(r"(?:[ \t]*/[ \t]*|\s+(?P<w>per|a|an|each)\s+)(?P<den>[^\W\d_]+)(?![\w/])", re.IGNORECASE)
_PER_FIRST = frozenset("/ \t\n")
# "5 mg daily", "two times weekly": the adverb of a rate's time unit
_EVERY = re.compile(r"\s+(hourly|daily|weekly|monthly|yearly|annually)(?![\w-])", re.IGNORECASE)
_EVERY_UNIT = {"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "yearly": "year",
               "annually": "year"}


def _rate(text: str, at: int) -> tuple[str, int] | None:
    """The second unit of a rate right after a unit ending at `at` ("/h", " per
    hour", " a month"), normalised, and where it ends; None when none follows."""
    m = _PER.match(text, at)
    if m is None:
        every = _EVERY.match(text, at)
        return (_EVERY_UNIT[every.group(1).lower()], every.end()) if every is not None else None
    den = m.group("den").lower()
    unit = (_UNITS.get(den) or PER_UNITS.get(den)) if m.group("w") is None else _UNITS.get(den)
    if unit is None or (m.group("w") is not None and m.group("w").lower() != "per" and unit not in TIME_UNITS):
        return None
    return unit, m.end()


_new = tuple.__new__
_SPANS_OF_YEARS = ("decade", "century")  # the units of a range of calendar years ("the 1930s", "the 19th century")
_DECADE_END = re.compile(r"['\u2019]?s(?![\w'\u2019])")
_FRACTIONS = frozenset(SHARES) | {"halve"}  # a fraction word, singular ("halves" less its s)


def _bare(text: str, m: re.Match[str] | _PlainNumber, value: Decimal, word: bool, unit: str | None) -> Quantity | None:
    s = m.start()
    e = m.end("scale") if m.group("scale") else m.end("n")
    if m.group("sign"):
        value = -value
    if word and m.group("n").lower() == "one":
        return None
    return Quantity("number", text[s:e].strip(), s, e, value=value, unit=unit)


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
