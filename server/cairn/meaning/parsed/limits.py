"""`context-limits` (SPEC section 4): the claim states without restriction what
its quote's sentence restricts, or changes its modality.

- Modality: a clause the claim states as required (`must`, `shall`, `have
  to`, `is required to`) where the quote's clause on the same predicate and
  words makes it optional (`may`, `can`, `can choose to`, `is allowed to`), or
  the reverse.
- A universal claim (`every`, `all`, `each`, `any` on a noun) where the quote
  narrows that noun (`pupils with 100% attendance`, `users who registered`,
  `only members`), or puts a condition or an exception on the clause (`if`,
  `unless`, `except`), and the claim says none of the restriction's words.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...reading.model import Reading
from .words import aligned, content, quoted


@dataclass(frozen=True, slots=True)
class Limit:
    kind: str  # "modality" or "universal"
    claim: str
    quote: str
    message: str


def limits(claim: Reading, quote: Reading) -> list[Limit]:
    return _modality(claim, quote) + _universal(claim, quote)


def _modality(claim: Reading, quote: Reading) -> list[Limit]:
    out = []
    for c in claim.clauses:
        if not c.modality:
            continue
        cands = aligned(claim, c, quote)
        if not cands:
            continue
        best = cands[0][0]
        top = [q for n, q in cands if n == best]
        if all(q.modality and q.modality != c.modality for q in top):
            q = top[0]
            out.append(Limit("modality", c.modal, q.modal, f"claim says {quoted(c.modal)} ({c.modality}); "
                                               f"quote says {quoted(q.modal)} ({q.modality})"))
    return out


def _universal(claim: Reading, quote: Reading) -> list[Limit]:
    out = []
    claim_words = content(claim, range(len(claim.tokens)))
    restricted_in_claim = {x.target for x in claim.restrictions}
    for u in claim.quantifiers:
        if not u.universal or u.noun in restricted_in_claim:
            continue
        noun = claim.tokens[u.noun]
        if noun.dep not in ("nsubj", "nsubjpass", "dobj", "pobj", "attr"):
            continue
        for x in quote.restrictions:
            target = quote.tokens[x.target]
            on_noun = target.lemma == noun.lemma
            on_clause = x.kind in ("condition", "exception") and any(
                c.predicate == x.target or quote.tokens[c.predicate].head == x.target for c in quote.clauses
                if any(quote.tokens[s].lemma == noun.lemma for s in c.subjects + c.objects))
            if not (on_noun or on_clause):
                continue
            words = content(quote, x.tokens) - {noun.lemma}
            if not words or words <= claim_words:
                continue
            said = claim.shown([u.word, u.noun])
            out.append(Limit("universal", said, x.shown, f"claim says {quoted(said)} without restriction; the quote's sentence "
                                            f"restricts it: {quoted(x.shown)}"))
            break
    return out
