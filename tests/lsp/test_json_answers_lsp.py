"""JSON answers in the editor (SPEC sections 3, 5 and 8) through the real server: a
`.jsonl` file a `drafts` glob matches is checked as `cairn check` checks it, its
diagnostics are published on the file at the line where each answer starts, it
is checked again when it or a source it cites changes, and `cairn.report` and
`cairn/checked` count each of its answers exactly as `cairn check` does."""

from __future__ import annotations

import json
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from cairn_testing import SEVERITY, assert_diagnostics_match
from lsp_util import build_demo, change_all, cli_report, plain, start, until, uri

CLAIM = "A customer has 14 days to request a credit for a damaged delivery."
CITATION = {"chunk_id": "691d71e4b46d8b0d", "start": 0, "end": 65,
            "quote": "A customer has 14 days to request a credit for a damaged delivery",
            "source": "sources/policy.md"}


def answer(aid: str, text: str) -> str:
    return json.dumps({"id": aid, "question": "How long?", "claims": [{"text": text, "citations": [CITATION]}]})


def workspace(tmp_path: Path) -> Path:
    root = build_demo(tmp_path / "demo")
    toml = root / "cairn.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('drafts = ["drafts/*.md"]', 'drafts = ["drafts/*"]'),
                    encoding="utf-8")
    (root / "drafts/ans.jsonl").write_text(
        answer("good", CLAIM) + "\n{not json\n" + answer("wrong", CLAIM.replace("14", "30")) + "\n", encoding="utf-8")
    # a .json file holding the seed's bare list of claims: one answer
    (root / "drafts/one.json").write_text(
        "[\n  " + json.dumps({"text": CLAIM, "citations": [CITATION], "supported": False}) + "\n]\n", encoding="utf-8")
    return root


def expected(report: dict, rel: str) -> list[tuple]:
    """(code, 0-based line, severity, message) of every answer of one file in a `cairn check` report."""
    out = []
    for d in report["drafts"]:
        if d["path"] == rel:
            out += [(x["code"], x["line"] - 1, SEVERITY[x["severity"]], x["message"]) for x in d["diagnostics"]]
            out += [(x["code"], x["line"] - 1, SEVERITY[x["severity"]], x["message"])
                    for c in d["claims"] for x in c["diagnostics"]]
    return sorted(out)


async def report(client: LanguageClient) -> dict:
    got = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report"))
    return json.loads(json.dumps(got, default=lambda o: o._asdict()))


async def test_json_answers_are_checked_published_and_counted(client: LanguageClient, tmp_path: Path):
    root = workspace(tmp_path)
    cli = cli_report(root)
    assert [d.get("id") for d in cli["drafts"] if d["path"] == "drafts/ans.jsonl"] == ["good", 2, "wrong"]
    want = expected(cli, "drafts/ans.jsonl")
    assert [(c, line) for c, line, _, _ in want] == [("block-syntax", 1), ("number-mismatch", 2)]
    await start(client, root)
    u = uri(root / "drafts/ans.jsonl")
    diags = await until(lambda: client.diagnostics.get(u), what="the JSON answers' diagnostics")
    assert_diagnostics_match(diags, want)
    # each at the line where its answer starts, from its first column
    assert sorted((d.range.start.line, d.range.start.character) for d in diags) == [(1, 0), (2, 0)]
    one = uri(root / "drafts/one.json")
    await until(lambda: one in client.diagnostics, what="the .json answer checked")
    assert list(client.diagnostics[one]) == [] and expected(cli, "drafts/one.json") == []
    # the metrics count every answer of the files, as `cairn check` does
    assert cli["metrics"]["answers"] == 7  # three Markdown drafts, three JSONL answers, one JSON answer
    assert client.checked[-1]["metrics"] == cli["metrics"]
    got = await report(client)
    assert got["metrics"] == cli["metrics"]
    assert got == cli


async def test_json_answers_are_checked_again_when_they_or_a_source_change(client: LanguageClient, tmp_path: Path):
    root = workspace(tmp_path)
    await start(client, root)
    ans = root / "drafts/ans.jsonl"
    u = uri(ans)
    await until(lambda: len(client.diagnostics.get(u, [])) == 2, what="the first check")
    # the file is fixed on disk: its malformed line and wrong number are gone
    ans.write_text(answer("good", CLAIM) + "\n" + answer("fixed", CLAIM) + "\n", encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=u, type=types.FileChangeType.Changed)]))
    await until(lambda: client.diagnostics.get(u) is not None and not client.diagnostics[u],
                what="the fixed file checked again")
    await until(lambda: client.checked[-1]["metrics"]["answers"] == 6, what="the new count of answers")
    # a source the answers cite changes: the quote is gone from it
    policy = root / "sources/policy.md"
    policy.write_text(policy.read_text(encoding="utf-8").replace("A customer has 14 days", "A customer has 15 days"),
                      encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri(policy), type=types.FileChangeType.Changed)]))
    diags = await until(lambda: [d for d in client.diagnostics.get(u, []) if d.code == "source-changed"],
                        what="the answers checked against the new source")
    assert sorted(d.range.start.line for d in diags) == [0, 1]
    cli = cli_report(root)
    assert_diagnostics_match(client.diagnostics[u], expected(cli, "drafts/ans.jsonl"))
    assert plain((await report(client))["metrics"]) == cli["metrics"]
    # a new answer file is found, one that is removed is cleared
    new = root / "drafts/new.jsonl"
    new.write_text("[1, 2\n", encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri(new), type=types.FileChangeType.Created)]))
    got = await until(lambda: client.diagnostics.get(uri(new)), what="the new answer file")
    assert [d.code for d in got] == ["block-syntax"]
    new.unlink()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri(new), type=types.FileChangeType.Deleted)]))
    await until(lambda: not client.diagnostics.get(uri(new), [1]), what="the removed file cleared")
    await until(lambda: client.checked[-1]["metrics"]["answers"] == 6, what="the count without it")


async def test_an_open_json_answer_is_checked_as_typed_and_as_saved_once_closed(client: LanguageClient,
                                                                                tmp_path: Path):
    root = workspace(tmp_path)
    await start(client, root)
    ans = root / "drafts/ans.jsonl"
    on_disk = ans.read_text(encoding="utf-8")
    u = uri(ans)
    await until(lambda: len(client.diagnostics.get(u, [])) == 2, what="the first check, from disk")
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=u, language_id="json", version=1, text=on_disk)))
    # an unsaved edit: the first answer now says 30 days, the malformed line is mended, the wrong one fixed
    typed = answer("good", CLAIM.replace("14", "30")) + "\n" + answer("fixed", CLAIM) + "\n"
    change_all(client, u, typed, 2)
    diags = await until(lambda: [d for d in client.diagnostics.get(u, []) if d.code != "block-syntax"
                                 and d.range.start.line == 0] or None, what="the typed text checked")
    assert [d.code for d in diags] == ["number-mismatch"]
    assert "30 days" in diags[0].message and "14 days" in diags[0].message
    assert [d.range.start.line for d in client.diagnostics[u]] == [0]  # nothing left of the text on disk
    assert ans.read_text(encoding="utf-8") == on_disk  # the file itself is never written
    # the report counts the answers as typed: two, one failing
    got = await report(client)
    typed_answers = [d for d in got["drafts"] if d["path"] == "drafts/ans.jsonl"]
    assert [d.get("id") for d in typed_answers] == ["good", "fixed"]
    assert [c["supported"] for d in typed_answers for c in d["claims"]] == [False, True]
    # closed without saving: back to the file on disk
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=u)))
    await until(lambda: sorted(d.range.start.line for d in client.diagnostics.get(u, [])) == [1, 2],
                what="the file as saved checked again")
    assert_diagnostics_match(client.diagnostics[u], expected(cli_report(root), "drafts/ans.jsonl"))
