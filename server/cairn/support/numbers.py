"""Numerals: the SPEC's number pattern and a numeral's canonical key."""

from __future__ import annotations

import unicodedata

# SPEC: numbers are \d{1,3}(,\d{3})+(\.\d+)? or \d+(\.\d+)?. The (?!\d) keeps
# "1,0000" from reading as "1,000" followed by "0".
NUMBER = r"\d{1,3}(?:,\d{3}(?!\d))+(?:\.\d+)?|\d+(?:\.\d+)?"


def number_key(text: str) -> str:
    """The canonical form of a numeral: 1,000 -> 1000, 14.0 -> 14, 007 -> 7.

    String arithmetic, not floats, so 20-digit numbers keep every digit.
    Unicode decimal digits are read by value.
    """
    if text.isascii():
        digits = text.replace(",", "")
    else:
        digits = "".join(
            c if "0" <= c <= "9" else (str(unicodedata.decimal(c)) if c.isdecimal() else c)
            for c in text
            if c != ","
        )
    whole, _, frac = digits.partition(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return f"{whole}.{frac}" if frac else whole


def scaled(key: str, zeros: int) -> str:
    """key times 10**zeros, by moving the decimal point (exact)."""
    whole, _, frac = key.partition(".")
    frac = frac.ljust(zeros, "0")
    rest = frac[zeros:]
    return number_key(whole + frac[:zeros] + (f".{rest}" if rest else ""))
