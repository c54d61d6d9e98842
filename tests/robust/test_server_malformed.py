"""Malformed drafts through the language server (issue point 1, the editor's
side): an editor can send any text, lone surrogates included (JSON escapes
them). Drafts drawn from the same hostile pieces as the engine's fuzz test
are opened and edited in a real `cairn serve`; each gets diagnostics, every
request on it is answered, and the server stays alive.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest_lsp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from test_malformed_drafts import BILLION_LAUGHS, CHUNK_ID, MEGA_LINE, QUOTE, draft

from robust_util import examples, lsp_start, open_doc, until

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"])


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


FIXED = [
    "Claim \ud800 with a lone surrogate.\n\n```cite\nchunk_id: %s\nstart: 0\nend: 65\nquote: \"%s\ud800\"\n```\n"
    % (CHUNK_ID, QUOTE),
    "```cite\n{\"chunk_id\": \"%s\", \"start\": 0, \"end\": 65, \"quote\": \"\\ud800\"}\n```\n" % CHUNK_ID,
    "A claim.\r\n\r\n```cite\r\n" + BILLION_LAUGHS.replace("\n", "\r\n") + "```\r\n",
    MEGA_LINE + "\n\n```cite\nchunk_id: %s\nstart: 0\nend: 65\nquote: \"%s\"\n```\n" % (CHUNK_ID, QUOTE),
    "\x00\x01\x02 nul and controls \u2028 \u2029 \ufeff\n\n```cite\nquote: \"\x00\"\n```\n",
    "- " * 50_000 + "\n",
    "![a" * 100_000 + "\n\n```cite\nchunk_id: %s\nstart: 0\nend: 65\nquote: \"%s\"\n```\n" % (CHUNK_ID, QUOTE),
]


async def alive(client: LanguageClient, u: str) -> None:
    got = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(line=0, character=0)))
    assert got is None or got.contents.value


async def test_the_server_reads_hostile_drafts(client: LanguageClient, demo: Path):
    await lsp_start(client, demo)
    texts = list(FIXED)

    @settings(max_examples=examples(12, 150), database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def collect(data):
        texts.append(data.draw(draft()))

    collect()
    rng = random.Random(8)
    for i, text in enumerate(texts):
        path = demo / "drafts" / f"hostile-{i}.md"
        u = open_doc(client, path, text)
        await until(lambda: u in client.diagnostics, timeout=60, what=f"diagnostics of draft {i}")
        doc = types.TextDocumentIdentifier(uri=u)
        n = text.count("\n") + 1
        for _ in range(3):
            pos = types.Position(line=rng.randrange(n), character=rng.randrange(4))
            await client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos))
            await client.text_document_completion_async(types.CompletionParams(text_document=doc, position=pos))
            await client.text_document_code_action_async(types.CodeActionParams(
                text_document=doc, range=types.Range(start=pos, end=pos),
                context=types.CodeActionContext(diagnostics=[])))
        await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc))
        # an edit that cuts the text in half, then the whole text again
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=u, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text[: len(text) // 2])]))
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=u, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        await alive(client, u)
        client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc))
    report = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report"))
    assert report["metrics"]["claims"] > 0
    errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
    assert errors == [], errors[:3]
