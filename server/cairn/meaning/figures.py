"""One number, date or identifier as a text writes it, for the scan of
cairn.meaning.quantities: a number's value with its sign, scale, unit and rate
(`-18 °C`, `$40 million`, `50 km/h`, `fourteen days`), a decade or a century as the
range of its years (`the 1930s`, `the late 1990s`, `the 19th century`), a date's
parts (they must make a real date: 31 February is none), and the reference word
before a number that makes it an identifier (`section 5.1`, `Apache 2.0`, `Part Two`).
"""

from __future__ import annotations

import calendar
import re
from datetime import datetime
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from ..support.unit_names import PER_UNITS
from .quantity import Quantity
from .scan import (
    _CASED,
    _CURRENCY_CODES,
    _CURRENCY_SIGNS,
    _LONE_LETTER_UNITS,
    _MONTH_OF,
    _MONTHS,
    _NOT_NAMES,
    _NUMBER_GROUPS,
    _REFERENCE_WORDS,
    _SCALES,
    _UNITS,
    NUMBER_WORDS,
    TIME_UNITS,
    _PlainNumber,
    sentence_starts_at,
    unit_named,
)
from .units import EVERY_SPAN, SHARES

DateParts = tuple[int | None, int | None, int | None]  # (year, month, day), a part None when not given


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
            elif scale == "M" and _SOLUTE.match(text, m.end("scale")) is not None:
                unit, scale = "M", None  # "1 M NaCl": molar, before its solute's formula
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
        unit2 = unit_named(u)
        if unit2 is None:
            # a cased symbol in another case ("50k pa" is per annum, no pascal): no unit, not read
            e = m.start("unit")
            while text[e - 1] in " -":
                e -= 1
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


# a chemical formula after a lone "M" (two element symbols or more, one with a small letter or a digit:
# "NaCl", "HCl", "H2SO4"): what is dissolved, so "M" is molar; elsewhere ("5 M users", "28M ago") it is not
_SOLUTE = re.compile(r"\s+(?=[A-Z0-9]*[a-z0-9])(?:[A-Z][a-z]?\d*){2,}(?![\w-])")
_HALF_A = re.compile(r"(?<![\w-])half\s+an?\s+$", re.IGNORECASE)
_PER = re.compile(r"(?:[ \t]*/[ \t]*|\s+(?P<w>per|a|an|each)\s+)(?P<den>[^\W\d_]+)(?![\w/])", re.IGNORECASE)
_PER_FIRST = frozenset("/ \t\n")
# "5 mg daily", "two times weekly": the adverb of a rate's time unit
_EVERY = re.compile(r"\s+(hourly|daily|weekly|monthly|yearly|annually)(?![\w-])", re.IGNORECASE)


def _rate(text: str, at: int) -> tuple[str, int] | None:
    """The second unit of a rate right after a unit ending at `at` ("/h", " per
    hour", " a month"), normalised, and where it ends; None when none follows."""
    m = _PER.match(text, at)
    if m is None:
        every = _EVERY.match(text, at)
        return (EVERY_SPAN[every.group(1).lower()], every.end()) if every is not None else None
    den = m.group("den").lower()
    unit = (_UNITS.get(den) or PER_UNITS.get(den)) if m.group("w") is None else _UNITS.get(den)
    if unit is None or (m.group("w") is not None and m.group("w").lower() != "per" and unit not in TIME_UNITS):
        return None
    if m.group("w") is not None and m.group("w").lower() in ("a", "an") and _BEFORE_NOW.match(text, m.end()):
        return None  # "$400 million a year earlier": a time before, not a rate
    return unit, m.end()


_BEFORE_NOW = re.compile(r"\s+(?:earlier|later|ago|before|after|previously|since|back)(?![\w-])", re.IGNORECASE)


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
