"""The meaning rules of the support check (SPEC section 4): what a lexical
score cannot see.

- `quantities`: numbers with sign and unit, ranges, dates, times and
  identifiers, and amounts written in words, as a text states them;
  `backing`: whether the quotes back a claim's (`number-mismatch`), and
  the claim as the score reads it (`restated`); `units`: when two numbers
  name the same amount; `frequency`: how often, as one rate;
- `polarity`: negation, privative prefixes, antonyms, direction and bound
  words (`contradiction`); `quantifiers`: `all` against `one of`, as a bound;
- `context`: the sentence around a verbatim quote that negates or retracts
  it (`context-negates`);
- `sentences`: the sentence boundaries the context rule and the judge use;
- `scan` (where `quantities` looks) and `lexicon` (the word classes
  `polarity` reads) serve the rules above;
- `parsed`: the rules over the sentence reader's structure (`cairn.reading`):
  a quantity or entity bound to another argument (`relation-mismatch`), a
  restriction or modality dropped (`context-limits`), negation by clause and
  a retraction after the quote; only those adopted (`ADOPTED`) fail a claim.

Each rule fails a claim whatever its score; `check()` runs them all over a
claim and its resolved evidence.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from .. import RULES_VERSION  # the rules' version, kept in the root package (cairn/__init__.py)
from ..support.words import chunks
from . import offered, quantifiers, screening
from .backing import compare
from .clauses import POSITIVE
from .context import ContextNegation, check_context, in_sentence, negation_before
from .contradicting import Contradiction, contradictions, reversed_movements
from .parsed import run as parsed
from .parsed.limits import Limit
from .parsed.relation import RelationMismatch
from .quantifiers import only_conflicts, quantifier_conflicts
from .quantities import NumberMismatch
from .sentences import sentence_around, sentence_spans

__all__ = [
    "RULES_VERSION",
    "ContextNegation",
    "Contradiction",
    "Evidence",
    "Findings",
    "NumberMismatch",
    "check",
    "plain",
    "sentence_around",
    "sentence_spans",
]


@dataclass(frozen=True, slots=True)
class Evidence:
    """One resolved quote with where it lies: the text around it (its chunk,
    as it reads now) and the title of its source."""

    quote: str
    text: str  # the chunk's text holding the quote
    start: int  # the quote's offsets in `text`
    end: int
    title: str = ""  # the source's name and first line


@dataclass(slots=True)
class Findings:
    numbers: list[NumberMismatch] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    context: list[tuple[int, ContextNegation]] = field(default_factory=list)  # (evidence index, finding)
    relations: list[RelationMismatch] = field(default_factory=list)
    limits: list[tuple[int, Limit]] = field(default_factory=list)  # (evidence index, finding)


# The structural rules that fail a claim on their own: each measured to fire on at most 5 % of the
# labelled supported rows of every development domain (bench/reader_adoption.py; docs/support.md)
ADOPTED = frozenset({"relation", "pairing", "relation-total", "relation-change", "relation-order",
                     "relation-converse", "relation-rate", "relation-than", "relation-place", "relation-unit", "relation-rank",
                     "relation-member", "relation-actor", "relation-added", "relation-roles",
                     "limits-advice", "limits-estimate", "limits-only-list", "limits-argued", "limits-threshold",
                     "limits-only-added", "limits-only-dropped", "limits-partial", "limits-either", "limits-ranked",
                     "limits-significance",
                     "limits-modality", "limits-universal", "limits-hedge", "limits-exception", "limits-condition",
                     "limits-bound", "limits-association", "limits-subject",
                     "limits-only", "limits-plan", "limits-optional", "limits-time", "limits-superlative", "limits-days",
                     "limits-for",
                     "negation-scope", "tense", "retraction"})


def check(claim: str, evidence: list[Evidence], *, polarity: bool = True, adopted: frozenset[str] = ADOPTED) -> Findings:
    """Every meaning rule over a claim and its resolved evidence, taken together;
    `polarity=False` leaves out the polarity and direction rule; `adopted`: the
    structural rules that may fail it (the benches measure each alone)."""
    quotes = [e.quote for e in evidence]
    found = Findings()
    if not quotes:
        return found
    for q in quotes:
        if q not in _MET:
            _first_met(q)
    # a claim that is one of its quotes word for word cannot differ from it in a number,
    # a date, an identifier the quote holds, or polarity: only the sentence around it can
    words = plain(claim)
    verbatim = words in _plain_all(tuple(quotes))
    if not verbatim:
        found.numbers = compare(claim, quotes, [e.text for e in evidence], [e.title for e in evidence if e.title])
        if polarity:
            found.contradictions = (contradictions(claim, quotes) + quantifier_conflicts(claim, quotes)
                                    + only_conflicts(claim, quotes) + reversed_movements(claim, quotes))
            if any(c.kind in _POLAR for c in found.contradictions) and _sentence_agrees(claim, evidence):
                # the quote is a fragment of a negated sentence, and the claim states that negation
                found.contradictions = [c for c in found.contradictions if c.kind not in _POLAR]
    for i, e in enumerate(evidence):
        neg = check_context(claim, e.text, e.start, e.end)
        if neg is None and (inner := _inside(words, e)) is not None:
            # the claim is a verbatim part of its quote: it is read as that part reads in its sentence
            # ("The claim that <the claim> has been debunked", "found no evidence that <the claim>")
            neg = check_context(claim, e.text, *inner)
        if neg is not None:
            found.context.append((i, neg))
    # a finding whose two sides read the same explains nothing ("claim says allowed; quote says allowed"):
    # the difference lies in words around them, so the message shows the claim and the quote whole
    same = [c for c in found.contradictions if _shown(c.claim) == _shown(c.quote)]
    # a claim that is its quote word for word is read only for a retraction after it
    if adopted:
        structural(claim, evidence, found, polarity=polarity and not verbatim, adopted=adopted, same=bool(same))
    if same:
        # the reader's clauses name the difference ("claim says are allowed; quote says are not allowed");
        # without them, the claim and the quote whole
        found.contradictions = [c if c not in same else
                                Contradiction(_clip(claim), _clip(_nearest(c.quote, quotes)), c.kind)
                                for c in found.contradictions]
    return found


# a draft with at least this many cited claims has them read ahead in batches (read_ahead)
READ_AHEAD_AT = 16


def read_ahead(claims: list[str]) -> None:
    """Let the sentence reader read these claims ahead, in batches (about twice
    as fast as one by one); the rules then find their readings made. Few
    claims are left to be read one by one, as each is checked."""
    if len(claims) >= READ_AHEAD_AT:
        from ..reading.read import prime

        prime(claims)


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return f"\u201c{text if len(text) <= limit else text[:limit - 1] + chr(0x2026)}\u201d"


def _nearest(words: str, quotes: list[str]) -> str:
    """The quote holding these words (the first quote when none does)."""
    low = _shown(words)
    return next((q for q in quotes if low in _shown(q)), quotes[0])


def _shown(words: str) -> str:
    return unicodedata.normalize("NFKC", " ".join(words.split())).casefold()


def structural(claim: str, evidence: list[Evidence], found: Findings, *, polarity: bool = True,
               adopted: frozenset[str] = ADOPTED, same: bool = False) -> None:
    """The rules over the reader's structure (`parsed`), added to `found` where adopted."""
    got = parsed.check(claim, [(e.quote, e.text, e.start, e.end) for e in evidence], polarity=polarity)
    if "relation" in adopted:
        found.relations += got.relations
    found.relations += [x for k, x in got.amounts if f"relation-{k}" in adopted]
    if "pairing" in adopted and not found.relations:
        # figures of a list and roles swapped: one finding a claim, the relation rule's first
        found.relations += got.pairings[:1]
    # `only` one side alone, where the word rules already read an `only` the other way (`students only`
    # against `students and pensioners`): one finding
    only_read = any("only" in (c.claim + " " + c.quote).casefold() for c in found.contradictions)
    found.limits += [(i, x) for i, x in got.limits if f"limits-{x.kind}" in adopted
                     and not (only_read and x.kind in ("only-added", "only-dropped"))]
    # a negation the quote's sentence holds outside the quote is the context rule's (context-negates)
    scoped = [Contradiction(n.claim, n.quote, "negation") for n in got.negations]
    if same and scoped:
        # a finding of the word rules whose two sides read the same: the clauses say what differs
        found.contradictions = [c for c in found.contradictions if _shown(c.claim) != _shown(c.quote)] or scoped
    elif "negation-scope" in adopted and not found.context and not any(c.kind == "negation"
                                                                       for c in found.contradictions):
        found.contradictions += scoped
    if "tense" in adopted:
        # done against still to come: the claim says it happened where the quote says it will
        found.contradictions += [Contradiction(n.claim, n.quote, "tense") for n in got.tenses]
    if "retraction" in adopted:
        for i, sentence, why in got.retractions:
            if any(j == i for j, _ in found.context):
                continue
            found.context.append((i, ContextNegation(sentence, f"\u201c{why}\u201d")))


# the quotes met lately (a dict as an ordered set, emptied when full)
_MET: dict[str, None] = {}


def _first_met(quote: str) -> None:
    """A quote met for the first time is read by every rule at once, whatever
    this claim needs: a writer types claim after claim against the same
    quote, and each new claim then reads only itself. What each rule keeps
    of a quote is bounded; the answers do not change."""
    if len(_MET) >= 8192:
        _MET.clear()
    _MET[quote] = None
    offered.prepare(quote)
    screening.prepare(quote)
    quantifiers.prepare(quote)


def _inside(words: str, e: Evidence) -> tuple[int, int] | None:
    """Where a claim's words (`plain`) stand in the chunk when they are a
    verbatim part of the quote, shorter than it (the first letter's case
    aside); None otherwise."""
    if len(words) < 12 or len(words) >= len(e.quote) or not _single_spaced(e.quote):
        return None
    at = e.quote.find(words)
    if at < 0:
        at = e.quote.find(words[0].swapcase() + words[1:])
    if at < 0:
        return None
    return e.start + at, e.start + at + len(words)


_POLAR = ("negation", "antonym")  # the kinds a quote's sentence can turn round


def _sentence_agrees(claim: str, evidence: list[Evidence]) -> bool:
    """Whether some quote, read in its sentence, says what the claim says: a
    quote cut out of `Neither the name … may be used to endorse …` reads
    positively alone, but its sentence denies it, as the claim does. Only a
    sentence with a negation before the quote can change how the quote reads."""
    for e in evidence:
        s, _ = sentence_around(e.text, e.start, e.end)
        if s == e.start or not negation_before(e.text[s:e.start]):
            continue
        reading, found = in_sentence(claim, e.text, s, e.start, e.end)
        if not any(c.kind == "negation" for c in found) and any(
                cl.polarity != POSITIVE for cl in reading.clauses if cl.end > e.start - s and cl.start < e.end - s):
            return True
    return False


@lru_cache(maxsize=8192)
def _single_spaced(quote: str) -> bool:
    """Whether a quote's white space is single spaces only, so that offsets in its plain form are its own (kept)."""
    return " ".join(quote.split()) == quote


@lru_cache(maxsize=8192)
def _plain_all(quotes: tuple[str, ...]) -> frozenset[str]:
    """The quotes as `plain` gives them (kept: quotes come again)."""
    return frozenset(map(plain, quotes))


def plain(text: str) -> str:
    """A text with its white space collapsed and its closing punctuation dropped."""
    return " ".join(chunks(text)).rstrip(".!?;:,")
