"""Configuration (SPEC section 7): cairn.toml wins, the client's `cairn`
settings fill the rest; invalid settings are a message and the defaults.
Also: progress while indexing, and one index per root of a multi-root
workspace."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import build_demo, capabilities, line_of, open_doc, plain, start, until, uri, watch_client


async def hover_text(client, u, line):
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(line=line, character=1))
    )
    return h.contents.value


async def test_client_settings_fill_what_cairn_toml_leaves(client: LanguageClient, demo):
    # threshold is set by the demo's cairn.toml (0.5): the client's 0.9 loses;
    # exclude is not: the client's value applies
    client.set_configuration({"threshold": 0.9, "exclude": ["drafts/legacy-*"]}, section="cairn")
    await start(client, demo)
    metrics = client.checked[-1]["metrics"]
    assert metrics["answers"] == 2  # legacy-import.md excluded
    path = demo / "drafts/credits-answer.md"
    u = open_doc(client, path)
    line = line_of(path.read_text(encoding="utf-8"), "Perishable goods reported")
    await until(lambda: u in client.diagnostics)
    assert "threshold 0.5" in await hover_text(client, u, line)
    # progress was reported while indexing
    assert any(
        [type(v).__name__ for v in reports][:1] == ["WorkDoneProgressBegin"]
        and type(reports[-1]).__name__ == "WorkDoneProgressEnd"
        for reports in client.progress_reports.values()
    )


async def test_invalid_settings_are_a_message_and_nothing_is_checked(client: LanguageClient, demo):
    (demo / "cairn.toml").write_text('sources = ["sources"]\nthreshold = "high"\n', encoding="utf-8")
    client.set_configuration({"support": {"mode": "no-such-mode"}}, section="cairn")
    await start(client, demo)
    assert any("threshold" in m.message for m in client.messages)
    # a refused cairn.toml is never replaced by the defaults: nothing is checked until it is fixed
    # (test_config_errors.py: what an open draft shows meanwhile)
    assert client.checked[-1]["metrics"]["answers"] == 0
    # a change of settings: the server asks again and applies them
    (demo / "cairn.toml").write_text('sources = ["sources"]\n', encoding="utf-8")
    client.set_configuration({"threshold": 0.9}, section="cairn")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    # sources are read again (claims resolve) and the stricter threshold verifies fewer claims
    await until(lambda: 0 < client.checked[-1]["metrics"]["verified_claims"] < 10
                and client.checked[-1]["metrics"]["resolved_citations"] > 0, what="the new threshold")


async def test_multi_root(client: LanguageClient, tmp_path):
    a = build_demo(tmp_path / "a")
    b = build_demo(tmp_path / "b")
    (b / "drafts/review-notes.md").unlink()
    watch_client(client)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=uri(a), name="a"), types.WorkspaceFolder(uri=uri(b), name="b")],
            initialization_options={"debounce_ms": 0},
        )
    )
    await until(lambda: client.checked and client.checked[-1]["metrics"]["answers"] == 5, what="both roots")
    assert (a / ".cairn/index.db").exists() and (b / ".cairn/index.db").exists()
    report = plain(await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report")))
    assert report["metrics"]["answers"] == 5
    # a source change in one root touches that root only
    assert uri(b / "drafts/credits-answer.md") in client.diagnostics
    policy = b / "sources/policy.md"
    policy.write_text(policy.read_text(encoding="utf-8").replace("A customer has 14 days", "A client has 14 days"),
                      encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri(policy), type=types.FileChangeType.Changed)]))
    await until(lambda: client.diagnostics.get(uri(b / "drafts/credits-answer.md")), what="root b re-checked")
    # (root a's only warning: its review notes cite the agents' limit for an unrelated claim)
    assert [d.code for d in client.diagnostics[uri(a / "drafts/credits-answer.md")]
            if d.code != "uncited-prose"] == ["citation-reuse"]
