"""Quantifiers (SPEC section 4, `contradiction`, as a bound): `all` is not `one of`.

A claim that says a rule asks for *all* of a list, or that *both* files
must be empty, says more than a quote that asks for *one of* them or
speaks of *one of* the files, and the word-overlap score cannot see it: the
two share every other word. A quantifier is read with what it quantifies
(the first two content words after it, past `of the`), and a claim's
universal quantifier (`all`, `both`, `every`, `each`) contradicts the quotes
when every quantifier they put on the same thing is existential (`one of`,
`either`, `some`), and the other way round. A quantifier under a negation
(`not all`, `not one`) is left alone: it turns into the other kind, and the
polarity rule reads negation.

`only` is a bound of the same kind: `only X` (or `X only`) says nothing but
X, which a quote that joins X with something else (`X and Y`, `Y or X`)
contradicts, when the claim names no Y itself: `adults only` cited to
`adults and children`, `the tool only reads files` cited to `the tool
reads and writes files`. `not only X` (which says more than X) and `only
if` (a condition) are left alone, and so is a quote that says `only` of X
too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from ..support import STOPWORDS, stem
from .contradicting import Contradiction

__all__ = ["only_conflicts", "prepare", "quantifier_conflicts"]

_UNIVERSAL = frozenset("all both every each".split())
_EXISTENTIAL = frozenset("one either some".split())
_NEGATING = frozenset("not no never nor without".split())
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")


class _Quantifier(NamedTuple):
    universal: bool
    anchors: frozenset[str]  # stems of the words it quantifies
    shown: str  # as written, with what it quantifies ("all of the following")


_ASCII_NON_LETTERS = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalpha()})
_QUANTIFIERS = _UNIVERSAL | _EXISTENTIAL


def _surely_none(text: str) -> bool:
    """True when `text` has no quantifier word: a cheap test before reading it
    (ASCII only: its runs of letters hold every word _WORD finds)."""
    return text.isascii() and _QUANTIFIERS.isdisjoint(text.lower().translate(_ASCII_NON_LETTERS).split())


@lru_cache(maxsize=8192)
def _quantifiers(text: str) -> tuple[_Quantifier, ...]:
    if _surely_none(text):
        return ()
    return _quantifiers_plain(text)


def _quantifiers_plain(text: str) -> tuple[_Quantifier, ...]:
    """The quantifiers of `text`, read word by word (the plain path of `_quantifiers`)."""
    words = list(_WORD.finditer(text))
    low = [m.group().lower() for m in words]
    out = []
    for i, w in enumerate(low):
        if w not in _UNIVERSAL and w not in _EXISTENTIAL:
            continue
        if w == "one" and not (i + 1 < len(low) and low[i + 1] == "of"):
            continue  # "one" is a quantifier in "one of"; elsewhere a count or a pronoun
        if i > 0 and (low[i - 1] in _NEGATING or low[i - 1].endswith(("n't", "n\u2019t"))):
            continue
        anchors: list[str] = []
        end = words[i].end()
        for j in range(i + 1, min(len(low), i + 6)):
            if low[j] not in STOPWORDS:
                anchors.append(stem(low[j]))
                if len(anchors) == 1:
                    end = words[j].end()  # shown up to the first word it quantifies
                else:
                    break
        if anchors:
            out.append(_Quantifier(w in _UNIVERSAL, frozenset(anchors), text[words[i].start():end]))
    return tuple(out)


def quantifier_conflicts(claim: str, quotes: Sequence[str]) -> list[Contradiction]:
    """The claim's quantifiers that the quotes put the other way on the same thing."""
    mine = _quantifiers(claim)
    if not mine:
        return []
    theirs = [q for quote in quotes for q in _quantifiers(quote)]
    out = []
    for q in mine:
        same = [t for t in theirs if t.anchors & q.anchors]
        if same and all(t.universal != q.universal for t in same):
            out.append(Contradiction(q.shown, same[0].shown, "quantifier"))
    return out


_JOINS = frozenset({"and", "or", "plus"})
_DETERMINERS = frozenset("the a an its their his her our your my all other some any".split())
_NOT_RESTRICTING = frozenset({"if", "when", "once", "after", "because", "since", "until", "while", "where", "then"})


class _Only(NamedTuple):
    anchor: str  # the stem of the word `only` restricts
    shown: str  # "only members", "adults only"


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[list[re.Match[str]], list[str]]:
    words = list(_WORD.finditer(text))
    return words, [m.group().lower() for m in words]


def _onlys(claim: str) -> list[_Only]:
    if "only" not in claim.lower():
        return []
    words, low = _words(claim)
    out = []
    for i, w in enumerate(low):
        if w != "only" or (i > 0 and low[i - 1] in _NEGATING) or (i + 1 < len(low) and low[i + 1] in _NOT_RESTRICTING):
            continue
        end = words[i].end()
        closes = end >= len(claim.rstrip()) or claim[end:end + 1] in ".,;:!?)"
        if closes:  # "adults only": the word before
            j = i - 1
            if j >= 0 and low[j] not in STOPWORDS:
                out.append(_Only(stem(low[j]), claim[words[j].start():end]))
            continue
        for j in range(i + 1, min(len(low), i + 4)):  # "only members", "only in Madagascar"
            if low[j] not in STOPWORDS:
                out.append(_Only(stem(low[j]), claim[words[i].start():words[j].end()]))
                break
    return out


# words that say "only" in other words
_SOLE = frozenset({"exclusively", "solely", "else", "nowhere"})


def _named(text: str, words: list[re.Match[str]], i: int) -> bool:
    """Whether word i is written as a name: a capital inside it (`iOS`), or
    first, inside its sentence."""
    w = words[i].group()
    if any(c.isupper() for c in w[1:]):
        return True
    if not w[:1].isupper() or i == 0:
        return False
    before = text[words[i - 1].end():words[i].start()]
    return not any(c in before for c in ".!?:")


def _joined(quote: str, anchor: str, mine: frozenset[str]) -> str | None:
    """Where the quote joins the anchor's word with another the claim does not
    name (`adults and children`, `guests or members`), as written; None when
    it does not, or says `only` of it too."""
    words, low = _words(quote)
    stems = [stem(w) for w in low]
    for i, st in enumerate(stems):
        if st != anchor:
            continue
        if "only" in low[max(0, i - 3):i + 3] or _SOLE.intersection(low[max(0, i - 3):i + 8]):
            return None  # it says `only` of it too, or in other words ("nowhere else", "exclusively")
        for step in (1, -1):
            j = i + step
            if not (0 <= j < len(low)) or low[j] not in _JOINS:
                continue
            k = j + step
            while 0 <= k < len(low) and low[k] in _DETERMINERS and abs(k - j) <= 2:
                k += step
            if 0 <= k < len(low) and low[k] not in _DETERMINERS and stems[k] not in mine and stems[k] != anchor \
                    and not (_named(quote, words, i) and not _named(quote, words, k)):
                # a list joins things of one kind: a name with a name ("Madagascar and lives
                # nowhere else" names one place)
                a, b = sorted((i, k))
                return quote[words[a].start():words[b].end()]
    return None


def only_conflicts(claim: str, quotes: Sequence[str]) -> list[Contradiction]:
    """The claim's `only X` that a quote contradicts by joining X with something else."""
    onlys = _onlys(claim)
    if not onlys:
        return []
    mine = frozenset(stem(w) for w in _words(claim)[1])
    out = []
    for o in onlys:
        for quote in quotes:
            shown = _joined(quote, o.anchor, mine)
            if shown is not None:
                out.append(Contradiction(o.shown, shown, "quantifier"))
                break
    return out


def prepare(quote: str) -> None:
    """Read a quote's quantifiers and words once, when first met (answers do not change)."""
    _quantifiers(quote)
    _words(quote)

