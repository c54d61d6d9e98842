"""A small workspace for the nli judge's tests: one source, one draft whose claims the tiny
classifier of nli_model.py and the lexical check decide differently, and the classifier's folder
inside the workspace (models/tiny), named by the workspace's own cairn.toml.

The claims (the tiny model says "supported" exactly when the quote's sentence holds "confirmed"):

- FERRIES: lexically unsupported (1 of 3 content words), supported by the model;
- BRIDGE: lexically supported (every word quoted), not supported by the model;
- DAYS: the model's yes is overruled by the quantity rule (no 30 days in the quote).

The cite blocks are written by the real `cairn cite`, as a writer gets them.
"""

from __future__ import annotations

import json
from pathlib import Path

import nli_model
from cairn_testing import run_cairn

SOURCE = (
    "# Harbour report\n\n"
    "The harbour office confirmed that the ferries stopped running after the spring storm."
    " The bridge opened in spring.\n"
)
FERRIES = "Ferries were suspended across the whole region."
BRIDGE = "The bridge opened in spring."
DAYS = "The ferries stopped running for 30 days."
CLAIMS = {FERRIES: "the ferries stopped running", BRIDGE: "The bridge opened in spring",
          DAYS: "the ferries stopped running"}
MODEL = "models/tiny"


def judge_table(model: str = MODEL, **extra: object) -> str:
    lines = ['provider = "nli"', f"model = {json.dumps(model)}"] + [f"{k} = {json.dumps(v)}" for k, v in extra.items()]
    return "\n[judge]\n" + "\n".join(lines) + "\n"


def configure(root: Path, model: str = MODEL, **extra: object) -> None:
    """Write the workspace's own [judge] table (replacing an earlier one)."""
    toml = root / "cairn.toml"
    text = toml.read_text(encoding="utf-8").split("\n[judge]\n")[0]
    toml.write_text(text + judge_table(model, **extra), encoding="utf-8")


def build(root: Path, *, judge: bool = True, labels: dict[str, str] | None = None) -> Path:
    """The workspace at `root`, indexed, its draft written; with `judge`, the nli judge configured."""
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n', encoding="utf-8")
    (root / "sources" / "harbour.md").write_text(SOURCE, encoding="utf-8")
    nli_model.build(root / MODEL, labels=labels)
    parts = ["# Harbour answer\n"]
    for claim, quote in CLAIMS.items():
        proc = run_cairn(root, "cite", quote)
        assert proc.returncode == 0, proc.stderr
        parts.append(f"{claim}\n\n{proc.stdout.strip()}\n")
    (root / "drafts" / "answer.md").write_text("\n".join(parts), encoding="utf-8")
    if judge:
        configure(root)
    return root
