"""Whether a claim says the opposite of its quotes (SPEC section 4,
`contradiction`), over the readings of cairn.meaning.polarity.

A claim clause contradicts the quotes when the quote clause that shares
the most of its words (at least two) has the opposite polarity, and no
other clause sharing as much agrees: `Refunds are not given` agrees with
`No refunds are given`. A word with a polarity of its own (`non-exclusive`,
`prohibited`) contradicts the same word of the other side with the other
polarity. A direction or bound word contradicts the quotes when they bound
the same thing the other way; a bound in a condition is compared only with
bounds in conditions. What ceased held before: a clause in the past (`was
named X`) agrees with `used to be named X`. A negation and an opposite
direction in the same pair of clauses cancel (`no refunds after 30 days`
agrees with `refunds within 30 days`). A movement the other way (`from the
refinery to the coast` against `from the coast to the refinery`) is a
contradiction too. The cheap tests of cairn.meaning.screening let most
pairs through before either side is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..support import STOPWORDS, stem
from .clauses import CEASED, NEGATED, POSITIVE, TIMED, Clause, Direction, Marked, Reading, _stance, _word_stance
from .lexicon import ANTONYMS, DENYING_FORMS
from .polarity import read
from .screening import (
    _WORDS,
    _claim_may_contradict,
    _concepts,
    _may_differ,
    _may_differ_plain,
    _merged,
    _quote_view,
    _QuoteView,
)

__all__ = ["Contradiction", "contradictions", "reversed_movements"]


@dataclass(frozen=True, slots=True)
class Contradiction:
    claim: str
    quote: str
    kind: str  # "negation", "antonym", "direction"

    @property
    def message(self) -> str:
        return f"claim says {self.claim}; quote says {self.quote}"


# words that deny what their clause would otherwise state, without a negation (lexicon.DENYING_FORMS)
_DENYING = re.compile(rf"(?<![\w-])(?:{DENYING_FORMS})(?![\w-])", re.IGNORECASE)


def _denies_by_word(text: str, cl: Clause) -> bool:
    """Whether a clause, without a negation of its own, holds a word that denies (_DENYING)."""
    # from just before the clause: "are forbidden | to share passwords", "are barred | from entering"
    return cl.polarity != NEGATED and _DENYING.search(text, max(0, cl.start - 16), cl.end) is not None


# a requirement denied (`do not have to`, `need not`, `not required to`): what is left is an option
_NOT_REQUIRED = re.compile(r"(?<![\w-])(?:(?:do|does|did)\s+not|don't|doesn't|didn't)\s+(?:have|need)\s+to"
                           r"|need\s*n[o']t|not\s+(?:required|obliged|compelled)\s+to", re.IGNORECASE)
_OPTION = re.compile(r"(?<![\w-])(?:may|can|could|optional|optionally|choose|free\s+to|allowed|permitted)(?![\w-])",
                     re.IGNORECASE)


def _option_each(c_text: str, cl: Clause, q_text: str | None, ql: Clause) -> bool:
    """`do not have to bring` against `may bring`: a requirement denied is an option, which is no denial of
    the act."""
    if q_text is None:
        return False
    for a, x, b, y in ((c_text, cl, q_text, ql), (q_text, ql, c_text, cl)):
        if x.polarity == NEGATED and y.polarity != NEGATED and _NOT_REQUIRED.search(a, x.start, x.end) \
                and _OPTION.search(b, y.start, y.end):
            return True
    return False


def _one_denial_each(c_text: str, cl: Clause, q_text: str | None, ql: Clause) -> bool:
    """A negation on one side against a word that denies on the other (`do not have to pay the charge`
    against `are exempt from the charge`): two ways of saying no, which the count of negations reads as
    opposed. The side with the negation holds no denying word of its own."""
    if q_text is None:
        return False
    if cl.polarity == NEGATED and ql.polarity != NEGATED:
        return _denies_by_word(q_text, ql) and _DENYING.search(c_text, cl.start, cl.end) is None
    if ql.polarity == NEGATED and cl.polarity != NEGATED:
        return _denies_by_word(c_text, cl) and _DENYING.search(q_text, ql.start, ql.end) is None
    return False


# what sets a word aside without a negation: "plant it in autumn rather than in spring" says not in spring
_SET_ASIDE = re.compile(r"(?<![\w-])(?:rather\s+than|instead\s+of|as\s+opposed\s+to|in\s+place\s+of)"
                        r"((?:\s+[^\W\d_]+){1,3})", re.IGNORECASE)


def _set_aside(text: str | None, ql: Clause, concept: str) -> bool:
    """Whether the quote clause sets the concept aside (`rather than in spring`), as a claim's `not spring` does."""
    if text is None or "rather" not in text and "instead" not in text and "oppos" not in text and "place" not in text:
        return False
    return any(stem(w.lower()) == concept for m in _SET_ASIDE.finditer(text, ql.start, ql.end)
               for w in m.group(1).split())


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
    texts = {id(r): q for (r, _), q in zip(readings, quotes)} if quote_reading is None else {}

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
            if _one_denial_each(claim, cl, texts.get(id(r)), ql) or _option_each(claim, cl, texts.get(id(r)), ql) or (
                    cl.polarity == NEGATED and _set_aside(texts.get(id(r)), ql, g)):
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
            m0 = ms[0][0]
            if _bound_turned(c, m0.clause, readings):
                turned.add(m0.clause)
            elif not m0.negative and ts.marked and any(_DENYING.search(q) for q in quotes) \
                    and m0.clause < len(c.clauses) \
                    and c.clauses[m0.clause].polarity == NEGATED \
                    and _DENYING.search(claim, c.clauses[m0.clause].start, c.clauses[m0.clause].end) is None:
                continue  # "Smoking is not allowed in the rooms" against "All rooms are non-smoking"
            else:
                out.append(Contradiction(ms[0][0].shown, ts.shown, "antonym"))

    # 3. direction and bounds; a comparison whose two sides are the other way round ("adults need less
    # than teenagers" against "teenagers need more than adults") says the same with the opposite word
    qdirs = [(r, d) for r, _ in readings for d in r.directions]
    for d in c.directions:
        same = [(r, q) for r, q in qdirs if q.axis == d.axis and (
            q.anchor == d.anchor or _anchored_near(claim, d, texts.get(id(r), ""), q))]
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
_THAN = re.compile(r"\s*(?:[^\W\d_]+\s+){0,3}?than\s+(?:the\s+|a\s+|an\s+|those\s+|that\s+)?([^\W\d_]+)", re.IGNORECASE)


_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_]+)")


_NEAR_WORDS = re.compile(r"[^\W\d_]+")


def _after(text: str, d: Direction) -> set[str]:
    """The stems of the first five words after a direction word (what `than` compares with)."""
    at = text.find(d.shown, d.start)
    if at < 0:
        return set()
    return {stem(w.lower()) for w in _NEAR_WORDS.findall(text, at + len(d.shown), at + len(d.shown) + 48)[:5]}


def _anchored_near(claim: str, d: Direction, quote: str, q: Direction) -> bool:
    """Two comparisons with `than` that bound the same thing, one of them through a pronoun (`more expensive
    than those on the first floor` against `cheaper than rooms on the first floor`): the word one side bounds
    is among the first words after the other's `than`."""
    if d.axis != "order" or not (d.anchor and q.anchor and d.anchor.startswith("w:") and q.anchor.startswith("w:")) \
            or "than" not in d.shown or "than" not in q.shown:
        return False
    return q.anchor[2:] in _after(claim, d) or d.anchor[2:] in _after(quote, q)


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
    if a == b or mine.group(1).lower() in STOPWORDS or theirs.group(1).lower() in STOPWORDS:
        return False  # (`than those on the first floor`: "on" names neither side)
    before_q = {stem(w.lower()) for w in _WORDS.findall(quote[:q.start])}
    before_c = {stem(w.lower()) for w in _WORDS.findall(claim[:d.start])}
    return a in before_q and b in before_c


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
