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

from . import modes
from .chunks import COMPLEX, Many, chunk_entry, full_entry
from .modes import rules_of
from .numbers import scaled
from .stemming import stemmer_for
from .tokenise import Tok, Token, tok
from .words import MONTH_ABBR, SCALES

_CHUNK_CACHE_MAX = 100_000  # entries per cache; a full cache is emptied

_NT = re.compile(r"(?<=[^\W\d_])n['\u2019]t(?![^\W\d_])", re.IGNORECASE)
_NT_SPECIAL = re.compile(r"\b(can|won|shan)['\u2019]t\b|\b(can)(not)\b", re.IGNORECASE)
_NT_BASE = {"can": "can", "won": "will", "shan": "shall"}
_PERCENT = re.compile(r"%|\bper\s+cent\b", re.IGNORECASE)


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


def _lookup(chunk: str, rules: frozenset[str], caches: tuple[dict, ...], expand: bool) -> tuple:
    """A chunk's entry, made on first sight and kept in ``caches``: (simple
    entries, other entries, entries of chunks as they are that _expand_chunk
    changes, those chunks). When ``expand`` and _expand_chunk changes the
    chunk, its entry is that of the chunks it becomes (a Many when they are
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
                if type(e) is Many:
                    parts += e
                else:
                    parts.append(e)
            if all([p[11] is None for p in parts]):
                e = Many(parts)
            else:
                e = COMPLEX + ((None, None, None, None, tuple(parts), any([full_entry(p)[5] for p in parts])),)
        else:
            e = chunk_entry(chunk, rules)
        cache = caches[0] if type(e) is not Many and e[11] is None else caches[1]
        if len(cache) >= _CHUNK_CACHE_MAX:
            for c in caches:
                c.clear()
        cache[chunk] = e
    if not expand and chunk in caches[3]:  # a chunk _expand_chunk changes, as it is
        e = caches[2].get(chunk)
        if e is None:
            e = caches[2][chunk] = chunk_entry(chunk, rules)
    return e


# (rules, modes.WEIGHT) -> the caches of _lookup
_CHUNK_CACHES: dict[tuple[frozenset[str], float], tuple[dict, ...]] = {}


def clear_chunk_caches() -> None:
    _CHUNK_CACHES.clear()


def entries_of(text: str, rules: frozenset[str]) -> tuple[list[tuple], int]:
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
    caches = _CHUNK_CACHES.get((rules, modes.WEIGHT))
    if caches is None:
        caches = _CHUNK_CACHES[(rules, modes.WEIGHT)] = ({}, {}, {}, {})
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
    for i in reversed(found):  # from the end: a Many changes the places after it
        e = _lookup(chunks[i], rules, caches, expand)
        if type(e) is Many:
            entries[i : i + 1] = e
        else:
            entries[i] = e
            if e[11] is not None:
                kind = 2 if e[11][5] else max(kind, 1)
    return entries, kind


def _tokenise(text: str, rules: frozenset[str]) -> tuple[list[Tok], bool]:
    """The tokens of ``text``, and whether one of them offers extra keys."""
    return tokens_of(entries_of(text, rules)[0], rules)


def tokens_of(entries: list[tuple], rules: frozenset[str]) -> tuple[list[Tok], bool]:
    out: list[Tok] = []
    flags = [False, False]  # a token may be a month; a token offers extra keys
    _join(entries, out, True, False, flags)
    if flags[0]:
        _months(out, stemmer_for(rules))
    return out, flags[1]


def _join(entries: tuple | list, out: list[Tok], pending: bool, clean: bool, flags: list[bool]) -> tuple[bool, bool]:
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
            zeros = SCALES[scale_word]
            offers = prev[5] + (prev[0], scaled("1", zeros))
            out[-1] = tok(scaled(prev[0], zeros), f"{prev[1]} {scale_word}", True, prev[3], (), offers)
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


def _months(toks: list[Tok], stemmer) -> None:
    """Month abbreviations and May, when next to a number, are months."""
    n = len(toks)
    for i, t in enumerate(toks):
        text = t[1]
        if t[2] or (text not in MONTH_ABBR and text != "may"):
            continue
        if (i > 0 and toks[i - 1][2]) or (i + 1 < n and toks[i + 1][2]):
            month = MONTH_ABBR.get(text, text)
            # "may" is a stopword; as a month it is content, so it is shown as "May".
            toks[i] = tok(stemmer(month) if stemmer else month, "May" if text == "may" else text, False, t[3])


def tokens(text: str, mode: str = "seed") -> tuple[Token, ...]:
    """Every token of ``text`` in order, stopwords included."""
    return tuple(Token(*t[:6]) for t in _tokenise(text, rules_of(mode))[0])

