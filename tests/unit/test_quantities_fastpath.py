"""The quantity scanner's speed-ups give the same answers as the plain way.

The tries of month names, unit spellings and number words are written for the
scanner's IGNORECASE patterns with each letter as a case-sensitive class
(`scan._letter`): the engine tests such a class before entering a branch. Here
every pattern that uses them is rebuilt with the plain tries and held to the
same matches, and `extract` to the plain scan.
"""

from __future__ import annotations

import re
import string
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from cairn.meaning import phrases as PH
from cairn.meaning import quantities as Q
from cairn.meaning import scan as S

_PLAIN_MONTH_RE = (
    f"(?:{S._trie(S._MONTH_NAMES)}(?![^\\W\\d_])|{S._trie(S._MONTH_ABBRS)}(?![^\\W\\d_])\\.?)"
)
_PLAIN_UNIT_RE = S._trie(S._unit_alts).replace(r"\ ", r"\s+")
_PLAIN_NUMWORD = S._trie(set(S.NUMBER_WORDS) | {"hundred", "thousand", "million", "billion", "trillion"})


def _plain(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """`pattern` with the plain tries in place of the folded ones."""
    src = pattern.pattern
    for folded, plain in ((S._MONTH_RE, _PLAIN_MONTH_RE), (S._UNIT_RE, _PLAIN_UNIT_RE),
                          (S._NUMWORD, _PLAIN_NUMWORD)):
        src = src.replace(folded, plain)
    assert "(?-i:" not in src
    return re.compile(src, pattern.flags)


_PAIRS = [(p, _plain(p)) for p in (S._scanner(), S._START, S._number_tail(), S._DAY_TAIL)]


def test_patterns_use_folded_tries() -> None:
    for folded, plain in _PAIRS:
        assert folded.pattern != plain.pattern


def test_other_cases_are_what_ignorecase_matches() -> None:
    # every character that IGNORECASE can match with a letter is cased (or the letter itself)
    cased = [c for c in map(chr, range(0x110000)) if c.lower() != c or c.upper() != c]
    for letter in string.ascii_letters:
        folded = re.compile(S._letter(letter, True))
        want = {c for c in cased if re.fullmatch(re.escape(letter), c, re.IGNORECASE)}
        got = {c for c in cased if folded.fullmatch(c)}
        assert got == want, letter
    assert S._letter("°", True) == re.escape("°") and S._letter("a", False) == "a"


_WORDS = [
    "May", "may", "MAY", "mAy", "June", "JUNE", "Sept", "sept.", "SEP", "Dec.", "december", "Mar", "march",
    "km", "KM", "Km", "kms", "\u212am", "kg", "mg", "mph", "Mbps", "GB", "gib", "per cent", "percent", "pct",
    "%", "°C", "° c", "ºF", "degrees", "degrees Celsius", "DEG F", "h", "H", "hrs", "mins", "min", "secs",
    "\u017fec", "days", "business days", "calendar day", "weeks", "yrs", "decades", "centuries", "miles",
    "MI", "ft", "inches", "tonnes", "lbs", "oz", "ml", "litres", "bytes", "bits", "usd", "USD", "EUR", "us$",
    "US$", "$", "€", "£", "¥", "₹", "dollars", "euros", "yen", "times", "fold", "half", "third-party",
    "quarters", "tenths", "am", "p.m.", "PM", "one", "One", "ONE", "two", "twenty-one", "Forty-Five",
    "hundred", "thousand", "million", "MILLION", "billion", "bn", "mn", "k", "m", "t", "l", "g", "C", "F",
    "\u0130", "\u0131", "fIve", "f\u0131ve", "f\u0130ve", "s\u0131x", "\u017fix", "minus", "negative", "-",
    "\u2212", "\u2013", "MINUS", "Negative", "usd", "Eur", "cny", "CHF", "Bn", "MN", "K", "M", "ST", "Nd", "rD",
    "to", "and", "between", "from", "in", "out of", "every", "a", "per", "each", "of",
    "the", "version", "v", "GPLv3", "Apache", "section", "§", "RFC", "st", "nd", "rd", "th", "1930s",
    "2024-05-12", "12/05/2024", "1.2.3", "3.11", ",", ".", ";", ":", "(", ")", "/", "people", "x",
]
_NUMBERS = st.one_of(
    st.integers(0, 100000).map(str),
    st.integers(0, 9999).map(lambda n: f"{n:,}"),
    st.decimals(0, 1000, places=2).map(str),
    st.integers(1, 31).map(lambda n: f"{n}th"),
    st.sampled_from(["2024", "1999", "10-12", "3rd", "21st", "5m", "5k", "40km", "12°C", "50%", "$40", "'06",
                     "\u201906", "200ms", "5 \u00b5s", "10 nsec", "8 KiB", "two-digit",
                     "a pair of"]),
)
_TOKENS = st.one_of(st.sampled_from(_WORDS), _NUMBERS, st.text(string.ascii_letters + "0123456789.,-/$% ", max_size=6))
_TEXTS = st.lists(st.tuples(_TOKENS, st.sampled_from([" ", " ", " ", "", "  ", "\n", ", "])), max_size=14).map(
    lambda parts: "".join(t + sep for t, sep in parts))


def _same_matches(text: str) -> None:
    for folded, plain in _PAIRS:
        for pos in range(len(text) + 1):
            a, b = folded.match(text, pos), plain.match(text, pos)
            assert (a and (a.span(), a.lastgroup, a.groupdict())) == (b and (b.span(), b.lastgroup, b.groupdict()))
        found = [(m.span(), m.lastgroup) for m in folded.finditer(text)]
        assert found == [(m.span(), m.lastgroup) for m in plain.finditer(text)]


def test_folded_patterns_match_as_plain_for_every_word() -> None:
    # every word after a number, before one, and as a day's month
    for word in _WORDS:
        for text in (f"5 {word}", f"5{word} x", f"{word} 12, 2024", f"12 {word} 2024", f"the {word}-3 of"):
            _same_matches(text)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_folded_patterns_match_as_plain(text: str) -> None:
    _same_matches(text)


@settings(max_examples=300, deadline=None)
@given(_TEXTS)
def test_extract_is_the_plain_scan(text: str) -> None:
    Q.extract.cache_clear()
    norm = unicodedata.normalize("NFKC", text)
    want = Q._quantities(norm, S._scan(norm))
    if " in " in norm or " out of " in norm:
        ratios = PH._ratios(norm)
        if ratios:
            want = tuple(sorted([q for q in want if not any(r.start <= q.start < r.end for r in ratios)] + ratios,
                                key=lambda q: q.start))
    if len(want) > 1:
        want = PH._compounds(norm, want)  # "200 ms 5 µs": amounts in two units, read after the scan both ways
    if len(want) > 1 and (" or " in norm or " and " in norm or ", " in norm):
        want = PH._listed_units(norm, want)  # a list's unit, read after the scan on both ways alike
    assert Q.extract(text) == want
