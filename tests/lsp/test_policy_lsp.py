"""Source policy in the language server (SPEC sections 4 and 7): the principal
from the editor's `cairn.principal` (over the workspace's own `principal`),
and no text of a denied source in diagnostics, hover, completion, definition,
code lenses or `cairn.report`; the tier in hover and `source_quality` in the
metrics."""

from __future__ import annotations

import json

from lsprotocol import types
from lsprotocol.converters import get_converter
from pytest_lsp import LanguageClient

from lsp_util import line_of, open_doc, plain, start, until, uri
from policy_ws import SECRET, SECRET_WORDS, TOML, make


def dump(o) -> str:
    """Any protocol object (or list of them) as JSON text."""
    return json.dumps(get_converter().unstructure(o), ensure_ascii=False)


def pos(line: int, ch: int = 0) -> types.Position:
    return types.Position(line=line, character=ch)


async def everything_shown(client: LanguageClient, root) -> str:
    """Every output of the server about the draft, as one text."""
    path = root / "drafts" / "a.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path)
    await until(lambda: client.diagnostics.get(u), what="diagnostics")
    doc = types.TextDocumentIdentifier(uri=u)
    out = [dump(client.diagnostics[u])]
    lines = text.splitlines()
    for i in range(len(lines)):
        h = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos(i, 1)))
        if h is not None:
            out.append(h.contents.value)
    memo_quote = line_of(text, 'quote: "The settlement')
    got = await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=pos(memo_quote, 3)))
    out.append(dump(got))
    if got:
        target = got[0] if isinstance(got, list) else got
        out.append(target.uri)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc))
    out += [x.command.title for x in lenses or []]
    # completion of a quote: type words of the denied source into a new block
    typed = text + "\nSettlement terms.\n\n```cite\nquote: \"settlement with Acme\n```\n"
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=u, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=typed)]))
    qline = line_of(typed, 'quote: "settlement with Acme')
    done = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=pos(qline, len('quote: "settlement with Acme'))))
    items = done.items if isinstance(done, types.CompletionList) else (done or [])
    out += [dump(i) for i in items]
    out.append(json.dumps(plain(await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="cairn.report"))), ensure_ascii=False))
    return "\n".join(out), items


async def test_reader_sees_no_text_of_a_counsel_only_source(client: LanguageClient, tmp_path):
    root = make(tmp_path, 'principal = "counsel"\n' + TOML)  # the workspace's own file names counsel
    client.set_configuration({"principal": "reader"}, section="cairn")  # the user's setting wins
    await start(client, root)
    shown, items = await everything_shown(client, root)
    for w in SECRET_WORDS:
        assert w not in shown
    assert "source-denied" in shown and "'reader'" in shown
    assert not items
    report = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report")))
    assert report["metrics"]["source_quality"] == {"authoritative": 0, "official": 1, "internal": 0, "draft": 0}


async def test_counsel_sees_it_with_its_tier(client: LanguageClient, tmp_path):
    """The same search finds the text when the principal may read it (the test above can fail)."""
    root = make(tmp_path)
    client.set_configuration({"principal": "counsel"}, section="cairn")
    await start(client, root)
    shown, items = await everything_shown(client, root)
    assert all(w in shown for w in SECRET_WORDS)
    assert "authority `official`" in shown and "authority `draft`" in shown
    assert "low-authority" in shown
    assert any(SECRET in (i.text_edit.new_text if i.text_edit else i.label) for i in items)
    assert uri(root / "sources" / "counsel" / "memo.md") in shown


async def test_an_invalid_principal_setting_reads_nothing(client: LanguageClient, tmp_path):
    root = make(tmp_path, 'principal = "counsel"\n' + TOML)
    client.set_configuration({"principal": "counsel\u001b[2J"}, section="cairn")
    await start(client, root)
    await until(lambda: any("principal" in m.message for m in client.messages), what="the message")
    shown, items = await everything_shown(client, root)
    # nothing of the sources is read (the draft's own quotes are all a hover can show):
    # no completion from the index, no definition into a source
    assert not items and uri(root / "sources" / "counsel" / "memo.md") not in shown
    report = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report")))
    assert report["metrics"]["resolved_citations"] == 0


async def test_derived_source_fix_recites_the_original(client: LanguageClient, tmp_path):
    """`derived-source` offers, in the editor only, to cite the original span
    the summary's paragraph cites; applied, the finding goes."""
    import hashlib

    from lsp_util import apply_edits, change_all, edits_for

    def block(source: str, quote: str) -> str:
        cid = hashlib.sha256(f"{source}\n{quote}".encode()).hexdigest()[:16]
        return f"```cite\nchunk_id: {cid}\nstart: 0\nend: {len(quote)}\nquote: {json.dumps(quote)}\n```\n"

    original, summary = "Refunds are paid within 30 days of the request.", "Refunds come within 30 days of a request."
    root = tmp_path / "ws"
    (root / "sources" / "summaries").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('[[policy]]\npath = "sources/summaries/**"\nderived = true\n', encoding="utf-8")
    (root / "sources" / "policy.md").write_text(original + "\n", encoding="utf-8")
    (root / "sources" / "summaries" / "s.md").write_text(f"{summary}\n\n{block('sources/policy.md', original)}",
                                                         encoding="utf-8")
    path = root / "drafts" / "a.md"
    text = f"Refunds are paid within 30 days of the request.\n\n{block('sources/summaries/s.md', summary)}"
    path.write_text(text, encoding="utf-8")
    await start(client, root)
    u = open_doc(client, path)
    await until(lambda: any(d.code == "derived-source" for d in client.diagnostics.get(u, [])), what="derived-source")
    line = line_of(text, "chunk_id:")
    here = types.Range(start=pos(line), end=pos(line))
    got = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=u), range=here,
        context=types.CodeActionContext(diagnostics=[])))
    (fix,) = [a for a in got if a.title == "Cite the original span in sources/policy.md"]
    assert not fix.is_preferred  # editor-only: never applied by --fix or fix-all
    fixed = apply_edits(text, edits_for(fix.edit, u))
    assert "source: sources/policy.md" in fixed and original in fixed
    change_all(client, u, fixed, 2)
    await until(lambda: u in client.diagnostics and not client.diagnostics[u], what="no finding left")


async def test_other_bad_settings_keep_the_users_principal(client: LanguageClient, tmp_path):
    """Editor settings refused for another reason are dropped, but the user's
    principal stays: the workspace's own `principal` never takes its place."""
    root = make(tmp_path, 'principal = "counsel"\n' + TOML)
    client.set_configuration({"principal": "reader", "support": {"mode": "no-such-mode"}}, section="cairn")
    await start(client, root)
    await until(lambda: any("they are ignored" in m.message for m in client.messages), what="the warning")
    shown, _ = await everything_shown(client, root)
    assert "source-denied" in shown
    for w in SECRET_WORDS:
        assert w not in shown
