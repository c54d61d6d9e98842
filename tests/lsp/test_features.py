"""Hover, go to definition, code lenses, completion and the commands, on one
server over one copy of the demo (these tests only read the workspace)."""

from __future__ import annotations

import json

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import (
    SERVER,
    apply_edits,
    build_demo,
    change_all,
    cli,
    cli_report,
    line_of,
    open_doc,
    start,
    until,
    uri,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    root = build_demo(tmp_path_factory.mktemp("features") / "demo")
    report = cli_report(root)  # before the server: the CLI's own verdicts
    chunks = [json.loads(x) for x in cli(root, "chunks", "--json").stdout.splitlines()]
    return root, report, chunks


@pytest_lsp.fixture(scope="module", config=SERVER)
async def server(lsp_client: LanguageClient, ws):
    await start(lsp_client, ws[0])
    yield
    await lsp_client.shutdown_session()


def pos(line, ch=0):
    return types.Position(line=line, character=ch)


async def hover_at(client, u, line, ch=0):
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=u), position=pos(line, ch))
    )


async def test_report_is_the_cli_report(server: LanguageClient, ws):
    root, report, _ = ws
    got = await server.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report"))
    got = json.loads(json.dumps(got, default=lambda o: o._asdict()))
    for a, b in zip(got["drafts"], report["drafts"]):
        for x, y in zip(a["claims"], b["claims"]):
            assert x == y, a["path"]
    assert got == report


async def test_hover_on_claim_and_on_block(server: LanguageClient, ws):
    root = ws[0]
    path = root / "drafts/review-notes.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(server, path)
    line = line_of(text, "Customers have 30 days")
    h = await hover_at(server, u, line, 5)
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
    h = await hover_at(server, u, line_of(text, "Supervisors review every refund"))
    assert "support 0.14 < threshold 0.5" in h.contents.value and "Missing from the quotes:" in h.contents.value
    assert "Missing from the quotes: review, refund" in h.contents.value
    # on a line of a cite block: the same verdict, the block's range
    q = line_of(text, 'quote: "Open the order')
    h = await hover_at(server, u, q)
    assert "quote-not-found" in h.contents.value and "the quote is not in this chunk" in h.contents.value
    assert h.range.start.line < q < h.range.end.line
    # the page of a PDF source
    h = await hover_at(server, u, line_of(text, '"Drivers wait up to 10 minutes'))
    assert "`sources/shipping.pdf` · p.1" in h.contents.value
    # nothing between claims
    assert await hover_at(server, u, 0) is None


async def test_definition(server: LanguageClient, ws):
    root = ws[0]
    path = root / "drafts/credits-answer.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(server, path)
    await until(lambda: u in server.diagnostics)
    policy = (root / "sources/policy.md").read_text(encoding="utf-8").splitlines()
    line = line_of(text, 'quote: "Reports after 48 hours')
    got = await server.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=u), position=pos(line, 4))
    )
    assert len(got) == 1 and got[0].uri == uri(root / "sources/policy.md")
    r = got[0].range
    assert r.start.line == r.end.line
    assert policy[r.start.line][r.start.character:r.end.character] == "Reports after 48 hours are reviewed case by case"
    # the second citation of a block of two
    line = line_of(text, 'quote: "The request')
    got = await server.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=u), position=pos(line))
    )
    r = got[0].range
    assert policy[r.start.line][r.start.character:].startswith("The request")
    assert policy[r.end.line][:r.end.character].endswith("the order number")
    # an HTML source: the file's start
    line = line_of(text, '"chunk_id": "b751552f19a23ec1"')
    got = await server.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=u), position=pos(line, 3))
    )
    assert got[0].uri == uri(root / "sources/handbook.html")
    assert (got[0].range.start.line, got[0].range.start.character) == (0, 0)


async def test_code_lenses(server: LanguageClient, ws):
    root = ws[0]
    lenses = {}
    for name in ("credits-answer", "review-notes"):
        path = root / f"drafts/{name}.md"
        u = open_doc(server, path)
        got = await server.text_document_code_lens_async(
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


async def test_cite_selection(server: LanguageClient, ws):
    root, _, chunks = ws
    policy = root / "sources/policy.md"
    lines = policy.read_text(encoding="utf-8").splitlines()
    a = line_of("\n".join(lines), "approval. Store credit")
    b = line_of("\n".join(lines), "Perishable goods")
    # from "Store credit ..." to just after "(生鮮食品" on the perishables line (UTF-16 columns)
    start_col = lines[a].index("Store")
    end_text = lines[b][: lines[b].index(":")]
    got = await server.workspace_execute_command_async(
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
    u = open_doc(server, draft, text)
    await until(lambda: u in server.diagnostics)
    # the heading and the half-sentence do not support the claim much, but every citation resolves
    assert not [d for d in server.diagnostics[u] if d.code not in ("unsupported-claim",)]
    # with the claim's text as a third argument, every citation of the block is bound to it
    claim = "Store credit is offered when the payment method has expired."
    bound = await server.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="cairn.citeSelection",
            arguments=[uri(policy), {"start": {"line": a, "character": start_col},
                                     "end": {"line": a, "character": len(lines[a])}}, claim],
        )
    )
    bound = json.loads(json.dumps(bound, default=lambda o: o._asdict()))
    assert [c["claim"] for c in bound["citations"]] == ["Store credit is offered when the payment method"]
    assert 'claim: "Store credit is offered when the payment method"\n```' in bound["text"]
    u2 = open_doc(server, root / "drafts/pasted-bound.md", claim + "\n\n" + bound["text"])
    await until(lambda: u2 in server.diagnostics)
    assert not server.diagnostics[u2]
    # an HTML source cannot be cited from a selection
    with pytest.raises(Exception, match=".md and .txt"):
        await server.workspace_execute_command_async(
            types.ExecuteCommandParams(command="cairn.citeSelection",
                                       arguments=[uri(root / "sources/handbook.html"),
                                                  {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}])
        )


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
async def test_quote_completion_fills_the_citation(server: LanguageClient, ws, block):
    root = ws[0]
    claim = "Perishable goods reported after 48 hours are reviewed case by case.\n\n"
    text = claim + block
    path = root / "drafts" / f"completing-{abs(hash(block))}.md"
    u = open_doc(server, path, text)
    await until(lambda: u in server.diagnostics)
    line = line_of(text, "reviewed case\"" if '"quote"' in block else "quote: ")
    col = text.splitlines()[line].index("reviewed case") + len("reviewed case")
    got = await complete(server, u, line, col)
    items = got.items if hasattr(got, "items") else got
    item = next(i for i in items if "sources/policy.md" in i.detail)
    assert item.label == "Reports after 48 hours are reviewed case by case by the customer care team."
    assert "**Reports after 48 hours are reviewed case by case by the customer care team\\.**" in item.documentation.value
    new = accept(text, item)
    assert "a0fd0941ad0af9e0" in new and "sources/policy.md" in new
    # the block is bound to the claim it follows (its first words)
    assert 'claim": "Perishable goods reported after 48 hours are reviewed"' in new or (
        'claim: "Perishable goods reported after 48 hours are reviewed"' in new), new
    change_all(server, u, new, 2)
    await until(lambda: server.diagnostics.get(u) is not None and len(server.diagnostics[u]) == 0,
                what=f"the completed block to verify:\n{new}")


async def test_chunk_id_completion(server: LanguageClient, ws):
    root = ws[0]
    text = "A claim.\n\n```cite\nchunk_id: 691d\nsource: sources/faq.txt\n```\n"
    u = open_doc(server, root / "drafts/ids.md", text)
    got = await complete(server, u, 3, len("chunk_id: 691d"))
    items = got.items if hasattr(got, "items") else got
    assert [i.label for i in items] == ["691d71e4b46d8b0d"]
    assert "A customer has 14 days" in items[0].documentation.value
    new = accept(text, items[0])
    assert new == "A claim.\n\n```cite\nchunk_id: 691d71e4b46d8b0d\nsource: sources/policy.md\n```\n"
    # outside a block: nothing
    assert not await complete(server, u, 0, 3)
