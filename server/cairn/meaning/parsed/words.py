"""What the structural rules share: content lemmas, clause alignment, quoting."""

from __future__ import annotations

from collections.abc import Iterable

from ...reading.model import Clause, Reading, Token

CONTENT = frozenset("NOUN PROPN ADJ VERB NUM ADV".split())
_LIGHT = frozenset("be have do get make very also just so then there here now".split())


def content(r: Reading, ids: Iterable[int]) -> set[str]:
    """The content lemmas of these tokens."""
    return {r.tokens[i].lemma for i in ids if r.tokens[i].pos in CONTENT and r.tokens[i].lemma not in _LIGHT
            and any(c.isalnum() for c in r.tokens[i].text)}


def clause_at(r: Reading, i: int) -> Clause | None:
    """The clause whose own tokens hold token i, or None."""
    return next((c for c in r.clauses if i in c.tokens), None)


def verb_of(r: Reading, c: Clause) -> Token:
    """A clause's verb: its predicate, or the copula of a predicate adjective or noun (`is free`)."""
    t = r.tokens[c.predicate]
    return r.tokens[t.head] if t.dep in ("acomp", "attr") and t.head != t.i else t


def aligned(claim: Reading, c: Clause, quote: Reading) -> list[tuple[int, Clause]]:
    """The quote's clauses on the same predicate as claim clause `c` that share
    at least one other content word with it (its subject, object or a modifier),
    best first, with the number of words shared."""
    mine = content(claim, c.tokens) - {c.lemma}
    out = []
    for q in quote.clauses:
        if q.lemma != c.lemma:
            continue
        shared = len(mine & (content(quote, q.tokens) - {q.lemma}))
        if shared:
            out.append((shared, q))
    out.sort(key=lambda x: -x[0])
    return out


def best(cands: list[tuple[int, Clause]]) -> list[Clause]:
    """Of aligned clauses (`aligned`, best first), those sharing the most words with the claim's."""
    return [q for n, q in cands if n == cands[0][0]] if cands else []


def quoted(text: str) -> str:
    return f"\u201c{text}\u201d"
