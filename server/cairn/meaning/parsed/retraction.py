"""A retraction right after the quote (`context-negates`): the rest of the
quote's sentence after a semicolon, or the next sentence, is a short clause
whose subject points back (`this`, `that`, `it`, `which`) and which denies it:
`… ; this is not the case`, `This is false.`, `That turned out to be a myth.`
A clause that limits the denial (`this is not the case for …`) is not one."""

from __future__ import annotations

from ...reading.model import Reading

_POINTING = frozenset("this that it which these those such".split())
_DENIED_NOUNS = frozenset("case truth".split())  # "not the case", "not the truth" (with a negation)
_DENIED_ADJ = frozenset("true correct right accurate so".split())  # with a negation
_FALSE = frozenset("false untrue incorrect wrong myth misconception mistake inaccurate baseless unfounded".split())


def retraction(after: Reading) -> str | None:
    """The retracting clause at the start of `after` (the text after the quote), as written, or None."""
    for c in after.clauses[:2]:
        verb = after.tokens[c.predicate]
        be = after.tokens[verb.head] if verb.dep in ("attr", "acomp") else verb
        if min(c.tokens) > 3 or be.lemma not in ("be", "prove", "turn"):
            continue
        if not any(after.tokens[s].lemma in _POINTING for s in c.subjects):
            continue
        if any(after.tokens[k].dep == "prep" for k in after.kids[verb.i]) or len(c.tokens) > 9:
            continue  # "this is not the case for children": a limit, not a retraction
        denied = (c.negation and verb.lemma in (_DENIED_NOUNS | _DENIED_ADJ)) or \
            (not c.negation and verb.lemma in _FALSE)
        if denied:
            return after.shown([*c.tokens, *c.subjects]).strip(" .;")
    return None
