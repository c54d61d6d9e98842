"""A quantity as the quantity rule reads it from a text: a number, a range, a date or an
identifier, where it was written and what it says (cairn.meaning.quantities reads them;
cairn.meaning.units compares them).
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple


class Quantity(NamedTuple):
    kind: str  # "number", "range", "date", "identifier"
    text: str  # as written
    start: int
    end: int
    value: Decimal | None = None  # a number's signed value; a range's low end
    high: Decimal | None = None  # a range's high end
    unit: str | None = None  # normalised unit, e.g. "°C", "%", "day", "USD"
    date: tuple[int | None, int | None, int | None] | None = None  # (year, month, day)
    name: str | None = None  # an identifier's name ("version", "apache", "gpl")
    ident: tuple[int, ...] | None = None  # an identifier's number, trailing zeros dropped
