"""The code action "Cite a source for this claim" and the command `cairn.evidence`,
through the real server: offered on uncited paragraphs (and failing claims) only,
titled with source and support, resolved lazily into an edit that, once applied,
gives a block the server verifies; a denied source is never offered."""

from __future__ import annotations

import asyncio
import json

from lsprotocol import types
from lsprotocol.converters import get_converter
from pytest_lsp import LanguageClient

from cairn.drafts.binding import claim_field

from lsp_util import CITE_OK, apply_edits, change_all, edits_for, line_of, open_doc, plain, start, until, watch_client
from lsp_util import capabilities as client_caps
from lsp_util import uri as uri_of
from policy_ws import SECRET, TOML, make

CITE_KIND = "quickfix.cite.cairn"
VERIFIED = "A customer has 14 days to request a credit for a damaged delivery."
UNCITED = "Credits are issued to the original payment method within 5 business days of approval."
ITEM = "Perishable goods must be reported within 48 hours of delivery."
DRAFT = (
    "# Evidence\n\n"
    f"{VERIFIED}\n\n{CITE_OK}\n"
    f"{UNCITED}\n\n"
    f"- {ITEM}\n"
    "- Members of Northwind Plus receive free delivery on every order over $35.\n"
)


def at(line: int, ch: int = 0) -> types.Range:
    p = types.Position(line=line, character=ch)
    return types.Range(start=p, end=p)


async def actions(client, u, line, only=None, invoked=False):
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=u), range=at(line, 2),
        context=types.CodeActionContext(
            diagnostics=[], only=only,
            trigger_kind=types.CodeActionTriggerKind.Invoked if invoked else types.CodeActionTriggerKind.Automatic)))


def cites(got) -> list[types.CodeAction]:
    return [a for a in got or [] if a.kind == CITE_KIND]


async def titled(client, u, line) -> list[types.CodeAction]:
    """The cite actions once the evidence is found (the first list may hold the placeholder)."""
    found: list = []

    async def poll():
        found[:] = cites(await actions(client, u, line))
        return found and all("support" in a.title for a in found)

    # the evidence is searched in the background: polled for up to a minute (a busy machine runs
    # other tests beside this one), not a fixed number of times
    deadline = asyncio.get_running_loop().time() + 60
    while asyncio.get_running_loop().time() < deadline:
        if await poll():
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"no titled cite actions on line {line}: {[a.title for a in found]}")


async def report_claim(client, path_rel: str, text: str) -> dict:
    rep = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report")))
    draft = next(d for d in rep["drafts"] if d["path"] == path_rel)
    return next(c for c in draft["claims"] if " ".join(c["text"].split()) == text)


async def test_offered_on_uncited_paragraphs_only_and_the_inserted_block_verifies(client: LanguageClient, demo):
    path = demo / "drafts/evidence.md"
    path.write_text(DRAFT, encoding="utf-8")
    await start(client, demo)
    u = open_doc(client, path, DRAFT)
    await until(lambda: u in client.diagnostics, what="the draft's diagnostics")
    # nothing on the heading, the verified claim, or inside its cite block
    for line in (0, line_of(DRAFT, VERIFIED), line_of(DRAFT, "```cite"), line_of(DRAFT, "quote:")):
        assert cites(await actions(client, u, line, invoked=True)) == [], line
    # the uncited paragraph: up to three passages, best first, titled with source, line and support
    para = line_of(DRAFT, UNCITED)
    got = await titled(client, u, para)
    assert 1 <= len(got) <= 3
    assert got[0].title == "Cite sources/policy.md:11 \u00b7 support 1.00"
    assert all(a.edit is None and a.data is not None for a in got)  # the edit comes with resolve
    # only when quick-fixes are wanted: not with a source action request
    assert cites(await actions(client, u, para, only=["source"])) == []
    resolved = await client.code_action_resolve_async(got[0])
    edits = edits_for(resolved.edit, u)
    assert len(edits) == 1 and edits[0].range.start == types.Position(line=para + 1, character=0)
    new = apply_edits(DRAFT, edits)
    assert f"{UNCITED}\n\n```cite\nchunk_id: " in new
    assert f'claim: "{claim_field(UNCITED)}"\n```\n' in new  # bound to its claim
    change_all(client, u, new, 2)
    claim = await report_claim(client, "drafts/evidence.md", UNCITED)
    assert claim["supported"] is True and claim["diagnostics"] == []
    # the paragraph is cited now: no action there any more
    assert cites(await actions(client, u, line_of(new, UNCITED), invoked=True)) == []
    # the first item of a list: the block goes inside the item, indented, and binds to it
    item = line_of(new, ITEM)
    got = await titled(client, u, item)
    resolved = await client.code_action_resolve_async(got[0])
    newer = apply_edits(new, edits_for(resolved.edit, u))
    assert f"- {ITEM}\n\n  ```cite\n  chunk_id: " in newer
    change_all(client, u, newer, 3)
    claim = await report_claim(client, "drafts/evidence.md", ITEM)
    assert claim["supported"] is True and not [d for d in claim["diagnostics"] if d["severity"] == "error"]
    # the list's other item is still uncited, and still offered
    assert await titled(client, u, line_of(newer, "Members of Northwind Plus"))


async def test_placeholder_resolves_to_the_best_passage_and_a_failing_claim_is_offered(client: LanguageClient, demo):
    path = demo / "drafts/evidence.md"
    bad = CITE_OK.replace('quote: "A customer', 'quote: "A shopper')
    text = f"# Evidence\n\n{UNCITED}\n\n{VERIFIED}\n\n{bad}"
    path.write_text(text, encoding="utf-8")
    await start(client, demo)
    u = open_doc(client, path, text)
    await until(lambda: any(d.code == "quote-not-found" for d in client.diagnostics.get(u, [])), what="the bad quote")
    # the action the list gives while the search runs: its resolve waits for the best passage
    para = line_of(text, UNCITED)
    placeholder = types.CodeAction(title="Cite a source for this claim", kind=CITE_KIND,
                                   data={"cairn": "cite", "uri": u, "line": para, "claim": UNCITED, "index": 0})
    resolved = await client.code_action_resolve_async(placeholder)
    assert "sources/policy.md" in apply_edits(text, edits_for(resolved.edit, u)).split(UNCITED)[1]
    # a claim whose citation fails: its new block goes after its last one, joining the claim
    claim_line = line_of(text, VERIFIED)
    got = await titled(client, u, claim_line)
    assert got[0].title.startswith("Cite sources/policy.md:8 ")
    resolved = await client.code_action_resolve_async(got[0])
    new = apply_edits(text, edits_for(resolved.edit, u))
    assert new.startswith(text) and new[len(text):].startswith("\n```cite\nchunk_id: 691d71e4b46d8b0d\n")
    change_all(client, u, new, 2)
    claim = await report_claim(client, "drafts/evidence.md", VERIFIED)
    # the new citation resolves and draws no diagnostic; the old one's error stays for the writer to drop
    assert len(claim["citations"]) == 2 and claim["citations"][1]["resolved"] is True
    fence = len(text.splitlines()) + 1  # 0-based line of the new opening fence
    assert {d["code"] for d in claim["diagnostics"]} == {"quote-not-found"}
    assert all(d["line"] <= fence for d in claim["diagnostics"]), claim["diagnostics"]
    # a stale action (the draft changed under the menu) resolves to nothing
    change_all(client, u, new.replace(UNCITED, "Something else entirely."), 3)
    stale = await client.code_action_resolve_async(placeholder)
    assert stale.edit is None
    # a claim nothing backs: no action once searched, and the placeholder says so instead of inserting
    roof = "The warehouse roof is painted bright orange every spring."
    text = f"# Evidence\n\n{roof}\n"
    change_all(client, u, text, 4)
    nothing = types.CodeAction(title="Cite a source for this claim", kind=CITE_KIND,
                               data={"cairn": "cite", "uri": u, "line": 2, "claim": roof, "index": 0})
    assert (await client.code_action_resolve_async(nothing)).edit is None
    await until(lambda: any("nothing in the sources supports" in m.message for m in client.messages), what="the message")
    assert cites(await actions(client, u, 2, invoked=True)) == []


async def test_find_evidence_command_lists_passages_with_their_text_and_edit(client: LanguageClient, demo):
    path = demo / "drafts/evidence.md"
    text = f"# Evidence\n\n{UNCITED}"  # no line break at the end: the block goes after the last line
    path.write_text(text, encoding="utf-8")
    await start(client, demo)
    u = open_doc(client, path, text)
    await until(lambda: u in client.diagnostics, what="the draft's diagnostics")
    got = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="cairn.evidence", arguments=[u, {"line": 2, "character": 5}])))
    assert got["claim"] == UNCITED and got["supported"] is True
    first = got["passages"][0]
    assert first["supports"] and first["source"] == "sources/policy.md" and first["title"].startswith("Cite ")
    assert first["quote"].startswith("Credits are issued to the original payment method")
    assert first["block"].startswith("```cite\n")
    edit = get_converter().structure(first["edit"], types.WorkspaceEdit)
    new = apply_edits(text, edits_for(edit, u))
    assert new == f"{text}\n\n{first['block']}"
    change_all(client, u, new, 2)
    claim = await report_claim(client, "drafts/evidence.md", UNCITED)
    assert claim["supported"] is True
    # in a block quote: the block goes inside the quote, and binds to the quoted paragraph
    quoted = "Store credit is offered instead when the payment method has expired."
    text = f"{new}\n> {quoted}\n"
    change_all(client, u, text, 3)
    got = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="cairn.evidence", arguments=[u, {"line": line_of(text, quoted), "character": 4}])))
    assert got["claim"] == quoted and got["passages"][0]["supports"]
    new = apply_edits(text, edits_for(get_converter().structure(got["passages"][0]["edit"], types.WorkspaceEdit), u))
    assert f"> {quoted}\n>\n> ```cite\n> chunk_id: " in new
    change_all(client, u, new, 4)
    claim = await report_claim(client, "drafts/evidence.md", quoted)
    assert claim["supported"] is True
    # on a heading: no claim, and a message saying where to put the cursor
    none = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="cairn.evidence", arguments=[u, {"line": 0, "character": 0}])))
    assert none["claim"] is None and none["passages"] == [] and "uncited paragraph" in none["message"]


async def test_a_client_without_resolve_gets_the_edits_with_the_list(client: LanguageClient, demo):
    caps = client_caps()
    caps.text_document.code_action.resolve_support = None
    watch_client(client)
    await client.initialize_session(types.InitializeParams(
        capabilities=caps, root_uri=uri_of(demo),
        workspace_folders=[types.WorkspaceFolder(uri=uri_of(demo), name=demo.name)],
        initialization_options={"debounce_ms": 0}))
    await until(lambda: client.checked, timeout=30, what="the first check cycle")
    path = demo / "drafts/evidence.md"
    text = f"# Evidence\n\n{UNCITED}\n"
    path.write_text(text, encoding="utf-8")
    u = open_doc(client, path, text)
    await until(lambda: u in client.diagnostics, what="the draft's diagnostics")
    got = cites(await actions(client, u, 2))
    assert got and all(a.edit is not None and a.data is None for a in got)
    assert got[0].title.startswith("Cite sources/policy.md:11 ")
    assert "```cite" in apply_edits(text, edits_for(got[0].edit, u))


async def _denied_case(client: LanguageClient, tmp_path, principal: str) -> tuple[list, dict]:
    root = make(tmp_path, TOML)
    client.set_configuration({"principal": principal}, section="cairn")
    await start(client, root)
    path = root / "drafts" / "b.md"
    text = f"# Note\n\n{SECRET}\n"
    path.write_text(text, encoding="utf-8")
    u = open_doc(client, path, text)
    await until(lambda: u in client.diagnostics, what="the draft's diagnostics")
    found = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="cairn.evidence", arguments=[u, {"line": 2, "character": 0}])))
    # the search is done (the command waited for it): the list answers from it
    listed = cites(await actions(client, u, 2, invoked=True))
    return listed, found


async def test_a_denied_source_is_never_offered(client: LanguageClient, tmp_path):
    listed, found = await _denied_case(client, tmp_path, "reader")
    shown = json.dumps(found["passages"]) + " ".join(a.title for a in listed)  # (the claim is the writer's own)
    assert "counsel" not in shown and "nine million" not in shown
    assert listed == [] and found["supported"] is False


async def test_the_same_source_is_offered_to_a_principal_who_may_read_it(client: LanguageClient, tmp_path):
    listed, found = await _denied_case(client, tmp_path, "counsel")
    assert found["supported"] is True and found["passages"][0]["source"] == "sources/counsel/memo.md"
    assert [a.title for a in listed][:1] == ["Cite sources/counsel/memo.md:1 \u00b7 support 1.00"]
