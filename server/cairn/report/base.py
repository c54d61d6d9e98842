"""Reports (SPEC sections 5 and 6): the metrics, the JSON report as pydantic
models, the text output, SARIF 2.1.0 and the baseline gate."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from .. import __version__
from ..core.model import CitationResult, ClaimResult, Diagnostic, DraftResult
from ..core.terminal import safe


class CitationOut(BaseModel):
    chunk_id: str | None
    start: int | None
    end: int | None
    quote: str | None
    resolved: bool
    source: str | None
    page: int | None
    version: str | None
    date: str | None = None  # (extra field) the source's date, YYYY-MM-DD
    source_start: int | None = None  # the quote's offsets in the source's parsed text
    source_end: int | None = None
    source_line: int | None = None  # and its line:column (1-based) in a text source
    source_column: int | None = None
    authority: str | None = None
    lineage: str | None = None


class DiagnosticOut(BaseModel):
    code: str
    severity: str
    message: str
    line: int
    fix: str | None = None  # (extra field) what `cairn check --fix` would do about it


class PartOut(BaseModel):
    """A part of a claim (SPEC section 5): offsets in the claim's text, the indices of the
    citations whose quotes back it."""

    text: str
    start: int
    end: int
    citations: list[int]
    supported: bool


class ClaimOut(BaseModel):
    text: str
    line: int
    supported: bool
    support_score: float | None
    judge: str
    citations: list[CitationOut]
    diagnostics: list[DiagnosticOut]
    parts: list[PartOut] = []
    joint: bool = False  # no single quote backs the whole claim, the quotes together do


class UncitedOut(BaseModel):
    """An uncited prose paragraph (SPEC section 5): its first line (1-based) and its text."""

    line: int
    text: str


class DraftOut(BaseModel):
    path: str
    faithful: bool
    id: str | int | None = None  # a JSON answer's id (SPEC section 3); None for a Markdown draft
    question: str | None = None
    claims: list[ClaimOut]
    diagnostics: list[DiagnosticOut] = []  # draft-level diagnostics (encoding)
    uncited_paragraphs: int = 0
    uncited: list[UncitedOut] = []  # each uncited prose paragraph, in draft order


class JudgeMetrics(BaseModel):
    """What the configured judge did in one check (`metrics.judge`): what a CI run costs."""

    provider: str
    claims_asked: int  # claims the judge was given (no cached verdict)
    claims_cached: int  # claims a cached verdict answered
    fallbacks: int  # claims of the report the lexical check decided because the judge failed
    requests: int | None  # requests sent to the endpoint, retries included (openai; else null)
    prompt_tokens: int | None  # as the endpoint's `usage` counted them (openai; else null)
    completion_tokens: int | None


class Metrics(BaseModel):
    claims: int
    verified_claims: int
    citation_validity: float | None
    answers: int
    faithful_answers: int
    faithfulness: float | None
    citations: int
    resolved_citations: int
    resolution: float | None
    uncited_paragraphs: int
    coverage: float | None
    support_rate: float | None = None  # verified / claims whose citations all resolved
    source_quality: dict[str, int] | None = None  # tier -> verified claims whose weakest citation has it
    judge: JudgeMetrics | None = None  # `cairn check` with a judge configured


class Report(BaseModel):
    model_config = ConfigDict(extra="allow")
    drafts: list[DraftOut]
    metrics: Metrics


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def diagnostic_out(d: Diagnostic, *, fixable: bool = True) -> DiagnosticOut:
    fix = d.auto_fix if fixable else None
    if fix is not None and d.citation is not None:
        from ..drafts import fix_edits

        if fix_edits(d.citation, fix.values)[1] is not None:
            fix = None  # --fix will refuse it (it would not read back): the report does not promise it
    return DiagnosticOut(code=d.code, severity=d.severity, message=d.message, line=d.line + 1,
                         fix=fix.title if fix else None)


def claim_out(cr: ClaimResult, *, fixable: bool = True) -> ClaimOut:
    cits = []
    for r in cr.citations:
        c = r.citation
        ch = r.chunk
        denied = any(d.code == "source-denied" and d.citation is c for d in cr.diagnostics)
        span = r.current_span if r.resolved else None
        span_start: int | None
        span_end: int | None
        if span is None and ch is not None and c.start is not None and c.end is not None:
            span_start, span_end = ch.start + c.start, ch.start + c.end
        else:
            span_start, span_end = (span.start, span.end) if span is not None else (None, None)
        cits.append(
            CitationOut(
                chunk_id=c.chunk_id,
                start=c.start,
                end=c.end,
                quote=None if denied else c.quote,  # a denied source's text is never repeated
                resolved=r.resolved,
                source=ch.source if ch else c.source,
                page=ch.page if ch else None,
                version=ch.version if ch else c.version,
                date=r.date,
                source_start=span_start,
                source_end=span_end,
                source_line=r.source_line,
                source_column=r.source_column,
                authority=r.authority,
                lineage=r.lineage,
            )
        )
    return ClaimOut(
        text=cr.claim.text,
        line=cr.claim.line + 1,
        supported=cr.supported,
        support_score=cr.support_score,
        judge=cr.judge,
        citations=cits,
        diagnostics=[diagnostic_out(d, fixable=fixable) for d in sorted(cr.diagnostics, key=lambda d: d.line)],
        parts=[PartOut(text=p.text, start=p.start, end=p.end, citations=list(p.citations), supported=p.supported)
               for p in cr.parts],
        joint=cr.joint and cr.supported,
    )


def metrics_of(drafts: list[DraftResult], tiers: list[str] | None = None) -> Metrics:
    """The metrics (SPEC section 5); `tiers`: authority.tiers, for source_quality. `coverage` is claims
    over claims and uncited prose paragraphs, under `strict_sentences` too (an unsupported sentence of a
    cited claim fails that claim; it is no uncited paragraph)."""
    claims = [c for d in drafts for c in d.claims]
    verified = sum(c.supported for c in claims)
    cits = [r for c in claims for r in c.citations]
    resolved = sum(r.resolved for r in cits)
    faithful = sum(d.faithful for d in drafts)
    uncited = sum(d.uncited_paragraphs for d in drafts)
    return Metrics(
        claims=len(claims),
        verified_claims=verified,
        citation_validity=_ratio(verified, len(claims)),
        answers=len(drafts),
        faithful_answers=faithful,
        faithfulness=_ratio(faithful, len(drafts)),
        citations=len(cits),
        resolved_citations=resolved,
        resolution=_ratio(resolved, len(cits)),
        uncited_paragraphs=uncited,
        coverage=_ratio(len(claims), len(claims) + uncited),
        support_rate=support_rate(claims),
        source_quality=source_quality(claims, tiers),
    )


def support_rate(claims: Sequence[ClaimResult] | Sequence[ClaimOut]) -> float | None:
    """Verified claims over the claims whose citations all resolved (at least one):
    semantic support, apart from mechanical resolution."""
    resolved = [c for c in claims if c.citations and all(r.resolved for r in c.citations)]
    return _ratio(sum(c.supported for c in resolved), len(resolved))


def source_quality(claims: Sequence[ClaimResult] | Sequence[ClaimOut], tiers: list[str] | None) -> dict[str, int] | None:
    """Per tier, the verified claims whose weakest citation is in it (None without tiers)."""
    if not tiers:
        return None
    from ..core.policy import weakest_tier

    out = dict.fromkeys(tiers, 0)
    for c in claims:
        if not c.supported:
            continue
        weakest = weakest_tier(tiers, [_authority(c.citations[i]) for i in backing_citations(c)])
        if weakest is not None:
            out[weakest] += 1
    return out


def backing_citations(c: ClaimResult | ClaimOut) -> list[int]:
    """The indices of the claim's citations whose quotes back some part of it (all of them when
    its parts name none): the only ones whose tier counts (SPEC section 5)."""
    got = sorted({i for p in c.parts for i in p.citations if i < len(c.citations)})
    return got or list(range(len(c.citations)))


def _authority(r: CitationResult | CitationOut) -> str | None:
    return getattr(r, "authority", None)


def draft_out(d: DraftResult) -> DraftOut:
    return DraftOut(
        path=d.path,
        faithful=d.faithful,
        id=d.answer_id,
        question=d.question,
        claims=[claim_out(c, fixable=d.editable) for c in d.claims],
        diagnostics=[diagnostic_out(x, fixable=d.editable) for x in d.diagnostics],
        uncited_paragraphs=d.uncited_paragraphs,
        uncited=[UncitedOut(line=line + 1, text=text) for line, text in d.uncited],
    )


def build_report(drafts: list[DraftResult], tiers: list[str] | None = None) -> Report:
    return report_of([draft_out(d) for d in drafts], tiers)


def report_of(outs: list[DraftOut], tiers: list[str] | None = None) -> Report:
    """The report of drafts already in their output form (metrics_of reads
    the same attribute names on both forms); `tiers`: authority.tiers, for source_quality."""
    return Report(drafts=outs, metrics=metrics_of(outs, tiers))  # type: ignore[arg-type]


# -- text ---------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def _fails(c: ClaimOut, strict: bool) -> bool:
    """A claim that fails the check (with --strict, a warning fails it too)."""
    return not c.supported or (strict and any(x.severity == "warning" for x in c.diagnostics))


def render_text(report: Report, *, color: bool = False, only_failures: bool = False, strict: bool = False) -> str:
    """The report for a person. Every value taken from a draft or a source passes
    through terminal.safe: the only control sequences printed are our colours.
    `only_failures`: the failing claims (and the answers they are in) and the summary alone."""

    def paint(s: str, code: str) -> str:
        return f"\x1b[{code}m{s}\x1b[0m" if color else s

    out: list[str] = []
    fixes = 0
    hidden = 0
    for d in report.drafts:
        if only_failures:
            failing = [c for c in d.claims if _fails(c, strict)]
            hidden += len(d.claims) - len(failing)
            draft_fails = not d.faithful or (strict and any(x.severity == "warning" for x in d.diagnostics))
            if not failing and not draft_fails:
                continue
            d = d.model_copy(update={"claims": failing})
        path = safe(d.path)
        badge = paint("faithful", "32") if d.faithful else paint("not faithful", "31")
        if d.id is not None:  # a JSON answer: which one of the file's answers
            out.append(f"{path}: answer {safe(str(d.id))}: {badge}")
            if d.question:
                out.append(f"  question: {safe(' '.join(d.question.split()))}")
        else:
            out.append(f"{path}: {badge}")
        for diag in d.diagnostics:
            out.append(f"  {path}:{diag.line}: {diag.severity} [{safe(diag.code)}] {safe(diag.message)}")
        if not d.claims and not only_failures:
            out.append("  (no claims)")
        for c in d.claims:
            score = "n/a" if c.support_score is None else f"{c.support_score:.2f}"
            verdict = paint("VERIFIED", "32") if c.supported else paint("FAILED", "31")
            text = " ".join(c.text.splitlines())  # a claim's line breaks (any of the three) as spaces
            text = text if len(text) <= 100 else text[:97] + "..."
            out.append(f"  {path}:{c.line}: {verdict} (support {score}, {safe(c.judge)}) {safe(text)}")
            for cit in c.citations:
                # a page for a PDF, a line for a text source (as `cairn cite` prints them)
                page = f" p.{cit.page}" if cit.page else f":{cit.source_line}" if cit.source_line else ""
                ver = f" @{safe(cit.version[:8])}" if cit.version else ""
                ver += f" dated {safe(cit.date)}" if cit.date else ""
                state = "resolved" if cit.resolved else "unresolved"
                tier = f" ({safe(cit.authority)})" if cit.authority else ""
                out.append(f"      {safe(cit.source or '?')}{page}{ver}{tier} [{cit.start}, {cit.end}) {state}")
                if cit.quote is None:
                    continue  # withheld: a source the current principal may not read
                quote = (cit.quote or "").replace("\r\n", "\n").replace("\r", "\n")
                quote = safe(quote, newlines=True).replace("\n", "\n         ")
                out.append(f"        \u201c{quote}\u201d")
            if len(c.parts) > 1 or c.joint:
                for k, part in enumerate(c.parts, 1):
                    by = ", ".join(str(i + 1) for i in part.citations) or "none"
                    state = "backed" if part.supported else "unbacked"
                    out.append(f"      part {k} ({state}; citation {by}): \u201c{safe(part.text)}\u201d")
                if c.joint:
                    out.append("      joint: the quotes back the claim together, no one of them alone")
            for diag in c.diagnostics:
                sev = diag.severity
                tag = paint(sev, "31" if sev == "error" else "33" if sev == "warning" else "36")
                out.append(f"    {path}:{diag.line}: {tag} [{safe(diag.code)}] {safe(diag.message)}")
                if diag.code == "quote-not-found" and (marked := _marked_closest(diag.message, c.citations)):
                    out.append(f"      source says: \u201c{safe(marked)}\u201d ([...]: not in your quote)")
                if diag.fix:
                    out.append(f"      fix: {safe(diag.fix)}")
                    fixes += 1
        if not only_failures:
            out += _uncited_lines(path, d.uncited)
        out.append("")
    m = report.metrics
    out.append(
        f"claims {m.verified_claims}/{m.claims} verified · citation_validity {_pct(m.citation_validity)}"
        f" · faithfulness {_pct(m.faithfulness)} ({m.faithful_answers}/{m.answers} answers)"
        f" · resolution {_pct(m.resolution)} · support {_pct(m.support_rate)} · coverage {_pct(m.coverage)}"
        + (" · source quality " + ", ".join(f"{safe(k)} {v}" for k, v in m.source_quality.items())
           if m.source_quality is not None else "")
    )
    if fixes:
        out.append(f"{fixes} fix{'es' if fixes > 1 else ''} above can be applied with `cairn check --fix`")
    if hidden:
        out.append(f"{hidden} verified claim{'s' if hidden > 1 else ''} not shown (--only-failures)")
    return "\n".join(out)


UNCITED_SHOWN = 10  # uncited paragraphs the text output lists an answer, at most


def _uncited_lines(path: str, uncited: Sequence[UncitedOut]) -> list[str]:
    """An answer's uncited prose paragraphs, for the text output (the JSON report lists them all)."""
    out = []
    for u in uncited[:UNCITED_SHOWN]:
        text = u.text if len(u.text) <= 80 else u.text[:77] + "..."
        out.append(f"  {path}:{u.line}: uncited prose: {safe(text)}")
    if len(uncited) > UNCITED_SHOWN:
        out.append(f"  ... and {len(uncited) - UNCITED_SHOWN} more uncited paragraphs (`--format json` lists them all)")
    return out


def _marked_closest(message: str, citations: Sequence[CitationOut]) -> str | None:
    """The closest source text a quote-not-found message quotes, with the words that differ
    from the citation's own quote in [brackets] (text output only: JSON keeps the plain text)."""
    import difflib

    at = message.find("% similar: \u201c")
    if at < 0 or not message.endswith("\u201d"):
        return None
    closest = message[message.index("\u201c", at) + 1:-1]
    quote = next((cit.quote for cit in citations if cit.chunk_id and f"chunk {cit.chunk_id} " in message
                  and cit.quote), None)
    if quote is None:
        return None
    theirs, mine = closest.split(), quote.split()
    fold = [w.strip(".,;:!?\"'()").lower() for w in theirs]
    matcher = difflib.SequenceMatcher(None, [w.strip(".,;:!?\"'()").lower() for w in mine], fold, autojunk=False)
    out: list[str] = []
    for op, _, _, j1, j2 in matcher.get_opcodes():
        words = theirs[j1:j2]
        if not words:
            continue
        out.append(" ".join(words) if op == "equal" else "[" + " ".join(words) + "]")
    return " ".join(out)


# -- SARIF ----------------------------------------------------------------------------

def uncited_message(text: str) -> str:
    """What an uncited paragraph's finding says (SARIF, the editor)."""
    short = text if len(text) <= 60 else text[:57] + "..."
    return (f"uncited prose: \u201c{short}\u201d has no cite block; cite a source for it, or put"
            " <!-- cairn: no-claim --> on the line before it if it is not a claim")


_SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note", "hint": "none"}


def render_sarif(report: Report, drafts: list[DraftResult], *, base: Path, root: Path) -> str:
    """SARIF 2.1.0; artifact paths relative to `base` (the git root when there is one)."""
    from ..core.model import CODES

    def uri(path: str) -> str:
        try:
            return (root / path).resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            return path

    results = []
    for d in drafts:
        tiers_of = _sarif_tiers(d)
        where = "" if d.answer_id is None else f"answer {d.answer_id}: "
        for line, text in d.uncited:
            results.append({
                "ruleId": "uncited-prose", "level": "note", "message": {"text": uncited_message(text)},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(d.path)},
                                                    "region": {"startLine": line + 1}}}],
            })
        for diag in d.all_diagnostics:
            r = diag.range
            results.append(
                {
                    **tiers_of.get(id(diag), {}),
                    "ruleId": diag.code,
                    "level": _SARIF_LEVEL[diag.severity],
                    "message": {"text": where + diag.message},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": uri(d.path)},
                                "region": {
                                    "startLine": r.start.line + 1,
                                    "startColumn": r.start.col + 1,
                                    "endLine": r.end.line + 1,
                                    "endColumn": max(r.end.col, 0) + 1,
                                },
                            }
                        }
                    ],
                }
            )
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "cairn",
                        "version": __version__,
                        "informationUri": "https://example.invalid/cairn",
                        "rules": [
                            {
                                "id": code,
                                "shortDescription": {"text": code.replace("-", " ")},
                                "defaultConfiguration": {"level": _SARIF_LEVEL[sev]},
                            }
                            for code, (sev, _) in CODES.items()
                        ],
                    }
                },
                "results": results,
                "properties": {"metrics": report.metrics.model_dump()},
            }
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


def _sarif_tiers(d: DraftResult) -> dict[int, dict]:
    """id(diagnostic) -> SARIF `properties` naming the authority tier of each
    citation of its claim (only when a policy gives tiers)."""
    out: dict[int, dict] = {}
    for cr in d.claims:
        tiers = [{"source": r.chunk.source, "authority": r.authority} for r in cr.citations
                 if r.chunk is not None and r.authority is not None]
        if tiers:
            for diag in cr.diagnostics:
                out[id(diag)] = {"properties": {"citations": tiers}}
    return out


# -- baseline ---------------------------------------------------------------------------


class BaselineError(Exception):
    pass


def load_baseline(path: Path) -> Report:
    try:
        return Report.model_validate_json(path.read_bytes())
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror or exc}") from exc
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ())) or "the top level"
        raise BaselineError(
            f"{path} is not a Cairn JSON report (as `cairn check --format json` writes): "
            f"{'no ' + repr(where) + ' field' if err.get('type') == 'missing' else 'bad ' + repr(where) + ': ' + err['msg']}"
        ) from exc


def compare_baseline(old: Report, new: Report) -> tuple[list[str], list[str]]:
    """(regressions, warnings): a change that cites less is a regression."""
    reasons: list[str] = []
    warnings: list[str] = []
    om, nm = old.metrics, new.metrics
    for name in ("citation_validity", "faithfulness", "coverage", "support_rate"):
        a, b = getattr(om, name), getattr(nm, name)
        if a is not None and (b is None or b < a - 1e-12):
            reasons.append(f"{name} fell from {a:.4f} to {'null' if b is None else f'{b:.4f}'}")
    if nm.verified_claims < om.verified_claims:
        reasons.append(f"verified claims fell from {om.verified_claims} to {nm.verified_claims}")
    old_paths = {d.path for d in old.drafts}
    new_paths = {d.path for d in new.drafts}
    if old_paths != new_paths:
        gone = sorted(old_paths - new_paths)
        added = sorted(new_paths - old_paths)
        parts = []
        if gone:
            parts.append("missing now: " + ", ".join(gone))
        if added:
            parts.append("new: " + ", ".join(added))
        warnings.append("the set of answers differs from the baseline's (" + "; ".join(parts) + ")")
    return reasons, warnings
