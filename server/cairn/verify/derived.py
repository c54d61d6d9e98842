"""Derived sources (SPEC section 4, `derived-source`).

A source its policy marks `derived` is a summary or an extract, not an
original. It is read like a draft: the paragraph a citation names may carry
cite blocks of its own, naming the original spans it was written from. When
those resolve (through further derived sources too), the claim is checked
against the original quotes and the finding names them; when they do not,
the citation fails the claim: a summary is not an original quotation.
Lineage that runs in a cycle is reported and never followed again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.model import Chunk, Citation, CitationResult, Claim, Diagnostic, Fix, Pos, Range

if TYPE_CHECKING:
    from .base import VerifierView

MAX_DEPTH = 8  # derived sources summarising derived sources, at most this deep


@dataclass(slots=True)
class Lineage:
    originals: list[CitationResult] = field(default_factory=list)  # resolved citations of original sources
    problem: str | None = None  # why the lineage does not resolve


def derived_diagnostics(verifier: VerifierView, claim: Claim, results: list[CitationResult]) -> list[Diagnostic]:
    """A `derived-source` finding for each citation whose chunk is in a derived source."""
    policy = verifier.ws.settings.policy
    out: list[Diagnostic] = []
    for r in results:
        ch = r.chunk
        if ch is None or not policy.of(ch.source).derived:
            continue
        out.append(_finding(verifier, claim, r, lineage_of(verifier, ch, (ch.source,))))
    return out


def lineage_of(verifier: VerifierView, chunk: Chunk, path: tuple[str, ...]) -> Lineage:
    """The original spans behind a chunk of a derived source (`path`: the derived
    sources followed so far, this one last)."""
    if len(path) > MAX_DEPTH:
        return Lineage(problem=f"its lineage is deeper than {MAX_DEPTH} derived sources")
    cits = own_citations(verifier, chunk)
    if not cits:
        return Lineage(problem="its paragraph carries no citations of its own")
    policy = verifier.ws.settings.policy
    out = Lineage()
    for cit in cits:
        if cit.problems:
            return Lineage(problem="a citation of its own does not parse")
        res, _ = verifier.verify_citation(cit)
        if not res.resolved or res.chunk is None:
            return Lineage(problem=f"its citation of chunk {cit.chunk_id} does not resolve")
        src = res.chunk.source
        if policy.of(src).derived:
            if src in path:
                return Lineage(problem="its lineage runs in a cycle: " + " → ".join((*path, src)))
            inner = lineage_of(verifier, res.chunk, (*path, src))
            if inner.problem is not None:
                return Lineage(problem=f"{src}: {inner.problem}")
            out.originals += inner.originals
        else:
            out.originals.append(res)
    return out


def own_citations(verifier: VerifierView, chunk: Chunk) -> list[Citation]:
    """The citations of the claim, in the derived source read as a draft, whose
    paragraph holds the chunk."""
    from .. import drafts as drafts_mod

    info = verifier.store.version_info(chunk.source, chunk.version)
    if info is None:
        return []
    try:
        text = verifier.store.version_text(info.id)
    except KeyError:  # a version Cairn cannot vouch for: no lineage from it
        return []
    line = len(drafts_mod.split_lines(text[:chunk.start])) - 1
    for claim in drafts_mod.parse_draft(text).claims:
        if claim.range.start.line <= line <= claim.range.end.line and claim.citations:
            return claim.citations
    return []


def _finding(verifier: VerifierView, claim: Claim, r: CitationResult, lineage: Lineage) -> Diagnostic:
    cit = r.citation
    assert r.chunk is not None
    where = cit.line_of("chunk_id") or (cit.block.fence_range if cit.block is not None else Range(Pos(0, 0), Pos(0, 0)))
    head = f"{r.chunk.source} is a derived source (a summary or extract)"
    if lineage.problem is not None or not lineage.originals:
        return Diagnostic("derived-source", f"{head}; {lineage.problem or 'it has no lineage'}:"
                          " a summary is not an original quotation", where.start.line, where, citation=cit,
                          fails_claim=True)
    from ..support import check_support

    cfg = verifier.ws.settings.config
    quotes = [o.citation.quote or "" for o in lineage.originals]
    got = check_support(claim.text, quotes, threshold=cfg.threshold, mode=cfg.support.mode)
    named = "; ".join(f"{o.chunk.source} \u201c{_short(o.citation.quote or '')}\u201d"
                      for o in lineage.originals if o.chunk is not None)
    fixes = [Fix(f"Cite the original span in {o.chunk.source}",
                 {"chunk_id": o.chunk.chunk_id, "start": o.citation.start, "end": o.citation.end,
                  "quote": o.citation.quote, "source": o.chunk.source, "version": o.chunk.version}, safe=False)
             for o in lineage.originals if o.chunk is not None]
    score = "n/a" if got.score is None else f"{got.score:.2f}"
    passed = got.score is not None and got.score >= cfg.threshold
    verdict = (f"the original quotes support the claim (score {score})" if passed else
               f"the original quotes do not support the claim (score {score} < {cfg.threshold:g})")
    # the meaning rules too (quantities, polarity, context), over the original quotes
    meaning, _ = verifier._meaning(claim, lineage.originals, polarity=passed)
    if meaning:
        passed = False
        verdict = f"the original quotes do not support the claim ({meaning[0].code}: {meaning[0].message})"
    return Diagnostic("derived-source", f"{head}; its lineage: {named}; {verdict}", where.start.line, where,
                      citation=cit, fixes=fixes, fails_claim=not passed)


def _short(text: str, width: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"
