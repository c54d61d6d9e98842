"""`context-limits` (SPEC section 4): the claim states without restriction what
its quote's sentence restricts, or changes its modality.

- Modality: a clause the claim states as required (`must`, `shall`, `have
  to`, `is required to`) where the quote's clause on the same predicate and
  words makes it optional (`may`, `can`, `can choose to`, `is allowed to`), or
  the reverse.
- A universal claim (`every`, `all`, `each`, `any` on a noun) where the quote
  narrows that noun (`pupils with 100% attendance`, `users who registered`,
  `only members`, `pupils except …`), and the claim says none of the
  restriction's words.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...reading.model import Clause, Quantifier, Reading, Restriction
from .words import aligned, best, content, quoted


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
        top = best(aligned(claim, c, quote))
        if not top:
            continue
        if _bounded(claim, c) or any(_bounded(quote, q) for q in top):
            continue  # "can be at most 16 characters" sets a limit, which is a requirement, not an option
        if all(q.modality and q.modality != c.modality for q in top):
            q = top[0]
            out.append(Limit("modality", c.modal, q.modal, f"claim says {quoted(c.modal)} ({c.modality}); "
                                               f"quote says {quoted(q.modal)} ({q.modality})"))
    return out + _required_thing(claim, quote)


# verbs that state their object as necessary ("the recipe requires a pinch of chilli")
_NEEDING = frozenset("require need".split())


def _required_thing(claim: Reading, quote: Reading) -> list[Limit]:
    """A claim that something requires a thing (`requires a pinch of chilli`) where the quote's clause
    on that thing makes it optional (`You can add a pinch of chilli`)."""
    out = []
    for c in claim.clauses:
        verb = claim.tokens[c.predicate]
        if verb.lemma not in _NEEDING or c.modality or c.negation or not c.objects:
            continue
        things = content(claim, [k for o in c.objects for k in claim.subtree(o)])
        for q in quote.clauses:
            if q.modality != "optional" or q.negation or not q.objects:
                continue
            if things and things <= content(quote, [k for o in q.objects for k in quote.subtree(o)]):
                mine = claim.shown([c.predicate])
                out.append(Limit("modality", mine, q.modal, f"claim says {quoted(mine)} (required); "
                                                            f"quote says {quoted(q.modal)} (optional)"))
                break
    return out


_SPECIFIC_DETS = frozenset("this that these those my your his her its our their".split())
_PERSONS = frozenset("i you we he she they".split())


def _specific(r: Reading, x: Restriction) -> bool:
    """A restriction that picks out one thing rather than a class: after a demonstrative or a
    possessive ("your plan"), or a relative clause about a person's choice ("the plan you choose")."""
    if any(k.dep in ("det", "poss") and k.lemma in _SPECIFIC_DETS for k in r.children(x.target)):
        return True
    return x.kind == "relative" and any(r.tokens[i].dep in ("nsubj", "nsubjpass") and r.tokens[i].lemma in _PERSONS
                                        for i in x.tokens)


_BOUNDS = frozenset("most least up maximum minimum only exceed".split())


def _bounded(r: Reading, c: Clause) -> bool:
    """Whether the clause states a bound ("at most", "up to", "no more than", "only"): with `can` it is a limit."""
    words = [r.tokens[i].lemma for i in c.tokens]
    return any(w in _BOUNDS for w in words) or any(a == "no" and b in ("more", "less", "fewer")
                                                     for a, b in zip(words, words[1:]))


def _universal(claim: Reading, quote: Reading) -> list[Limit]:
    out = []
    claim_words = content(claim, range(len(claim.tokens)))
    restricted_in_claim = {x.target for x in claim.restrictions}
    for u in claim.quantifiers:
        if not u.universal or u.noun in restricted_in_claim:
            continue
        noun = claim.tokens[u.noun]
        if any(k.dep in ("amod", "compound") and k.tag in ("VBG", "VBN") for k in claim.children(u.noun)):
            continue  # "every consuming package": the claim narrows the noun itself
        if noun.dep not in ("nsubj", "nsubjpass", "dobj", "pobj", "attr"):
            continue
        for x in quote.restrictions:
            target = quote.tokens[x.target]
            # the noun's own restriction; a condition on the whole clause ("if no file is given") is too often
            # one the claim's other words state otherwise (measured: bench/reader_adoption.py)
            if target.lemma != noun.lemma or _specific(quote, x):
                continue
            words = content(quote, x.tokens) - {noun.lemma}
            if not words or words <= claim_words:
                continue
            said = claim.shown([u.word, u.noun])
            out.append(Limit("universal", said, x.shown, f"claim says {quoted(said)} without restriction; the quote's sentence "
                                            f"restricts it: {quoted(x.shown)}"))
            break
        else:
            some = _some_of(claim, u, quote)
            if some is not None:
                out.append(some)
    return out


# the quantifiers that say "not every one": `most rooms` states nothing of all rooms
_PART = frozenset("most some many several few".split())


def _some_of(claim: Reading, u: Quantifier, quote: Reading) -> Limit | None:
    """`All rooms have a balcony` against `Most rooms have a balcony`: the quote puts a quantifier of part
    on the noun the claim says every one of, and none of all on it."""
    word, noun = claim.tokens[u.word], claim.tokens[u.noun]
    if word.lemma not in ("all", "every", "each"):
        return None
    if any(c.negation and u.noun in c.tokens for c in claim.clauses) or any(
            k.dep == "neg" for k in claim.children(u.word)) or (u.word > 0 and claim.tokens[u.word - 1].lemma == "not"):
        return None  # "not all rooms": a part already
    same = [q for q in quote.quantifiers if quote.tokens[q.noun].lemma == noun.lemma]
    part = [q for q in same if not q.universal and quote.tokens[q.word].lemma in _PART]
    if not part or any(q.universal for q in same):
        return None
    said, theirs = claim.shown([u.word, u.noun]), quote.shown([part[0].word, part[0].noun])
    return Limit("universal", said, theirs, f"claim says {quoted(said)}; the quote says only {quoted(theirs)}")
