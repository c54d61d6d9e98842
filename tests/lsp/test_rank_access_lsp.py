"""`cairn.ask` over JSON-RPC on the real server, as a reader who may not see the
counsel-only memo: the answer is the one the CLI gives when the memo says nothing
about the question (docs/security.md). Before the fix the memo, the best match,
took one of the [ask] k = 3 places and was then dropped: two passages, one claim
fewer, which told the reader the memo held the words asked about."""

from __future__ import annotations

import json
import shutil

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import build_demo, cli, start, uri
from rank_ws import MEMO, QUESTION, UNRELATED, build

pytestmark = pytest.mark.asyncio


async def test_ask_over_json_rpc_is_the_answer_without_the_denied_memo(client: LanguageClient, tmp_path):
    root = build(build_demo(tmp_path / "ws"), MEMO)
    other = tmp_path / "other"
    shutil.copytree(root, other, ignore=shutil.ignore_patterns(".cairn"))
    (other / "sources" / "counsel" / "memo.md").write_text(UNRELATED + "\n", encoding="utf-8")
    expected = cli(other, "ask", "--format", "markdown", QUESTION)
    assert expected.returncode == 0, expected.stderr
    assert expected.stdout.count("```cite") == 3  # one claim a passage: all three readable
    await start(client, root)
    got = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="cairn.ask", arguments=[QUESTION, uri(root)]))
    got = json.loads(json.dumps(got, default=lambda o: o._asdict()))
    assert got["markdown"] == expected.stdout
    assert "9 percent" not in json.dumps(got) and "counsel/memo" not in json.dumps(got)
