"""Polarity and direction (SPEC section 4, `contradiction`).

A text is read clause by clause. Each clause has a **polarity**: negated
when it holds an odd number of negations (`not`, `n't`, `never`,
`cannot`, `nothing`, a clause-opening `no`, `no one`, `neither`/`nor`,
`fails to`, `forbids`, …), *ceased* when it says that something no longer
holds (`no longer`, `used to`, `stopped`, `ceased`), positive otherwise.
A claim clause contradicts the quotes when the quote clause that shares
the most of its words (at least two) has the opposite polarity, and no
other clause sharing as much agrees. Negation thus attaches to a
statement, not to a word: `Refunds are not given` agrees with
`No refunds are given`.

Some words carry their own polarity: a privative prefix (`non-exclusive`,
`irrevocable`, `illegal`, `unable`), the suffix `-free` (`royalty-free`),
`without X`, `at no charge`, and antonyms (`prohibited` is `permitted`
negated, `excluded` is `included` negated). Such a word contradicts the
same word of the other side with the other polarity. A prefix counts as
privative only when what is left is itself an English word (Webster's
Second International, from the `english-words` package): `under` is not
`der` negated, `interest` is not `terest` negated.

Direction and bound words (`above` / `below`, `more than` / `less than`,
`at least` / `at most`, `before` / `prior to` / `after`, `within`,
`increase` / `decrease`, `minimum` / `maximum`) are read with what they
bound (the number or word next to them): the claim contradicts the quotes
when it bounds the same thing the other way. A comparison sign right before
a number (`>=10`, `≤ 4`) bounds it as the words do, and so do the points
from which on or up to which a release holds (`since`, `beginning with`,
`1.42 and earlier`; `older` of a release or a year is earlier, of an age
more). A bound in a condition (`if it is longer than 16 characters`) is
compared only with bounds in conditions. What ceased held before: a clause
in the past (`was named X`) agrees with `used to be named X`. A negation and an opposite
direction in the same pair of clauses cancel (`no refunds after 30 days`
agrees with `refunds within 30 days`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from ..support import STOPWORDS, stem
from ..support.words import chunks as _chunks_of
from .lexicon import (
    ANTONYMS,
    BE,
    CEASING,
    CLAUSE_BREAKERS,
    COORDINATORS,
    DIRECTIONS,
    HOLDING,
    NEGATING_BEFORE_TO,
    NEGATING_VERBS,
    NEGATORS,
    NUMBER_ONLY,
    NUMBER_WORDS,
    OLDER,
    PERMISSIVE,
    PERSONAL,
    PREFIXES,
    PREPOSITIONS,
    STEADY,
    SUBJECTS,
    SUBORDINATORS,
    TO_PREPOSITIONAL,
    TRANSPARENT,
    privative,
)

__all__ = ["Contradiction", "Reading", "contradictions", "prepare", "read"]

POSITIVE, NEGATED, CEASED = "+", "-", "ceased"
TIMED = "until"  # a word a negation with "until" governs: denied before a time, stated after it


class Marked(NamedTuple):
    """A content word: its concept (stem of its base), whether the word
    itself is negative (prefix, suffix, antonym, `without X`), and whether a
    word-level mark made it so."""

    concept: str
    negative: bool
    marked: bool
    shown: str
    start: int
    end: int
    clause: int  # index of its clause


class Direction(NamedTuple):
    axis: str  # "order" or "change"
    sign: int  # +1 / -1
    anchor: str | None  # what is bounded ("n:30", "w:deliveri"), None for change words
    shown: str
    start: int = 0
    conditional: bool = False  # in a condition ("if it is longer than 16 characters, ..."): not asserted


class Clause(NamedTuple):
    start: int
    end: int
    polarity: str  # POSITIVE, NEGATED, CEASED
    concepts: frozenset[str]  # stems of its content words
    cue: str  # the negation as written ("cannot be returned"), "" when positive
    heads: frozenset[str] = frozenset()  # stems of the words its negation governs ("return")
    negative: frozenset[str] = frozenset()  # concepts written negatively in it (non-exclusive)
    unasserted: frozenset[str] = frozenset()  # concepts it only names ("to identify"), not states
    question: bool = False  # a question asserts nothing
    mixed: frozenset[str] = frozenset()  # concepts written both plainly and negatively: it denies neither way
    # opened by a conjunction (`though`, `but`) and a pronoun, not by the end of a sentence: it goes on
    # speaking of what the clause before it spoke of ("are no longer documented, though they still work")
    follows: bool = False
    # the words before the head of a noun phrase "no" denies ("admission" in "no admission fee"): denied
    # with it as words, but what the clause states is of its head
    modifiers: frozenset[str] = frozenset()
    # the amount right before its first condition: "1" in "1 if no lines were selected", one case of a list
    case: str = ""
    # its verb is in the past ("was", "were", "had"): what it says held then, as "used to" says too
    past: bool = False
    # a condition after the statement it conditions ("... if no desktop is available"): it states nothing
    supposed: bool = False


class Reading(NamedTuple):
    clauses: tuple[Clause, ...]
    words: tuple[Marked, ...]
    directions: tuple[Direction, ...]


@dataclass(frozen=True, slots=True)
class Contradiction:
    claim: str
    quote: str
    kind: str  # "negation", "antonym", "direction"

    @property
    def message(self) -> str:
        return f"claim says {self.claim}; quote says {self.quote}"


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
# the past forms of "be" and "have": a clause that holds them speaks of what held then
_PAST = frozenset({"was", "were", "had"})
# the words that name a release before its number ("version 1.42"): a bound on them bounds the number
_RELEASE_WORDS = frozenset({"version", "release", "versions", "releases", "linux", "kernel", "kernels"})
# the subordinators of a condition: what a bound says under them is not asserted
_CONDITIONS = frozenset({"if", "unless", "when", "whenever"})


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


# read()'s steps, module functions rather than closures over its state: compiled (cairn/native.py), a
# closure and its environment hold each other, and every token read would wait for the cycle collector


def _close(st: _State, clauses: list[Clause], end: int, question: bool = False) -> None:
    """The clause read so far ends at `end`: kept, with its polarity, when it says something."""
    if st.concepts or st.negations or st.ceased:
        if st.lifted and not st.negations:
            pol = POSITIVE  # "no longer prohibited", "stopped refusing": the denial ceased, so it holds now
        else:
            pol = CEASED if st.ceased and not st.negations else NEGATED if st.negations else POSITIVE
        said = pol != POSITIVE or st.lifted  # a clause whose cue and heads decide what it says
        clauses.append(Clause(st.start, end, pol, frozenset(st.concepts), st.cue if said else "",
                              frozenset(st.heads) if said else frozenset(),
                              frozenset(st.negative - st.plain), frozenset(st.unasserted), question,
                              frozenset((st.negative & st.plain) | st.timed), st.follows,
                              frozenset(st.modifiers) if said else frozenset(), st.case, st.past,
                              st.supposed))
    st.reset(end)


def _content_word(st: _State, words: list[Marked], clauses: list[Clause], toks: list[_Tok], text: str,
                  t: _Tok, w: str, prev: str, i: int) -> None:
    """A content word: its concept, and whether a negation governs it."""
    st.first = False
    # "allowed to cross", "able to vote": what may be done is stated as possible, so "may not cross"
    # says the opposite of it, where "want to cross" or "in a bid to cross" only name it
    permitted = prev == "to" and i >= 2 and toks[i - 2].text in PERMISSIVE and not st.waiting
    concept = _word(st, words, w, t, text, len(clauses), shown_from=toks[i - 2].start if permitted else None)
    if permitted:
        st.infinitive = False
    elif ((prev == "to" and not (i >= 2 and toks[i - 2].text in TO_PREPOSITIONAL))
            or (st.infinitive and prev == toks[i - 1].text)) and not st.waiting:
        st.unasserted.add(concept)  # "in a bid to help identify": named, not stated
        st.infinitive = True
    else:
        st.infinitive = False
    if st.waiting:
        # "no known vulnerabilities", "no admission fee": the determiner "no" denies its noun
        # phrase, the words that run on from it up to the first function word; what it denies is
        # the phrase's head, its last word ("fee"), not the words that modify it ("admission")
        phrase = st.noun_phrase and i + 1 < len(toks) and toks[i + 1].kind == "word" and _content(toks[i + 1].text)
        if phrase:
            st.modifiers.add(concept)
        else:
            st.heads.add(concept)
        st.cue_end(text, t.end, more=w in TRANSPARENT or st.in_phrase or phrase)
        # the negation reaches on through "attempt to X" and "X or Y", and past a phrase
        # between it and its verb ("do not by this License give"): it governs both; and from the
        # subject "no X" on to what "be" says of it ("no fishing is allowed": fishing is not allowed)
        predicate = st.noun_phrase and not phrase and i + 1 < len(toks) and toks[i + 1].text in BE
        st.waiting = w in TRANSPARENT or st.in_phrase or phrase or predicate
        st.noun_phrase = phrase
        st.in_phrase = False
    elif st.heads and prev in ("or", "and", "to") and st.last_head_follow:
        st.heads.add(concept)
    st.last_head_follow = concept in st.heads


@lru_cache(maxsize=16384)
def read(text: str) -> Reading:
    """The clauses of `text` with their polarity, its content words and its direction words."""
    text = unicodedata.normalize("NFKC", text)
    toks = _tokens(text)
    clauses: list[Clause] = []
    words: list[Marked] = []
    dirs: list[Direction] = []
    st = _State()

    i = 0
    n_toks = len(toks)
    while i < n_toks:
        t = toks[i]
        w = t.text
        if t.kind == "word" and w not in _SPECIAL and "'" not in w and not st.ceased:
            # a plain content word (most words): none of the checks below applies to it (after a
            # ceasing phrase, one may: "no longer disabled")
            prev = st.last_word
            st.last_word = w
            _content_word(st, words, clauses, toks, text, t, w, prev, i)
            i += 1
            continue
        if t.kind == "sym":
            # "only works with very high levels (>=10)": a sign right before a number bounds it, as
            # "at least 10" does; a sign before anything else says nothing read here
            if i + 1 < n_toks and toks[i + 1].kind == "num":
                dirs.append(Direction("order", _SIGNS[w], _number_anchor(toks[i + 1].text),
                                      text[t.start:toks[i + 1].end], t.start, st.conditional))
                st.first = False
            i += 1
            continue
        if w == "non" and i + 1 < n_toks and toks[i + 1].kind == "word" and "-" not in toks[i + 1].text:
            # "non transferable" is "non-transferable" written open: one word with the prefix
            nt = toks[i + 1]
            merged = _Tok("word", "non-" + nt.text, t.start, nt.end)
            prev = st.last_word
            st.last_word = merged.text
            _content_word(st, words, clauses, toks, text, merged, merged.text, prev, i + 1)
            i += 2
            continue
        if w == "yet" and (st.last_word in NEGATORS or st.last_word.endswith("n't")):
            i += 1  # "not yet": an adverb of time, not the conjunction "yet" that opens a clause
            continue
        if t.kind == "comma" and _case_follows(toks, i + 1):
            # "the status is 0 if a line is selected, 1 if no lines were selected, and 2 if ...": each
            # amount with its condition is a case of its own, and a negation in one does not reach the
            # others; each case still speaks of what the first one's words before its condition name
            lead = st.carried if st.carried is not None else (st.lead or set())
            _close(st, clauses, t.start)
            st.subordinate = True
            st.carried = lead
            st.concepts.update(lead)
            i += 1
            continue
        if t.kind == "brk" or t.text in CLAUSE_BREAKERS or (t.kind == "comma" and st.subordinate):
            _close(st, clauses, t.start, question=t.text == "?")
            st.follows = t.text in CLAUSE_BREAKERS and i + 1 < n_toks and toks[i + 1].text in PERSONAL
            i += 1
            continue
        if t.text == "not" and i + 1 < len(toks) and toks[i + 1].text in ("only", "just", "merely", "simply"):
            i += 2  # "not only X but Y" says X and Y
            continue
        if t.kind == "comma":
            st.word_negation = None
            if st.heads:
                st.waiting = False  # "not required, that you contact": the comma ends what the negation reaches
            if i + 2 < len(toks) and toks[i + 1].text in COORDINATORS and toks[i + 2].text in SUBJECTS:
                _close(st, clauses, t.start)  # ", and it never would have happened": a new statement with its own subject
            i += 1
            continue
        if w in COORDINATORS and i + 1 < n_toks and toks[i + 1].text in PERSONAL and not st.first:
            _close(st, clauses, t.start)  # "he hasn't done it and he is taking care of ...": negation stays in its statement
            i += 1
            continue
        if w in ("and", "but") and i + 1 < n_toks and toks[i + 1].text in _COPULAS and not st.first and st.concepts:
            # "opens Tuesday to Sunday and is closed on Mondays": a second predicate of the same subject, a
            # statement of its own that goes on about what the one before spoke of
            _close(st, clauses, t.start)
            st.follows = True
            i += 1
            continue
        if t.text == "other" and i + 1 < len(toks) and toks[i + 1].text == "than":
            _close(st, clauses, t.start)  # "no one other than the steward may": the exception is its own statement
            i += 2
            continue
        if w in ("until", "till") and st.negations and st.heads and not st.waiting:
            # "are not admitted until the interval": the negation says when, not whether (not before it, and
            # then they are): what it governs is said both ways, and opposes neither
            st.timed.update(st.heads)
        if t.text in _CONDITIONS and not st.first and st.concepts and not st.waiting and not _amount_before(toks, i):
            # "they fall back to the curses interface if no desktop is available": a condition after its
            # statement is a clause of its own, and a negation in it denies nothing of the statement (not a
            # case of a list, "1 if no lines were selected", whose amount the condition goes with)
            _close(st, clauses, t.start)
            st.subordinate = st.supposed = True
        if t.text in SUBORDINATORS:
            if st.first:
                st.subordinate = True
            if t.text == "whether":
                st.whether = True
            if t.text in _CONDITIONS:
                st.conditional = True
            if st.lead is None:
                st.lead = set(st.concepts)  # what the clause speaks of before its condition
                st.case = _amount_before(toks, i)  # "1 if", "9 euros if": the amount of the case
        # "declined to approve": a negating verb before its infinitive, not a direction
        denies = w in NEGATING_VERBS or (w in NEGATING_BEFORE_TO and i + 1 < n_toks and toks[i + 1].text == "to")
        if w in _DECLINE and _has_object(toks, i + 1):
            # "declined the proposal": decline with an object refuses it (as "rejected the proposal"); without
            # one ("sales declined", "declined the following year") it is a fall, read below as a direction
            st.last_word = w
            _content_word(st, words, clauses, toks, text, t, "rejected", w, i)
            i += 1
            continue
        if w in STEADY and any(toks[j].text in HOLDING for j in range(max(0, i - 4), i)) and not (
                i + 1 < n_toks and toks[i + 1].kind == "word" and _content(toks[i + 1].text)):
            # "held interest rates steady": no change, as "unchanged" (not "a steady rise")
            dirs.append(Direction("change", 0, None, text[t.start:t.end], t.start))
            st.last_word = w
            i += 1
            continue
        # direction and bound phrases, longest first ("no more than" is a bound, not a negation)
        found = _phrase_at(toks, i, _DIRECTION_PHRASES) if t.text in _DIRECTION_FIRST and not denies else None
        if found:
            phrase, n = found
            axis, sign, side = DIRECTIONS[phrase]
            anchor = None
            if side == "after":
                anchor = _anchor(toks, i + n - 1, 1)
            elif side == "before":
                anchor = _anchor(toks, i, -1)
            if n == 1 and phrase in ("minimum", "maximum") and (anchor or "").startswith("w:"):
                anchor = _stated_amount(toks, i + 1) or anchor
            if axis == "change" and i + n + 1 < n_toks and toks[i + n].text == "compared" \
                    and toks[i + n + 1].text in ("with", "to"):
                # "rose compared with last year" says "higher than last year": a comparison with what follows
                axis, anchor, compared = "order", _anchor(toks, i + n + 1, 1), True
            else:
                compared = False
            unread = False
            if phrase in OLDER and anchor is not None:
                if _a_point_in_time(anchor):
                    sign = -sign  # "kernels older than 4.6", "2019 or older": earlier, not more
                elif phrase != "older than" and not (i >= 2 and toks[i - 2].text in ("aged", "age", "ages")):
                    unread = True  # "psmisc 19 or older" (a release) or "children 12 or older" (an age)?
            usable = not unread and not (phrase in NUMBER_ONLY and not (anchor or "").startswith("n:")) and not (
                axis == "order" and anchor is None)
            start = t.start
            if usable and axis == "order" and st.waiting and st.negations == 1 and not st.heads and i > 0 \
                    and (toks[i - 1].text in NEGATORS or toks[i - 1].text.endswith("n't")):
                # "cannot exceed five weeks' rent" is "at most five": the negation turns the bound right after
                # it, and denies nothing else
                sign, start = -sign, toks[i - 1].start
                st.negations, st.waiting, st.cue, st.cue_from = 0, False, "", None
            if usable:
                last = i + n + 1 if compared else i + n - 1
                if n == 1 and side == "after" and last + 1 < n_toks and toks[last + 1].kind == "word" \
                        and _content(toks[last + 1].text):
                    last += 1  # "more likely": the comparative is shown with its word
                dirs.append(Direction(axis, sign, anchor, text[start:toks[last].end], start, st.conditional))
                st.first = False
                st.word_negation = None
                i += n
                continue
        ceasing = _phrase_at(toks, i, _CEASING_PHRASES) if t.text in _CEASING_FIRST else None
        if ceasing and ceasing[0] == "used to" and st.last_word in BE:
            ceasing = None  # "may be used to endorse": the passive of "use", not "no longer"
        if ceasing:
            st.ceased = True
            st.ceased_end = i + ceasing[1]
            st.cue_at(text, t.start, toks[i + ceasing[1] - 1].end)
            st.first = False
            i += ceasing[1]
            continue
        if t.kind == "num" or w in _AMOUNT_WORDS:
            st.first = False
            st.word_negation = None
            i += 1
            continue
        w = t.text
        if w == "free" and i + 1 < n_toks and toks[i + 1].text in ("of", "from"):
            # "free of charge", "free from defects": without what follows, as "without" says it
            st.word_negation = t.start
            st.last_word = w
            i += 2
            continue
        if w == "not" and st.whether and toks[i - 1].text == "or":
            # "whether or not it is printed", "whether it is printed or not": both alternatives, neither denied
            st.last_word = w
            i += 1
            continue
        if w in NEGATORS or w.endswith("n't") or w == "without":
            if st.waiting and st.negations and w == "without":
                st.negations -= 1  # "not without": two negations, one governing the other, cancel
                st.waiting = False
            elif w == "without" or (w == "no" and st.last_word in PREPOSITIONS):
                st.word_negation = t.start  # "without a supervisor", "at no charge": the noun phrase only
            elif st.lifts(toks, i):
                st.cue_end(text, t.end, more=True)  # "no longer unable", "used not to": the ceasing governs it
            elif w == "nothing" and not st.waiting and words and words[-1].clause == len(clauses) \
                    and words[-1].end == toks[i - 1].end and not words[-1].negative and _content(toks[i - 1].text) \
                    and not (i + 1 < n_toks and toks[i + 1].kind == "word" and _content(toks[i + 1].text)):
                # "costs nothing", "changed nothing": the object "nothing" denies the verb before it
                # ("does not cost anything"); what follows is not denied. Not "found nothing unusual", which
                # denies what is found, not the finding
                st.negations += 1
                st.cue_at(text, words[-1].start, t.end)
                st.heads.add(words[-1].concept)
                st.waiting = False
                if words[-1].shown.lower() in ("cost", "costs"):  # "costs nothing" is free: no charge
                    _mark(words, "free", text, words[-1].start, t.end, len(clauses))
            elif w == "no" and i + 1 < n_toks and toks[i + 1].text == "one":
                # "no one" is one word, "nobody": it denies its clause, not a noun phrase "one" (which a
                # later "without" then cancelled)
                st.negations += 1
                st.cue_at(text, t.start, toks[i + 1].end)
                st.last_word = "nobody"
                i += 2
                continue
            else:
                st.negations += 1
                st.cue_at(text, t.start, t.end)
                st.noun_phrase = w == "no"
            st.last_word = w
            i += 1
            continue
        if denies and st.last_word != "to" and st.waiting and st.negations:
            st.negations -= 1  # "never fails to": the negation governs the negating verb, and they cancel
            st.last_word = w
            i += 1
            continue
        if denies and st.last_word != "to":  # "to prevent X" is a purpose, not a fact
            lifted = st.lifts(toks, i)
            if lifted:
                st.cue_end(text, t.end, more=True)  # "no longer prohibited": shown whole
            else:
                st.negations += 1
                st.cue_at(text, t.start, t.end, show_head=False)
            # the passive ("Feeding the animals is prohibited [in the park]") denies its subject, not the
            # words after it; "is prohibited from feeding", "is forbidden to feed" still deny the verb after
            passive = (st.last_word in BE and not lifted and st.concepts
                       and not (i + 1 < n_toks and toks[i + 1].text in ("from", "to")))
            subject = set(st.concepts) if passive else None
            st.last_word = w
            # "prohibited" negates its clause; its own word is the clause's statement, not a second negation
            st.heads.add(_word(st, words, w, t, text, len(clauses), own=False))
            if subject is not None:
                st.heads.update(subject)
                st.waiting = False
            else:
                st.waiting = True
            i += 1
            continue
        if st.ceased and not st.lifted and w not in STOPWORDS and _analyse(w, True)[1] and st.lifts(toks, i):
            # "no longer disabled", "no longer unavailable": the ceasing ends the denial the word
            # makes by itself, as "no longer prohibited" ends its verb's; the clause holds now
            st.cue_end(text, t.end, more=True)
            st.last_word = w
            st.heads.add(_word(st, words, w, t, text, len(clauses), own=False))
            st.waiting = True
            i += 1
            continue
        prev = st.last_word
        st.last_word = w
        if w == "must" and not (i + 1 < n_toks and (toks[i + 1].text == "not" or toks[i + 1].text.endswith("n't"))):
            # "must wear" says wearing is required, what "optional" denies; a word with a polarity of its
            # own, though not what the clause speaks of ("must not" is a prohibition, read as a negation)
            _mark(words, w, text, t.start, t.end, len(clauses))
        if w in STOPWORDS:
            if w in _PAST and st.lead is None:
                st.past = True  # (the clause's own verb: not one of a condition or reason after it)
            # an infinitive run ends at the first function word; but "to be" and "to have" go on to
            # their participle ("claimed to be fixed" names the fix, it does not state it)
            st.infinitive = w in ("be", "have") and prev == "to"
            if w not in ("a", "an", "the", "any"):
                st.first = False
            if w in PREPOSITIONS or w == "and" or (
                    w == "or" and not (i + 1 < n_toks and toks[i + 1].kind == "word" and _content(toks[i + 1].text))):
                # "without any terms or conditions" denies both nouns; "and" or a preposition ends the phrase
                st.word_negation = None
            elif st.word_negation is not None and w in _DETERMINERS and toks[i - 1].start > st.word_negation \
                    and toks[i - 1].kind == "word" and _content(toks[i - 1].text):
                # "with no file operand the working directory is searched": a determiner after a noun opens
                # another noun phrase, which the negation does not reach ("without any warranty" goes on)
                st.word_negation = None
            if st.waiting and st.negations and w in PREPOSITIONS and w != "to" and (prev in NEGATORS or prev.endswith("n't")):
                st.in_phrase = True  # "not by this License give": a phrase right after the negation
            i += 1
            continue
        _content_word(st, words, clauses, toks, text, t, w, prev, i)
        i += 1
    _close(st, clauses, len(text))
    return Reading(tuple(clauses), tuple(words), tuple(dirs))


class _State:
    __slots__ = ("start", "negations", "ceased", "cue", "cue_from", "concepts", "first", "subordinate", "follows",
                 "word_negation", "heads", "negative", "plain", "waiting", "last_word", "last_head_follow", "show_head",
                 "unasserted", "infinitive", "in_phrase", "ceased_end", "lifted", "noun_phrase", "modifiers", "timed",
                 "lead", "carried", "case", "whether", "past", "conditional", "supposed")

    def __init__(self) -> None:
        self.last_word = ""
        self.reset(0)

    def reset(self, start: int) -> None:
        self.start = start
        self.negations = 0
        self.ceased = False
        self.cue = ""
        self.cue_from: int | None = None
        self.concepts: set[str] = set()
        self.first = True  # no content word yet in this clause
        self.subordinate = False
        self.word_negation: int | None = None  # "without X", "at no X": where the negator is
        self.heads: set[str] = set()
        self.modifiers: set[str] = set()
        self.negative: set[str] = set()
        self.plain: set[str] = set()  # concepts also written positively: the clause does not deny them
        self.unasserted: set[str] = set()
        self.timed: set[str] = set()  # what "not ... until" governs: denied until a time, then stated
        self.infinitive = False
        self.waiting = False  # a negation waiting for the word it governs
        self.in_phrase = False  # a prepositional phrase right after the negation: its verb comes after it
        self.last_head_follow = False
        self.show_head = True
        self.follows = False
        self.ceased_end = -1  # the token right after a ceasing phrase
        self.lifted = False  # a negation the ceasing phrase governs ("no longer prohibited")
        self.noun_phrase = False  # the negation is the determiner "no": it reaches its whole noun phrase
        self.lead: set[str] | None = None  # the concepts before the clause's first subordinator ("if", "when")
        self.carried: set[str] | None = None  # a case's (_case_follows): the first case's lead, which it speaks of
        self.case = ""  # the amount right before the first subordinator
        self.whether = False  # "whether" was met: an "or not" after it denies nothing
        self.past = False  # a past form of "be" or "have" was met
        self.conditional = False  # a condition was opened ("if", "unless", "when")
        self.supposed = False  # the clause is a condition after its statement

    def lifts(self, toks: list[_Tok], i: int) -> bool:
        """Whether the negation at token i is the one a ceasing phrase right before it governs
        (one "be" between them at most): then the two make the clause hold now."""
        if not self.ceased or self.lifted or self.ceased_end < 0:
            return False
        if i == self.ceased_end or (i == self.ceased_end + 1 and toks[self.ceased_end].text in ("be", "being", "been")):
            self.lifted = True
            return True
        return False

    def cue_at(self, text: str, start: int, end: int, show_head: bool = True) -> None:
        self.waiting = True
        self.noun_phrase = False  # a new cue; the determiner "no" says so after it
        if not self.cue:
            self.cue, self.cue_from, self.show_head = text[start:end], start, show_head

    def cue_end(self, text: str, end: int, more: bool = False) -> None:
        if self.cue_from is not None and self.show_head:
            self.cue = text[self.cue_from:end]  # "cannot be returned"
        if not more:
            self.cue_from = None  # "no attempt to allocate" shows on to the verb


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


def _mark(words: list[Marked], w: str, text: str, start: int, end: int, clause: int) -> None:
    """Record text[start:end] as the marked word `w` says it (`must` as required, `costs nothing` as
    `free`), without making it a concept its clause speaks of."""
    parts, negative, _, _ = _analyse(w, True)
    words.extend(_new(Marked, (c, negative, True, text[start:end], start, end, clause)) for c in parts)


def _word(st: _State, words: list[Marked], w: str, t: _Tok, text: str, clause: int, own: bool = True,
          shown_from: int | None = None) -> str:
    """Record a content word; returns its concept. `own=False`: the word's
    negativity is its clause's (a negating verb), not its own. `shown_from`:
    where the words it is shown with begin ("allowed to cross")."""
    parts, negative, marked, first = _analyse(w, own)
    if st.word_negation is not None:
        negative, marked = not negative, True
        shown_from = st.word_negation
    shown = text[t.start if shown_from is None else shown_from:t.end]
    for s in parts:
        st.concepts.add(s)
        if negative:
            st.negative.add(s)
        else:
            st.plain.add(s)
        words.append(_new(Marked, (s, negative, marked, shown, t.start, t.end, clause)))
    return first


def _flip(p: str) -> str:
    return NEGATED if p == POSITIVE else POSITIVE if p == NEGATED else p


def _stance(cl: Clause, concept: str) -> str:
    """What a clause says of a concept: its polarity, turned when the word
    itself is negative (`not allowed` and `prohibited` both deny `allow`).
    A word negative by itself that the clause's negation does not govern
    keeps its own polarity: in `a closed input acts like a file that does
    not exist`, the `not` denies `exist`, not `closed`."""
    if concept in cl.negative:
        return _flip(cl.polarity) if concept in cl.heads else NEGATED
    return cl.polarity


def _word_stance(r: Reading, m: Marked) -> str:
    cl = r.clauses[m.clause] if m.clause < len(r.clauses) else None
    pol = POSITIVE
    if cl is not None and m.concept in cl.heads and m.concept in cl.mixed:
        return TIMED  # "not closed until the police know": closed later, not now; opposed to neither
    if cl is not None and (m.concept in cl.heads or m.concept in cl.modifiers):
        pol = cl.polarity
    return _flip(pol) if m.negative else pol


def _conflict(a: str, b: str) -> bool:
    return a != b and POSITIVE in (a, b) and TIMED not in (a, b)


def _opposed(cl: Clause, ql: Clause, concept: str) -> bool:
    """Whether a claim clause and a quote clause say opposite things of a
    concept. What has ceased held before: `was named X` in the past agrees
    with `used to be named X` and with `is no longer named X` (each side may
    be the one in the past)."""
    a, b = _stance(cl, concept), _stance(ql, concept)
    if not _conflict(a, b):
        return False
    return not (CEASED in (a, b) and (cl if a == POSITIVE else ql).past)


def _said_after(cl: Clause, r: Reading, ql: Clause) -> tuple[Clause, str] | None:
    """What the clause right after `ql` says of the word the claim's clause
    negates, when `ql` speaks of the same thing but not of that word, and the
    next clause goes on about it without naming anything else of the claim's:
    `the flags … are no longer documented, though they still work` against
    `the flags no longer work`. (That clause and its concept.)"""
    k = r.clauses.index(ql)
    if not cl.heads:
        return None
    # the clauses that go on about the same thing, one after the other ("are obsolescent and are no
    # longer documented, though they still work")
    for nxt in r.clauses[k + 1:]:
        if not nxt.follows:
            return None
        if nxt.question:
            continue
        for h in sorted(cl.heads - ql.concepts):
            if cl.concepts & nxt.concepts == {h} and _opposed(cl, nxt, h):
                return nxt, h
    return None


def _denies_outside(r: Reading, cl: Clause, shared: frozenset[str]) -> bool:
    """Whether the clause holds a word that denies by itself (an antonym's negative side: `excluded`,
    `rejected`, `prohibited`) outside the concepts `shared`: what the clause states as a whole may be
    its opposite. A privative adjective (`unopened goods`) names a kind of thing, and does not."""
    k = r.clauses.index(cl)
    return any(m.clause == k and m.negative and m.concept not in shared and m.shown.lower() in ANTONYMS
               for m in r.words)


# what "not required" denies: the requirement, not what is required ("not required, that you contact the
# authors" leaves contacting them open, where "not allowed to" denies it)
_REQUIRED = frozenset({stem(ANTONYMS["required"][0])})


def _turned_against(c: Reading, cl: Clause, theirs: Iterable[Direction]) -> bool:
    """Whether a direction of the claim's clause `cl` has one of `theirs` the other way, on the same axis
    and anchor: a negation (or an opposite word) and the opposite bound then cancel."""
    mine = [d for d in c.directions if cl.start <= d.start < cl.end]
    return bool(mine) and any(e.axis == d.axis and e.anchor == d.anchor and e.sign == -d.sign != 0
                              for e in theirs for d in mine)


def _opposite_direction(c: Reading, cl: Clause, q: Reading, ql: Clause) -> bool:
    return _turned_against(c, cl, (e for e in q.directions if ql.start <= e.start < ql.end))


def _bound_turned(c: Reading, clause: int, readings: list[tuple[Reading, list[Clause]]]) -> bool:
    """Whether the claim's clause bounds a number the other way from a quote's bound on it: "parcels over
    20 kg are not accepted" says of the rest what "accepts parcels up to 20 kg" says, so the opposite word
    (or a negation) and the opposite bound cancel."""
    if not c.directions or clause >= len(c.clauses):  # (a text of one cue word reads as no clause)
        return False
    return _turned_against(c, c.clauses[clause], (e for r, _ in readings for e in r.directions
                                                  if e.axis == "order" and e.anchor is not None))


def contradictions(claim: str, quotes: list[str] | tuple[str, ...], *,
                   quote_reading: Reading | None = None, span: tuple[int, int] | None = None,
                   plain: bool = False) -> list[Contradiction]:
    """Where the claim says the opposite of its quotes, taken together.

    With `quote_reading` and `span`, the quote is read inside its sentence,
    only the clauses that hold the span count, and only statements are
    compared: what the context rule uses.

    `plain=True` takes the plain path: no test on the claim before reading
    it, nothing kept per quote. It gives the same answer (the tests hold the
    fast path to it)."""
    views: list[_QuoteView] | None = None
    if quote_reading is None:
        if not (_may_differ_plain if plain else _may_differ)(claim, quotes):
            return []
        if not plain:
            views = [_quote_view(q) for q in quotes]
            if not _claim_may_contradict(claim, views):
                return []
    c = read(claim)
    if quote_reading is not None and span is not None:
        lo, hi = span
        readings = [(quote_reading, [cl for cl in quote_reading.clauses if cl.end > lo and cl.start < hi])]
    elif views is not None:
        readings = [(v.reading, list(v.reading.clauses)) for v in views]
    else:
        readings = [(r, list(r.clauses)) for r in (read(q) for q in quotes)]
    out: list[Contradiction] = []

    # 1. statements: a claim clause against the quote clauses that share most of
    # its words, one of them a word a negation governs
    for cl in c.clauses:
        if cl.question or cl.supposed:
            continue
        best: list[tuple[Reading, Clause, str]] = []
        best_n = 1
        near: list[tuple[Reading, Clause]] = []  # the clauses that share most, governed or not
        near_n = 1
        ungoverned: list[tuple[frozenset[str], Clause]] = []  # the clauses that share words, none governed
        for r, cls in readings:
            for ql in cls:
                if ql.question or ql.supposed or (cl.case and ql.case and ql.case != cl.case):
                    continue  # (another case of a list: "0 if ..." does not speak of "1 when ...")
                shared = cl.concepts & ql.concepts
                # the two clauses speak of the same thing: at least two words, half of the claim's
                if len(shared) < 2 or 2 * len(shared) < len(cl.concepts):
                    continue
                if len(shared) > near_n:
                    near, near_n = [(r, ql)], len(shared)
                elif len(shared) == near_n:
                    near.append((r, ql))
                if len(shared) < best_n:
                    continue
                governed = shared & (cl.heads | ql.heads | cl.negative | ql.negative) - cl.mixed - ql.mixed
                for side in (cl, ql):
                    if side.modifiers and not side.heads & shared:
                        # "no Android version" against "available on Android": the phrase's head is not
                        # what the claim speaks of, so what it denies is the words before it
                        governed |= shared & side.modifiers
                if not governed and len(shared) >= 3 and 4 * len(shared) >= 3 * len(cl.concepts) \
                        and not _denies_outside(c, cl, shared) and not _denies_outside(r, ql, shared) \
                        and not cl.heads & cl.mixed and not ql.heads & ql.mixed \
                        and cl.heads != _REQUIRED and ql.heads != _REQUIRED:
                    # nearly the same statement: its polarity as a whole; unless a word that denies by
                    # itself stands outside what the two share ("Flood damage is excluded from the
                    # policy" against "The policy does not cover flood damage"); not a word a clause
                    # says both ways
                    governed = shared - cl.mixed - ql.mixed
                governed -= {g for g in governed if (g in cl.unasserted and _stance(cl, g) == POSITIVE)
                             or (g in ql.unasserted and _stance(ql, g) == POSITIVE)}
                if not governed:
                    ungoverned.append((shared, ql))
                    continue
                conflict = next((g for g in sorted(governed) if _opposed(cl, ql, g)), "")
                entry = (r, ql, conflict)
                if len(shared) > best_n:
                    best, best_n = [entry], len(shared)
                else:
                    best.append(entry)
        if best and all(g for _, _, g in best):
            r, ql, g = best[0]
            if _opposite_direction(c, cl, r, ql):
                continue  # a negation and an opposite bound cancel
            if any(words >= cl.concepts & ql.concepts and g not in other.unasserted
                   and not _conflict(_stance(cl, g), _stance(other, g)) for words, other in ungoverned):
                # the quotes say it both ways, each under its own condition ("if the file does not exist,
                # it is created; if it does exist, it is opened"), and a clause that shares every word the
                # opposed one shares with the claim says it the claim's way
                continue
            mine, theirs = _shown(c, cl, g), _shown(r, ql, g)
            out.append(Contradiction(mine, theirs, "negation"))
        elif not best and len(near) == 1 and quote_reading is None:
            found = _said_after(cl, *near[0])
            if found is not None:
                out.append(Contradiction(_shown(c, cl, found[1]), _shown(near[0][0], found[0], found[1]), "negation"))
    if quote_reading is not None:
        return _unique(out)

    # 2. words with a polarity of their own, against the same word on the other side
    if views is None:
        theirs_by = _concepts([r for r, _ in readings])
    else:
        theirs_by = views[0].words if len(views) == 1 else _merged(views)
    mine_by: dict[str, list[tuple[Marked, str]]] = {}
    for m in c.words:
        mine_by.setdefault(m.concept, []).append((m, _word_stance(c, m)))
    turned: set[int] = set()  # the claim's clauses whose opposite word a bound the other way cancels
    for concept, ms in mine_by.items():
        ts = theirs_by.get(concept)
        if not ts or not (any(m.marked for m, _ in ms) or ts.marked):
            continue
        a = {p for _, p in ms}
        if len(a) == 1 and len(ts.stances) == 1 and _conflict(next(iter(a)), next(iter(ts.stances))):
            if _bound_turned(c, ms[0][0].clause, readings):
                turned.add(ms[0][0].clause)
            else:
                out.append(Contradiction(ms[0][0].shown, ts.shown, "antonym"))

    # 3. direction and bounds; a comparison whose two sides are the other way round ("adults need less
    # than teenagers" against "teenagers need more than adults") says the same with the opposite word
    qdirs = [(r, d) for r, _ in readings for d in r.directions]
    texts = {id(r): q for (r, _), q in zip(readings, quotes)}
    for d in c.directions:
        same = [(r, q) for r, q in qdirs if q.axis == d.axis and q.anchor == d.anchor]
        alike = [(r, q) for r, q in same if q.conditional == d.conditional]
        if alike:
            # "can be at most 16 characters; if it is longer than 16 characters, it is cut": what a
            # condition supposes is no statement a claim's statement can agree with, and the other way
            # round ("at least five, or all if there are fewer than five")
            same = alike
        if not same and d.axis == "order" and "than" in claim:
            # the same comparison with its sides the other way round ("the river is shorter than the canal"
            # against "the canal is shorter than the river"): each names what the other compares with
            swapped = next(((r, q) for r, q in qdirs if q.axis == d.axis and q.sign == d.sign
                            and _turned(claim, d, texts.get(id(r), ""), q)), None)
            if swapped is not None:
                r, q = swapped
                out.append(Contradiction(_with_than(claim, d), _with_than(texts.get(id(r), ""), q), "direction"))
            continue
        if same and all(q.sign != d.sign if 0 in (q.sign, d.sign)  # a change against no change
                        else q.sign == (d.sign if _turned(claim, d, texts.get(id(r), ""), q) else -d.sign)
                        for r, q in same):
            at = next((i for i, x in enumerate(c.clauses) if x.start <= d.start < x.end), None)
            dcl = None if at is None else c.clauses[at]
            r, q = same[0]
            qcl = next((x for x in r.clauses if x.start <= q.start < x.end), None)
            if at in turned or (dcl is not None and qcl is not None and _conflict(dcl.polarity, qcl.polarity)):
                continue  # "no refunds after 30 days" = "refunds within 30 days"; "over 20 kg are rejected"
            out.append(Contradiction(d.shown, q.shown, "direction"))
    return _unique(out)


def reversed_movements(claim: str, quotes: list[str] | tuple[str, ...]) -> list[Contradiction]:
    """A movement the other way: `from the refinery to the coast` against
    `from the coast to the refinery` (words at both ends; a range of numbers
    is the quantity rule's)."""
    if "from " not in claim or " to " not in claim:
        return []
    out = []
    for m in _FROM_TO.finditer(claim):
        a, b = stem(m.group(1).lower()), stem(m.group(2).lower())
        if a == b:
            continue
        for quote in quotes:
            back = next((x for x in _FROM_TO.finditer(quote)
                         if stem(x.group(1).lower()) == b and stem(x.group(2).lower()) == a), None)
            if back is not None:
                out.append(Contradiction(m.group(0), back.group(0), "direction"))
                break
    return out


# "from X to Y" with a word at each end (not numbers: "from 5 to 10" is a range, read by the quantity rule)
_FROM_TO = re.compile(r"\bfrom\s+(?:the\s+|a\s+|an\s+)?([^\W\d_]+)\s+to\s+(?:the\s+|a\s+|an\s+)?([^\W\d_]+)",
                      re.IGNORECASE)
# the verbs that open a predicate of their own after "and" ("... and is closed on Mondays")
_COPULAS = frozenset("is are was were has have had".split())
_THAN = re.compile(r"\s*(?:[^\W\d_]+\s+){0,3}?than\s+(?:the\s+|a\s+|an\s+|those\s+|that\s+)?([^\W\d_]+)", re.IGNORECASE)


_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_]+)")


def _with_than(text: str, d: Direction) -> str:
    """A comparison shown with what it compares with: `shorter than the river`."""
    m = _THAN.match(text, d.start + len(d.shown.split()[0]))
    if m is None:
        return d.shown
    end = m.end()
    for _ in range(2):  # on to the end of its noun ("than the east platform")
        more = _NEXT_WORD.match(text, end)
        if more is None or more.group(1).lower() in STOPWORDS:
            break
        end = more.end()
    return text[d.start:end]


def _turned(claim: str, d: Direction, quote: str, q: Direction) -> bool:
    """Whether two comparisons have their sides the other way round: each
    one's `than` names what the other puts before its comparative."""
    if d.axis != "order" or not quote:
        return False
    mine = _THAN.match(claim, d.start + len(d.shown.split()[0]))
    theirs = _THAN.match(quote, q.start + len(q.shown.split()[0]))
    if mine is None or theirs is None:
        return False
    a, b = stem(mine.group(1).lower()), stem(theirs.group(1).lower())
    if a == b:
        return False
    before_q = {stem(w.lower()) for w in _WORDS.findall(quote[:q.start])}
    before_c = {stem(w.lower()) for w in _WORDS.findall(claim[:d.start])}
    return a in before_q and b in before_c


# ("must" is no cue by itself: what it can be opposed to, "optional", is one)
_CUE_WORDS = (frozenset(NEGATORS) | NEGATING_VERBS | NEGATING_BEFORE_TO | (frozenset(ANTONYMS) - {"must"})
              | _AGAIN
              | {"without", "used", "stopped", "ceased", "non"} | {p.split()[0] for p in DIRECTIONS} | {p.split()[0] for p in CEASING})
_WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
# "free of X", "free from X": a negation of X, though "free" alone is none
_FREE_OF = re.compile(r"\bfree\s+(?:of|from)\b", re.IGNORECASE)


def _may_differ_plain(claim: str, quotes: Iterable[str]) -> bool:
    """A cheap test before reading: False when neither side has a negation, a
    marked word or a direction word, and no word of one side is a prefixed
    form of a word of the other, so that no rule can find a difference.
    The plain form of `_may_differ`, which gives the same answer faster."""
    if _FREE_OF.search(claim) or any(_FREE_OF.search(q) for q in quotes):
        return True
    mine = set(_WORDS.findall(claim.lower()))
    theirs: set[str] = set()
    for q in quotes:
        theirs.update(_WORDS.findall(q.lower()))
    for words in (mine, theirs):
        if words & _CUE_WORDS or any("n't" in w or w.startswith(("non-", "no-")) or w.endswith("-free") for w in words):
            return True
    for a, b in ((mine, theirs), (theirs, mine)):
        for w in a:
            for p in PREFIXES:
                if p + w in b:
                    return True
    if not _SIGN_CHARS.isdisjoint(claim) or any(not _SIGN_CHARS.isdisjoint(q) for q in quotes):
        return True  # a comparison sign: a bound
    return "n't" in claim or any("n't" in q or "n\u2019t" in q for q in quotes) or "n\u2019t" in claim


class _Words(NamedTuple):
    """A text's words as `_may_differ` reads them: the words, whether one of
    them is a cue, and what is left of each word that opens with a prefix."""

    words: frozenset[str]
    cue: bool
    unprefixed: frozenset[str]  # "exclusive" for "nonexclusive"


def _chunk_words(chunk: str) -> _Words:
    """A chunk's words (a run of text between white space, which no word or
    cue crosses), kept in _CHUNK_WORDS."""
    words = frozenset(_WORDS.findall(chunk.lower()))
    cue = bool(words & _CUE_WORDS) or any("n't" in w or w.startswith(("non-", "no-")) or w.endswith("-free") for w in words)
    cue = cue or "n't" in chunk or "n\u2019t" in chunk or not _SIGN_CHARS.isdisjoint(chunk)
    return _keep(_CHUNK_WORDS, chunk, _Words(words, cue, frozenset(rest for w in words for rest in _unprefixed(w))))


# What is read of each chunk seen, kept in plain dicts emptied when full: a
# dict's get costs less than an lru_cache's look-up, and a claim has some
# twenty chunks, each looked up by several tests.
_CHUNK_WORDS: dict[str, _Words] = {}
_CHUNK_SIGNS: dict[str, tuple[bool, frozenset[str], tuple[str, ...]]] = {}
_KEPT_LIMIT = 32768


# the tokens of each chunk seen (_chunk_tokens), emptied when full
_CHUNK_TOKS: dict[str, tuple[tuple[str, str, int, int], ...]] = {}


def _keep(kept: dict, key: str, value: Any) -> Any:
    if len(kept) >= _KEPT_LIMIT:
        kept.clear()
    kept[key] = value
    return value


@lru_cache(maxsize=8192)
def _words_of(text: str) -> _Words:
    """A quote's words: those of its chunks taken together."""
    parts = [_CHUNK_WORDS.get(c) or _chunk_words(c) for c in text.split()]
    return _Words(frozenset().union(*(p.words for p in parts)),
                  any(p.cue for p in parts) or _FREE_OF.search(text) is not None,
                  frozenset().union(*(p.unprefixed for p in parts)))


@lru_cache(maxsize=65536)
def _unprefixed(w: str) -> tuple[str, ...]:
    return tuple(w[len(p):] for p in PREFIXES if w.startswith(p) and len(w) > len(p))


def _may_differ(claim: str, quotes: Iterable[str]) -> bool:
    """`_may_differ_plain`, with each chunk's and each quote's words read once
    (a quote is checked again and again): "p + w in b" is "w is what is left
    of a word of b that opens with p"."""
    kept = _CHUNK_WORDS
    mine = [kept.get(c) or _chunk_words(c) for c in _chunks_of(claim)]
    if any(p.cue for p in mine) or _FREE_OF.search(claim):
        return True
    theirs = [_words_of(q) for q in quotes]
    if any(t.cue for t in theirs):
        return True
    # the claim's chunks taken together: a word of one of them meets a quote's as well
    words = frozenset().union(*(p.words for p in mine))
    unprefixed = frozenset().union(*(p.unprefixed for p in mine))
    return any(not words.isdisjoint(t.unprefixed) or not unprefixed.isdisjoint(t.words) for t in theirs)


# --------------------------------------------------------------------------
# What a quote offers the comparison, kept per quote; and a test on the claim
# before it is read

_NEGATIVE_WORDS = (NEGATORS | NEGATING_VERBS | NEGATING_BEFORE_TO | _CEASING_FIRST | {"without", "non"}
                   | {w for w, (_, negative) in ANTONYMS.items() if negative})
_DIRECTION_ONE = frozenset(p for p in DIRECTIONS if " " not in p) | STEADY
_DIRECTION_TWO = frozenset(tuple(p.split()[:2]) for p in DIRECTIONS if " " in p)
# the word tokens of _TOKEN, found alone (no other token holds a letter)
_WORD_TOKEN = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?(?:-[^\W\d_]+)*")


class _Concept(NamedTuple):
    """The words of the quotes that stand for one concept: whether one is
    marked, the stances they take, and the first as written."""

    marked: bool
    stances: frozenset[str]
    shown: str


class _QuoteView(NamedTuple):
    reading: Reading
    words: dict[str, _Concept]
    negative: frozenset[str]  # concepts a clause denies, or a word says negatively
    directions: bool


def _concepts(readings: list[Reading]) -> dict[str, _Concept]:
    by: dict[str, list[tuple[Marked, str]]] = {}
    for r in readings:
        for m in r.words:
            by.setdefault(m.concept, []).append((m, _word_stance(r, m)))
    return {k: _Concept(any(m.marked for m, _ in ms), frozenset(p for _, p in ms), ms[0][0].shown)
            for k, ms in by.items()}


@lru_cache(maxsize=8192)
def _quote_view(quote: str) -> _QuoteView:
    r = read(quote)
    denied = frozenset(g for cl in r.clauses if cl.polarity != POSITIVE for g in cl.concepts)
    return _QuoteView(r, _concepts([r]), denied.union(*(cl.negative for cl in r.clauses)), bool(r.directions))


def _merged(views: list[_QuoteView]) -> dict[str, _Concept]:
    out: dict[str, _Concept] = {}
    for v in views:
        for k, x in v.words.items():
            y = out.get(k)
            out[k] = x if y is None else _Concept(y.marked or x.marked, y.stances | x.stances, y.shown)
    return out


@lru_cache(maxsize=65536)
def _word_signs(w: str) -> tuple[bool, tuple[str, ...]]:
    """Whether a word can make its clause, or itself, read negatively; and
    every concept it can stand for."""
    analysed = _analyse(w, True)
    negative = w in _NEGATIVE_WORDS or w.endswith("n't") or analysed[1] or privative(w) is not None
    return negative, analysed[0]


def _chunk_signs(chunk: str) -> tuple[bool, frozenset[str], tuple[str, ...]]:
    """`_word_signs` over the words of a chunk (lower case, between white
    space), taken together: whether one reads negatively, every concept they
    can stand for, and the words (kept in _CHUNK_SIGNS)."""
    words = tuple(w for kind, w, _, _ in _chunk_tokens(chunk) if kind == "word")
    signs = [_word_signs(w) for w in words]
    return _keep(_CHUNK_SIGNS, chunk, (any(n for n, _ in signs), frozenset(c for _, cs in signs for c in cs), words))


def _claim_may_contradict(claim: str, views: list[_QuoteView]) -> bool:
    """False only when no rule can find the claim opposed to the quotes,
    without reading the claim: it has no word that reads negatively, so every
    clause and word of it is positive; then a contradiction needs a concept
    the quotes deny among its words, or a direction word on both sides."""
    lowered = unicodedata.normalize("NFKC", claim).lower().replace("\u2019", "'")
    if "free" in lowered and _FREE_OF.search(lowered):
        return True  # "free of X" denies X
    chunks = _chunks_of(lowered)
    denied = views[0].negative if len(views) == 1 else frozenset().union(*(v.negative for v in views))
    kept = _CHUNK_SIGNS
    signs = [kept.get(chunk) or _chunk_signs(chunk) for chunk in chunks]
    for negative, concepts, _ in signs:
        if negative or not denied.isdisjoint(concepts):
            return True
    if any(v.directions for v in views):
        if not _SIGN_CHARS.isdisjoint(lowered):
            return True  # a comparison sign: a bound
        words = [w for _, _, chunk_words in signs for w in chunk_words]
        for i, w in enumerate(words):
            if w in _DIRECTION_ONE or (i + 1 < len(words) and (w, words[i + 1]) in _DIRECTION_TWO):
                return True
    return False


def _claim_may_contradict_plain(claim: str, views: list[_QuoteView]) -> bool:
    """`_claim_may_contradict` word by word over the whole text (the tests hold the two together)."""
    lowered = unicodedata.normalize("NFKC", claim).lower().replace("\u2019", "'")
    if _FREE_OF.search(lowered):
        return True
    words = _WORD_TOKEN.findall(lowered)
    denied = frozenset().union(*(v.negative for v in views))
    if any(n or not denied.isdisjoint(cs) for n, cs in map(_word_signs, words)):
        return True
    return any(v.directions for v in views) and (not _SIGN_CHARS.isdisjoint(lowered) or any(
        w in _DIRECTION_ONE or (i + 1 < len(words) and (w, words[i + 1]) in _DIRECTION_TWO)
        for i, w in enumerate(words)))


def _shown(r: Reading, cl: Clause, concept: str) -> str:
    """How a clause says what it says of `concept`: its negation and the word, as written."""
    if concept in cl.heads and cl.cue:  # a negated, ceased or lifted clause
        return cl.cue
    for m in r.words:
        if cl.start <= m.start < cl.end and m.concept == concept:
            return m.shown
    return cl.cue or concept


def _unique(xs: list[Contradiction]) -> list[Contradiction]:
    seen: set[tuple[str, str]] = set()
    out = []
    for x in xs:
        if (x.claim, x.quote) not in seen:
            seen.add((x.claim, x.quote))
            out.append(x)
    return out


def prepare(quote: str) -> None:
    """Read a quote for this rule once, when first met (its words for the
    cheap test, its reading and what it offers the comparison), so that a
    claim typed later against it reads only itself. Answers do not change."""
    _words_of(quote)
    _quote_view(quote)

