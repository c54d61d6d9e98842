"""`relation-mismatch` (SPEC section 4): the act given to another doer.

Who does a thing is the subject of an active verb (`the signaller has given
the driver authority`) or the `by` phrase of a passive one (`approved by the
head of department`). Where the claim's clause and the quote's clause on the
same predicate share at least two more words, and each names its doer with a
noun for a person or a body that acts (an agent noun, `manager`,
`signaller`, `librarian`, or an office, `head`, `committee`), two doers that
share no word, and neither side naming the other's doer anywhere, say that
another does it: `approved by your line manager`
against `approved by the head of department`. Names and pronouns are left to
the rules that read them (a name is the `names` rule's; `he` may be anyone).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ...reading.model import Clause, Reading, Token
from .relation import RelationMismatch
from .words import content, quoted, verb_of


def _doer(r: Reading, c: Clause) -> int | None:
    """The head of the clause's doer (see _doer_of)."""
    return _doer_of(r, verb_of(r, c), c.tokens)


def _doer_of(r: Reading, verb: Token, span: Iterable[int] | None = None) -> int | None:
    """The head of a verb's doer: its `by` agent when passive, else its subject; None without one. `span`:
    the tokens where a passive's `by` phrase may hang (the verb's subtree when not given)."""
    for k in r.children(verb.i):
        if k.dep == "agent":
            return next((g.i for g in r.children(k.i) if g.dep == "pobj"), None)
    if any(k.dep in ("nsubjpass", "auxpass") for k in r.children(verb.i)):
        # a passive: its `by` phrase, wherever the parser hung it (`approved in writing by your manager`)
        return next((g.i for i in (span if span is not None else r.subtree(verb.i)) if r.tokens[i].lemma == "by" and r.tokens[i].dep in ("prep", "agent")
                     for g in r.children(i) if g.dep == "pobj"), None)
    return next((k.i for k in r.children(verb.i) if k.dep == "nsubj"), None)


# nouns that name a person or a body by what it does: agent nouns (`manager`, `signaller`, `librarian`,
# `tenant`, `employee`) and the words for offices and bodies that act
_AGENT_ENDINGS = ("er", "or", "ian", "ist", "ant", "ent", "ee")
_OFFICES = frozenset("head chief chair chairman chairwoman chairperson deputy clerk staff official authority committee "
                     "board council court tribunal panel jury judge doctor nurse parent guardian pupil student child "
                     "landlord landlady owner client guest visitor patient applicant candidate".split())


def _agent(t: Token) -> bool:
    w = t.lemma.casefold()
    return w in _OFFICES or len(w) > 4 and w.endswith(_AGENT_ENDINGS)


def _phrase(r: Reading, i: int) -> list[int]:
    """The noun with its compounds, adjectives and `of` phrase (`the controller of site safety`)."""
    return [k for k in r.subtree(i) if r.tokens[k].dep not in ("relcl", "acl", "punct", "cc", "conj", "appos")]


def _named_person(r: Reading, i: int) -> bool:
    return r.tokens[i].pos == "PROPN" and r.tokens[i].ent == "PERSON"


def _agent_noun(r: Reading, i: int) -> bool:
    t = r.tokens[i]
    return t.pos == "NOUN" and not t.ent and _agent(t)


def _same_act(claim: Reading, quote: Reading, is_doer: Callable[[Reading, int], bool]
              ) -> Iterator[tuple[Clause, int, Clause, int]]:
    """(claim clause, its doer, quote clause, its doer) of each act both name (the same predicate lemma), where
    `is_doer` allows each doer, in the claim's order then the quote's."""
    for c in claim.clauses:
        d = _doer(claim, c)
        if d is None or not is_doer(claim, d):
            continue
        for q in quote.clauses:
            e = _doer(quote, q) if q.lemma == c.lemma else None
            if e is not None and is_doer(quote, e):
                yield c, d, q, e


def _given_to(said: str, other: str, quote: Reading, q: Clause) -> list[RelationMismatch]:
    verb = quote.tokens[q.predicate].text
    return [RelationMismatch(said, other, f"claim says {quoted(said)} does it; the quote says {quoted(other)} ({verb})")]


def name_swapped(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    """`Jonas Pereira pulled a goal back` against `Callum Reid pulled one back …, heading in Jonas Pereira's
    cross`: the claim gives the act to a person the quote names in another part, and the quote's doer of that
    act is another person, whom the claim does not name."""
    mine_all = {t.text.casefold() for t in claim.tokens}
    theirs_all = {t.text.casefold() for t in quote.tokens}
    for _c, d, q, e in _same_act(claim, quote, _named_person):
        a = {claim.tokens[k].text.casefold() for k in _phrase(claim, d) if claim.tokens[k].pos == "PROPN"}
        if not a or not a <= theirs_all:
            continue
        b = {quote.tokens[k].text.casefold() for k in _phrase(quote, e) if quote.tokens[k].pos == "PROPN"}
        if not b or a & b or b & mine_all:
            continue
        return _given_to(claim.shown(_phrase(claim, d)), quote.shown(_phrase(quote, e)), quote, q)
    return []


def actor_swapped(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    mine_all = content(claim, range(len(claim.tokens)))
    theirs_all = content(quote, range(len(quote.tokens)))
    for c, d, q, e in _same_act(claim, quote, _agent_noun):
        a, b = _phrase(claim, d), _phrase(quote, e)
        rest = content(claim, set(claim.subtree(verb_of(claim, c).i)) - set(a)) - {c.lemma}
        # the two clauses say the same of their doers: two more words in common (what is done, to what)
        if len(rest & content(quote, set(quote.subtree(verb_of(quote, q).i)) - set(b))) < 2:
            continue
        wa, wb = content(claim, a), content(quote, b)
        if not wa or not wb or wa & wb or wa & theirs_all or wb & mine_all:
            continue
        return _given_to(claim.shown(a), quote.shown(b), quote, q)
    return name_swapped(claim, quote)


def _doers(r: Reading) -> dict[str, tuple[str, int]]:
    """Each predicate's doer named by a common noun: {predicate lemma: (doer lemma, its token)}."""
    out: dict[str, tuple[str, int]] = {}
    for t in r.tokens:
        if t.pos != "VERB":
            continue
        d = _doer_of(r, t)
        if d is not None and r.tokens[d].pos == "NOUN" and not r.tokens[d].ent:
            out.setdefault(t.lemma, (r.tokens[d].lemma, d))
    return out


def roles_swapped(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    """`the arbiter seals the move …, which the player keeps` against `the player seals their move …, which
    the arbiter keeps`: two doers, each given the other's act."""
    mine, theirs = _doers(claim), _doers(quote)
    if len(mine) < 2 or len(theirs) < 2:
        return []
    for v, (a, i) in mine.items():
        for w, (b, j) in mine.items():
            if v == w or a == b:
                continue
            if theirs.get(v, ("",))[0] == b and theirs.get(w, ("",))[0] == a:
                said = f"{claim.tokens[i].text} … {v}, {claim.tokens[j].text} … {w}"
                shown = f"{quote.tokens[theirs[v][1]].text} … {v}, {quote.tokens[theirs[w][1]].text} … {w}"
                return [RelationMismatch(said, shown, f"claim has the {claim.tokens[i].text} {quoted(v)} and the "
                                                      f"{claim.tokens[j].text} {quoted(w)}; the quote has them the "
                                                      f"other way round")]
    return []
