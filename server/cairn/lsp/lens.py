"""A code lens above each cite block: its claim's verdict in a few words,
e.g. "supported 0.86 · sources/policy.md p.2" or "quote not found"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.model import ClaimResult

if TYPE_CHECKING:
    from .positions import Codec
    from .state import DraftState, Segment
    from .views import FolderView

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
    if first.code in ("number-mismatch", "contradiction", "relation-mismatch", "context-limits"):
        return f"{first.code.replace('-', ' ')}: {first.message}"
    if first.code == "context-negates":
        return "context negates the quote"
    return _WORDS.get(first.code, first.code.replace("-", " "))


def segment_lenses(folder: FolderView, seg: Segment, codec: Codec) -> list[tuple[int, int, str]]:
    """(line in the piece, end column in client units, title) of each cite block's lens;
    made once per piece, with its verdicts."""
    threshold = folder.settings.config.threshold
    out = []
    for cr in seg.claims:
        for b in cr.claim.blocks:
            indexes = [i for i, r in enumerate(cr.citations) if r.citation.block is b]
            line = b.open_line
            text = seg.lines[line] if line < len(seg.lines) else ""
            out.append((line, codec.to_client(text, len(text)), lens_title(cr, threshold, indexes)))
    return out


def code_lenses(state: DraftState) -> list[dict]:
    """The lenses of a whole draft, as JSON-ready dicts: a draft of 1,000 claims has
    1,000 lenses, and building protocol objects for each costs more than the rest."""
    out = []
    for shift, seg in state.placed:
        for line, end, title in seg.lenses:
            ln = line + shift
            out.append({
                "range": {"start": {"line": ln, "character": 0}, "end": {"line": ln, "character": end}},
                "command": {"title": title, "command": ""},
            })
    return out
