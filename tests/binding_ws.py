"""A small workspace for the binding, reuse, dates and sentence checks (issue 20):
sources about a warehouse, and a helper writing cite blocks for quotes of them."""

from __future__ import annotations

from pathlib import Path

from cairn.core.chunking import chunk_id

WAREHOUSE = """---
title: Warehouse handbook
date: 2024-03-01
---

Frozen goods are held at or below -18 °C until dispatch. Chilled goods are held between 0 and 5 °C.

The loading door on the north side opens at 06:00 and closes at 22:00 every weekday.
"""

REGISTER = """---
date: 2026-02-10
---

The asset register lists the Leeds depot as closed since January 2026.
"""

PRESS = """<html><head><meta name="date" content="2024-05-12"><title>Press</title></head>
<body><p>The Leeds depot opened on 12 May 2024 with forty loading bays.</p></body></html>
"""


def block(source: str, text: str, quote: str, claim: str | None = None) -> str:
    """A YAML cite block for `quote` in the paragraph of `text` (a source's parsed text) holding it."""
    para = next(p for p in text.split("\n\n") if quote in p).strip("\n")
    start = para.index(quote)
    lines = ["```cite", f"chunk_id: {chunk_id(source, para)}", f"start: {start}", f"end: {start + len(quote)}",
             f'quote: "{quote}"', f"source: {source}"]
    if claim is not None:
        lines.append(f'claim: "{claim}"')
    lines.append("```")
    return "\n".join(lines) + "\n"


FROZEN = "Frozen goods are held at or below -18 °C until dispatch."
DOOR = "The loading door on the north side opens at 06:00 and closes at 22:00 every weekday."


def frozen_block(claim: str | None = None) -> str:
    return block("sources/warehouse.md", WAREHOUSE, FROZEN, claim)


def door_block(claim: str | None = None) -> str:
    return block("sources/warehouse.md", WAREHOUSE, DOOR, claim)


def make(root: Path, toml: str = "") -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "sources" / "warehouse.md").write_text(WAREHOUSE, encoding="utf-8")
    (root / "cairn.toml").write_text(toml, encoding="utf-8")
    return root
