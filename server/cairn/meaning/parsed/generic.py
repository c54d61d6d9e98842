"""`context-limits` (SPEC section 4): a generic subject the quote narrows.

A bare plural or mass noun as a clause's subject (`Pupils may leave`,
`Buses run`, `Use of the software is free`), or one under `all`, `every`,
`each`, `any` or `no`, states a rule about the whole kind. When the quote's
clause on the same predicate says it of a kind narrowed by words the claim
does not say (`Year 11 pupils`, `Night buses`, `Accessories bought
separately`, `use of the software for non-commercial purposes`, `Samples from
patients with a known infection`), the claim states of all what the quote
states of some. A noun with `the`, a demonstrative or a possessive names a
thing already known, and is left alone; so are plain adjectives (`the new
plan`), which as often describe as narrow.
"""

from __future__ import annotations

from ...reading.model import Reading
from .limits import Limit
from .words import aligned, best, content, quoted

_GENERIC_DETS = frozenset("all every each any no".split())
# the prepositions whose phrase on a noun narrows it to a sub-kind ("of" names its argument instead)
_NARROWING_PREPS = frozenset("for from with without in on under over at within outside".split())


# a participle that names rather than narrows ("heart, also known as heartbreak", "a fruit called quince")
_NAMING = frozenset("know call name term dub".split())


def _generic(r: Reading, noun: int) -> bool:
    t = r.tokens[noun]
    if t.pos != "NOUN" or t.ent:
        return False
    dets = [k for k in r.children(noun) if k.dep in ("det", "poss", "predet")]
    if any(k.lemma not in _GENERIC_DETS for k in dets):
        return False
    return bool(dets) or t.tag in ("NNS", "NN") and not any(k.dep == "nummod" for k in r.children(noun))


def _narrowing(r: Reading, noun: int) -> list[int]:
    """The tokens of the words that narrow a noun to a sub-kind (its own, and its `of` object's)."""
    out: list[int] = []
    heads = [noun] + [o.i for k in r.children(noun) if k.dep == "prep" and k.lemma == "of"
                      for o in r.children(k.i) if o.dep == "pobj"]
    for h in heads:
        for k in r.children(h):
            if k.dep in ("compound", "nmod") and k.pos in ("NOUN", "PROPN", "NUM") \
                    or k.dep == "amod" and k.tag in ("VBN", "VBG") \
                    or k.dep in ("acl", "relcl") and k.lemma not in _NAMING \
                    or k.dep == "prep" and k.lemma in _NARROWING_PREPS:
                out += r.subtree(k.i)
    return out


def narrowed(claim: Reading, quote: Reading) -> list[Limit]:
    mine = content(claim, range(len(claim.tokens)))
    for c in claim.clauses:
        for s in c.subjects:
            if not _generic(claim, s):
                continue
            own = _narrowing(claim, s)
            numbered = any(claim.tokens[i].pos == "NUM" for i in own)
            top = best(aligned(claim, c, quote))
            hits = []
            for q in top:
                same = [k for k in q.subjects if quote.tokens[k].lemma == claim.tokens[s].lemma]
                ids = [i for k in same for i in _narrowing(quote, k)]
                words = content(quote, ids)
                if not same or not words or len(words & mine) * 2 >= len(words):
                    break  # the quote says it of the kind the claim names
                if numbered and any(quote.tokens[i].pos == "NUM" for i in ids):
                    break  # both narrow the kind by a number (`under 16`, `aged 15 or younger`): the number rule compares them
                hits.append((same[0], ids))
            else:
                if hits:
                    k, ids = hits[0]
                    said = claim.shown([*[d.i for d in claim.children(s) if d.dep in ("det", "predet", "compound", "amod")], s])
                    theirs = quote.shown(sorted({*ids, k}))
                    return [Limit("subject", said, theirs, f"claim says it of {quoted(said)}; the quote's sentence "
                                                           f"says it of {quoted(theirs)}")]
    return []
