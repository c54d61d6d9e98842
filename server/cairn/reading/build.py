"""A spaCy `Doc` turned into a `Reading`: the clauses, quantities,
restrictions and quantifiers the meaning rules compare."""

from __future__ import annotations

from typing import Any

from .model import Clause, Quantifier, Quantity, Reading, Restriction, Token

# the heads of a clause of its own inside a sentence
_CLAUSE_DEPS = frozenset("ROOT conj advcl ccomp xcomp relcl acl pcomp csubj parataxis".split())
_SUBJ = frozenset("nsubj nsubjpass csubj csubjpass expl".split())
_OBJ = frozenset("dobj attr oprd dative acomp".split())
_REQUIRED_MODALS = frozenset("must shall".split())
_OPTIONAL_MODALS = frozenset("may can could might".split())
# verbs whose infinitive complement they make required or optional ("required to pay", "can choose to be paid")
_REQUIRING = frozenset("require oblige need have compel force".split())
_OPTING = frozenset("choose opt allow permit elect prefer".split())
_UNIVERSAL = frozenset("every all each any".split())
_EXISTENTIAL = frozenset("some several many few most one either".split())
_NARROWING_PREPS = frozenset("with without over under above below aged between".split())
_CONDITION_MARKS = frozenset("if unless provided providing".split())
# adverbs that open a clause of condition before what it limits ("Where skies stay clear, …", "Once opened, …")
_CONDITION_ADVERBS = frozenset("where wherever whenever once".split())
_EXCEPTIONS = frozenset("except excluding besides".split())
_BINDING_PREPS = frozenset("for per of to on".split())


def build(doc: Any) -> Reading:
    tokens = []
    sent_of: dict[int, int] = {}
    sentences = []
    for n, s in enumerate(doc.sents):
        sentences.append((s.start, s.end))
        for k in range(s.start, s.end):
            sent_of[k] = n
    for t in doc:
        tokens.append(Token(t.i, t.text, t.lemma_.lower(), t.pos_, t.tag_, t.dep_, t.head.i, t.idx,
                            t.idx + len(t.text), t.ent_type_, sent_of.get(t.i, 0)))
    kids: list[list[int]] = [[] for _ in tokens]
    for t in tokens:
        if t.head != t.i:
            kids[t.head].append(t.i)
    partial = Reading(doc.text, tuple(tokens), tuple(sentences), (), (), (), (), tuple(tuple(k) for k in kids))
    return Reading(partial.text, partial.tokens, partial.sentences, tuple(_clauses(partial)),
                   tuple(_quantities(partial)), tuple(_restrictions(partial)), tuple(_quantifiers(partial)),
                   partial.kids)


def _is_clause_head(r: Reading, t: Token) -> bool:
    if t.pos not in ("VERB", "AUX"):
        return False
    # a verb with a subject of its own heads a clause wherever the parser attached it
    return t.dep in _CLAUSE_DEPS or any(r.tokens[k].dep in _SUBJ for k in r.kids[t.i])


def _clauses(r: Reading) -> list[Clause]:
    heads = [t for t in r.tokens if _is_clause_head(r, t)]
    stops = frozenset(t.i for t in heads)
    out = []
    for v in heads:
        kids = r.children(v.i)
        # a copula's predicate is its complement ("is [thread-safe]"); negation and modals sit on the verb
        pred = v
        if v.lemma == "be":
            comp = next((k for k in kids if k.dep in ("acomp", "attr")), None)
            if comp is not None:
                pred = comp
        negation = next((k.text for k in kids if k.dep == "neg"), "") or _no_longer(r, kids)
        subjects = [k.i for k in kids if k.dep in _SUBJ]
        if not subjects and v.dep in ("conj", "xcomp") and v.head != v.i:
            # "… and [is] paid", "choose to be paid": the subject is the governing verb's
            subjects = [k.i for k in r.children(v.head) if k.dep in _SUBJ]
        for s in list(subjects):
            subjects += [k.i for k in r.children(s) if k.dep == "conj"]
        objects = [k.i for k in kids if k.dep in _OBJ and k.i != pred.i]
        if not negation:
            negation = _negated_argument(r, subjects + objects)
        if not negation and v.dep == "xcomp" and v.head != v.i:
            # "does not need to read", "refused to approve": the governing verb's negation reaches its complement
            h = r.tokens[v.head]
            negation = next((k.text for k in r.children(h.i) if k.dep == "neg"), "") or \
                (h.text if h.lemma in _NEGATING_VERBS else "")
        for k in kids:
            if k.dep in ("prep", "agent"):
                objects += [g.i for g in r.children(k.i) if g.dep == "pobj"]
        if pred is not v:
            for k in r.children(pred.i):
                if k.dep == "prep":
                    objects += [g.i for g in r.children(k.i) if g.dep == "pobj"]
        modality, modal = _modality(r, v)
        own = r.subtree(v.i, stop=stops - {v.i})
        out.append(Clause(pred.i, pred.lemma, negation, modality, modal, tuple(subjects), tuple(objects),
                          tuple(own)))
    return out


def _no_longer(r: Reading, kids: list[Token]) -> str:
    """A negation the parser hangs on an adverb of the verb ("no longer stops", "not any more"): what
    held before holds no more, so the clause denies it now."""
    for k in kids:
        if k.dep == "advmod" and k.lemma in ("long", "longer", "more", "anymore") and not any(
                t.lemma == "than" for t in r.tokens[k.i + 1:k.i + 2]):  # "no longer than 30 minutes": a bound
            neg = next((g for g in r.children(k.i) if g.dep == "neg" or g.lemma == "no"), None)
            if neg is not None:
                return r.shown(sorted((neg.i, k.i)))
    return ""


_NEGATIVE_WORDS = frozenset("nobody nothing none neither nowhere".split())
_NEGATING_VERBS = frozenset("refuse decline fail cease stop avoid neglect".split())


def _negated_argument(r: Reading, args: list[int]) -> str:
    """The negating word of an argument, as written: "Nobody", "no [password]", "Neither [the name …]"."""
    for a in args:
        t = r.tokens[a]
        if t.lemma in _NEGATIVE_WORDS or (t.lemma == "one" and a > 0 and r.tokens[a - 1].lemma == "no"):
            return t.text
        for k in r.children(a):
            if (k.dep == "det" and k.lemma in ("no", "neither")) or (k.dep == "preconj" and k.lemma == "neither"):
                return k.text
    return ""


def _modality(r: Reading, v: Token) -> tuple[str, str]:
    """Whether a verb is stated as required or optional, and the words that say it."""
    kids = r.children(v.i)
    for k in kids:
        if k.tag == "MD" or k.lemma in ("must", "shall"):
            if k.lemma in _REQUIRED_MODALS:
                return "required", r.shown([k.i, v.i])
            if k.lemma in _OPTIONAL_MODALS:
                return "optional", r.shown([k.i, v.i])
    if v.dep == "xcomp" and v.head != v.i:
        h = r.tokens[v.head]
        if h.lemma in _OPTING:
            outer = next((k for k in r.children(h.i) if k.tag == "MD"), None)
            return "optional", r.shown([outer.i if outer is not None else h.i, v.i])
        if h.lemma in _REQUIRING and (h.lemma != "have" or any(k.dep == "aux" and k.lemma == "to"
                                                               for k in r.children(v.i))):
            hedge = next((k for k in r.children(h.i) if k.tag == "MD" and k.lemma in ("may", "might", "could")), None)
            if hedge is not None:
                # "may need to avoid": a requirement that may or may not hold, which "must avoid" overstates
                return "possible", r.shown([hedge.i, h.i, v.i])
            return "required", r.shown([h.i, v.i])
        if h.lemma in ("able",):
            return "optional", r.shown([h.i, v.i])
        # "be required to pay", "be allowed to pay": the passive participle governs
    if v.dep == "xcomp" and r.tokens[v.head].tag == "VBN":
        h = r.tokens[v.head]
        if h.lemma in ("require", "oblige", "compel"):
            return "required", r.shown([h.i, v.i])
        if h.lemma in ("allow", "permit"):
            return "optional", r.shown([h.i, v.i])
    return "", ""


def _quantities(r: Reading) -> list[Quantity]:
    out = []
    used: set[int] = set()
    nums = [t for t in r.tokens if t.pos == "NUM" or (t.tag == "CD" and any(c.isdigit() for c in t.text))]
    num_ids = {t.i for t in nums}
    for t in nums:
        if t.i in used:
            continue
        group = [t.i]
        used.add(t.i)
        # a sign or a currency right before it, a unit or % right after
        if t.i > 0 and r.tokens[t.i - 1].tag == "$":
            group.insert(0, t.i - 1)
        nxt = t.i + 1
        while nxt < len(r.tokens) and r.tokens[nxt].i in num_ids and r.tokens[nxt].head == t.i:
            group.append(nxt)
            used.add(nxt)
            nxt += 1
        measures = t.head if t.dep in ("nummod", "quantmod") and r.tokens[t.head].pos in ("NOUN", "PROPN") else None
        value = t.text.replace(",", "")
        shown = r.shown(group + ([measures] if measures is not None and measures == group[-1] + 1 else []))
        out.append(Quantity(tuple(group), shown, value, measures, _bound(r, t, group, measures, num_ids)))
    return out


def _bound(r: Reading, t: Token, group: list[int], measures: int | None, nums: set[int]) -> tuple[int, ...]:
    """The phrase a quantity is given for: the first `for`/`per`/`of`/`to`/`on` phrase
    within a few words after it (past its unit and a rate such as `a week`), cut before
    the next quantity and its conjunction."""
    last = max(group + ([measures] if measures is not None and measures > group[-1] else []))
    sent_end = r.sentences[t.sent][1]
    k = last + 1
    while k < min(sent_end, last + 5):
        w = r.tokens[k]
        if w.i in nums or w.pos in ("VERB", "AUX") or w.text in (";", ":", "(", ")"):
            return ()
        if w.pos == "ADP" and w.lemma in _BINDING_PREPS:
            obj = next((g for g in r.kids[w.i] if r.tokens[g].dep == "pobj"), None)
            if obj is None:
                return ()
            phrase = []
            for g in r.subtree(obj):
                tok = r.tokens[g]
                if g in nums or tok.tag == "$" or tok.text in (";", ":", ",", "(", ")") or \
                        (tok.pos == "CCONJ" and any(x in nums for x in range(g + 1, min(g + 3, sent_end)))):
                    break
                phrase.append(g)
            return tuple(phrase)
        k += 1
    return ()


def _restrictions(r: Reading) -> list[Restriction]:
    out = []
    for t in r.tokens:
        if t.pos in ("NOUN", "PROPN"):
            for k in r.children(t.i):
                if k.dep == "prep" and k.lemma in _NARROWING_PREPS:
                    ids = r.subtree(k.i)
                    out.append(Restriction(t.i, "with", tuple(ids), r.shown([t.i, *ids])))
                elif k.dep == "prep" and k.lemma in _EXCEPTIONS:
                    ids = r.subtree(k.i)
                    out.append(Restriction(t.i, "exception", tuple(ids), r.shown(ids)))
                elif k.dep in ("relcl", "acl") and k.pos == "VERB":
                    ids = r.subtree(k.i)
                    out.append(Restriction(t.i, "relative", tuple(ids), r.shown([t.i, *ids])))
                elif k.lemma == "only" and k.dep == "advmod":
                    out.append(Restriction(t.i, "only", (k.i, t.i), r.shown([k.i, t.i])))
        if t.pos in ("VERB", "AUX"):
            for k in r.children(t.i):
                if k.dep == "advcl":
                    mark = next((m for m in r.children(k.i) if m.dep == "mark"), None)
                    ids = r.subtree(k.i)
                    first = r.tokens[min(ids)]
                    opening = k.i < t.i and first.lemma.casefold() in _CONDITION_ADVERBS and first.dep in ("advmod", "mark")
                    if (mark is not None and mark.lemma in _CONDITION_MARKS) or opening:
                        out.append(Restriction(t.i, "condition", tuple(ids), r.shown(ids)))
                elif k.dep == "prep" and k.lemma in _EXCEPTIONS:
                    ids = r.subtree(k.i)
                    out.append(Restriction(t.i, "exception", tuple(ids), r.shown(ids)))
                elif k.lemma == "only" and k.dep == "advmod":
                    out.append(Restriction(t.i, "only", (k.i,), k.text))
    return out


def _quantifiers(r: Reading) -> list[Quantifier]:
    out = []
    for t in r.tokens:
        if t.dep in ("det", "predet", "amod", "nummod") and t.lemma in (_UNIVERSAL | _EXISTENTIAL):
            head = r.tokens[t.head]
            if head.pos in ("NOUN", "PROPN"):
                out.append(Quantifier(t.i, head.i, t.lemma in _UNIVERSAL))
        elif t.lemma in (_UNIVERSAL | _EXISTENTIAL) and t.pos in ("PRON", "ADJ", "NOUN") and t.dep != "det":
            # "all of the segments", "most of the fans": the word quantifies the object of its `of`
            of = next((k for k in r.children(t.i) if k.dep == "prep" and k.lemma == "of"), None)
            obj = next((k for k in r.children(of.i) if k.dep == "pobj"), None) if of is not None else None
            if obj is not None and obj.pos == "NOUN":
                out.append(Quantifier(t.i, obj.i, t.lemma in _UNIVERSAL))
    return out
