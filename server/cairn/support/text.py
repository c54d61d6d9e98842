"""A text's entries and tokens: the text split at whitespace, each chunk's
entry made on first sight and kept (per rule set and modes.WEIGHT), and what
crosses chunks joined per text.

A new claim is mostly made of chunks seen before, so reading it costs a
str.split() and a dict look-up per chunk. Most texts are made only of simple
chunks (one plain token): for them the claim's content and the quote's keys
are read off the entries directly (scoring.py); any other text goes through
its tokens (``tokens_of``), as a one-pass tokeniser reads them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from . import modes
from .chunks import E_OPENING, E_TRAIL_CLEAN, E_TRAIL_END, Complex, Entry, Expanded, Many, Simple, chunk_entry
from .modes import rules_of
from .numbers import scaled
from .stemming import stemmer_for
from .tokenise import T_CONTENT, T_KEY, T_NUMBER, T_OFFERS, T_TEXT, T_WEIGHT, Tok, Token, tok
from .words import MONTH_ABBR, SCALES, chunks

_CHUNK_CACHE_MAX = 100_000  # entries per cache; a full cache is emptied

_NT = re.compile(r"(?<=[^\W\d_])n['\u2019]t(?![^\W\d_])", re.IGNORECASE)
_NT_SPECIAL = re.compile(r"\b(can|won|shan)['\u2019]t\b|\b(can)(not)\b", re.IGNORECASE)
_NT_BASE = {"can": "can", "won": "will", "shan": "shall"}
# a per cent sign is "percent" after a number only (`50%`, `50 %`); elsewhere it is code (`%-N`, `%d`)
# and, like any other sign, no token
_PERCENT = re.compile(r"(?<=\d)\s?%|\bper\s+cent\b", re.IGNORECASE)
_PERCENT_SIGN = re.compile(r"(?<=\d)\s?%")


# units written short after a number, spelled out for the score (the rule "units"): `90 km/h` meets `90
# kilometres an hour`, `5 kg` meets `5 kilograms` (the stemmer joins singular and plural). Not the one-letter
# units but litres: `5 m` may be millions, `1990s` a decade, `5 h` an hour or a typo
_UNIT_SHORT = re.compile(
    r"(\d)\s?(km|cm|mm|kg|mg|ml|hrs?|mins?|secs?|mph|kph|kmh|kwh|kw|[kmgt]bps|[kmgt]b|lbs?|l)"
    r"(?:/(h|hr|s|sec|min|d|day|yr))?(?![\w/])", re.IGNORECASE)
_UNIT_WORDS = {
    "km": "kilometre", "cm": "centimetre", "mm": "millimetre", "kg": "kilogram", "mg": "milligram",
    "ml": "millilitre", "l": "litre", "hr": "hour", "hrs": "hour", "h": "hour", "min": "minute", "mins": "minute",
    "sec": "second", "secs": "second", "s": "second", "d": "day", "day": "day", "yr": "year", "mph": "mile hour",
    "kph": "kilometre hour", "kmh": "kilometre hour", "kwh": "kilowatt hour", "kw": "kilowatt",
    "kbps": "kilobit second", "mbps": "megabit second", "gbps": "gigabit second", "tbps": "terabit second",
    "kb": "kilobyte", "mb": "megabyte", "gb": "gigabyte", "tb": "terabyte", "lb": "pound", "lbs": "pound",
}


def _spell_units(text: str) -> str:
    return _UNIT_SHORT.sub(
        lambda m: m[1] + " " + _UNIT_WORDS[m[2].lower()] + (" " + _UNIT_WORDS[m[3].lower()] if m[3] else "") + " ",
        text)


def _expand(text: str, rules: frozenset[str]) -> str:
    if "units" in rules:
        text = _spell_units(text)
    if "negation" in rules and ("'" in text or "\u2019" in text or "nnot" in text.lower()):
        text = _NT_SPECIAL.sub(lambda m: f"{_NT_BASE[(m[1] or m[2]).lower()]} not", text)
        text = _NT.sub(" not", text)
    if "percent" in rules and ("%" in text or "cent" in text.lower()):
        text = _PERCENT.sub(" percent ", text)
    return text


# A text's expansions are made cheaply when they can be: "%" is replaced
# in the whole text, and the negations per chunk, on a chunk's first sight
# (_expand_chunk): their patterns never reach across whitespace. A text that
# may hold "per cent", which does, is expanded whole by _expand instead.


def _expands_whole(text: str, rules: frozenset[str]) -> bool:
    if "percent" not in rules:
        return False
    low = text.lower()
    return "cent" in low and "per" in low


def _expand_chunk(chunk: str, rules: frozenset[str]) -> str:
    if "negation" in rules and ("'" in chunk or "\u2019" in chunk or "nnot" in chunk.lower()):
        chunk = _NT_SPECIAL.sub(lambda m: f"{_NT_BASE[(m[1] or m[2]).lower()]} not", chunk)
        chunk = _NT.sub(" not", chunk)
    return chunk


class _Caches:
    """The kept entries of one rule set and WEIGHT, by chunk."""

    __slots__ = ("simple", "other", "as_is", "expanding")

    def __init__(self) -> None:
        self.simple: dict[str, Simple] = {}
        self.other: dict[str, Many | Complex | Expanded] = {}
        self.as_is: dict[str, Simple | Many | Complex] = {}  # of the expanding chunks, read as they are
        self.expanding: dict[str, None] = {}  # the chunks _expand_chunk changes

    def clear(self) -> None:
        for d in (self.simple, self.other, self.as_is, self.expanding):
            d.clear()


def _lookup(chunk: str, rules: frozenset[str], caches: _Caches, expand: bool) -> Entry | Many:
    """A chunk's entry, made on first sight and kept in ``caches``. When
    ``expand`` and _expand_chunk changes the chunk, its entry is that of the
    chunks it becomes (a Many when they are all simple, else an Expanded).

    Most entries are Simple, plain tuples of strings, numbers and tuples,
    which the garbage collector stops tracking: a large cache costs its
    collections little (tokenise.py)."""
    e = caches.simple.get(chunk) or caches.other.get(chunk)
    if e is None:
        expanded = _expand_chunk(chunk, rules) if rules else chunk
        if expanded != chunk:
            caches.expanding[chunk] = None
            parts: list[Simple | Complex] = []
            for p in expanded.split():
                e = _lookup(p, rules, caches, False)
                if type(e) is Many:
                    parts += e
                else:
                    parts.append(e)
            if all([type(p) is Simple for p in parts]):
                e = Many(parts)
            else:
                e = Expanded(tuple(parts), any([type(p) is Complex and p.changes for p in parts]))
        else:
            e = chunk_entry(chunk, rules)
        cache = caches.simple if type(e) is Simple else caches.other
        if len(cache) >= _CHUNK_CACHE_MAX:
            caches.clear()
        cache[chunk] = e
    if not expand and chunk in caches.expanding:  # a chunk _expand_chunk changes, as it is
        e = caches.as_is.get(chunk)
        if e is None:
            e = caches.as_is[chunk] = chunk_entry(chunk, rules)
    return e


# The kinds of a text's entries: all Simple; no token changes with what
# surrounds it; a token may.
ALL_SIMPLE, FIXED, CROSSING = 0, 1, 2

_CHUNK_CACHES: dict[tuple[frozenset[str], float], _Caches] = {}  # by (rules, modes.WEIGHT)


def clear_chunk_caches() -> None:
    _CHUNK_CACHES.clear()


def entries_of(text: str, rules: frozenset[str]) -> tuple[list[Entry], int]:
    """The entries of the text's chunks (after NFKC, and case folding for the
    seed rule), and their kind: ALL_SIMPLE, FIXED or CROSSING."""
    expand = bool(rules)
    if rules:
        if not text.isascii():
            text = unicodedata.normalize("NFKC", text)
        if _expands_whole(text, rules):
            text, expand = _expand(text, rules), False
        else:
            if "units" in rules:
                text = _spell_units(text)
            if "%" in text and "percent" in rules:
                text = _PERCENT_SIGN.sub(" percent ", text)
    else:
        text = text.lower() if text.isascii() else unicodedata.normalize("NFKC", text).casefold()
    caches = _CHUNK_CACHES.get((rules, modes.WEIGHT))
    if caches is None:
        caches = _CHUNK_CACHES[(rules, modes.WEIGHT)] = _Caches()
    parts = chunks(text)
    entries = list(map(caches.simple.get, parts))
    # all(), not "None in": an entry is always true, and "in" would call its __eq__.
    if all(entries):
        return entries, ALL_SIMPLE
    found = [i for i, e in enumerate(entries) if e is None]
    kind = ALL_SIMPLE
    for i in reversed(found):  # from the end: a Many changes the places after it
        e = _lookup(parts[i], rules, caches, expand)
        if type(e) is Many:
            entries[i : i + 1] = e
        else:
            entries[i] = e
            if type(e) is not Simple:
                kind = CROSSING if e.changes else max(kind, FIXED)
    return entries, kind


def _tokenise(text: str, rules: frozenset[str]) -> tuple[list[Tok], bool]:
    """The tokens of ``text``, and whether one of them offers extra keys."""
    return tokens_of(entries_of(text, rules)[0], rules)


def tokens_of(entries: list[Entry], rules: frozenset[str]) -> tuple[list[Tok], bool]:
    """The tokens of a text's entries, and whether one of them offers extra keys."""
    out: list[Tok] = []
    flags = _Flags()
    _join(entries, out, True, False, flags)
    if flags.month:
        _months(out, stemmer_for(rules))
    return out, flags.offers


class _Flags:
    """What _join saw in the chunks it joined."""

    __slots__ = ("month", "offers")

    def __init__(self) -> None:
        self.month = False  # a token may be a month
        self.offers = False  # a token offers extra keys


def _join(entries: Sequence[Entry], out: list[Tok], pending: bool, clean: bool, flags: _Flags) -> tuple[bool, bool]:
    """Append the tokens of the chunks of ``entries`` to ``out``, with what
    crosses chunks. pending: a sentence ended in the gap since the last token
    (the first token opens a sentence); clean: that gap is whitespace only."""
    for e in entries:
        if type(e) is Simple:
            out.append(e if not pending or e[E_OPENING] is None else e[E_OPENING])
            pending, clean = e[E_TRAIL_END], e[E_TRAIL_CLEAN]
            continue
        if type(e) is Expanded:
            pending, clean = _join(e.parts, out, pending, clean, flags)
            continue
        crossing = e.crossing
        if crossing is None:
            out += e.opened if pending else e.closed
            pending, clean = e.trail_end, e.trail_clean
            continue
        if not e.opened:
            pending = pending or e.trail_end
            clean = False
            continue
        scale_word = crossing.scale_word
        if scale_word is not None and clean and crossing.lead_clean and out[-1][T_NUMBER]:
            # "1.5 million" is one number, 1500000; in a quote its parts are found too.
            prev = out[-1]
            zeros = SCALES[scale_word]
            offers = prev[T_OFFERS] + (prev[T_KEY], scaled("1", zeros))
            out[-1] = tok(scaled(prev[T_KEY], zeros), f"{prev[T_TEXT]} {scale_word}", True, prev[T_WEIGHT], (), offers)
            out += e.closed[1:]
            flags.offers = True
        else:
            out += e.opened if pending else e.closed
        pending, clean = e.trail_end, e.trail_clean
        if crossing.month:
            flags.month = True
        if crossing.offers:
            flags.offers = True
    return pending, clean


def _months(toks: list[Tok], stemmer: Callable[[str], str] | None) -> None:
    """Month abbreviations and May, when next to a number, are months."""
    n = len(toks)
    for i, t in enumerate(toks):
        text = t[T_TEXT]
        if t[T_NUMBER] or (text not in MONTH_ABBR and text != "may"):
            continue
        if (i > 0 and toks[i - 1][T_NUMBER]) or (i + 1 < n and toks[i + 1][T_NUMBER]):
            month = MONTH_ABBR.get(text, text)
            # "may" is a stopword; as a month it is content, so it is shown as "May".
            toks[i] = tok(stemmer(month) if stemmer else month, "May" if text == "may" else text, False, t[T_WEIGHT])


def tokens(text: str, mode: str = "seed") -> tuple[Token, ...]:
    """Every token of ``text`` in order, stopwords included."""
    return tuple(Token(*t[:T_CONTENT]) for t in _tokenise(text, rules_of(mode))[0])  # Token's fields come first

