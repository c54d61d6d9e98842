"""Go to definition: from a citation to its span in the source file."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import line_of, open_doc, until, uri

pytestmark = pytest.mark.asyncio(loop_scope="module")


def pos(line: int, ch: int = 0) -> types.Position:
    return types.Position(line=line, character=ch)


async def test_definition(demo_server: LanguageClient, demo_ws):
    root = demo_ws[0]
    path = root / "drafts/credits-answer.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(demo_server, path)
    await until(lambda: u in demo_server.diagnostics)
    policy = (root / "sources/policy.md").read_text(encoding="utf-8").splitlines()
    line = line_of(text, 'quote: "Reports after 48 hours')
    got = await demo_server.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=u), position=pos(line, 4))
    )
    assert len(got) == 1 and got[0].uri == uri(root / "sources/policy.md")
    r = got[0].range
    assert r.start.line == r.end.line
    assert policy[r.start.line][r.start.character:r.end.character] == "Reports after 48 hours are reviewed case by case"
    # the second citation of a block of two
    line = line_of(text, 'quote: "The request')
    got = await demo_server.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=u), position=pos(line))
    )
    r = got[0].range
    assert policy[r.start.line][r.start.character:].startswith("The request")
    assert policy[r.end.line][:r.end.character].endswith("the order number")
    # an HTML source: the file's start
    line = line_of(text, '"chunk_id": "b751552f19a23ec1"')
    got = await demo_server.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=u), position=pos(line, 3))
    )
    assert got[0].uri == uri(root / "sources/handbook.html")
    assert (got[0].range.start.line, got[0].range.start.character) == (0, 0)
