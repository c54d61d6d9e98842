"""The git history search when another process shares the index."""

from __future__ import annotations

from pathlib import Path

from cairn.core.config import load_settings
from cairn.drafts import parse_draft
from cairn.index.history import History
from cairn.index.workspace import Workspace


def test_a_version_another_process_took_from_history_is_found(demo: Path):
    """Another process (a CLI beside the server) indexed an old version from git
    and marked its blob seen after this one missed the chunk in the store: the
    chunk is found, not reported unknown (a concurrent-index test caught this)."""
    ws1 = Workspace(demo, load_settings(demo))
    ws1.index()
    doc = parse_draft((demo / "drafts" / "review-notes.md").read_text(encoding="utf-8"))
    missing = [c.chunk_id for cl in doc.claims for c in cl.citations if c.chunk_id and not ws1.store.lookup(c.chunk_id)]
    ws2 = Workspace(demo, load_settings(demo))  # its own connection to the index, as another process has
    from_history = [cid for cid in missing if History(ws2).find(cid)]
    assert from_history  # the demo cites the 2024 policy, which only the git history holds
    history = History(ws1)
    assert [cid for cid in from_history if history.find(cid)] == from_history
    assert history.generation > 0  # the verifier drops the misses it cached
