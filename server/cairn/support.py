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


# The tables by their suffixes' last letter, in their order: a step tries
# only the suffixes a word can end with, and the first that matches is the same.
_STEP2_BY_LAST = {c: tuple(x for x in _STEP2 if x[0][-1] == c) for c in {x[0][-1] for x in _STEP2}}
_STEP3_BY_LAST = {c: tuple(x for x in _STEP3 if x[0][-1] == c) for c in {x[0][-1] for x in _STEP3}}
_STEP4_BY_LAST = {c: tuple(s for s in _STEP4 if s[-1] == c) for c in {s[-1] for s in _STEP4}}


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
    for table in (_STEP2_BY_LAST, _STEP3_BY_LAST):
        for suffix, replacement in table.get(w[-1:], ()):
            if w.endswith(suffix):
                if _measure(w[: -len(suffix)]) > 0:
                    w = w[: -len(suffix)] + replacement
                break
    # Step 4: more suffixes, when m > 1.
    for suffix in _STEP4_BY_LAST.get(w[-1:], ()):
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
#
# In the hot path a token is a plain tuple (below, _tok); tokens() wraps
# them in Token.


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


# (key, text, number, weight, alts, offers, content, exact): the fields of
# Token, then whether the token counts in a claim's content (it is not a
# stopword) and whether its weight is whole and it has no alts (then sums of
# weights are exact in any order).
_Tok = tuple


def _tok(key: str, text: str, number: bool, weight: float, alts: tuple = (), offers: tuple = ()) -> _Tok:
    return (key, text, number, weight, alts, offers, number or text not in STOPWORDS, not alts and float(weight).is_integer())


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


# A text's expansions are made cheaply when they can be: "%" is replaced
# whole (str.replace), and the negations per chunk, on a chunk's first sight
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


_SCALES = {"hundred": 2, "thousand": 3, "million": 6, "billion": 9, "trillion": 12}


def _scaled(key: str, zeros: int) -> str:
    """key times 10**zeros, by moving the decimal point (exact)."""
    whole, _, frac = key.partition(".")
    frac = frac.ljust(zeros, "0")
    rest = frac[zeros:]
    return number_key(whole + frac[:zeros] + (f".{rest}" if rest else ""))


def _number(written: str, key: str | None = None, weight: float = 1.0) -> _Tok:
    return _tok(key if key is not None else number_key(written), written, True, weight)


def _word(text: str, key: str, weight: float) -> _Tok:
    if text in NUMBER_WORDS:
        return _tok(NUMBER_WORDS[text], text, True, weight)
    return _tok(key, text, False, weight)


# --------------------------------------------------------------------------
# Chunks
#
# How the text is read is fixed by the SPEC and by the rules; this is only how
# it is done fast. Tokens never span whitespace, and the token pattern's
# look-arounds stop at whitespace as at the ends of the text, so a text's
# tokens are those of its whitespace-separated chunks in turn. A chunk is read
# once, on first sight, into an entry that is kept (per rule set and WEIGHT):
# a new claim is mostly made of chunks seen before, so reading it costs a
# str.split() and a dict look-up per chunk. What crosses chunks is done per
# text: whether the first token opens a sentence (rule "weight"), a scale word
# after a number (rule "scale"), month abbreviations next to a number (rule
# "dates"). Most chunks are one plain token, and most texts are made only of
# such chunks: for them the claim's content and the quote's keys are read off
# the entries directly (_claim, _quote); any other text goes through its
# tokens (_join), as a one-pass tokeniser reads them.

_CHUNK_CACHE_MAX = 100_000  # entries per cache; a full cache is emptied


def _scan(chunk: str, rules: frozenset[str], opening_first: bool) -> tuple[list[_Tok], int, str | None, int]:
    """The tokens of one chunk, as the text's tokeniser makes them.

    ``opening_first``: the chunk's first token opens a sentence whatever
    precedes it in the chunk (it is the text's first, or a sentence ended
    before the chunk). Returns the tokens, where the first match starts, the
    word of the first match (None when it is not a word) and where the last
    match ends. A scale word is never joined to a number here: within a chunk
    the gap before it is never whitespace.
    """
    fold = "fold" in rules
    stemmer = stem if "stem" in rules else light_stem if "light_stem" in rules else None
    weigh = "weight" in rules
    scale = "scale" in rules
    nw = WEIGHT if weigh else 1.0
    out: list[_Tok] = []
    prev_end = 0
    first_start, first_word = -1, None

    def key(w: str) -> str:
        return stemmer(w) if stemmer else w

    for m in _token_re(rules).finditer(chunk):
        g = "num" if m["num"] is not None else m.lastgroup
        start, end_before, prev_end = m.start(), prev_end, m.end()
        if first_start < 0:
            first_start, first_word = start, m["word"]
        if g == "num":
            out.append(_number(m["num"].casefold(), weight=nw))
        elif g == "iso":
            out += _iso(m[g], stemmer, nw)
        elif g == "range":
            out += _range(m[g], nw)
        else:
            raw = m["word"]
            word = raw.casefold()
            if fold:
                word = _fold_latin(word)
            # A capitalised word that does not open a sentence is taken for a name.
            opening = (opening_first and not out) or _SENTENCE_END.search(chunk, end_before, start) is not None
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
                    out.append(t if t[2] else _tok(t[0], p, False, pw, solid, solid))
    return out, first_start, first_word, prev_end


def _iso(date: str, stemmer, nw: float) -> list[_Tok]:
    """The tokens of an ISO date (rule "dates"): 2010-09-29 is 2010 september 29."""
    y, mo, d = date.split("-")
    if 1 <= int(mo) <= 12 and 1 <= int(d) <= 31:
        month = _MONTHS[int(mo) - 1]
        return [_number(y, weight=nw), _tok(stemmer(month) if stemmer else month, month, False, 1.0), _number(d, weight=nw)]
    return [_number(y, weight=nw), _number(mo, weight=nw), _number(d, weight=nw)]


def _range(years: str, nw: float) -> list[_Tok]:
    """The tokens of a year range (rule "dates"): 2018-19 is 2018 and 2019."""
    first, last = years[:4], years[5:]
    end = int(first[:2] + last)
    if end <= int(first):
        end += 100
    return [_number(first, weight=nw), _number(years, str(end), weight=nw)]


# A chunk that is an ISO date or a year range with only punctuation around it
# (the gap before a range does not end in "." or ",": the token pattern's look-behind).
_DATE_CHUNK = re.compile(r"([\W_]*)(?:([0-9]{4}-[0-9]{2}-[0-9]{2})|([0-9]{4}[-\u2010\u2013][0-9]{2}))([\W_]*)")


# ASCII characters that are never part of a token (all but letters and digits).
_ASCII_GAP = "".join(chr(c) for c in range(128) if not chr(c).isalnum())
_ASCII_NUMBER = re.compile(_NUMBER, re.ASCII)
_LETTER_STARTS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ORDINALS = frozenset({"st", "nd", "rd", "th"})


def _simple_chunk(chunk: str, rules: frozenset[str]) -> tuple | None:
    """_chunk_tokens for a chunk that is one ASCII word or numeral with only
    ASCII punctuation around it, made without the token pattern; None for any
    other chunk. With the rule "dates", an ISO date or a year range too."""
    nw = WEIGHT if "weight" in rules else 1.0
    if "dates" in rules and chunk[:1] not in _LETTER_STARTS:
        m = _DATE_CHUNK.fullmatch(chunk)
        if m is not None and (m[2] is not None or not m[1].endswith((".", ","))):
            stemmer = stem if "stem" in rules else light_stem if "light_stem" in rules else None
            toks = tuple(_iso(m[2], stemmer, nw) if m[2] is not None else _range(m[3], nw))
            lead_se = _SENTENCE_END.search(m[1]) is not None
            return toks, toks, lead_se, _SENTENCE_END.search(m[4]) is not None, not m[1], not m[4], None
    if not chunk.isascii():
        return None
    if chunk.isalpha():  # the commonest chunks
        core, lead_se, lead, trail = chunk, False, "", ""
    elif chunk.isdigit():
        t = _tok(chunk.lstrip("0") or "0", chunk, True, nw)
        return (t,), (t,), False, False, True, True, None
    else:
        core = chunk.strip(_ASCII_GAP)
        lead = chunk[: len(chunk) - len(chunk.lstrip(_ASCII_GAP))]
        trail = chunk[len(lead) + len(core) :]
        lead_se = "." in lead or "!" in lead or "?" in lead
    first_word = None
    if core.isalpha():
        first_word = core
        if not rules:  # seed: the chunk is case-folded already
            opened = closed = (_word(core, core, 1.0),)
        else:
            word = core.lower()
            key = stem(word) if "stem" in rules else light_stem(word) if "light_stem" in rules else word
            if "scale" in rules and word in _SCALES and word not in NUMBER_WORDS:
                opened = closed = (_number(word, _scaled("1", _SCALES[word]), nw),)  # billion, trillion
            else:
                opened = (_word(word, key, 1.0),)
                closed = (_word(word, key, nw),) if nw != 1.0 and core[0].isupper() and not lead_se else opened
    elif core.isdigit():
        opened = closed = (_tok(core.lstrip("0") or "0", core, True, nw),)
    elif core[:1].isdigit() and (
        _ASCII_NUMBER.fullmatch(core)
        or ("ordinal" in rules and core[-2:] in _ORDINALS and _ASCII_NUMBER.fullmatch(core, 0, len(core) - 2))
    ):
        # 1,500 or 3.5, and with the rule "ordinal" 21st or 1,000th: one number.
        written = core if core[-1].isdigit() else core[:-2]
        opened = closed = (_tok(number_key(written), written, True, nw),)
    else:
        return None
    trail_se = "." in trail or "!" in trail or "?" in trail
    return opened, closed, lead_se, trail_se, not lead, not trail, first_word


def _chunk_tokens(chunk: str, rules: frozenset[str]) -> tuple:
    """(tokens when the chunk's first token opens a sentence, tokens
    otherwise, a sentence ends in the gap before its first token, ... after
    its last token, no gap before its first token, none after its last, the
    word of its first match or None)."""
    simple = _simple_chunk(chunk, rules)
    if simple is not None:
        return simple
    if not rules:
        toks = []
        for m in _TOKEN_RE_SEED.finditer(chunk):
            num, word = m.group(1), m.group(2)
            if num is not None:
                toks.append(_tok(number_key(num), num, True, 1.0))
            elif _CJK_ANY.search(word):
                for part in _CJK_SPLIT.findall(word):
                    toks.append(_word(part, part, 1.0))
            else:
                toks.append(_word(word, word, 1.0))
        opened = tuple(toks)
        return opened, opened, False, False, False, False, None
    toks, first_start, first_word, last_end = _scan(chunk, rules, True)
    if not toks:
        se = _SENTENCE_END.search(chunk) is not None
        return (), (), se, se, False, False, None
    lead_se = _SENTENCE_END.search(chunk, 0, first_start) is not None
    opened = tuple(toks)
    closed = opened
    if not lead_se and "weight" in rules and any(map(str.isupper, chunk)):
        closed = tuple(_scan(chunk, rules, False)[0])
        if closed == opened:
            closed = opened
    trail_se = _SENTENCE_END.search(chunk, last_end) is not None
    return opened, closed, lead_se, trail_se, first_start == 0, last_end == len(chunk), first_word


def _chunk_entry(chunk: str, rules: frozenset[str]) -> tuple:
    """What is known of a chunk whatever surrounds it, read as it is, in one tuple.

    Most chunks are simple: one token, which nothing around it changes but
    its weight when it opens a sentence, of a whole weight and without alts
    or offers. A simple chunk's entry is its token (_tok: fields 0 to 7),
    then 8: a sentence ends after it; 9: no gap after it; 10: the entry for
    when it opens a sentence, if its weight is then another, else None; 11:
    None. A chunk of several such tokens, of which only the first may change
    (didn't, 29th in the seed rule, 2010-09-29), gives a _Many of their
    entries, which take its place in the text (_entries). Any other chunk's
    entry has its full entry in field 11 (_full).
    """
    opened, closed, lead_se, trail_se, lead_clean, trail_clean, first_word = _chunk_tokens(chunk, rules)
    special = None
    changes = False
    opened, closed = tuple(opened), tuple(closed)
    if rules:
        scale_word = first_word if lead_clean and first_word in _SCALES and "scale" in rules else None
        if len(opened) == 1:  # most chunks
            t = opened[0]
            month = not t[2] and (t[1] in _MONTH_ABBR or t[1] == "may") and "dates" in rules
            offers = bool(t[5])
        else:
            month = "dates" in rules and any(not t[2] and (t[1] in _MONTH_ABBR or t[1] == "may") for t in opened)
            offers = any(t[5] for t in opened)
        whole = float(WEIGHT).is_integer() or all([t[7] for t in opened + closed])
        changes = scale_word is not None or month
        if changes or offers or not opened or not whole:
            special = (lead_se, lead_clean, scale_word, month, offers)
    if special is None and opened and len(opened) == len(closed) and opened[1:] == closed[1:]:
        # Simple tokens, of which only the first may change with what precedes the chunk.
        first = closed[0] + ((trail_se, trail_clean) if len(closed) == 1 else (False, False))
        first += (None if opened[0] == closed[0] else opened[0] + first[8:] + (None, None), None)
        if len(closed) == 1:
            return first
        # Several: their entries take the chunk's place (_entries); between them
        # the gap is never whitespace and no sentence end changes a weight.
        last = closed[-1] + (trail_se, trail_clean, None, None)
        return _Many((first, *[t + (False, False, None, None) for t in closed[1:-1]], last))
    if not rules and not opened:
        return _Many()  # the seed rule: a chunk without tokens is nothing
    return _COMPLEX + ((closed, opened, trail_se, trail_clean, special, changes),)


class _Many(tuple):
    """The entries of the simple tokens of a chunk, which take its place."""


# A complex chunk's entry: nothing but its full entry, field 11.
_COMPLEX = (None, None, False, None, None, None, False, False, False, False, None)


def _full(e: tuple) -> tuple:
    """A chunk's full entry: (its tokens when its first token does not open a
    sentence, its tokens when it does, a sentence ends after its last token
    (for a chunk without tokens: in it), no gap after its last token,
    special, a token may change with what surrounds it).

    special is None for a chunk whose tokens nothing around them changes
    but their weights, which offers no extra keys and has tokens. Otherwise
    it is (a sentence ends before the first token, no gap before it, the
    scale word the chunk starts with, a token may be a month, a token offers
    extra keys), or, for a chunk that _expand_chunk changed, the entries of
    the chunks it became (then the first two fields are None). The seed
    rule's chunks have no special: nothing crosses chunks there."""
    full = e[11]
    if full is None:
        return (e,), (e if e[10] is None else e[10],), e[8], e[9], None, False
    return full


def _lookup(chunk: str, rules: frozenset[str], caches: tuple[dict, ...], expand: bool) -> tuple:
    """A chunk's entry, made on first sight and kept in ``caches``: (simple
    entries, other entries, entries of chunks as they are that _expand_chunk
    changes, those chunks). When ``expand`` and _expand_chunk changes the
    chunk, its entry is that of the chunks it becomes (a _Many when they are
    all simple).

    Entries are tuples of tuples, strings, numbers and None only: the garbage
    collector stops tracking them, so a large cache costs its collections
    nothing."""
    e = caches[0].get(chunk) or caches[1].get(chunk)
    if e is None:
        expanded = _expand_chunk(chunk, rules) if rules else chunk
        if expanded != chunk:
            caches[3][chunk] = None
            parts: list[tuple] = []
            for p in expanded.split():
                e = _lookup(p, rules, caches, False)
                if type(e) is _Many:
                    parts += e
                else:
                    parts.append(e)
            if all([p[11] is None for p in parts]):
                e = _Many(parts)
            else:
                e = _COMPLEX + ((None, None, None, None, tuple(parts), any([_full(p)[5] for p in parts])),)
        else:
            e = _chunk_entry(chunk, rules)
        cache = caches[0] if type(e) is not _Many and e[11] is None else caches[1]
        if len(cache) >= _CHUNK_CACHE_MAX:
            for c in caches:
                c.clear()
        cache[chunk] = e
    if not expand and chunk in caches[3]:  # a chunk _expand_chunk changes, as it is
        e = caches[2].get(chunk)
        if e is None:
            e = caches[2][chunk] = _chunk_entry(chunk, rules)
    return e


_TOKEN_RE_SEED = re.compile(rf"({_NUMBER})|({_LETTERS})")
_CHUNK_CACHES: dict[tuple[frozenset[str], float], tuple[dict, ...]] = {}


def _entries(text: str, rules: frozenset[str]) -> tuple[list[tuple], int]:
    """The entries of the text's chunks (after NFKC, and case folding for the
    seed rule), and their kind: 0 when all are simple, 2 when a token may
    change with what surrounds it, else 1."""
    expand = bool(rules)
    if rules:
        if not text.isascii():
            text = unicodedata.normalize("NFKC", text)
        if _expands_whole(text, rules):
            text, expand = _expand(text, rules), False
        elif "%" in text and "percent" in rules:
            text = text.replace("%", " percent ")
    else:
        text = text.lower() if text.isascii() else unicodedata.normalize("NFKC", text).casefold()
    caches = _CHUNK_CACHES.get((rules, WEIGHT))
    if caches is None:
        caches = _CHUNK_CACHES[(rules, WEIGHT)] = ({}, {}, {}, {})
    chunks = text.split()
    entries = list(map(caches[0].get, chunks))
    if None not in entries:
        return entries, 0
    found = []
    i = -1
    try:
        while True:
            i = entries.index(None, i + 1)
            found.append(i)
    except ValueError:
        pass
    kind = 0
    for i in reversed(found):  # from the end: a _Many changes the places after it
        e = _lookup(chunks[i], rules, caches, expand)
        if type(e) is _Many:
            entries[i : i + 1] = e
        else:
            entries[i] = e
            if e[11] is not None:
                kind = 2 if e[11][5] else max(kind, 1)
    return entries, kind


def _tokenise(text: str, rules: frozenset[str]) -> tuple[list[_Tok], bool]:
    """The tokens of ``text``, and whether one of them offers extra keys."""
    return _tokens_of(_entries(text, rules)[0], rules)


def _tokens_of(entries: list[tuple], rules: frozenset[str]) -> tuple[list[_Tok], bool]:
    out: list[_Tok] = []
    flags = [False, False]  # a token may be a month; a token offers extra keys
    _join(entries, out, True, False, flags)
    if flags[0]:
        _months(out, stem if "stem" in rules else light_stem if "light_stem" in rules else None)
    return out, flags[1]


def _join(entries: tuple | list, out: list[_Tok], pending: bool, clean: bool, flags: list[bool]) -> tuple[bool, bool]:
    """Append the tokens of the chunks of ``entries`` to ``out``, with what
    crosses chunks. pending: a sentence ended in the gap since the last token
    (the first token opens a sentence); clean: that gap is whitespace only."""
    for e in entries:
        full = e[11]
        if full is None:  # simple
            out.append(e if not pending or e[10] is None else e[10])
            pending, clean = e[8], e[9]
            continue
        closed, opened, trail_se, trail_clean, special, _ = full
        if special is None:
            out += opened if pending else closed
            pending, clean = trail_se, trail_clean
            continue
        if closed is None:  # a chunk _expand_chunk changed
            pending, clean = _join(special, out, pending, clean, flags)
            continue
        _, lead_clean, scale_word, month, offer = special
        if not opened:
            pending = pending or trail_se
            clean = False
            continue
        if scale_word is not None and clean and lead_clean and out[-1][2]:
            # "1.5 million" is one number, 1500000; in a quote its parts are found too.
            prev = out[-1]
            zeros = _SCALES[scale_word]
            offers = prev[5] + (prev[0], _scaled("1", zeros))
            out[-1] = _tok(_scaled(prev[0], zeros), f"{prev[1]} {scale_word}", True, prev[3], (), offers)
            out += closed[1:]
            flags[1] = True
        else:
            out += opened if pending else closed
        pending, clean = trail_se, trail_clean
        if month:
            flags[0] = True
        if offer:
            flags[1] = True
    return pending, clean


def _months(toks: list[_Tok], stemmer) -> None:
    """Month abbreviations and May, when next to a number, are months."""
    n = len(toks)
    for i, t in enumerate(toks):
        text = t[1]
        if t[2] or (text not in _MONTH_ABBR and text != "may"):
            continue
        if (i > 0 and toks[i - 1][2]) or (i + 1 < n and toks[i + 1][2]):
            month = _MONTH_ABBR.get(text, text)
            # "may" is a stopword; as a month it is content, so it is shown as "May".
            toks[i] = _tok(stemmer(month) if stemmer else month, "May" if text == "may" else text, False, t[3])


def tokens(text: str, mode: str = "seed") -> tuple[Token, ...]:
    """Every token of ``text`` in order, stopwords included."""
    return tuple(Token(*t[:6]) for t in _tokenise(text, _rules(mode))[0])


# --------------------------------------------------------------------------
# Analysis of one text. A claim's content items and a quote's keys are read
# off its tokens; the check reads a content item's key (0), display (1),
# number (2), weight (3), alts (4) and exact (7).


def _claim(text: str, rules: frozenset[str]) -> tuple:
    """What the check needs of a claim, in tuples: (content, total weight,
    exact, numbers, the keys of weight WEIGHT when exact, WEIGHT).

    content: its distinct content tokens in order of first appearance, each
    with its first display and alts and its highest weight; exact: all are
    exact, so that any sum of weights is exact in any order; numbers: the
    content tokens that are numbers (a number is never a stopword, and no
    word has a number's key).
    """
    entries, kind = _entries(text, rules)
    items: list[tuple] = []
    if kind == 0:
        pending = True  # as in _join: the first token opens a sentence
        for e in entries:
            if pending and e[10] is not None:
                e = e[10]
            if e[6]:
                items.append(e)
            pending = e[8]
    elif kind == 1:
        _content_tokens(entries, items, True)
    else:
        items = [t for t in _tokens_of(entries, rules)[0] if t[6]]
    content = {item[0]: item for item in items}
    if len(content) < len(items):
        # A key comes again: its first token counts, at its highest weight.
        content = {}
        for item in items:
            seen = content.get(item[0])
            if seen is None:
                content[item[0]] = item
            elif item[3] > seen[3]:
                content[item[0]] = (seen[0], seen[1], seen[2], item[3], seen[4], seen[5], True, seen[7] and item[7])
    items = list(content.values())
    if kind == 0 or all([item[7] for item in items]):  # simple chunks have only exact tokens
        # Every weight is whole and is 1 or WEIGHT (the rule "weight"): the
        # total, and later the found weight, are counted exactly.
        heavy_keys = tuple([item[0] for item in items if item[3] != 1.0]) if "weight" in rules else ()
        total = (len(items) - len(heavy_keys)) + len(heavy_keys) * WEIGHT
        return tuple(items), float(total), True, tuple([item for item in items if item[2]]), heavy_keys, WEIGHT
    total = 0.0
    for item in items:
        total += item[3]
    return tuple(items), total, False, tuple([item for item in items if item[2]]), (), WEIGHT


def _quote(text: str, rules: frozenset[str]) -> tuple:
    """What the check needs of a quote: (every key it offers, stopwords
    included; every number key it offers; {number key: as written}, in
    order). The key sets are dicts (key: None): a dict of strings is not
    tracked by the garbage collector, a set is."""
    entries, kind = _entries(text, rules)
    numbers: dict[str, str] = {}
    if kind == 0:
        keys = {e[0]: None for e in entries}  # a simple token has no offers
        for e in entries:
            if e[2] and e[0] not in numbers:
                numbers[e[0]] = e[1]
        return keys, numbers, numbers
    if kind == 1:
        keys = {}
        _keys(entries, keys, numbers)
        return keys, numbers, numbers
    toks, offers = _tokens_of(entries, rules)
    key_set = {t[0] for t in toks}
    number_keys: set[str] = set()
    for t in toks:
        if offers:
            key_set.update(t[5])
        if t[2]:
            if t[0] not in numbers:
                numbers[t[0]] = t[1]
            number_keys.add(t[0])
            number_keys.update(t[5])
    return dict.fromkeys(key_set), dict.fromkeys(number_keys), numbers


# When no token changes with what surrounds it (kind 1), a claim's content
# tokens and a quote's keys are read off the entries as in _join.


def _content_tokens(entries: tuple | list, items: list[tuple], pending: bool) -> bool:
    for e in entries:
        full = e[11]
        if full is None:  # simple
            if pending and e[10] is not None:
                e = e[10]
            if e[6]:
                items.append(e)
            pending = e[8]
            continue
        closed, opened, trail_se, _, special, _ = full
        if closed is None:  # a chunk _expand_chunk changed
            pending = _content_tokens(special, items, pending)
        elif opened:
            items += [t for t in (opened if pending else closed) if t[6]]
            pending = trail_se
        else:  # no tokens
            pending = pending or trail_se
    return pending


def _keys(entries: tuple | list, keys: dict[str, None], numbers: dict[str, str]) -> None:
    for e in entries:
        full = e[11]
        if full is None:  # simple
            keys[e[0]] = None
            if e[2] and e[0] not in numbers:
                numbers[e[0]] = e[1]
        elif full[0] is None:  # a chunk _expand_chunk changed
            _keys(full[4], keys, numbers)
        else:
            for t in full[0]:  # whether a token opens a sentence changes only its weight
                keys[t[0]] = None
                if t[5]:
                    keys.update(dict.fromkeys(t[5]))
                if t[2] and t[0] not in numbers:
                    numbers[t[0]] = t[1]


# The analyses of claims and of quotes are kept per mode, in two generations
# of _MEMO texts each: a text is looked up in the young one, then in the old
# one (and moved to the young one); when the young one is full it becomes the
# old one. So the last _MEMO texts seen are always kept.
_MEMO = 8192
# mode -> [rules, WEIGHT, young claims, old claims, young quotes, old quotes]
_STATES: dict[str, list] = {}


def _state(mode: str) -> list:
    state = [_rules(mode), WEIGHT, {}, {}, {}, {}]
    _STATES[mode] = state
    return state


def _memo(state: list, young: int, text: str, analyse) -> tuple:
    """The analysis of ``text`` not found in state[young]: from the old generation, or made."""
    result = state[young + 1].get(text)
    if result is None:
        result = analyse(text, state[0])
    generation = state[young]
    generation[text] = result
    if len(generation) >= _MEMO:
        state[young], state[young + 1] = {}, generation
    return result


def _analyse(text: str, rules: frozenset[str]) -> tuple[tuple, tuple]:
    """The text as a claim and as a quote (uncached; ``_analyse.cache_clear()`` empties the caches)."""
    return _claim(text, rules), _quote(text, rules)


def _cache_clear() -> None:
    _STATES.clear()
    _CHUNK_CACHES.clear()


_analyse.cache_clear = _cache_clear  # type: ignore[attr-defined]


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
    state = _STATES.get(mode)
    if state is None or state[0] is not _MODE_RULES.get(mode) or state[1] != WEIGHT:
        state = _state(mode)  # raises ValueError for an unknown mode
    if not quotes:
        return SupportResult(None, False, [], [], [])
    if isinstance(quotes, str):
        quotes = [quotes]
    content, total, exact, numbers, heavy_keys, heavy_weight = state[2].get(claim) or _memo(state, 2, claim, _claim)
    if len(quotes) == 1:
        quote = quotes[0]
        qkeys, quote_number_keys, qnums = state[4].get(quote) or _memo(state, 4, quote, _quote)
        quote_numbers = list(qnums.values())
    else:
        parts = [state[4].get(q) or _memo(state, 4, q, _quote) for q in quotes]
        qkeys = set().union(*(p[0] for p in parts))
        quote_number_keys = set().union(*(p[1] for p in parts))
        seen: dict[str, str] = {}
        for p in parts:
            for key, written in p[2].items():
                seen.setdefault(key, written)
        quote_numbers = list(seen.values())

    if exact:
        # The found weight is the total less the missing weight, exactly:
        # every weight is whole, heavy_weight for heavy_keys and 1 for the others.
        missing = [item[1] for item in content if item[0] not in qkeys]
        if missing:
            heavy = len([k for k in heavy_keys if k not in qkeys]) if heavy_keys else 0
            found = total - ((len(missing) - heavy) + heavy * heavy_weight)
        else:
            found = total
    else:
        found = 0.0
        missing = []
        for key, display, _, weight, alts, *_ in content:
            if key in qkeys or any(k in qkeys for k in alts):
                found += weight
            else:
                missing.append(display)
    score = found / total if total else 1.0
    numbers_missing = [item[1] for item in numbers if item[0] not in quote_number_keys] if numbers else []
    # SupportResult(score, passed, missing, numbers_missing, quote_numbers),
    # without the frozen dataclass's object.__setattr__ per field.
    result = _new_result(SupportResult)
    _set_score(result, score)
    _set_passed(result, score >= threshold and not numbers_missing)
    _set_missing(result, missing)
    _set_numbers_missing(result, numbers_missing)
    _set_quote_numbers(result, quote_numbers)
    return result


_new_result = object.__new__
_set_score, _set_passed, _set_missing, _set_numbers_missing, _set_quote_numbers = (
    SupportResult.__dict__[f].__set__ for f in SupportResult.__slots__
)
