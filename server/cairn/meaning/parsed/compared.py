"""`relation-mismatch` (SPEC section 4): the two sides of a comparison exchanged, and a rank moved.

English puts what is compared before the comparative and what it is compared
with after `than`: `heavier inland than on the coast` says the reverse of
`heavier on the coast than inland`. The claim and its quote compare by the
same degree (`heavier`, `more frequent`) in the same direction (`more`, not
`less`), what the claim puts after `than` the quote puts before it, a word the
claim alone puts before it the quote puts after `than`, and the two `than`
phrases share nothing.

A rank given otherwise: the claim ranks a thing by a superlative with another
ordinal than the quote gives it (`the second largest` against `the largest`).
"""

from __future__ import annotations

from ...reading.model import Reading
from .relation import RelationMismatch
from .words import content, quoted

_LESS = frozenset("less fewer least fewest".split())
_DEGREE_WORDS = frozenset("more less fewer most least".split())


def _comparisons(r: Reading) -> list[tuple[frozenset[str], str, set[str], set[str], list[int], list[int]]]:
    """(degree lemmas, direction, words before `than`, words after it, the tokens of each side) of each
    sentence with one `than`."""
    out = []
    for a, b in r.sentences:
        thans = [i for i in range(a, b) if r.tokens[i].lemma.casefold() == "than"]
        if len(thans) != 1:
            continue
        t = thans[0]
        degree = {r.tokens[i].lemma.casefold() for i in range(a, t)
                  if r.tokens[i].tag in ("JJR", "RBR") and r.tokens[i].lemma.casefold() not in _DEGREE_WORDS}
        degree |= {r.tokens[r.tokens[i].head].lemma.casefold() for i in range(a, t)
                   if r.tokens[i].lemma.casefold() in _DEGREE_WORDS and r.tokens[i].dep == "advmod"
                   and r.tokens[r.tokens[i].head].pos in ("ADJ", "ADV")}  # not `more than 40 moves`
        # an amount compared: `less sugar than the new recipe`, the `than` phrase on the noun
        degree |= {r.tokens[r.tokens[i].head].lemma.casefold() for i in range(a, t)
                   if r.tokens[i].lemma.casefold() in _DEGREE_WORDS and r.tokens[i].dep == "amod"
                   and r.tokens[r.tokens[i].head].pos == "NOUN" and r.tokens[t].head == r.tokens[i].head}
        if not degree:
            continue
        direction = "less" if any(r.tokens[i].lemma.casefold() in _LESS for i in range(a, t)) else "more"
        after = [i for i in r.subtree(t) if i != t]
        before = [i for i in range(a, t) if i not in set(after)]
        words = content(r, before) - degree
        out.append((frozenset(degree), direction, words, content(r, after) - degree, before, after))
    return out


def than_swapped(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    theirs = _comparisons(quote)
    for degree, direction, left, right, before, after in _comparisons(claim):
        if not right:
            continue
        for d2, dir2, left2, right2, before2, after2 in theirs:
            if not (degree & d2) or direction != dir2 or right & right2:
                continue
            if right <= left2 and (left - left2) & right2:
                said, shown = claim.shown([*before, *after]), quote.shown([*before2, *after2])
                return [RelationMismatch(said, shown, f"claim compares {quoted(said.strip(' .;,'))}; the quote "
                                                      f"has the two sides the other way round: "
                                                      f"{quoted(shown.strip(' .;,'))}")]
    return []


_ORDINALS = frozenset("second third fourth fifth sixth seventh eighth ninth tenth".split())
_MOST = frozenset("most least".split())


def _ranks(r: Reading) -> list[tuple[str, str, str, list[int], int]]:
    """(subject lemma, superlative lemma, its ordinal or "", the tokens shown, the subject's token) of each
    clause that ranks its subject (`The Pacific is the largest ocean`, `the Atlantic is the second largest`)."""
    out = []
    for c in r.clauses:
        for i in c.tokens:
            t = r.tokens[i]
            most = [k.i for k in r.children(i) if k.lemma.casefold() in _MOST and k.dep == "advmod"]
            if t.tag == "JJS" and t.lemma.casefold() not in _MOST:
                sup = t.lemma.casefold()
            elif t.pos == "ADJ" and most:
                sup = r.tokens[most[0]].lemma.casefold() + " " + t.lemma.casefold()
            else:
                continue
            ords = [k.i for k in r.children(i) if k.lemma.casefold() in _ORDINALS or k.ent == "ORDINAL"]
            for s in c.subjects:
                out.append((r.tokens[s].lemma.casefold(), sup, r.tokens[ords[0]].lemma.casefold() if ords else "",
                            sorted([*ords, *most, i]), s))
    return out


def rank_moved(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    """The claim ranks a thing otherwise than its quote does: `The Pacific is the second largest ocean`
    against `The Pacific is the largest ocean, and the Atlantic is the second largest`."""
    theirs = _ranks(quote)
    for subj, sup, rank, ids, s in _ranks(claim):
        same = [x for x in theirs if x[0] == subj and x[1] == sup]
        if not same or any(x[2] == rank for x in same):
            continue
        said, shown = claim.shown(ids), quote.shown(same[0][3])
        return [RelationMismatch(said, shown, f"claim says {quoted(claim.tokens[s].text)} is {quoted(said)}; the "
                                              f"quote says {quoted(shown)}")]
    return []
