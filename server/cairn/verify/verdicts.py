"""A judge's verdict on a claim and how it is applied: the quotes a judge is given (each
resolved quote, with its sentence as context) and the claim result its verdict makes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..core.model import CitationResult, Claim, ClaimResult, Diagnostic

# the diagnostics apply_verdict decides; every other one stays as verified
_SUPPORT_CODES = ("unsupported-claim", "judge-fallback")


_WORD = re.compile(r"\w+")

# How far the rule `sentence` reads on either side of a quote: a sentence of prose is shorter; a chunk
# with no sentence end (a table, a listing) is not one sentence for it
SENTENCE_REACH = 300


@dataclass(slots=True)
class JudgeVerdict:
    supported: bool
    score: float | None
    judge: str  # "openai", "fallback"
    note: str = ""  # why the judge fell back


# A judge gets the claim text and the resolved quotes; returns None to let
# the lexical check decide. The verifier calls it for every claim it checks,
# so it must be fast: cairn.judge's judges only look verdicts up here.
Judge = Callable[[str, list[str]], JudgeVerdict | None]


def resolved_quotes(cr: ClaimResult) -> list[str]:
    """The quotes of a claim's resolved citations: what support is judged over."""
    return [r.citation.quote for r in cr.citations if r.resolved and r.citation.quote]


# how judge_quotes joins a quote and its sentence (a provider that reads text, not a prompt, splits it back)
CONTEXT_OPEN = "\n(its sentence in the source: "
CONTEXT_CLOSE = ")"


def split_context(quote: str) -> tuple[str, str | None]:
    """A judge quote's quote and its sentence in the source (None when judge_quotes added none)."""
    head, mark, tail = quote.partition(CONTEXT_OPEN)
    if not mark or not tail.endswith(CONTEXT_CLOSE):
        return quote, None
    return head, tail[: -len(CONTEXT_CLOSE)]


def judge_quotes(results: list[CitationResult]) -> list[str]:
    """The resolved quotes as the judge reads them: each with the sentence of
    its source that holds it, when that sentence says more than the quote
    (SPEC section 4: the judge receives each quote's sentence as context)."""
    out = []
    for r in results:
        q = r.citation.quote
        if not (r.resolved and q):
            continue
        if r.evidence is not None:
            ch, s, e = r.evidence
            sentence = _collapse(_sentence(ch.text, s, e))
            if sentence.rstrip(".!?;:") != _collapse(q).rstrip(".!?;:"):
                q = f"{q}{CONTEXT_OPEN}{sentence}{CONTEXT_CLOSE}"
        out.append(q)
    return out


def apply_verdict(cr: ClaimResult, verdict: JudgeVerdict | None, threshold: float) -> ClaimResult:
    """A claim's result with the support decided by `verdict` (SPEC section 4).

    `cr` comes from the verifier (with or without an earlier verdict; the
    lexical score is kept in it). A judge's verdict replaces the score test;
    a `fallback` verdict (or None) leaves it to the lexical check, a fallback
    adding a `judge-fallback` diagnostic; the number rule always applies.
    Returns a new ClaimResult; `cr` is not modified. A claim without a
    resolved quote is returned as it is: its support is never checked."""
    if not resolved_quotes(cr):
        return cr
    claim = cr.claim
    diags = [d for d in cr.diagnostics if d.code not in _SUPPORT_CODES]
    score = cr.lexical_score
    passed = score is not None and score >= threshold
    judge_name = "lexical"
    if verdict is not None and verdict.judge == "fallback":
        judge_name = "fallback"
        diags.append(
            Diagnostic(
                "judge-fallback",
                f"the judge gave no verdict ({verdict.note or 'no reason given'}); the lexical check decided",
                claim.line,
                claim.range,
            )
        )
    elif verdict is not None and verdict.judge != "lexical":
        judge_name = verdict.judge
        passed = bool(verdict.supported)
        score = verdict.score
    lexical = judge_name in ("lexical", "fallback")
    if passed and lexical and cr.displaced is not None and not _reported(cr.displaced[0], cr.mismatched):
        # (an option in place of the quote's, `-E` for `-P`, is already the identifier rule's number-mismatch,
        # as is a unit in place of the quote's, `C` in `-40 °C` for `-40 °F`)
        mine, theirs = cr.displaced
        diags.append(Diagnostic(
            "unsupported-claim",
            f"the claim says {mine} where its quote says {theirs} (support {_fmt(score)}, threshold {threshold:g}"
            + (f"; missing: {mine})" if " " not in mine else ")"), claim.line, claim.range))
    elif not passed:
        if lexical:
            missing = cr.missing
            shown = ", ".join(missing[:12]) + (" …" if len(missing) > 12 else "")
            msg = f"support {_fmt(score)} is below the threshold {threshold:g}" + (
                f"; missing: {shown}" if missing else ""
            )
        else:
            msg = f"the {judge_name} judge finds that the quotes do not support the claim (score {_fmt(score)})"
        diags.append(Diagnostic("unsupported-claim", msg, claim.line, claim.range))
    supported = _settle(claim, diags)
    return replace(cr, supported=supported, support_score=score, judge=judge_name, diagnostics=diags)


def _reported(word: str, mismatched: tuple[str, ...]) -> bool:
    """Whether the names rule's word is one the number rule reports: one of its words, or a word of one."""
    return word in mismatched or any(word in _WORD.findall(m) for m in mismatched)


def _settle(claim: Claim, diags: list[Diagnostic]) -> bool:
    """Mark the diagnostics whose codes the claim's citations `ignore`; True when
    the claim is verified (SPEC section 4: cited, and nothing left that fails it)."""
    ignored = claim.ignored
    if ignored:
        for d in diags:
            if d.code in ignored:
                d.ignored = True
    return bool(claim.citations) and not any(d.fails for d in diags)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _sentence(text: str, start: int, end: int) -> str:
    # imported here: the judge's module (judge/providers.py) imports this one, and making a judge
    # (at a server's start) need not load the meaning rules
    from ..meaning import sentence_around

    s, e = sentence_around(text, start, end)
    return text[s:e]


def _fmt(score: float | None) -> str:
    return "n/a" if score is None else f"{score:.2f}"
