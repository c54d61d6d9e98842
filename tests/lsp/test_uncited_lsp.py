"""Issue 49, item 3, in the real server over JSON-RPC: each uncited prose paragraph of a
draft gets an information diagnostic `uncited-prose` on its first line, a paragraph with
`<!-- cairn: no-claim -->` on the line before it gets none, and `cairn.report` lists
them as the CLI's JSON report does."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import change_all, cli_report, open_doc, plain, start, until
from policy_ws import POLICY, cite

pytestmark = pytest.mark.asyncio

DRAFT = ("# Refunds\n\nThis note sums up what the policy says.\n\n<!-- cairn: no-claim -->\n"
         "Written for the support team; not a claim.\n\n"
         + cite("Refunds are paid within 30 days of the request.", "sources/policy.md", POLICY)
         + "Later prose that nothing cites.\n")


def uncited(client: LanguageClient, u: str) -> list[tuple[int, types.DiagnosticSeverity]]:
    return [(d.range.start.line, d.severity) for d in client.diagnostics.get(u, []) if d.code == "uncited-prose"]


async def test_uncited_paragraphs_are_information_diagnostics(client: LanguageClient, tmp_path):
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text("", encoding="utf-8")
    (root / "sources" / "policy.md").write_text(POLICY + "\n", encoding="utf-8")
    path = root / "drafts" / "a.md"
    path.write_text(DRAFT, encoding="utf-8")
    await start(client, root)
    u = open_doc(client, path)
    await until(lambda: uncited(client, u), what="uncited-prose diagnostics")
    info = types.DiagnosticSeverity.Information
    later = DRAFT.splitlines().index("Later prose that nothing cites.")
    assert uncited(client, u) == [(2, info), (later, info)]
    assert all(d.severity != types.DiagnosticSeverity.Error for d in client.diagnostics[u])
    (d,) = [d for d in client.diagnostics[u] if d.code == "uncited-prose" and d.range.start.line == 2]
    assert "no-claim" in d.message and "This note sums up" in d.message
    report = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report")))
    (entry,) = [x for x in report["drafts"] if x["path"] == "drafts/a.md"]
    assert entry["uncited"] == cli_report(root)["drafts"][0]["uncited"]
    # marked as no claim in the editor: its finding goes
    change_all(client, u, DRAFT.replace("# Refunds\n\n", "# Refunds\n\n<!-- cairn: no-claim -->\n"), 2)
    await until(lambda: [line for line, _ in uncited(client, u)] == [later + 1], what="the marked paragraph's finding gone")


async def test_a_draft_of_many_uncited_paragraphs_gets_a_bounded_number_of_findings(client: LanguageClient, tmp_path):
    """150 uncited list items: the first 100 one by one, then one finding naming how many more."""
    from cairn.lsp.state import UNCITED_SHOWN

    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('drafts = ["drafts/*.md"]\n', encoding="utf-8")
    (root / "sources" / "policy.md").write_text(POLICY + "\n", encoding="utf-8")
    path = root / "drafts" / "a.md"
    path.write_text("".join(f"- item number {i}\n" for i in range(150)), encoding="utf-8")
    await start(client, root)
    u = open_doc(client, path)
    await until(lambda: uncited(client, u), what="uncited-prose diagnostics")
    assert [line for line, _ in uncited(client, u)] == list(range(UNCITED_SHOWN + 1))
    last = [d for d in client.diagnostics[u] if d.code == "uncited-prose"][-1]
    assert "and 49 more below" in last.message
    assert len(cli_report(root)["drafts"][0]["uncited"]) == 150
