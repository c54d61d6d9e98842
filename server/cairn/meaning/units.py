"""When two numbers name the same amount: units that can stand for each
other, conversions between units of one dimension, and the latitude a
hedge ("about", "roughly") gives a round figure. The quantity rule reads
numbers (cairn.meaning.quantities) and asks these questions of them when it
compares a claim's with its quotes' (cairn.meaning.backing).

Within one system of units the ratios are exact, and so must the figures be
("2 weeks" is 14 days, not 15). Between metric and imperial units, and
between the two temperature scales, whoever wrote a converted figure
rounded it, so a claim's figure is read to the precision it is written to.
"""

from __future__ import annotations

import re
from decimal import Decimal

from .quantity import Quantity

__all__ = ["BASE", "EVERY_SPAN", "SHARES", "SPAN_LENGTH", "converts", "hedged", "hedged_rounding", "in_words", "rounds_to", "same_unit"]


# the adverbs and adjectives of a span of time and the span each names ("monthly": once a month)
EVERY_SPAN = {"hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "fortnightly": "fortnight",
              "monthly": "month", "quarterly": "quarter", "yearly": "year", "annual": "year", "annually": "year"}
# spans of time that hold a whole number of each other, in two families (a month holds no whole number of days):
# the family and the length in its smallest span
SPAN_LENGTH = {"minute": ("t", 1), "hour": ("t", 60), "day": ("t", 1440), "week": ("t", 10080),
               "month": ("c", 1), "quarter": ("c", 3), "year": ("c", 12), "annum": ("c", 12)}


def same_unit(a: str | None, b: str | None) -> bool:
    """Whether two units can name the same amount: the same unit, or one side
    without a unit; degrees without a scale against either scale; a rate
    ("km/hour") against its first unit alone ("km"), since a text often gives
    the rate's second unit once for several numbers; two rates only with both
    units the same."""
    if a is None or b is None or a == b:
        return True
    if {a, b} in ({"°", "°C"}, {"°", "°F"}):
        return True  # "5 degrees" names no scale: either one's
    if "/" in a or "/" in b:
        a1, _, a2 = a.partition("/")
        b1, _, b2 = b.partition("/")
        return a1 == b1 and not (a2 and b2)
    return False


# units of one dimension with exact factors to a common base: "2.5 minutes" is "150 seconds"
BASE: dict[str, tuple[str, Decimal]] = {
    "nanosecond": ("time", Decimal("1e-9")), "microsecond": ("time", Decimal("1e-6")),
    "millisecond": ("time", Decimal("0.001")), "second": ("time", Decimal(1)), "minute": ("time", Decimal(60)), "hour": ("time", Decimal(3600)),
    "day": ("time", Decimal(86400)), "week": ("time", Decimal(604800)),
    "mm": ("length", Decimal("0.001")), "cm": ("length", Decimal("0.01")), "m": ("length", Decimal(1)),
    "km": ("length", Decimal(1000)), "inch": ("length", Decimal("0.0254")), "ft": ("length", Decimal("0.3048")),
    "yard": ("length", Decimal("0.9144")), "mile": ("length", Decimal("1609.344")), "nautical mile": ("length", Decimal(1852)),
    "m²": ("area", Decimal(1)), "ha": ("area", Decimal(10000)), "km²": ("area", Decimal(10**6)),
    "sq ft": ("area", Decimal("0.09290304")), "acre": ("area", Decimal("4046.8564224")),
    "sq mi": ("area", Decimal("2589988.110336")),
    "\u03bcg": ("mass", Decimal("1e-6")), "mg": ("mass", Decimal("0.001")), "g": ("mass", Decimal(1)), "kg": ("mass", Decimal(1000)),
    "t": ("mass", Decimal(1000000)), "lb": ("mass", Decimal("453.59237")), "oz": ("mass", Decimal("28.349523125")),
    "\u03bcl": ("volume", Decimal("1e-6")), "ml": ("volume", Decimal("0.001")), "l": ("volume", Decimal(1)), "cup": ("volume", Decimal("0.2365882365")),
    "tbsp": ("volume", Decimal("0.01478676478125")), "tsp": ("volume", Decimal("0.00492892159375")),
    "\u03bcm": ("length", Decimal("1e-6")),
    # molar concentration (mol/L) and amount of substance, in metric steps: 1 mM is 1,000 µM
    "M": ("concentration", Decimal(1)), "mM": ("concentration", Decimal("1e-3")),
    "\u03bcM": ("concentration", Decimal("1e-6")), "nM": ("concentration", Decimal("1e-9")),
    "pM": ("concentration", Decimal("1e-12")),
    "mol": ("substance", Decimal(1)), "mmol": ("substance", Decimal("1e-3")), "\u03bcmol": ("substance", Decimal("1e-6")),
    "nmol": ("substance", Decimal("1e-9")),
    "Pa": ("pressure", Decimal(1)), "hPa": ("pressure", Decimal(100)), "kPa": ("pressure", Decimal(1000)),
    "MPa": ("pressure", Decimal(10**6)),
    "mW": ("power", Decimal("0.001")), "W": ("power", Decimal(1)), "kW": ("power", Decimal(10**3)), "MW": ("power", Decimal(10**6)),
    "GW": ("power", Decimal(10**9)),
    "Wh": ("energy", Decimal(1)), "kWh": ("energy", Decimal(10**3)), "MWh": ("energy", Decimal(10**6)),
    "GWh": ("energy", Decimal(10**9)),
    # sizes of data: the binary multiples (a kibibyte is 1,024 bytes); "KB" is read as "KiB" is, and a
    # figure in decimal multiples is a rounding of it (converts reads data as rounded)
    "byte": ("data", Decimal(1)), "KB": ("data", Decimal(1024)), "MB": ("data", Decimal(1024**2)),
    "GB": ("data", Decimal(1024**3)), "TB": ("data", Decimal(1024**4)),
    "percentage point": ("rate points", Decimal(1)), "basis point": ("rate points", Decimal("0.01")),
    # months and years: no number of days (a month has 28 to 31, a year 365 or 366) but twelve
    # months to the year, always ("24 months" is "2 years"; "4 weeks" is not "a month")
    "month": ("calendar", Decimal(1)), "year": ("calendar", Decimal(12)),
}


# the share a fraction word names, in percent: the quantity rule reads "two thirds" as 66.7 %, "one
# half" as 50 %, so a share compares with a percentage and another fraction
SHARES: dict[str, Decimal] = {w: Decimal(100) / n for n, w in enumerate(
    "half third quarter fifth sixth seventh eighth ninth tenth".split(), 2)}
_SHARE_WORD = re.compile("(?i)" + "|".join([*SHARES, "halves"]))


def in_words(q: Quantity) -> bool:
    """Whether `q` is a share written as a fraction (`half`, `two thirds`):
    a round figure by nature, as a hedged one is."""
    return q.unit == "%" and not q.text[:1].isdigit() and _SHARE_WORD.search(q.text) is not None


# the system of units each non-metric unit belongs to (imperial and US customary; nautical): a figure
# converted between systems is rounded by whoever wrote it; within one system the ratios are exact and so
# are the figures
_SYSTEM = {**dict.fromkeys(("inch", "ft", "yard", "mile", "lb", "oz", "cup", "tbsp", "tsp", "sq ft", "acre", "sq mi"),
                           "imperial"),
           "nautical mile": "nautical"}


def converts(claim: Quantity, quoted: Quantity) -> bool:
    """Whether a claim's number states a quote's amount in another unit of
    the same dimension. Within one system of units the ratios are exact and
    the amount must be too (`2 weeks` is 14 days, not 15). Between metric
    and imperial units, and between °C and °F (by their offset as well as
    their ratio), a converted figure is rounded by whoever wrote it: the
    quote's amount, converted into the claim's unit, must round to the
    claim's figure at the precision it is written to (`rounds_to`), so
    `26.2 miles` backs `42 km` and `350 °F` backs `180 °C`."""
    a, b = claim, quoted
    if a.unit is None or b.unit is None or a.value is None or b.value is None or a.unit == b.unit:
        return False
    if {a.unit, b.unit} == {"°C", "°F"}:
        return rounds_to((b.value - 32) * 5 / 9 if b.unit == "°F" else b.value * 9 / 5 + 32, a.value)
    amount = amount_in(b, a.unit)
    if amount is None:
        return False
    if _SYSTEM.get(a.unit.partition("/")[0], "metric") == _SYSTEM.get(b.unit.partition("/")[0], "metric") \
            and BASE.get(a.unit, ("",))[0] != "data":
        return amount == a.value
    return rounds_to(amount, a.value)


def amount_in(q: Quantity, unit: str | None) -> Decimal | None:
    """A number's amount in another unit of its dimension (BASE); None when
    the two do not convert. Two rates over the same unit convert by their
    first units (`155 mph` is 249.4 km/h)."""
    mine, _, per = (unit or "").partition("/")
    theirs, _, their_per = (q.unit or "").partition("/")
    if per != their_per:
        return None
    x, y = BASE.get(mine), BASE.get(theirs)
    if x is None or y is None or x[0] != y[0] or q.value is None:
        return None
    return q.value * y[1] / x[1]


# a hedge right before a claim's number: the writer gives it as a rounding ("about 3 km", "some 1,200 staff")
_HEDGE = re.compile(r"(?<![\w-])(?:about|around|roughly|approximately|approx\.|nearly|almost|some|circa|c\.|~)\s*$",
                    re.IGNORECASE)


def hedged(text: str, start: int) -> bool:
    """Whether the number that opens at `start` in `text` follows a hedge ("about", "roughly", …)."""
    return _HEDGE.search(text, max(0, start - 20), start) is not None


def hedged_rounding(claim: Quantity, quoted: Quantity) -> bool:
    """Whether a hedged claim's number ("about 3 km") gives the quote's
    amount, in the same unit or converted: the amount rounds to it at the
    precision it is written to (`rounds_to`), or lies within a tenth of it,
    the latitude "about" gives a round figure ("roughly 500" for 512,
    "about 50%" for 47%; not "about 30 days" for 45)."""
    if claim.value is None or quoted.value is None:
        return False
    if same_unit(claim.unit, quoted.unit):
        amount = quoted.value
    elif {claim.unit, quoted.unit} == {"°C", "°F"}:
        return converts(claim, quoted)  # a tenth of a temperature depends on its scale's zero
    else:
        converted = amount_in(quoted, claim.unit)
        if converted is None:
            return False
        amount = converted
    return rounds_to(amount, claim.value) or abs(amount - claim.value) <= abs(claim.value) / 10


def rounds_to(x: Decimal, written: Decimal) -> bool:
    """Whether `x` rounds to `written` at the precision `written` shows: its
    last decimal; for a whole number, its last digit that is not a trailing
    zero, but never coarser than two significant figures (`180` is to the
    nearest ten, `1,200` to the nearest hundred, `100` to the nearest ten)."""
    _, digits, exponent = written.as_tuple()
    if not isinstance(exponent, int):
        return False  # not a finite number (the scanner reads none; nothing rounds to one)
    if exponent >= 0 and any(digits):
        trailing = len(digits) - len("".join(map(str, digits)).rstrip("0"))
        exponent += max(0, min(trailing, len(digits) - 2))
    return abs(x - written) <= Decimal(5).scaleb(exponent - 1)
