"""Stemmers for the rules "stem" (Porter's) and "light_stem" (inflections only).

Both touch only lower-case a-z words and are cached per word.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

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


# the words of plain negation, one key under the rule "negators": a claim's "not" is backed by
# its quote's "no" (whether it denies the same thing is the polarity rule's question)
NEGATORS = frozenset("not no never none nor neither without".split())


def _not_stem(word: str) -> str:
    return "not" if word in NEGATORS else stem(word)


def _not_light_stem(word: str) -> str:
    return "not" if word in NEGATORS else light_stem(word)


def _not_word(word: str) -> str:
    return "not" if word in NEGATORS else word


def stemmer_for(rules: frozenset[str]) -> Callable[[str], str] | None:
    """The stemmer of a rule set (with the rule "negators", negations first meet as
    "not"), or None when words are their own keys."""
    if "negators" in rules:
        return _not_stem if "stem" in rules else _not_light_stem if "light_stem" in rules else _not_word
    return stem if "stem" in rules else light_stem if "light_stem" in rules else None
