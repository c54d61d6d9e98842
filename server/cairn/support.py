"""The lexical support check (SPEC section 4).

A claim is supported when enough of its distinct content tokens appear among
the tokens of its resolved quotes, taken together, and every number it states
appears in at least one quote.

Two modes:

- ``seed``: the SPEC's rule, word for word.
- ``calibrated``: the seed rule plus general normalisations of form (see
  docs/support.md for each change and its measured effect on WiCE dev).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Sequence

__all__ = [
    "DEFAULT_MODE",
    "MODES",
    "STOPWORDS",
    "SupportResult",
    "check_support",
    "tokens",
]


@dataclass(frozen=True, slots=True)
class SupportResult:
    score: float | None  # None when there are no quotes
    passed: bool  # score >= threshold and the number rule holds
    missing: list[str]  # claim content tokens found in no quote (display form, claim order)
    numbers_missing: list[str]  # claim numbers found in no quote, as written in the claim
    quote_numbers: list[str]  # numbers found in the quotes, as written


# --------------------------------------------------------------------------
# Tokens

NUMBER_WORDS: dict[str, str] = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve "
        "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
NUMBER_WORDS.update(
    {
        w: str(10 * i)
        for i, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split(), start=3)
    }
)
NUMBER_WORDS.update({"hundred": "100", "thousand": "1000", "million": "1000000"})


def _load_stopwords() -> frozenset[str]:
    text = resources.files("cairn").joinpath("stopwords.txt").read_text(encoding="utf-8")
    words = (line.strip() for line in text.splitlines())
    return frozenset(w for w in words if w and not w.startswith("#"))


STOPWORDS: frozenset[str] = _load_stopwords()

# SPEC: numbers are \d{1,3}(,\d{3})+(\.\d+)? or \d+(\.\d+)?. The (?!\d) keeps
# "1,0000" from reading as "1,000" followed by "0".
_NUMBER = r"\d{1,3}(?:,\d{3}(?!\d))+(?:\.\d+)?|\d+(?:\.\d+)?"
_TOKEN_RE = re.compile(rf"({_NUMBER})|([^\W\d_]+)")

# Han (with CJK radicals, iteration and ideographic number marks), Hiragana,
# Katakana (with the prolonged sound mark and phonetic extensions).
_CJK = (
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3038-\u303b\u3040-\u30ff"
    "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003ffff"
)
_CJK_SPLIT = re.compile(f"[{_CJK}]|[^{_CJK}]+")
_CJK_ANY = re.compile(f"[{_CJK}]")


def number_key(text: str) -> str:
    """The canonical form of a numeral: 1,000 -> 1000, 14.0 -> 14, 007 -> 7.

    String arithmetic, not floats, so 20-digit numbers keep every digit.
    Unicode decimal digits are read by value.
    """
    digits = "".join(
        c if "0" <= c <= "9" else (str(unicodedata.decimal(c)) if c.isdecimal() else c)
        for c in text
        if c != ","
    )
    whole, _, frac = digits.partition(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return f"{whole}.{frac}" if frac else whole


@dataclass(frozen=True, slots=True)
class Token:
    key: str  # what is compared
    text: str  # as written (after NFKC and case folding)
    number: bool


def _seed_tokens(text: str) -> list[Token]:
    out: list[Token] = []
    for m in _TOKEN_RE.finditer(unicodedata.normalize("NFKC", text).casefold()):
        num, word = m.group(1), m.group(2)
        if num is not None:
            out.append(Token(number_key(num), num, True))
        elif _CJK_ANY.search(word):
            for part in _CJK_SPLIT.findall(word):
                out.append(Token(NUMBER_WORDS.get(part, part), part, part in NUMBER_WORDS))
        elif word in NUMBER_WORDS:
            out.append(Token(NUMBER_WORDS[word], word, True))
        else:
            out.append(Token(word, word, False))
    return out


def tokens(text: str, mode: str = "seed") -> tuple[Token, ...]:
    """Every token of ``text`` in order, stopwords included."""
    return _analyse(text, _mode(mode)).tokens


# --------------------------------------------------------------------------
# Analysis of one text, cached: the hot path sees the same quotes again and again.


@dataclass(frozen=True, slots=True)
class _Analysis:
    tokens: tuple[Token, ...]
    content: tuple[tuple[str, str, float], ...]  # distinct (key, display, weight), in order
    keys: frozenset[str]  # every key, stopwords included, for the quote side
    numbers: tuple[tuple[str, str], ...]  # distinct (key, as written), in order


def _content_seed(toks: Sequence[Token]) -> tuple[tuple[str, str, float], ...]:
    seen: dict[str, tuple[str, str, float]] = {}
    for t in toks:
        if t.key not in seen and (t.number or t.key not in STOPWORDS):
            seen[t.key] = (t.key, t.text, 1.0)
    return tuple(seen.values())


@lru_cache(maxsize=65536)
def _analyse(text: str, mode: str) -> _Analysis:
    toks = tuple(_seed_tokens(text))
    content = _content_seed(toks)
    numbers: dict[str, str] = {}
    for t in toks:
        if t.number:
            numbers.setdefault(t.key, t.text)
    return _Analysis(toks, content, frozenset(t.key for t in toks), tuple(numbers.items()))


# --------------------------------------------------------------------------
# The check

MODES: tuple[str, ...] = ("seed",)
DEFAULT_MODE: str = "seed"


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"unknown support mode {mode!r}; expected one of {', '.join(MODES)}")
    return mode


def check_support(
    claim: str,
    quotes: Sequence[str],
    *,
    threshold: float = 0.5,
    mode: str = DEFAULT_MODE,
) -> SupportResult:
    """Score ``claim`` against its resolved ``quotes``, taken together.

    No quotes: nothing to check, score None, not passed. A claim without
    content tokens (only stopwords, or empty) scores 1.0: it asserts nothing
    the quotes could contradict, and the citation checks still apply to it.
    """
    mode = _mode(mode)
    if not quotes:
        return SupportResult(None, False, [], [], [])
    c = _analyse(claim, mode)
    qs = [_analyse(q, mode) for q in quotes]
    if len(qs) == 1:
        qkeys = qs[0].keys
        qnums = qs[0].numbers
    else:
        qkeys = frozenset().union(*(q.keys for q in qs))
        seen: dict[str, str] = {}
        for q in qs:
            for key, written in q.numbers:
                seen.setdefault(key, written)
        qnums = tuple(seen.items())

    total = found = 0.0
    missing: list[str] = []
    for key, display, weight in c.content:
        total += weight
        if key in qkeys:
            found += weight
        else:
            missing.append(display)
    score = found / total if total else 1.0
    quote_number_keys = {k for k, _ in qnums}
    numbers_missing = [w for k, w in c.numbers if k not in quote_number_keys]
    passed = score >= threshold and not numbers_missing
    return SupportResult(score, passed, missing, numbers_missing, [w for _, w in qnums])
