"""`cairn.ask` over JSON-RPC on the real server: the same Markdown answer as
`cairn ask --format markdown`, and inserted into a draft its claims verify."""

from __future__ import annotations

import json

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import SERVER, build_demo, cli, open_doc, start, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")

QUESTION = "How long does a customer have to request a credit?"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return build_demo(tmp_path_factory.mktemp("ask") / "demo")


@pytest_lsp.fixture(scope="module", config=SERVER)
async def server(lsp_client: LanguageClient, root):
    await start(lsp_client, root)
    yield
    await lsp_client.shutdown_session()


async def test_ask_returns_the_cli_markdown_and_it_verifies(server: LanguageClient, root):
    expected = cli(root, "ask", "--format", "markdown", QUESTION)
    assert expected.returncode == 0, expected.stderr
    got = await server.workspace_execute_command_async(
        types.ExecuteCommandParams(command="cairn.ask", arguments=[QUESTION, uri(root)]))
    got = json.loads(json.dumps(got, default=lambda o: o._asdict()))
    assert got["markdown"] == expected.stdout
    assert got["extractive"] is True and got["label"].startswith("extractive answer")
    assert all(c["supported"] for c in got["report"]["drafts"][0]["claims"])
    # inserted at the cursor of a draft, its claims are checked like any other
    u = open_doc(server, root / "drafts" / "asked.md", "Notes.\n\n" + got["markdown"])
    await until(lambda: u in server.diagnostics, what="diagnostics of the inserted answer")
    # nothing fails; the demo's review notes cite one of these spans for an unrelated claim on purpose,
    # which citation-reuse names (a warning that never fails a claim)
    assert [d.code for d in server.diagnostics[u] if d.code not in ("citation-reuse", "uncited-prose")] == []


async def test_ask_without_a_question_is_a_clear_error(server: LanguageClient):
    with pytest.raises(Exception, match="with a question"):
        await server.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.ask", arguments=[" "]))
