"""`relation-mismatch` (SPEC section 4): one member of a closed set put in the
place of another.

Some English words name one of a few things that exclude each other: the days
of the week, the seasons, the parts of the day, the meals, the
colours, the sexes, the sides, the common animals. Where the claim's clause and
the quote's clause on the same predicate hold such words in the same place (the
same dependency to a head of the same lemma: `toxic to dogs` and `toxic to
cats`, `Sunday will be the warmer day` and `Saturday will be the warmer day`),
and each side names only its own member there, the claim says of one what the
quote says of another. A word the quote's clause also holds (`on Saturday and
Sunday`), or a member the claim itself names too, leaves the pair alone; so do
words of one meaning (`autumn`, `fall`).
"""

from __future__ import annotations

from ...reading.model import Reading, Token
from .relation import RelationMismatch
from .words import aligned, best, quoted

_SETS = (
    "monday tuesday wednesday thursday friday saturday sunday",
    "spring summer autumn winter",
    "morning afternoon evening",
    "breakfast lunch dinner",
    "red orange yellow green blue purple pink brown black white grey",
    "male female",
    "man woman",
    "boy girl",
    "left right",
    "cat dog horse rabbit cow sheep pig goat chicken",
)
_SAME = {"fall": "autumn", "gray": "grey", "men": "man", "women": "woman", "boys": "boy", "girls": "girl"}
_MEMBER: dict[str, int] = {w: n for n, words in enumerate(_SETS) for w in words.split()}
# words of a set that are also common words of another kind, read only with the part of speech of a member
_AMBIGUOUS = frozenset("spring fall right left orange chicken".split())


def _member(t: Token) -> tuple[str, int] | None:
    """The word's member and its set, or None."""
    word = t.lemma.casefold()
    word = _SAME.get(word, word)
    if word not in _MEMBER:
        return None
    if word in _AMBIGUOUS and t.pos not in ("NOUN", "PROPN"):
        return None  # "may" the modal, "right" of "the right to", "left" the verb
    if t.pos not in ("NOUN", "PROPN", "ADJ"):
        return None
    return word, _MEMBER[word]


def _place(r: Reading, t: Token) -> tuple[str, str]:
    return t.dep, r.tokens[t.head].lemma.casefold()


def member_swapped(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    mine_all = {m[0] for t in claim.tokens if (m := _member(t))}
    for c in claim.clauses:
        members = [(t, m) for i in c.tokens if (m := _member(t := claim.tokens[i])) is not None]
        if not members:
            continue
        for q in best(aligned(claim, c, quote)):
            theirs = [(u, m) for i in q.tokens if (m := _member(u := quote.tokens[i])) is not None]
            held = {m[0] for _, m in theirs}
            for t, (word, kind) in members:
                if word in held:
                    continue
                rivals = [u for u, (w, k) in theirs if k == kind and w not in mine_all
                          and _place(quote, u) == _place(claim, t)]
                if len(rivals) == 1:
                    u = rivals[0]
                    a, b = claim.shown([t.i]), quote.shown([u.i])
                    return [RelationMismatch(a, b, f"claim says {quoted(a)} where the quote says {quoted(b)}")]
    return []
