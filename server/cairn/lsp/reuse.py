"""`citation-reuse` in the editor: each workspace folder keeps a span index
(cairn.reuse.SpanIndex) whose entries for a draft are replaced every time
that draft's verdicts are published; a change that alters who cites a span
re-publishes the other drafts citing it. The hover on a citation lists every
claim citing the same span.
"""

from __future__ import annotations

from lsprotocol import types

from ..core.model import ClaimResult
from ..engine import reuse
from .diagnostics import SEVERITY, SOURCE
from .markdown import escape


def uses_of(state) -> list[tuple[reuse.Span, reuse.Use]]:
    """A draft's entries in the span index (absolute lines)."""
    out = []
    for shift, cr, _ in state.claims():
        out += reuse.claim_uses(state.rel, [cr], shift)
    return out


def diagnostics(index: reuse.SpanIndex, state, codec) -> list[types.Diagnostic]:
    """The draft's `citation-reuse` warnings, on each citation's `quote:` line."""
    out = []
    for shift, cr, seg in state.claims():
        ignored = reuse.CODE in cr.claim.ignored
        for k, r in enumerate(cr.citations):
            me = reuse.Use(state.rel, cr.claim.line + shift + 1, reuse.backed_text(cr.claim.text, cr.parts, k))
            span = reuse.span_of(r)
            others = index.unrelated_to(span, me) if span is not None else []
            if not others:
                continue
            cit = r.citation
            where = cit.line_of("quote") or (cit.block.fence_range if cit.block is not None else cr.claim.range)
            out.append(types.Diagnostic(
                range=codec.range(seg.lines, where, shift),
                severity=SEVERITY["hint" if ignored else "warning"],
                code=reuse.CODE, source=SOURCE, message=reuse.message(others)))
    return out


def hover_text(index: reuse.SpanIndex, state, cr: ClaimResult, shift: int, only: int | None) -> str:
    """Markdown listing the claims that cite the spans of `cr`'s citations (beyond `cr` itself)."""
    me = (state.rel, cr.claim.line + shift + 1)
    parts = []
    for i, r in enumerate(cr.citations):
        if only is not None and i != only:
            continue
        span = reuse.span_of(r)
        users = [u for u in index.users(span) if (u.path, u.line) != me] if span is not None else []
        if not users:
            continue
        n = f"citation {i + 1}: " if len(cr.citations) > 1 else ""
        rows = "\n".join(f"- {u.path}:{u.line} \u201c{_escape(u.text)}\u201d" for u in users[:20])
        parts.append(f"{n}the same span is also cited by:\n{rows}")
    return "\n\n".join(parts)


def _escape(text: str) -> str:
    flat = " ".join(text.split())
    return escape(flat if len(flat) <= 120 else flat[:119] + "\u2026")
