"""Sources that are drafts: a file under a source root holding cite blocks.

A draft copied into `sources/` would be offered as evidence for its own
claims, each quoting itself. `cairn index` and `cairn check` warn about such a
file (drafted_warnings), and the evidence search and `cairn ask` never offer
its passages (drafted_sources).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .workspace import Workspace

__all__ = ["DRAFTED", "drafted_sources", "drafted_warnings"]

# a fenced block opened as `cite` (```cite or ~~~cite) at a line's start, as drafts write them
_CITE_FENCE = re.compile(r"(?m)^[ \t]{0,3}(?:`{3,}|~{3,})[ \t]*cite\b")
_LIMIT = 5000  # chunks holding the word "cite" looked at

DRAFTED = ("holds cite blocks, so it reads as a draft, not a source: its passages are never offered as"
           " evidence (cite --for, ask, the editor); move it out of the source roots, or make it a draft")


def drafted_sources(ws: Workspace) -> set[str]:
    """The current, allowed sources whose text holds a cite block."""
    out: set[str] = set()
    for ch in ws.store.search_words(["cite"], limit=_LIMIT):
        if ch.source not in out and ws.allowed(ch.source) and _CITE_FENCE.search(ch.text):
            out.add(ch.source)
    return out


def drafted_warnings(ws: Workspace) -> dict[str, str]:
    """source -> the warning `cairn index` and `cairn check` print for it."""
    return {s: DRAFTED for s in sorted(drafted_sources(ws))}
