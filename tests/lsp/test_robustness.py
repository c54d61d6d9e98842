"""Nothing a workspace holds crashes or hangs the server: undecodable and
binary sources, a damaged or missing index, malformed blocks, a draft of
several MB, requests that fail. Each becomes a diagnostic or a log line."""

from __future__ import annotations

import os
import random
import shutil

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from lsp_util import CITE_OK, change_range, open_doc, plain, start, until, uri


async def alive(client: LanguageClient, demo) -> None:
    """The server still answers: a hover on a verified claim."""
    path = demo / "drafts/credits-answer.md"
    u = open_doc(client, path)
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(line=5, character=3))
    )
    assert h is not None and "**Supported**" in h.contents.value


async def test_binary_sources_and_a_damaged_index(client: LanguageClient, demo):
    rng = random.Random(3)
    (demo / "sources/blob.txt").write_bytes(bytes(rng.randrange(256) for _ in range(20000)))
    (demo / "sources/broken.pdf").write_bytes(b"%PDF-1.4\n" + bytes(rng.randrange(256) for _ in range(5000)))
    (demo / "sources/empty.md").write_bytes(b"")
    (demo / ".cairn").mkdir(exist_ok=True)
    (demo / ".cairn/index.db").write_bytes(b"this is not a database" * 100)
    await start(client, demo)
    notes = uri(demo / "drafts/review-notes.md")
    # 13 + citation-reuse, and the draft's one uncited paragraph
    await until(lambda: len(client.diagnostics.get(notes, [])) == 15, what="review-notes checked as usual")
    assert any("damaged" in m.message for m in client.messages)
    logs = "\n".join(m.message for m in client.log_messages)
    assert "sources/broken.pdf: skipped" in logs
    await alive(client, demo)
    # the index goes away while the server runs: a re-index builds it again
    shutil.rmtree(demo / ".cairn")
    got = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.reindex"))
    assert plain(got)["sources"] >= 4
    await alive(client, demo)


MALFORMED = [
    "```cite\n" + "[" * 5000 + "]" * 5000 + "\n```\n",
    "```cite\n{\"chunk_id\": \"691d71e4b46d8b0d\", \"start\": 0,\n```\n",
    "```cite\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b]\n```\n",
    "```cite\nchunk_id: 691d71e4b46d8b0d\nstart: 99999999999999999999999\nend: -1\nquote: \"\"\n```\n",
    "```cite\nchunk_id: 691d71e4b46d8b0d\x00\nstart: 0\nend: 5\nquote: \"\ud800\"\n```\n",
    "```cite\n\tchunk_id: x\n  - y\n: z\n```\n",
    "```cite\n" + "quote: " + "word " * 60000 + "\n```\n",
    "~~~~cite with words after\nchunk_id: 691d71e4b46d8b0d\n~~~~\n",
    "```cite\n",
]


async def test_malformed_blocks(client: LanguageClient, demo):
    await start(client, demo)
    text = "".join(f"Claim number {i}.\n\n{block}\n" for i, block in enumerate(MALFORMED))
    u = open_doc(client, demo / "drafts/malformed.md", text)
    diags = await until(lambda: client.diagnostics.get(u), what="diagnostics for the malformed blocks")
    assert {d.code for d in diags} <= {"block-syntax", "unknown-chunk", "quote-not-found", "unsupported-claim",
                                       "number-mismatch", "span-shifted", "version-mismatch"}
    assert sum(d.code == "block-syntax" for d in diags) >= 6
    # requests on it are answered
    for line in range(0, text.count("\n"), 7):
        await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(line=line, character=0))
        )
    await client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=u)))
    await alive(client, demo)


def tag(i: int) -> str:
    """A name for claim i with no digits and no vowels (so never a number word)."""
    letters = "bcdfghjklmnpqrstvwxz"
    out = ""
    while True:
        out = letters[i % len(letters)] + out
        i //= len(letters)
        if not i:
            return out


async def test_a_draft_of_several_megabytes(client: LanguageClient, demo):
    await start(client, demo)
    n = 13_000
    text = "".join(f"Claim {tag(i)}: a customer has 14 days to request a credit.\n\n{CITE_OK}\n" for i in range(n))
    assert len(text) > 3_000_000
    u = open_doc(client, demo / "drafts/big.md", text)
    await until(lambda: u in client.diagnostics, timeout=400, what="the big draft's diagnostics")  # 13,000 claims each parsed by the sentence reader (about 11 ms a claim): see the stop note
    assert len(client.diagnostics[u]) == 0
    # an edit in the middle is re-checked alone
    mid = (n // 2) * 11  # the first line of a claim
    col = text.splitlines()[mid].index("14")
    change_range(client, u, 2, mid, col, col + 2, "30")
    got = await until(lambda: client.diagnostics.get(u), timeout=30)
    assert [(d.code, d.range.start.line) for d in got] == [("number-mismatch", mid)]
    await alive(client, demo)


async def test_failing_requests_leave_the_server_running(client: LanguageClient, demo):
    await start(client, demo)
    nowhere = uri(demo / "drafts/never-opened.md")
    assert await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=nowhere), position=types.Position(line=0, character=0))
    ) is None
    for args in ([], ["not a uri"], [uri(demo / "sources/faq.txt"), "not a range"], [nowhere, {"start": {}}]):
        with pytest.raises(JsonRpcException):
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams(command="cairn.citeSelection", arguments=args)
            )
    with pytest.raises(JsonRpcException):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.nope"))
    # a change for a document that was never opened, a close of one never opened
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=nowhere, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="x")],
        )
    )
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=nowhere)))
    # a file event outside the workspace, and one for a file that does not exist
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri="file:///elsewhere/x.md", type=types.FileChangeType.Changed),
        types.FileEvent(uri=uri(demo / "sources/gone.txt"), type=types.FileChangeType.Deleted),
    ]))
    await alive(client, demo)
    assert os.path.isdir(demo)
