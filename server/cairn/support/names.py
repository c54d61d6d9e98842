"""A name in the place of another name (the calibrated mode's rule `names`).

A claim can share nearly every word with its quote and still be about
something else: `sort now supports printing the numeric value of multi-byte
characters` cited to `printf now supports printing …`, `timeouts on Solaris`
cited to `timeouts on macOS`, `.VARIABLES` for `.FEATURES`. The word-overlap
score counts one missing word out of many and passes. This rule reads the
claim and each quote side by side (the longest common runs of words, as
`difflib` aligns them) and fails the support check when, between words the
two share, the claim has one name where the quote has another: the same
statement made of a different thing.

Both words must be names, not ordinary words: a word no English dictionary
holds (Webster's Second International, the `english-words` package), a word
with a capital inside it (`macOS`) or capitalised inside a sentence
(`Solaris`), or a code name (`auth_timeout`, `.FEATURES`, `-E`). Ordinary
words differ between a claim and its quote all the time by paraphrase
(`makes` for `creates`) and are left to the score. Numbers are the quantity
rule's, and a name the quotes hold anywhere, or that the cited source's
heading holds, is not replaced by anything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from .words import STOPWORDS, english_lexicon

__all__ = ["displaced"]

# words with the punctuation code names carry inside them (auth_timeout, .FEATURES, -E, u+w)
_TOKEN_OR_STOP = re.compile(r"(?P<w>[\w.\-/+]*\w)|[.!?:;]")
_DIGIT = re.compile(r"\d")
_CODE_MARKS = "_./+"


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[tuple[str, bool], ...]:
    """The words of `text`, each with whether it opens a sentence (kept: quotes come again)."""
    out: list[tuple[str, bool]] = []
    opens = True
    for m in _TOKEN_OR_STOP.finditer(text):
        word = m.group("w")
        if word is None:
            opens = True  # a full stop, question mark, colon…: the next word opens a sentence
        else:
            out.append((word, opens))
            opens = False
    return tuple(out)


def _written_as_name(word: str, opens: bool) -> bool:
    """A name by its spelling: a code name, a capital inside it, a capital inside a sentence."""
    return (word[0] in "-." or any(c in _CODE_MARKS for c in word[1:])  # "-E", ".FEATURES", "auth_timeout"
            or any(c.isupper() for c in word[1:])  # "macOS", "GPL"
            or (word[0].isupper() and not opens))  # "Solaris" inside a sentence


def _is_name(word: str, opens: bool) -> bool:
    """A name by its spelling, or a word no dictionary holds (`printf`, `btrfs`)."""
    if _written_as_name(word, opens):
        return True
    lex = english_lexicon()
    return all(p.lower() not in lex and p.lower().rstrip("s") not in lex for p in word.split("-") if p)


@lru_cache(maxsize=65536)
def _candidate(word: str, opens: bool) -> bool:
    """A claim's word that may stand in another name's place: a name, not a number or a stopword."""
    return word.lower() not in STOPWORDS and not _DIGIT.search(word) and _is_name(word, opens)


def _differ(a: str, b: str) -> bool:
    return a.replace("-", "").lower() != b.replace("-", "").lower()


def displaced(claim: str, quotes: Sequence[str], named: str = "") -> tuple[str, str] | None:
    """(the claim's name, the quote's name) when the claim puts one name where
    a quote, around the same words, has another; None otherwise. `named`: the
    cited sources' headings, whose names the claim may use freely."""
    held = " ".join(quotes).lower() + "\n" + named.lower()
    ctoks = _tokens(claim)
    # a cheap test first: most claims have no name the quotes lack
    candidates = {i for i, (w, opens) in enumerate(ctoks) if _candidate(w, opens) and w.lower() not in held}
    if not candidates:
        return None
    a = [w.lower() for w, _ in ctoks]
    # and a candidate needs a neighbour the quotes hold, to stand between shared words
    near = {w.lower() for text in (*quotes, named) for w, _ in _tokens(text)}
    candidates = {i for i in candidates if (i > 0 and a[i - 1] in near) or (i + 1 < len(a) and a[i + 1] in near)}
    if not candidates:
        return None
    for quote in quotes:
        qtoks = _tokens(quote)
        ops = SequenceMatcher(a=a, b=[w.lower() for w, _ in qtoks], autojunk=False).get_opcodes()
        for k, (tag, i1, i2, j1, j2) in enumerate(ops):
            if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1 or i1 not in candidates:
                continue
            before = ops[k - 1][2] - ops[k - 1][1] if k > 0 and ops[k - 1][0] == "equal" else 0
            after = ops[k + 1][2] - ops[k + 1][1] if k + 1 < len(ops) and ops[k + 1][0] == "equal" else 0
            if before + after < 2:
                continue  # the same words around both: at least two
            theirs, opens = qtoks[j1]
            mine = ctoks[i1][0]
            if _DIGIT.search(theirs) or theirs.lower() in STOPWORDS or not _differ(mine, theirs):
                continue
            # both names, and one written as a name: the dictionary alone misses newer words
            # ("configurable"), so a word it lacks is a name only beside one spelled as a name
            if _is_name(theirs, opens) and (_written_as_name(theirs, opens) or _written_as_name(*ctoks[i1])):
                return mine, theirs
    return None
