"""The commands over workspace/executeCommand: `cairn.report` is the CLI's report, `cairn.citeSelection`
makes a cite block of a selection."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import line_of, open_doc, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_report_is_the_cli_report(demo_server: LanguageClient, demo_ws):
    root, report, _ = demo_ws
    got = await demo_server.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report"))
    got = json.loads(json.dumps(got, default=lambda o: o._asdict()))
    for a, b in zip(got["drafts"], report["drafts"]):
        for x, y in zip(a["claims"], b["claims"]):
            assert x == y, a["path"]
    assert got == report


async def test_cite_selection(demo_server: LanguageClient, demo_ws):
    root, _, chunks = demo_ws
    policy = root / "sources/policy.md"
    lines = policy.read_text(encoding="utf-8").splitlines()
    a = line_of("\n".join(lines), "approval. Store credit")
    b = line_of("\n".join(lines), "Perishable goods")
    # from "Store credit ..." to just after "(生鮮食品" on the perishables line (UTF-16 columns)
    start_col = lines[a].index("Store")
    end_text = lines[b][: lines[b].index(":")]
    got = await demo_server.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="cairn.citeSelection",
            arguments=[uri(policy), {"start": {"line": a, "character": start_col},
                                     "end": {"line": b, "character": len(end_text.encode("utf-16-le")) // 2}}],
        )
    )
    got = json.loads(json.dumps(got, default=lambda o: o._asdict()))
    cits = got["citations"]
    assert [c["quote"] for c in cits] == [
        "Store credit is offered instead when the payment method has expired.",
        "## Perishables",
        "Perishable goods 🥛🥩 (生鮮食品",
    ]
    by_id = {c["chunk_id"]: c for c in chunks}
    for c in cits:
        ch = by_id[c["chunk_id"]]
        assert ch["text"][c["start"]:c["end"]] == c["quote"]
        assert c["source"] == "sources/policy.md" and ch["version"].startswith(c["version"])
    assert got["text"].startswith("```cite\n- chunk_id: ") and got["text"].endswith("```\n")
    # the block pasted under a claim verifies
    draft = root / "drafts/pasted.md"
    text = "Store credit is offered when the payment method has expired.\n\n" + got["text"]
    u = open_doc(demo_server, draft, text)
    await until(lambda: u in demo_server.diagnostics)
    # the heading and the half-sentence do not support the claim much, but every citation resolves
    assert not [d for d in demo_server.diagnostics[u] if d.code not in ("unsupported-claim",)]
    # with the claim's text as a third argument, every citation of the block is bound to it
    claim = "Store credit is offered when the payment method has expired."
    bound = await demo_server.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="cairn.citeSelection",
            arguments=[uri(policy), {"start": {"line": a, "character": start_col},
                                     "end": {"line": a, "character": len(lines[a])}}, claim],
        )
    )
    bound = json.loads(json.dumps(bound, default=lambda o: o._asdict()))
    assert [c["claim"] for c in bound["citations"]] == ["Store credit is offered when the payment method"]
    assert 'claim: "Store credit is offered when the payment method"\n```' in bound["text"]
    u2 = open_doc(demo_server, root / "drafts/pasted-bound.md", claim + "\n\n" + bound["text"])
    await until(lambda: u2 in demo_server.diagnostics)
    assert not demo_server.diagnostics[u2]
    # an HTML source cannot be cited from a selection
    with pytest.raises(Exception, match=".md and .txt"):
        await demo_server.workspace_execute_command_async(
            types.ExecuteCommandParams(command="cairn.citeSelection",
                                       arguments=[uri(root / "sources/handbook.html"),
                                                  {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}])
        )
