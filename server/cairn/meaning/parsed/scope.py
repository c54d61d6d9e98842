"""Negation with its scope (`contradiction`): a clause of the claim and the
quote's clause on the same predicate, with the same subject, differ in
negation. Read by clause, a negation elsewhere in either text (`so no special
rules are needed`) does not cancel it: "libffi is completely thread-safe"
against "libffi is not completely thread-safe". A clause a sentence only
reports ("was claimed to be fixed", "users believe that …") is not compared.

Tense the same way: a clause the claim states as done (`was renovated`, `has
opened`) where the quote's clause on the same predicate and subject says it
will be (`will be renovated`), or the reverse, says it happened when the quote
says it is still to come."""

from __future__ import annotations

from dataclasses import dataclass

from ...reading.model import Clause, Reading
from ..lexicon import DENYING_LEMMAS
from ..polarity import read as polar_read
from .limits import _denied_modality
from .words import aligned, best, content


@dataclass(frozen=True, slots=True)
class ScopedNegation:
    claim: str
    quote: str
    message: str


def _shown(r: Reading, c: Clause) -> str:
    """The clause's verb group with its predicate ("is not completely thread-safe")."""
    verb = r.tokens[c.predicate]
    head = r.tokens[verb.head] if verb.dep in ("acomp", "attr") else verb
    ids = [head.i, c.predicate] + [k for k in r.kids[head.i] if r.tokens[k].dep in ("neg", "aux", "auxpass", "advmod")
                                   and abs(k - head.i) <= 3]
    ids += [k for k in r.subtree(c.predicate) if k < c.predicate]
    return r.shown(ids)


# verbs whose complement a sentence reports, believes or expects rather than states
_REPORTING = frozenset("claim say believe think report allege expect hope seem appear suppose rumour rumor "
                       "suggest wish want try plan intend".split())


def _reported(r: Reading, c: Clause) -> bool:
    """Whether the clause is the complement of a reporting verb ("claimed to be fixed", "believe that …")."""
    v = r.tokens[c.predicate]
    if v.dep in ("acomp", "attr"):
        v = r.tokens[v.head]
    return v.dep in ("xcomp", "ccomp") and r.tokens[v.head].lemma in _REPORTING


# verbs and adjectives that deny their clause or the clause they take ("are forbidden to share", "are
# exempt from paying", "failed to arrive", "refrain from smoking"): a no without a negation
_DENYING = DENYING_LEMMAS


# the nouns of an adverbial `no` that denies its whole clause ("at no time", "under no circumstances", "on no account")
_NO_WHEN = frozenset("time circumstance account point stage case condition".split())


def _denied(r: Reading, c: Clause) -> bool:
    """Whether a word that denies (_DENYING) holds the clause: its predicate, or the verb or adjective
    whose complement it is, one or two steps up (`forbidden` of `to share`, `exempt` of `from paying`)."""
    scope = list(c.tokens)
    top = r.tokens[c.predicate]
    if top.dep in ("ccomp", "xcomp", "acomp", "attr") and top.head != top.i:
        scope += [g for k in r.kids[top.head] if r.tokens[k].dep == "prep" for g in r.subtree(k)]
    if any(r.tokens[i].lemma == "no" and r.tokens[i].dep == "det" and r.tokens[r.tokens[i].head].lemma in _NO_WHEN
           for i in scope):
        return True  # "At no time is the car park locked": never
    t = r.tokens[c.predicate]
    for _ in range(3):
        if t.lemma.lower() in _DENYING or t.text.lower().startswith("non-"):
            return True
        if t.dep not in ("xcomp", "pcomp", "pobj", "prep", "acomp", "attr") or t.head == t.i:
            return False
        t = r.tokens[t.head]
    return False


_NEGATORS = frozenset("not n't never no cannot neither nor".split())


def _negated(r: Reading, c: Clause) -> bool:
    """The clause's polarity: its negation, turned by a word that denies (`not forbidden` allows). A negation
    the reader took from a word that denies (`stops running`) is that word, not a second denial."""
    denied = _denied(r, c)
    if not c.negation:
        return denied
    if set(c.negation.casefold().split()) & _NEGATORS:
        return not denied
    return True


def _until(r: Reading, c: Clause) -> bool:
    return any(r.tokens[k].lemma in ("until", "till", "unless") for k in c.tokens)


def _span(r: Reading, c: Clause) -> tuple[int, int]:
    return min(r.tokens[k].start for k in c.tokens), max(r.tokens[k].end for k in c.tokens)


def _bounds_turned(claim: Reading, c: Clause, quote: Reading, q: Clause) -> bool:
    """Whether the two clauses bound the same number the opposite ways (`more than 30` against `a maximum
    of thirty`): a negation and the opposite bound say the same, as "not more than" is "at most"."""
    (a0, a1), (b0, b1) = _span(claim, c), _span(quote, q)
    mine = [d for d in polar_read(claim.text).directions if a0 <= d.start < a1 and d.axis == "order"]
    if not mine:
        return False
    theirs = [d for d in polar_read(quote.text).directions if b0 <= d.start < b1 and d.axis == "order"]
    return any(d.anchor == e.anchor and d.sign == -e.sign != 0 for d in mine for e in theirs)


def negation_scope(claim: Reading, quote: Reading) -> list[ScopedNegation]:
    out = []
    for c in claim.clauses:
        subj = content(claim, c.subjects)
        if not subj or _until(claim, c) or _reported(claim, c):
            continue  # no subject to hold the two clauses to; "not … until" limits a time, it denies nothing
        # the same subject on both sides ("Ann and Emily" is not "Emily")
        cands = [(n, q) for n, q in aligned(claim, c, quote) if subj == content(quote, q.subjects)
                 and not _until(quote, q) and not _reported(quote, q)]
        top = best(cands)
        if not top:
            continue
        if all(_negated(quote, q) != _negated(claim, c) for q in top):
            q = top[0]
            mine = _denied_modality(c.modality, c.modal, c.negation)
            if mine and mine == _denied_modality(q.modality, q.modal, q.negation):
                continue  # "do not have to bring" leaves it open, as "may bring" does
            if _bounds_turned(claim, c, quote, q):
                continue  # "No class has more than 30" is "each class has at most 30": they cancel
            mine, theirs = _shown(claim, c), _shown(quote, q)
            if mine.casefold() == theirs.casefold():
                continue
            out.append(ScopedNegation(mine, theirs, f"claim says {mine}; quote says {theirs}"))
    return out


def _time(r: Reading, c: Clause) -> str:
    """"past" (`was renovated`, `opened`, `has opened`), "future" (`will open`, `shall be paid`) or ""."""
    verb = r.tokens[c.predicate]
    if verb.dep in ("acomp", "attr") and verb.head != verb.i:
        verb = r.tokens[verb.head]
    aux = [k for k in r.children(verb.i) if k.dep in ("aux", "auxpass")]
    if any(k.tag == "MD" and k.lemma in ("will", "shall") for k in aux):
        return "future"
    if any(k.tag == "MD" for k in aux):
        return ""  # "would", "could", "may": neither stated as done nor as to come
    if verb.tag == "VBD" or any(k.tag == "VBD" for k in aux) or (
            verb.tag == "VBN" and any(k.lemma == "have" for k in aux)):
        return "past"
    if verb.tag == "VBN" and not aux and verb.dep == "ROOT" and any(k.dep == "nsubj" for k in r.children(verb.i)):
        # a participle with a subject and no auxiliary heads no clause: the simple past the tagger took for
        # one ("The new branch opened in March")
        return "past"
    return ""


def tense_mismatches(claim: Reading, quote: Reading) -> list[ScopedNegation]:
    out = []
    for c in claim.clauses:
        mine = _time(claim, c)
        subj = content(claim, c.subjects)
        if not mine or not subj or c.negation or _reported(claim, c):
            continue
        cands = [(n, q) for n, q in aligned(claim, c, quote) if subj == content(quote, q.subjects)
                 and not _reported(quote, q) and not q.negation]
        top = best(cands)
        if top and all(_time(quote, q) not in ("", mine) for q in top):
            q = top[0]
            a, b = _shown(claim, c), _shown(quote, q)
            if a.casefold() != b.casefold():
                out.append(ScopedNegation(a, b, f"claim says {a} ({mine}); quote says {b} ({_time(quote, q)})"))
    return out


_ENDED_WORDS = frozenset("previously formerly".split())
_NOW_MODALS = frozenset("can may must shall will".split())


def _ended(r: Reading, c: Clause) -> str:
    """The words by which a clause in the past says it held until a time now gone (`Until 2025 players could
    arrive …`, `was formerly open`), or ""."""
    verb = r.tokens[c.predicate]
    if verb.dep in ("acomp", "attr") and verb.head != verb.i:
        verb = r.tokens[verb.head]
    aux = [k for k in r.children(verb.i) if k.dep in ("aux", "auxpass")]
    past = verb.tag == "VBD" or any(k.tag == "VBD" or k.lemma in ("could", "would") for k in aux)
    if not past:
        return ""
    ids = sorted(c.tokens)
    for n, i in enumerate(ids):
        t = r.tokens[i]
        if t.lemma in _ENDED_WORDS:
            return t.text
        dated = [k for k in ids[n + 1:n + 4] if r.tokens[k].ent == "DATE"]
        if t.lemma in ("until", "till") and dated:
            return r.shown([i, *dated])
    return ""


def _now(r: Reading, c: Clause) -> bool:
    """Whether a clause states what holds now (present tense, or `can`, `must`, … with the plain verb)."""
    verb = r.tokens[c.predicate]
    if verb.dep in ("acomp", "attr") and verb.head != verb.i:
        verb = r.tokens[verb.head]
    aux = [k for k in r.children(verb.i) if k.dep in ("aux", "auxpass")]
    if any(k.tag == "VBD" or k.lemma in ("could", "would", "have", "use") for k in aux):
        return False
    return verb.tag in ("VBZ", "VBP") or any(k.tag == "MD" and k.lemma in _NOW_MODALS for k in aux) \
        or any(k.tag in ("VBZ", "VBP") for k in aux)


def ended_mismatches(claim: Reading, quote: Reading) -> list[ScopedNegation]:
    """The claim states as holding now what the quote's clause on the same predicate and subject says held
    until a time now gone (`Players can arrive up to one hour late` against `Until 2025 players could arrive
    up to one hour late`)."""
    out = []
    for c in claim.clauses:
        subj = content(claim, c.subjects)
        if not subj or c.negation or _reported(claim, c) or not _now(claim, c):
            continue
        top = best([(n, q) for n, q in aligned(claim, c, quote) if subj == content(quote, q.subjects)])
        ended = [(q, w) for q in top if (w := _ended(quote, q))]
        if top and len(ended) == len(top):
            q, w = ended[0]
            a, b = _shown(claim, c), _shown(quote, q)
            out.append(ScopedNegation(a, b, f"claim says {a} (now); quote says {b} ({w})"))
    return out
