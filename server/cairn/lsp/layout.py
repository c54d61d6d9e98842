"""A claim's layout key: what of a parse its verdict and the shape of its diagnostics depend on.

Two parses of a claim with equal keys have equal verdicts, and their diagnostics' ranges differ
only by a whole number of lines: everything is relative to the claim's first line. The server
reuses a verdict in memory under it (checking.py) and keeps one in the index under it (stored.py);
both move a verdict's diagnostics to the claim's new first line with `moved`.
"""

from __future__ import annotations

from ..core.model import Claim, Pos, Range


def _rel(r: Range, base: int) -> tuple:
    return (r.start.line - base, r.start.col, r.end.line - base, r.end.col)


def moved(r: Range, delta: int) -> Range:
    """`r` moved down by `delta` lines (up when negative): where a range of a claim lies once
    the claim starts `delta` lines later, its columns unchanged."""
    return Range(Pos(r.start.line + delta, r.start.col), Pos(r.end.line + delta, r.end.col))


def layout_key(claim: Claim) -> tuple:
    """The claim's text, problems, cite blocks and citations' fields, relative to its first line."""
    base = claim.line
    return (
        claim.key,
        _rel(claim.range, base),
        tuple((b.open_line - base, b.close_line - base, _rel(b.fence_range, base), b.body) for b in claim.blocks),
        tuple(_rel(p.range, base) for p in claim.problems),
        tuple(tuple(sorted((k, _rel(v, base)) for k, v in c.field_ranges.items())) for c in claim.citations),
        tuple(tuple((p.message, _rel(p.range, base)) for p in c.problems) for c in claim.citations),
    )
