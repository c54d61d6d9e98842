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
(`Solaris`), or a code name (`auth_timeout`, `.FEATURES`, `-E`); or, on
both sides, a word between quotation marks or backticks, which a text uses
as the very word (`the field "summary"` is not `the field "title"`). Ordinary
words differ between a claim and its quote all the time by paraphrase
(`makes` for `creates`) and are left to the score. Numbers are the quantity
rule's, and a name the quotes hold anywhere, or that the cited source's
heading holds, is not replaced by anything.

Where the two differ by runs of different lengths (`grep's -E option` and
`the -P option`), the words next to the shared ones are compared, and only
when one is spelled as a name: a capital alone does not do there, since a
title or a role stands for a name (`Obama` and `the President`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence, Set
from difflib import SequenceMatcher
from functools import lru_cache
from typing import NamedTuple

from .name_words import (
    _COUNT_WORDS,
    _DIGIT,
    _TOKEN_OR_STOP,
    _candidate,
    _code_name,
    _in_dictionary,
    _is_name,
    _tokens,
    _unit,
    _Word,
    _written_as_name,
)
from .words import STOPWORDS, chunks

__all__ = ["displaced", "in_place", "prepare", "swapped"]

def _differ(a: str, b: str) -> bool:
    """Whether two words are different words: not when they differ only in case, hyphens, Unicode form
    (MICRO SIGN and GREEK MU are one letter to NFKC) or as a month or a day and its abbreviation (`Oct`,
    `Sept`, `Wed`)."""
    x, y = _same_form(a), _same_form(b)
    return x != y and _MONTHS.get(x, x) != _MONTHS.get(y, y)


def _same_form(w: str) -> str:
    return unicodedata.normalize("NFKC", w).replace("-", "").casefold().rstrip(".")


# a month's abbreviations, each to its full name (lower case)
_MONTHS = {abbr: full for full in ("january february march april may june july august september october "
                                   "november december").split()
           for abbr in {full[:3], full[:4]}} | {"sept": "september"}
# and a day of the week's ("Wed", "Thurs", "Tues")
_MONTHS.update({full[:3]: full for full in "monday tuesday wednesday thursday friday saturday sunday".split()})
_MONTHS.update({"tues": "tuesday", "tue": "tuesday", "weds": "wednesday", "thu": "thursday", "thur": "thursday",
                "thurs": "thursday", "sat": "saturday"})


def _in_place(mine: _Word, theirs: _Word, *, edge: bool) -> bool:
    """Whether the quote's word `theirs`, in the place of the claim's candidate
    `mine`, names something else. Both quoted: two literal words. Otherwise
    both names, and one written as a name: the dictionary alone misses newer
    words ("configurable"), so a word it lacks is a name only beside one
    spelled as a name. `edge`: the two words only stand next to the same
    shared words, in runs of different lengths (`grep's -E option` and `the
    -P option`); then one must be spelled as a name (quoted, code, a capital
    inside it) and the other too or held by no dictionary; a capital alone
    is not enough (`Obama` and `the President`)."""
    t, opens = theirs.text, theirs.opens
    count = _COUNT_WORDS.get(mine.text.lower())
    if count is not None or t.lower() in _COUNT_WORDS:
        # one count word in place of another: they differ when they stand for different numbers
        return not edge and count is not None and _COUNT_WORDS.get(t.lower(), count) != count
    if _DIGIT.search(t) or t.lower() in STOPWORDS or not _differ(mine.text, t) or _unit(t):
        return False
    if mine.quoted and theirs.quoted:
        return True
    if _described(mine.text, t):
        return False
    if edge:
        return (_spelled(mine) or _spelled(theirs)) and all(_spelled(w) or _is_name(w.text, True) for w in (mine, theirs))
    return _is_name(t, opens) and (_written_as_name(t, opens) or _written_as_name(mine.text, mine.opens))


def _described(a: str, b: str) -> bool:
    """Two hyphenated compounds alike but in one part, that part a common word in lower case on one side
    (`AI-supported` against `AI-Powered`, `cloud-based` against `Cloud-Hosted`): a compound adjective
    describing a thing in other words, not one name in place of another; English writes a name's every
    part with a capital (`X-Men`, `X-Files`)."""
    pa, pb = a.split("-"), b.split("-")
    if len(pa) < 2 or len(pa) != len(pb) or not all(pa) or not all(pb):  # `-z` is an option, no compound
        return False
    differ = [(x, y) for x, y in zip(pa, pb, strict=True) if _differ(x, y)]
    if len(differ) != 1:
        return False
    return any(len(w) > 2 and w.islower() and _in_dictionary(w) for w in differ[0])


def _spelled(w: _Word) -> bool:
    """A name by its spelling alone: quoted, a code name, or a capital inside it."""
    t = w.text
    return w.quoted or _code_name(t) or any(c.isupper() for c in t[1:])


def displaced(claim: str, quotes: Sequence[str], named: str = "", *, plain: bool = False) -> tuple[str, str] | None:
    """(the claim's name, the quote's name) when the claim puts one name where
    a quote, around the same words, has another; None otherwise. `named`: the
    cited sources' headings, whose names the claim may use freely. `plain=True`
    reads the claim's words whole (_tokens) and aligns every quote with the
    claim, without the reading chunk by chunk that spares most claims
    (_unheld) and the test that spares most alignments (_may_stand): the same
    answer, which the tests hold it to."""
    held, near = _held(tuple(quotes), named)
    marks = plain
    if not plain:
        a, found, marks = _unheld(claim, held)
    if marks:  # plain, or a quoted word, which may be a candidate whatever it is: read the claim whole
        ctoks = _tokens(claim)
        a = [w.text.lower() for w in ctoks]
        candidates = _candidates(ctoks, a, held, near)
    else:
        # the cheap tests first, on the words that may be candidates: most claims have no
        # name the quotes lack, or none beside a word the quotes hold
        last = len(a) - 1
        found = [i for i in found if (i > 0 and a[i - 1] in near) or (i < last and a[i + 1] in near)]
        if not found:
            return None
        # only now each word's place in its sentence, which may spare a capital at its opening
        ctoks = _tokens(claim)
        candidates = {i for i in found if _candidate(ctoks[i].text, ctoks[i].opens)}
    if not candidates:
        return None
    for quote in quotes:
        qtoks = _tokens(quote)
        after, before, b = _places(quote)
        if not plain and not _may_stand(ctoks, a, candidates, qtoks, after, before, b):
            continue
        ops = SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
        for k, (tag, i1, i2, j1, j2) in enumerate(ops):
            if tag != "replace":
                continue
            before_run = ops[k - 1][2] - ops[k - 1][1] if k > 0 and ops[k - 1][0] == "equal" else 0
            after_run = ops[k + 1][2] - ops[k + 1][1] if k + 1 < len(ops) and ops[k + 1][0] == "equal" else 0
            if i2 - i1 == 1 and j2 - j1 == 1:
                # one word for one, the same words around both: at least two
                pairs = [(i1, j1, False)] if before_run + after_run >= 2 else []
            elif i2 - i1 == 1 and before_run >= 2 and b[j1 + 1] in STOPWORDS and not after_run \
                    and all(not w[:1].isalnum() for w in a[i2:]):
                # the claim's last word against a word the quote goes on from with a phrase of its own
                # ("signed in London." against "signed in Paris in 1783."): one word for one
                pairs = [(i1, j1, False)]
            else:
                # runs of different lengths: the words next to at least two shared ones
                pairs = (([(i1, j1, True)] if before_run >= 2 else [])
                         + ([(i2 - 1, j2 - 1, True)] if after_run >= 2 else []))
            for i, j, edge in pairs:
                if i in candidates and _in_place(ctoks[i], qtoks[j], edge=edge):
                    return ctoks[i].text, qtoks[j].text
    return None


def _candidates(ctoks: Sequence[_Word], a: Sequence[str], held: str, near: frozenset[str]) -> set[int]:
    """The places of the claim's words that may stand in another name's place:
    quoted, or a candidate where it stands in its sentence (_candidate); not
    held by the quotes or the headings; and beside a word they hold, to stand
    between shared words."""
    last = len(a) - 1
    return {i for i, w in enumerate(ctoks)
            if (w.quoted or _candidate(w.text, w.opens)) and not _is_held(w.text.lower(), held)
            and ((i > 0 and a[i - 1] in near) or (i < last and a[i + 1] in near))}


def _is_held(word: str, held: str) -> bool:
    """Whether the quotes or headings (`held`, in lower case) hold a word (in lower case): as it is
    written, or a hyphenated compound written open or solid (`posix-compliant` in `a POSIX compliant
    processor`), which is the same word, not a name in place of another."""
    if word in held:
        return True
    inner = word.strip("-")  # (an option's leading hyphen, `-a`, joins nothing)
    return "-" in inner and (inner.replace("-", " ") in held or inner.replace("-", "") in held)


@lru_cache(maxsize=4096)
def _held(quotes: tuple[str, ...], named: str) -> tuple[str, frozenset[str]]:
    """The quotes and the headings in lower case, as one text, and their words in
    lower case (kept: quotes come again)."""
    words = frozenset().union(*map(_lowered_words, (*quotes, named)))
    return " ".join(quotes).lower() + "\n" + named.lower(), words


@lru_cache(maxsize=8192)
def _lowered_words(text: str) -> frozenset[str]:
    """The words of `text` in lower case (kept: quotes come again)."""
    return frozenset(w.text.lower() for w in _tokens(text))


def _unheld(claim: str, held: str) -> tuple[list[str], list[int], bool]:
    """The claim's words in lower case; the places of those that may be
    candidates and that the quotes and headings (`held`) lack; and whether a
    quotation mark or a backtick stands in the claim. Read chunk by chunk (a
    run between white space), each chunk's record kept: _TOKEN_OR_STOP matches
    no white space, so a chunk's words are those the whole text has there.
    Without a quotation mark, no word is quoted and the places are those of
    every candidate displaced() can find, and maybe more: a word not at a
    sentence's opening is a candidate whenever it is at one (_candidate(w,
    False) holds whenever _candidate(w, True) does), and which words open a
    sentence is only known by reading the claim in order."""
    kept = _CHUNK_CANDIDATES
    a: list[str] = []
    found: list[int] = []
    marks = False
    for chunk in chunks(claim):
        got = kept.get(chunk)
        if got is None:
            got = _chunk_candidates(chunk)
        if got[0]:
            marks = True
        for k, w in got[1]:
            if not _is_held(w, held):
                found.append(len(a) + k)
        a += got[2]
    return a, found, marks


# per chunk seen: (it holds a quotation mark or a backtick, its words that may be candidates as
# (place among its words, the word in lower case), its words in lower case); emptied when full
# (a dict's get is quicker than an lru_cache)
_CHUNK_CANDIDATES: dict[str, tuple[bool, tuple[tuple[int, str], ...], tuple[str, ...]]] = {}


def _chunk_candidates(chunk: str) -> tuple[bool, tuple[tuple[int, str], ...], tuple[str, ...]]:
    marks = False
    words: list[str] = []
    may: list[tuple[int, str]] = []
    for m in _TOKEN_OR_STOP.finditer(chunk):
        if m.group("q") is not None:
            marks = True
        else:
            w = m.group("w")
            if w is not None:
                if _candidate(w, False):
                    may.append((len(words), w.lower()))
                words.append(w.lower())
    got = _CHUNK_CANDIDATES[chunk] = (marks, tuple(may), tuple(words))
    if len(_CHUNK_CANDIDATES) > 65536:
        _CHUNK_CANDIDATES.clear()
    return got


def _may_stand(ctoks: Sequence[_Word], a: Sequence[str], candidates: set[int], qtoks: Sequence[_Word],
               after: dict[str, list[int]], before: dict[str, list[int]], b: Sequence[str]) -> bool:
    """False when aligning the claim with this quote (its words `qtoks`, lower
    case `b`, _places `after` and `before`) surely finds no name in place of
    another. Every pair (i, j) displaced() tests has shared words around it,
    as the alignment's equal runs hold them, on both sides: a one-for-one
    replacement has two before it, or two after it, or one on each side; the
    edge of a longer run has two before it or two after it. So some candidate
    i and some word j of the quote that may name something must have
    a[i-2:i] == b[j-2:j], or a[i+1:i+3] == b[j+1:j+3], or a[i-1] == b[j-1] and
    a[i+1] == b[j+1]; and j name something else."""
    n, m = len(a), len(b)
    for i in candidates:
        places: list[int] = []
        if i > 0:  # j with b[j - 1] == a[i - 1]: one more shared word before, or one after
            places += [j for j in after.get(a[i - 1], ())
                       if (i > 1 and j > 1 and a[i - 2] == b[j - 2]) or (i + 1 < n and j + 1 < m and a[i + 1] == b[j + 1])]
        if i + 2 < n:  # j with b[j + 1] == a[i + 1]: one more shared word after
            places += [j for j in before.get(a[i + 1], ()) if j + 2 < m and a[i + 2] == b[j + 2]]
        for j in places:
            if _in_place(ctoks[i], qtoks[j], edge=False) or _in_place(ctoks[i], qtoks[j], edge=True):
                return True
    return False


@lru_cache(maxsize=8192)
def _places(quote: str) -> tuple[dict[str, list[int]], dict[str, list[int]], tuple[str, ...]]:
    """For each word of a quote (lower case), the places right after it and
    right before it where a word stands that may name something; and the
    quote's words in lower case (kept, by the quote's text: quotes come
    again). A word _in_place() can take is a count word, or no number,
    stopword or unit, and a name (_is_name, with a capital inside a sentence
    counting) unless it is quoted: every other word it turns down at once."""
    qtoks = _tokens(quote)
    b = tuple(w.text.lower() for w in qtoks)
    may = [w.text.lower() in _COUNT_WORDS or (not _DIGIT.search(w.text) and w.text.lower() not in STOPWORDS
           and not _unit(w.text) and (w.quoted or _is_name(w.text, False))) for w in qtoks]
    after: dict[str, list[int]] = {}
    before: dict[str, list[int]] = {}
    for j, w in enumerate(b):
        if j + 1 < len(b) and may[j + 1]:
            after.setdefault(w, []).append(j + 1)
        if j > 0 and may[j - 1]:
            before.setdefault(w, []).append(j - 1)
    return after, before, b


# words that join two things without order: "A and B" says what "B and A" says
_UNORDERED = frozenset({"and", "or", "nor", "with", "vs", "versus", "between", "both", "either", "neither", "as", "well"})
# the passive swaps the roles back: "B is overridden by A" says what "A overrides B" says
_PASSIVE = frozenset({"by", "is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"})
# a code option whole at the start of a word (-A, --sort); elsewhere a hyphen parts words (http-to-https)
_PART = re.compile(r"(?<![\w.])-{1,2}\w(?:[\w.\-/+]*\w)?|[\w.+/]*\w")
_NEAR = 6  # at most this many words between the two names: one relation, not two clauses


def _key(w: str) -> str:
    """How a name is compared: a code name exactly (`-a` is not `-A`), any other name case-folded."""
    return w if _code_name(w) else w.lower()


class _Parts(NamedTuple):
    words: tuple[str, ...]
    keys: tuple[str, ...]  # each word as names are compared (_key)
    spans: tuple[tuple[int, int], ...]


@lru_cache(maxsize=8192)
def _parts(text: str) -> _Parts:
    """The words of `text` for the order test, as compared and where they are (kept: quotes come again).
    No word holds white space, and white space before a chunk (a run between white space) is
    neither a word character nor a full stop, so each chunk is read alone, once: the same
    words as `_parts_plain`."""
    words: list[str] = []
    keys: list[str] = []
    spans: list[tuple[int, int]] = []
    i = 0
    for chunk in chunks(text):
        i = text.find(chunk, i)
        got = _CHUNK_PARTS.get(chunk)
        if got is None:
            got = _chunk_parts(chunk)
        for w, k, (s, e) in zip(*got):
            words.append(w)
            keys.append(k)
            spans.append((i + s, i + e))
        i += len(chunk)
    return _Parts(tuple(words), tuple(keys), tuple(spans))


# the parts of each chunk seen, emptied when full (a dict's get is quicker than an lru_cache)
_CHUNK_PARTS: dict[str, _Parts] = {}


def _chunk_parts(chunk: str) -> _Parts:
    got = _CHUNK_PARTS[chunk] = _parts_plain(chunk)
    if len(_CHUNK_PARTS) > 65536:
        _CHUNK_PARTS.clear()
    return got


def _parts_plain(text: str) -> _Parts:
    """`_parts` in one pass over the whole text."""
    ms = list(_PART.finditer(text))
    words = tuple(m.group() for m in ms)
    return _Parts(words, tuple(map(_key, words)), tuple(m.span() for m in ms))


def _relation(words: Sequence[str]) -> frozenset[str] | None:
    """The words between two names, when they make an ordered relation in the active voice."""
    low = [w.lower() for w in words]
    if not low or len(low) > _NEAR or any(w in _UNORDERED or w in _PASSIVE for w in low):
        return None
    return frozenset(low)


@lru_cache(maxsize=65536)
def _name_word(w: str) -> bool:
    """A word the order test takes for a name: spelled as one, or held by no dictionary (kept per word)."""
    return _spelled(_Word(w, False, False)) or _is_name(w, True)


def swapped(claim: str, quotes: Sequence[str], *, plain: bool = False) -> tuple[str, str] | None:
    """(the claim's words, the quote's) when the claim puts two names the other
    way round around the same relation: `-a now overrides -A` against `-A now
    overrides -a`, `http-to-https` against `https-to-http`. Words that join
    without order (`A and B`) and the passive (`B is overridden by A`, which
    swaps the roles back) are left alone, and so is a quote that also says it
    the claim's way round. `plain=True` reads the claim whole (_parts),
    without the test that spares most claims (_few_names) and the reading
    chunk by chunk (_claim_names): the same answer."""
    held = _keys(quotes[0]) if len(quotes) == 1 else set().union(*map(_keys, quotes))
    cw: Sequence[str]
    ck: Sequence[str]
    if plain:
        cparts = _parts(claim)
        cw, ck = cparts.words, cparts.keys
        # names the claim writes once and a quote holds: the cheap tests first
        names = [i for i, (w, k) in enumerate(zip(cw, ck)) if k in held and ck.count(k) == 1
                 and w.lower() not in STOPWORDS and not _DIGIT.search(w)]
        if len(names) < 2:
            return None
        names = [i for i in names if _name_word(cw[i])]
    else:
        if _few_names(claim, held):
            return None
        cw, ck, names = _claim_names(claim, held)
    if len(names) < 2:
        return None
    for quote in quotes:
        qparts = _parts(quote)
        qw = qparts.words
        at = _key_places(quote)
        for x in names:
            for y in names:
                if not x < y <= x + _NEAR + 1 or ck[x] not in at or ck[y] not in at:
                    continue
                rel = _relation(cw[x + 1:y])
                if rel is None:
                    continue
                # the quote's pairs of the two, each way round, with a relation that shares a word
                ways = {(a < b) for a in at[ck[x]] for b in at[ck[y]] if 0 < abs(b - a) <= _NEAR + 1
                        and (r := _relation(qw[min(a, b) + 1:max(a, b)])) is not None and r & rel}
                if ways == {False}:
                    a, b = min(((a, b) for a in at[ck[x]] for b in at[ck[y]] if b < a <= b + _NEAR + 1
                                and (r := _relation(qw[b + 1:a])) is not None and r & rel), key=lambda p: p[0] - p[1])
                    cspans = _parts(claim).spans  # where the claim's words stand: only for the answer
                    return (claim[cspans[x][0]:cspans[y][1]],
                            quote[qparts.spans[b][0]:qparts.spans[a][1]])
    return None


@lru_cache(maxsize=8192)
def _key_places(text: str) -> dict[str, list[int]]:
    """Where each key of the words of `text` stands, for the order test (kept: quotes come again)."""
    at: dict[str, list[int]] = {}
    for j, k in enumerate(_parts(text).keys):
        at.setdefault(k, []).append(j)
    return at


@lru_cache(maxsize=8192)
def _keys(text: str) -> frozenset[str]:
    """The keys of the words of `text` for the order test (kept: quotes come again)."""
    return frozenset(_parts(text).keys)


def _few_names(claim: str, held: Set[str]) -> bool:
    """True when swapped() surely finds fewer than two names in the claim: it
    counts the claim's words that are names and that the quotes hold, each
    read within its chunk as _parts reads them, without the test that the
    claim writes each once (which can only leave fewer)."""
    kept = _CHUNK_NAMES
    n = 0
    for chunk in chunks(claim):
        got = kept.get(chunk)
        if got is None:
            got = _chunk_names(chunk)
        for k in got[0]:
            if k in held:
                n += 1
    return n < 2


def _claim_names(claim: str, held: Set[str]) -> tuple[list[str], list[str], list[int]]:
    """The claim's words and their keys, as _parts reads them, and the places
    of its names that the quotes hold and that it writes once: read from each
    chunk's record (_chunk_names), without each word's place in the text,
    which only an answer needs."""
    kept = _CHUNK_NAMES
    words: list[str] = []
    keys: list[str] = []
    names: list[int] = []
    for chunk in chunks(claim):
        got = kept.get(chunk)
        if got is None:
            got = _chunk_names(chunk)
        _, at, parts = got
        for j in at:
            if parts.keys[j] in held:
                names.append(len(words) + j)
        words += parts.words
        keys += parts.keys
    return words, keys, [i for i in names if keys.count(keys[i]) == 1]


# per chunk seen: the keys of its words that swapped() takes for names (not a stopword, no
# digit, _name_word), their places among its words, and its words (_Parts); emptied when full
_CHUNK_NAMES: dict[str, tuple[tuple[str, ...], tuple[int, ...], _Parts]] = {}


def _chunk_names(chunk: str) -> tuple[tuple[str, ...], tuple[int, ...], _Parts]:
    got = _CHUNK_PARTS.get(chunk)
    if got is None:
        got = _chunk_parts(chunk)
    at = tuple(j for j, w in enumerate(got.words)
               if w.lower() not in STOPWORDS and not _DIGIT.search(w) and _name_word(w))
    names = _CHUNK_NAMES[chunk] = (tuple(got.keys[j] for j in at), at, got)
    if len(_CHUNK_NAMES) > 65536:
        _CHUNK_NAMES.clear()
    return names


def in_place(claim: str, quotes: Sequence[str], named: str = "") -> tuple[str, str] | None:
    """The rule `names`: a name in the place of another (displaced), or two
    names the other way round (swapped); None when neither."""
    return displaced(claim, quotes, named) or swapped(claim, quotes)


def prepare(quote: str) -> None:
    """Read a quote for both tests, once, when the engine first meets it:
    what each test keeps of a quote (its words, the places a name may stand,
    where each word stands) is then ready for every claim cited to it, even
    when the first claim's check stopped before a test (its score too low, no
    candidate). The answers do not change; a claim typed later against the
    same quote reads only itself."""
    _places(quote)
    _lowered_words(quote)
    _key_places(quote)
    _keys(quote)

