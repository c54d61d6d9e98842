"""Negation with its scope (`contradiction`): a clause of the claim and the
quote's clause on the same predicate, with the same subject, differ in
negation. Read by clause, a negation elsewhere in either text (`so no special
rules are needed`) does not cancel it: "libffi is completely thread-safe"
against "libffi is not completely thread-safe"."""

from __future__ import annotations

from dataclasses import dataclass

from ...reading.model import Clause, Reading
from .words import aligned, content


@dataclass(frozen=True, slots=True)
class ScopedNegation:
    claim: str
    quote: str
    message: str


def _shown(r: Reading, c: Clause) -> str:
    """The clause's verb group with its predicate ("is not completely thread-safe")."""
    verb = r.tokens[c.predicate]
    head = r.tokens[verb.head] if verb.dep in ("acomp", "attr") else verb
    ids = [head.i, c.predicate] + [k for k in r.kids[head.i] if r.tokens[k].dep in ("neg", "aux", "auxpass", "advmod")
                                   and abs(k - head.i) <= 3]
    ids += [k for k in r.subtree(c.predicate) if k < c.predicate]
    return r.shown(ids)


def negation_scope(claim: Reading, quote: Reading) -> list[ScopedNegation]:
    out = []
    for c in claim.clauses:
        subj = content(claim, c.subjects)
        cands = [(n, q) for n, q in aligned(claim, c, quote)
                 if not subj or subj & content(quote, q.subjects)]
        if not cands:
            continue
        best = cands[0][0]
        top = [q for n, q in cands if n == best]
        if all(bool(q.negation) != bool(c.negation) for q in top):
            q = top[0]
            mine, theirs = _shown(claim, c), _shown(quote, q)
            if mine.casefold() == theirs.casefold():
                continue
            out.append(ScopedNegation(mine, theirs, f"claim says {mine}; quote says {theirs}"))
    return out
