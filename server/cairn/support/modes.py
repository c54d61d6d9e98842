"""The rules a mode adds to the SPEC's seed tokenisation, and the modes.

- ``seed``: the SPEC's rule, word for word (no rules).
- ``calibrated``: the seed rule plus general normalisations of form that real
  claims and their sources disagree on (dates, ordinals, percent, accents,
  inflections, compounds, contractions). Each rule and its measured effect
  is in docs/support.md; ``weight`` (names and numbers count double) and
  ``light_stem`` were measured and are not in it.

A mode's rules are a frozenset of the names in RULES; the code asks
``"stem" in rules``. The seed rule's set is empty.
"""

from __future__ import annotations

from collections.abc import Iterable

RULES: dict[str, str] = {
    "dates": "ISO dates give the month's name (2010-09-29 = 29 September 2010); a year range's "
    "short end is a year (2018-19 = 2018 to 2019); month abbreviations next to a number are "
    "the month (Sept. 29 = September 29), and so is May next to a number",
    "ordinal": "a numeral's ordinal suffix is dropped (29th = 29, 3rd = 3)",
    "percent": "% = percent = per cent",
    "units": "a unit written short after a number is spelled out (90 km/h = 90 kilometres an hour, 5 kg = 5 "
    "kilograms, 10 Gbps = 10 gigabits a second)",
    "fold": "Latin accents are folded (Hernández = Hernandez)",
    "negation": "n't is not (didn't = did not), cannot = can not",
    "negators": "the words of plain negation are one word for the score: not = no = never = none = nor = "
    "neither = without (what the negation governs is the polarity rule's)",
    "stem": "Porter's stemmer: inflections and common derivations meet (released = releasing, "
    "congratulated = congratulations)",
    "light_stem": "a light stemmer instead, inflections only (measured, not adopted)",
    "compound": "a part of a hyphenated compound is also found when the quote writes the compound "
    "solid, and a solid word when the quote hyphenates it (ibero-american = iberoamerican); "
    "twenty-four = 24",
    "scale": "a numeral before hundred, thousand, million, billion or trillion is one number "
    "(1.5 million = 1,500,000), and a quote still offers its parts; billion and trillion are "
    "number words like million",
    "version": "a v glued between a name and its number abbreviates version: GPLv3 = GPL v3 = GPL 3",
    "weight": "numbers and capitalised words inside a sentence (names) weigh 2",
    "sentence": "a claim's word that no quote holds but the quote's own sentence in the source does counts "
    "half (a quoted fragment is read in its sentence; the rest of the chunk does not count)",
    "titles": "a claim's word that no quote holds but a cited source's title does (its file name and first "
    "line) names that source and is left out of the score (Under the Apache License, ...)",
    "names": "support fails when the claim, between words it shares with a quote, names one thing where "
    "the quote names another (Solaris for macOS, .VARIABLES for .FEATURES; support/names.py)",
}

# The weight of a number or a name under the rule "weight". Not fitted: 2 is
# the plain "counts double"; bench/support_modes.py shows 1.5 and 3 do about as
# well. The bench sets it here (modes.WEIGHT), so it is read as modes.WEIGHT.
WEIGHT = 2.0

MODE_RULES: dict[str, frozenset[str]] = {
    "seed": frozenset(),
    "calibrated": frozenset(RULES) - {"light_stem", "weight"},
}
MODES: tuple[str, ...] = tuple(MODE_RULES)
DEFAULT_MODE: str = "calibrated"


def rules_of(mode: str) -> frozenset[str]:
    try:
        return MODE_RULES[mode]
    except KeyError:
        raise ValueError(f"unknown support mode {mode!r}; expected one of: {', '.join(MODES)}") from None


def register_mode(name: str, rules: Iterable[str]) -> None:
    """Make an experimental rule set selectable (bench/support_modes.py); not in MODES."""
    rules = frozenset(rules)
    unknown = rules - RULES.keys()
    if unknown:
        raise ValueError(f"unknown rules: {sorted(unknown)}")
    MODE_RULES[name] = rules
