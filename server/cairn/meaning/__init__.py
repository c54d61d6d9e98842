"""The meaning rules of the support check (SPEC section 4): what a lexical
score cannot see.

- `quantities`: numbers with sign and unit, ranges, dates and identifiers
  (`number-mismatch`);
- `polarity`: negation, privative prefixes, antonyms, direction and bound
  words (`contradiction`);
- `context`: the sentence around a verbatim quote that negates or retracts
  it (`context-negates`);
- `sentences`: the sentence boundaries the context rule and the judge use;
- `scan` (where `quantities` looks) and `lexicon` (the word classes
  `polarity` reads) serve the rules above.

Each rule fails a claim whatever its score; `check()` runs them all over a
claim and its resolved evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .context import ContextNegation, check_context
from .polarity import Contradiction, contradictions
from .quantities import NumberMismatch, compare
from .sentences import sentence_around, sentence_spans

# Changed whenever a rule changes what it decides: cached verdicts made under
# other rules are not reused (engine.fingerprint).
RULES_VERSION = "meaning-1"

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


def check(claim: str, evidence: list[Evidence], *, polarity: bool = True) -> Findings:
    """Every meaning rule over a claim and its resolved evidence, taken together;
    `polarity=False` leaves out the polarity and direction rule."""
    quotes = [e.quote for e in evidence]
    found = Findings()
    if not quotes:
        return found
    # a claim that is one of its quotes word for word cannot differ from it in a number,
    # a date, an identifier the quote holds, or polarity: only the sentence around it can
    verbatim = plain(claim) in {plain(q) for q in quotes}
    if not verbatim:
        context = [e.text for e in evidence] + [e.title for e in evidence if e.title]
        found.numbers = compare(claim, quotes, context)
        if polarity:
            found.contradictions = contradictions(claim, quotes)
    for i, e in enumerate(evidence):
        neg = check_context(claim, e.text, e.start, e.end)
        if neg is not None:
            found.context.append((i, neg))
    return found


def plain(text: str) -> str:
    """A text with its white space collapsed and its closing punctuation dropped."""
    return " ".join(text.split()).rstrip(".!?;:,")
