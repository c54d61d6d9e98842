"""The language server on a shared PostgreSQL index (CAIRN_STORE_URL, as a
user sets it): the same diagnostics as `cairn check` on that index, and the
drafts being edited still checked live. The server is the test run's own
throw-away PostgreSQL on 127.0.0.1."""

from __future__ import annotations

import psycopg
import pytest
from pytest_lsp import LanguageClient

from cairn_testing import assert_diagnostics_match, expected_diagnostics
from lsp_util import change_all, cli_report, open_doc, start, until, uri


@pytest.fixture(autouse=True)
def shared_index(pg_url: str, monkeypatch) -> str:
    """Set before the server starts: it inherits the environment."""
    monkeypatch.setenv("CAIRN_STORE_URL", pg_url)
    return pg_url


async def test_the_editor_uses_the_shared_index_and_checks_edits_live(client: LanguageClient, demo, shared_index):
    report = cli_report(demo)  # the CLI indexes the demo into the shared index first
    await start(client, demo)
    for rel in ("drafts/review-notes.md", "drafts/credits-answer.md", "drafts/legacy-import.md"):
        u = uri(demo / rel)
        diags = await until(lambda: client.diagnostics.get(u) is not None and [client.diagnostics[u]], what=rel)
        assert_diagnostics_match(diags[0], expected_diagnostics(report, rel))
    # an unsaved edit is checked at once against the shared index
    path = demo / "drafts" / "credits-answer.md"
    u = open_doc(client, path)
    text = path.read_text(encoding="utf-8")
    assert "A missed delivery can be rebooked" in text
    change_all(client, u, text.replace("A missed delivery can be rebooked", "A missed delivery can be rebooted"), 2)
    await until(lambda: any(d.code == "quote-not-found" for d in client.diagnostics.get(u, [])),
                what="the edited quote's diagnostic")
    assert path.read_text(encoding="utf-8") == text  # the draft on disk is untouched
    assert not (demo / ".cairn").exists()  # the index is the shared one, not a file in the workspace
    with psycopg.connect(shared_index) as db:
        # the CLI's clone and the editor's are the same folder: one set of current versions
        assert db.execute("SELECT count(DISTINCT workspace) FROM cairn_current").fetchone()[0] == 1
