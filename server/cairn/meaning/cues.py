"""The tokens the polarity rule reads a text in, and what a token says with
the tokens next to it, for cairn.meaning.polarity: a word's concept and
whether it is negative by itself (an antonym, a privative prefix), the
direction and ceasing phrases that start at a token, what a bound word bounds
(`more than 30`, `since version 1.42`, `a maximum of three nights`), and
whether a comma opens one more case of a list of amounts with their
conditions. Each chunk of text (a run between white space) is tokenised once
and kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, NamedTuple

from ..support import STOPWORDS, stem
from ..support.words import chunks as _chunks_of
from .lexicon import (
    ANTONYMS,
    CEASING,
    CLAUSE_BREAKERS,
    DIRECTIONS,
    NEGATING_BEFORE_TO,
    NEGATING_VERBS,
    NEGATORS,
    NUMBER_WORDS,
    STEADY,
    SUBORDINATORS,
    privative,
)

_TOKEN = re.compile(
    r"(?P<num>[-\u2212]?\d+(?:[.,]\d+)*)"
    r"|(?P<word>[^\W\d_]+(?:['\u2019][^\W\d_]+)?(?:-[^\W\d_]+)*)"
    r"|(?P<brk>[;:.!?()\[\]\u2014]|\s-\s)"
    r"|(?P<comma>,)"
    # a comparison sign ("(>=10)", "≤ 4 GiB"); not an arrow ("=>", "->") nor a run of them
    r"|(?P<sym>(?<![=<>\-])(?:[<>]=?|[\u2264\u2265])(?![<>=]))"
)
# what a comparison sign says of the number after it, as a bound word would
_SIGNS = {">": 1, ">=": 1, "\u2265": 1, "<": -1, "<=": -1, "\u2264": -1}
_SIGN_CHARS = frozenset("<>\u2264\u2265")
# the words that name a release before its number ("version 1.42"): a bound on them bounds the number
_RELEASE_WORDS = frozenset({"version", "release", "versions", "releases", "linux", "kernel", "kernels"})


def _amount_before(toks: list[_Tok], i: int) -> str:
    """The amount that stands right before token i, past content words only ("1 if", "9 euros if"), as
    digits; "" when there is none."""
    for k in range(i - 1, max(-1, i - 4), -1):
        before = toks[k].text
        if toks[k].kind == "num" or before in NUMBER_WORDS:
            return NUMBER_WORDS.get(before, before.replace(",", ""))
        if toks[k].kind != "word" or not _content(before):
            return ""
    return ""


def _number_anchor(text: str) -> str:
    """A number token as a bound's anchor: without its sign or thousands commas."""
    return "n:" + text.lstrip("-\u2212").replace(",", "")


def _a_point_in_time(anchor: str) -> bool:
    """Whether a bounded number is a release or a year (`4.6`, `1.2.3`, `2019`), of which `older` says
    earlier, rather than an amount or an age (`65`)."""
    n = anchor[2:] if anchor.startswith("n:") else ""
    return "." in n or (len(n) == 4 and n.isdigit() and 1000 <= int(n) <= 2999)


_new = tuple.__new__


class _Tok(NamedTuple):
    kind: str  # "num", "word", "brk", "comma", "sym"
    text: str  # lower case
    start: int
    end: int


def _tokens_plain(text: str) -> list[_Tok]:
    """The tokens of `text`, lower case, with their offsets: the plain form of `_tokens`."""
    lowered = text.lower().replace("\u2019", "'")  # same length: offsets hold
    # tuple.__new__ makes the same record as _Tok(...) without its Python-level __new__ (3x faster)
    return [_new(_Tok, (m.lastgroup or "brk", m.group(), *m.span())) for m in _TOKEN.finditer(lowered)]


def _chunk_tokens(chunk: str) -> tuple[tuple[str, str, int, int], ...]:
    """The tokens of a chunk (lower case, between white space), with offsets in it (kept in _CHUNK_TOKS)."""
    got = _CHUNK_TOKS.get(chunk)
    if got is None:
        got = _keep(_CHUNK_TOKS, chunk, tuple((m.lastgroup or "brk", m.group(), *m.span()) for m in _TOKEN.finditer(chunk)))
    return got


def _tokens(text: str) -> list[_Tok]:
    """`_tokens_plain`, read chunk by chunk (runs of text between white space),
    each chunk tokenised once and kept: no token but a spaced dash (`\\s-\\s`)
    holds white space, so a text with a lone `-` is read the plain way. Where
    one white-space character parts each chunk from the next and none is
    around them (most texts), each chunk starts one after the last one's end."""
    lowered = text.lower().replace("\u2019", "'")
    chunks = _chunks_of(lowered)
    if "-" in chunks:
        return _tokens_plain(text)
    out: list[_Tok] = []
    append = out.append
    kept = _CHUNK_TOKS
    single = len(lowered) == sum(map(len, chunks)) + len(chunks) - 1
    i = 0
    for chunk in chunks:
        if not single:
            i = lowered.find(chunk, i)
        got = kept.get(chunk)
        if got is None:
            got = _chunk_tokens(chunk)
        for kind, word, s, e in got:
            append(_new(_Tok, (kind, word, i + s, i + e)))
        i += len(chunk) + 1 if single else len(chunk)
    return out


def _content(w: str) -> bool:
    return w not in STOPWORDS and w not in NEGATORS


def _anchor(toks: list[_Tok], i: int, step: int) -> str | None:
    """What a direction word bounds: the first number or content word next to it."""
    j = i
    for _ in range(4):
        j += step
        if step < 0 and 0 <= j < len(toks) and toks[j].text == ")" and j >= 2 and toks[j - 2].text == "(" \
                and toks[j - 1].kind == "num":
            j -= 1  # "fifty percent (50%) or more": the number the parenthesis gives is what is bounded
        if j < 0 or j >= len(toks) or toks[j].kind in ("brk", "comma"):
            return None
        t = toks[j]
        if t.kind == "sym":
            continue
        if t.kind == "num":
            return _number_anchor(t.text)
        if t.text in NUMBER_WORDS:
            return "n:" + NUMBER_WORDS[t.text]
        if _content(t.text):
            if step < 0 and j > 0 and toks[j - 1].kind == "num":
                return _number_anchor(toks[j - 1].text)  # "4 GiB and larger": the number
            if step > 0 and j + 1 < len(toks) and toks[j + 1].kind == "num" and "." in toks[j + 1].text \
                    and t.text in _RELEASE_WORDS:
                return "n:" + toks[j + 1].text  # "since version 1.42", "before Linux 3.19": the release
            return "w:" + stem(t.text)
    return None


def _stated_amount(toks: list[_Tok], j: int) -> str | None:
    """The amount a copula gives the noun phrase after `minimum` or `maximum`:
    `the maximum stay in the hostel is three nights` bounds three nights, as
    `a maximum of three nights` does (the phrase's words, up to six, then `is`,
    `are`, `was` or `were` and the number)."""
    for k in range(j + 1, min(j + 7, len(toks) - 1)):
        t = toks[k]
        if t.text in ("is", "are", "was", "were"):
            t = toks[k + 1]
            if t.kind == "num":
                return _number_anchor(t.text)
            return "n:" + NUMBER_WORDS[t.text] if t.text in NUMBER_WORDS else None
        if t.kind != "word" or t.text in NEGATORS:
            return None
    return None


_DECLINE = frozenset("decline declines declined declining".split())
_DETERMINERS = frozenset("the a an his her their its our my your this that these those every all any".split())
# what follows a determiner when "declined" is a fall in time or amount, not a refusal of a thing
_NOT_OBJECTS = frozenset("following next previous last same first second third further year years month months "
                         "week weeks day days quarter quarters decade period".split())


def _case_follows(toks: list[_Tok], j: int) -> bool:
    """Whether the tokens from j (right after a comma) open one more case of a list of amounts with their
    conditions: an amount, up to two words of what it counts, then `if`, `when`, `unless`... (`, 1 if no
    lines were selected`, `, and 2 when an error occurred`, `, and 9 euros if not`)."""
    if j < len(toks) and toks[j].text in ("and", "or"):
        j += 1
    if not (j < len(toks) and (toks[j].kind == "num" or toks[j].text in NUMBER_WORDS)):
        return False
    for k in range(j + 1, min(j + 4, len(toks))):  # the amount's unit or noun may come first ("9 euros if")
        if toks[k].text in SUBORDINATORS:
            return True
        if toks[k].kind != "word" or not _content(toks[k].text):
            return False
    return False


def _has_object(toks: list[_Tok], j: int) -> bool:
    """Whether a determiner and a word that can be a thing refused follow at `j`."""
    return (j + 1 < len(toks) and toks[j].text in _DETERMINERS and toks[j + 1].kind == "word"
            and _content(toks[j + 1].text) and toks[j + 1].text not in _NOT_OBJECTS)


def _by_first_word(table: Iterable[str]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The phrases of a table by their first word, longest first."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for phrase in sorted(table, key=lambda p: -len(p.split())):
        words = tuple(phrase.split())
        out.setdefault(words[0], []).append(words)
    return {first: tuple(phrases) for first, phrases in out.items()}


# made once: looked up for every direction or ceasing word read
_DIRECTION_PHRASES = _by_first_word(DIRECTIONS)
_CEASING_PHRASES = _by_first_word(CEASING)
_DIRECTION_FIRST = frozenset(p.split()[0] for p in DIRECTIONS)
_CEASING_FIRST = frozenset(p.split()[0] for p in CEASING)
# every word that read() treats other than as a plain content word
# the words of a share or a rounded amount ("nearly two thirds", "roughly half"): the quantity rule's to
# compare; not what a statement is about
_AMOUNT_WORDS = frozenset(
    """half halves third thirds quarter quarters fifth fifths tenth tenths dozen nearly almost roughly
    approximately""".split())
_SPECIAL = (_DIRECTION_FIRST | _CEASING_FIRST | NEGATORS | NEGATING_VERBS | NEGATING_BEFORE_TO | CLAUSE_BREAKERS
            | SUBORDINATORS | STOPWORDS | _AMOUNT_WORDS | STEADY | {"without", "not", "other", "non", "free"})


def _phrase_at(toks: list[_Tok], i: int, phrases: dict[str, tuple[tuple[str, ...], ...]]) -> tuple[str, int] | None:
    """The longest of `phrases` (_by_first_word of a table) that starts at token i, and its length in tokens."""
    t = toks[i]
    candidates = phrases.get(t.text)
    if candidates is None or t.kind != "word":
        return None
    after = toks[i + 1] if i + 1 < len(toks) else None
    second = after.text if after is not None and after.kind == "word" else None
    for words in candidates:  # longest first
        n = len(words)
        if n == 1:
            return words[0], 1
        if words[1] == second and i + n <= len(toks) and (n == 2 or _words_at(toks, i + 2, words[2:])):
            return " ".join(words), n
    return None


def _words_at(toks: list[_Tok], i: int, words: tuple[str, ...]) -> bool:
    """Whether the tokens from i on are the words `words` (i + len(words) <= len(toks))."""
    for k, word in enumerate(words):
        t = toks[i + k]
        if t.kind != "word" or t.text != word:
            return False
    return True


@lru_cache(maxsize=65536)
def _analyse(w: str, own: bool) -> tuple[tuple[str, ...], bool, bool, str]:
    """A word's concepts (stems of its base's parts), whether it is negative
    and marked by itself, and the stem it is known by."""
    concept, negative, marked = w, False, False
    if w in ANTONYMS:
        concept, negative = ANTONYMS[w]
        negative = negative and own
        marked = True
    elif w in _AGAIN:
        concept, negative = ANTONYMS[w[2:]]
        negative = negative and own
        marked = True
    else:
        priv = privative(w)
        if priv:
            concept, negative, marked = priv[1], own, True
    parts = tuple(stem(p) for p in concept.split("-") if p and p not in STOPWORDS)
    return parts, negative, marked, (parts[0] if parts else stem(w))


# "reopened", "reclosed": the state again, as its word says it ("recharge" fills a battery, another sense;
# "must" is no verb to do again)
_AGAIN = frozenset("re" + w for w, (concept, _) in ANTONYMS.items() if concept != "charge" and w != "must")

# what is kept of each chunk seen, here and in cairn.meaning.screening, is kept in plain dicts emptied when
# they hold this many
_KEPT_LIMIT = 32768


# the tokens of each chunk seen (_chunk_tokens), emptied when full
_CHUNK_TOKS: dict[str, tuple[tuple[str, str, int, int], ...]] = {}


def _keep(kept: dict, key: str, value: Any) -> Any:
    if len(kept) >= _KEPT_LIMIT:
        kept.clear()
    kept[key] = value
    return value
