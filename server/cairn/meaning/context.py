"""Context (SPEC section 4, `context-negates`): the sentence that holds a
verbatim quote must not negate or retract it.

Two ways a sentence takes back what its words say:

- a **frame** around the quote: `It is not true that …`, `It is false
  that …`, `It is no longer the case that …`, `Contrary to the claim
  that …` before it, or `… is false`, `… was rejected`, `… has been
  withdrawn` after it;
- a **negation** of its own clause that reaches into the quote
  (`This licence does not grant [permission to use the trade names]`):
  the quote's words read negatively in their sentence while the claim
  states them positively.

A claim that itself reports the frame (`It is false that …`) is not
contradicted by it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .polarity import contradictions, read
from .sentences import sentence_around

__all__ = ["ContextNegation", "check_context"]

_FRAME_BEFORE = re.compile(
    r"""(?:
        \bit\s+(?:is|was|has\s+been|'s)\s+(?:not\s+true|not\s+the\s+case|no\s+longer\s+(?:true|the\s+case)|false|untrue
            |incorrect|wrong|a\s+myth|not\s+correct|a\s+misconception)\s+that
      | \b(?:contrary\s+to|despite|unlike|against)\s+(?:the\s+|a\s+|popular\s+|common\s+)?(?:claims?|beliefs?|reports?
            |assertions?|ideas?|notions?|myths?|rumou?rs?|misconceptions?|suggestions?)\s+that
      | \bit\s+does\s+not\s+(?:mean|follow)\s+that
      | \bis\s+not\s+to\s+say\s+that
      | \b(?:nor|neither)\s+is\s+it\s+(?:true|the\s+case)\s+that
      | \bno\s+longer\s+(?:holds\s+)?(?:true\s+)?that
    )[\s,:"'\u201c]*$""",
    re.IGNORECASE | re.VERBOSE,
)
_FRAME_AFTER = re.compile(
    r"""^[\s"'\u201d,)]*(?:
        (?:is|was|are|were|has\s+been|have\s+been|had\s+been|proved|proven|turned\s+out\s+to\s+be)\s+
        (?:false|untrue|incorrect|wrong|rejected|retracted|withdrawn|disproven|disproved|refuted|debunked|a\s+myth
         |unfounded|baseless|overturned|revoked|rescinded|repealed|no\s+longer\s+(?:true|valid|the\s+case|in\s+force))
      | (?:no\s+longer\s+(?:applies|holds|stands))
    )\b""",
    re.IGNORECASE | re.VERBOSE,
)
_CLAIM_FRAMES = re.compile(
    r"\b(?:not\s+true|not\s+the\s+case|no\s+longer|false|untrue|incorrect|myth|rejected|retracted|withdrawn"
    r"|disproven|refuted|debunked|overturned|revoked|rescinded|repealed|misconception)\b",
    re.IGNORECASE,
)


_NEGATION_WORD = re.compile(
    r"\b(?:not|no|never|nor|neither|none|nothing|nobody|nowhere|cannot|unable|lacks?|without|forbids?|forbidden"
    r"|prohibit(?:s|ed)?|refuse[sd]?|fail(?:s|ed)?|prevent(?:s|ed)?|used\s+to|stopped|ceased)\b|n't\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ContextNegation:
    sentence: str  # the sentence as it reads in the source
    why: str  # the frame or negation that decided it

    @property
    def message(self) -> str:
        return f"the quote's sentence reads \u201c{self.sentence}\u201d ({self.why})"


def check_context(claim: str, text: str, start: int, end: int) -> ContextNegation | None:
    """Whether the sentence of `text` holding [start, end) negates or retracts
    the quote text[start:end] as the claim uses it."""
    s, e = sentence_around(text, start, end)
    sentence = text[s:e]
    before = text[s:start]
    after = text[end:e]
    framed = _FRAME_BEFORE.search(before) or _FRAME_AFTER.search(after)
    if framed:
        if _CLAIM_FRAMES.search(claim):
            return None  # the claim reports the retraction itself
        return ContextNegation(_clip(sentence), f"\u201c{framed.group(0).strip(' ,')}\u201d")
    if not before.strip() or not _NEGATION_WORD.search(before):
        return None  # nothing before the quote in its sentence could negate it
    # a negation of the sentence reaching into the quote
    quote = text[start:end]
    if contradictions(claim, [quote]):
        return None  # the quote alone already contradicts: that is `contradiction`, not context
    # only what comes before the quote can govern it ("copies 100 KiB, not 102,400 blocks" does not)
    found = contradictions(claim, [], quote_reading=read(text[s:end]), span=(start - s, end - s))
    if found:
        return ContextNegation(_clip(sentence), f"{found[0].quote} in its sentence")
    return None


def _clip(sentence: str, limit: int = 300) -> str:
    sentence = " ".join(sentence.split())
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "\u2026"
