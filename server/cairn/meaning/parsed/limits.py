"""`context-limits` (SPEC section 4): the claim states without restriction what
its quote's sentence restricts, or changes its modality.

- Modality: a clause the claim states as required (`must`, `shall`, `have
  to`, `is required to`) where the quote's clause on the same predicate and
  words makes it optional (`may`, `can`, `can choose to`, `is allowed to`), or
  the reverse.
- A universal claim (`every`, `all`, `each`, `any` on a noun) where the quote
  narrows that noun (`pupils with 100% attendance`, `users who registered`,
  `only members`, `pupils except …`, or an exception at the clause's end:
  `All segments reported higher profit except …`), and the claim says none
  of the restriction's words; and `most` where the quote says only `some`,
  `several` or `a few` of the same doers.
- `or` in a condition where the quote's condition asks both (`when pain was
  severe or lasted …` against `severe and lasted …`).
- Advice stated as a rule: the claim says `must` (or `are required to`)
  where the quote's clause only advises it (`should`, `We recommend that …`,
  `are advised to`); and a modality on the verb a clause completes counts as
  the clause's (`may be asked to provide` is as optional as the asking).
- A submission stated as found: the claim says a court or a study found or
  held what the quote's sentence only has argued, submitted or suggested, or
  would have held (a dissent).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...reading.model import Clause, Quantifier, Reading, Restriction, Token
from .words import aligned, best, content, quoted, verb_of


@dataclass(frozen=True, slots=True)
class Limit:
    kind: str  # "modality" or "universal"
    claim: str
    quote: str
    message: str


def limits(claim: Reading, quote: Reading) -> list[Limit]:
    return (_modality(claim, quote) + _universal(claim, quote) + _advised(claim, quote) + _argued(claim, quote)
            + _either(claim, quote))


# the words that open a condition: in one, `A and B` asks both, `A or B` asks either
_CONDITION_OPENERS = frozenset("if when where whenever unless provided providing only".split())


def _joined(r: Reading) -> list[tuple[int, str, list[int], int]]:
    """(left word, `and` or `or`, the content words right after, the conjunction) of each coordination as
    written (`severe and lasted`), as token indices."""
    out = []
    toks = r.tokens
    content_pos = ("NOUN", "VERB", "ADJ", "PROPN")
    for k, t in enumerate(toks):
        if t.dep != "cc" or t.lemma not in ("and", "or"):
            continue
        left = next((j for j in range(k - 1, max(-1, k - 4), -1) if toks[j].pos in content_pos), None)
        right = [j for j in range(k + 1, min(len(toks), k + 5)) if toks[j].pos in content_pos]
        if left is not None and right:
            out.append((left, t.lemma, right, k))
    return out


def _in_condition(r: Reading, k: int) -> bool:
    return any(t.lemma.casefold() in _CONDITION_OPENERS for t in r.tokens[max(0, k - 10):k])


def _either(claim: Reading, quote: Reading) -> list[Limit]:
    """`on days when pain was severe or lasted more than four hours` against `only on days when pain was rated
    severe and lasted more than four hours`: in a condition, `or` asks less than `and` (either of two things
    where the quote asks both). Outside a condition `A and B` states more than `A or B`, but free choice
    (`lets users upload photos or videos`), other names (`known as A or simply B`) and means (`by running
    with or passing`) make the two say the same too often to read it (measured: bench/reader_adoption.py);
    and in a condition the claim's `and` where the quote says `or` asks more, which the quote then backs."""
    if any(c.negation for c in claim.clauses) or any(c.negation for c in quote.clauses):
        return []
    theirs = _joined(quote)
    for a, cc, right, k in _joined(claim):
        mine = {claim.tokens[j].lemma.casefold() for j in right}
        for b, cc2, right2, k2 in theirs:
            if cc2 == cc or quote.tokens[b].lemma.casefold() != claim.tokens[a].lemma.casefold() \
                    or not mine & {quote.tokens[j].lemma.casefold() for j in right2}:
                continue
            if cc == "or" and _in_condition(claim, k) and _in_condition(quote, k2):
                said = claim.shown(list(range(a, right[0] + 1)))
                shown = quote.shown(list(range(b, right2[0] + 1)))
                return [Limit("either", said, shown, f"claim says {quoted(said)}; the quote says {quoted(shown)}")]
    return []


# verbs that state their complement as a body's finding (a court's, a study's), and verbs that only put it
# forward; not a writer's own `show` or `demonstrate`, which papers set against what others claim
_FINDING = frozenset("find hold rule conclude decide determine establish".split())
_ARGUING = frozenset("submit argue claim contend allege suggest propose assert maintain urge plead "
                     "hypothesise hypothesize speculate".split())


def _argued(claim: Reading, quote: Reading) -> list[Limit]:
    """A claim that states as found (`The court found that …`, `held`) what its quote's sentence only
    puts forward (`Counsel submitted that …`, `argued`) or would have found (`would have held`, a dissent)."""
    for c in claim.clauses:
        g = _governing(claim, c)
        if g is None or g.negation or claim.tokens[g.predicate].lemma not in _FINDING or any(
                k.lemma in ("would", "might", "could", "may") for k in claim.children(g.predicate)):
            continue
        top = best(aligned(claim, c, quote))
        theirs = [_governing(quote, q) for q in top]
        if not top or not all(h is not None for h in theirs):
            continue
        shown = []
        for h in theirs:
            assert h is not None
            verb = quote.tokens[h.predicate]
            would = [k.i for k in quote.children(h.predicate) if k.lemma == "would" or (k.dep == "aux" and k.lemma == "have")]
            if verb.lemma in _ARGUING:
                shown.append(quote.shown([*(k for s in h.subjects for k in quote.subtree(s)), h.predicate]))
            elif verb.lemma in _FINDING and any(quote.tokens[k].lemma == "would" for k in would):
                shown.append(quote.shown([*would, h.predicate]))
            else:
                break
        else:
            said = claim.shown([*(k for s in g.subjects for k in claim.subtree(s)), g.predicate])
            return [Limit("argued", said, shown[0], f"claim says {quoted(said)}; the quote's sentence says only "
                                                    f"{quoted(shown[0])}")]
    return []


def _governing(r: Reading, c: Clause) -> Clause | None:
    """The clause whose verb takes clause `c` as its complement (`may be asked [to provide]`), or None."""
    v = verb_of(r, c)  # "that the notice was invalid": the clause's verb is `was`
    if v.dep not in ("xcomp", "ccomp") or v.head == v.i:
        return None
    return next((g for g in r.clauses if g.predicate == v.head), None)


def _modality_of(r: Reading, c: Clause) -> tuple[str, str]:
    """A clause's modality, or, with none of its own, the modality of the verb it completes: in
    `You may be asked to provide proof` the providing is as optional as the asking."""
    if c.modality:
        return c.modality, c.modal
    g = _governing(r, c)
    if g is not None and g.modality and not g.negation:
        ids = [k.i for k in r.children(g.predicate) if k.tag == "MD"]
        return g.modality, r.shown([*ids, g.predicate]) if ids else g.modal
    return "", ""


_FORBIDDING = frozenset("must shall may can could allowed permitted".split())


def _denied_modality(modality: str, modal: str, negation: str) -> str:
    """A modality under its clause's negation: `may not`, `must not`, `cannot`, `not allowed to` forbid, and
    forbid alike; `need not`, `do not have to`, `not required to` leave it open, as `may` does."""
    if not negation or not modality:
        return modality
    words = set(modal.casefold().replace("cannot", "can not").split())
    if words & _FORBIDDING and not words & {"have", "need", "required", "obliged"}:
        return "forbidden"
    return "optional" if modality == "required" else modality


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
        theirs = [_modality_of(quote, q) for q in top]
        mine = _denied_modality(c.modality, c.modal, c.negation)
        denied = [_denied_modality(m, w, q.negation if m == q.modality else "") for (m, w), q in zip(theirs, top)]
        if "forbidden" in (mine, *denied):
            continue  # a modal under a negation: the polarity rules read what it denies
        if all(m and d != mine for (m, _), d in zip(theirs, denied)):
            modality, modal = theirs[0]
            modality = denied[0]
            out.append(Limit("modality", c.modal, modal, f"claim says {quoted(c.modal)} ({mine}); "
                                                         f"quote says {quoted(modal)} ({modality})"))
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


# verbs that advise what their complement says (`We recommend that members bring ID`), and the modals of advice
_ADVISING = frozenset("recommend advise suggest encourage urge".split())
_ADVICE_MODALS = frozenset("should ought".split())


def _advice(r: Reading, c: Clause) -> list[int]:
    """The words that make a clause advice rather than a rule: `should` on its verb, or a verb of
    advising it completes (`recommends that …`, `are advised to …`), as token indices."""
    out = [k.i for k in r.children(verb_of(r, c).i) if k.tag == "MD" and k.lemma in _ADVICE_MODALS]
    g = _governing(r, c)
    if g is not None and not g.negation and not g.modality and r.tokens[g.predicate].lemma in _ADVISING:
        # the adviser with the verb ("We recommend"), or the passive's auxiliary ("are advised")
        out += [k.i for k in r.children(g.predicate) if k.dep in ("nsubj", "auxpass") and k.i < g.predicate]
        out.append(g.predicate)
    return out


def _advised(claim: Reading, quote: Reading) -> list[Limit]:
    """A claim that states as required (`must`, `are required to`) what its quote's clause on the same
    predicate only advises (`should`, `We recommend that …`, `are encouraged to`)."""
    out = []
    for c in claim.clauses:
        if c.modality != "required" or c.negation:
            continue
        top = best(aligned(claim, c, quote))
        if not top or any(q.modality for q in top):
            continue
        advice = [_advice(quote, q) for q in top]
        if all(advice):
            shown = quote.shown(advice[0])
            out.append(Limit("advice", c.modal, shown, f"claim says {quoted(c.modal)} (required); "
                                                       f"quote says only {quoted(shown)} (advice)"))
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


def _excepted_from_all(r: Reading, x: Restriction, lemma: str) -> bool:
    """`All segments reported higher profit except Industrial Services`: an exception at the end of a clause
    whose `all`, `every` or `each` is on a noun of `lemma` takes out of that noun's set, wherever the parser
    hangs the phrase (here on `profit`), since what `all` covers is what the sentence excepts from."""
    if x.kind != "exception":
        return False
    clause = next((c for c in r.clauses if x.target in c.tokens), None)
    return clause is not None and any(q.universal and q.noun in clause.tokens and r.tokens[q.noun].lemma == lemma
                                      for q in r.quantifiers)


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
        if not u.universal and claim.tokens[u.word].lemma == "most" and u.noun not in restricted_in_claim:
            most = _most_of(claim, u, quote)
            out += [most] if most is not None else []
        if not u.universal or u.noun in restricted_in_claim:
            continue
        noun = claim.tokens[u.noun]
        if any(k.dep in ("amod", "compound") and k.tag in ("VBG", "VBN") for k in claim.children(u.noun)):
            continue  # "every consuming package": the claim narrows the noun itself
        if noun.dep not in ("nsubj", "nsubjpass", "dobj", "pobj", "attr"):
            continue
        if any(k.dep == "nummod" for k in claim.children(u.noun)):
            continue  # "every 100 g" is a measure to reckon per, not a kind of thing the quote may narrow
        for x in quote.restrictions:
            target = quote.tokens[x.target]
            # the noun's own restriction; a condition on the whole clause ("if no file is given") is too often
            # one the claim's other words state otherwise (measured: bench/reader_adoption.py)
            if target.lemma != noun.lemma and not _excepted_from_all(quote, x, noun.lemma) or _specific(quote, x):
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
# and those that say nothing of most of them
_FEW = frozenset("some several few".split())


def _subject_of_same(claim: Reading, i: int, quote: Reading, j: int) -> bool:
    """Whether two nouns are the subjects of one verb (`fans booed`, `supporters booed`): the same doers
    named in other words."""
    # "most of the fans booed": the quantifier word is the subject, its `of` object the noun
    a, b = _quantifier_head(claim, claim.tokens[i]), _quantifier_head(quote, quote.tokens[j])
    if a is None or b is None or a.dep != "nsubj" or b.dep != "nsubj":
        return False
    return claim.tokens[a.head].lemma == quote.tokens[b.head].lemma and claim.tokens[a.head].pos == "VERB"


def _quantifier_head(r: Reading, t: Token) -> Token | None:
    """The subject token that holds a noun: the noun itself, or the `most`/`some` whose `of` object it is."""
    if t.dep == "nsubj":
        return t
    if t.dep == "pobj":
        of = r.tokens[t.head]
        if of.lemma == "of" and of.head != of.i:
            return r.tokens[of.head]
    return None


def _most_of(claim: Reading, u: Quantifier, quote: Reading) -> Limit | None:
    """`Most of the home fans booed` against `Some of the home supporters booed`: the claim says most where the
    quote says only some, several or a few of the same doers."""
    if any(c.negation and u.noun in c.tokens for c in claim.clauses):
        return None
    noun = claim.tokens[u.noun]
    for q in quote.quantifiers:
        if q.universal or quote.tokens[q.word].lemma not in _FEW:
            continue
        if quote.tokens[q.noun].lemma != noun.lemma and not _subject_of_same(claim, u.noun, quote, q.noun):
            continue
        if any(x.universal or quote.tokens[x.word].lemma == "most" for x in quote.quantifiers):
            return None
        said, theirs = claim.shown(sorted({u.word, u.noun})), quote.shown(sorted({q.word, q.noun}))
        return Limit("universal", said, theirs, f"claim says {quoted(said)}; the quote says only {quoted(theirs)}")
    return None


def _some_of(claim: Reading, u: Quantifier, quote: Reading) -> Limit | None:
    """`All rooms have a balcony` against `Most rooms have a balcony`: the quote puts a quantifier of part
    on the noun the claim says every one of, and none of all on it."""
    word, noun = claim.tokens[u.word], claim.tokens[u.noun]
    if word.lemma not in ("all", "every", "each"):
        return None
    if any(c.negation and u.noun in c.tokens for c in claim.clauses) or any(
            k.dep == "neg" for k in claim.children(u.word)) or (u.word > 0 and claim.tokens[u.word - 1].lemma == "not"):
        return None  # "not all rooms": a part already
    same = [q for q in quote.quantifiers if quote.tokens[q.noun].lemma == noun.lemma
            or _subject_of_same(claim, u.noun, quote, q.noun)]
    part = [q for q in same if not q.universal and quote.tokens[q.word].lemma in _PART]
    if not part or any(q.universal for q in same):
        return None
    said, theirs = claim.shown([u.word, u.noun]), quote.shown([part[0].word, part[0].noun])
    return Limit("universal", said, theirs, f"claim says {quoted(said)}; the quote says only {quoted(theirs)}")
