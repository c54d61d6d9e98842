"""`context-limits` (SPEC section 4), two more ways a claim states more than its
quote's sentence does, each a rule of how English sets the reach of a clause:

- A dropped limit: a claim stated as a general rule (present tense, a modal,
  or an instruction) where the quote's clause on the same predicate holds
  only under a condition (`if you buy the add-on`, `unless …`) or within a
  frame set before its subject (`On Sundays,`, `Between April and June,`,
  `Before 2019,`, `Until March 2023,`, `In the 1920s`), and the claim says
  none of that limit's words. A sentence-initial adverbial of time, place or
  condition sets the domain the whole clause holds in; a claim in the past
  tense reports an event and is left alone (a summary may drop when it
  happened).
- An exception applied: the claim says of a thing what the quote's sentence
  says of everything except it (`except medicines`), with the same polarity.
- A hedge stated as certain: the quote's clause says it may be so (`may`,
  `might`, `probably`, `possibly`, `perhaps`), not in a speaker's own clause
  (`we might`), and the claim states it with no modal or hedge of its own.
- An estimate, a chance or a report stated as known: `estimated` on the
  thing the quote's clause states, `a 40% chance of`, `is thought to`, `is
  attributed to`, and the claim names the thing with no hedge of its own.
"""

from __future__ import annotations

from ...reading.model import Clause, Reading, Token
from .limits import Limit
from .words import aligned, best, clause_at, content, quoted, verb_of

# the prepositions of a frame before the subject: time, place, condition (not `since`: it says when a
# state began, which holds now) ("On Sundays, …", "Until 2023, …")
_FRAME_PREPS = frozenset("on in between before until till during from after within for under at by "
                         "outside throughout".split())
# discourse adverbials that begin a sentence without limiting it ("In addition, …", "For example, …")
_DISCOURSE = frozenset("addition general fact example instance contrast particular short sum summary practice "
                       "turn hand course meantime meanwhile end conclusion brief effect reality total "
                       "comparison other words way respect regard light view sense part first".split())
# a claim that says it holds as a rule with exceptions states no unrestricted rule
_DEFAULTS = frozenset("normally usually generally typically mostly often sometimes commonly ordinarily "
                      "mainly largely".split())
# the hedges of written statements; "could", "maybe" and a speaker's own "we might" are as often a
# suggestion in conversation (measured: bench/reader_adoption.py, meeting and chat transcripts)
_HEDGE_MODALS = frozenset("may might".split())
_HEDGE_ADVERBS = frozenset("probably possibly perhaps reportedly allegedly supposedly apparently presumably".split())
_HEDGE_WORDS = _HEDGE_MODALS | _HEDGE_ADVERBS | frozenset(
    "can could would should must shall will need maybe likely".split())
_SPEAKERS = frozenset("i we you".split())


def dropped(claim: Reading, quote: Reading) -> list[Limit]:
    return _limits_dropped(claim, quote) + _hedges(claim, quote) + _excepted(claim, quote) + _estimates(claim, quote)


# words that make a figure or a thing one that is expected, not known: on the noun (`your estimated annual
# cost`), or a noun of chance over it (`a 40% chance of thunderstorms`)
_ESTIMATED = frozenset("estimated projected expected forecast predicted anticipated provisional approximate "
                       "probable possible likely".split())
# (not `risk`: "the risk of injury" names a hazard, not how likely a thing is)
_CHANCE = frozenset("chance probability likelihood possibility odds".split())
# verbs of report that, in the passive with an infinitive, state what others hold (`is thought to have sunk`),
# and `attributed to`, which names whom a work is held to be by
_HEARSAY = frozenset("think believe say report allege rumour rumor understand suppose presume attribute".split())


def _estimates(claim: Reading, quote: Reading) -> list[Limit]:
    """A claim that states as known what its quote's sentence gives as an estimate, a chance or a report:
    `Your annual cost will be £1,240` against `Your estimated annual cost is £1,240`, `Thunderstorms will
    break out` against `a 40% chance of thunderstorms`, `was painted by Frans Hals` against `is attributed
    to the workshop of Frans Hals`. The claim must name the thing and carry no hedge of its own."""
    nouns = {t.lemma for t in claim.tokens if t.pos in ("NOUN", "PROPN") and not _hedged(claim, t.i)}
    for t in quote.tokens:
        head = quote.tokens[t.head]
        # the estimated thing is what the clause states (its subject or complement), not a figure's noun
        # ("an estimated 100,000 participants": the figure's hedge, which the number rules read)
        if t.dep == "amod" and t.text.casefold() in _ESTIMATED and head.pos == "NOUN" and head.lemma in nouns \
                and head.dep in ("nsubj", "nsubjpass", "attr") and not any(
                    k.dep == "nummod" for k in quote.children(head.i)):
            shown = quote.shown([t.i, head.i])
        elif t.lemma in _CHANCE and t.pos == "NOUN" and any(
                k.lemma == "of" and any(o.dep == "pobj" and o.lemma in nouns for o in quote.children(k.i))
                for k in quote.children(t.i)):
            shown = quote.shown(quote.subtree(t.i)[:_CHANCE_REACH])
        elif t.lemma in _HEARSAY and t.tag == "VBN" and any(k.dep == "auxpass" for k in quote.children(t.i)) and \
                any(k.dep == "nsubjpass" and k.lemma in nouns for k in quote.children(t.i)) and \
                any(k.dep == "xcomp" or (k.dep == "prep" and k.lemma == "to") for k in quote.children(t.i)):
            shown = quote.shown([k.i for k in quote.children(t.i) if k.dep == "auxpass"] + [t.i])
        else:
            continue
        said = claim.text.strip(" .;,")
        return [Limit("estimate", said, shown, f"claim states {quoted(said)} as known; the quote's sentence says "
                                                f"{quoted(shown)}")]
    return []


# `will` and `must` state certainty; a figure's `about` is its precision, which the number rule reads
_CLAIM_HEDGES = _ESTIMATED | _CHANCE | _HEARSAY | _HEDGE_MODALS | _HEDGE_ADVERBS | _DEFAULTS | frozenset(
    "estimate could would should maybe".split())


def _hedged(r: Reading, i: int) -> bool:
    """Whether the claim hedges what it says of token i: a hedge on the noun itself, on the verb of the
    clause holding it or in the words that verb governs directly (`will probably break out`)."""
    own = [c for c in r.clauses if i in c.tokens]
    ids = {i, *(k.i for k in r.children(i))}
    for c in own:
        v = verb_of(r, c)
        ids |= {v.i, c.predicate, *(k.i for k in r.children(v.i)), *(k.i for k in r.children(c.predicate))}
    if not own:
        ids = set(range(len(r.tokens)))
    return any(r.tokens[k].lemma in _CLAIM_HEDGES or r.tokens[k].text.casefold() in _CLAIM_HEDGES for k in ids)


# how much of a noun of chance's phrase a message shows (`a 40% chance of thunderstorms`)
_CHANCE_REACH = 6


_EXCEPTING = frozenset("except excluding besides apart".split())


def _heads(r: Reading, i: int) -> list[int]:
    """The nouns an exception names: its object, that object's own `to`/`of` objects, and their conjuncts."""
    out: list[int] = []
    todo = [g for g in r.kids[i] if r.tokens[g].dep in ("pobj", "prep")]
    while todo:
        g = todo.pop()
        t = r.tokens[g]
        if t.dep == "prep":
            todo += [k for k in r.kids[g] if r.tokens[k].dep == "pobj"]
            continue
        out.append(g)
        todo += [k for k in r.kids[g] if r.tokens[k].dep in ("conj", "prep")]
    return out


def _excepted(claim: Reading, quote: Reading) -> list[Limit]:
    """The claim says of a thing what the quote's sentence says of everything but it: "The soy sauce is
    gluten-free" from "All the ingredients are gluten-free except the soy sauce"."""
    if any(t.lemma in _EXCEPTING for t in claim.tokens):
        return []
    mine = {t.lemma for t in claim.tokens if t.pos in ("NOUN", "PROPN")}
    claim_negated = any(c.negation for c in claim.clauses)
    for t in quote.tokens:
        if t.lemma not in ("except", "excluding") or t.dep != "prep":
            continue
        ids = quote.subtree(t.i)
        rest = content(quote, [i for i in range(len(quote.tokens)) if i not in set(ids)])
        named = [g for g in _heads(quote, t.i) if quote.tokens[g].lemma not in rest]
        hit = [g for g in named if quote.tokens[g].lemma in mine]
        if not hit:
            continue
        owner = clause_at(quote, t.head)
        if owner is None or not any(c.lemma == owner.lemma for c in claim.clauses):
            continue  # the claim says something else of the thing ("contains gluten"), which other rules read
        if bool(owner.negation) != claim_negated:
            continue  # the claim says the opposite of the rule for the excepted thing: what the quote implies
        thing = quote.tokens[hit[0]].text
        said = claim.text.strip(" .;,")
        shown = quote.shown(ids)
        return [Limit("exception", said, shown,
                      f"claim says {quoted(said)} of {quoted(thing)}; the quote's sentence excepts it: "
                      f"{quoted(shown)}")]
    return []


def _general(r: Reading, c: Clause) -> bool:
    """Whether a clause states a general rule: present tense, a modal, or an instruction."""
    v = verb_of(r, c)
    auxes = [k for k in r.children(v.i) if k.dep in ("aux", "auxpass")]
    if any(k.tag == "MD" for k in auxes):
        return True
    if v.tag == "VBD" or any(k.tag == "VBD" for k in auxes):
        return False
    if v.tag in ("VBZ", "VBP") or any(k.tag in ("VBZ", "VBP") for k in auxes):
        return True
    return v.tag == "VB" and v.dep == "ROOT" and not c.subjects  # "Dissolve the yeast …"


def _own_limit(r: Reading, c: Clause) -> bool:
    """Whether a claim's clause carries a condition or a frame of its own (then it is left alone)."""
    v = verb_of(r, c)
    # a clause of its own on the verb ("returns 1 when a badge was read") states when the claim holds
    return any(x.target == v.i and x.kind == "condition" for x in r.restrictions) or bool(_frames(r, c)) \
        or any(k.dep == "advcl" for k in r.children(v.i))


def _frames(r: Reading, c: Clause) -> list[list[int]]:
    """The prepositional frames set before the clause's subject (or its verb, with none)."""
    v = verb_of(r, c)
    first = min([*c.subjects, v.i])
    out = []
    for k in r.children(v.i):
        if k.dep != "prep" or k.lemma not in _FRAME_PREPS or k.i >= first:
            continue
        ids = r.subtree(k.i)
        words = content(r, ids)
        if not words or words & _DISCOURSE or _about_the_text(r, k) or _means(r, k):
            continue
        after = max(ids) + 1
        comma = after < len(r.tokens) and r.tokens[after].text == ","
        dated = any(r.tokens[i].ent in ("DATE", "TIME") or r.tokens[i].pos == "NUM" for i in ids)
        if comma or dated:
            out.append(ids)
    return out


# a frame that names the text or a part of it ("In this paper", "On slide 38") places the statement in the
# document; it does not limit where the statement holds
_TEXT_PARTS = frozenset("paper article work study report section chapter slide page figure table email mail "
                        "letter post thesis note presentation talk review appendix document call meeting "
                        "episode video message memo survey analysis".split())


def _about_the_text(r: Reading, prep: Token) -> bool:
    return any(o.dep == "pobj" and o.lemma in _TEXT_PARTS for o in r.children(prep.i))


def _means(r: Reading, prep: Token) -> bool:
    """`By investing in …`: a `by` with a gerund names a means, not a limit."""
    return prep.lemma == "by" and any(o.tag == "VBG" for o in r.children(prep.i))


def _limits_dropped(claim: Reading, quote: Reading) -> list[Limit]:
    mine = content(claim, range(len(claim.tokens)))
    for c in claim.clauses:
        if not _general(claim, c) or _own_limit(claim, c) or \
                any(claim.tokens[i].lemma in _DEFAULTS for i in c.tokens):
            continue
        if verb_of(claim, c).dep == "advcl":
            continue  # "while their king is in check": the claim's own condition, not a rule it states
        found: list[list[int]] = []
        top = best(aligned(claim, c, quote))
        for q in top:
            v = verb_of(quote, q)
            # a condition after an alternative is the alternative's ("every four weeks, or weekly if …")
            limits = [list(x.tokens) for x in quote.restrictions if x.target == v.i and x.kind == "condition"
                      and not any(quote.tokens[k].lemma == "or" for k in range(v.i + 1, min(x.tokens)))
                      and not _consent(quote, list(x.tokens))]
            limits += _frames(quote, q)
            unstated = [ids for ids in limits if not _stated(quote, ids, mine)]
            if not unstated:
                break  # the quote also states it without a limit the claim leaves out
            found.append(unstated[0])
        else:
            if found:
                said = claim.shown(list(c.tokens)).strip(" .;,")
                limit = quote.shown(found[0]).strip(" .;,")
                return [Limit("condition", said, limit, f"claim says {quoted(said)} without restriction; the "
                                                        f"quote's sentence restricts it: {quoted(limit)}")]
    return []


def _stated(r: Reading, ids: list[int], mine: set[str]) -> bool:
    """Whether the claim states a limit: most of its words, or, for a limit of time, its time ("for two
    weeks" states "For a limited period of only two weeks")."""
    words = content(r, ids)
    if not words or len(words & mine) * 2 >= len(words):
        return True
    timed = {r.tokens[i].lemma for i in ids if r.tokens[i].ent in ("DATE", "TIME") and r.tokens[i].pos in ("NUM", "NOUN")}
    return bool(timed) and timed <= mine


# a condition that asks the hearer's leave limits nothing: "if that works for you", "if you like"
_CONSENT_OF_THAT = frozenset("work suit okay ok fine alright convenient good".split())
_CONSENT_OF_YOU = frozenset("like want wish prefer".split())
_THE_THING = frozenset("it them this that".split())  # what is proposed itself ("if you like it hot")


def _consent(r: Reading, ids: list[int]) -> bool:
    """Whether a condition is a request for consent rather than a limit: its subject the proposal itself
    (`that`, `this`, `it`) with a verb of suiting, or `you` wanting with no object."""
    for i in ids:
        t = r.tokens[i]
        if t.dep not in ("nsubj", "nsubjpass") or t.head not in ids:
            continue
        verb = r.tokens[t.head]
        if t.lemma in ("that", "this", "it") and (verb.lemma in _CONSENT_OF_THAT or any(
                k.lemma in _CONSENT_OF_THAT for k in r.children(verb.i) if k.dep in ("acomp", "attr"))):
            return True
        if t.lemma == "you" and verb.lemma in _CONSENT_OF_YOU and not any(
                k.dep in ("dobj", "ccomp", "xcomp") and k.lemma not in _THE_THING for k in r.children(verb.i)):
            return True  # "if you like", "if you like it hot": a taste, which limits nothing
    return False


def _hedge_of(r: Reading, c: Clause) -> list[int]:
    """The hedging words on a clause's verb ("may", "probably"), as token indices; none for a speaker's
    own clause ("we might", "you may")."""
    v = verb_of(r, c)
    if any(r.tokens[s].lemma in _SPEAKERS for s in c.subjects):
        return []
    return [k.i for k in r.children(v.i)
            if (k.tag == "MD" and k.lemma in _HEDGE_MODALS) or (k.dep == "advmod" and k.lemma in _HEDGE_ADVERBS)]


def _hedges(claim: Reading, quote: Reading) -> list[Limit]:
    for c in claim.clauses:
        v = verb_of(claim, c)
        if c.modality or any(k.lemma in _HEDGE_WORDS for k in claim.children(v.i)):
            continue
        top = best(aligned(claim, c, quote))
        if not top:
            continue
        hedged = [(_hedge_of(quote, q), q) for q in top]
        if all(h for h, _ in hedged):
            words, q = hedged[0]
            shown = quote.shown([*words, verb_of(quote, q).i])
            subject = [k for s in c.subjects for k in claim.subtree(s)]
            said = claim.shown([*subject, v.i, c.predicate])
            return [Limit("hedge", said, shown, f"claim states {quoted(said)} as certain; the quote says only "
                                                f"{quoted(shown)}")]
    return []
