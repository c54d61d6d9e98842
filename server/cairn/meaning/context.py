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
from functools import lru_cache

from .clauses import Reading
from .contradicting import Contradiction, contradictions
from .polarity import read
from .sentences import sentence_around

__all__ = ["ContextNegation", "check_context", "in_sentence", "negation_before"]

_FRAME_BEFORE_WORDS = r"""(?:
        \bit\s+(?:is|was|has\s+been|'s)\s+(?:not\s+true|not\s+the\s+case|no\s+longer\s+(?:true|the\s+case)|false|untrue
            |incorrect|wrong|a\s+myth|not\s+correct|a\s+misconception)\s+that
      | \b(?:contrary\s+to|despite|unlike|against)\s+(?:the\s+|a\s+|popular\s+|common\s+)?(?:claims?|beliefs?|reports?
            |assertions?|ideas?|notions?|myths?|rumou?rs?|misconceptions?|suggestions?)\s+that
      | \b(?:does|do|did)(?:\s+not|n't|n\u2019t)\s+(?:necessarily\s+)?(?:mean|imply|follow|entail)\s+that
      | \bis\s+not\s+to\s+say\s+that
      | \b(?:nor|neither)\s+is\s+it\s+(?:true|the\s+case)\s+that
      | \bno\s+longer\s+(?:holds\s+)?(?:true\s+)?that
    )"""
_FRAME_BEFORE = re.compile(_FRAME_BEFORE_WORDS + r"""[\s,:"'\u201c]*$""", re.IGNORECASE | re.VERBOSE)
_FRAME_AFTER_WORDS = r"""(?:
        (?:is|was|are|were|has\s+been|have\s+been|had\s+been|proved|proven|turned\s+out\s+to\s+be)\s+
        (?:false|untrue|incorrect|wrong|rejected|retracted|withdrawn|disproven|disproved|refuted|debunked|a\s+myth
         |unfounded|baseless|overturned|revoked|rescinded|repealed|no\s+longer\s+(?:true|valid|the\s+case|in\s+force))
      | (?:no\s+longer\s+(?:applies|holds|stands))
    )\b"""
# ", which is not the case" after the quote retracts it as much as "is false" does
_WHICH_FRAME = r"""(?:which\s+(?:(?:often|always|[a-z]+ly)\s+)?(?:is|was|has\s+proved|proved|turned\s+out\s+to\s+be)\s+
        (?:not\s+(?:true|the\s+case|correct|so)|false|untrue|incorrect|wrong)\b)"""
# ", but wasn't," right after the quote: an auxiliary and its negation with nothing after them
# (ellipsis) deny the very predicate the quote states ("claimed to be fixed in 3.81, but wasn't")
_BUT_NOT = r"""(?:but\s+(?:(?:it|this|that|they|he|she)\s+)?
        (?:never\s+(?:is|was|are|were|has|have|had|did|does|do)
         |(?:is|was|are|were|has|have|had|did|does|do)(?:\s+not|n't|n\u2019t))
        (?:\s+(?:really|actually|been))?\s*(?:[,.;!?)]|$))"""
# ", but this was disproven", ", but the company denied it", ", but the data show otherwise": a clause
# after "but" that refutes what came before it takes it back
_BUT_REFUTED = r"""(?:but\s+(?:this|that|it|these|those|they|he|she|(?:the|its|their|his|her)\s+[^\W\d_]+(?:\s+[^\W\d_]+)?)\s+
        (?:(?:was|were|is|are|has\s+been|have\s+been|had\s+been|proved|proven|turned\s+out\s+to\s+be)\s+(?:later\s+)?
            (?:false|untrue|incorrect|wrong|rejected|retracted|withdrawn|disproven|disproved|refuted|debunked|denied
             |unfounded|baseless)
         |(?:later\s+)?(?:denied|denies|deny|refuted|refutes|disproved|disproves)
         |(?:show|shows|showed|suggest|suggests|suggested|prove|proves|proved|say|says|said)\s+otherwise)\b)"""
_FRAME_AFTER = re.compile(r"""^[\s"'\u201d,)]*(?:""" + _FRAME_AFTER_WORDS + "|" + _WHICH_FRAME + "|" + _BUT_NOT
                          + "|" + _BUT_REFUTED + ")", re.IGNORECASE | re.VERBOSE)
_BUT_NOT_RE = re.compile(r"""^[\s"'\u201d,)]*""" + _BUT_NOT, re.IGNORECASE | re.VERBOSE)
# The same frames found anywhere: a cheap test, on the whole chunk, that
# none can be in the quote's sentence (most quotes have none near them).
_FRAME_BEFORE_CUE = re.compile(_FRAME_BEFORE_WORDS, re.IGNORECASE | re.VERBOSE)
_FRAME_AFTER_CUE = re.compile(_FRAME_AFTER_WORDS + "|" + _WHICH_FRAME + "|" + _BUT_NOT + "|" + _BUT_REFUTED,
                              re.IGNORECASE | re.VERBOSE)
_CLAIM_FRAMES = re.compile(
    r"\b(?:not\s+true|not\s+the\s+case|no\s+longer|false|untrue|incorrect|myth|rejected|retracted|withdrawn"
    r"|disproven|refuted|debunked|overturned|revoked|rescinded|repealed|misconception|denied|denies|otherwise)\b",
    re.IGNORECASE,
)


# A frame a few words away from the quote, inside the clause it frames:
# "It is no longer the case that [members] receive free delivery" (before), and
# "The proposal that coupons can be stacked [at checkout] was rejected" (after:
# only where the quote opens a noun's complement, "the proposal that …", whose
# noun the frame's verb then has for its subject). Not across a clause of its
# own ("…, but members receive …"), nor, after the quote, across a relative
# clause ("… on orders that were rejected" says nothing of the quote).
_FRAME_BEFORE_APART = re.compile(r"(?P<frame>" + _FRAME_BEFORE_WORDS + r""")(?P<gap>[^;:!?]{1,160})$""",
                                 re.IGNORECASE | re.VERBOSE)
_GAP_BEFORE_BREAK = re.compile(r",\s*(?:and|but|or|yet|so|while|whereas)\b|\b(?:but|however|although|though|whereas"
                               r"|yet|instead|otherwise)\b|\.\s", re.IGNORECASE)
_NOUN_THAT = re.compile(r"\b(?:claims?|proposals?|reports?|assertions?|beliefs?|ideas?|notions?|suggestions?"
                        r"|rumou?rs?|statements?|allegations?|theory|theories|hypothes[ie]s|view|argument)\s+that\s+"
                        r"(?:[^\W\d_]+\s+){0,3}$", re.IGNORECASE)
_FRAME_AFTER_APART = re.compile(r"^(?P<gap>[^;:.!?,]{1,80}?)\s+(?P<frame>" + _FRAME_AFTER_WORDS + ")",
                                re.IGNORECASE | re.VERBOSE)
_GAP_AFTER_BREAK = re.compile(r"\b(?:and|but|or|that|which|who|whom|whose|where|when|while|because|if|unless"
                              r"|although|though)\b", re.IGNORECASE)


def _frame_apart(before: str, after: str) -> str | None:
    """A frame a few words from the quote, in the clause it frames (see above): its words, or None."""
    if (m := _FRAME_BEFORE_APART.search(before)) is not None and _GAP_BEFORE_BREAK.search(m.group("gap")) is None:
        return m.group("frame")
    if _NOUN_THAT.search(before) is not None and (m := _FRAME_AFTER_APART.match(after)) is not None \
            and _GAP_AFTER_BREAK.search(m.group("gap")) is None:
        return m.group("frame")
    return None


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
    around = _around(text, start, end)
    if around is None:
        return None
    s, sentence, framed, but = around
    if framed:
        if _CLAIM_FRAMES.search(claim):
            return None  # the claim reports the retraction itself
        if but and _NEGATION_WORD.search(claim):
            return None  # "… but wasn't": a claim that says it was not says what the sentence says
        return ContextNegation(_clip(sentence), f"\u201c{framed}\u201d")
    # a negation of the sentence reaching into the quote
    if contradictions(claim, [text[start:end]]):
        return None  # the quote alone already contradicts: that is `contradiction`, not context
    found = in_sentence(claim, text, s, start, end)[1]
    if found:
        return ContextNegation(_clip(sentence), f"{found[0].quote} in its sentence")
    return None


@lru_cache(maxsize=8192)
def _around(text: str, start: int, end: int) -> tuple[int, str, str, bool] | None:
    """What the quote text[start:end]'s sentence holds that can take it back,
    whatever the claim (kept: the editor checks the same quotes again on every
    edit): None when nothing can; else where the sentence opens, the sentence, the frame around the
    quote as a message shows it ("" when there is none, but a negation before
    the quote may reach it) and whether that frame is a "but" ("… but
    wasn't")."""
    if not (_may_hold(text[:start], _BEFORE_CUES, _NEGATION_WORD, _FRAME_BEFORE_CUE)
            or _may_hold(text[end:], _AFTER_CUES, _FRAME_AFTER_CUE)):
        return None  # no negation or frame anywhere around the quote, so none in its sentence
    s, e = sentence_around(text, start, end)
    before = text[s:start]
    framed = _FRAME_BEFORE.search(before) or _FRAME_AFTER.search(text[end:e])
    if framed:
        written = framed.group(0)
        return s, text[s:e], written.strip(" ,"), _BUT_NOT_RE.match(written) is not None
    if (apart := _frame_apart(before, text[end:e])) is not None:
        return s, text[s:e], " ".join(apart.split()), False
    if not negation_before(before):
        return None  # nothing before the quote in its sentence could negate it
    return s, text[s:e], "", False


# Every word one of the patterns above needs (at least one of them in each
# alternative): a text without any of them cannot match. Checked by
# tests/unit/test_meaning.py against the patterns themselves.
_BEFORE_CUES = frozenset(
    """not no never nor neither none nothing nobody nowhere cannot unable lack lacks without forbid forbids
    forbidden prohibit prohibits prohibited refuse refuses refused fail fails failed prevent prevents prevented
    used stopped ceased false untrue incorrect wrong myth misconception contrary despite unlike against""".split()
)
_AFTER_CUES = frozenset(
    """false untrue incorrect wrong rejected retracted withdrawn disproven disproved refuted debunked myth
    unfounded baseless overturned revoked rescinded repealed longer which but""".split()
)
_ASCII_NON_LETTERS = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalpha()})


def _may_hold(text: str, cues: frozenset[str], *patterns: re.Pattern[str]) -> bool:
    """Whether any of `patterns` may match in `text`: False only when it
    surely cannot. ASCII text is split into words (much faster than the
    patterns); other text is searched with the patterns themselves."""
    if not text:
        return False
    if not text.isascii():
        return any(p.search(text) for p in patterns)
    if "n't" in text or "N'T" in text or "n'T" in text or "N't" in text:
        return True
    return not cues.isdisjoint(text.lower().translate(_ASCII_NON_LETTERS).split())


def in_sentence(claim: str, text: str, s: int, start: int, end: int) -> tuple[Reading, list[Contradiction]]:
    """The quote text[start:end] read inside its sentence (which opens at `s`), and
    where the claim contradicts the clauses that hold it. Only what comes before the
    quote can govern it ("copies 100 KiB, not 102,400 blocks" does not), so the
    sentence is read up to the quote's end."""
    reading = read(text[s:end])
    return reading, contradictions(claim, [], quote_reading=reading, span=(start - s, end - s))


def negation_before(before: str) -> bool:
    """Whether the part of a sentence before a quote holds a negation that may reach it."""
    return bool(before.strip()) and _may_hold(before, _BEFORE_CUES, _NEGATION_WORD) and \
        _NEGATION_WORD.search(before) is not None


def _clip(sentence: str, limit: int = 300) -> str:
    sentence = " ".join(sentence.split())
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "\u2026"
