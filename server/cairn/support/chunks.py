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

from . import modes
from .numbers import NUMBER, number_key, scaled
from .stemming import light_stem, stem, stemmer_for
from .tokenise import (
    CJK_ANY,
    CJK_SPLIT,
    LETTERS,
    SENTENCE_END,
    iso_date_toks,
    number_tok,
    scan,
    tok,
    word_tok,
    year_range_toks,
)
from .words import MONTH_ABBR, NUMBER_WORDS, SCALES

# A chunk that is an ISO date or a year range with only punctuation around it
# (the gap before a range does not end in "." or ",": the token pattern's look-behind).
_DATE_CHUNK = re.compile(r"([\W_]*)(?:([0-9]{4}-[0-9]{2}-[0-9]{2})|([0-9]{4}[-\u2010\u2013][0-9]{2}))([\W_]*)")


# ASCII characters that are never part of a token (all but letters and digits).
_ASCII_GAP = "".join(chr(c) for c in range(128) if not chr(c).isalnum())
_ASCII_NUMBER = re.compile(NUMBER, re.ASCII)
_LETTER_STARTS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ORDINALS = frozenset({"st", "nd", "rd", "th"})


def simple_chunk(chunk: str, rules: frozenset[str]) -> tuple | None:
    """chunk_tokens for a chunk that is one ASCII word or numeral with only
    ASCII punctuation around it, made without the token pattern; None for any
    other chunk. With the rule "dates", an ISO date or a year range too."""
    nw = modes.WEIGHT if "weight" in rules else 1.0
    if "dates" in rules and chunk[:1] not in _LETTER_STARTS:
        m = _DATE_CHUNK.fullmatch(chunk)
        if m is not None and (m[2] is not None or not m[1].endswith((".", ","))):
            stemmer = stemmer_for(rules)
            toks = tuple(iso_date_toks(m[2], stemmer, nw) if m[2] is not None else year_range_toks(m[3], nw))
            lead_se = SENTENCE_END.search(m[1]) is not None
            return toks, toks, lead_se, SENTENCE_END.search(m[4]) is not None, not m[1], not m[4], None
    if not chunk.isascii():
        return None
    if chunk.isalpha():  # the commonest chunks
        core, lead_se, lead, trail = chunk, False, "", ""
    elif chunk.isdigit():
        t = tok(chunk.lstrip("0") or "0", chunk, True, nw)
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
            opened = closed = (word_tok(core, core, 1.0),)
        else:
            word = core.lower()
            key = stem(word) if "stem" in rules else light_stem(word) if "light_stem" in rules else word
            if "scale" in rules and word in SCALES and word not in NUMBER_WORDS:
                opened = closed = (number_tok(word, scaled("1", SCALES[word]), nw),)  # billion, trillion
            else:
                opened = (word_tok(word, key, 1.0),)
                closed = (word_tok(word, key, nw),) if nw != 1.0 and core[0].isupper() and not lead_se else opened
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
    trail_se = "." in trail or "!" in trail or "?" in trail
    return opened, closed, lead_se, trail_se, not lead, not trail, first_word


def chunk_tokens(chunk: str, rules: frozenset[str]) -> tuple:
    """(tokens when the chunk's first token opens a sentence, tokens
    otherwise, a sentence ends in the gap before its first token, ... after
    its last token, no gap before its first token, none after its last, the
    word of its first match or None)."""
    simple = simple_chunk(chunk, rules)
    return simple if simple is not None else scanned_chunk(chunk, rules)


_TOKEN_RE_SEED = re.compile(rf"({NUMBER})|({LETTERS})")


def scanned_chunk(chunk: str, rules: frozenset[str]) -> tuple:
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
        return opened, opened, False, False, False, False, None
    toks, first_start, first_word, last_end = scan(chunk, rules, True)
    if not toks:
        se = SENTENCE_END.search(chunk) is not None
        return (), (), se, se, False, False, None
    lead_se = SENTENCE_END.search(chunk, 0, first_start) is not None
    opened = tuple(toks)
    closed = opened
    if not lead_se and "weight" in rules and any(map(str.isupper, chunk)):
        closed = tuple(scan(chunk, rules, False)[0])
        if closed == opened:
            closed = opened
    trail_se = SENTENCE_END.search(chunk, last_end) is not None
    return opened, closed, lead_se, trail_se, first_start == 0, last_end == len(chunk), first_word


def chunk_entry(chunk: str, rules: frozenset[str]) -> tuple:
    """What is known of a chunk whatever surrounds it, read as it is, in one tuple.

    Most chunks are simple: one token, which nothing around it changes but
    its weight when it opens a sentence, of a whole weight and without alts
    or offers. A simple chunk's entry is its token (tok: fields 0 to 7),
    then 8: a sentence ends after it; 9: no gap after it; 10: the entry for
    when it opens a sentence, if its weight is then another, else None; 11:
    None. A chunk of several such tokens, of which only the first may change
    (didn't, 29th in the seed rule, 2010-09-29), gives a Many of their
    entries, which take its place in the text (entries_of). Any other chunk's
    entry has its full entry in field 11 (full_entry).
    """
    opened, closed, lead_se, trail_se, lead_clean, trail_clean, first_word = chunk_tokens(chunk, rules)
    special = None
    changes = False
    opened, closed = tuple(opened), tuple(closed)
    if rules:
        scale_word = first_word if lead_clean and first_word in SCALES and "scale" in rules else None
        if len(opened) == 1:  # most chunks
            t = opened[0]
            month = not t[2] and (t[1] in MONTH_ABBR or t[1] == "may") and "dates" in rules
            offers = bool(t[5])
        else:
            month = "dates" in rules and any(not t[2] and (t[1] in MONTH_ABBR or t[1] == "may") for t in opened)
            offers = any(t[5] for t in opened)
        whole = float(modes.WEIGHT).is_integer() or all([t[7] for t in opened + closed])
        changes = scale_word is not None or month
        if changes or offers or not opened or not whole:
            special = (lead_se, lead_clean, scale_word, month, offers)
    if special is None and opened and len(opened) == len(closed) and opened[1:] == closed[1:]:
        # Simple tokens, of which only the first may change with what precedes the chunk.
        first = closed[0] + ((trail_se, trail_clean) if len(closed) == 1 else (False, False))
        first += (None if opened[0] == closed[0] else opened[0] + first[8:] + (None, None), None)
        if len(closed) == 1:
            return first
        # Several: their entries take the chunk's place (entries_of); between them
        # the gap is never whitespace and no sentence end changes a weight.
        last = closed[-1] + (trail_se, trail_clean, None, None)
        return Many((first, *[t + (False, False, None, None) for t in closed[1:-1]], last))
    if not rules and not opened:
        return Many()  # the seed rule: a chunk without tokens is nothing
    return COMPLEX + ((closed, opened, trail_se, trail_clean, special, changes),)


class Many(tuple):
    """The entries of the simple tokens of a chunk, which take its place."""


# A complex chunk's entry: nothing but its full entry, field 11.
COMPLEX = (None, None, False, None, None, None, False, False, False, False, None)


def full_entry(e: tuple) -> tuple:
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

