"""Diagnostics while typing (SPEC sections 4 and 8): the same codes,
severities, messages and lines as `cairn check`, on the table's ranges."""

from __future__ import annotations

from lsprotocol import types
from pytest_lsp import LanguageClient

from cairn_testing import assert_diagnostics_match, expected_diagnostics
from lsp_util import change_all, change_range, cli_report, line_of, open_doc, start, until, uri


async def test_drafts_match_cairn_check_open_or_not(client: LanguageClient, demo):
    report = cli_report(demo)
    await start(client, demo)
    for rel in ("drafts/review-notes.md", "drafts/credits-answer.md", "drafts/legacy-import.md"):
        u = uri(demo / rel)
        # every answer is checked at start, open or not
        diags = await until(lambda: client.diagnostics.get(u) is not None and [client.diagnostics[u]], what=rel)
        assert_diagnostics_match(diags[0], expected_diagnostics(report, rel))
    # opened, the editor's text gives the same verdicts
    u = open_doc(client, demo / "drafts/review-notes.md")
    await until(lambda: any(d.code == "span-shifted" for d in client.diagnostics.get(u, [])))
    assert_diagnostics_match(client.diagnostics[u], expected_diagnostics(report, "drafts/review-notes.md"))
    by_code = {d.code: d for d in client.diagnostics[u]}
    assert by_code["block-syntax"].severity == types.DiagnosticSeverity.Error
    hints = [d for d in client.diagnostics[u] if d.severity == types.DiagnosticSeverity.Hint]
    assert [d.code for d in hints] == ["unsupported-claim"]  # the ignored one
    assert client.checked[-1]["metrics"] == report["metrics"]


async def test_ranges_follow_the_table(client: LanguageClient, demo):
    await start(client, demo)
    path = demo / "drafts/review-notes.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path)
    diags = await until(lambda: client.diagnostics.get(u) if len(client.diagnostics.get(u, [])) > 5 else None)
    lines = text.splitlines()

    def one(code, near):
        ds = [d for d in diags if d.code == code]
        return min(ds, key=lambda d: abs(d.range.start.line - near))

    # unsupported-claim / number-mismatch: the claim's text
    claim = line_of(text, "Customers have 30 days")
    d = one("number-mismatch", claim)
    assert (d.range.start.line, d.range.start.character) == (claim, 0)
    assert (d.range.end.line, d.range.end.character) == (claim, len(lines[claim]))
    assert d.message == "claim says 30 days; quotes say 14 days"
    # quote-not-found: the quote: line
    q = line_of(text, "quote: \"Open the order")
    d = one("quote-not-found", q)
    assert d.range.start.line == d.range.end.line == q and lines[q][d.range.start.character:].startswith("quote:")
    # span-shifted: from chunk_id: to end:
    d = one("span-shifted", 8)
    assert lines[d.range.start.line].startswith("chunk_id: 93f6c4336917f4ae")
    assert lines[d.range.end.line].startswith("end:")
    # related information: the span in the source
    rel = d.related_information[0]
    assert rel.location.uri == uri(demo / "sources/policy.md")
    policy = (demo / "sources/policy.md").read_text(encoding="utf-8")
    at = line_of(policy, "Store credit is offered")
    assert rel.location.range.start.line == at
    assert policy.splitlines()[at][rel.location.range.start.character:].startswith("Store credit is offered")
    # claim-level diagnostics point at every resolved quote
    d = one("unsupported-claim", line_of(text, "Supervisors review every refund"))
    assert d.related_information and d.related_information[0].location.uri == uri(demo / "sources/handbook.html")


async def test_typing_rechecks_and_moved_claims_keep_their_verdicts(client: LanguageClient, demo):
    await start(client, demo)
    path = demo / "drafts/review-notes.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path)
    first = await until(lambda: [d for d in client.diagnostics.get(u, []) if d.code == "number-mismatch"])
    before = sorted((d.code, d.range.start.line, d.message) for d in client.diagnostics[u])
    # three lines above everything: every diagnostic moves down by three, nothing else changes
    change_range(client, u, 2, 0, 0, 0, "Intro 😀 line.\n\nAnother paragraph.\n")
    moved = await until(
        lambda: [d for d in client.diagnostics.get(u, []) if d.code == "number-mismatch"
                 and d.range.start.line == first[0].range.start.line + 3]
    )
    assert moved
    # (the two new paragraphs are uncited prose: their own findings sit above the old lines)
    after = sorted((d.code, d.range.start.line - 3, d.message) for d in client.diagnostics[u] if d.range.start.line >= 3)
    assert after == before
    # the claim fixed by typing: "30 days" -> "14 days"
    text = "Intro 😀 line.\n\nAnother paragraph.\n" + text
    line = line_of(text, "Customers have 30 days")
    col = text.splitlines()[line].index("30")
    change_range(client, u, 3, line, col, col + 2, "14")
    await until(lambda: not any(d.code == "number-mismatch" for d in client.diagnostics.get(u, [])),
                what="number-mismatch to go")
    assert len([d for d in client.diagnostics[u] if d.range.start.line >= 3]) == len(before) - 1
    # whole-document sync works too
    change_all(client, u, "# Empty now\n", 4)
    await until(lambda: len(client.diagnostics.get(u, [None])) == 0, what="no diagnostics")


async def test_debounce(client: LanguageClient, demo):
    await start(client, demo, options={"debounce_ms": 300})
    path = demo / "drafts/credits-answer.md"
    u = open_doc(client, path)
    await until(lambda: u in client.diagnostics)
    text = path.read_text(encoding="utf-8").replace("14 days", "15 days", 1)
    change_all(client, u, text, 2)
    await until(lambda: any(d.code == "number-mismatch" for d in client.diagnostics.get(u, [])), timeout=5)
