"""A draft's own diagnostics: its encoding and the encoding warnings of the sources its claims
cite. Apart from the verifier (claims.py) so that the language server can publish kept verdicts
(lsp/stored.py) with these without loading the verifier and the meaning rules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.model import ClaimResult, Diagnostic, Pos, Range


def draft_diagnostics(store: Any, warnings: dict[tuple[str, str], list[str]], claims: Iterable[ClaimResult], *,
                      encoding_problem: bool = False) -> list[Diagnostic]:
    """The draft's encoding, then the encoding warnings of each source its verified claims cite
    (once a source, in the order the claims cite them); `warnings` keeps each version's warnings
    read from `store` (emptied by its owner when the index changes)."""
    diags = []
    if encoding_problem:
        diags.append(
            Diagnostic("encoding", "the draft is not valid UTF-8: invalid bytes were replaced by U+FFFD", 0,
                       Range(Pos(0, 0), Pos(0, 0)))
        )
    seen: set[str] = set()
    for cr in claims:
        for r in cr.citations:
            if r.chunk is None or r.chunk.source in seen:
                continue
            seen.add(r.chunk.source)
            key = (r.chunk.source, r.chunk.version)
            if key not in warnings:
                warnings[key] = store.warnings_for(*key)
            for w in warnings[key]:
                diags.append(
                    Diagnostic("encoding", f"source {r.chunk.source}: {w}", 0, Range(Pos(0, 0), Pos(0, 0)))
                )
    return diags
