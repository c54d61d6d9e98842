"""Two rules of what a sentence's parts do, each by how English builds it:

- `only` limits the word it stands on (`Only the goalkeeper may handle the
  ball` limits who; `may handle the ball only within the area` limits where).
  When the claim and its quote each have one `only`, on different words that
  both sides hold, the claim restricts something else than the quote does
  (`context-limits`).
- A condition and what follows from it are not interchangeable: `If A, B` does
  not say `If B, A`. A claim whose condition is the quote's consequence and
  whose consequence is the quote's condition states the converse
  (`relation-mismatch`).
"""

from __future__ import annotations

from ...reading.model import Reading
from .limits import Limit
from .relation import RelationMismatch
from .words import clause_at, content, quoted

_AMOUNTS = frozenset("MONEY PERCENT QUANTITY CARDINAL DATE TIME".split())
_CONDITION_WORDS = frozenset("if when whenever once".split())


def _only(r: Reading) -> int | None:
    """The word the one `only` of a text stands on (None with no `only`, or more than one)."""
    onlys = [t for t in r.tokens if t.lemma == "only" and t.dep == "advmod"]
    if len(onlys) != 1 or onlys[0].head == onlys[0].i:
        return None
    return onlys[0].head


def only_focus(claim: Reading, quote: Reading) -> list[Limit]:
    mine, theirs = _only(claim), _only(quote)
    if mine is None or theirs is None:
        return []
    a, b = claim.tokens[mine], quote.tokens[theirs]
    if a.lemma == b.lemma or "NUM" in (a.pos, b.pos) or a.ent in _AMOUNTS or b.ent in _AMOUNTS:
        return []  # `only` on an amount ("only $480", "only two weeks") is a bound, which other rules read
    if b.lemma not in {t.lemma for t in claim.tokens} or a.lemma not in {t.lemma for t in quote.tokens}:
        return []  # the two sides do not hold the same words: another rule reads them
    if a.lemma in {quote.tokens[i].lemma for i in quote.subtree(theirs)} or \
            b.lemma in {claim.tokens[i].lemma for i in claim.subtree(mine)}:
        return []  # one side's `only` stands on a phrase holding the other's word
    said = _phrase(claim, mine)
    shown = _phrase(quote, theirs)
    return [Limit("only", f"only {said}", f"only {shown}",
                  f"claim puts \u201conly\u201d on {quoted(said)}; the quote puts it on {quoted(shown)}")]


def _phrase(r: Reading, i: int) -> str:
    """The phrase `only` stands on, without the `only` (a verb alone: its clause is the whole sentence)."""
    if r.tokens[i].pos in ("VERB", "AUX"):
        return r.tokens[i].text
    return r.shown([k for k in r.subtree(i) if r.tokens[k].lemma != "only"])


def _condition(r: Reading) -> tuple[list[int], list[int]] | None:
    """(the condition's tokens, the rest's tokens) of a text with one condition clause (`If A, B`)."""
    found = []
    for t in r.tokens:
        if t.dep != "advcl":
            continue
        marks = [k for k in r.children(t.i) if k.dep in ("mark", "advmod") and k.lemma in _CONDITION_WORDS]
        if marks:
            found.append(t.i)
    if len(found) != 1:
        return None
    cond = r.subtree(found[0])
    rest = [i for i in range(len(r.tokens)) if i not in set(cond)]
    return cond, rest


def converse(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    mine, theirs = _condition(claim), _condition(quote)
    if mine is None or theirs is None:
        return []
    c_if, c_then = (content(claim, x) for x in mine)
    q_if, q_then = (content(quote, x) for x in theirs)
    straight = len(c_if & q_if) + len(c_then & q_then)
    crossed = len(c_if & q_then) + len(c_then & q_if)
    # each part of the claim holds at least two of the words of the quote's other part
    if crossed <= straight or len(c_if & q_then) < 2 or len(c_then & q_if) < 2:
        return []
    said = claim.shown(mine[0]).strip(" ,")
    shown = quote.shown(theirs[0]).strip(" ,")
    return [RelationMismatch(said, shown, f"claim makes {quoted(said)} the condition; the quote's condition is "
                                          f"{quoted(shown)}, and the claim states its converse")]


# words by which a sentence says "and nothing else" or sets a requirement a thing must meet, in place of `only`
_EXCLUSIVE = frozenset("only solely exclusively exclusive just alone sole except unless restrict restricted limit "
                       "limited reserve reserved confine confined strictly purely merely besides apart other "
                       "must need require required if provided providing whenever".split())
# a denial in the quote may say what is left out (`Non-members may not use the pool` for `Only members …`)
_DENIALS = frozenset("not no never nobody none nothing neither nor cannot".split())


_DETERMINED = frozenset("the a an its their his her our your my this that".split())


def _only_on(r: Reading) -> int | None:
    """The word a text's one `only` stands on, where it limits (not `not only`, `if only`, `only $480`)."""
    at = _only(r)
    if at is None:
        return None
    t = r.tokens[at]
    only = next(k for k in r.children(at) if k.lemma == "only" and k.dep == "advmod")
    before = r.tokens[only.i - 1].lemma if only.i else ""
    if before in _DETERMINED or only.i and r.tokens[only.i - 1].tag in ("POS", "PRP$", "DT"):
        return None  # `the only single to reach number one`, `the band's only single`: "sole", an adjective
    if before in ("not", "if") or "NUM" == t.pos or t.ent in _AMOUNTS or only.ent in _AMOUNTS or any(
            r.tokens[k].pos == "NUM" or r.tokens[k].ent in _AMOUNTS for k in r.kids[at] if k < only.i + 3):
        # `not only` adds, `if only` wishes; `only two weeks`, `only a year after its release` stress an amount
        return None
    return at


def only_one_side(claim: Reading, quote: Reading) -> list[Limit]:
    """`only` on one side alone. The claim's `Only games of more than 40 moves are submitted` says no other
    game is, which a quote without `only` (or another word that excludes or requires) does not say. The quote's
    `can be seen …, but only from sites well away from light pollution` limits where; a claim that names no word
    of that phrase states it without the limit."""
    mine, theirs = _only_on(claim), _only_on(quote)
    if mine is not None and theirs is None and _only(quote) is None:
        if not {t.lemma for t in quote.tokens} & (_EXCLUSIVE | _DENIALS) and not any(t.dep == "neg" for t in quote.tokens):
            said = _phrase(claim, mine)
            return [Limit("only-added", f"only {said}", "",
                          f"claim says {quoted('only ' + said)}; the quote's sentence does not limit it so")]
    if theirs is not None and mine is None and _only(claim) is None:
        if quote.tokens[theirs].pos in ("VERB", "AUX"):
            return []  # on the whole clause: the claim may say any part of it
        own = clause_at(quote, theirs)
        if own is None or own.lemma not in {c.lemma for c in claim.clauses}:
            return []  # `only` in another clause of the quote's sentence than the one the claim states
        words = content(quote, [k for k in quote.subtree(theirs) if quote.tokens[k].lemma != "only"])
        if words and not words & content(claim, range(len(claim.tokens))) \
                and not {t.lemma for t in claim.tokens} & _EXCLUSIVE:
            shown = _phrase(quote, theirs)
            return [Limit("only-dropped", "", f"only {shown}",
                          f"the quote's sentence limits it: \u201conly {shown}\u201d")]
    return []
