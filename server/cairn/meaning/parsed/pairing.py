"""Two more ways a claim binds what its quote says to the wrong thing
(`relation-mismatch`, SPEC section 4), read from the reader's structure.

- **Figures of a list.** A quote that gives one figure per group, in parts
  joined by `and`, `or`, `but`, `while`, `whereas`, a comma or a semicolon
  ("the primary antibody for 1 hour and the secondary antibody for 30
  minutes"; "600 mm in dwellings and 380 mm in public buildings"), pairs each
  figure with the words of its own part. A claim that takes a figure from one
  part while every word that tells the groups apart comes from another part,
  which gives a figure of the same kind, pairs that figure with the wrong
  group. Verbs are left out of the telling words: a list often says its verb
  once ("Roast the chicken for 90 minutes and the vegetables for 40").
- **Roles swapped.** The claim has A do P to B where the quote has B do P to
  A, A and B being noun phrases ("The insurer reimburses the policyholder"
  against "The policyholder reimburses the insurer"). Predicates that hold
  both ways (`meet`, `marry`, `border`, ...) and passive clauses are left alone.
- **Another doer.** The claim has A do P to B where the quote has only C do P
  to B, and the quote names A too, in another clause ("Drones collect nectar"
  against "Worker bees collect nectar; drones do not forage"): the quote tells
  the two apart and gives the deed to the other. A and C share no word.
"""

from __future__ import annotations

from ...reading.model import Clause, Quantity, Reading
from .words import quoted

# a token that ends one part of a list and starts the next
_JOINS = frozenset({";", ",", "and", "or", "but", "whereas", "while"})
# the words that tell the groups of a list apart: not verbs (said once for the whole list)
_TELLING = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})
# units of one dimension count as one kind: 1 hour and 30 minutes are both durations
_DIMENSION = {
    **dict.fromkeys("second seconds sec s minute minutes min mins hour hours hr hrs h day days week weeks month months"
                    " year years".split(), "time"),
    **dict.fromkeys("mm cm m km metre metres meter meters millimetre millimetres centimetre centimetres kilometre"
                    " kilometres inch inches in ft foot feet yard yards mile miles".split(), "length"),
    **dict.fromkeys("mg g kg gram grams kilogram kilograms milligram milligrams lb lbs pound pounds oz ounce ounces"
                    .split(), "mass"),
    **dict.fromkeys("ml l litre litres liter liters millilitre millilitres µl μl".split(), "volume"),
}
# predicates that hold both ways round: swapping their arguments says the same
_SYMMETRIC = frozenset(
    "meet marry wed divorce date face play fight battle border neighbour neighbor resemble equal match tie touch join"
    " accompany partner collide contact encounter debate hug kiss share exchange compare cross intersect adjoin"
    " rival oppose".split())


def pairing_mismatches(claim: Reading, quote: Reading) -> list[tuple[str, str, str]]:
    """(claim side, quote side, message) of each mismatch of the two rules."""
    return _list_figures(claim, quote) + _swapped(claim, quote) + _other_doer(claim, quote)


def _parts(r: Reading) -> list[int]:
    """The list part of each token (0, 1, ...): a new part after each joining token."""
    out, part, sent = [], 0, 0
    for t in r.tokens:
        if t.sent != sent:  # a list is one sentence: a new sentence starts a new part
            sent, part = t.sent, part + 1
        if t.text.lower() in _JOINS and t.pos in ("CCONJ", "PUNCT", "SCONJ") and t.ent != "DATE" and not (
                t.text == "," and 0 < t.i < len(r.tokens) - 1 and r.tokens[t.i - 1].ent == "DATE"
                and r.tokens[t.i + 1].ent == "DATE"):
            part += 1
            out.append(-1)
            continue
        out.append(part)
    return out


def _unit(r: Reading, q: Quantity) -> str:
    return r.tokens[q.measures].lemma if q.measures is not None else ""


def _kind(r: Reading, q: Quantity) -> str:
    marks = [r.tokens[i].text.lower() for i in q.tokens if not any(c.isdigit() for c in r.tokens[i].text)]
    unit = r.tokens[q.measures].lemma if q.measures is not None else (marks[-1] if marks else "")
    for w in [unit, *marks]:
        w = w.strip(".")
        if w in _DIMENSION:
            return _DIMENSION[w]
    return "".join(marks) or unit


def _telling(r: Reading, skip: set[int]) -> dict[str, set[int]]:
    """The telling words of a reading (lemma -> token indices), its figures' own tokens left out."""
    out: dict[str, set[int]] = {}
    for t in r.tokens:
        if t.i in skip or t.pos not in _TELLING or not any(c.isalnum() for c in t.text):
            continue
        out.setdefault(t.lemma, set()).add(t.i)
    return out


# a claim with more figures than this is a summary of many facts, not one figure's pairing
_MOST_FIGURES = 3


def _figures(r: Reading) -> int:
    """How many figures a reading gives, a range (`aged 7 to 9`, `10-12 years`) counting as one."""
    n = len(r.quantities)
    for q in r.quantities:
        k = max(q.tokens) + 1
        if k + 1 < len(r.tokens) and r.tokens[k].text in ("to", "-", "\u2013") and r.tokens[k + 1].pos == "NUM":
            n -= 1
    return n


def _list_figures(claim: Reading, quote: Reading) -> list[tuple[str, str, str]]:
    if len(quote.quantities) < 2 or not claim.quantities or _figures(claim) > _MOST_FIGURES:
        return []
    parts = _parts(quote)
    figure_parts: dict[int, list[Quantity]] = {}
    for q in quote.quantities:
        if _dated(quote, q):
            continue
        ps = {parts[i] for i in q.tokens if parts[i] >= 0}
        if len(ps) == 1:
            figure_parts.setdefault(ps.pop(), []).append(q)
    if len(figure_parts) < 2:
        return []
    # the subject a list says once before its first figure belongs to every part ("Guards must be
    # 600 mm high in dwellings and 1,100 mm in public buildings")
    q_skip = _figure_tokens(quote) | _shared_subject(quote)
    q_skip |= _shared_tail(quote, parts, figure_parts, q_skip)
    # the quote's telling words, each in the figure-holding parts it occurs in
    where: dict[str, set[int]] = {}
    for lemma, ids in _telling(quote, q_skip).items():
        where[lemma] = {parts[i] for i in ids if parts[i] in figure_parts}
    for t in quote.tokens:
        # a telling word the quote writes again in another part tells neither apart, whatever the tagger
        # took it for there ("to income over £125,140", its `income` tagged as a verb)
        if t.i not in q_skip and parts[t.i] in figure_parts:
            for w in {t.lemma, t.text.lower()} & where.keys():
                where[w].add(parts[t.i])
    for q in quote.quantities:  # a figure tells its part apart too ("aged 7 to 9"), an age or a date as well
        where.setdefault("#" + q.value, set()).update(parts[i] for i in q.tokens if parts[i] in figure_parts)
    out = []
    c_skip = _figure_tokens(claim)
    c_telling = _telling(claim, c_skip)
    c_parts = _parts(claim)
    # a claim that is itself a list pairs each of its figures with its own part's words
    c_list = len({p for q in claim.quantities for p in {c_parts[i] for i in q.tokens} if p >= 0}) > 1
    for cq in claim.quantities:
        if _dated(claim, cq):
            continue
        own = {c_parts[i] for i in cq.tokens}
        mine = {k for k, ids in c_telling.items() if not c_list or any(c_parts[i] in own for i in ids)}
        homes = [p for p, qs in figure_parts.items() if any(q.value == cq.value and _kind(quote, q) == _kind(claim, cq)
                                                            for q in qs)]
        if len(homes) != 1:
            continue
        home = homes[0]
        keys = mine | {"#" + q.value for q in claim.quantities
                       if q is not cq and (not c_list or any(c_parts[i] in own for i in q.tokens))}
        # the claim's words that belong to exactly one part of the list
        told = {k: next(iter(where[k])) for k in keys if len(where.get(k, ())) == 1}
        if not told or any(p == home for p in told.values()):
            continue
        kind = _kind(claim, cq)
        for p in sorted(set(told.values())):
            if _sentence_of(quote, parts, p) != _sentence_of(quote, parts, home):
                continue  # a list is one sentence: a figure of another sentence is another fact
            rivals = [q for q in figure_parts[p] if q.value != cq.value and _kind(quote, q) == kind]
            rivals.sort(key=lambda q: _unit(quote, q) != _unit(claim, cq))
            rival = rivals[0] if rivals else None
            if rival is None:
                continue
            # the deciding words as the claim writes them, in its order
            figures = {"#" + q.value: q for q in claim.quantities}
            said = sorted((min(c_telling[k]), claim.tokens[min(c_telling[k])].text) if k in c_telling else
                          (min(figures[k].tokens), figures[k].shown) if k in figures else
                          (len(claim.tokens), k.lstrip("#")) for k, v in told.items() if v == p)
            words: list[str] = []
            for n, (i, w) in enumerate(said):  # words side by side read as one phrase
                if n and i == said[n - 1][0] + 1:
                    words[-1] += " " + w
                else:
                    words.append(w)
            theirs = next(q for q in figure_parts[home] if q.value == cq.value)
            out.append((f"{cq.shown} with {', '.join(words)}", f"{rival.shown} with {', '.join(words)}",
                        f"claim gives {cq.shown} for {quoted(', '.join(words))}; the quote gives {rival.shown} there"
                        f" ({quoted(_part_text(quote, parts, p))}) and {theirs.shown} for another part"
                        f" ({quoted(_part_text(quote, parts, home))})"))
            break
    return out


def _shared_subject(r: Reading) -> set[int]:
    """The tokens of each sentence's subject when it comes before the sentence's first figure."""
    first: dict[int, int] = {}
    for q in r.quantities:
        i = min(q.tokens)
        first[r.tokens[i].sent] = min(first.get(r.tokens[i].sent, i), i)
    out: set[int] = set()
    for t in r.tokens:
        if t.dep in ("nsubj", "nsubjpass") and r.tokens[t.head].dep == "ROOT" and t.i < first.get(t.sent, -1):
            todo = [t.i]
            while todo:
                k = todo.pop()
                out.add(k)
                todo.extend(r.kids[k])
    return {i for i in out if i < first.get(r.tokens[i].sent, -1)}


def _shared_tail(r: Reading, parts: list[int], figure_parts: dict[int, list[Quantity]], skip: set[int]) -> set[int]:
    """The words after the last part's figure when no other part has words after its own figure: a
    trailing adjunct of a list says once what holds for every part ("opens at 06:00 and closes at 22:00
    every weekday"), where parts that each end in their own words are parallel ("600 mm in dwellings and
    1,100 mm in public buildings")."""
    # the noun a figure's unit is compounded onto is the figure's own ("a 1-minute break"), not a tail
    own = {r.tokens[q.measures].head for qs in figure_parts.values() for q in qs
           if q.measures is not None and r.tokens[q.measures].dep == "compound"}

    def after(p: int) -> list[int]:
        end = max(i for q in figure_parts[p] for i in q.tokens)
        return [t.i for t in r.tokens if t.i > end and parts[t.i] == p and t.pos in _TELLING and t.i not in skip
                and t.i not in own and any(c.isalnum() for c in t.text)]
    order = sorted(figure_parts)
    last = order[-1]
    if any(after(p) for p in order[:-1]):
        return set()
    return set(after(last))


def _sentence_of(r: Reading, parts: list[int], p: int) -> int:
    return next(r.tokens[i].sent for i, x in enumerate(parts) if x == p)


def _figure_tokens(r: Reading) -> set[int]:
    """The tokens of every figure with the noun it measures ("30 minutes"), and numbers."""
    out = {i for q in r.quantities for i in q.tokens}
    out |= {q.measures for q in r.quantities if q.measures is not None}
    out |= {t.i for t in r.tokens if t.pos == "NUM"}
    # and what bounds a number ("at least 900", "up to 30"): the figure's, not a group's
    todo = [c for i in list(out) for c in r.kids[i] if r.tokens[c].dep in ("advmod", "quantmod")]
    while todo:
        k = todo.pop()
        out.add(k)
        todo.extend(r.kids[k])
    return out


def _dated(r: Reading, q: Quantity) -> bool:
    return any(r.tokens[i].ent == "DATE" for i in q.tokens)


def _part_text(r: Reading, parts: list[int], p: int) -> str:
    ids = [i for i, x in enumerate(parts) if x == p]
    return " ".join(r.shown(ids).split())


_NP = frozenset({"amod", "compound", "nmod", "poss", "nummod", "flat", "det"})


def _np(r: Reading, head: int) -> list[int]:
    """The tokens of the noun phrase a head heads, its own modifiers only (not what a
    preposition or a clause attaches to it)."""
    ids, todo = [], [head]
    while todo:
        k = todo.pop()
        ids.append(k)
        todo.extend(c for c in r.kids[k] if r.tokens[c].dep in _NP)
    return ids


def _phrase(r: Reading, head: int) -> frozenset[str]:
    ids = _np(r, head)
    return frozenset(r.tokens[i].lemma for i in ids
                     if r.tokens[i].pos in ("NOUN", "PROPN", "ADJ", "NUM") and any(c.isalnum() for c in r.tokens[i].text))


def _roles(r: Reading, c: Clause) -> list[tuple[frozenset[str], frozenset[str], int, int]]:
    """(doer's phrase, undergoer's phrase, their heads) of a clause: the subject and the direct object of
    an active clause; the agent (`by` ...) and the subject of a passive one, which says the same roles
    the other way round ("Algal blooms are caused by the loss of fish": the loss of fish causes them)."""
    if any(r.tokens[k].dep in ("nsubjpass", "auxpass") for k in r.kids[c.predicate]):
        undergoers = [s for s in c.subjects if r.tokens[s].dep == "nsubjpass"]
        doers = [g for k in r.kids[c.predicate] if r.tokens[k].dep == "agent"
                 for g in r.kids[k] if r.tokens[g].dep == "pobj"]
        return [(a, b, d, u) for d in doers for u in undergoers
                if (a := _phrase(r, d)) and (b := _phrase(r, u)) and a != b]
    subs = [s for s in c.subjects if r.tokens[s].dep == "nsubj"]
    objs = [o for o in c.objects if r.tokens[o].dep == "dobj"]
    out = []
    for s in subs:
        for o in objs:
            a, b = _phrase(r, s), _phrase(r, o)
            if a and b and a != b:
                out.append((a, b, s, o))
    return out


def _swapped(claim: Reading, quote: Reading) -> list[tuple[str, str, str]]:
    out = []
    for c in claim.clauses:
        if c.lemma in _SYMMETRIC:
            continue
        theirs = [(q, x) for q in quote.clauses if q.lemma == c.lemma for x in _roles(quote, q)]
        if not theirs:
            continue
        for a, b, s, o in _roles(claim, c):
            if any(x[0] == a and x[1] == b for _, x in theirs):
                continue
            back = next(((q, x) for q, x in theirs if x[0] == b and x[1] == a), None)
            if back is None:
                continue
            q, x = back
            said, back_said = _said(claim, c, s, o), _said(quote, q, x[2], x[3])
            out.append((said, back_said, f"claim says {quoted(said)}; the quote has the roles the other way round:"
                                         f" {quoted(back_said)}"))
    return out


def _said(r: Reading, c: Clause, doer: int, undergoer: int) -> str:
    """The clause from its first role to its last, as written ("the insurer reimburses the policyholder",
    "Algal blooms are caused by the loss of fish")."""
    ids = r.subtree(doer) + r.subtree(undergoer) + [c.predicate]
    return r.shown(ids)


_PRONOUNS = frozenset("i you he she it we they this that these those who which one someone anyone".split())


def _definite(r: Reading, head: int) -> bool:
    """A common noun under `the`, `this` or a possessive: it may point to one named elsewhere."""
    return r.tokens[head].pos == "NOUN" and any(k.dep in ("det", "poss") and k.lemma in (
        "the", "this", "that", "these", "those", "its", "their", "his", "her") for k in r.children(head))


def _other_doer(claim: Reading, quote: Reading) -> list[tuple[str, str, str]]:
    out = []
    for c in claim.clauses:
        if c.negation or c.lemma in _SYMMETRIC:
            continue
        theirs = [(q, x) for q in quote.clauses if q.lemma == c.lemma and not q.negation for x in _roles(quote, q)]
        if not theirs:
            continue
        for a, b, s, o in _roles(claim, c):
            same_thing = [(q, x) for q, x in theirs if x[1] == b]
            if not same_thing or any(a & {quote.tokens[j].lemma for j in quote.subtree(x[2])} for _, x in same_thing):
                continue  # the quote gives the deed to the claim's doer, or to a phrase naming it ("the labels of
                # plant-based milks include" for "plant-based milks include")
            if any(quote.tokens[x[2]].lemma in _PRONOUNS for _, x in same_thing):
                continue
            if claim.tokens[s].pos == "PROPN" and any(_definite(quote, x[2]) for _, x in same_thing):
                continue  # "Lordstown will recall" against "the company will recall": the same one, named
            # the quote names the claim's doer in a clause of its own
            elsewhere = [k for q2 in quote.clauses if q2.lemma != c.lemma or q2.negation
                         for k in q2.subjects if _phrase(quote, k) == a]
            if not elsewhere:
                continue
            q, x = same_thing[0]
            said, theirs_said = _said(claim, c, s, o), _said(quote, q, x[2], x[3])
            out.append((said, theirs_said, f"claim says {quoted(said)}; the quote gives it to another: "
                                           f"{quoted(theirs_said)}"))
    return out
