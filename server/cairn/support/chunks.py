"""Chunks: what is known of one whitespace-separated chunk of text, whatever
surrounds it, read once and kept as its entry (text.py keeps the entries).

How the text is read is fixed by the SPEC and by the rules; this is only how
it is done fast. Tokens never span whitespace, and the token pattern's
look-arounds stop at whitespace as at the ends of the text, so a text's
tokens are those of its whitespace-separated chunks in turn. What crosses
chunks is done per text (text.py): whether the first token opens a sentence
(rule "weight"), a scale word after a number (rule "scale"), month
abbreviations next to a number (rule "dates").

Most chunks are one ASCII word or numeral with punctuation around it:
``simple_chunk`` reads those without the token pattern, and must give what
the plain path, the token pattern's ``scan``, gives for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import modes
from .numbers import NUMBER, number_key, scaled
from .stemming import stemmer_for
from .tokenise import (
    CJK_ANY,
    CJK_SPLIT,
    LETTERS,
    SENTENCE_END,
    T_EXACT,
    T_NUMBER,
    T_OFFERS,
    T_TEXT,
    Tok,
    iso_date_toks,
    number_tok,
    scan,
    tok,
    word_tok,
    year_range_toks,
)
from .words import MONTH_ABBR, NUMBER_WORDS, SCALES


@dataclass(slots=True)
class ChunkTokens:
    """How one chunk reads, whatever surrounds it."""

    opened: tuple[Tok, ...]  # its tokens when its first token opens a sentence
    closed: tuple[Tok, ...]  # its tokens when it does not
    lead_end: bool  # a sentence ends in the gap before its first token (no tokens: anywhere in it)
    trail_end: bool  # a sentence ends in the gap after its last token (no tokens: anywhere in it)
    lead_clean: bool  # there is no gap before its first token
    trail_clean: bool  # there is no gap after its last token
    first_word: str | None  # the word its first match is, None when that is not a word


# A chunk's entry is a Simple, a Complex or an Expanded; a chunk of several
# simple tokens gives a Many of Simple entries, which take its place in the
# text. Entries are kept, and never changed once made.
#
# Most chunks are simple: one token, of a whole weight, without alts or
# offers, which nothing around it changes but its weight when it opens a
# sentence. A simple chunk's entry is its token's tuple with three more
# fields, a plain tuple like a token (tokenise.py says why): it stands in a
# text's tokens for its token.
Simple = tuple
E_TRAIL_END = 8  # a sentence ends after it
E_TRAIL_CLEAN = 9  # there is no gap after it
E_OPENING = 10  # the entry for when it opens a sentence, when its weight is then another; else None


@dataclass(slots=True)
class Crossing:
    """What of a complex chunk reaches across the whitespace around it (not in the seed rule)."""

    lead_end: bool  # a sentence ends before its first token
    lead_clean: bool  # there is no gap before its first token
    scale_word: str | None  # the scale word it starts with, which may join a number before it (rule "scale")
    month: bool  # a token may be a month, by a number next to it (rule "dates")
    offers: bool  # a token offers extra keys


@dataclass(slots=True)
class Complex:
    """Any other chunk's entry: its tokens both ways, and what crosses its gaps.

    A record, not a tuple like Simple: few chunks are complex."""

    closed: tuple[Tok, ...]  # its tokens when its first token does not open a sentence
    opened: tuple[Tok, ...]  # its tokens when it does
    trail_end: bool  # a sentence ends after its last token (no tokens: anywhere in it)
    trail_clean: bool  # there is no gap after its last token
    # None when nothing around it changes its tokens but their weights, it
    # offers no extra keys and it has tokens; always None in the seed rule,
    # where nothing crosses chunks.
    crossing: Crossing | None
    changes: bool  # a token may change with what surrounds it (a scale word, a month)


@dataclass(slots=True)
class Expanded:
    """The entry of a chunk that the text's expansions change (didn't -> did not, text.py)."""

    parts: tuple[Simple | Complex, ...]  # the entries of the chunks it became
    changes: bool  # one of theirs may change with what surrounds it


class Many(tuple):
    """The Simple entries of a chunk of several simple tokens, which take its place."""


Entry = Simple | Complex | Expanded


def _simple(t: Tok, trail_end: bool, trail_clean: bool, opening: Simple | None) -> Simple:
    return t + (trail_end, trail_clean, opening)


# A chunk that is an ISO date or a year range with only punctuation around it
# (the gap before a range does not end in "." or ",": the token pattern's look-behind).
_DATE_CHUNK = re.compile(r"([\W_]*)(?:([0-9]{4}-[0-9]{2}-[0-9]{2})|([0-9]{4}[-\u2010\u2013][0-9]{2}))([\W_]*)")


# ASCII characters that are never part of a token (all but letters and digits).
_ASCII_GAP = "".join(chr(c) for c in range(128) if not chr(c).isalnum())
_ASCII_NUMBER = re.compile(NUMBER, re.ASCII)
_LETTER_STARTS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ORDINALS = frozenset({"st", "nd", "rd", "th"})


def simple_chunk(chunk: str, rules: frozenset[str]) -> ChunkTokens | None:
    """chunk_tokens for a chunk that is one ASCII word or numeral with only
    ASCII punctuation around it, made without the token pattern; None for any
    other chunk. With the rule "dates", an ISO date or a year range too."""
    nw = modes.WEIGHT if "weight" in rules else 1.0
    if "dates" in rules and chunk[:1] not in _LETTER_STARTS:
        m = _DATE_CHUNK.fullmatch(chunk)
        if m is not None and (m[2] is not None or not m[1].endswith((".", ","))):
            stemmer = stemmer_for(rules)
            toks = tuple(iso_date_toks(m[2], stemmer, nw) if m[2] is not None else year_range_toks(m[3], nw))
            lead_end = SENTENCE_END.search(m[1]) is not None
            return ChunkTokens(toks, toks, lead_end, SENTENCE_END.search(m[4]) is not None, not m[1], not m[4], None)
    if not chunk.isascii():
        return None
    if chunk.isalpha():  # the commonest chunks
        core, lead_end, lead, trail = chunk, False, "", ""
    elif chunk.isdigit():
        t = tok(chunk.lstrip("0") or "0", chunk, True, nw)
        return ChunkTokens((t,), (t,), False, False, True, True, None)
    else:
        core = chunk.strip(_ASCII_GAP)
        lead = chunk[: len(chunk) - len(chunk.lstrip(_ASCII_GAP))]
        trail = chunk[len(lead) + len(core) :]
        lead_end = "." in lead or "!" in lead or "?" in lead
    first_word = None
    if core.isalpha():
        first_word = core
        if not rules:  # seed: the chunk is case-folded already
            opened = closed = (word_tok(core, core, 1.0),)
        else:
            word = core.lower()
            keyer = stemmer_for(rules)
            key = keyer(word) if keyer else word
            if "scale" in rules and word in SCALES and word not in NUMBER_WORDS:
                opened = closed = (number_tok(word, scaled("1", SCALES[word]), nw),)  # billion, trillion
            else:
                opened = (word_tok(word, key, 1.0),)
                closed = (word_tok(word, key, nw),) if nw != 1.0 and core[0].isupper() and not lead_end else opened
    elif core.isdigit():
        opened = closed = (tok(core.lstrip("0") or "0", core, True, nw),)
    elif core[:1].isdigit() and (
        _ASCII_NUMBER.fullmatch(core)
        or ("ordinal" in rules and core[-2:] in _ORDINALS and _ASCII_NUMBER.fullmatch(core, 0, len(core) - 2))
    ):
        # 1,500 or 3.5, and with the rule "ordinal" 21st or 1,000th: one number.
        written = core if core[-1].isdigit() else core[:-2]
        opened = closed = (tok(number_key(written), written, True, nw),)
    else:
        return None
    trail_end = "." in trail or "!" in trail or "?" in trail
    return ChunkTokens(opened, closed, lead_end, trail_end, not lead, not trail, first_word)


def chunk_tokens(chunk: str, rules: frozenset[str]) -> ChunkTokens:
    """How the chunk reads: by simple_chunk when it can, else by the token pattern."""
    simple = simple_chunk(chunk, rules)
    return simple if simple is not None else scanned_chunk(chunk, rules)


_TOKEN_RE_SEED = re.compile(rf"({NUMBER})|({LETTERS})")


def scanned_chunk(chunk: str, rules: frozenset[str]) -> ChunkTokens:
    """chunk_tokens by the token pattern, for any chunk (the plain path).

    The seed rule has no rules that cross chunks: its gaps are not looked at
    and read as False."""
    if not rules:
        toks = []
        for m in _TOKEN_RE_SEED.finditer(chunk):
            num, word = m.group(1), m.group(2)
            if num is not None:
                toks.append(tok(number_key(num), num, True, 1.0))
            elif CJK_ANY.search(word):
                for part in CJK_SPLIT.findall(word):
                    toks.append(word_tok(part, part, 1.0))
            else:
                toks.append(word_tok(word, word, 1.0))
        opened = tuple(toks)
        return ChunkTokens(opened, opened, False, False, False, False, None)
    toks, first_start, first_word, last_end = scan(chunk, rules, True)
    if not toks:
        se = SENTENCE_END.search(chunk) is not None
        return ChunkTokens((), (), se, se, False, False, None)
    lead_end = SENTENCE_END.search(chunk, 0, first_start) is not None
    opened = tuple(toks)
    closed = opened
    if not lead_end and "weight" in rules and any(map(str.isupper, chunk)):
        closed = tuple(scan(chunk, rules, False)[0])
        if closed == opened:
            closed = opened
    trail_end = SENTENCE_END.search(chunk, last_end) is not None
    return ChunkTokens(opened, closed, lead_end, trail_end, first_start == 0, last_end == len(chunk), first_word)


def chunk_entry(chunk: str, rules: frozenset[str]) -> Simple | Many | Complex:
    """What is known of a chunk whatever surrounds it, read as it is.

    Most chunks are simple: one token, which nothing around it changes but
    its weight when it opens a sentence, of a whole weight and without alts
    or offers (Simple). A chunk of several such tokens, of which only the
    first may change (didn't, 29th in the seed rule, 2010-09-29), gives a
    Many of their entries. Any other chunk gives a Complex.
    """
    read = chunk_tokens(chunk, rules)
    opened, closed = read.opened, read.closed
    crossing = None
    changes = False
    if rules:
        scale_word = read.first_word if read.lead_clean and read.first_word in SCALES and "scale" in rules else None
        if len(opened) == 1:  # most chunks
            t = opened[0]
            month = not t[T_NUMBER] and (t[T_TEXT] in MONTH_ABBR or t[T_TEXT] == "may") and "dates" in rules
            offers = bool(t[T_OFFERS])
        else:
            month = "dates" in rules and any(not t[T_NUMBER] and (t[T_TEXT] in MONTH_ABBR or t[T_TEXT] == "may") for t in opened)
            offers = any(t[T_OFFERS] for t in opened)
        whole = float(modes.WEIGHT).is_integer() or all([t[T_EXACT] for t in opened + closed])
        changes = scale_word is not None or month
        if changes or offers or not opened or not whole:
            crossing = Crossing(read.lead_end, read.lead_clean, scale_word, month, offers)
    if crossing is None and opened and len(opened) == len(closed) and opened[1:] == closed[1:]:
        # Simple tokens, of which only the first may change with what precedes the chunk.
        if len(closed) == 1:
            trail_end, trail_clean = read.trail_end, read.trail_clean
        else:  # between the tokens of a chunk the gap is never whitespace
            trail_end, trail_clean = False, False
        opening = None if opened[0] == closed[0] else _simple(opened[0], trail_end, trail_clean, None)
        first = _simple(closed[0], trail_end, trail_clean, opening)
        if len(closed) == 1:
            return first
        # Several: their entries take the chunk's place (entries_of); no
        # sentence end between them changes a weight.
        middle = [_simple(t, False, False, None) for t in closed[1:-1]]
        return Many((first, *middle, _simple(closed[-1], read.trail_end, read.trail_clean, None)))
    if not rules and not opened:
        return Many()  # the seed rule: a chunk without tokens is nothing
    return Complex(closed, opened, read.trail_end, read.trail_clean, crossing, changes)
