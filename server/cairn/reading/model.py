"""What the reader gives (plain records; no spaCy type leaks out of `reading`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Token:
    i: int  # index in the text's tokens
    text: str
    lemma: str  # lower case
    pos: str  # universal part of speech (NOUN, VERB, AUX, ...)
    tag: str  # fine tag (VBN, MD, ...)
    dep: str  # dependency label to its head (ROOT for a sentence's root)
    head: int  # the head's index (itself for a root)
    start: int  # character offsets in the text
    end: int
    ent: str  # the named-entity type ("" when none)
    sent: int  # the index of its sentence


@dataclass(frozen=True, slots=True)
class Clause:
    """A predicate with what the reader knows of it."""

    predicate: int  # the token (a verb; for a copula, its complement)
    lemma: str
    negation: str  # the negating word as written ("" when positive)
    modality: str  # "required" (must, shall, have to), "optional" (may, can, choose to) or ""
    modal: str  # the modal words as written, with the predicate ("can choose to be paid")
    subjects: tuple[int, ...]  # heads of its subject(s)
    objects: tuple[int, ...]  # heads of its object(s) and prepositional objects
    tokens: tuple[int, ...]  # the clause's own tokens (its subtree less the clauses inside it)


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number with what it measures and what it is given for."""

    tokens: tuple[int, ...]  # the number with its sign, currency and unit
    shown: str  # as written ("£25.60")
    value: str  # the number as written, without separators ("25.60")
    measures: int | None  # the noun it counts or measures ("four weeks" -> weeks)
    bound: tuple[int, ...]  # the phrase it is for ("£25.60 for [the eldest or only child]")


@dataclass(frozen=True, slots=True)
class Restriction:
    """A word group that narrows a noun or a clause."""

    target: int  # the noun or predicate restricted
    kind: str  # "with", "relative", "condition", "exception", "only"
    tokens: tuple[int, ...]
    shown: str


@dataclass(frozen=True, slots=True)
class Quantifier:
    word: int  # the determiner ("every")
    noun: int  # what it quantifies
    universal: bool  # every, all, each, any (else some, one of, either, ...)


@dataclass(frozen=True, slots=True)
class Reading:
    text: str
    tokens: tuple[Token, ...]
    sentences: tuple[tuple[int, int], ...]  # (first token, end token) of each sentence
    clauses: tuple[Clause, ...]
    quantities: tuple[Quantity, ...]
    restrictions: tuple[Restriction, ...]
    quantifiers: tuple[Quantifier, ...]
    kids: tuple[tuple[int, ...], ...]  # each token's children, in text order

    def shown(self, ids: tuple[int, ...] | list[int]) -> str:
        """The text from the first to the last of these tokens, as written."""
        if not ids:
            return ""
        return self.text[self.tokens[min(ids)].start:self.tokens[max(ids)].end]

    def children(self, i: int) -> list[Token]:
        return [self.tokens[k] for k in self.kids[i]]

    def subtree(self, i: int, *, stop: frozenset[int] = frozenset()) -> list[int]:
        """Token `i` and every token under it, in text order, not going below the tokens in `stop`."""
        out = []
        todo = [i]
        while todo:
            k = todo.pop()
            out.append(k)
            todo.extend(c for c in self.kids[k] if c not in stop)
        return sorted(out)
