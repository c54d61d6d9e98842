"""Three rules of how English lists, places and counts things, over the reader's structure:

- **Only a part of the list** (`context-limits`): the claim says only the
  things it lists do something (`Only cars and vans need a permit`) where the
  quote's clause on the same predicate lists those things and more (`All
  vehicles, including cars, vans and motorcycles, need a permit`).
- **A place given to another thing** (`relation-mismatch`): the claim puts a
  thing in a place (`The swimming pool is on the roof`) where the quote's
  clauses on the same predicate put it in another place and another thing in
  the claim's (`The swimming pool is in the basement; the bar is on the roof`).
- **Any one against at least two** (`context-limits`): one of the things is
  enough in the claim (`any of these signs`) where the quote asks for at
  least two (`two or more of these signs`, `at least two signs`).
"""

from __future__ import annotations

from ...reading.model import Reading
from ..lexicon import NUMBER_WORDS
from .limits import Limit
from .relation import RelationMismatch, is_name
from .words import clause_at, quoted

_PLACES = frozenset("on in at under above below beside inside near behind outside".split())


def _items(r: Reading, i: int) -> list[int]:
    """A noun and the nouns joined to it by `and`/`or`/commas (its conjuncts), in text order."""
    out, todo = [], [i]
    while todo:
        k = todo.pop()
        out.append(k)
        todo += [g for g in r.kids[k] if r.tokens[g].dep == "conj"]
    return sorted(out)


def _clause_of(r: Reading, i: int) -> str | None:
    own = clause_at(r, i)
    return own.lemma if own is not None else None


def only_listed(claim: Reading, quote: Reading) -> list[Limit]:
    if any(t.lemma == "only" for t in quote.tokens):
        return []  # the quote limits a list of its own: the `only` rules compare the two
    out = []
    for x in claim.restrictions:
        if x.kind != "only" or claim.tokens[x.target].pos not in ("NOUN", "PROPN"):
            continue
        mine = _items(claim, x.target)
        names = {claim.tokens[k].lemma for k in mine}
        pred = _clause_of(claim, x.target)
        for t in quote.tokens:
            if t.dep == "conj" or not any(quote.tokens[g].dep == "conj" for g in quote.kids[t.i]):
                continue  # the first item of a list
            theirs = _items(quote, t.i)
            listed = {quote.tokens[k].lemma for k in theirs}
            if not names < listed or pred is None or _clause_of(quote, t.i) != pred:
                continue
            more = [k for k in theirs if quote.tokens[k].lemma not in names]
            said = claim.shown([x.tokens[0], *mine])
            extra = quote.shown(more) if len(more) == 1 else ", ".join(quote.tokens[k].text for k in more)
            out.append(Limit("only-list", said, extra, f"claim says {quoted(said)}; the quote's list also names "
                                                       f"{quoted(extra)}"))
            return out
    return out


def _placed(r: Reading) -> list[tuple[str, str, str, int, int]]:
    """(predicate lemma, subject lemma, place lemma, subject token, preposition token) of each clause
    that puts its subject in a place (`is on the roof`, `hangs in Room 12`)."""
    out = []
    for c in r.clauses:
        for k in r.kids[c.predicate]:
            prep = r.tokens[k]
            if prep.dep != "prep" or prep.lemma not in _PLACES:
                continue
            place = next((g for g in r.kids[k] if r.tokens[g].dep == "pobj"), None)
            if place is None:
                continue
            for s in c.subjects:
                if is_name(r.tokens[s]) and is_name(r.tokens[place]):
                    continue  # a name against a name: the entity rule reads it ("Basel lies on the Rhine")
                out.append((c.lemma, r.tokens[s].lemma, r.tokens[place].lemma, s, k))
    return out


def placed_elsewhere(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    theirs = _placed(quote)
    if len(theirs) < 2:
        return []
    for pred, subj, place, s, k in _placed(claim):
        same = [p for p in theirs if p[0] == pred]
        if any(p[1] == subj and p[2] == place for p in same):
            continue
        own = next((p for p in same if p[1] == subj and p[2] != place), None)
        other = next((p for p in same if p[1] != subj and p[2] == place), None)
        if own is None or other is None:
            continue
        mine = claim.shown([*claim.subtree(s), *claim.subtree(k)])
        where = quote.shown([*quote.subtree(own[3]), *quote.subtree(own[4])])
        there = quote.shown([*quote.subtree(other[3]), *quote.subtree(other[4])])
        return [RelationMismatch(mine, where, f"claim says {quoted(mine)}; the quote says {quoted(where)} and "
                                              f"{quoted(there)}")]
    return []


_ANY = frozenset("any one either".split())


def _count(text: str) -> int | None:
    low = text.casefold()
    return int(low) if low.isdigit() else int(NUMBER_WORDS[low]) if low in NUMBER_WORDS else None


def _of(r: Reading, i: int) -> int | None:
    """The noun a word counts: its `of` object (`two of these signs`) or the noun it modifies (`any sign`)."""
    for k in r.kids[i]:
        if r.tokens[k].dep == "prep" and r.tokens[k].lemma == "of":
            return next((g for g in r.kids[k] if r.tokens[g].dep == "pobj"), None)
    t = r.tokens[i]
    return t.head if t.dep in ("det", "nummod", "amod") and t.head != i else None


def threshold(claim: Reading, quote: Reading) -> list[Limit]:
    """`if your pet shows any of these signs` against `two or more of these signs`: one is enough in the
    claim where the quote asks for at least two of the same things."""
    for t in claim.tokens:
        if t.text.casefold() not in _ANY or (noun := _of(claim, t.i)) is None:
            continue
        thing = claim.tokens[noun].lemma
        for n in quote.tokens:
            k = _count(n.text)
            if k is None or k < 2 or (theirs := _of(quote, n.i)) is None or quote.tokens[theirs].lemma != thing:
                continue
            ids = list(range(n.i, theirs + 1)) if theirs > n.i else [n.i]
            words = [w.text.casefold() for w in quote.tokens[max(0, n.i - 2):theirs + 1]]
            pairs = set(zip(words, words[1:]))
            if not (("or", "more") in pairs or ("at", "least") in pairs):
                continue  # `two of these signs` names which, `two more examples` adds; neither says how many suffice
            said = claim.shown(list(range(t.i, noun + 1)) if noun > t.i else [t.i, noun])
            shown = quote.shown([*(i for i in range(max(0, n.i - 2), n.i) if quote.tokens[i].text.casefold()
                                   in ("at", "least")), *ids])
            return [Limit("threshold", said, shown, f"claim says {quoted(said)}; the quote says {quoted(shown)}")]
    return []


_LISTED = frozenset("NOUN PROPN ADJ".split())


def _lists(r: Reading) -> list[list[int]]:
    """Each list of nouns, names or adjectives joined by `and`/`or`/commas (two members or more), in text order."""
    return [items for t in r.tokens if t.dep != "conj" and t.pos in _LISTED
            and len(items := [i for i in _items(r, t.i) if r.tokens[i].pos in _LISTED]) >= 2]


def added_to_list(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    """`available in English, French, German and Spanish` against `available in English, French and German`:
    the claim's list holds the quote's list (two of its members at least) and a member the quote never names.
    A list in the quote's own sentence that names the member elsewhere, or a member written otherwise,
    leaves the claim alone."""
    theirs = _lists(quote)
    if not theirs:
        return []
    named = {t.lemma for t in quote.tokens} | {t.text.casefold() for t in quote.tokens}
    for items in _lists(claim):
        mine = {claim.tokens[i].lemma for i in items}
        for other in theirs:
            same = mine & {quote.tokens[i].lemma for i in other}
            if len(same) < 2 or len(same) != len(other):
                continue  # the claim's list holds every member of the quote's list
            # a member none of whose words the quote names (`social media guidance` for `Social Media
            # Management` is the quote's member reworded)
            added = [i for i in items if not any(
                claim.tokens[k].lemma in named or claim.tokens[k].text.casefold() in named
                for k in claim.subtree(i, stop=frozenset(items) - {i}) if claim.tokens[k].pos in _LISTED)]
            if added:
                said, shown = claim.shown(items), quote.shown(other)
                extra = ", ".join(claim.tokens[i].text for i in added)
                return [RelationMismatch(said, shown, f"claim lists {quoted(said)}; the quote lists {quoted(shown)}"
                                                      f", without {quoted(extra)}")]
    return []


def _example_preps(r: Reading) -> list[int]:
    """The prepositions that open a phrase of examples: `like`, `such as`, `including`, `e.g.`."""
    out = []
    for t in r.tokens:
        if t.dep != "prep":
            continue
        low = t.text.casefold()
        if low in ("like", "including") or low == "as" and t.i and r.tokens[t.i - 1].text.casefold() == "such":
            out.append(t.i)
    return out


def examples_added(claim: Reading, quote: Reading) -> list[RelationMismatch]:
    """`financial information, like earnings and income` where the quote names neither: examples are things
    the claim states to be among what it speaks of, and the quote gives none of them. Each example is read as
    its words (`free parking`); one that shares a word with the quote may be the quote's, said otherwise."""
    named = {t.lemma for t in quote.tokens} | {t.text.casefold() for t in quote.tokens}
    for p in _example_preps(claim):
        heads = [k for k in claim.kids[p] if claim.tokens[k].dep == "pobj"]
        if not heads:
            continue
        items = _items(claim, heads[0])
        if not all(claim.tokens[i].pos in _LISTED for i in items):
            continue
        words = {claim.tokens[k].lemma for i in items for k in claim.subtree(i, stop=frozenset(items) - {i})
                 if claim.tokens[k].pos in _LISTED}
        if words and not any(w in named for w in words) and not any(
                claim.tokens[k].text.casefold() in named for i in items for k in claim.subtree(i)
                if claim.tokens[k].pos in _LISTED):
            first = p - 1 if claim.tokens[p].text.casefold() == "as" else p  # `such as`
            said = claim.shown([first, *[k for i in items for k in claim.subtree(i)]])
            target = claim.tokens[claim.tokens[p].head]
            return [RelationMismatch(said, "", f"claim gives {quoted(said)} as examples of "
                                               f"{quoted(target.text)}; the quote names none of them")]
    return []
