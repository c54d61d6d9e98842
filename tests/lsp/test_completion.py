"""Completion in a cite block: a quote's passages, a chunk id's chunks."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import apply_edits, change_all, line_of, open_doc, until

pytestmark = pytest.mark.asyncio(loop_scope="module")


def pos(line: int, ch: int = 0) -> types.Position:
    return types.Position(line=line, character=ch)


async def complete(client, u, line, ch):
    return await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=u), position=pos(line, ch))
    )


def accept(text, item):
    return apply_edits(text, [item.text_edit, *(item.additional_text_edits or [])])


@pytest.mark.parametrize(
    "block",
    [
        "```cite\nquote: reviewed case\n```\n",
        "```cite\nchunk_id: 0000000000000000\nquote: \"reviewed case\n```\n",
        "- Perishable goods reported after 48 hours are reviewed case by case.\n\n  ```cite\n  - source: sources/faq.txt\n    quote: reviewed case\n    start: 1\n  ```\n",
        "> Perishable goods reported after 48 hours are reviewed case by case.\n>\n> ```cite\n> quote: reviewed case\n> version: 00000000\n> ```\n",
        '```cite\n{"quote": "reviewed case", "ignore": ["judge-fallback"]}\n```\n',
    ],
)
async def test_quote_completion_fills_the_citation(demo_server: LanguageClient, demo_ws, block):
    root = demo_ws[0]
    claim = "Perishable goods reported after 48 hours are reviewed case by case.\n\n"
    text = claim + block
    path = root / "drafts" / f"completing-{abs(hash(block))}.md"
    u = open_doc(demo_server, path, text)
    await until(lambda: u in demo_server.diagnostics)
    line = line_of(text, "reviewed case\"" if '"quote"' in block else "quote: ")
    col = text.splitlines()[line].index("reviewed case") + len("reviewed case")
    got = await complete(demo_server, u, line, col)
    items = got.items if hasattr(got, "items") else got
    item = next(i for i in items if "sources/policy.md" in i.detail)
    assert item.label == "Reports after 48 hours are reviewed case by case by the customer care team."
    assert "**Reports after 48 hours are reviewed case by case by the customer care team\\.**" in item.documentation.value
    new = accept(text, item)
    assert "a0fd0941ad0af9e0" in new and "sources/policy.md" in new
    # the block is bound to the claim it follows (its first words)
    assert 'claim": "Perishable goods reported after 48 hours are reviewed"' in new or (
        'claim: "Perishable goods reported after 48 hours are reviewed"' in new), new
    change_all(demo_server, u, new, 2)
    await until(lambda: demo_server.diagnostics.get(u) is not None and not [
                    d for d in demo_server.diagnostics[u] if d.code != "uncited-prose"],
                what=f"the completed block to verify:\n{new}")


async def test_chunk_id_completion(demo_server: LanguageClient, demo_ws):
    root = demo_ws[0]
    text = "A claim.\n\n```cite\nchunk_id: 691d\nsource: sources/faq.txt\n```\n"
    u = open_doc(demo_server, root / "drafts/ids.md", text)
    got = await complete(demo_server, u, 3, len("chunk_id: 691d"))
    items = got.items if hasattr(got, "items") else got
    assert [i.label for i in items] == ["691d71e4b46d8b0d"]
    assert "A customer has 14 days" in items[0].documentation.value
    new = accept(text, items[0])
    assert new == "A claim.\n\n```cite\nchunk_id: 691d71e4b46d8b0d\nsource: sources/policy.md\n```\n"
    # outside a block: nothing
    assert not await complete(demo_server, u, 0, 3)
