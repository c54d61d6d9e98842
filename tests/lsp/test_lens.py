"""Code lenses: each cite block's verdict in a few words."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import open_doc

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_code_lenses(demo_server: LanguageClient, demo_ws):
    root = demo_ws[0]
    lenses = {}
    for name in ("credits-answer", "review-notes"):
        path = root / f"drafts/{name}.md"
        u = open_doc(demo_server, path)
        got = await demo_server.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=u))
        )
        text = path.read_text(encoding="utf-8").splitlines()
        lenses[name] = [(text[x.range.start.line].strip(), x.command.title) for x in got]
    assert lenses["credits-answer"] == [
        ("```cite", "supported 1.00 · sources/policy.md"),
        ("```cite", "supported 0.80 · sources/policy.md"),
        ("```cite", "supported 0.71 · sources/policy.md"),
        ("> ```cite", "supported 1.00 · sources/handbook.html"),
        ("~~~cite", "supported 1.00 · sources/shipping.pdf p.2"),
    ]
    titles = [t for _, t in lenses["review-notes"]]
    assert titles[1] == "quote not found"
    assert "number mismatch: claim says 30 days; quotes say 14 days" in titles
    assert "unsupported 0.14 < 0.5 · sources/handbook.html" in titles
    assert "supported 1.00 · sources/policy.md · span shifted" in titles
