"""Polarity and direction (SPEC section 4, `contradiction`).

Each content word of a text is read with a polarity: negative when a
negation governs it (`not`, `no`, `never`, `cannot`, `n't`, `without`,
`no longer`, … up to the end of its clause), when it carries a privative
prefix (`non-exclusive`, `irrevocable`, `illegal`, `unable`) or suffix
(`royalty-free`), or when it is the antonym of a word (`prohibited` is
`permitted` negated). The claim contradicts its quotes when a word both
use is only positive on one side and only negative on the other.

A prefix counts as privative only when what is left is itself an English
word (Webster's Second International, from the `english-words` package):
`under` is not `der` negated, `interest` is not `terest` negated.

Direction and bound words (`above` / `below`, `more than` / `less than`,
`at least` / `at most`, `before` / `prior to` / `after`, `within`,
`increase` / `decrease`, `minimum` / `maximum`) are read with what they
bound (the number or the word after them): the claim contradicts its
quotes when it bounds the same thing the other way.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..support import STOPWORDS, stem

__all__ = ["Contradiction", "Reading", "read", "contradictions"]


@dataclass(frozen=True, slots=True)
class Occurrence:
    concept: str  # the stem of the base word
    negative: bool
    shown: str  # how it reads in the text ("cannot be returned", "non-exclusive")
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Direction:
    axis: str  # "order" or "change"
    sign: int  # +1 / -1
    anchor: str | None  # what is bounded ("n:30", "w:deliveri"), None for change words
    shown: str


@dataclass(frozen=True, slots=True)
class Reading:
    occurrences: tuple[Occurrence, ...]
    directions: tuple[Direction, ...]


@dataclass(frozen=True, slots=True)
class Contradiction:
    claim: str
    quote: str
    kind: str  # "negation", "antonym", "direction"

    @property
    def message(self) -> str:
        return f"claim says {self.claim}; quote says {self.quote}"


# --------------------------------------------------------------------------
# Word lists: closed classes of English, not fitted to any data set

_NEGATORS = frozenset(
    "not no never nor neither none nothing nobody nowhere cannot without unable lacks lack lacking".split()
)
# "no" and "without" after a verb negate the noun phrase that follows them
# ("at no charge within 3 days": the charge, not the days); these words end it
_NP_ENDERS = frozenset(
    """in on at within after before for from by with under over during until since between through into upon
    about against among across per via and or but if when while because as than that which who whom where
    is are was were be been being has have had will would shall should may might must can could""".split()
)
_NP_NEGATORS = frozenset({"no", "without"})
_CLAUSE_BREAKERS = frozenset(
    "but however although though whereas while unless except instead yet otherwise".split()
)
# antonyms that are not prefix pairs: word -> the concept it negates
_ANTONYMS = {
    "prohibit": "allow", "prohibited": "allow", "prohibits": "allow", "prohibition": "allow",
    "forbid": "allow", "forbids": "allow", "forbidden": "allow", "forbade": "allow",
    "permit": "allow", "permits": "allow", "permitted": "allow", "permission": "allow",
    "allow": "allow", "allows": "allow", "allowed": "allow",
    "exclude": "include", "excludes": "include", "excluded": "include", "excluding": "include",
    "include": "include", "includes": "include", "included": "include", "including": "include",
    "reject": "accept", "rejects": "accept", "rejected": "accept", "refuse": "accept", "refused": "accept",
    "accept": "accept", "accepts": "accept", "accepted": "accept",
    "false": "true", "true": "true",
    "optional": "require", "require": "require", "required": "require", "requires": "require",
    "mandatory": "require", "obligatory": "require",
    "closed": "open", "open": "open", "opened": "open",
    "private": "public", "public": "public",
    "absent": "present", "present": "present",
    "deny": "grant", "denies": "grant", "denied": "grant", "grant": "grant", "grants": "grant",
    "granted": "grant",
    "lose": "win", "loses": "win", "lost": "win", "win": "win", "wins": "win", "won": "win",
}
_NEGATIVE_ANTONYMS = frozenset(
    "prohibit prohibited prohibits prohibition forbid forbids forbidden forbade exclude excludes excluded "
    "excluding reject rejects rejected refuse refused false optional closed private absent deny denies "
    "denied lose loses lost".split()
)
_PREFIXES = ("non", "un", "in", "im", "il", "ir", "dis")

# direction words: phrase -> (axis, sign, where the anchor is: "after" / "before" / None)
_DIRECTIONS: dict[str, tuple[str, int, str | None]] = {}
for _p in ("above", "more than", "greater than", "higher than", "longer than", "later than", "after",
           "exceeding", "exceeds", "exceed", "beyond", "at least", "minimum of", "a minimum of", "minimum",
           "no less than", "not less than", "no fewer than", "not fewer than", "no earlier than",
           "not earlier than", "no sooner than", "over", "at or above", "at or after", "on or after",
           "at or over"):
    _DIRECTIONS[_p] = ("order", 1, "after")
for _p in ("below", "less than", "fewer than", "lower than", "shorter than", "earlier than", "before",
           "prior to", "within", "at most", "maximum of", "a maximum of", "maximum", "up to", "no more than",
           "not more than", "no later than", "not later than", "not exceeding", "under", "until",
           "at or below", "at or before", "on or before", "at or under"):
    _DIRECTIONS[_p] = ("order", -1, "after")
for _p in ("or more", "or longer", "or later", "or above", "and above", "or over", "and over", "or greater",
           "or higher"):
    _DIRECTIONS[_p] = ("order", 1, "before")
for _p in ("or less", "or fewer", "or earlier", "or below", "and below", "or under", "or lower", "or shorter"):
    _DIRECTIONS[_p] = ("order", -1, "before")
for _w in ("increase increases increased increasing rise rises rose risen rising raise raises raised "
           "grow grows grew grown growing gain gains gained").split():
    _DIRECTIONS[_w] = ("change", 1, None)
for _w in ("decrease decreases decreased decreasing reduce reduces reduced reducing fall falls fell fallen "
           "falling drop drops dropped dropping decline declines declined declining shrink shrinks shrank "
           "lower lowers lowered lowering").split():
    _DIRECTIONS[_w] = ("change", -1, None)
# "over" and "under" bound only a number ("over 18", not "over the network")
_NUMBER_ONLY = frozenset({"over", "under", "until"})
_PHRASES = sorted(_DIRECTIONS, key=lambda p: -len(p.split()))
_MAX_PHRASE = max(len(p.split()) for p in _PHRASES)

_TOKEN = re.compile(
    r"(?P<num>[-\u2212]?\d+(?:[.,]\d+)*)|(?P<word>[^\W\d_]+(?:['\u2019][^\W\d_]+)?(?:-[^\W\d_]+)*)|(?P<brk>[,;:.!?()\[\]\u2014]|\s-\s)"
)


@lru_cache(maxsize=1)
def _lexicon() -> frozenset[str]:
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["web2"], lower=True))


def _privative(word: str) -> tuple[str, str] | None:
    """(prefix, base) when `word` is an English word made of a privative
    prefix and another English word; also `X-free` (royalty-free)."""
    if "-" in word:
        head, _, tail = word.partition("-")
        if head == "non" and tail:
            return "non-", tail
        if word.endswith("-free") and len(word) > 5:
            return "-free", word[: -len("-free")]
        return None
    lex = _lexicon()
    for p in _PREFIXES:
        if word.startswith(p) and len(word) - len(p) >= 4:
            base = word[len(p):]
            if (p == "il" and base[0] != "l") or (p == "ir" and base[0] != "r") or (p == "im" and base[0] not in "mpb"):
                continue  # English spells in- as il-, ir-, im- only before these letters
            if base in lex and word in lex:
                return p, base
    return None


@dataclass(slots=True)
class _Tok:
    kind: str  # "num", "word", "brk"
    text: str  # lower case
    start: int
    end: int


def _tokens(text: str) -> list[_Tok]:
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "brk"
        out.append(_Tok(kind, m.group(0).lower().replace("\u2019", "'"), m.start(), m.end()))
    return out


def _anchor(toks: list[_Tok], i: int, step: int) -> str | None:
    """What a direction word bounds: the first number or content word next to
    it in its clause."""
    j = i
    for _ in range(4):
        j += step
        if j < 0 or j >= len(toks) or toks[j].kind == "brk":
            return None
        t = toks[j]
        if t.kind == "num":
            return "n:" + t.text.lstrip("-\u2212").replace(",", "")
        if t.text in _NUMBER_WORDS:
            return "n:" + _NUMBER_WORDS[t.text]
        if t.text not in STOPWORDS and t.text not in _NEGATORS:
            return "w:" + stem(t.text)
    return None


_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}


@lru_cache(maxsize=16384)
def read(text: str) -> Reading:
    """The polarity of each content word of `text` and its direction words."""
    text = unicodedata.normalize("NFKC", text)
    toks = _tokens(text)
    occ: list[Occurrence] = []
    dirs: list[Direction] = []
    negated_by: _Tok | None = None
    np_scope = False  # the negation reaches only to the end of a noun phrase
    clause_start = True  # no content word yet in this clause
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "brk" or t.text in _CLAUSE_BREAKERS:
            negated_by = None
            clause_start = True
            i += 1
            continue
        if np_scope and negated_by is not None and t.text in _NP_ENDERS:
            negated_by = None
        # a direction phrase (longest first); "no more than" is a bound, not a negation
        matched = None
        for n in range(min(_MAX_PHRASE, len(toks) - i), 0, -1):
            words = toks[i:i + n]
            if any(w.kind != "word" for w in words):
                continue
            phrase = " ".join(w.text for w in words)
            if phrase in _DIRECTIONS:
                matched = (phrase, n)
                break
        if matched:
            phrase, n = matched
            axis, sign, side = _DIRECTIONS[phrase]
            anchor = None
            if side == "after":
                anchor = _anchor(toks, i + n - 1, 1)
            elif side == "before":
                anchor = _anchor(toks, i, -1)
            if phrase in _NUMBER_ONLY and not (anchor or "").startswith("n:"):
                matched = None
            elif axis == "order" and anchor is None:
                matched = None
            else:
                if negated_by is not None and axis == "order" and not phrase.startswith(("no ", "not ")):
                    sign = -sign  # "not before 30 days" = at or after
                end = toks[i + n - 1].end
                dirs.append(Direction(axis, sign, anchor, text[t.start:end]))
                i += n
                continue
        if t.kind == "num":
            i += 1
            continue
        w = t.text
        if w in _NEGATORS or w.endswith("n't"):
            negated_by = t if negated_by is None else None  # "not without": two negations cancel
            np_scope = w in _NP_NEGATORS and not clause_start
            clause_start = False
            i += 1
            continue
        if w in STOPWORDS:
            if w not in ("a", "an", "the", "any"):
                clause_start = False
            i += 1
            continue
        clause_start = False
        negative = negated_by is not None
        concept_word = w
        shown_from = negated_by.start if negated_by is not None else t.start
        if w in _ANTONYMS:
            concept_word = _ANTONYMS[w]
            if w in _NEGATIVE_ANTONYMS:
                negative = not negative
        else:
            priv = _privative(w)
            if priv:
                concept_word = priv[1]
                negative = not negative
        for part in concept_word.split("-"):
            if part and part not in STOPWORDS:
                shown = text[shown_from:t.end]
                if len(shown) > 60:
                    shown = text[negated_by.start:negated_by.end] + " … " + text[t.start:t.end] \
                        if negated_by is not None else text[t.start:t.end]
                occ.append(Occurrence(stem(part), negative, shown, t.start, t.end))
        i += 1
    return Reading(tuple(occ), tuple(dirs))


def _polar(reading: Reading, lo: int = 0, hi: int | None = None) -> dict[str, list[Occurrence]]:
    by: dict[str, list[Occurrence]] = {}
    for o in reading.occurrences:
        if o.start >= lo and (hi is None or o.end <= hi):
            by.setdefault(o.concept, []).append(o)
    return by


def contradictions(claim: str, quotes: list[str] | tuple[str, ...], *,
                   quote_reading: Reading | None = None, span: tuple[int, int] | None = None
                   ) -> list[Contradiction]:
    """Where the claim says the opposite of its quotes, taken together.

    With `quote_reading` and `span`, the quote is read inside its sentence
    (the sentence's negations reach into it): what the context rule uses."""
    c = read(claim)
    if quote_reading is not None:
        readings = [(quote_reading, span)]
    else:
        readings = [(read(q), None) for q in quotes]
    qpol: dict[str, list[Occurrence]] = {}
    qdirs: list[Direction] = []
    for r, sp in readings:
        lo, hi = sp if sp else (0, None)
        for k, v in _polar(r, lo, hi).items():
            qpol.setdefault(k, []).extend(v)
        if sp is None:
            qdirs.extend(r.directions)
    out: list[Contradiction] = []
    for concept, mine in _polar(c).items():
        theirs = qpol.get(concept)
        if not theirs:
            continue
        mine_neg = {o.negative for o in mine}
        their_neg = {o.negative for o in theirs}
        if len(mine_neg) == 1 and len(their_neg) == 1 and mine_neg != their_neg:
            a, b = mine[0], theirs[0]
            kind = "negation"
            out.append(Contradiction(a.shown, b.shown, kind))
    for d in c.directions:
        same_axis = [q for q in qdirs if q.axis == d.axis and q.anchor == d.anchor]
        if same_axis and all(q.sign == -d.sign for q in same_axis):
            out.append(Contradiction(d.shown, same_axis[0].shown, "direction"))
    seen = set()
    uniq = []
    for x in out:
        if (x.claim, x.quote) not in seen:
            seen.add((x.claim, x.quote))
            uniq.append(x)
    return uniq
