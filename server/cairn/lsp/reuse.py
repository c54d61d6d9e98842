"""`citation-reuse` in the editor: each workspace folder keeps a span index
(cairn.reuse.SpanIndex) whose entries for a draft are replaced every time
that draft's verdicts are published; a change that alters who cites a span
re-publishes the other drafts citing it. The hover on a citation lists every
claim citing the same span.
"""

from __future__ import annotations

import functools

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


def _citations(state):
    """(span, use, ignored, where) of each citation of the draft that cites a span, in the order of
    `uses_of`: `where()` is the LSP range its `citation-reuse` warning would be on."""
    for shift, cr, seg in state.claims():
        ignored = reuse.CODE in cr.claim.ignored
        for k, r in enumerate(cr.citations):
            span = reuse.span_of(r)
            if span is None:
                continue
            me = reuse.Use(state.rel, cr.claim.line + shift + 1, reuse.backed_text(cr.claim.text, cr.parts, k))
            yield span, me, ignored, functools.partial(_where, cr, r, seg, shift)


def _where(cr: ClaimResult, r, seg, shift: int, codec) -> types.Range:
    cit = r.citation
    where = cit.line_of("quote") or (cit.block.fence_range if cit.block is not None else cr.claim.range)
    return codec.range(seg.lines, where, shift)


def warning(rng: types.Range, ignored: bool, others: list[reuse.Use]) -> types.Diagnostic:
    """A citation's `citation-reuse` warning (a hint when the claim ignores the code)."""
    return types.Diagnostic(range=rng, severity=SEVERITY["hint" if ignored else "warning"],
                            code=reuse.CODE, source=SOURCE, message=reuse.message(others))


def diagnostics(index: reuse.SpanIndex, state, codec) -> list[types.Diagnostic]:
    """The draft's `citation-reuse` warnings, on each citation's `quote:` line."""
    out = []
    for span, me, ignored, where in _citations(state):
        others = index.unrelated_to(span, me)
        if others:
            out.append(warning(where(codec), ignored, others))
    return out


def probes(state, codec) -> list[tuple[reuse.Span, reuse.Use, types.Range, bool]]:
    """What `diagnostics` asks the span index about each citation, with the range of its warning:
    (span, use, range, ignored). The draft's entries (`uses_of`) are their first two."""
    return [(span, me, where(codec), ignored) for span, me, ignored, where in _citations(state)]


def probed(index: reuse.SpanIndex, found: list[tuple[reuse.Span, reuse.Use, types.Range, bool]]) -> list[types.Diagnostic]:
    """`diagnostics` over probes kept from a draft's state (lsp/kept_diagnostics.py)."""
    out = []
    for span, me, rng, ignored in found:
        others = index.unrelated_to(span, me)
        if others:
            out.append(warning(rng, ignored, others))
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
