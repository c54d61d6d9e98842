"""The HTML report (`cairn check --format html`) and the faithfulness lab page
(`cairn lab`): one self-contained page built from the same `Report` the JSON
format prints.

Every value that comes from a draft or a source reaches the page through
Jinja2's autoescaping (text and attributes) or as JSON inside a
`<script type="application/json">` element whose `<`, `>` and `&` are written
as `\\u003c`-style escapes; the page's content security policy allows only the
page's own inline script and style (by their SHA-256) and no request of any
kind, so even a mistake in escaping could not run a script or reach the network.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .. import __version__
from .base import CitationOut, DiagnosticOut, PartOut, Report
from .svg import score_chart, validity_chart

if TYPE_CHECKING:
    from jinja2 import Environment
    
    from ..index.workspace import Workspace

# (chunk_id, version) -> the chunk's text, page and lineage, for the quote's context
ChunkLookup = Callable[[str, str | None], "ChunkText | None"]

SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*(?=\s)")


@dataclass(frozen=True, slots=True)
class ChunkText:
    text: str
    lineage: str | None = None


@dataclass(slots=True)
class QuoteView:
    """A quote in its sentence: before + quote + after (found: the quote is in the chunk)."""

    before: str
    quote: str
    after: str
    found: bool
    at: tuple[int, int] | None = None  # the quote's offsets in the chunk, when found


@dataclass(slots=True)
class DraftView:
    """An answer's line in the page's summary table."""

    path: str
    faithful: bool
    claims: int
    verified: int
    validity: float | None


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence(s) holding text[start:end]: from just after the last sentence
    end before `start` to the first sentence end at or after `end`."""
    lo = 0
    for m in SENTENCE_END.finditer(text, 0, start):
        lo = m.end()
    hi = len(text)
    after = SENTENCE_END.search(text, max(end - 1, 0))
    if after is not None:
        hi = after.end()
    while lo < start and text[lo].isspace():
        lo += 1
    return lo, max(hi, end)


def quote_in_context(cit: CitationOut, chunk: ChunkText | None) -> QuoteView:
    """The cited quote inside the sentence of its chunk. Without the chunk (unknown
    chunk, a denied source) or when the quote is not in it, the quote alone."""
    quote = cit.quote or ""
    if chunk is None or not quote:
        return QuoteView("", quote, "", False)
    text = chunk.text
    s, e = cit.start, cit.end
    if not (s is not None and e is not None and 0 <= s < e <= len(text) and text[s:e] == quote):
        s = text.find(quote)
        e = s + len(quote)
    if s < 0:
        return QuoteView("", quote, "", False)
    lo, hi = _sentence_bounds(text, s, e)
    return QuoteView(text[lo:s], text[s:e], text[e:hi], True, (s, e))


def _field(model: BaseModel, name: str) -> Any:
    """A field the report's models may carry (a declared one, or an extra field),
    else None; pydantic's getattr for a missing name raises and is slow."""
    got = model.__dict__.get(name)
    if got is None and model.__pydantic_extra__:
        got = model.__pydantic_extra__.get(name)
    return got


def _diag(x: DiagnosticOut) -> dict[str, Any]:
    return {"code": x.code, "severity": x.severity, "message": x.message, "line": x.line, "fix": x.fix}


def _parts(parts: Iterable[PartOut], citations: int) -> list[dict[str, Any]]:
    """A claim's parts as the page draws them: offsets into the claim's text and the
    indices of the citations whose quotes back each (none: a part no quote backs)."""
    return [{"text": p.text, "start": p.start, "end": p.end, "supported": p.supported,
             "citations": [i for i in p.citations if 0 <= i < citations]} for p in parts]


def build_data(report: Report, lookup: ChunkLookup | None) -> tuple[list[DraftView], list[dict], dict[str, str]]:
    """The answers' summary, every answer as the page's script draws it (plain
    JSON values: the script builds the elements with textContent, never markup),
    and the chunk texts, embedded once each (by key)."""
    chunks: dict[str, str] = {}
    keys: dict[tuple[str, str | None], str] = {}
    views: list[DraftView] = []
    answers: list[dict] = []
    for d in report.drafts:
        claims = []
        for c in d.claims:
            cits = []
            for cit in c.citations:
                found = lookup(cit.chunk_id, cit.version) if (lookup and cit.chunk_id) else None
                qv = quote_in_context(cit, found)
                key = None
                if found is not None:
                    k = (cit.chunk_id or "", cit.version)
                    key = keys.get(k)
                    if key is None:
                        key = keys[k] = f"c{len(keys)}"
                        chunks[key] = found.text
                cits.append({
                    "source": cit.source, "page": cit.page, "version": cit.version, "start": cit.start,
                    "end": cit.end, "chunk_id": cit.chunk_id, "resolved": cit.resolved,
                    "tier": _field(cit, "authority"),
                    "lineage": _field(cit, "lineage") or (found.lineage if found else None),
                    "before": qv.before, "quote": qv.quote, "after": qv.after, "found": qv.found, "chunk": key,
                    "at": list(qv.at) if qv.at else None,
                })
            claims.append({"text": c.text, "line": c.line, "supported": c.supported, "score": c.support_score,
                           "judge": c.judge, "citations": cits, "diagnostics": [_diag(x) for x in c.diagnostics],
                           "parts": _parts(c.parts, len(cits)), "joint": c.joint})
        entry = {"path": d.path, "faithful": d.faithful, "uncited": d.uncited_paragraphs, "claims": claims,
                 "diagnostics": [_diag(x) for x in d.diagnostics],
                 "uncited_list": [{"line": u.line, "text": u.text} for u in _field(d, "uncited") or []]}
        for extra in ("id", "question"):
            if _field(d, extra) is not None:
                entry[extra] = _field(d, extra)
        answers.append(entry)
        verified = sum(c.supported for c in d.claims)
        views.append(DraftView(d.path, d.faithful, len(d.claims), verified,
                               verified / len(d.claims) if d.claims else None))
    return views, answers, chunks


def _support_rate(report: Report) -> float | None:
    """Verified claims among the claims whose citations all resolved (SPEC section 5)."""
    got = _field(report.metrics, "support_rate")
    if got is not None:
        return got
    resolved = [c for d in report.drafts for c in d.claims if c.citations and all(x.resolved for x in c.citations)]
    return sum(c.supported for c in resolved) / len(resolved) if resolved else None


def lab_preset(report: Report | None) -> dict:
    """The lab's starting point: p = the observed citation validity, n = the
    median claims per answer, with the observed faithfulness beside them."""
    if report is None or report.metrics.citation_validity is None:
        return {"p": 0.8, "n": 10, "observed": None, "from_report": False}
    counts = [len(d.claims) for d in report.drafts if d.claims]
    n = max(1, round(statistics.median(counts))) if counts else 1
    return {"p": round(report.metrics.citation_validity, 4), "n": n,
            "observed": report.metrics.faithfulness, "from_report": True}


def _json_for_script(value: object) -> str:
    """JSON safe inside a <script> element: no `<`, `>` or `&` survives, so no
    `</script>` or `<!--` can end or change the element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@lru_cache(maxsize=1)
def _env() -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(loader=PackageLoader("cairn.report", "templates"), autoescape=select_autoescape(["html", "j2"],
                      default_for_string=True, default=True), undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda x: "n/a" if x is None else f"{x:.1%}"
    env.filters["score"] = lambda x: "n/a" if x is None else f"{x:.2f}"
    return env


@cache
def _asset(name: str) -> str:
    return resources.files("cairn.report").joinpath("templates", name).read_text("utf-8")


def _page(template: str, **ctx: Any) -> str:
    """Render a page; its inline <style> and <script> are allowed by hash only."""
    css = _asset("report.css")
    js = _asset("lab.js") + "\n" + (_asset("report.js") if template == "report.html.j2" else "")
    csp = (f"default-src 'none'; style-src {_csp_hash(css)}; script-src {_csp_hash(js)};"
           " img-src data:; font-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'")
    return _env().get_template(template).render(css=css, js=js, csp=csp, version=__version__, **ctx)


def render_html(report: Report, *, lookup: ChunkLookup | None = None, threshold: float | None = None,
                title: str = "Cairn report") -> str:
    """The report as one self-contained HTML page."""
    from markupsafe import Markup

    views, answers, chunks = build_data(report, lookup)
    m = report.metrics
    metrics = [
        ("Citation validity", m.citation_validity, f"{m.verified_claims} of {m.claims} claims verified"),
        ("Faithfulness", m.faithfulness, f"{m.faithful_answers} of {m.answers} answers with every claim verified"),
        ("Resolution", m.resolution, f"{m.resolved_citations} of {m.citations} citations resolved"),
        ("Coverage", m.coverage, f"{m.claims} claims, {m.uncited_paragraphs} uncited paragraphs"),
        ("Support rate", _support_rate(report), "verified among the claims whose citations all resolved"),
    ]
    quality = _field(m, "source_quality")
    codes = sorted({x.code for d in report.drafts for c in d.claims for x in c.diagnostics})
    sources = sorted({x.source for d in report.drafts for c in d.claims for x in c.citations if x.source})
    scores = [c.support_score for d in report.drafts for c in d.claims if c.support_score is not None]
    per_answer = [(v.path, v.validity, v.faithful) for v in views]
    preset = lab_preset(report)
    data = {"answers": answers, "chunks": chunks, "lab": preset}
    return _page(
        "report.html.j2",
        title=title,
        drafts=views,
        metrics=metrics,
        quality=quality,
        codes=codes,
        sources=sources,
        claims_total=m.claims,
        chart_validity=Markup(validity_chart(per_answer)),
        chart_scores=Markup(score_chart(scores, threshold)),
        threshold=threshold,
        lab=preset,
        data=Markup(_json_for_script(data)),
    )


def render_lab(p: float = 0.8, n: int = 10) -> str:
    """The faithfulness lab alone."""
    from markupsafe import Markup

    preset = {"p": p, "n": n, "observed": None, "from_report": False}
    return _page("lab.html.j2", title="Cairn faithfulness lab", lab=preset,
                 data=Markup(_json_for_script({"answers": [], "chunks": {}, "lab": preset})))


def store_lookup(ws: Workspace, report: Report) -> ChunkLookup:
    """A ChunkLookup over the workspace's store: every cited chunk read in a few
    queries; a chunk of a source the workspace may not read is never shown."""
    ids: Iterable[str] = {c.chunk_id for d in report.drafts for cl in d.claims for c in cl.citations if c.chunk_id}
    found = ws.store.lookup_many(ids)

    def lookup(chunk_id: str, version: str | None) -> ChunkText | None:
        rows = found.get(chunk_id)
        if not rows:
            return None
        pick = rows[0]
        if version:
            v = version.lower()
            pick = next((r for r in rows if r.version.startswith(v)), pick)
        if not ws.allowed(pick.source):
            return None
        return ChunkText(pick.text)

    return lookup
