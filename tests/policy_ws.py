"""A small workspace with a source policy (tiers, a counsel-only source), shared
by the CLI and language server tests of the policy (importable: tests/ is on sys.path)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

POLICY = "Refunds are paid within 30 days of the request."
PROPOSAL = "Refunds are paid within 5 days of the request, as this draft proposes."
SECRET = "The settlement with Acme Corp is confidential and capped at nine million dollars."
SECRET_WORDS = ("confidential and capped", "nine million dollars", SECRET)

TOML = """
[authority]
tiers = ["authoritative", "official", "internal", "draft"]
minimum = "official"
[[policy]]
path = "sources/**"
authority = "official"
[[policy]]
path = "sources/counsel/**"
access = ["counsel"]
[[policy]]
path = "sources/proposal.md"
authority = "draft"
[principals]
counsel = ["counsel", "public"]
reader = ["public"]
"""


def chunk_id(source: str, text: str) -> str:
    return hashlib.sha256(f"{source}\n{text}".encode()).hexdigest()[:16]


def cite(claim: str, source: str, quote: str, *, named: bool = False) -> str:
    src = f"source: {source}\n" if named else ""
    return (f"{claim}\n\n```cite\nchunk_id: {chunk_id(source, quote)}\nstart: 0\nend: {len(quote)}\n"
            f"quote: {json.dumps(quote)}\n{src}```\n\n")


def make(tmp_path: Path, toml: str = TOML) -> Path:
    ws = tmp_path / "ws"
    (ws / "sources" / "counsel").mkdir(parents=True)
    (ws / "drafts").mkdir()
    (ws / "cairn.toml").write_text(toml, encoding="utf-8")
    (ws / "sources" / "policy.md").write_text(POLICY + "\n", encoding="utf-8")
    (ws / "sources" / "proposal.md").write_text(PROPOSAL + "\n", encoding="utf-8")
    (ws / "sources" / "counsel" / "memo.md").write_text(SECRET + "\n", encoding="utf-8")
    (ws / "drafts" / "a.md").write_text(
        "# Answer\n\n"
        + cite("Refunds are paid within 30 days of the request.", "sources/policy.md", POLICY)
        + cite("Refunds are paid within 5 days of the request.", "sources/proposal.md", PROPOSAL)
        + cite("The Acme settlement is capped.", "sources/counsel/memo.md", SECRET),
        encoding="utf-8")
    return ws
