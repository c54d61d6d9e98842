"""Hover on a claim and on its cite block: the verdict, the score, the quote in its source."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import line_of, open_doc

pytestmark = pytest.mark.asyncio(loop_scope="module")


def pos(line: int, ch: int = 0) -> types.Position:
    return types.Position(line=line, character=ch)


async def hover_at(client, u, line, ch=0):
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=u), position=pos(line, ch))
    )


async def test_hover_on_claim_and_on_block(demo_server: LanguageClient, demo_ws):
    root = demo_ws[0]
    path = root / "drafts/review-notes.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(demo_server, path)
    line = line_of(text, "Customers have 30 days")
    h = await hover_at(demo_server, u, line, 5)
    md = h.contents.value
    assert h.contents.kind == types.MarkupKind.Markdown
    assert "**Not supported**" in md
    assert "support 0.86 ≥ threshold 0.5" in md
    assert "`number-mismatch`" in md and "claim says 30 days; quotes say 14 days" in md
    assert "`sources/policy.md`" in md and "version `9b3c4325`" in md
    # the quote, bold, inside its source text
    assert "**A customer has 14 days to request a credit for a damaged delivery**\\. The request" in md
    assert h.range.start.line == line
    # unsupported: the missing tokens
    h = await hover_at(demo_server, u, line_of(text, "Supervisors review every refund"))
    assert "support 0.14 < threshold 0.5" in h.contents.value and "Missing from the quotes:" in h.contents.value
    assert "Missing from the quotes: review, refund" in h.contents.value
    # on a line of a cite block: the same verdict, the block's range
    q = line_of(text, 'quote: "Open the order')
    h = await hover_at(demo_server, u, q)
    assert "quote-not-found" in h.contents.value and "the quote is not in this chunk" in h.contents.value
    assert h.range.start.line < q < h.range.end.line
    # the page of a PDF source
    h = await hover_at(demo_server, u, line_of(text, '"Drivers wait up to 10 minutes'))
    assert "`sources/shipping.pdf` · p.1" in h.contents.value
    # nothing between claims
    assert await hover_at(demo_server, u, 0) is None
