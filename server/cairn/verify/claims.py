"""A claim verified over its citations (SPEC section 4): support judged over the resolved quotes
together, the meaning rules, the policy rules, and a whole draft's claims."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..core.model import (
    Chunk,
    Citation,
    CitationResult,
    Claim,
    ClaimResult,
    Diagnostic,
    DraftDoc,
    DraftResult,
    Part,
    Pos,
    Range,
)
from ..drafts import binding
from ..meaning import Evidence, NumberMismatch, read_ahead, sentence_around
from ..meaning import check as check_meaning
from ..meaning import plain as plain_text_of
from ..meaning.literals import names_literals
from ..meaning.quantities import extract as extract_quantities
from ..meaning.restating import restated_score, without_identifiers
from ..support import check_support
from . import conflicts, dates, draft_notes
from . import sentences as sentences_check
from .lineage import annotate
from .parts import backing
from .policy import policy_diagnostics
from .verdicts import SENTENCE_REACH, JudgeVerdict, _settle, apply_verdict, judge_quotes

if TYPE_CHECKING:
    from ..index.workspace import Workspace
    from ..store import IndexStore
    from .verdicts import Judge

log = logging.getLogger(__name__)


class ClaimChecks:
    """The claim-level half of the verifier: support, the meaning rules and a draft's claims."""

    ws: Workspace
    store: IndexStore
    judge: Judge | None
    caches: dict[str, object]
    conflicts: bool  # look for contradicting sources (the editor does it in the background)
    _warnings: dict[tuple[str, str], list[str]]
    _titles: dict[tuple[str, str], tuple[str, str]]

    # the citation-level half (verifier.Verifier) gives these
    def verify_citation(self, cit: Citation) -> tuple[CitationResult, list[Diagnostic]]:
        raise NotImplementedError

    def prefetch(self, chunk_ids: Iterable[str | None]) -> None:
        raise NotImplementedError

    def read_ahead(self, claims: Iterable[Claim]) -> None:
        """Have the claims that quote a source read by the sentence reader ahead, in batches."""
        read_ahead([claim.text for claim in claims if any(c.quote for c in claim.citations)])

    def verify_claim(self, claim: Claim) -> ClaimResult:
        cfg = self.ws.settings.config
        diags: list[Diagnostic] = []
        for p in claim.problems:
            diags.append(Diagnostic(p.code, p.message, p.line, p.range))
        for block in claim.blocks:
            for p in block.problems:
                diags.append(Diagnostic(p.code, p.message, p.line, p.range))
        results: list[CitationResult] = []
        for cit in claim.citations:
            r, ds = self.verify_citation(cit)
            results.append(r)
            diags += ds
        annotate(self, results)
        diags += binding.check_binding(claim)
        dates.date_results(results, dates.book_for(self))
        diags += dates.check_dates(claim, results, cfg.date_window_days)
        quotes = [r.citation.quote for r in results if r.resolved and r.citation.quote]
        parts: list[Part] = []
        joint = False
        score: float | None = None
        missing: list[str] = []
        displaced: tuple[str, str] | None = None
        mismatched: tuple[str, ...] = ()
        verdict: JudgeVerdict | None = None
        if quotes:
            # the seed rule is the claim's own words against the quotes' and nothing else (SPEC section 4):
            # what the project's modes read beside them (identifiers naming the sources, the sources'
            # titles and sentences, amounts restated) is theirs
            seed = cfg.support.mode == "seed"
            # whether the claim names an identifier its sources must be read for (once a claim)
            verbatim = _verbatim(claim, results)
            named = not verbatim and any(q.kind == "identifier" for q in extract_quantities(claim.text))
            # an option or a file the claim names may be the one its source is about, named by the
            # title rather than the chunk (a claim on invoke-rc.d cited to its README's paragraph on
            # policy-rc.d): the titles are read for it too, as for an identifier
            titles = named or (not verbatim and names_literals(claim.text))
            support_text = self._support_text(claim, results) if named and not seed else claim.text
            lex = check_support(support_text, quotes, threshold=cfg.threshold, mode=cfg.support.mode)
            if not seed and lex.score is not None and lex.score < cfg.threshold and lex.missing:
                # words the quotes lack may name the cited documents themselves ("Under the
                # Apache License, ..."), and a quoted fragment is read in its sentence: read the
                # sources' headings and the quotes' sentences only for a claim that needs it
                lex = check_support(support_text, quotes, threshold=cfg.threshold, mode=cfg.support.mode,
                                    named=self._headings(results), around=_sentences(results))
                # an amount the quotes state in another form (`1.2 km` for `1,200 metres`) is
                # theirs: read as they write it, its words are found
                lex, support_text = restated_score(
                    support_text, quotes, lex, cfg.threshold,
                    lambda text: check_support(text, quotes, threshold=cfg.threshold, mode=cfg.support.mode,
                                               named=self._headings(results), around=_sentences(results)))
            score = lex.score
            missing = list(lex.missing)
            displaced = lex.displaced
            if displaced is not None:
                # the same words around a different name (support/names.py); but a name the cited
                # sources' headings hold may stand for what the quote calls it ("Under the MPL")
                displaced = check_support(support_text, quotes, threshold=cfg.threshold, mode=cfg.support.mode,
                                          named=self._headings(results)).displaced
            # a polarity difference contradicts only a claim its quotes are about: one whose
            # words they back (else it is unsupported, and a side word's negation says nothing)
            found, numbers = self._meaning(claim, results, polarity=score is not None and score >= cfg.threshold,
                                           titles=titles)
            diags += found
            # each part of the claim alone, and the quotes backing it (sentences_check.py, parts.py)
            found, parts, joint = sentences_check.check_parts(
                claim, _evidence(results), threshold=cfg.threshold, mode=cfg.support.mode,
                strict=cfg.strict_sentences, whole=score,
                context=lambda: (self._headings(results), _sentences(results)))
            diags += found
            mismatched = tuple(n.claim for n in numbers)
            verdict = self.judge(claim.text, judge_quotes(results)) if self.judge else None
        # the authority of the claim is that of the citations backing some part of it
        diags += policy_diagnostics(self, claim, results, backing(parts, len(results)))
        result = ClaimResult(
            claim=claim,
            supported=False,  # decided below
            support_score=score,
            judge="lexical",
            missing=missing,
            citations=results,
            diagnostics=diags,
            lexical_score=score,
            sentences=[(p.text, p.score) for p in parts] if len(parts) > 1 else [],
            parts=parts,
            joint=joint,
            displaced=displaced,
            mismatched=mismatched,
        )
        if quotes:
            # the score test (or the judge's verdict in its place)
            result = apply_verdict(result, verdict, cfg.threshold)
            if result.supported and self.conflicts:
                result = self.with_conflicts(result)
            return result
        # no citation resolved, so support was never checked and the claim is not verified, even when
        # it ignores the codes that say why (those are reported as hints and fail nothing themselves)
        _settle(claim, diags)
        result.supported = False
        return result

    def with_conflicts(self, result: ClaimResult) -> ClaimResult:
        """A verified claim's result with the passages of other sources contradicting it
        (`conflicting-source`, conflicts.py); under `conflicts = "fail"` one fails the claim."""
        found = conflicts.diagnostics(self, result.claim, result.citations, result.parts)
        if not found:
            return result
        diags = [*result.diagnostics, *found]
        return replace(result, diagnostics=diags, supported=_settle(result.claim, diags))

    def _meaning(self, claim: Claim, results: list[CitationResult], *, polarity: bool = True,
                 titles: bool = False) -> tuple[list[Diagnostic], list[NumberMismatch]]:
        """The meaning rules over a claim's resolved quotes (SPEC section 4):
        quantities, polarity and direction, and each quote's sentence; `titles`:
        the claim names an identifier, so its sources' titles are read too.
        With the diagnostics, the number rule's findings, each naming the
        claim's word it reports."""
        evidence: list[Evidence] = []
        cits: list[Citation] = []
        for r in results:
            if not (r.resolved and r.citation.quote):
                continue
            if r.evidence is not None:
                ch, s, e = r.evidence
                evidence.append(Evidence(r.citation.quote, ch.text, s, e, self._title(ch) if titles else ""))
            else:  # resolved without a place (not expected): the quote stands alone
                evidence.append(Evidence(r.citation.quote, r.citation.quote, 0, len(r.citation.quote)))
            cits.append(r.citation)
        found = check_meaning(claim.text, evidence, polarity=polarity)
        out: list[Diagnostic] = []
        if found.numbers:
            first = found.numbers[0]
            more = f" (and {len(found.numbers) - 1} more)" if len(found.numbers) > 1 else ""
            out.append(Diagnostic("number-mismatch", first.message + more, claim.line, claim.range))
        if found.contradictions:
            opposed = found.contradictions[0]
            more = f" (and {len(found.contradictions) - 1} more)" if len(found.contradictions) > 1 else ""
            out.append(Diagnostic("contradiction", opposed.message + more, claim.line, claim.range))
        if found.relations:
            first_r = found.relations[0]
            more = f" (and {len(found.relations) - 1} more)" if len(found.relations) > 1 else ""
            out.append(Diagnostic("relation-mismatch", first_r.message + more, claim.line, claim.range))
        for i, lim in found.limits[:1]:
            cit = cits[i]
            line = cit.line_of("quote") or _fence(cit)
            out.append(Diagnostic("context-limits", lim.message, line.start.line, claim.range or line, citation=cit))
        for i, neg in found.context:
            cit = cits[i]
            line = cit.line_of("quote") or _fence(cit)
            out.append(Diagnostic("context-negates", neg.message, line.start.line, claim.range or line,
                                  citation=cit))
        return out, found.numbers

    def _support_text(self, claim: Claim, results: list[CitationResult]) -> str:
        """The claim, which names an identifier, as the word-overlap score reads it:
        without the identifiers that name its sources (`Under Apache 2.0, …`)."""
        context = []
        for r in results:
            if r.resolved and r.evidence is not None:
                context += [r.evidence[0].text, self._title(r.evidence[0])]
        quotes = [r.citation.quote for r in results if r.resolved and r.citation.quote]
        return without_identifiers(claim.text, context, quotes)

    def _title(self, chunk: Chunk) -> str:
        """A source's file name and the start of its first chunk (up to 300 characters):
        what an identifier in a claim is also checked against."""
        return self._opening(chunk)[1]

    def _headings(self, results: list[CitationResult]) -> str:
        """The cited sources' headings: file name and first line of each."""
        seen = dict.fromkeys(self._opening(r.evidence[0])[0] for r in results
                             if r.resolved and r.evidence is not None)
        return "\n".join(seen)

    def _opening(self, chunk: Chunk) -> tuple[str, str]:
        """(heading, title) of the chunk's source version: its file name with the first
        line of its first chunk (up to 120 characters), and with that chunk's first 300."""
        key = (chunk.source, chunk.version)
        got = self._titles.get(key)
        if got is None:
            first = ""
            try:
                chunks = [c for c in self.store.current_chunks([chunk.source]) if c.version == chunk.version]
                if chunks:
                    first = min(chunks, key=lambda c: c.start).text[:300]
            except Exception:  # a title is a hint: a store that cannot give one leaves it empty
                log.debug("no title for %s", chunk.source, exc_info=True)
            name = chunk.source.rsplit("/", 1)[-1]
            line = next((x.strip() for x in first.splitlines() if x.strip()), "")[:120]
            got = self._titles[key] = (f"{name}\n{line}", f"{name}\n{first}")
        return got

    def verify_draft(self, path: str, doc: DraftDoc, *, encoding_problem: bool = False,
                     cache: dict | None = None) -> DraftResult:
        """Verify every claim; `cache` (claim key -> ClaimResult) skips unchanged claims."""
        self.prefetch(c.chunk_id for claim in doc.claims for c in claim.citations)
        self.read_ahead([claim for claim in doc.claims if cache is None or claim.key not in cache])
        claims = []
        for claim in doc.claims:
            if cache is not None:
                key = claim.key
                hit = cache.get(key)
                if hit is None or hit.claim.line != claim.line:
                    hit = self.verify_claim(claim)
                    cache[key] = hit
                claims.append(hit)
            else:
                claims.append(self.verify_claim(claim))
        diags = self.draft_diagnostics(claims, encoding_problem=encoding_problem)
        result = DraftResult(path=path, claims=claims, diagnostics=diags, uncited_paragraphs=doc.uncited_paragraphs,
                             encoding_problem=encoding_problem, uncited=list(doc.uncited))
        if cache is None and doc.text:
            binding.complete(doc.text, result)  # where a moved block's claim is now (the whole draft is known)
        return result

    def draft_diagnostics(self, claims: Iterable[ClaimResult], *, encoding_problem: bool = False) -> list[Diagnostic]:
        """The draft's own diagnostics: its encoding, then the encoding warnings of each source its
        verified claims cite (once a source, in the order the claims cite them)."""
        return draft_notes.draft_diagnostics(self.store, self._warnings, claims, encoding_problem=encoding_problem)


def _fence(cit: Citation) -> Range:
    if cit.block is not None:
        return cit.block.fence_range
    return Range(Pos(0, 0), Pos(0, 0))


def _verbatim(claim: Claim, results: list[CitationResult]) -> bool:
    """The claim is one of its resolved quotes word for word (meaning.check skips the
    rules that cannot tell a text from itself)."""
    mine = plain_text_of(claim.text)
    return any(r.resolved and r.citation.quote and plain_text_of(r.citation.quote) == mine for r in results)


def _evidence(results: list[CitationResult]) -> list[tuple[int, Evidence]]:
    """(citation index, evidence) of each resolved quote of a claim."""
    out = []
    for i, r in enumerate(results):
        if not (r.resolved and r.citation.quote):
            continue
        q = r.citation.quote
        if r.evidence is not None:
            ch, s, e = r.evidence
            out.append((i, Evidence(q, ch.text, s, e)))
        else:
            out.append((i, Evidence(q, q, 0, len(q))))
    return out


def _sentences(results: list[CitationResult]) -> list[str]:
    """The sentence of its source around each resolved quote (up to SENTENCE_REACH characters on
    either side), where it says more than the quote."""
    out = []
    for r in results:
        if r.resolved and r.citation.quote and r.evidence is not None:
            ch, s, e = r.evidence
            a, b = sentence_around(ch.text, s, e)
            a, b = max(a, s - SENTENCE_REACH), min(b, e + SENTENCE_REACH)
            if b - a > e - s:
                out.append(ch.text[a:b])
    return out
