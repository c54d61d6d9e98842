"""A multi-sentence claim checked one sentence at a time (`unsupported-sentence`).

The claim as a whole may pass while one of its sentences is backed by none of
its quotes: the uncited sentence rides along on the others. Each sentence of
the claim (cut by the same rule the context check uses,
`meaning.sentence_spans`) is scored alone against all the claim's resolved
quotes with the same support check as the claim. A sentence below the
threshold gets a warning quoting it; with `strict_sentences = true` that
warning fails the claim.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from ..core.model import Claim, Diagnostic, Part
from ..meaning import Evidence, sentence_spans
from ..meaning.restating import restated_score
from ..support import check_support
from .parts import parts_of

CODE = "unsupported-sentence"


def claim_sentences(text: str) -> list[str]:
    """The sentences of a claim's text (white space collapsed), in order."""
    return [" ".join(text[s:e].split()) for s, e in sentence_spans(text) if text[s:e].strip()]


def sentence_support(text: str, quotes: list[str], *, threshold: float, mode: str,
                     context: Callable[[], tuple[str, list[str]]] | None = None) -> list[tuple[str, float | None]]:
    """Each sentence of a claim of two or more sentences with its support alone; [] for one sentence.
    `context` gives the cited sources' headings and the quotes' sentences, read as the claim's
    score reads them: only for a sentence the quotes alone leave below the threshold."""
    sentences = claim_sentences(text)
    if len(sentences) < 2 or not quotes:
        return []
    out: list[tuple[str, float | None]] = []
    got: tuple[str, list[str]] | None = None
    for sentence in sentences:
        lex = check_support(sentence, quotes, threshold=threshold, mode=mode)
        if mode != "seed":  # the seed rule reads nothing beside the words (as the claim's score)
            if context is not None and lex.score is not None and lex.score < threshold and lex.missing:
                if got is None:
                    got = context()
                lex = check_support(sentence, quotes, threshold=threshold, mode=mode, named=got[0], around=got[1])
            # as the claim's score reads it: an amount the quotes state in another form is theirs
            named, around = got if got is not None else ("", [])
            lex = restated_score(sentence, quotes, lex, threshold, partial(
                check_support, quotes=quotes, threshold=threshold, mode=mode, named=named, around=around))[0]
        out.append((sentence, lex.score))
    return out


def check_sentences(claim: Claim, quotes: list[str], *, threshold: float, mode: str, strict: bool,
                    context: Callable[[], tuple[str, list[str]]] | None = None,
                    ) -> tuple[list[Diagnostic], list[tuple[str, float | None]]]:
    """The `unsupported-sentence` diagnostics of a claim and every sentence's support
    (what the hover shows)."""
    scored = sentence_support(claim.text, quotes, threshold=threshold, mode=mode, context=context)
    out = []
    for sentence, score in scored:
        if score is None or score >= threshold:
            continue
        out.append(Diagnostic(
            CODE,
            f"no quote backs the sentence \u201c{sentence}\u201d (its support alone is {score:.2f},"
            f" below the threshold {threshold:g})",
            claim.line, claim.range, strict=strict))
    return out, scored




def part_scorer(*, threshold: float, mode: str,
                context: Callable[[], tuple[str, list[str]]] | None = None) -> Callable[[str, Sequence[str]], float | None]:
    """A text's support against some quotes, read as `sentence_support` reads a sentence."""
    got: list[tuple[str, list[str]]] = []

    def score(text: str, quotes: Sequence[str]) -> float | None:
        qs = list(quotes)
        lex = check_support(text, qs, threshold=threshold, mode=mode)
        if mode != "seed":
            if context is not None and lex.score is not None and lex.score < threshold and lex.missing:
                if not got:
                    got.append(context())
                lex = check_support(text, qs, threshold=threshold, mode=mode, named=got[0][0], around=got[0][1])
            named, around = got[0] if got else ("", [])
            lex = restated_score(text, qs, lex, threshold, partial(
                check_support, quotes=qs, threshold=threshold, mode=mode, named=named, around=around))[0]
        return lex.score

    return score


def check_parts(claim: Claim, evidence: Sequence[tuple[int, Evidence]], *, threshold: float, mode: str,
                strict: bool, whole: float | None, context: Callable[[], tuple[str, list[str]]] | None = None,
                ) -> tuple[list[Diagnostic], list[Part], bool]:
    """The claim's parts with the citations backing each (parts.py), whether it is joint, and an
    `unsupported-sentence` warning for each part of a claim of two or more that no quote backs."""
    score = part_scorer(threshold=threshold, mode=mode, context=context)
    found, joint = parts_of(claim.text, evidence, threshold=threshold, score=score, whole=whole)
    out = []
    if len(found) > 1:
        for p in found:
            if p.supported or p.score is None:
                continue
            out.append(Diagnostic(
                CODE,
                f"no quote backs the part \u201c{p.text}\u201d (its support alone is {p.score:.2f},"
                f" below the threshold {threshold:g})",
                claim.line, claim.range, strict=strict))
    return out, found, joint
