"""The lexical support check (SPEC section 4).

A claim is supported when enough of its distinct content tokens appear among
the tokens of its resolved quotes, taken together, and every number it states
appears in at least one quote (the number rule).

A mode is a set of rules added to the SPEC's seed tokenisation:

- ``seed``: the SPEC's rule, word for word (no rules).
- ``calibrated``: the seed rule plus general normalisations of form that real
  claims and their sources disagree on (dates, ordinals, percent, accents,
  inflections, compounds, contractions) and weighting of names and numbers.
  Each rule and its measured effect on WiCE dev is in docs/support.md.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterable, Sequence

__all__ = [
    "DEFAULT_MODE",
    "MODES",
    "RULES",
    "STOPWORDS",
    "SupportResult",
    "Token",
    "check_support",
    "number_key",
    "stem",
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
# Word lists

NUMBER_WORDS: dict[str, str] = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve "
        "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_TENS = {w: str(10 * i) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
NUMBER_WORDS.update(_TENS)
NUMBER_WORDS.update({"hundred": "100", "thousand": "1000", "million": "1000000"})

NEGATIONS = frozenset({"not", "no", "nor", "never", "none", "neither", "nobody", "nothing", "nowhere", "cannot"})

_MONTHS = (
    "january february march april may june july august september october november december".split()
)
# Abbreviations are read as a month only next to a number
# ("Nov. 10", "10 Sept 2018"): "mar", "jan" and "may" are also words.
_MONTH_ABBR = {m[:3]: m for m in _MONTHS} | {"sept": "september"}


def _load_stopwords() -> frozenset[str]:
    text = resources.files("cairn").joinpath("stopwords.txt").read_text(encoding="utf-8")
    words = (line.strip() for line in text.splitlines())
    return frozenset(w for w in words if w and not w.startswith("#"))


STOPWORDS: frozenset[str] = _load_stopwords()


# --------------------------------------------------------------------------
# Rules and modes

RULES: dict[str, str] = {
    "dates": "ISO dates give the month's name (2010-09-29 = 29 September 2010); a year range's "
    "short end is a year (2018-19 = 2018 to 2019); month abbreviations next to a number are "
    "the month (Sept. 29 = September 29), and so is May next to a number",
    "ordinal": "a numeral's ordinal suffix is dropped (29th = 29, 3rd = 3)",
    "percent": "% = percent = per cent",
    "fold": "Latin accents are folded (Hernández = Hernandez)",
    "negation": "n't is not (didn't = did not), cannot = can not",
    "stem": "Porter's stemmer: inflections and common derivations meet (released = releasing, "
    "congratulated = congratulations)",
    "light_stem": "a light stemmer instead, inflections only (measured, not adopted)",
    "compound": "a part of a hyphenated compound is also found when the quote writes the compound "
    "solid, and a solid word when the quote hyphenates it (ibero-american = iberoamerican); "
    "twenty-four = 24",
    "scale": "a numeral before hundred, thousand, million, billion or trillion is one number "
    "(1.5 million = 1,500,000), and a quote still offers its parts; billion and trillion are "
    "number words like million",
    "weight": "numbers and capitalised words inside a sentence (names) weigh 2",
}

# The weight of a number or a name under the rule "weight". Not fitted: 2 is
# the plain "counts double"; bench/support_modes.py shows 1.5 and 3 do about as well.
WEIGHT = 2.0

_MODE_RULES: dict[str, frozenset[str]] = {
    "seed": frozenset(),
    "calibrated": frozenset(RULES) - {"light_stem"},
}
MODES: tuple[str, ...] = tuple(_MODE_RULES)
DEFAULT_MODE: str = "calibrated"


def _rules(mode: str) -> frozenset[str]:
    try:
        return _MODE_RULES[mode]
    except KeyError:
        raise ValueError(f"unknown support mode {mode!r}; expected one of: {', '.join(MODES)}") from None


def _register_mode(name: str, rules: Iterable[str]) -> None:
    """Make an experimental rule set selectable (bench/support_modes.py); not in MODES."""
    rules = frozenset(rules)
    unknown = rules - RULES.keys()
    if unknown:
        raise ValueError(f"unknown rules: {sorted(unknown)}")
    _MODE_RULES[name] = rules


# --------------------------------------------------------------------------
# Numbers

# SPEC: numbers are \d{1,3}(,\d{3})+(\.\d+)? or \d+(\.\d+)?. The (?!\d) keeps
# "1,0000" from reading as "1,000" followed by "0".
_NUMBER = r"\d{1,3}(?:,\d{3}(?!\d))+(?:\.\d+)?|\d+(?:\.\d+)?"


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


# --------------------------------------------------------------------------
# Words

# Han (with CJK radicals, iteration and ideographic number marks), Hiragana,
# Katakana (with the prolonged sound mark and phonetic extensions).
_CJK = (
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3038-\u303b\u3040-\u30ff"
    "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003ffff"
)
_CJK_SPLIT = re.compile(f"[{_CJK}]|[^{_CJK}]+")
_CJK_ANY = re.compile(f"[{_CJK}]")
_LETTERS = r"[^\W\d_]+"
_HYPHENS = "-\u2010"  # NFKC maps the non-breaking hyphen to U+2010


def _fold_latin(word: str) -> str:
    """Drop accents from Latin letters only (a Katakana voicing mark is not an accent)."""
    if word.isascii():
        return word
    out = []
    for ch in word:
        if "\u00c0" <= ch <= "\u024f" or "\u1e00" <= ch <= "\u1eff":
            base = unicodedata.normalize("NFD", ch)
            out.append("".join(c for c in base if not unicodedata.combining(c)))
        else:
            out.append(ch)
    return "".join(out)


_ASCII_WORD = re.compile(r"[a-z]+")
_VOWEL = re.compile(r"[aeiouy]")


@lru_cache(maxsize=131072)
def light_stem(word: str) -> str:
    """A light English stemmer, inflections only (the rule ``light_stem``).

    Plurals and third persons after Harman (1991) (-ies -> y, -es -> e, -s),
    then -ied, -ed and -ing when a syllable remains, then a final e and a
    doubled final consonant are dropped so that every form of a word meets in
    one key: release, releases, released, releasing -> releas; stop, stopped
    -> stop; study, studies, studied -> study. Only a-z words of four letters
    or more are touched. Measured against Porter's stemmer and not adopted
    (docs/support.md).
    """
    if len(word) <= 3 or not _ASCII_WORD.fullmatch(word):
        return word
    w = word
    if w.endswith("ies") and not w.endswith(("eies", "aies")):
        w = w[:-3] + "y"
    elif w.endswith("es") and not w.endswith(("aes", "ees", "oes")):
        w = w[:-1]
    elif w.endswith("s") and not w.endswith(("us", "ss", "is")):
        w = w[:-1]
    if w.endswith("ied") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("eed"):
        w = w[:-1]
    elif w.endswith("ed") and len(w) >= 5 and _VOWEL.search(w[:-2]):
        w = w[:-2]
    elif w.endswith("ing") and len(w) >= 6 and _VOWEL.search(w[:-3]):
        w = w[:-3]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]
    return w


# Porter's stemmer (M. F. Porter, "An algorithm for suffix stripping",
# Program 14(3), 1980), transcribed from the paper's steps 1a to 5b.


def _consonant(w: str, i: int) -> bool:
    c = w[i]
    if c in "aeiou":
        return False
    if c == "y":
        return i == 0 or not _consonant(w, i - 1)
    return True


def _measure(w: str) -> int:
    """m in [C](VC){m}[V]: the number of vowel-consonant sequences."""
    m, prev_vowel = 0, False
    for i in range(len(w)):
        cons = _consonant(w, i)
        if cons and prev_vowel:
            m += 1
        prev_vowel = not cons
    return m


def _has_vowel(w: str) -> bool:
    return any(not _consonant(w, i) for i in range(len(w)))


def _double_consonant(w: str) -> bool:
    return len(w) >= 2 and w[-1] == w[-2] and _consonant(w, len(w) - 1)


def _cvc(w: str) -> bool:
    n = len(w)
    return (
        n >= 3
        and _consonant(w, n - 3)
        and not _consonant(w, n - 2)
        and _consonant(w, n - 1)
        and w[-1] not in "wxy"
    )


_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
    ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ("logi", "log"),
)  # fmt: skip
_STEP3 = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
    ("ness", ""),
)  # fmt: skip
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize",
)  # fmt: skip


@lru_cache(maxsize=131072)
def stem(word: str) -> str:
    """Porter's stemmer on a lower-case a-z word; any other word is returned as is.

    Inflections and common derivations meet in one key: released, releasing
    -> releas; congratulated, congratulations -> congratul; recorded,
    recording -> record.
    """
    if len(word) <= 2 or not _ASCII_WORD.fullmatch(word):
        return word
    w = word
    # Step 1a: plurals.
    if w.endswith("sses") or w.endswith("ies"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    # Step 1b: -eed, -ed, -ing.
    if w.endswith("eed"):
        if _measure(w[:-3]) > 0:
            w = w[:-1]
    else:
        for suffix in ("ed", "ing"):
            if w.endswith(suffix) and _has_vowel(w[: -len(suffix)]):
                w = w[: -len(suffix)]
                if w.endswith(("at", "bl", "iz")):
                    w += "e"
                elif _double_consonant(w) and w[-1] not in "lsz":
                    w = w[:-1]
                elif _measure(w) == 1 and _cvc(w):
                    w += "e"
                break
    # Step 1c: y -> i after a vowel.
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    # Steps 2 and 3: derivational suffixes, when the stem has m > 0.
    for table in (_STEP2, _STEP3):
        for suffix, replacement in table:
            if w.endswith(suffix):
                if _measure(w[: -len(suffix)]) > 0:
                    w = w[: -len(suffix)] + replacement
                break
    # Step 4: more suffixes, when m > 1.
    for suffix in _STEP4:
        if w.endswith(suffix):
            base = w[: -len(suffix)]
            if _measure(base) > 1 and (suffix != "ion" or base.endswith(("s", "t"))):
                w = base
            break
    # Step 5: a final e, and a final double l.
    if w.endswith("e"):
        base = w[:-1]
        m = _measure(base)
        if m > 1 or (m == 1 and not _cvc(base)):
            w = base
    if _measure(w) > 1 and _double_consonant(w) and w.endswith("l"):
        w = w[:-1]
    return w


# --------------------------------------------------------------------------
# Tokens


@dataclass(frozen=True, slots=True)
class Token:
    key: str  # what is compared (canonical number, or the word's key)
    text: str  # as written, after NFKC and case folding
    number: bool
    weight: float = 1.0
    # Other keys that also find this token in a quote: a part of a hyphenated
    # compound is found by the compound written solid (ibero-american).
    alts: tuple[str, ...] = ()
    # Extra keys the token offers when it stands in a quote: the solid form of
    # a compound; the parts of a scaled number (4 million offers 4 and 1000000).
    offers: tuple[str, ...] = ()

    @property
    def stopword(self) -> bool:
        return not self.number and self.text in STOPWORDS


@lru_cache(maxsize=64)
def _token_re(rules: frozenset[str]) -> re.Pattern[str]:
    parts = []
    if "dates" in rules:
        parts.append(r"(?P<iso>(?<!\d)\d{4}-\d{2}-\d{2}(?!\d))")
        parts.append(r"(?P<range>(?<![\d.,])\d{4}[-\u2010\u2013]\d{2}(?!\d)(?![.,]\d))")
    suffix = r"(?:st|nd|rd|th)(?![^\W\d_])" if "ordinal" in rules else None
    parts.append(rf"(?P<num>{_NUMBER})" + (rf"(?P<ord>{suffix})?" if suffix else ""))
    word = rf"{_LETTERS}(?:[{_HYPHENS}]{_LETTERS})*" if "compound" in rules else _LETTERS
    parts.append(rf"(?P<word>{word})")
    return re.compile("|".join(parts))


_NT = re.compile(r"(?<=[^\W\d_])n['\u2019]t(?![^\W\d_])", re.IGNORECASE)
_NT_SPECIAL = re.compile(r"\b(can|won|shan)['\u2019]t\b|\b(can)(not)\b", re.IGNORECASE)
_NT_BASE = {"can": "can", "won": "will", "shan": "shall"}
_PERCENT = re.compile(r"%|\bper\s+cent\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?]")
_HYPHEN_SPLIT = re.compile(f"[{_HYPHENS}]")


def _expand(text: str, rules: frozenset[str]) -> str:
    if "negation" in rules and ("'" in text or "\u2019" in text or "nnot" in text.lower()):
        text = _NT_SPECIAL.sub(lambda m: f"{_NT_BASE[(m[1] or m[2]).lower()]} not", text)
        text = _NT.sub(" not", text)
    if "percent" in rules and ("%" in text or "cent" in text.lower()):
        text = _PERCENT.sub(" percent ", text)
    return text


_SCALES = {"hundred": 2, "thousand": 3, "million": 6, "billion": 9, "trillion": 12}


def _scaled(key: str, zeros: int) -> str:
    """key times 10**zeros, by moving the decimal point (exact)."""
    whole, _, frac = key.partition(".")
    frac = frac.ljust(zeros, "0")
    rest = frac[zeros:]
    return number_key(whole + frac[:zeros] + (f".{rest}" if rest else ""))


def _number(written: str, key: str | None = None, weight: float = 1.0) -> Token:
    return Token(key if key is not None else number_key(written), written, True, weight)


def _tokenise(text: str, rules: frozenset[str]) -> list[Token]:
    text = _expand(unicodedata.normalize("NFKC", text), rules)
    fold = "fold" in rules
    stemmer = stem if "stem" in rules else light_stem if "light_stem" in rules else None
    weigh = "weight" in rules
    scale = "scale" in rules
    nw = WEIGHT if weigh else 1.0
    out: list[Token] = []
    prev_end = 0

    def key(w: str) -> str:
        return stemmer(w) if stemmer else w

    for m in _token_re(rules).finditer(text):
        g = "num" if m["num"] is not None else m.lastgroup
        start, end_before, prev_end = m.start(), prev_end, m.end()
        if g == "num":
            out.append(_number(m["num"].casefold(), weight=nw))
        elif scale and m["word"] in _SCALES and out and out[-1].number and text[end_before:start].isspace():
            # "1.5 million" is one number, 1500000; in a quote its parts are found too.
            prev = out[-1]
            out[-1] = Token(
                _scaled(prev.key, _SCALES[m["word"]]), f"{prev.text} {m['word']}", True, prev.weight, (),
                prev.offers + (prev.key, _scaled("1", _SCALES[m["word"]])),
            )  # fmt: skip
        elif g == "iso":
            y, mo, d = m[g].split("-")
            if 1 <= int(mo) <= 12 and 1 <= int(d) <= 31:
                month = _MONTHS[int(mo) - 1]
                out += [_number(y, weight=nw), Token(key(month), month, False), _number(d, weight=nw)]
            else:
                out += [_number(y, weight=nw), _number(mo, weight=nw), _number(d, weight=nw)]
        elif g == "range":
            first, last = m[g][:4], m[g][5:]
            end = int(first[:2] + last)
            if end <= int(first):
                end += 100
            out += [_number(first, weight=nw), _number(m[g], str(end), weight=nw)]
        else:
            raw = m["word"]
            word = raw.casefold()
            if fold:
                word = _fold_latin(word)
            # A capitalised word that does not open a sentence is taken for a name.
            opening = not out or _SENTENCE_END.search(text, end_before, start) is not None
            w = nw if weigh and raw[0].isupper() and not opening else 1.0
            if not word.isascii() and _CJK_ANY.search(word):
                for part in _CJK_SPLIT.findall(word):
                    if _CJK_ANY.match(part):
                        out.append(_word(part, part, 1.0))
                    else:
                        out.append(_word(part, key(part), w))
                continue
            parts = _HYPHEN_SPLIT.split(word) if ("-" in word or "\u2010" in word) else (word,)
            if len(parts) == 1:
                if scale and word in _SCALES and word not in NUMBER_WORDS:
                    out.append(_number(word, _scaled("1", _SCALES[word]), nw))  # billion, trillion
                else:
                    out.append(_word(word, key(word), w))
            elif len(parts) == 2 and parts[0] in _TENS and 1 <= int(NUMBER_WORDS.get(parts[1], 0)) <= 9:
                out.append(_number(word, str(int(_TENS[parts[0]]) + int(NUMBER_WORDS[parts[1]])), nw))
            else:
                raw_parts = _HYPHEN_SPLIT.split(raw)
                solid = (key("".join(parts)),)
                for i, (p, rp) in enumerate(zip(parts, raw_parts)):
                    pw = nw if weigh and (i > 0 or not opening) and rp[0].isupper() else 1.0
                    t = _word(p, key(p), pw)
                    out.append(t if t.number else Token(t.key, p, False, pw, solid, solid))
    if "dates" in rules:
        out = _months(out, key)
    return out


def _word(text: str, key: str, weight: float) -> Token:
    if text in NUMBER_WORDS:
        return Token(NUMBER_WORDS[text], text, True, weight)
    return Token(key, text, False, weight)


def _months(toks: list[Token], key) -> list[Token]:
    """Month abbreviations and May, when next to a number, are months."""
    for i, t in enumerate(toks):
        if t.number or (t.text not in _MONTH_ABBR and t.text != "may"):
            continue
        near_number = (i > 0 and toks[i - 1].number) or (i + 1 < len(toks) and toks[i + 1].number)
        if near_number:
            month = _MONTH_ABBR.get(t.text, t.text)
            # "may" is a stopword; as a month it is content, so it is shown as "May".
            toks[i] = Token(key(month), "May" if t.text == "may" else t.text, False, t.weight)
    return toks


def _seed_tokens(text: str) -> list[Token]:
    out: list[Token] = []
    for m in _TOKEN_RE_SEED.finditer(unicodedata.normalize("NFKC", text).casefold()):
        num, word = m.group(1), m.group(2)
        if num is not None:
            out.append(Token(number_key(num), num, True))
        elif _CJK_ANY.search(word):
            for part in _CJK_SPLIT.findall(word):
                out.append(_word(part, part, 1.0))
        else:
            out.append(_word(word, word, 1.0))
    return out


_TOKEN_RE_SEED = re.compile(rf"({_NUMBER})|({_LETTERS})")


def tokens(text: str, mode: str = "seed") -> tuple[Token, ...]:
    """Every token of ``text`` in order, stopwords included."""
    return _analyse(text, _rules(mode)).tokens


# --------------------------------------------------------------------------
# Analysis of one text, cached: the hot path sees the same quotes again and again.


@dataclass(frozen=True, slots=True)
class _Content:
    key: str
    display: str
    weight: float
    alts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Analysis:
    tokens: tuple[Token, ...]
    content: tuple[_Content, ...]  # distinct by key, in order of first appearance
    keys: frozenset[str]  # every key a quote offers, stopwords included
    numbers: tuple[tuple[str, str], ...]  # distinct (key, as written), in order
    number_keys: frozenset[str]  # every number key a quote offers


@lru_cache(maxsize=8192)
def _analyse(text: str, rules: frozenset[str]) -> _Analysis:
    toks = tuple(_tokenise(text, rules) if rules else _seed_tokens(text))
    content: dict[str, _Content] = {}
    numbers: dict[str, str] = {}
    keys: set[str] = set()
    number_keys: set[str] = set()
    for t in toks:
        keys.add(t.key)
        keys.update(t.offers)
        if t.number:
            numbers.setdefault(t.key, t.text)
            number_keys.add(t.key)
            number_keys.update(t.offers)
        elif t.stopword:
            continue
        seen = content.get(t.key)
        if seen is None:
            content[t.key] = _Content(t.key, t.text, t.weight, t.alts)
        elif t.weight > seen.weight:
            content[t.key] = _Content(t.key, seen.display, t.weight, seen.alts)
    return _Analysis(
        toks, tuple(content.values()), frozenset(keys), tuple(numbers.items()), frozenset(number_keys)
    )


# --------------------------------------------------------------------------
# The check


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
    the quotes could fail to back, and the citation checks still apply to it.
    """
    rules = _rules(mode)
    if not quotes:
        return SupportResult(None, False, [], [], [])
    if isinstance(quotes, str):
        quotes = [quotes]
    c = _analyse(claim, rules)
    if len(quotes) == 1:
        q = _analyse(quotes[0], rules)
        qkeys, qnums, quote_number_keys = q.keys, q.numbers, q.number_keys
    else:
        qs = [_analyse(q, rules) for q in quotes]
        qkeys = frozenset().union(*(q.keys for q in qs))
        quote_number_keys = frozenset().union(*(q.number_keys for q in qs))
        seen: dict[str, str] = {}
        for q in qs:
            for key, written in q.numbers:
                seen.setdefault(key, written)
        qnums = tuple(seen.items())

    total = found = 0.0
    missing: list[str] = []
    for item in c.content:
        total += item.weight
        if item.key in qkeys or any(k in qkeys for k in item.alts):
            found += item.weight
        else:
            missing.append(item.display)
    score = found / total if total else 1.0
    numbers_missing = [w for k, w in c.numbers if k not in quote_number_keys]
    passed = score >= threshold and not numbers_missing
    return SupportResult(score, passed, missing, numbers_missing, [w for _, w in qnums])
