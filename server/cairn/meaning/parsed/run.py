"""The structural rules over a claim and its resolved quotes, each quote read
in its sentence; nothing when the reader is unavailable (`reading.read`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...reading.read import read
from ..sentences import sentence_around, sentence_spans
from .actors import actor_swapped, roles_swapped
from .amounts import amounts
from .asserted import asserted
from .compared import rank_moved, than_swapped
from .dropped import dropped
from .focus import converse, only_focus, only_one_side
from .generic import narrowed
from .limits import Limit, limits
from .lists import added_to_list, examples_added, only_listed, placed_elsewhere, threshold
from .members import member_swapped
from .overstated import association, bounds, partial
from .pairing import pairing_mismatches
from .relation import RelationMismatch, counted_elsewhere, relation_mismatches
from .retraction import reports_retraction, retraction, within
from .scope import ScopedNegation, ended_mismatches, negation_scope, tense_mismatches

# A quote's sentence longer than this is not read (a table or a listing is not a sentence)
SENTENCE_REACH = 600


@dataclass(slots=True)
class Structural:
    relations: list[RelationMismatch] = field(default_factory=list)
    pairings: list[RelationMismatch] = field(default_factory=list)  # figures of a list, roles swapped
    amounts: list[tuple[str, RelationMismatch]] = field(default_factory=list)  # (kind, finding): each/total, by/to, order
    limits: list[tuple[int, Limit]] = field(default_factory=list)  # (evidence index, finding)
    negations: list[ScopedNegation] = field(default_factory=list)
    tenses: list[ScopedNegation] = field(default_factory=list)  # done against still to come
    retractions: list[tuple[int, str, str]] = field(default_factory=list)  # (evidence index, sentences, retraction)


def quote_sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence of `text` around [start, end), clipped to SENTENCE_REACH on either side."""
    s, e = sentence_around(text, start, end)
    return max(s, start - SENTENCE_REACH), min(e, end + SENTENCE_REACH)


def _next_sentence(text: str, e: int) -> tuple[int, int] | None:
    for a, b in sentence_spans(text[e:e + SENTENCE_REACH]):
        if text[e + a:e + b].strip():
            return e + a, e + b
    return None


def check(claim: str, evidence: list[tuple[str, str, int, int]], *, polarity: bool = True) -> Structural:
    """`evidence`: (quote, chunk text, start, end) of each resolved quote."""
    found = Structural()
    mine = read(claim)
    if mine is None:
        return found
    for i, (_quote, text, start, end) in enumerate(evidence):
        s, e = quote_sentence(text, start, end)
        theirs = read(text[s:e])
        if theirs is None:
            continue
        if polarity:
            found.relations += relation_mismatches(mine, theirs)
            found.pairings += [RelationMismatch(*x) for x in pairing_mismatches(mine, theirs)]
            found.amounts += amounts(mine, theirs) + [("converse", x) for x in converse(mine, theirs)] + [
                ("than", x) for x in than_swapped(mine, theirs)] + [("place", x) for x in placed_elsewhere(mine, theirs)] + [
                ("rank", x) for x in rank_moved(mine, theirs)] + [("member", x) for x in member_swapped(mine, theirs)] + [
                ("actor", x) for x in actor_swapped(mine, theirs)] + [("roles", x) for x in roles_swapped(mine, theirs)] + [("added", x) for x in added_to_list(mine, theirs)] + [("counted", x) for x in counted_elsewhere(mine, theirs)] + [
                ("examples", x) for x in examples_added(mine, theirs)]
            found.limits += [(i, x) for x in limits(mine, theirs) + dropped(mine, theirs) + bounds(mine, theirs)
                             + association(mine, theirs) + partial(mine, theirs) + narrowed(mine, theirs)
                             + only_focus(mine, theirs) + only_one_side(mine, theirs) + asserted(mine, theirs) + only_listed(mine, theirs) + threshold(mine, theirs)]
            found.negations += negation_scope(mine, theirs)
            found.tenses += tense_mismatches(mine, theirs) + ended_mismatches(mine, theirs)
        # what follows the quote in its sentence after a semicolon, or the next sentence
        if any(c.negation for c in mine.clauses) or reports_retraction(mine):
            continue  # a claim that denies something, or reports a denial ("The company denied that …"), is read
            # against a retraction by the polarity rules
        rest = text[end:e]
        after, upto = (rest[rest.index(";") + 1:], e) if ";" in rest else ("", e)
        if not after.strip():
            nxt = _next_sentence(text, e)
            after, upto = (text[nxt[0]:nxt[1]], nxt[1]) if nxt else ("", e)
        if after.strip() and len(after) <= SENTENCE_REACH:
            got = read(after)
            if got is not None and (why := retraction(got)) is not None:
                found.retractions.append((i, " ".join(text[s:upto].split()), why))
                continue
        # the quote itself goes on to take back what the claim states ("It is often said that …; this is not the case")
        if (inner := within(mine, text[start:end], read)) is not None:
            found.retractions.append((i, *inner))
    return found
