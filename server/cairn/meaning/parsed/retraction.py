"""A retraction of what a quote states (`context-negates`): a short clause
whose subject points back (`this`, `that`, `it`, `which`, or a word of
saying under `the`/`that`: `that announcement`, `the claim`) and which
denies it: `… ; this is not the case`, `This is false.`, `That turned out
to be a myth.`, `It does not.`, `that announcement has since been
withdrawn`, `but officials denied it` (an active verb of taking back whose
object points back). It is read right after the quote (the rest of its sentence
after a semicolon, or the next sentence) and, where the quote itself goes on
past what the claim states, inside the quote. A clause that limits the
denial (`this is not the case for …`) is not one."""

from __future__ import annotations

from collections.abc import Callable

from ...reading.model import Clause, Reading
from ..sentences import sentence_spans
from .words import content

_POINTING = frozenset("this that it which these those such".split())
# words of saying that "the"/"that" points back with ("that announcement has been withdrawn")
_SAYING = frozenset("claim statement announcement report plan decision story idea belief assertion advice "
                    "guidance information suggestion figure assumption rumour rumor notice".split())
_DENIED_NOUNS = frozenset("case truth".split())  # "not the case", "not the truth" (with a negation)
_DENIED_ADJ = frozenset("true correct right accurate so".split())  # with a negation
_FALSE = frozenset("false untrue incorrect wrong myth misconception mistake error inaccurate baseless unfounded".split())
# verbs that take back what was said, in the passive ("this was withdrawn", "the claim has been retracted")
_WITHDRAWN = frozenset("withdraw retract reverse overturn disprove debunk refute deny reject correct revoke "
                       "rescind cancel scrap abandon".split())


def reports_retraction(r: Reading) -> bool:
    """A text that itself says something was denied, withdrawn or false ("The company denied that …")."""
    return any(t.lemma in _WITHDRAWN or t.lemma in _FALSE for t in r.tokens)


def _points_at(r: Reading, i: int) -> bool:
    """Token i points back to what was just said: `this`, `it`, or a word of saying under `the`/`that`."""
    t = r.tokens[i]
    if t.lemma in _POINTING:
        return True
    return t.lemma in _SAYING and any(k.dep == "det" and k.lemma in ("the", "this", "that", "these", "those", "such")
                                      for k in r.children(i))


def _points_back(r: Reading, c: Clause) -> bool:
    return any(_points_at(r, s) for s in c.subjects)


def retraction(after: Reading) -> str | None:
    """The retracting clause at the start of `after` (the text after the quote), as written, or None."""
    for c in after.clauses[:2]:
        verb = after.tokens[c.predicate]
        be = after.tokens[verb.head] if verb.dep in ("attr", "acomp") else verb
        # "officials denied it", "the council later withdrew the plan": an active verb taking back
        # what its object points back to
        active = (not c.negation and verb.lemma in _WITHDRAWN and verb.pos == "VERB"
                  and not any(k.dep == "auxpass" for k in after.children(verb.i))
                  and any(_points_at(after, o) for o in c.objects))
        if min(c.tokens) > 3 or not (active or _points_back(after, c)):
            continue
        if any(after.tokens[k].dep == "prep" for k in after.kids[verb.i]) or len(c.tokens) > 9:
            continue  # "this is not the case for children": a limit, not a retraction
        kids = after.children(verb.i)
        if be.lemma in ("be", "prove", "turn"):
            denied = (c.negation and verb.lemma in (_DENIED_NOUNS | _DENIED_ADJ)) or \
                (not c.negation and verb.lemma in _FALSE)
            # "It is not." / "It does not.": a bare denial of what was just said
            bare = bool(c.negation) and verb is be and not c.objects and len(c.tokens) <= 5
            denied = denied or bare
        elif verb.lemma == "do":
            denied = bool(c.negation) and not c.objects and len(c.tokens) <= 5
        else:
            denied = active or (not c.negation and verb.lemma in _WITHDRAWN and any(k.dep == "auxpass" for k in kids))
        if denied:
            return after.shown([*c.tokens, *c.subjects]).strip(" .;,")
    return None


def split_points(region: str) -> list[int]:
    """Where a quote may go on past what a claim states: after a semicolon, before
    `but` after a comma, and at each sentence start after the first."""
    out = {i + 1 for i, ch in enumerate(region) if ch == ";"}
    low = region.lower()
    k = low.find(", but ")
    while k >= 0:
        out.add(k + 1)
        k = low.find(", but ", k + 1)
    out |= {a for a, _ in sentence_spans(region)[1:]}
    return sorted(p for p in out if 0 < p < len(region) and region[p:].strip())


def within(claim: Reading, region: str, read: Callable[[str], Reading | None]) -> tuple[str, str] | None:
    """A retraction inside a quote of what the claim states: (the quote up to and with
    the retraction, the retraction), or None. The claim's content words must lie
    mostly in the quote before it, and more there than after it."""
    mine = content(claim, range(len(claim.tokens)))
    if len(mine) < 2:
        return None
    for p in split_points(region):
        rest = read(region[p:].lstrip())
        if rest is None or (why := retraction(rest)) is None:
            continue
        before = read(region[:p])
        if before is None:
            continue
        ahead = content(before, range(len(before.tokens)))
        cut = region.find(why, p)
        tail = read(region[cut + len(why):]) if cut >= 0 and region[cut + len(why):].strip() else None
        behind = content(tail, range(len(tail.tokens))) if tail is not None else set()
        if len(mine & ahead) * 2 >= len(mine) and len(mine & ahead) > len(mine & behind):
            end = cut + len(why) if cut >= 0 else len(region)
            return " ".join(region[:end].split()), why
    return None
