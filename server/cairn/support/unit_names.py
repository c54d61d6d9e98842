"""Unit spellings: every way a text writes a unit, and the unit it stands for ("kilometres",
"km" and "kms" are all "km"). The quantity rule reads numbers with them (cairn.meaning.scan)
and the name rule leaves them out of names (cairn.support.names), so they sit on the lower floor.
"""

from __future__ import annotations

# unit spellings -> normalised unit; matched case-insensitively unless listed in _CASED
UNITS: dict[str, str] = {}
# SI symbols that differ from another unit's only by case ("mM" millimolar, "mm" millimetre; "mW"
# milliwatt, "MW" megawatt; "Mb" megabit, "MB" megabyte; "Pa" pascal, "pa" per annum): the exact
# spelling -> its unit. Any other casing is read as the case-insensitive spelling reads (UNITS), and
# a spelling only this table holds is no unit in another case ("pa", "um")
CASED_UNITS: dict[str, str] = {}


def _unit(norm: str, *spellings: str) -> None:
    for s in spellings:
        UNITS[s] = norm


_unit("°C", "°c", "° c", "ºc", "degrees celsius", "degree celsius", "degrees centigrade", "deg c", "celsius")
_unit("°F", "°f", "° f", "ºf", "degrees fahrenheit", "degree fahrenheit", "deg f", "fahrenheit")
_unit("°", "°", "degrees", "degree", "deg")
_unit("%", "%", "percent", "per cent", "pct")
_unit("percentage point", "percentage points", "percentage point", "pp")
_unit("basis point", "basis points", "basis point")  # a hundredth of a percentage point
_unit("second", "seconds", "second", "secs", "sec")
# the fractions of a second that timers, timeouts and latencies are given in ("a 200 millisecond ceiling")
_unit("millisecond", "ms", "milliseconds", "millisecond", "msec", "msecs")
_unit("microsecond", "\u03bcs", "microseconds", "microsecond", "usec", "usecs")  # (NFKC makes µ the Greek μ)
_unit("nanosecond", "ns", "nanoseconds", "nanosecond", "nsec", "nsecs")
_unit("minute", "minutes", "minute", "mins", "min")
_unit("hour", "hours", "hour", "hrs", "hr", "h")
_unit("day", "days", "day", "business days", "business day", "working days", "working day",
      "calendar days", "calendar day")
_unit("week", "weeks", "week", "wks", "wk")
_unit("month", "months", "month")
_unit("year", "years", "year", "yrs", "yr")
_unit("decade", "decades", "decade")
_unit("century", "centuries", "century")
_unit("mm", "mm", "millimetres", "millimetre", "millimeters", "millimeter")
_unit("cm", "cm", "centimetres", "centimetre", "centimeters", "centimeter")
_unit("m", "metres", "metre", "meters", "meter")
_unit("km", "km", "kilometres", "kilometre", "kilometers", "kilometer", "kms")
_unit("mile", "miles", "mile", "mi")
_unit("yard", "yards", "yard", "yds", "yd")
_unit("nautical mile", "nautical miles", "nautical mile", "nmi")
_unit("ha", "ha", "hectares", "hectare")
_unit("acre", "acres", "acre")
_unit("m²", "m²", "m2", "sq m", "square metres", "square metre", "square meters", "square meter")
_unit("km²", "km²", "km2", "sq km", "square kilometres", "square kilometre", "square kilometers",
      "square kilometer")
_unit("sq mi", "sq mi", "square miles", "square mile")
_unit("sq ft", "sq ft", "ft²", "square feet", "square foot")
_unit("ft", "feet", "foot", "ft")
_unit("inch", "inches", "inch")
_unit("mg", "mg", "milligrams", "milligram")
_unit("g", "grams", "gram", "gr")
_unit("\u03bcg", "\u03bcg", "mcg", "micrograms", "microgram")
_unit("kg", "kg", "kilograms", "kilogram", "kilos", "kgs")
_unit("t", "tonnes", "tonne", "tons", "ton")
_unit("lb", "lb", "lbs", "pounds weight")
_unit("cup", "cups", "cup")  # the kitchen's measures (US customary)
_unit("tbsp", "tbsp", "tablespoons", "tablespoon")
_unit("tsp", "tsp", "teaspoons", "teaspoon")
_unit("oz", "oz", "ounces", "ounce")
_unit("ml", "ml", "millilitres", "millilitre", "milliliters", "milliliter")
_unit("\u03bcl", "\u03bcl", "microlitres", "microlitre", "microliters", "microliter")  # µL (NFKC: μL)
_unit("l", "litres", "litre", "liters", "liter")
_unit("\u03bcm", "\u03bcm", "micrometres", "micrometre", "micrometers", "micrometer", "microns", "micron")
# molar concentration (moles of solute per litre: "mmol/L" is "mM") and amounts of substance; the
# symbols are cased (CASED_UNITS): "mM" is not "mm". A lone "M" is molar only before its solute (figures)
_unit("M", "molar", "mol/l", "mol/litre", "mol/liter", "moles per litre", "moles per liter", "mol/dm3")
_unit("mM", "millimolar", "mmol/l", "mmol/litre", "mmol/liter", "millimoles per litre", "millimoles per liter")
_unit("\u03bcM", "micromolar", "\u03bcmol/l", "umol/l", "\u03bcmol/litre", "micromoles per litre",
      "micromoles per liter")
_unit("nM", "nanomolar", "nmol/l", "nmol/litre", "nanomoles per litre", "nanomoles per liter")
_unit("pM", "picomolar", "pmol/l", "picomoles per litre", "picomoles per liter")
_unit("mol", "mol", "moles")
_unit("mmol", "mmol", "millimoles", "millimole")
_unit("\u03bcmol", "\u03bcmol", "umol", "micromoles", "micromole")
_unit("nmol", "nmol", "nanomoles", "nanomole")
# pressure: "Pa" is cased ("pa" is per annum); a millibar is a hectopascal
_unit("hPa", "hpa", "hectopascals", "hectopascal", "mbar", "millibars", "millibar")
_unit("kPa", "kpa", "kilopascals", "kilopascal")
_unit("MPa", "mpa", "megapascals", "megapascal")
_unit("Pa", "pascals", "pascal")
_unit("byte", "bytes", "byte")
_unit("KB", "kb", "kilobytes", "kilobyte", "kib")
_unit("MB", "mb", "megabytes", "megabyte", "mib")
_unit("GB", "gb", "gigabytes", "gigabyte", "gib")
_unit("TB", "tb", "terabytes", "terabyte", "tib")
_unit("W", "watts", "watt")  # "60 W": a lone letter (_LONE_LETTERUNITS)
_unit("kW", "kw", "kilowatts", "kilowatt")
_unit("MW", "mw", "megawatts", "megawatt")
_unit("mW", "milliwatts", "milliwatt")
_unit("GW", "gw", "gigawatts", "gigawatt")
_unit("Wh", "wh", "watt-hours", "watt-hour", "watt hours", "watt hour")
_unit("kWh", "kwh", "kilowatt-hours", "kilowatt-hour", "kilowatt hours", "kilowatt hour")
_unit("MWh", "mwh", "megawatt-hours", "megawatt-hour", "megawatt hours", "megawatt hour")
_unit("GWh", "gwh", "gigawatt-hours", "gigawatt-hour", "gigawatt hours", "gigawatt hour")
_unit("bit", "bits", "bit")
_unit("kbit", "kbit", "kbits", "kilobits", "kilobit")
_unit("Mbit", "mbit", "mbits", "megabits", "megabit")
_unit("Gbit", "gbit", "gbits", "gigabits", "gigabit")
CASED_UNITS.update({"mM": "mM", "\u03bcM": "\u03bcM", "uM": "\u03bcM", "nM": "nM", "pM": "pM",
                    "mW": "mW", "Mb": "Mbit", "Pa": "Pa"})
# rates written as one word: the same units as "km/h", "bit/s" (_number reads those)
_unit("mile/hour", "mph")
_unit("km/hour", "kph", "kmh", "kmph")
_unit("nautical mile/hour", "knots", "knot", "kn")  # a knot is a nautical mile an hour
_unit("bit/second", "bps")
_unit("kbit/second", "kbps")
_unit("Mbit/second", "mbps")
_unit("Gbit/second", "gbps")
_unit("USD", "usd", "us$", "dollars", "dollar", "bucks", "buck")  # "bucks": informal dollars
_unit("EUR", "eur", "euros", "euro")
_unit("GBP", "gbp", "pounds sterling", "sterling", "quid")  # "quid": informal pounds
_unit("JPY", "jpy", "yen")
_unit("times", "times", "fold")
# a fraction after a count is a unit of it: "one third" is 1 third, not the count 1 ("less than one
# third" is not "less than one half"); BASE in units.py converts them ("one half" = "two quarters")
_unit("half", "half", "halves")
_unit("third", "thirds", "third")
_unit("quarter", "quarters", "quarter")
for _n in ("fifth", "sixth", "seventh", "eighth", "ninth", "tenth"):
    _unit(_n, _n, _n + "s")
_unit("am", "am", "a.m.", "a.m")
_unit("pm", "pm", "p.m.", "p.m")
# the second unit of a rate, after "/" ("km/h", "mg/kg", "L/min"): any unit spelling, and the
# letters that stand for a unit of time there only
PER_UNITS: dict[str, str] = {"h": "hour", "s": "second", "min": "minute", "d": "day", "yr": "year", "wk": "week"}
