"""Issue 45, finding 7, in the real server over JSON-RPC: a link under a readable path
to the counsel-only memo (`sources/public/notes.md -> ../counsel/memo.md`) is denied to
a reader in the editor as on the command line: `source-denied` on its citation, and no
text of the memo in diagnostics, hover, quote completion or `cairn.report`."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types
from lsprotocol.converters import get_converter
from pytest_lsp import LanguageClient

from lsp_util import line_of, open_doc, plain, start, until
from policy_ws import SECRET, SECRET_WORDS, TOML, cite, make

pytestmark = pytest.mark.asyncio
LINK = "sources/public/notes.md"


def dump(o) -> str:
    return json.dumps(get_converter().unstructure(o), ensure_ascii=False)


def linked(tmp_path):
    root = make(tmp_path, TOML + '[[policy]]\npath = "sources/public/**"\naccess = ["public"]\n')
    (root / "sources" / "public").mkdir()
    (root / LINK).symlink_to("../counsel/memo.md")
    (root / "drafts" / "a.md").write_text(cite("The Acme settlement is capped.", LINK, SECRET, named=True),
                                          encoding="utf-8")
    return root


async def shown(client: LanguageClient, root) -> tuple[str, list]:
    path = root / "drafts" / "a.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path)
    await until(lambda: u in client.diagnostics, what="diagnostics")
    doc = types.TextDocumentIdentifier(uri=u)
    out = [dump(client.diagnostics[u])]
    for i in range(len(text.splitlines())):
        h = await client.text_document_hover_async(
            types.HoverParams(text_document=doc, position=types.Position(line=i, character=1)))
        if h is not None:
            out.append(h.contents.value)
    typed = text + "\nSettlement terms.\n\n```cite\nquote: \"settlement with Acme\n```\n"
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=typed)]))
    qline = line_of(typed, 'quote: "settlement with Acme')
    done = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=types.Position(line=qline, character=len('quote: "settlement with Acme'))))
    items = done.items if isinstance(done, types.CompletionList) else (done or [])
    out += [dump(i) for i in items]
    report = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report")))
    out.append(json.dumps(report, ensure_ascii=False))
    return "\n".join(out), items


async def test_a_reader_sees_nothing_of_the_memo_through_a_link(client: LanguageClient, tmp_path):
    root = linked(tmp_path)
    client.set_configuration({"principal": "reader"}, section="cairn")
    await start(client, root)
    text, items = await shown(client, root)
    assert "source-denied" in text and "sources/counsel/memo.md" in text
    for words in SECRET_WORDS:
        assert words not in text
    assert not items


async def test_counsel_reads_the_memo_through_the_same_link(client: LanguageClient, tmp_path):
    """The same searches find the memo's text when the principal may read both paths."""
    root = linked(tmp_path)
    client.set_configuration({"principal": "counsel"}, section="cairn")
    await start(client, root)
    text, items = await shown(client, root)
    assert "source-denied" not in text and SECRET in text
    assert items
