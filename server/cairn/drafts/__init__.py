"""Reading drafts: citation blocks, their claims, and in-place field edits (SPEC section 3).

The names other modules import; each job has its own module:

- draft_text: a draft's text read, cut into lines, edits applied;
- cite_body: a cite block's YAML or JSON body read with positions, into citations;
- draft_walk: the Markdown walk from block to claim (``parse_draft``, and the quick
  tests discovery uses: ``has_cite_block``, the near-miss fences);
- field_edits: a citation's fields rewritten in place (``field_edits``, ``fix_edits``).

``parse_draft`` never raises: anything wrong with a block becomes a ``block-syntax``
Problem.
"""

from __future__ import annotations

from .cite_body import MAX_BODY_CHARS
from .edits import field_edits, fix_edits
from .text import apply_edits, line_range, read_draft, split_lines
from .walk import (
    NO_CLAIM,
    has_cite_block,
    json_claim,
    might_have_near_miss,
    near_miss_fences,
    parse_draft,
    plain_text,
)

__all__ = [
    "read_draft",
    "parse_draft",
    "has_cite_block",
    "near_miss_fences",
    "might_have_near_miss",
    "field_edits",
    "fix_edits",
    "apply_edits",
    "split_lines",
    "line_range",
    "plain_text",
    "json_claim",
    "MAX_BODY_CHARS",
    "NO_CLAIM",
]
