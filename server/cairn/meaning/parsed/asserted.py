"""`context-limits` (SPEC section 4): seven ways a quote holds back from asserting
what the claim states as plain fact, each a rule of how English words set what
a sentence asserts:

- A plan stated as done: the claim states an event (`The council has banned
  diesel vehicles`) that the quote names only under a word of intention
  (`is consulting on a proposal to ban diesel vehicles`, `plans to close`,
  `is considering raising`): an infinitive or gerund under a noun or verb of
  intention says what someone means to do, not what happened.
- An option stated as given: the quote calls the thing optional (`can be added
  as an optional extra`, `optionally`, `as an option`) and the claim states it
  with no word of choice (`Every hive is supplied with a queen excluder`).
- A time limit dropped: the quote's clause holds until a date or for a time
  only (`Until the end of March, blue badge holders may park free`,
  `temporarily`, `for a limited time`) and the claim states it with no word
  of time at all, or as lasting (`ever since`, `still`, `permanently`).
- Days of the week: the claim puts a thing on days the quote's days leave out
  (`Permit rules apply at weekends` against `Permit rules apply Monday to
  Friday`; `every day` against `Tuesday to Sunday`).
- A beneficiary dropped: the quote gives the thing for a class of people only
  (`Late check-out is free for members of our loyalty scheme`) and the claim
  names no one (`Late check-out is free`); `for all guests` restricts nothing.
- A superlative from a group: the claim says `the most expensive` (or `the
  largest`) where the quote puts the thing only among others (`among the more
  expensive`, `one of the largest`), or where the quote's sentence ranks
  nothing at all (`the deadliest`; `the largest` against `a large county`).
- A difference that was not significant stated as an effect: the quote says
  `not statistically significant`, `did not differ significantly`, `no
  significant`, `non-significant`, and the claim states an effect
  (`improved`, `lowered`, `more effective`) with no word of significance,
  trend or hedge of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from ...reading.model import Clause, Reading
from ..phrases import days_through
from .limits import Limit
from .words import aligned, clause_at, content, quoted

# nouns and verbs of intention: what is under them is meant, proposed or weighed, not done
_INTENT = frozenset("proposal propose plan intend intention aim consult consultation consider "
                    "suggest suggestion recommend recommendation seek want hope debate discuss "
                    "draft bid scheme idea threaten".split())
# a claim with any of these words speaks of a plan, a future or a possibility of its own
_CLAIM_UNREAL = frozenset("will would shall could might may can should going plan propose proposal "
                          "intend aim consult consider suggest recommend seek want hope debate discuss "
                          "expect expected likely possible possibly".split())


def _phrase(r: Reading, phrases: tuple[tuple[str, ...], ...], *,
            skip: Callable[[int, tuple[str, ...]], bool] = lambda k, phrase: False) -> list[int] | None:
    """The tokens of the first of `phrases` (in their order) that the text holds, matched on
    case-folded words, or None; `skip(k, phrase)` leaves out a match at token k."""
    words = [t.text.casefold() for t in r.tokens]
    for phrase in phrases:
        n = len(phrase)
        for k in range(len(words) - n + 1):
            if tuple(words[k:k + n]) == phrase and not skip(k, phrase):
                return list(range(k, k + n))
    return None


def _done(claim: Reading, c: Clause) -> bool:
    """A claim clause that states an event as having happened or as holding (a finite verb in the
    past, the present or the perfect), not negated and with no modal."""
    verb = claim.tokens[c.predicate]
    if c.negation or c.modality or verb.pos != "VERB":
        return False
    if verb.dep in ("acl", "amod", "xcomp", "advcl", "pcomp", "prep"):
        return False  # "features tailored to you": a participle describing a noun states no event
    return verb.tag in ("VBD", "VBZ", "VBP", "VBN")


def _under_intent(r: Reading, i: int) -> int | None:
    """The word of intention that token `i` (a verb) hangs under, through infinitive, gerund and
    prepositional links (`a proposal to ban`, `consulting on plans to ban`), or None."""
    k, seen = i, 0
    while r.tokens[k].head != k and seen < 4:
        dep = r.tokens[k].dep
        if dep not in ("acl", "xcomp", "pcomp", "pobj", "prep", "ccomp", "advcl", "relcl", "dobj", "nsubj"):
            return None
        k = r.tokens[k].head
        seen += 1
        if r.tokens[k].lemma in _INTENT:
            return k
    return None


def planned(claim: Reading, quote: Reading) -> list[Limit]:
    if {t.lemma for t in claim.tokens} & _CLAIM_UNREAL:
        return []
    for c in claim.clauses:
        if not _done(claim, c):
            continue
        same = [q for _n, q in aligned(claim, c, quote)]
        if not same:
            continue
        intents = [_under_intent(quote, q.predicate) for q in same]
        if any(k is None for k in intents):
            continue  # the quote also states the event itself
        k = intents[0]
        assert k is not None
        mine = claim.shown([c.predicate])
        theirs = quote.shown(sorted({k, same[0].predicate}))
        return [Limit("plan", mine, theirs, f"claim says {quoted(mine)} as done; the quote names it only as "
                                            f"intended: {quoted(theirs)}")]
    return []


_OPTIONAL = frozenset("optional optionally".split())
# (not `on request`: a thing given on request is still given)
_OPTIONAL_PHRASES = (("as", "an", "option"), ("at", "extra", "cost"), ("for", "an", "extra", "charge"),
                     ("at", "an", "extra", "charge"))
# a claim with any of these words leaves room for choice itself
_CHOICE = frozenset("optional optionally option options can may might could choose choice available request "
                    "extra if opt add-on offer offered upgrade".split())


def _optional_words(r: Reading) -> list[int] | None:
    for t in r.tokens:
        if t.lemma in _OPTIONAL:
            return [t.i]
    return _phrase(r, _OPTIONAL_PHRASES)


def optional(claim: Reading, quote: Reading) -> list[Limit]:
    """A thing the quote calls optional, stated by the claim as given."""
    if any(t.lemma in _CHOICE or t.text.casefold() in _CHOICE for t in claim.tokens):
        return []
    if any(c.negation for c in claim.clauses):
        return []
    where = _optional_words(quote)
    if where is None:
        return []
    # the claim names the thing the quote calls optional: a noun of the subject or an object of the quote's
    # clause that holds the optional words, other than those words themselves
    clause = clause_at(quote, where[0])
    if clause is None:
        return []
    heads = [k for k in (*clause.subjects, *clause.objects) if k not in where]
    theirs = {quote.tokens[j].lemma for k in heads for j in quote.subtree(k)
              if quote.tokens[j].pos in ("NOUN", "PROPN") and j not in where} - {"extra", "option", "request", "cost",
                                                                                 "charge"}
    mine = {t.lemma for t in claim.tokens if t.pos in ("NOUN", "PROPN")}
    if not mine & theirs:
        return []
    shown = quote.shown(where)
    said = claim.shown([c.predicate for c in claim.clauses[:1]]) if claim.clauses else claim.text
    return [Limit("optional", said, shown, f"claim states {quoted(said)} as given; the quote says it is "
                                           f"optional: {quoted(shown)}")]


_UNTIL = frozenset("until till".split())
_TEMPORARY = (("temporarily",), ("for", "a", "limited", "time"), ("for", "the", "time", "being"), ("for", "now"),
              ("until", "further", "notice"))
_MONTHS = frozenset("january february march april may june july august september october november december "
                    "jan feb mar apr jun jul aug sep sept oct nov dec".split())
# a claim with any of these words speaks of time itself
_CLAIM_TIME = frozenset("until till through before by from since after during temporarily temporary currently "
                        "now still limited time date deadline end start expire expires expiry until today "
                        "year month week day season period trial".split())


def _limited_at(r: Reading) -> list[int] | None:
    """The quote's words that hold its statement to a time: `until` with a date (a month, a year,
    `the end of`), or `temporarily`, `for a limited time`, `until further notice`."""
    if (found := _phrase(r, _TEMPORARY)) is not None:
        return found
    for t in r.tokens:
        if t.lemma not in _UNTIL or t.dep != "prep":
            continue
        span = r.subtree(t.i)
        if any(r.tokens[k].ent == "DATE" or r.tokens[k].text.casefold() in _MONTHS
               or (r.tokens[k].lemma == "end" and k + 1 < len(r.tokens) and r.tokens[k + 1].text.casefold() == "of")
               for k in span[1:]):
            return span
    return None


# a claim's words that say a state lasts to now or for good: against a quote's `until`, more than it says
_LASTING = (("ever", "since"), ("to", "this", "day"), ("permanently",), ("ever", "since", "then"), ("for", "good"),
            ("still",), ("indefinitely",))


def temporary(claim: Reading, quote: Reading) -> list[Limit]:
    """A statement the quote holds to a time, stated by the claim with no word of time, or as lasting to now
    (`has been closed ever since`, `is still closed`)."""
    lasting = _phrase(claim, _LASTING)
    if lasting is None and any(t.lemma in _CLAIM_TIME or t.text.casefold() in _CLAIM_TIME or t.ent in ("DATE", "TIME")
           or (t.pos == "PROPN" and t.text.casefold().rstrip(".") in _MONTHS) for t in claim.tokens):
        return []
    where = _limited_at(quote)
    if where is None:
        return []
    if any(c.negation for c in claim.clauses):
        return []
    # the time words limit the quote's clause the claim states (not a deadline of another clause in the
    # sentence: "confirm until next Wednesday" limits the confirming, not the workshops)
    said = next((claim.shown([c.predicate]) for c in claim.clauses
                 if any(where[0] in q.tokens or quote.tokens[where[0]].head == q.predicate
                        for _n, q in aligned(claim, c, quote))), None)
    if said is None:
        # no clause to align (the tagger read the claim's verb as a noun: "holders park free"): the claim's
        # content words all in the quote's sentence, and the time words on its root
        mine = content(claim, range(len(claim.tokens)))
        if claim.clauses or len(mine) < 3 or len(mine - content(quote, range(len(quote.tokens)))) > 0:
            return []
        head = quote.tokens[where[0]].head
        if quote.tokens[head].head != head:
            return []
        said = claim.text.strip().rstrip(".")
    shown = quote.shown(where)
    if lasting is not None:
        said = claim.shown(lasting)
        return [Limit("time", said, shown, f"claim says {quoted(said)}; the quote holds it to a time: "
                                           f"{quoted(shown)}")]
    return [Limit("time", said, shown, f"claim states {quoted(said)} without a time limit; the quote holds "
                                       f"it to a time: {quoted(shown)}")]


_GROUP = (("among",), ("one", "of"), ("some", "of"), ("amongst",))


def _in_group(r: Reading, i: int) -> list[int] | None:
    """The group words before token i's phrase (`among the`, `one of the`), as token indices, or None."""
    words = [t.text.casefold() for t in r.tokens]
    for k in range(max(0, i - 4), i):
        for phrase in _GROUP:
            n = len(phrase)
            if tuple(words[k:k + n]) == phrase:
                return list(range(k, k + n))
    return None


def _superlatives(r: Reading) -> list[tuple[int, str]]:
    """(token, adjective lemma) of each superlative: `largest`, `the most expensive`."""
    out = []
    for t in r.tokens:
        if t.tag == "JJS" and t.lemma not in ("most", "least"):
            out.append((t.i, t.lemma))
        elif t.lemma == "most" and t.tag == "RBS" and t.head != t.i and r.tokens[t.head].pos in ("ADJ", "ADV"):
            out.append((t.i, r.tokens[t.head].lemma))
    return out


def superlative(claim: Reading, quote: Reading) -> list[Limit]:
    """`the most expensive honey` against `among the more expensive honeys`: the claim picks one
    where the quote puts it in a group."""
    for i, adj in _superlatives(claim):
        if _in_group(claim, i) is not None:
            continue
        theirs = [t for t in quote.tokens if t.lemma == adj]
        theirs += [quote.tokens[j] for j, a in _superlatives(quote) if a == adj]
        plain = all(t.tag in ("JJ", "RB") and _in_group(quote, t.i) is None
                    and not (t.i > 0 and quote.tokens[t.i - 1].lemma in ("more", "less")) for t in theirs)
        if not theirs or plain:  # none, or only `a large county` for `the largest`
            ranked = _ranked_only_by_claim(claim, i, quote)
            if ranked is not None:
                return [ranked]
            continue
        groups = [_in_group(quote, t.i) for t in theirs]
        if any(g is None for g in groups):
            continue  # the quote also says it without a group
        g = groups[0]
        assert g is not None
        head = claim.tokens[i].head if claim.tokens[i].lemma == "most" else i
        mine = claim.shown(sorted({i, head}))
        shown = quote.shown([*g, theirs[0].i])
        return [Limit("superlative", mine, shown, f"claim says {quoted(mine)}; the quote says only "
                                                  f"{quoted(shown)}")]
    return []


# a quote with any of these ranks the thing in words of its own
_RANKS = frozenset("first last top record unprecedented unmatched unrivalled unequalled ever best worst "
                   "leading foremost premier biggest greatest number no. rank ranked ranking".split())


def _ranked_only_by_claim(claim: Reading, i: int, quote: Reading) -> Limit | None:
    """`the deadliest in its recorded history` where the quote ranks nothing: a superlative says the thing
    outdoes every other of its kind, which the quote's sentence, with no superlative, rank or record of its own,
    does not say."""
    if _superlatives(quote) or any(t.lemma.casefold() in _RANKS or t.text.casefold() in _RANKS
                                   for t in quote.tokens):
        return None
    if any(c.negation and i in c.tokens for c in claim.clauses):
        return None
    if not any(t.lemma == "the" for t in claim.tokens[max(0, i - 2):i]):
        return None  # a superlative ranks after `the` (`the deadliest`); a bare `most successful methods` may
        # mean most of them, and the tagger's `his detest for` is no superlative
    head = claim.tokens[i].head if claim.tokens[i].lemma == "most" else i
    said = claim.shown(sorted({i, head}))
    return Limit("ranked", said, "", f"claim says {quoted(said)}; the quote's sentence ranks nothing")


_DAY_NAMES = ("monday mon", "tuesday tue tues", "wednesday wed", "thursday thu thur thurs", "friday fri",
              "saturday sat", "sunday sun")
_DAY = {w: d for d, names in enumerate(_DAY_NAMES) for n in names.split() for w in (n, n + "s")}
_SPANS = {"weekend": frozenset({5, 6}), "weekends": frozenset({5, 6}), "weekday": frozenset(range(5)),
          "weekdays": frozenset(range(5))}
_EVERY_DAY = (("every", "day"), ("daily",), ("seven", "days", "a", "week"), ("7", "days", "a", "week"),
              ("all", "week"))
_TO = frozenset("to through thru till until - – and".split())
# a quote with any of these says on which days a thing does not hold, or lists days of other things
_DAYS_OTHERWISE = frozenset("except excluding exclude closed not no apart besides but other shut".split())


def _days(r: Reading) -> tuple[frozenset[int], list[int]]:
    """The days of the week a text names (ranges read whole: `Monday to Friday`), with their tokens."""
    words = [t.text.casefold().rstrip(".") for t in r.tokens]
    got: set[int] = set()
    ids: list[int] = []
    k = 0
    while k < len(words):
        w = words[k]
        if w in _DAY and r.tokens[k].pos in ("PROPN", "NOUN"):
            a = _DAY[w]
            if k + 2 < len(words) and words[k + 1] in _TO and words[k + 1] != "and" and words[k + 2] in _DAY:
                b = _DAY[words[k + 2]]
                got |= days_through(a, b)
                ids += [k, k + 1, k + 2]
                k += 3
                continue
            got.add(a)
            ids.append(k)
        elif w in _SPANS:
            got |= _SPANS[w]
            ids.append(k)
        k += 1
    return frozenset(got), ids


def _every_day(r: Reading) -> list[int] | None:
    # not "her daily show": a show's kind, not when a thing holds
    return _phrase(r, _EVERY_DAY, skip=lambda k, phrase: phrase == ("daily",) and r.tokens[k].dep == "amod")


def days(claim: Reading, quote: Reading) -> list[Limit]:
    """A claim's days of the week outside the days its quote names."""
    if any(c.negation for c in claim.clauses) or any(t.lemma in _DAYS_OTHERWISE or t.text.casefold() in
                                                     _DAYS_OTHERWISE for t in quote.tokens):
        return []
    theirs, their_ids = _days(quote)
    if not theirs or len(theirs) == 7:
        return []
    mine, my_ids = _days(claim)
    named = [t for t in claim.tokens if t.text.casefold().rstrip(".") in _DAY]
    if named and any(t.text.casefold().rstrip(".") in _DAY for t in quote.tokens):
        return []  # named days on both sides: the number rule reads them (backing.py, runs of days included)
    every = _every_day(claim) if not mine else None
    if every is not None:
        mine, my_ids = frozenset(range(7)), every
    if not mine or mine <= theirs:
        return []
    said, shown = claim.shown(my_ids), quote.shown(their_ids)
    if said.casefold() == shown.casefold():
        return []
    return [Limit("days", said, shown, f"claim says {quoted(said)}; the quote says {quoted(shown)}")]


# the classes of people a thing may be given for
_PEOPLE = frozenset("member subscriber resident customer guest student pupil child adult senior pensioner holder "
                    "employee staff user patient passenger visitor veteran owner tenant local beginner client "
                    "cardholder traveller traveler family household driver rider player parent teacher".split())
_EVERYONE = frozenset("all every any each".split())


def for_whom(claim: Reading, quote: Reading) -> list[Limit]:
    """A thing the quote gives for a class of people only, stated by the claim for no one in particular."""
    mine = {t.lemma for t in claim.tokens}
    for c in claim.clauses:
        if c.negation or any(claim.tokens[k].lemma == "for" for k in c.tokens):
            continue
        for _n, q in aligned(claim, c, quote):
            for k in quote.kids[q.predicate]:
                prep = quote.tokens[k]
                if prep.lemma != "for" or prep.dep != "prep":
                    continue
                for o in quote.kids[k]:
                    who = quote.tokens[o]
                    if who.dep != "pobj" or who.lemma not in _PEOPLE or who.lemma in mine:
                        continue
                    if any(d.lemma in _EVERYONE for d in quote.children(o)):
                        continue  # "for all guests": everyone
                    said, shown = claim.shown([c.predicate]), quote.shown(quote.subtree(k))
                    return [Limit("for", said, shown, f"claim states {quoted(said)} for anyone; the quote gives it "
                                                      f"only {quoted(shown)}")]
    return []


def asserted(claim: Reading, quote: Reading) -> list[Limit]:
    return (planned(claim, quote) + optional(claim, quote) + temporary(claim, quote) + superlative(claim, quote)
            + days(claim, quote) + for_whom(claim, quote) + insignificant(claim, quote))


# the claim's words of an effect or a difference: what a finding that was not significant does not show
_EFFECT = frozenset("improve reduce lower increase raise decrease cut boost prevent benefit help better worse more "
                    "less fewer higher greater lower outperform effective efficacious superior inferior shorten "
                    "lengthen slow speed protect relieve ease worsen".split())
# a claim with any of these words reports the finding as the quote does, or hedges it
_AS_FOUND = frozenset("significant significantly significance numerically trend tendency may might could "
                      "possibly suggest suggested not no n't neither nor".split())


def _not_significant(r: Reading) -> list[int] | None:
    """The quote's words that say a difference was not shown to be real: `not statistically significant`,
    `did not differ significantly`, `no significant difference`, `non-significant`, `did not reach
    significance`."""
    for t in r.tokens:
        w = t.text.casefold()
        if w in ("non-significant", "nonsignificant"):
            return [t.i]
        if t.lemma.casefold() not in ("significant", "significantly", "significance"):
            continue
        before = range(max(0, t.i - 4), t.i)
        neg = [k for k in before if r.tokens[k].lemma.casefold() in ("not", "no", "n't", "never", "without")]
        if neg:
            return list(range(neg[-1], t.i + 1))
    return None


def insignificant(claim: Reading, quote: Reading) -> list[Limit]:
    """`Rezatrelin improved disability scores compared with placebo` against `… favoured rezatrelin numerically,
    but the difference was not statistically significant`: a difference a study could not tell from chance
    stated as an effect."""
    where = _not_significant(quote)
    if where is None or any(c.negation for c in claim.clauses):
        return []
    words = {t.lemma.casefold() for t in claim.tokens} | {t.text.casefold() for t in claim.tokens}
    if words & _AS_FOUND:
        return []
    effect = next((t for t in claim.tokens if t.lemma.casefold() in _EFFECT and t.pos in ("VERB", "ADJ", "ADV")),
                  None)
    if effect is None:
        return []
    shown = quote.shown(where)
    return [Limit("significance", effect.text, shown, f"claim states an effect ({quoted(effect.text)}); the quote's "
                                                      f"finding was not significant: {quoted(shown)}")]
