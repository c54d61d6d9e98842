"""Tokens: how one whitespace-free chunk of text is read by the token pattern.

A token is a number (SPEC pattern, a number word, a date's parts) or a run of
letters (a word, a CJK character alone, a hyphenated compound's parts under
the rule "compound"). ``scan`` reads a chunk with the pattern of its rule set;
chunks.py reads the common chunks faster and must agree with it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from . import modes
from .numbers import NUMBER, number_key, scaled
from .stemming import stemmer_for
from .words import MONTHS, NUMBER_WORDS, SCALES, STOPWORDS, TENS

# Han (with CJK radicals, iteration and ideographic number marks), Hiragana,
# Katakana (with the prolonged sound mark and phonetic extensions).
_CJK = (
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3038-\u303b\u3040-\u30ff"
    "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0003ffff"
)
CJK_SPLIT = re.compile(f"[{_CJK}]|[^{_CJK}]+")
CJK_ANY = re.compile(f"[{_CJK}]")
LETTERS = r"[^\W\d_]+"
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


# A token as the check carries it is a plain tuple, made by tok(): Token's
# fields, then two the check reads often; tokens() gives them as Token. The
# fields are read by these names (t[T_KEY]).
#
# Not a record class: the chunk caches and the analyses keep hundreds of
# thousands of tokens, and the garbage collector stops tracking a tuple of
# strings, numbers and such tuples, where it tracks every instance of a class
# and walks them all at each full collection. Measured with records (slotted
# dataclasses): the check took a quarter longer in a long run, most of it in
# the collector.
Tok = tuple
T_KEY, T_TEXT, T_NUMBER, T_WEIGHT, T_ALTS, T_OFFERS = range(6)  # Token's fields
T_CONTENT = 6  # it counts in a claim's content: a number, or a word that is not a stopword
T_EXACT = 7  # its weight is whole and it has no alts: sums of such weights are exact in any order


def tok(key: str, text: str, number: bool, weight: float, alts: tuple = (), offers: tuple = ()) -> Tok:
    return (key, text, number, weight, alts, offers, number or text not in STOPWORDS, not alts and float(weight).is_integer())


@lru_cache(maxsize=64)
def _token_re(rules: frozenset[str]) -> re.Pattern[str]:
    parts = []
    if "dates" in rules:
        parts.append(r"(?P<iso>(?<!\d)\d{4}-\d{2}-\d{2}(?!\d))")
        parts.append(r"(?P<range>(?<![\d.,])\d{4}[-\u2010\u2013]\d{2}(?!\d)(?![.,]\d))")
    suffix = r"(?:st|nd|rd|th)(?![^\W\d_])" if "ordinal" in rules else None
    parts.append(rf"(?P<num>{NUMBER})" + (rf"(?P<ord>{suffix})?" if suffix else ""))
    word = rf"{LETTERS}(?:[{_HYPHENS}]{LETTERS})*" if "compound" in rules else LETTERS
    parts.append(rf"(?P<word>{word})")
    return re.compile("|".join(parts))


SENTENCE_END = re.compile(r"[.!?]")
_HYPHEN_SPLIT = re.compile(f"[{_HYPHENS}]")


def number_tok(written: str, key: str | None = None, weight: float = 1.0) -> Tok:
    return tok(key if key is not None else number_key(written), written, True, weight)


def word_tok(text: str, key: str, weight: float) -> Tok:
    if text in NUMBER_WORDS:
        return tok(NUMBER_WORDS[text], text, True, weight)
    return tok(key, text, False, weight)



def scan(chunk: str, rules: frozenset[str], opening_first: bool) -> tuple[list[Tok], int, str | None, int]:
    """The tokens of one chunk, as the text's tokeniser makes them.

    ``opening_first``: the chunk's first token opens a sentence whatever
    precedes it in the chunk (it is the text's first, or a sentence ended
    before the chunk). Returns the tokens, where the first match starts, the
    word of the first match (None when it is not a word) and where the last
    match ends. A scale word is never joined to a number here: within a chunk
    the gap before it is never whitespace.
    """
    fold = "fold" in rules
    stemmer = stemmer_for(rules)
    weigh = "weight" in rules
    scale = "scale" in rules
    version = "version" in rules
    nw = modes.WEIGHT if weigh else 1.0
    out: list[Tok] = []
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
            out.append(number_tok(m["num"].casefold(), weight=nw))
        elif g == "iso":
            out += iso_date_toks(m[g], stemmer, nw)
        elif g == "range":
            out += year_range_toks(m[g], nw)
        else:
            raw = m["word"]
            if version and len(raw) > 2 and raw[-1] in "vV" and chunk[m.end():m.end() + 1].isdigit():
                raw = raw[:-1]  # GPLv3 is GPL version 3: the name, then its number
            word = raw.casefold()
            if fold:
                word = _fold_latin(word)
            # A capitalised word that does not open a sentence is taken for a name.
            opening = (opening_first and not out) or SENTENCE_END.search(chunk, end_before, start) is not None
            w = nw if weigh and raw[0].isupper() and not opening else 1.0
            if not word.isascii() and CJK_ANY.search(word):
                for part in CJK_SPLIT.findall(word):
                    if CJK_ANY.match(part):
                        out.append(word_tok(part, part, 1.0))
                    else:
                        out.append(word_tok(part, key(part), w))
                continue
            parts = _HYPHEN_SPLIT.split(word) if ("-" in word or "\u2010" in word) else (word,)
            if len(parts) == 1:
                if scale and word in SCALES and word not in NUMBER_WORDS:
                    out.append(number_tok(word, scaled("1", SCALES[word]), nw))  # billion, trillion
                else:
                    out.append(word_tok(word, key(word), w))
            elif len(parts) == 2 and parts[0] in TENS and 1 <= int(NUMBER_WORDS.get(parts[1], 0)) <= 9:
                out.append(number_tok(word, str(int(TENS[parts[0]]) + int(NUMBER_WORDS[parts[1]])), nw))
            else:
                raw_parts = _HYPHEN_SPLIT.split(raw)
                solid = (key("".join(parts)),)
                for i, (p, rp) in enumerate(zip(parts, raw_parts)):
                    pw = nw if weigh and (i > 0 or not opening) and rp[0].isupper() else 1.0
                    t = word_tok(p, key(p), pw)
                    out.append(t if t[T_NUMBER] else tok(t[T_KEY], p, False, pw, solid, solid))
    return out, first_start, first_word, prev_end


def iso_date_toks(date: str, stemmer: Callable[[str], str] | None, nw: float) -> list[Tok]:
    """The tokens of an ISO date (rule "dates"): 2010-09-29 is 2010 september 29."""
    y, mo, d = date.split("-")
    if 1 <= int(mo) <= 12 and 1 <= int(d) <= 31:
        month = MONTHS[int(mo) - 1]
        return [number_tok(y, weight=nw), tok(stemmer(month) if stemmer else month, month, False, 1.0), number_tok(d, weight=nw)]
    return [number_tok(y, weight=nw), number_tok(mo, weight=nw), number_tok(d, weight=nw)]


def year_range_toks(years: str, nw: float) -> list[Tok]:
    """The tokens of a year range (rule "dates"): 2018-19 is 2018 and 2019."""
    first, last = years[:4], years[5:]
    end = int(first[:2] + last)
    if end <= int(first):
        end += 100
    return [number_tok(first, weight=nw), number_tok(years, str(end), weight=nw)]


