"""Access through the language server (issue point 3): hover, completion,
definition, code lenses, code actions and commands never show text of a
source outside the roots: an old version of a source whose root was
removed, a symbolic link that leaves the workspace, a file named by URI.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from robust_util import lsp_start, open_doc, run_cairn, until, uri

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"])

SECRET = "The vault code is 7319 and the spare key is under the third flowerpot."
LEAKED = ("flowerpot", "spare key")


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def _cid(source: str, text: str) -> str:
    return hashlib.sha256(f"{source}\n{text}".encode()).hexdigest()[:16]


def _block(cid: str, quote: str, source: str | None) -> str:
    src = f"source: {source}\n" if source else ""
    return f"```cite\nchunk_id: {cid}\nstart: 0\nend: {len(quote)}\nquote: {json.dumps(quote)}\n{src}```\n"


@pytest.fixture
def hostile(demo: Path, tmp_path: Path) -> tuple[Path, str, str]:
    """archive/ was a root and was indexed; now it is not. sources/leak.md links outside."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET + "\n", encoding="utf-8")
    (demo / "sources" / "leak.md").symlink_to(outside / "secret.md")
    (demo / "archive").mkdir()
    (demo / "archive" / "secret.md").write_text(SECRET + "\n", encoding="utf-8")
    (demo / "cairn.toml").write_text('sources = ["sources", "archive"]\ndrafts = ["drafts/*.md"]\n', encoding="utf-8")
    assert run_cairn(demo, "index").returncode == 0
    (demo / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n', encoding="utf-8")
    archived = _cid("archive/secret.md", SECRET)
    leaked = _cid("sources/leak.md", SECRET)
    quote = "The vault code is 7319"
    text = ("The vault code is 7319.\n\n" + _block(archived, quote, "archive/secret.md") + "\n"
            "The vault code is 7319 again.\n\n" + _block(archived, "The vault code is 7319 and more", None) + "\n"
            "Through the link.\n\n" + _block(leaked, quote, "sources/leak.md") + "\n"
            "Through the link, no source.\n\n" + _block(leaked, quote, None))
    (demo / "drafts" / "hostile.md").write_text(text, encoding="utf-8")
    return demo, archived, leaked


def _no_secret(value) -> None:
    text = json.dumps(value, default=lambda o: getattr(o, "__dict__", repr(o)), ensure_ascii=False) \
        if not isinstance(value, str) else value
    for word in LEAKED:
        assert word not in text, text


async def test_hover_completion_and_commands_show_nothing_outside_the_roots(client: LanguageClient, hostile):
    root, archived, leaked = hostile
    await lsp_start(client, root)
    path = root / "drafts" / "hostile.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path, text)
    diags = await until(lambda: client.diagnostics.get(u), what="diagnostics of the hostile draft")
    assert sorted(d.code for d in diags if d.code != "unsupported-claim") == [
        "source-denied", "source-denied", "source-denied", "unknown-chunk"]
    doc = types.TextDocumentIdentifier(uri=u)
    lines = text.split("\n")
    for line in range(len(lines)):
        pos = types.Position(line=line, character=2)
        hover = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos))
        if hover is not None:
            _no_secret(hover.contents.value)
        got = await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=pos))
        for loc in got or []:
            assert "outside" not in loc.uri and "archive" not in loc.uri and "leak" not in loc.uri
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc))
    _no_secret([lens.command.title for lens in lenses or [] if lens.command])
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc, range=types.Range(start=types.Position(line=0, character=0),
                                             end=types.Position(line=len(lines), character=0)),
        context=types.CodeActionContext(diagnostics=list(diags))))
    _no_secret([a.title for a in actions or []])
    for a in actions or []:
        _no_secret(json.dumps(str(a.edit)))

    # completion of chunk ids and of quotes, typed into a new block
    typing = "A claim about the vault.\n\n```cite\nchunk_id: {}\nquote: vault cod\n```\n"
    for prefix in (archived[:4], leaked[:4], ""):
        t = typing.format(prefix)
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=u, version=len(prefix) + 2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=t)]))
        for line, col in ((3, len("chunk_id: ") + len(prefix)), (4, len("quote: vault cod"))):
            got = await client.text_document_completion_async(types.CompletionParams(
                text_document=doc, position=types.Position(line=line, character=col)))
            items = got.items if isinstance(got, types.CompletionList) else (got or [])
            for item in items:
                assert item.label not in (archived, leaked)
                _no_secret([item.label, item.detail, item.documentation and item.documentation.value])

    # commands: the report, and citing a selection of the linked or outside file
    report = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report"))
    _no_secret(report)
    sel = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 40}}
    for target in (root / "sources" / "leak.md", root / "archive" / "secret.md", root.parent / "outside" / "secret.md"):
        with pytest.raises(Exception) as err:
            await client.workspace_execute_command_async(types.ExecuteCommandParams(
                command="cairn.citeSelection", arguments=[uri(target) if not target.is_symlink() else
                                                          target.absolute().as_uri(), sel]))
        _no_secret(str(err.value))
    # the server log never carried it either
    _no_secret([m.message for m in client.log_messages] + [m.message for m in client.messages])
