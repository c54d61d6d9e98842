"""Retention (SPEC section 6, `cairn gc`): which stored versions go.

`gc` drops the versions no draft cites; `[retention] superseded_days` also
drops superseded versions older than that, cited or not; `--purge` removes
every version of named sources and records them, so that the git-history
lookup does not index them again until `--lift-purge`.
"""

from __future__ import annotations

import time
from pathlib import Path

from .. import drafts as drafts_mod
from ..index.workspace import Workspace
from . import checks as engine

DAY = 86_400.0


def source_names(ws: Workspace, names: list[str]) -> list[str]:
    """Source identities from the command line (paths or identities); a name
    outside the source roots is refused (ValueError), nothing is purged then."""
    out = []
    for name in names:
        p = Path(name)
        ident = ws.identity(p) if p.exists() else name.replace("\\", "/").strip()
        if ident is None or not ws.under_roots(ident):
            raise ValueError(f"{name}: not a source of this workspace (outside the source roots"
                             f" {', '.join(ws.roots)}); nothing was purged")
        out.append(ident)
    return list(dict.fromkeys(out))


def collect(ws: Workspace) -> tuple[int, int]:
    """(versions no draft cites dropped, superseded versions past retention dropped)."""
    engine.index(ws)
    cited: set[tuple[str, str | None]] = set()
    from ..answers.json_answers import is_answer_file, parse_answers

    for p in ws.answers(None):
        text, _ = drafts_mod.read_draft(p)
        if is_answer_file(p):  # JSON answers cite too: their versions are kept
            claims = [c for a in parse_answers(text, jsonl=p.name.lower().endswith(".jsonl")) for c in a.doc.claims]
        else:
            claims = drafts_mod.parse_draft(text).claims
        for claim in claims:
            cited |= {(c.chunk_id, c.version) for c in claim.citations if c.chunk_id}
    expired = 0
    days = ws.settings.config.retention.superseded_days
    if days:
        expired = ws.store.drop_superseded_before(time.time() - days * DAY)
    dropped = ws.store.gc(cited)
    return dropped, expired
