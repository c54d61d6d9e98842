"""Where quantities, dates and identifiers can be in a text (cairn.meaning.quantities
reads what each one says): the word lists (numbers, months, units, currency,
reference words), the one scanner expression `_SCAN` with its alternatives in
priority order, where a match can start (`_START`), and the scans over a text:
the plain one, and the one that looks only inside the chunks (runs between
white space) that can hold a start and reads a plain number without `_SCAN`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from ..support.unit_names import CASED_UNITS as _CASED_UNITS
from ..support.unit_names import UNITS as _UNITS
from ..support.words import chunks as _chunks_of

# --------------------------------------------------------------------------
# Word lists

_SMALL = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
NUMBER_WORDS: dict[str, int] = {w: i for i, w in enumerate(_SMALL)}
NUMBER_WORDS.update({w: 10 * i for i, w in enumerate(_TENS, 2)})
NUMBER_WORDS["dozen"] = 12  # "a dozen eggs"; also a multiplier ("two dozen", _SCALES); "dozens of" is no count
# what a scale word multiplies the number before it by ("1.5 million", "two dozen")
_SCALES = {"hundred": 10**2, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12,
           "k": 10**3, "m": 10**6, "bn": 10**9, "mn": 10**6, "mln": 10**6, "bln": 10**9, "dozen": 12}

_MONTHS = "january february march april may june july august september october november december".split()
_MONTH_OF = {m: i for i, m in enumerate(_MONTHS, 1)}
_MONTH_OF.update({m[:3]: i for i, m in enumerate(_MONTHS, 1)})
_MONTH_OF["sept"] = 9
# what IGNORECASE matches for an ASCII letter besides its two cases (Python's re, Unicode); the tests
# check this against the re module over every cased character
_OTHER_CASES = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}


def _letter(ch: str, fold: bool) -> str:
    """`ch` in a trie. Folded (for a pattern compiled with IGNORECASE), an ASCII
    letter is written as the class of what IGNORECASE matches for it, matched
    case-sensitively: the engine tests a class at the head of a branch before
    entering it, but not a letter under IGNORECASE, so a trie of letters would
    enter every branch at every position tried (the scanner spent most of its
    time there)."""
    if not (fold and ch.isascii() and ch.isalpha()):
        return re.escape(ch)
    low = ch.lower()
    return f"(?-i:[{low}{low.upper()}{_OTHER_CASES.get(low, '')}])"


def _trie(words: Iterable[str], fold: bool = False) -> str:
    """A regular expression matching any of `words`, longest first, written as a
    trie (one branch per letter) so that the engine does not try every word at
    every position: the scanner's speed depends on it. With `fold`, for a
    pattern compiled with IGNORECASE, matching the same: the words are taken in
    lower case (a word's other cases match the same text) and each letter is
    written by `_letter`."""
    tree: dict = {}
    for w in ({w.lower() for w in words} if fold else words):
        node = tree
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def walk(node: dict) -> str:
        end = "" in node
        branches = [_letter(ch, fold) + walk(sub) for ch, sub in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if end else body

    return "(?:" + walk(tree) + ")"


_MONTH_NAMES = [m.capitalize() for m in _MONTHS] + [m.upper() for m in _MONTHS]
_MONTH_ABBRS = [a for m in ("jan feb mar apr jun jul aug sept sep oct nov dec".split()) for a in (m.capitalize(), m.upper())]
_MONTH_RE = f"(?:{_trie(_MONTH_NAMES, fold=True)}(?![^\\W\\d_])|{_trie(_MONTH_ABBRS, fold=True)}(?![^\\W\\d_])\\.?)"

# after "per", "a", "an" or "each" ("50 kilometres per hour", "$1,200 a month"): a unit of time only for
# "a", "an", "each" ("3 times a day"), any unit spelled out for "per" ("5 mg per kilogram")
TIME_UNITS = frozenset({"second", "minute", "hour", "day", "week", "month", "year"})
_CASED = {"m", "g", "h", "t", "l", "B"}  # one-letter units only in this exact case (and never as a word)
_CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}
_CURRENCY_CODES = {"usd": "USD", "eur": "EUR", "gbp": "GBP", "jpy": "JPY", "cad": "CAD", "aud": "AUD",
                   "chf": "CHF", "inr": "INR", "cny": "CNY", "us$": "USD"}
_LONE_LETTER_UNITS = {"C": "°C", "F": "°F", "m": "m", "g": "g", "h": "hour", "l": "l", "t": "t", "W": "W"}

_unit_alts = sorted((u for u in (*_UNITS, *_CASED_UNITS) if len(u) > 1 or not u.isalpha()), key=len, reverse=True)
_UNIT_RE = _trie(_unit_alts, fold=True).replace(r"\ ", r"\s+")

# words after which a number names something (a reference), lower case
_REFERENCE_WORDS = {
    "version": "version", "ver": "version", "v": "version", "release": "release", "revision": "revision",
    "rev": "revision", "section": "section", "sec": "section", "§": "section", "§§": "section",
    "sections": "section", "article": "article", "art": "article", "articles": "article",
    "clause": "clause", "clauses": "clause", "subsection": "subsection", "chapter": "chapter",
    "ch": "chapter", "part": "part", "paragraph": "paragraph", "para": "paragraph", "appendix": "appendix",
    "annex": "annex", "schedule": "schedule", "exhibit": "exhibit", "figure": "figure", "fig": "figure",
    "table": "table", "item": "item", "rule": "rule", "step": "step", "page": "page", "pages": "page",
    "p": "page", "pp": "page", "line": "line", "lines": "line", "rfc": "rfc", "iso": "iso", "iec": "iec",
    "ieee": "ieee", "ecma": "ecma", "pep": "pep", "cve": "cve", "edition": "edition", "volume": "volume",
    "vol": "volume", "no": "number", "nos": "number", "number": "number", "model": "model", "type": "type",
    "class": "class", "level": "level", "tier": "tier", "phase": "phase", "stage": "stage", "grade": "grade",
    "category": "category", "form": "form", "title": "title", "chapter's": "chapter", "issue": "issue",
    "bug": "bug", "ticket": "ticket", "patch": "patch", "build": "build", "update": "update",
}
# capitalised words that are not names when a number follows them
_NOT_NAMES = frozenset(
    """a an the in on at by for from to of and or but if as is are was were be been this that these those
    about after before since until till during within over under above below up down around approximately
    about nearly almost only just some all any each every no nor not per than then when while where which
    who whose what with without upon into onto via between among across through throughout toward towards
    total totals it its his her their our your my we you they he she i there here some most more less
    least fewer many few several both either neither other another such same first last next previous
    allow allows wait keep add pay pays paid use uses take takes give gives get gets make makes see
    see also note step""".split()
) | set(_MONTHS) | {m[:3] for m in _MONTHS}

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_DAY = r"(?:3[01]|[12]\d|0?[1-9])(?!\d)"
_NUMWORD = _trie(set(NUMBER_WORDS) | {"hundred", "thousand", "million", "billion", "trillion"}, fold=True)
# the scale words, longest first; and the letters that stand for a unit alone, after a number
# (no digit after a scale either: "93 m2" is square metres once NFKC has made "m²" of it "m2")
_SCALE_RE = "(?:" + "|".join(sorted(_SCALES, key=len, reverse=True)) + r")(?!\w)"
_LONE_RE = "[" + "".join(_LONE_LETTER_UNITS) + "]"
# "1.2 g of", "90 m long", "410 g and 450 g": grams and metres as a letter apart from the number, only before "of", a
# word that measures them, a joining word or a bracket, or the end of a clause (elsewhere too often a label)
_SPACED_LONE = r"\s(?=[gm](?:\s+(?:of|long|wide|high|deep|tall|per|and|or|to|at|in|each|a|an)\b|\s*[.,;:()]|$))"

# the hyphenated words an identifier's name may have before its number, past the first ("SARS-CoV-2"):
# bounded, so that the scanner is linear on a long hyphenated run (`a-b-c-...`), where each start
# after a hyphen would otherwise read the rest of the run (issue 45, finding 8)
_RUN_WORDS = 15

# one scanner, alternatives in priority order; `dotted` also reads a Debian package version whole
# (`1:1.2.13.dfsg-1`: epoch, upstream version, revision), so that none of its parts is a quantity.
# Compiled on first use (about 0.1 s, which a start of the language server that verifies no claim
# does not pay)
_SCAN_SOURCE = rf"""
    (?P<iso>(?<![\w.])(?P<iy>\d{{4}})-(?P<im>\d{{1,2}})-(?P<id>\d{{1,2}})(?!\w|\.\d))
  | (?P<dmy>(?<![\w.])(?P<dd>{_DAY})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm>{_MONTH_RE})(?:,?\s+(?P<dy>\d{{4}}))?(?![^\W\d_]))
  | (?P<mdy>(?<![\w])(?P<mm>{_MONTH_RE})\s+(?P<md>{_DAY})(?:st|nd|rd|th)?(?:,?\s+(?P<my>\d{{4}}))?(?!\w|\.\d|,\d))
  | (?P<my2>(?<![\w])(?P<mm2>{_MONTH_RE})(?:,?\s+(?P<my2y>\d{{4}})|\s?['\u2019](?P<my2yy>\d{{2}}))(?!\w|\.\d))
  | (?P<slash>(?<![\w./])(?P<s1>\d{{1,2}})/(?P<s2>\d{{1,2}})/(?P<s3>\d{{4}})(?![\w/]|\.\w))
  | (?P<dotted>(?<![\w.])(?:\d+:)?(?P<up>\d+(?:\.\d+){{2,}})(?:[.+~][A-Za-z][A-Za-z0-9]*)*
        (?:-(?P<rev>\d+(?:\.\d+)*)(?:[+~][A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)*)?(?!\w|\.\d))
  | (?P<alnum>(?<![\w.])(?P<an>[A-Za-z]+(?:-[A-Za-z]+){{0,{_RUN_WORDS}}})-?(?P<anv>v)?(?P<ad>\d+(?:\.\d+)*)(?P<ax>[a-z]?)(?!\w|\.\d))
  | (?P<num>
        (?P<cur>(?<![\w])(?:US\$|[$€£¥₹]|(?:USD|EUR|GBP|JPY|CAD|AUD|CHF|INR|CNY)\s?))?
        (?P<sign>(?<![\w.,\d])(?:[-\u2212\u2013]|minus\s+|negative\s+)(?=\d|{_NUMWORD}))?
        (?P<n>(?<![\w.,])(?:{_NUM})(?![\d])
              |(?<![\w-])(?:{_NUMWORD})(?:-(?:{_NUMWORD}))?(?![\w])(?!-(?!(?:{_UNIT_RE})(?![^\W\d_]))))
        (?:(?P<ord>st|nd|rd|th)(?![\w]))?
        (?:\s?(?P<scale>{_SCALE_RE}))?
        (?:[\s-]?(?P<unit>{_UNIT_RE})(?![^\W\d_])|(?:{_SPACED_LONE})?(?P<lone>{_LONE_RE})(?![\w]))?
    )
    """
_SCAN: re.Pattern[str] | None = None


def _scanner() -> re.Pattern[str]:
    global _SCAN
    if _SCAN is None:
        _SCAN = re.compile(_SCAN_SOURCE, re.VERBOSE | re.IGNORECASE)
    return _SCAN


_RANGE_JOIN = re.compile(r"\s*(?:-|\u2013|\u2014|to|and|through|thru)\s*", re.IGNORECASE)
_BETWEEN_BEFORE = re.compile(r"(?:between|from)\s+$", re.IGNORECASE)
_WORD_BEFORE = re.compile(r"([^\W\d_][\w'’]*|§§?)\.?\s*$")
_SENT_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*)$")


def unit_named(written: str) -> str | None:
    """The unit a spelling the scanner matched names (its words one space
    apart): an SI symbol in its exact case first ("mM" millimolar, "mm"
    millimetre), else the spelling in any case ("KM" is "km"); None when the
    spelling is a cased symbol written in another case that no unit has
    ("pa" is no pascal)."""
    key = " ".join(written.split())
    return _CASED_UNITS.get(key) or _UNITS.get(key.lower())


def sentence_starts_at(text: str, pos: int) -> bool:
    """Whether a sentence may start at `pos`: what `_SENT_START.search(text, 0, pos)`
    says, read back from `pos` over the white space before it only, so that asking at
    every number of a long text is linear, not quadratic (issue 45, finding 8)."""
    if pos <= 0:
        return True
    j = pos
    while j > 0 and text[j - 1].isspace():
        j -= 1
    return "\n" in text[j:pos] or (0 < j < pos and text[j - 1] in ".!?:;")


# where a quantity, date or identifier can start: the scanner is tried only there
_START = re.compile(
    rf"""[$€£¥₹\d]|(?<![^\W\d_])(?:US\$|minus\s|negative\s|{_MONTH_RE}(?![^\W\d_])|(?:{_NUMWORD})(?![^\W\d_])
        |[A-Za-z]+(?:-[A-Za-z]+){{0,{_RUN_WORDS}}}-?\d|(?:USD|EUR|GBP|JPY|CAD|AUD|CHF|INR|CNY)\s?\d)""",
    re.VERBOSE | re.IGNORECASE,
)


def _scan(text: str) -> Iterator[re.Match[str]]:
    """_SCAN's matches, tried only where one can start (the same matches as
    finditer): the plain form of `_scan_chunks`, which tests shows agree."""
    pos = 0
    n = len(text)
    while pos < n:
        c = _START.search(text, pos)
        if c is None:
            return
        start = c.start()
        m = _match_at(text, start, pos)
        if m is None:
            pos = c.start() + 1
            continue
        yield m
        pos = m.end()


def _match_at(text: str, start: int, pos: int) -> re.Match[str] | None:
    """_SCAN's match where _START found a start (a sign before a digit belongs
    to the number), None when it matches nothing there."""
    m = None
    if start > 0 and text[start - 1] in "-\u2212\u2013" and start - 1 >= pos:
        m = _scanner().match(text, start - 1)
    if m is None or m.end() == m.start():
        m = _scanner().match(text, start)
    if m is None or m.end() == m.start():
        return None
    return m


def _may_start(chunk: str) -> bool:
    """Whether _START can find a start inside `chunk` (a run of text between
    white space) whatever surrounds it: white space comes before it, and " 0"
    after it stands for the most any start looks past it (`USD 40`)."""
    c = _START.search(chunk + " 0")
    return c is not None and c.start() < len(chunk)


# _may_start of each chunk seen, emptied when full (a dict's get costs a third of an lru_cache look-up)
_HELD: dict[str, bool] = {}
_HELD_LIMIT = 65536


def _candidates(text: str) -> list[tuple[int, int]]:
    """The spans of the white-space-separated chunks of `text` in which _START
    can find a start: no start lies outside them."""
    chunks = _chunks_of(text)
    held = list(map(_HELD.get, chunks))
    if None in held:
        if len(_HELD) >= _HELD_LIMIT:
            _HELD.clear()
        for k, h in enumerate(held):
            if h is None:
                held[k] = _HELD[chunks[k]] = _may_start(chunks[k])
    if True not in held:
        return []
    if len(text) == sum(map(len, chunks)) + len(chunks) - 1:
        # one white-space character between chunks and none around them (most texts): each
        # chunk starts one character after the end of the one before
        spans = []
        s = 0
        for chunk, h in zip(chunks, held):
            if h:
                spans.append((s, s + len(chunk)))
            s += len(chunk) + 1
        return spans
    spans = []
    i = 0
    for chunk, h in zip(chunks, held):
        i = text.find(chunk, i)
        if h:
            spans.append((i, i + len(chunk)))
        i += len(chunk)
    return spans


_NUMBER_GROUPS = ("n", "cur", "scale", "unit", "lone", "sign", "ord")  # the groups _number reads


class _PlainNumber:
    """What `_number` reads of _SCAN's match for a plain number (digits, one
    decimal part), found without running _SCAN: its span and its digits."""

    __slots__ = ("_start", "_end", "_digits")
    lastgroup = "num"

    def __init__(self, start: int, end: int, digits: str) -> None:
        self._start, self._end, self._digits = start, end, digits

    def span(self, group: int | str = 0) -> tuple[int, int]:
        return self._start, self._end

    def start(self, group: int | str = 0) -> int:
        return self._start

    def end(self, group: int | str = 0) -> int:
        return self._end

    def group(self, *names: int | str) -> Any:
        if names == _NUMBER_GROUPS:  # what _number asks for: only the digits are there
            return (self._digits, None, None, None, None, None, None)
        got = tuple(self._digits if g in (0, "n", "num") else None for g in names or (0,))
        return got[0] if len(got) == 1 else got


_PLAIN = re.compile(r"[0-9]+(?:\.[0-9]+)?")
# what _SCAN's number may take after its digits (ordinal, scale, unit, a lone unit letter), and
# what a day of one or two digits may take to make a date ("12 May", "3rd of June")
_NUMBER_TAIL_SOURCE = (
    rf"(?:st|nd|rd|th)(?![\w])|\s?(?:{_SCALE_RE})|\s?(?:{_UNIT_RE})(?![^\W\d_])|{_LONE_RE}(?![\w])|{_SPACED_LONE}")
_NUMBER_TAIL: re.Pattern[str] | None = None  # compiled on first use, as _SCAN


def _number_tail() -> re.Pattern[str]:
    global _NUMBER_TAIL
    if _NUMBER_TAIL is None:
        _NUMBER_TAIL = re.compile(_NUMBER_TAIL_SOURCE, re.IGNORECASE)
    return _NUMBER_TAIL


_DAY_TAIL = re.compile(rf"(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RE}", re.IGNORECASE)
_PLAIN_AFTER = frozenset(",;:)!?.")


def _plain_number(text: str, start: int, end: int) -> _PlainNumber | None:
    """_SCAN's match at the start of a chunk [start, end) when the chunk opens
    with a plain number that nothing around it changes; None when _SCAN must
    be run. The chunk's start follows white space, so no sign, currency or
    word joins the number from before; after the digits comes white space, or
    one of , ; : ) ! ? . not followed by a digit, so no date, range, list or
    version can go on; and no ordinal, scale or unit may follow."""
    m = _PLAIN.match(text, start, end)
    if m is None:
        return None
    e = m.end()
    if e < end and (text[e] not in _PLAIN_AFTER or (e + 1 < len(text) and text[e + 1].isdigit())):
        return None
    if _number_tail().match(text, e) or (e - start <= 2 and "." not in m.group() and _DAY_TAIL.match(text, e)):
        return None
    return _PlainNumber(start, e, m.group())


def _scan_chunks(text: str, spans: list[tuple[int, int]]) -> Iterator[re.Match[str] | _PlainNumber]:
    """`_scan`, with _START searched only inside the chunks that can hold a
    start. A start inside a chunk looks at most two characters past it (white
    space and a digit, `USD 40`), so each search stops there. A chunk that
    opens with a plain number gives it without running _SCAN."""
    pos = 0
    n = len(text)
    k = 0
    while k < len(spans):
        cs, ce = spans[k]
        if ce <= pos:
            k += 1
            continue
        if pos <= cs:
            plain = _plain_number(text, cs, ce)
            if plain is not None:
                yield plain
                pos = plain.end()
                continue
        c = _START.search(text, max(pos, cs), min(n, ce + 2))
        if c is None or c.start() >= ce:
            k += 1
            continue
        start = c.start()
        m = _match_at(text, start, pos)
        if m is None:
            pos = start + 1
            continue
        yield m
        pos = m.end()
