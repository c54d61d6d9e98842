"""A code lens above each cite block: its claim's verdict in a few words,
e.g. "supported 0.86 · sources/policy.md p.2" or "quote not found"."""

from __future__ import annotations

from lsprotocol import types

from ..model import ClaimResult, Pos, Range

# the words of a failing code, first failing diagnostic of the claim decides
_WORDS = {
    "block-syntax": "cite block not readable",
    "no-citations": "no citations",
    "source-denied": "source not allowed",
    "unknown-chunk": "unknown chunk",
    "quote-not-found": "quote not found",
    "source-changed": "source changed",
}


def _where(cr: ClaimResult, indexes: list[int]) -> str:
    seen: list[str] = []
    for i in indexes:
        r = cr.citations[i]
        if r.chunk is None:
            continue
        source = r.current_span.source if r.current_span else r.chunk.source
        page = r.chunk.page if (r.chunk.current or r.current_span is None) else None
        label = source + (f" p.{page}" if page else "")
        if label not in seen:
            seen.append(label)
    if len(seen) > 2:
        return f"{seen[0]}, {seen[1]} +{len(seen) - 2}"
    return ", ".join(seen)


def lens_title(cr: ClaimResult, threshold: float, indexes: list[int]) -> str:
    score = "n/a" if cr.support_score is None else f"{cr.support_score:.2f}"
    where = _where(cr, indexes)
    if cr.supported:
        words = f"supported {score}"
        notes = sorted({d.code.replace("-", " ") for d in cr.diagnostics if not d.ignored})
        title = " · ".join(x for x in [words, where, *notes] if x)
        return title
    first = next((d for d in cr.diagnostics if d.fails), None)
    if first is None:
        return "not supported"
    if first.code == "unsupported-claim":
        return " · ".join(x for x in [f"unsupported {score} < {threshold:g}", where] if x)
    if first.code == "number-mismatch":
        return f"number mismatch: {first.message}"
    return _WORDS.get(first.code, first.code.replace("-", " "))


def code_lenses(folder, state, codec) -> list[types.CodeLens]:
    threshold = folder.settings.config.threshold
    out = []
    for shift, cr, seg in state.claims():
        for b in cr.claim.blocks:
            indexes = [i for i, r in enumerate(cr.citations) if r.citation.block is b]
            title = lens_title(cr, threshold, indexes)
            line = b.open_line
            end = len(seg.lines[line]) if line < len(seg.lines) else 0
            rng = codec.range(seg.lines, Range(Pos(line, 0), Pos(line, end)), shift)
            out.append(types.CodeLens(range=rng, command=types.Command(title=title, command="")))
    return out
