"""Engine diagnostics -> LSP diagnostics (SPEC section 4's table: same codes,
severities and messages as `cairn check`; an ignored code is a hint).

Ranges come from the engine (the claim's text, the `quote:` line, the
`chunk_id:` to `end:` lines...); this module only moves them to the client's
position encoding and adds where the cited span sits in its source.
"""

from __future__ import annotations

import re

from lsprotocol import types

from ..core.model import ClaimResult, Diagnostic, Pos, Range
from .positions import Codec

SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}

SOURCE = "cairn"


def to_lsp(
    d: Diagnostic,
    lines: list[str],
    codec: Codec,
    related: list[types.DiagnosticRelatedInformation] | None = None,
) -> types.Diagnostic:
    return types.Diagnostic(
        range=codec.range(lines, d.range),
        severity=SEVERITY[d.severity],
        code=d.code,
        source=SOURCE,
        message=d.message,
        related_information=related or None,
    )


def claim_diagnostics(cr: ClaimResult, lines: list[str], codec: Codec, locate) -> list[types.Diagnostic]:
    """One claim's diagnostics, relative to `lines`.

    `locate(citation_result)` gives the cited span's Location or None. A
    diagnostic about one citation points at that citation's span; one about
    the claim (support, numbers) at every resolved quote.
    """
    out = []
    spans: dict[int, types.Location | None] = {}

    def span_of(i: int) -> types.Location | None:
        if i not in spans:
            spans[i] = locate(cr.citations[i])
        return spans[i]

    index = {id(r.citation): i for i, r in enumerate(cr.citations)}
    for d in cr.diagnostics:
        related = []
        if d.citation is not None:
            i = index.get(id(d.citation))
            loc = span_of(i) if i is not None else None
            if i is not None and loc is not None:
                related.append(types.DiagnosticRelatedInformation(location=loc, message=_what(cr, i)))
        elif d.code in ("unsupported-claim", "number-mismatch", "contradiction", "relation-mismatch", "judge-fallback"):
            for i, r in enumerate(cr.citations):
                if r.resolved:
                    loc = span_of(i)
                    if loc is not None:
                        related.append(types.DiagnosticRelatedInformation(location=loc, message=_what(cr, i)))
        if d.code == "unsupported-sentence":
            d = d.copy(range=sentence_range(lines, d.range, d.message))
        out.append(to_lsp(d, lines, codec, related))
    return out


def sentence_range(lines: list[str], claim: Range, message: str) -> Range:
    """Where the sentence an `unsupported-sentence` message quotes sits in the claim's
    lines (found by its first and last words); the claim's range when markup hides it."""
    m = re.search("\u201c(.+)\u201d", message)
    if m is None:
        return claim
    words = m.group(1).split()
    head, tail = " ".join(words[:3]), " ".join(words[-2:])
    last = min(claim.end.line, len(lines) - 1)
    for i in range(claim.start.line, last + 1):
        col = lines[i].find(head)
        if col < 0:
            continue
        for j in range(i, last + 1):
            at = lines[j].find(tail, col if j == i else 0)
            if at >= 0:
                return Range(Pos(i, col), Pos(j, at + len(tail)))
        break
    return claim


def _what(cr: ClaimResult, i: int) -> str:
    r = cr.citations[i]
    source = r.chunk.source if r.chunk else (r.citation.source or "?")
    n = f"citation {i + 1}: " if len(cr.citations) > 1 else ""
    if r.current_span is not None:
        return f"{n}the quote in {source}"
    return f"{n}the cited chunk in {source}"
