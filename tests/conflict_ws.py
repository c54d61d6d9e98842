"""A workspace where sources disagree (issue 47): an authoritative refund policy, an internal
draft saying otherwise, a counsel-only memo, two price lists; and cite blocks for their quotes.
Shared by the CLI and language server tests (importable: tests/ is on sys.path)."""

from __future__ import annotations

import json
from pathlib import Path

from cairn.core.chunking import chunk_id

POLICY = "Refunds are paid within 14 days of the request."
DRAFT = "Refunds are paid within 5 days of the request."
SECRET = "Refunds are paid within 60 days of the request, counsel advises."
OFFICE = "The office opens at 9 am on weekdays."
PLAN_A = "Plan A costs $10 a month for small teams with few seats."
PLAN_B = ("Plan B costs $20 a month for large companies that need many seats, admin controls"
          " and priority support.")

TIERS = """
[authority]
tiers = ["authoritative", "official", "internal", "draft"]
minimum = "{minimum}"
conflicts = "{conflicts}"
[[policy]]
path = "sources/**"
authority = "official"
[[policy]]
path = "sources/policy/**"
authority = "authoritative"
date = "2024-06-01"
[[policy]]
path = "sources/internal/**"
authority = "{draft_tier}"
date = "2025-01-10"
[[policy]]
path = "sources/counsel/**"
access = ["counsel"]
[principals]
counsel = ["counsel"]
reader = ["public"]
"""

FILES = {
    "sources/policy/refunds.md": POLICY,
    "sources/internal/draft.md": DRAFT,
    "sources/counsel/memo.md": SECRET,
    "sources/office.md": OFFICE,
    "sources/plans/a.md": PLAN_A,
    "sources/plans/b.md": PLAN_B,
}


def cite(claim: str, *quotes: tuple[str, str]) -> str:
    """A claim and one cite block per (source, quote): the quote is the source's whole paragraph."""
    blocks = "".join(
        f"```cite\nchunk_id: {chunk_id(src, q)}\nstart: 0\nend: {len(q)}\nquote: {json.dumps(q)}\nsource: {src}\n```\n"
        for src, q in quotes)
    return f"{claim}\n\n{blocks}\n"


def make(root: Path, *, toml: str | None = None, minimum: str = "", conflicts: str = "warn",
         draft_tier: str = "internal", skip: tuple[str, ...] = ()) -> Path:
    ws = root / "ws"
    for rel, text in FILES.items():
        if rel in skip:
            continue
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text + "\n", encoding="utf-8")
    (ws / "drafts").mkdir(parents=True, exist_ok=True)
    body = toml if toml is not None else TIERS.format(minimum=minimum, conflicts=conflicts, draft_tier=draft_tier)
    (ws / "cairn.toml").write_text(body, encoding="utf-8")
    return ws


def draft(ws: Path, text: str, name: str = "a.md") -> Path:
    path = ws / "drafts" / name
    path.write_text("# Answer\n\n" + text, encoding="utf-8")
    return path
