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

The scan is here (`extract`): the scanner's matches (cairn.meaning.scan) read
one by one as numbers, dates and identifiers (cairn.meaning.figures), then
together and with the words around them (cairn.meaning.phrases).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from .figures import _PERIOD_PART, _date, _ident, _month, _month_part, _number, _period, _reference_before, _year
from .phrases import _may_read_words, _ranges, _whole
from .quantity import Quantity
from .scan import (
    _CURRENCY_CODES,
    _LONE_LETTER_UNITS,
    _UNITS,
    _candidates,
    _PlainNumber,
    _scan_chunks,
)

__all__ = ["NumberMismatch", "Quantity", "extract"]


@dataclass(frozen=True, slots=True)
class NumberMismatch:
    claim: str  # the claim's side, as written
    quotes: str  # what the quotes (or the source) say instead
    kind: str  # "number", "range", "date", "identifier"
    where: str = "quotes"  # "quotes" or "source" (an identifier checked against the chunk and title)

    @property
    def message(self) -> str:
        return f"claim says {self.claim}; {self.where} say{'s' if self.where == 'source' else ''} {self.quotes}"


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
            if g == "dmy" and m.group("dm").islower() and m.group("dm").lower() == "may" and not m.group("dy"):
                # "under 18 may enter": the modal after a number, not the month
                out.append(Quantity("number", m.group("dd"), m.start("dd"), m.end("dd"), value=Decimal(m.group("dd"))))
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
                                ident=_ident(m.group("up"))))
            if m.group("rev"):  # a Debian revision (`-4.1`): compared with another revision only
                out.append(Quantity("identifier", m.group("rev"), m.start("rev"), m.end("rev"), name="revision",
                                    ident=_ident(m.group("rev"))))
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
