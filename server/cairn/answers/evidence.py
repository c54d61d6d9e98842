"""Evidence for a claim: the passages of the sources that best support it.

The reverse of verification. Verification takes a claim and its citations
and says whether they back it; this takes a claim alone and finds what in
the sources would back it, so a writer can cite it (`cairn cite --for`, the
editor's "Cite a source for this claim").

1. Candidates: the current chunks a full-text search ranks best for the
   claim's words (numbers and names first), from the store; denied sources
   are never candidates.
2. Each candidate chunk is read sentence by sentence (the sentence rule of
   the context check, cairn.meaning.sentences). A span of one to three whole
   sentences is scored with the support check that verifies citations, and
   a span that scores enough is also put through the meaning rules, so a
   passage saying the opposite, or another number, is labelled and ranked
   below every passage that supports the claim.
3. From each chunk the smallest span that supports the claim is offered (the
   best scoring among spans of that size); a chunk with none offers its best
   span, labelled with why it falls short.

A span's words are a subset of its chunk's, so a chunk whose whole text
scores below the threshold cannot hold a supporting span: only its best
sentence is scored, to show as a near miss.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import meaning
from ..core.model import Chunk
from ..index.retrieval import CANDIDATES, query_words, retrieve
from ..meaning.sentences import sentence_spans
from ..support import check_support

if TYPE_CHECKING:
    pass

__all__ = ["CANDIDATES", "Passage", "find_evidence", "query_words", "retrieve"]

MAX_SENTENCES = 3  # the longest span offered, in sentences


@dataclass(frozen=True, slots=True)
class Passage:
    """A span of a chunk offered as evidence for a claim."""

    chunk: Chunk
    start: int  # offsets in the chunk's text, as a cite block writes them
    end: int
    score: float  # the support check's score of the claim against this span
    supports: bool  # the score reaches the threshold and no meaning rule fails
    why: str = ""  # when it does not support: what falls short ("support 0.31 < 0.5", a meaning rule's message)

    @property
    def quote(self) -> str:
        return self.chunk.text[self.start:self.end]


def find_evidence(
    claim: str,
    candidates: Iterable[Chunk],
    *,
    threshold: float = 0.5,
    mode: str = "calibrated",
    allowed: Callable[[str], bool] = lambda source: True,
    k: int = 3,
    title: Callable[[Chunk], str] = lambda chunk: "",
) -> list[Passage]:
    """The `k` best passages for `claim` among `candidates`, best first: every
    passage that supports the claim (by size, then score) before any that does
    not (by score). `allowed` decides which sources may be read; `title` gives
    a chunk's source title for the identifier rule."""
    found: list[Passage] = []
    seen: set[tuple[str, str]] = set()
    for chunk in candidates:
        if not allowed(chunk.source):
            continue
        key = (chunk.source, chunk.text)
        if key in seen:
            continue  # the same paragraph in another version or chunk id: offered once
        seen.add(key)
        best = _best_span(claim, chunk, threshold=threshold, mode=mode, title=title)
        if best is not None and best.score > 0:  # a passage sharing no word with the claim is no near miss
            found.append(best)
    found.sort(key=_rank)
    return found[:k]


def _rank(p: Passage) -> tuple:
    if p.supports:
        return (0, p.end - p.start, -p.score, p.chunk.source, p.chunk.start)
    return (1, -p.score, p.end - p.start, p.chunk.source, p.chunk.start)


def _best_span(claim: str, chunk: Chunk, *, threshold: float, mode: str,
               title: Callable[[Chunk], str]) -> Passage | None:
    text = chunk.text
    spans = sentence_spans(text)
    if not spans:
        return None
    whole = check_support(claim, [text], threshold=threshold, mode=mode).score or 0.0
    sizes = range(1, min(MAX_SENTENCES, len(spans)) + 1) if whole >= threshold else range(1, 2)
    near: Passage | None = None
    for size in sizes:
        passing: list[Passage] = []
        for i in range(len(spans) - size + 1):
            s, e = spans[i][0], spans[i + size - 1][1]
            score = check_support(claim, [text[s:e]], threshold=threshold, mode=mode).score or 0.0
            if score >= threshold:
                why = _meaning(claim, chunk, s, e, title)
                p = Passage(chunk, s, e, score, not why, why)
                if p.supports:
                    passing.append(p)
                    continue
            else:
                p = Passage(chunk, s, e, score, False, f"support {score:.2f} < {threshold:g}")
            if near is None or p.score > near.score:
                near = p
        if passing:
            return max(passing, key=lambda p: p.score)
    return near


def _meaning(claim: str, chunk: Chunk, s: int, e: int, title: Callable[[Chunk], str]) -> str:
    """The first meaning rule the span fails for this claim, as its message; "" when none."""
    found = meaning.check(claim, [meaning.Evidence(chunk.text[s:e], chunk.text, s, e, title(chunk))])
    if found.numbers:
        return found.numbers[0].message
    if found.contradictions:
        return found.contradictions[0].message
    if found.context:
        return found.context[0][1].message
    return ""
