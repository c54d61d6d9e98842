"""The records of the polarity rule's reading of a text (cairn.meaning.polarity
reads them, cairn.meaning.contradicting compares them): its clauses with their
polarity (positive, negated, ceased), its content words with the polarity each
has by itself, and its direction and bound words; and what a clause or a word
says of a concept (its stance).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CEASED", "NEGATED", "POSITIVE", "TIMED", "Clause", "Direction", "Marked", "Reading"]


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
