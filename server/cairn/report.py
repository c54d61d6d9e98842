"""Reports (SPEC sections 5 and 6): the metrics, the JSON report as pydantic
models, the text output, SARIF 2.1.0 and the baseline gate."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from . import __version__
from .model import ClaimResult, Diagnostic, DraftResult
from .sentences_check import unsupported_count
from .terminal import safe


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


class DiagnosticOut(BaseModel):
    code: str
    severity: str
    message: str
    line: int
    fix: str | None = None  # (extra field) what `cairn check --fix` would do about it


class ClaimOut(BaseModel):
    text: str
    line: int
    supported: bool
    support_score: float | None
    judge: str
    citations: list[CitationOut]
    diagnostics: list[DiagnosticOut]


class DraftOut(BaseModel):
    path: str
    faithful: bool
    claims: list[ClaimOut]
    diagnostics: list[DiagnosticOut] = []  # draft-level diagnostics (encoding)
    uncited_paragraphs: int = 0


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


class Report(BaseModel):
    model_config = ConfigDict(extra="allow")
    drafts: list[DraftOut]
    metrics: Metrics


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def diagnostic_out(d: Diagnostic, *, fixable: bool = True) -> DiagnosticOut:
    fix = d.auto_fix if fixable else None
    if fix is not None and d.citation is not None:
        from .drafts import fix_edits

        if fix_edits(d.citation, fix.values)[1] is not None:
            fix = None  # --fix will refuse it (it would not read back): the report does not promise it
    return DiagnosticOut(code=d.code, severity=d.severity, message=d.message, line=d.line + 1,
                         fix=fix.title if fix else None)


def claim_out(cr: ClaimResult, *, fixable: bool = True) -> ClaimOut:
    cits = []
    for r in cr.citations:
        c = r.citation
        ch = r.chunk
        cits.append(
            CitationOut(
                chunk_id=c.chunk_id,
                start=c.start,
                end=c.end,
                quote=c.quote,
                resolved=r.resolved,
                source=ch.source if ch else c.source,
                page=ch.page if ch else None,
                version=ch.version if ch else c.version,
                date=r.date,
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
    )


def metrics_of(drafts: list[DraftResult], *, strict_sentences: bool = False) -> Metrics:
    """The metrics (SPEC section 5); under `strict_sentences` an unsupported
    sentence of a claim counts as an uncited paragraph in `coverage`."""
    claims = [c for d in drafts for c in d.claims]
    verified = sum(c.supported for c in claims)
    cits = [r for c in claims for r in c.citations]
    resolved = sum(r.resolved for r in cits)
    faithful = sum(d.faithful for d in drafts)
    uncited = sum(d.uncited_paragraphs for d in drafts)
    uncited += sum(unsupported_count(c.diagnostics, strict_sentences) for c in claims)
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
    )


def draft_out(d: DraftResult) -> DraftOut:
    return DraftOut(
        path=d.path,
        faithful=d.faithful,
        claims=[claim_out(c, fixable=not d.encoding_problem) for c in d.claims],
        diagnostics=[diagnostic_out(x) for x in d.diagnostics],
        uncited_paragraphs=d.uncited_paragraphs,
    )


def build_report(drafts: list[DraftResult], *, strict_sentences: bool = False) -> Report:
    return report_of([draft_out(d) for d in drafts], strict_sentences=strict_sentences)


def report_of(outs: list[DraftOut], *, strict_sentences: bool = False) -> Report:
    """The report of drafts already in their output form (metrics_of reads
    the same attribute names on both forms)."""
    return Report(drafts=outs, metrics=metrics_of(outs, strict_sentences=strict_sentences))  # type: ignore[arg-type]


# -- text ---------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def render_text(report: Report, *, color: bool = False) -> str:
    """The report for a person. Every value taken from a draft or a source passes
    through terminal.safe: the only control sequences printed are our colours."""

    def paint(s: str, code: str) -> str:
        return f"\x1b[{code}m{s}\x1b[0m" if color else s

    out: list[str] = []
    fixes = 0
    for d in report.drafts:
        path = safe(d.path)
        badge = paint("faithful", "32") if d.faithful else paint("not faithful", "31")
        out.append(f"{path}: {badge}")
        for diag in d.diagnostics:
            out.append(f"  {path}:{diag.line}: {diag.severity} [{safe(diag.code)}] {safe(diag.message)}")
        if not d.claims:
            out.append("  (no claims)")
        for c in d.claims:
            score = "n/a" if c.support_score is None else f"{c.support_score:.2f}"
            verdict = paint("VERIFIED", "32") if c.supported else paint("FAILED", "31")
            text = " ".join(c.text.splitlines())  # a claim's line breaks (any of the three) as spaces
            text = text if len(text) <= 100 else text[:97] + "..."
            out.append(f"  {path}:{c.line}: {verdict} (support {score}, {safe(c.judge)}) {safe(text)}")
            for cit in c.citations:
                page = f" p.{cit.page}" if cit.page else ""
                ver = f" @{safe(cit.version[:8])}" if cit.version else ""
                ver += f" dated {safe(cit.date)}" if cit.date else ""
                state = "resolved" if cit.resolved else "unresolved"
                out.append(f"      {safe(cit.source or '?')}{page}{ver} [{cit.start}, {cit.end}) {state}")
                quote = (cit.quote or "").replace("\r\n", "\n").replace("\r", "\n")
                quote = safe(quote, newlines=True).replace("\n", "\n         ")
                out.append(f"        \u201c{quote}\u201d")
            for diag in c.diagnostics:
                sev = diag.severity
                tag = paint(sev, "31" if sev == "error" else "33" if sev == "warning" else "36")
                out.append(f"    {path}:{diag.line}: {tag} [{safe(diag.code)}] {safe(diag.message)}")
                if diag.fix:
                    out.append(f"      fix: {safe(diag.fix)}")
                    fixes += 1
        out.append("")
    m = report.metrics
    out.append(
        f"claims {m.verified_claims}/{m.claims} verified · citation_validity {_pct(m.citation_validity)}"
        f" · faithfulness {_pct(m.faithfulness)} ({m.faithful_answers}/{m.answers} answers)"
        f" · resolution {_pct(m.resolution)} · coverage {_pct(m.coverage)}"
    )
    if fixes:
        out.append(f"{fixes} fix{'es' if fixes > 1 else ''} above can be applied with `cairn check --fix`")
    return "\n".join(out)


# -- SARIF ----------------------------------------------------------------------------

_SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note", "hint": "none"}


def render_sarif(report: Report, drafts: list[DraftResult], *, base: Path, root: Path) -> str:
    """SARIF 2.1.0; artifact paths relative to `base` (the git root when there is one)."""
    from .model import CODES

    def uri(path: str) -> str:
        try:
            return (root / path).resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            return path

    results = []
    for d in drafts:
        for diag in d.all_diagnostics:
            r = diag.range
            results.append(
                {
                    "ruleId": diag.code,
                    "level": _SARIF_LEVEL[diag.severity],
                    "message": {"text": diag.message},
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
    for name in ("citation_validity", "faithfulness", "coverage"):
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
