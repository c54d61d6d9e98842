"""`context-limits` (SPEC section 4), three more ways a claim states more than its
quote, each a rule of how English words set what a sentence asserts:

- A bound dropped: the quote gives an amount as a bound (`up to £500`, `at
  most 7 kg`, `no more than`, `a maximum of`, `at least`, `more than`,
  `over`, `… or more`) and the claim gives the same amount with no bound word
  anywhere: `We will pay £500` from `We will pay up to £500` states an exact
  sum where the quote states a ceiling.
- An association stated as a cause: the claim says one thing causes another
  (`causes`, `leads to`, `results in`, `triggers`, `because of`, `due to`)
  where the quote reports only that they go together (`more likely`, `more
  often`, `associated with`, `linked to`, `after`) and names no cause of its
  own: co-occurrence does not assert causation. A quote that only sets two
  clauses side by side with `and` is read too (kind `cause`), measured and
  not adopted: summaries read `A, and B` as `A, leading to B`.
- A degree stated as whole: the quote's verb or adjective holds only in part
  or nearly (`partly destroyed`, `almost finished`, `largely rebuilt`) and
  the claim states the same word with no degree of its own: what was partly
  destroyed was not destroyed.
"""

from __future__ import annotations

from ...reading.model import Quantity, Reading
from .limits import Limit
from .words import quoted

# the words that make an amount a ceiling or a floor, read on the tokens just before it
_UPPER = (("up", "to"), ("at", "most"), ("no", "more", "than"), ("not", "more", "than"), ("a", "maximum", "of"),
          ("maximum", "of"), ("as", "much", "as"), ("as", "many", "as"), ("no", "greater", "than"),
          ("less", "than"), ("fewer", "than"), ("under",), ("below",), ("maximum",), ("max",))
_LOWER = (("at", "least"), ("no", "less", "than"), ("no", "fewer", "than"), ("more", "than"), ("over",),
          ("a", "minimum", "of"), ("minimum", "of"), ("minimum",), ("upwards", "of"), ("above",))
_AFTER = (("or", "more"), ("or", "less"), ("or", "fewer"), ("or", "over"), ("or", "under"), ("at", "most"),
          ("at", "the", "most"), ("at", "least"), ("maximum",), ("minimum",), ("max",), ("+",))
# a claim holding any of these words states a bound or an approximation of its own, and is left alone
_CLAIM_BOUNDS = frozenset(
    "up most least maximum max minimum min limit limited cap capped ceiling exceed under over below above "
    "within less fewer more upwards only about around approximately roughly nearly almost some circa "
    "highest lowest top floor range between".split())


# words that give an amount as an estimate, before it; and a claim's words that insist it is exact
_ROUGHLY = (("about",), ("around",), ("roughly",), ("approximately",), ("approx",), ("approx.",), ("nearly",),
            ("almost",), ("some",), ("circa",), ("c.",), ("an", "estimated"), ("estimated",), ("close", "to"),
            ("more", "or", "less"))
_EXACTLY = frozenset("exactly precisely".split())


def bounds(claim: Reading, quote: Reading) -> list[Limit]:
    """A quote's bounded amount stated by the claim as exact."""
    exact = _insisted(claim, quote)
    if exact:
        return exact
    if any(t.lemma in _CLAIM_BOUNDS or t.text.casefold() in _CLAIM_BOUNDS for t in claim.tokens):
        return []
    for cq in claim.quantities:
        same = [q for q in quote.quantities if q.value == cq.value]
        if not same or any(_bound(quote, q) is None for q in same):
            continue  # the quote also states the amount without a bound
        q = same[0]
        words = _bound(quote, q) or ()
        shown = quote.shown([*words, *q.tokens, *([q.measures] if q.measures is not None else [])])
        return [Limit("bound", cq.shown, shown, f"claim states {quoted(cq.shown)} as exact; the quote gives a "
                                                f"bound: {quoted(shown)}")]
    return []


def _insisted(claim: Reading, quote: Reading) -> list[Limit]:
    """`Exactly 200 guests attended` against `About 200 guests attended`: the claim insists on the very
    amount the quote gives only as an estimate."""
    for cq in claim.quantities:
        first = min(cq.tokens)
        if first == 0 or claim.tokens[first - 1].text.casefold() not in _EXACTLY:
            continue
        same = [q for q in quote.quantities if q.value == cq.value]
        rough = [(q, w) for q in same if (w := _words_before(quote, q, _ROUGHLY)) is not None]
        if not rough or len(rough) < len(same):
            continue
        q, words = rough[0]
        mine = claim.shown([first - 1, *cq.tokens, *([cq.measures] if cq.measures is not None else [])])
        shown = quote.shown([*words, *q.tokens, *([q.measures] if q.measures is not None else [])])
        return [Limit("bound", mine, shown, f"claim states {quoted(mine)}; the quote gives an estimate: "
                                            f"{quoted(shown)}")]
    return []


def _words_before(r: Reading, q: Quantity, table: tuple[tuple[str, ...], ...]) -> tuple[int, ...] | None:
    first = min(q.tokens)
    before = [t.text.casefold() for t in r.tokens[max(0, first - 3):first]]
    for words in table:
        if len(before) >= len(words) and tuple(before[len(before) - len(words):]) == words:
            return tuple(range(first - len(words), first))
    return None


def _bound(r: Reading, q: Quantity) -> tuple[int, ...] | None:
    """The bound words around a quantity (token indices), or None when it has none."""
    first, last = min(q.tokens), max(q.tokens)
    if q.measures is not None:
        last = max(last, q.measures)
    before = [t.text.casefold() for t in r.tokens[max(0, first - 3):first]]
    for words in _UPPER + _LOWER:
        if len(before) >= len(words) and tuple(before[len(before) - len(words):]) == words:
            return tuple(range(first - len(words), first))
    after = [t.text.casefold() for t in r.tokens[last + 1:last + 4]]
    for words in _AFTER:
        if tuple(after[:len(words)]) == words:
            return tuple(range(last + 1, last + 1 + len(words)))
    return None


# the claim's words of cause: a verb (with its particle) or a connective
_CAUSE_VERBS = frozenset("cause trigger induce provoke spark".split())
_CAUSE_PAIRS = (("lead", "to"), ("result", "in"), ("bring", "about"), ("give", "rise"), ("because", "of"),
                ("due", "to"), ("owing", "to"), ("thanks", "to"), ("responsible", "for"), ("result", "of"))
# the quote's words that report going together
_TOGETHER = frozenset("associate associated association link linked correlate correlated correlation likely "
                      "likelier often coincide coincided accompany accompanied after following".split())
# a quote with any of these states a cause or a consequence of its own, and is left alone
_QUOTE_CAUSAL = frozenset("cause caused causes causing because due result resulted results resulting lead led "
                          "leads leading trigger triggered triggers induce induced provoke spark sparked "
                          "responsible effect effects consequence consequences owing thanks therefore thus "
                          "hence consequently so make made makes reason since".split())


def _says_cause(r: Reading) -> str:
    """The claim's cause words as written ("" when it states no cause)."""
    toks = r.tokens
    for t in toks:
        if t.lemma in _CAUSE_VERBS and t.pos in ("VERB", "NOUN"):
            return t.text
    for k, (t, u) in enumerate(zip(toks, toks[1:])):
        if (t.lemma, u.lemma) in _CAUSE_PAIRS or (t.text.casefold(), u.text.casefold()) in _CAUSE_PAIRS:
            if u.lemma == "to" and k + 2 < len(toks) and toks[k + 2].tag == "VB":
                continue  # "due to be paid": to come, not a cause
            return f"{t.text} {u.text}"
    return ""


def _two_events(r: Reading) -> list[int] | None:
    """`Ash fell across the island, and that autumn's harvest was the poorest`: two clauses, each with a subject
    of its own, joined by `and` (the tokens of the two predicates and the `and`), or None."""
    for c in r.clauses:
        head = r.tokens[c.predicate]
        if head.dep in ("attr", "acomp"):
            head = r.tokens[head.head]  # "… and the harvest was the poorest": the copula joins the clause
        if head.dep != "conj" or head.head == head.i:
            continue
        first = r.tokens[head.head]
        if first.pos not in ("VERB", "AUX") or not c.subjects:
            continue
        cc = [k.i for k in r.children(first.i) if k.dep == "cc" and k.lemma == "and"]
        own = [k for k in r.children(first.i) if k.dep in ("nsubj", "nsubjpass")]
        if cc and own:
            return sorted({first.i, cc[0], head.i})
    return None


def association(claim: Reading, quote: Reading) -> list[Limit]:
    """A cause the claim states where the quote reports only that two things go together."""
    said = _says_cause(claim)
    if not said:
        return []
    words = {t.lemma for t in quote.tokens} | {t.text.casefold() for t in quote.tokens}
    if words & _QUOTE_CAUSAL:
        return []
    together = [t for t in quote.tokens if t.lemma in _TOGETHER or t.text.casefold() in _TOGETHER]
    if not together:
        joined = _two_events(quote)
        if joined is None:
            return []
        shown = quote.shown(joined)
        return [Limit("cause", said, shown, f"claim says {quoted(said)}; the quote states two things side by side "
                                            f"and no cause: {quoted(shown)}")]
    t = together[0]
    near = [k for k in range(max(0, t.i - 1), t.i + 1) if quote.tokens[k].lemma in ("more", "less", "also", t.lemma)]
    shown = quote.shown([*near, t.i])
    return [Limit("association", said, shown, f"claim says {quoted(said)}; the quote reports only that they go "
                                              f"together: {quoted(shown)}")]


# the adverbs that say a predicate holds in part or not quite; a claim with any of these, or with a degree of
# its own on the word, is left alone
_IN_PART = frozenset("partly partially half largely mostly nearly almost barely scarcely incompletely".split())
_DEGREES = _IN_PART | frozenset("completely entirely fully totally wholly mainly somewhat slightly virtually "
                                "practically".split())


def partial(claim: Reading, quote: Reading) -> list[Limit]:
    """`destroyed the church` against `partly destroyed the church`: the quote's predicate (a verb, or an
    adjective that is not attributive) holds in part or not quite, and the claim's same verb or adjective, not
    negated, says it held outright."""
    for t in quote.tokens:
        if t.dep != "advmod" or t.lemma.casefold() not in _IN_PART:
            continue
        head = quote.tokens[t.head]
        first = head
        while first.dep == "conj" and first.head != first.i:
            first = quote.tokens[first.head]
        if head.pos not in ("VERB", "ADJ") or head.i == t.i or first.dep == "amod":
            continue  # a degree on an attributive adjective describes its noun (`a largely carnivorous group`)
        for c in claim.tokens:
            if c.pos != head.pos or c.lemma != head.lemma:
                continue
            kids = claim.children(c.i)
            if any(k.dep == "neg" or k.lemma.casefold() in _DEGREES for k in kids):
                continue
            if any(x.lemma.casefold() in _DEGREES for x in claim.tokens[max(0, c.i - 2):c.i]):
                continue
            shown = quote.shown(sorted((t.i, head.i)))
            return [Limit("partial", c.text, shown, f"claim says {quoted(c.text)}; the quote says only "
                                                     f"{quoted(shown)}")]
    return []
