"""`cairn.reportHtml`: the HTML report of the editor's view, through the real server."""

from __future__ import annotations

import html
import json
import re

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import SERVER, build_demo, plain, start

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    return build_demo(tmp_path_factory.mktemp("report-html") / "demo")


@pytest_lsp.fixture(scope="module", config=SERVER)
async def server(lsp_client: LanguageClient, ws):
    await start(lsp_client, ws)
    yield
    await lsp_client.shutdown_session()


async def command(client: LanguageClient, name: str):
    got = await client.workspace_execute_command_async(types.ExecuteCommandParams(command=name))
    return plain(got)


async def test_report_page_is_the_report_of_the_editor(server: LanguageClient):
    report = await command(server, "cairn.report")
    page = (await command(server, "cairn.reportHtml"))["html"]
    assert page.startswith("<!DOCTYPE html>")
    assert "default-src 'none'" in html.unescape(page)
    assert "<h1>Cairn citation report</h1>" in page
    data = json.loads(re.search(r'<script type="application/json" id="cairn-data">(.*?)</script>', page, re.S)[1])
    assert [a["path"] for a in data["answers"]] == [d["path"] for d in report["drafts"]]
    assert [[c["supported"] for c in a["claims"]] for a in data["answers"]] == [
        [c["supported"] for c in d["claims"]] for d in report["drafts"]]
    # the quotes come with their sentence from the server's index
    assert any(x["found"] and x["chunk"] for a in data["answers"] for c in a["claims"] for x in c["citations"])
    assert data["lab"]["p"] == round(report["metrics"]["citation_validity"], 4)
