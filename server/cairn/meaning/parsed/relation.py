"""`relation-mismatch` (SPEC section 4): the claim binds a quantity or an
entity to another argument than its quote does, or swaps two arguments' roles.

- A quantity is bound to the phrase it is given for (`£25.60 for each
  additional child`). The claim's quantity, found in the quote, is bound there
  to something else, while the quote binds the claim's phrase to a different
  quantity: "claim pairs £25.60 with each additional child; the quote pairs it
  with the eldest or only child".
- An entity (a proper noun) as the subject of a clause is paired with the
  entity its object names. The claim pairs A with B where the quote's clauses
  on the same predicate pair A with C and some D with B, never A with B.
- Roles swapped: the claim has A do P to B where the quote has B do P to A.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ...reading.model import Quantity, Reading, Token
from ..lexicon import NUMBER_WORDS
from ..units import EVERY_SPAN
from .words import content, quoted


@dataclass(frozen=True, slots=True)
class RelationMismatch:
    claim: str  # the claim's pairing, as written
    quote: str  # the quote's pairing, as written
    message: str


def relation_mismatches(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    return _quantities(claim, quote) + _measured(claim, quote) + _entities(claim, quote)


def _of(r: Reading, q: Quantity) -> tuple[str, str, int] | None:
    """(unit lemma, lemma of the thing measured, its token) of a measure English puts on a noun: a unit
    compounded before it (`a 15-minute break`) or an `of` phrase after it (`two periods of 15 minutes`)."""
    if q.measures is None:
        return None
    unit = r.tokens[q.measures]
    if unit.pos != "NOUN" or unit.head == unit.i:
        return None
    head = r.tokens[unit.head]
    if unit.dep == "compound" and head.pos == "NOUN":
        return unit.lemma, head.lemma, head.i
    if unit.dep == "pobj" and head.lemma == "of" and head.head != head.i and r.tokens[head.head].pos == "NOUN":
        thing = r.tokens[head.head]
        return unit.lemma, thing.lemma, thing.i
    return None


def _measured(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    """A measure the claim puts on one thing where the quote puts it on another, and gives the claim's
    thing a measure of its own in the same unit: "a 15-minute break" against "two periods of 15 minutes,
    with a 1-minute break"."""
    theirs = [(q, m) for q in quote.quantities if (m := _of(quote, q)) is not None]
    out = []
    for cq in claim.quantities:
        mine = _of(claim, cq)
        if mine is None:
            continue
        unit, thing, _ = mine
        same = [(q, m) for q, m in theirs if q.value == cq.value and m[0] == unit]
        if not same or any(m[1] == thing for _, m in same):
            continue
        rival = next(((q, m) for q, m in theirs if q.value != cq.value and m[0] == unit and m[1] == thing), None)
        if rival is None:
            continue
        (q, m), (r, n) = same[0], rival
        mine_shown = claim.shown(sorted({*cq.tokens, cq.measures or cq.tokens[0], mine[2]}))
        rival_shown = quote.shown(sorted({*r.tokens, r.measures or r.tokens[0], n[2]}))
        same_shown = quote.shown(sorted({*q.tokens, q.measures or q.tokens[0]}))
        out.append(RelationMismatch(
            mine_shown, rival_shown,
            f"claim gives {quoted(mine_shown)}; the quote gives {quoted(rival_shown)} and puts {quoted(same_shown)}"
            f" on {quoted(quote.tokens[m[2]].text)}"))
    return out


def _unbound(claim: Reading, cq: Quantity, quote: Reading) -> RelationMismatch | None:
    """A claim's figure without a phrase of its own (`Neutering a male cat costs £180`) where the quote binds
    the same figure to one thing and a rival figure to another (`£180 for female cats and £95 for male cats`):
    the claim names what tells the rival's thing apart (`male`) and nothing that tells the figure's apart
    (`female`)."""
    # the claim's words, less those of its figures and of what its other figures are for (`24.5p a kWh`)
    taken = {i for x in claim.quantities for i in x.tokens} | {
        i for x in claim.quantities if x is not cq for i in (*x.bound, *range(max(x.tokens) + 1, max(x.tokens) + 3))}
    words = content(claim, [i for i in range(len(claim.tokens)) if i not in taken])
    words |= {EVERY_SPAN[w] for w in words if w in EVERY_SPAN}
    for q in quote.quantities:
        if q.value != cq.value or not q.bound or _pointing(quote, q.bound):
            continue
        for r in quote.quantities:
            if r.value == cq.value or not r.bound or _kind(quote, r) != _kind(quote, q) or _kind(quote, q) != _kind(
                    claim, cq):
                continue
            mine, theirs = content(quote, q.bound), content(quote, r.bound)
            own, rival = mine - theirs, theirs - mine
            if own and rival and rival <= words and not own & words:
                return RelationMismatch(
                    f"{cq.shown}, {', '.join(sorted(rival))}", f"{q.shown} for {quote.shown(q.bound)}",
                    f"claim gives {cq.shown} to {quoted(' '.join(sorted(rival)))}; the quote pairs it with "
                    f"{quoted(quote.shown(q.bound))} (and {r.shown} with {quoted(quote.shown(r.bound))})")
    return None


def _quantities(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    out = []
    for cq in claim.quantities:
        mine = content(claim, cq.bound)
        if not mine:
            if (found := _unbound(claim, cq, quote)) is not None:
                out.append(found)
            continue
        same = [q for q in quote.quantities if q.value == cq.value and q.bound]
        if not same or any(mine <= content(quote, q.bound) for q in same):
            continue
        others = [q for q in quote.quantities if q.value != cq.value and q.bound and mine <= content(quote, q.bound)
                  and _kind(quote, q) == _kind(claim, cq)]
        # a phrase that points back ("for that period") may name what the claim's does
        same = [q for q in same if not _pointing(quote, q.bound)]
        if not others:
            continue
        if not same:
            continue
        theirs = same[0]
        other = others[0]
        out.append(RelationMismatch(
            f"{cq.shown} for {claim.shown(cq.bound)}", f"{theirs.shown} for {quote.shown(theirs.bound)}",
            f"claim pairs {cq.shown} with {quoted(claim.shown(cq.bound))}; the quote pairs it with "
            f"{quoted(quote.shown(theirs.bound))} (and {other.shown} with {quoted(quote.shown(other.bound))})"))
    return out


def _kind(r: Reading, q: Quantity) -> str:
    """What a quantity counts: its currency or sign, else the lemma of the noun it measures."""
    marks = "".join(r.tokens[i].text for i in q.tokens if not any(c.isdigit() for c in r.tokens[i].text))
    return marks or (r.tokens[q.measures].lemma if q.measures is not None else "")


def _pointing(r: Reading, ids: tuple[int, ...]) -> bool:
    return any(r.tokens[i].lemma in ("this", "that", "these", "those", "it", "them", "same") for i in ids)


# the entity types of a name the tagger may give as a common noun ("Bordeaux lies on …": NOUN, ORG)
_NAMES = frozenset("PERSON ORG GPE LOC FAC PRODUCT NORP EVENT WORK_OF_ART".split())


def is_name(t: Token) -> bool:
    return t.pos == "PROPN" or t.pos == "NOUN" and t.ent in _NAMES


def _pairs(r: Reading) -> list[tuple[str, str, str, int, int]]:
    """(predicate lemma, subject lemma, object lemma, subject token, object token) of each clause
    whose subject and object are proper nouns."""
    out = []
    for c in r.clauses:
        for s in c.subjects:
            if not is_name(r.tokens[s]):
                continue
            for o in c.objects:
                if is_name(r.tokens[o]) and r.tokens[o].lemma != r.tokens[s].lemma:
                    out.append((c.lemma, r.tokens[s].lemma, r.tokens[o].lemma, s, o))
    return out


def _entities(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    theirs = _pairs(quote)
    if not theirs:
        return []
    out = []
    for pred, a, b, s, o in _pairs(claim):
        same_pred = [p for p in theirs if p[0] == pred]
        if any(p[1] == a and p[2] == b for p in same_pred):
            continue
        mine = f"{claim.tokens[s].text} {pred} {claim.tokens[o].text}"
        swapped = next((p for p in same_pred if p[1] == b and p[2] == a), None)
        if swapped is not None:
            out.append(RelationMismatch(mine, f"{quote.tokens[swapped[3]].text} {pred} {quote.tokens[swapped[4]].text}",
                                        f"claim has {claim.tokens[s].text} as the subject and {claim.tokens[o].text} "
                                        f"as the object of {quoted(pred)}; the quote has them the other way round"))
            continue
        with_a = next((p for p in same_pred if p[1] == a and p[2] != b), None)
        with_b = next((p for p in same_pred if p[2] == b and p[1] != a), None)
        if with_a is not None and with_b is not None:
            out.append(RelationMismatch(
                mine, f"{quote.tokens[with_a[3]].text} … {quote.tokens[with_a[4]].text}",
                f"claim pairs {claim.tokens[s].text} with {claim.tokens[o].text}; the quote pairs "
                f"{quote.tokens[with_a[3]].text} with {quote.tokens[with_a[4]].text} and "
                f"{quote.tokens[with_b[3]].text} with {quote.tokens[with_b[4]].text}"))
    return out


def _number(text: str) -> Decimal | None:
    """A quantity's value as written (`11`, `3.5`, `three`), or None."""
    low = text.casefold().replace(",", "")
    if low in NUMBER_WORDS:
        return Decimal(NUMBER_WORDS[low])
    try:
        return Decimal(low)
    except ArithmeticError:
        return None


def counted_elsewhere(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    """`11 points behind the leaders` against `three points behind the leaders with 11 games remaining`: the
    claim counts one thing with a number the quote gives only to another thing, and the quote gives the
    claim's thing another number of its own."""
    for cq in claim.quantities:
        if cq.measures is None or claim.tokens[cq.measures].pos != "NOUN":
            continue
        v, noun = _number(cq.value), claim.tokens[cq.measures].lemma
        if v is None:
            continue
        same = [q for q in quote.quantities if _number(q.value) == v]
        if not same or any(q.measures is None or quote.tokens[q.measures].lemma == noun for q in same):
            continue
        rival = next((q for q in quote.quantities if q.measures is not None and quote.tokens[q.measures].lemma == noun
                      and _number(q.value) not in (None, v)), None)
        if rival is None:
            continue
        other = same[0]
        assert other.measures is not None and rival.measures is not None
        rival_noun = rival.measures
        return [RelationMismatch(cq.shown, other.shown,
                                 f"claim gives {cq.value} to {quoted(claim.tokens[cq.measures].text)}; the quote gives "
                                 f"{other.value} to {quoted(quote.tokens[other.measures].text)} and {rival.value} to "
                                 f"{quoted(quote.tokens[rival_noun].text)}")]
    return []
