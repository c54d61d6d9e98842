"""`relation-mismatch` (SPEC section 4): an amount given for another thing
than its quote gives it for, by how English words say what an amount is of:

- Each against a total: the quote gives an amount to each member (`each
  insured for £5,000`, `£5 apiece`) and the claim gives it to them together
  (`a combined total of`, `together`, `in all`), or the reverse.
- A change against a level: with a verb of change (`rise`, `fall`,
  `increase`, `cut`, …), `by 12 %` is the change and `to 12 %` (or `from`)
  the level; the claim reads the amount the other way than its quote.
- The order of steps: both sides give steps joined by `then` (`A, then B`);
  the claim gives the quote's steps in the other order.
- A rate's second unit: the same amount given per another thing (`31.4p per
  month` against `31.4p per day`, `£60 per household` against `£60 per
  vehicle`); `a day` is `per day`, `per cent` no rate.
- Days counted another way: the same figure of the same unit with another
  way of counting it (`30 working days` against `30 days`).
"""

from __future__ import annotations

from ...reading.model import Quantity, Reading
from .relation import RelationMismatch
from .words import content, quoted

_EACH = frozenset("each apiece".split())
_TOTAL = frozenset("total combined together altogether overall jointly collectively aggregate cumulative "
                   "cumulatively".split())
_TOTAL_PAIRS = (("in", "all"), ("between", "them"), ("in", "total"))
_CHANGE = frozenset("rise increase grow climb jump fall drop decrease decline reduce cut raise lower shrink "
                    "expand slip sink soar plunge go".split())
_STEP = frozenset("then".split())
_SEQUENCE_WORDS = frozenset("first then next finally afterwards".split())


def amounts(claim: Reading, quote: Reading) -> list[tuple[str, RelationMismatch]]:
    return [*(("total", x) for x in _total(claim, quote)), *(("change", x) for x in _change(claim, quote)),
            *(("order", x) for x in _order(claim, quote)), *(("rate", x) for x in _rate(claim, quote)),
            *(("unit", x) for x in _counted(claim, quote))]


# the words that make a day, a week or an hour one of another count (`30 working days` is six weeks, `30 days`
# a month)
_COUNTED_AS = frozenset("working business calendar clear school banking trading consecutive full opening "
                        "weekday".split())


_SAME_COUNT = {"business": "working", "weekday": "working"}


def _count_kind(r: Reading, q: Quantity) -> tuple[str, frozenset[str]] | None:
    """(the unit's lemma, the words on it that say how it is counted) of an amount of a unit."""
    if q.measures is None:
        return None
    unit = r.tokens[q.measures]
    if unit.pos != "NOUN":
        return None
    return unit.lemma, frozenset(_SAME_COUNT.get(w, w) for k in r.children(unit.i)
                                 if k.dep in ("amod", "compound", "nmod") and (w := k.text.casefold()) in _COUNTED_AS)


def _counted(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    """`within 30 working days` against `within 30 days`: the same figure of the same unit, counted
    another way. Every amount of the quote's with the figure and unit must count it otherwise."""
    for cq in claim.quantities:
        mine = _count_kind(claim, cq)
        if mine is None:
            continue
        same = [(k, q) for q in quote.quantities if q.value == cq.value
                and (k := _count_kind(quote, q)) is not None and k[0] == mine[0]]
        if not same or any(k == mine for k, _ in same):
            continue
        q = same[0][1]
        assert q.measures is not None and cq.measures is not None
        said = claim.shown(sorted({*cq.tokens, cq.measures, *(k.i for k in claim.children(cq.measures)
                                                              if k.text.casefold() in _COUNTED_AS)}))
        theirs = quote.shown(sorted({*q.tokens, q.measures, *(k.i for k in quote.children(q.measures)
                                                              if k.text.casefold() in _COUNTED_AS)}))
        return [RelationMismatch(said, theirs, f"claim gives {quoted(said)}; the quote gives {quoted(theirs)}")]
    return []


# a rate's second unit after an article names a span of time or a person (`£5 a month`, `twice a day`)
_RATE_NOUNS = frozenset("second minute hour day night week fortnight month quarter year term semester session "
                        "person head".split())
# `per cent` is a share, not a rate; `per annum` and `per capita` are a year and a person
_PER_LATIN = {"annum": "year", "capita": "person", "head": "person"}
# how far after an amount its rate may be stated (`50 g of general fertiliser per square metre`)
_RATE_REACH = 7


def _denominator(r: Reading, q: Quantity) -> tuple[str, tuple[str, ...], list[int]] | None:
    """What an amount is given per: (the head noun's lemma, its modifiers' lemmas, the tokens from `per`) of
    `31.4p per day`, `£60 per vehicle`, `£5 a month`, `50 g of fertiliser per square metre`; None without."""
    end = max([*q.tokens, q.measures if q.measures is not None else -1])
    for j in range(end + 1, min(len(r.tokens), end + 1 + _RATE_REACH)):
        t = r.tokens[j]
        low = t.text.casefold()
        if low == "per" and j + 1 < len(r.tokens):
            nxt = r.tokens[j + 1].text.casefold()
            if nxt in ("cent", "centum"):
                return None
            if nxt in _PER_LATIN:
                return _PER_LATIN[nxt], (), [j, j + 1]
            # the noun after `per` and the words before it that modify it (`per square metre`, `per working
            # day`); what follows the noun (`per share excluding special items`) is not the unit
            ids = []
            for k in range(j + 1, min(len(r.tokens), j + 5)):
                w = r.tokens[k]
                if w.pos not in ("NOUN", "PROPN", "ADJ") and not (w.pos == "VERB" and w.dep in ("amod", "compound")):
                    break
                ids.append(k)
                if w.pos in ("NOUN", "PROPN") and w.dep not in ("compound", "amod", "nmod"):
                    break
            nouns = [k for k in ids if r.tokens[k].pos in ("NOUN", "PROPN")]
            if not nouns:
                return None
            head = nouns[-1]
            return (r.tokens[head].lemma.casefold(), tuple(sorted(r.tokens[k].lemma.casefold() for k in ids if k != head)),
                    [j, *ids])
        if j == end + 1 and low in ("a", "an", "each", "every") and j + 1 < len(r.tokens) and \
                r.tokens[j + 1].lemma.casefold() in _RATE_NOUNS:
            return r.tokens[j + 1].lemma.casefold(), (), [j, j + 1]
        if t.pos in ("PUNCT", "VERB", "AUX", "CCONJ", "SCONJ", "NUM") or low in ("than", "to", "from", "and", "or"):
            return None
    return None


def _rate(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    """An amount the claim gives per one thing where its quote gives the same amount per another:
    `31.4p per month` against `31.4p per day`, `£60 per household` against `£60 per vehicle`. Every
    amount of the quote's with the claim's figure must give a rate, and none the claim's."""
    for cq in claim.quantities:
        mine = _denominator(claim, cq)
        if mine is None:
            continue
        same = [q for q in quote.quantities if q.value == cq.value]
        rates = [(_denominator(quote, q), q) for q in same]
        if not rates or any(d is None for d, _ in rates):
            continue
        if any(d is not None and d[:2] == mine[:2] for d, _ in rates):
            continue
        d, q = rates[0]
        assert d is not None
        said = claim.shown(sorted({*cq.tokens, *mine[2]}))
        theirs = quote.shown(sorted({*q.tokens, *d[2]}))
        return [RelationMismatch(said, theirs, f"claim gives {quoted(said)}; the quote gives {quoted(theirs)}")]
    return []


# how far (in tokens) from an amount a word of each or of a total is read as saying whom it is for
_NEAR = 10


def _kind(r: Reading, q: Quantity) -> str:
    """Whether an amount is given to each ("each"), to all together ("total"), both or neither (""),
    by the words near it."""
    lo, hi = max(0, min(q.tokens) - _NEAR), min(len(r.tokens), max(q.tokens) + _NEAR + 1)
    low = [t.text.casefold() for t in r.tokens[lo:hi]]
    each = any(w in _EACH for w in low) or _denominator(r, q) is not None  # `£75 per fuel`
    total = any(w in _TOTAL for w in low) or any(p in _TOTAL_PAIRS for p in zip(low, low[1:]))
    return "each" if each and not total else "total" if total and not each else ""


def _total(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    # an amount (money, a duration, a share) before a count of the people or things it is given to
    for cq in sorted(claim.quantities, key=lambda q: _count_of_subject(claim, q)):
        mine = _kind(claim, cq)
        if not mine:
            continue
        kinds = {_kind(quote, q) for q in quote.quantities if q.value == cq.value}
        if len(kinds) != 1 or "" in kinds or mine in kinds:
            continue
        theirs = kinds.pop()
        word = {"each": "each", "total": "all together"}
        return [RelationMismatch(cq.shown, cq.shown, f"claim gives {quoted(cq.shown)} to {word[mine]}; "
                                                     f"the quote gives it to {word[theirs]}")]
    return []


def _count_of_subject(r: Reading, q: Quantity) -> bool:
    """Whether a quantity counts a clause's subject ("the four tutors"), rather than giving an amount."""
    return q.measures is not None and r.tokens[q.measures].dep in ("nsubj", "nsubjpass")


def _preposition(r: Reading, q: Quantity) -> str:
    """`by`, `to` or `from` when the word before the quantity is that preposition and the verb it hangs
    from is one of change ("" otherwise); "from £40 to £25" is read as written, whatever the parse."""
    first = min(q.tokens)
    if first == 0 or (word := r.tokens[first - 1].text.casefold()) not in ("by", "to", "from"):
        return ""
    k = q.measures if q.measures is not None else max(q.tokens)
    for _ in range(len(r.tokens)):
        t = r.tokens[k]
        if t.pos in ("VERB", "AUX") or t.head == k:
            return word if t.lemma in _CHANGE else ""
        k = t.head
    return ""


def _change(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    for cq in claim.quantities:
        mine = _preposition(claim, cq)
        if not mine:
            continue
        same = [q for q in quote.quantities if q.value == cq.value]
        theirs = {_preposition(quote, q) for q in same}
        if not same or "" in theirs or mine in theirs or (mine != "by" and "by" not in theirs):
            continue  # `to` and `from` both name a level: only `by` against either is a mismatch
        other = sorted(theirs)[0]
        return [RelationMismatch(f"{mine} {cq.shown}", f"{other} {cq.shown}",
                                 f"claim says {quoted(mine + ' ' + cq.shown)} ({_meaning(mine)}); the quote says "
                                 f"{quoted(other + ' ' + cq.shown)} ({_meaning(other)})")]
    return []


def _meaning(prep: str) -> str:
    return "the change" if prep == "by" else "the level"


def _steps(r: Reading) -> list[tuple[int, int]]:
    """The spans (token ranges) of steps joined by `then`; one span when there is none."""
    cuts = [t.i for t in r.tokens if t.lemma in _STEP and t.dep == "advmod"]
    bounds = [0, *cuts, len(r.tokens)]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def _words(r: Reading, span: tuple[int, int]) -> tuple[set[str], set[str]]:
    ids = range(*span)
    nouns = {r.tokens[i].lemma for i in ids if r.tokens[i].pos in ("NOUN", "PROPN")}
    return nouns, content(r, ids) - nouns - _SEQUENCE_WORDS


def _order(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    mine, theirs = _steps(claim), _steps(quote)
    if len(mine) < 2 or len(theirs) < 2:
        return []
    where = []
    for span in mine:
        nouns, rest = _words(claim, span)
        scores = []
        for j, other in enumerate(theirs):
            n2, r2 = _words(quote, other)
            scores.append((2 * len(nouns & n2) + len(rest & r2), j))
        scores.sort(reverse=True)
        if scores[0][0] == 0 or (len(scores) > 1 and scores[1][0] == scores[0][0]):
            return []  # a step the quote does not hold, or holds twice: no order to compare
        where.append(scores[0][1])
    for a in range(len(where) - 1):
        if where[a] > where[a + 1]:
            said = f"{_step(claim, mine[a])} before {_step(claim, mine[a + 1])}"
            quote_said = f"{_step(quote, theirs[where[a + 1]])} before {_step(quote, theirs[where[a]])}"
            return [RelationMismatch(said, quote_said, f"claim puts {quoted(said)}; the quote puts "
                                                       f"{quoted(quote_said)}")]
    return []


def _step(r: Reading, span: tuple[int, int]) -> str:
    """A step as written, without its `then` and the punctuation around it."""
    ids = [i for i in range(*span) if not (r.tokens[i].lemma in _STEP and i == span[0])]
    return r.shown(ids).strip(" ,;.")
