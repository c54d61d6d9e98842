"""Sources change, drafts follow: a source edited, deleted or added on disk
is re-indexed alone and every draft citing it is re-checked, open or not."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_util import open_doc, start, until, uri


def changed(client: LanguageClient, path, kind=types.FileChangeType.Changed) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=uri(path), type=kind)])
    )


def codes_of(client, u):
    # the claims' findings (an uncited paragraph's information finding is another matter)
    return sorted(d.code for d in client.diagnostics.get(u, []) if d.code != "uncited-prose")


async def test_edited_source_reaches_a_closed_draft(client: LanguageClient, demo):
    await start(client, demo)
    # the watchers were registered, with the source root among the globs
    reg = next(r for r in client.registrations if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    globs = [w["globPattern"] for w in reg.register_options["watchers"]]
    assert any("sources/**/*" in (g if isinstance(g, str) else g["pattern"]) for g in globs)

    answer = uri(demo / "drafts/credits-answer.md")
    await until(lambda: answer in client.diagnostics)
    # (its only warning, once the review notes are checked too: a span they cite for an unrelated claim)
    assert codes_of(client, answer) in ([], ["citation-reuse"])
    policy = demo / "sources/policy.md"
    text = policy.read_text(encoding="utf-8")
    text = text.replace("A customer has 14 days", "Damaged goods are credited. A customer has 14 days")
    text = text.replace("Reports after 48 hours are reviewed case by case", "Late reports are declined")
    policy.write_text(text, encoding="utf-8")
    changed(client, policy)
    got = await until(lambda: "source-changed" in codes_of(client, answer) and codes_of(client, answer),
                      what="credits-answer diagnostics")
    assert [c for c in got if c != "citation-reuse"] == ["source-changed", "span-shifted", "span-shifted"]
    shifted = [d for d in client.diagnostics[answer] if d.code == "span-shifted"]
    # the shifted quote points at its new place
    assert all(d.related_information for d in shifted)
    # and the metrics followed
    await until(lambda: client.checked[-1]["metrics"]["verified_claims"] == 10)


async def test_deleted_and_added_sources(client: LanguageClient, demo):
    await start(client, demo)
    legacy = uri(demo / "drafts/legacy-import.md")
    notes = open_doc(client, demo / "drafts/review-notes.md")
    await until(lambda: notes in client.diagnostics and legacy in client.diagnostics)
    faq = demo / "sources/faq.txt"
    kept = faq.read_bytes()
    faq.unlink()
    changed(client, faq, types.FileChangeType.Deleted)
    await until(lambda: "source-changed" in codes_of(client, legacy), what="legacy-import: source deleted")
    msg = next(d.message for d in client.diagnostics[legacy] if d.code == "source-changed")
    assert "sources/faq.txt was deleted" in msg
    # the open draft citing it follows too
    await until(lambda: codes_of(client, notes).count("source-changed") == 2, what="review-notes follows")
    # back under another name: the quote is found there, and a fix re-anchors to it
    (demo / "sources/faq-2.txt").write_bytes(kept)
    changed(client, demo / "sources/faq-2.txt", types.FileChangeType.Created)
    await until(lambda: any("found in sources/faq-2.txt" in d.message for d in client.diagnostics.get(legacy, [])),
                what="legacy-import: the quote found in the new source")


async def test_draft_changed_on_disk_and_config(client: LanguageClient, demo):
    await start(client, demo)
    path = demo / "drafts/credits-answer.md"
    u = uri(path)
    await until(lambda: u in client.diagnostics)
    path.write_text(path.read_text(encoding="utf-8").replace("14 days", "20 days", 1), encoding="utf-8")
    changed(client, path)
    await until(lambda: "number-mismatch" in codes_of(client, u), what="the closed draft re-read")
    # a new draft appears
    new = demo / "drafts/new.md"
    new.write_text((demo / "drafts/legacy-import.md").read_bytes().decode("utf-8", "replace"), encoding="utf-8")
    changed(client, new, types.FileChangeType.Created)
    await until(lambda: uri(new) in client.diagnostics, what="the new draft")
    # cairn.toml: a higher threshold fails the 0.71-supported claim
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("threshold = 0.5", "threshold = 0.8"), encoding="utf-8")
    changed(client, toml)
    await until(lambda: "unsupported-claim" in codes_of(client, u), what="the new threshold")
