"""The rules over the sentence reader through the real server: each case of
fixtures/reading gets its squiggle (a published diagnostic with its code) on the
claim's line, and the hover there names the code and the deciding words."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from cairn.reading.read import available

from lsp_util import line_of, open_doc, start, until

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures" / "reading"))
from make_reading import CASES, build  # the fixture builder lives beside its data

pytestmark = pytest.mark.skipif(not available()[0], reason=f"the sentence reader is off: {available()[1]}")

# the words each hover must show, of the claim's side and of the quote's
DECIDING = {
    "Child Benefit is £25.60 a week for each additional child.": ("each additional child", "the eldest or only child"),
    "Benefit must be paid weekly.": ("must be paid", "can choose to be paid"),
    "Every pupil receives a certificate.": ("Every pupil", "Pupils with 100% attendance over the year"),
    "Basel lies on the Danube.": ("Basel with Danube", "Basel with Rhine"),
    "The 1911 eruption destroyed the church at Brekke.": ("destroyed", "partly destroyed"),
    "Rezatrelin improved disability scores.": ("improved", "not statistically significant"),
    "Chelsea beat Arsenal in the final.": ("Chelsea as the subject", "the other way round"),
    "The cache is cleared on restart.": ("the cache is cleared on restart", "this is not the case"),
    "libffi is completely thread-safe, so no special rules are needed.": (
        "is completely thread-safe", "is not completely thread-safe"),
    "The winter had more frost days than the average.": ("more frost", "fewer frost"),
    "The practice pitch is 90 m long.": ("90 m", "90 yards"),
}


async def _hover_text(client: LanguageClient, uri: str, line: int) -> str:
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                          position=types.Position(line=line, character=2)))
    assert hover is not None
    return hover.contents.value if hasattr(hover.contents, "value") else str(hover.contents)


async def test_reading_squiggles_and_hovers(client: LanguageClient, tmp_path: Path):
    root = build(tmp_path / "ws")
    await start(client, root)
    path = root / "drafts" / "reading.md"
    text = path.read_text(encoding="utf-8")
    u = open_doc(client, path)
    diags = await until(lambda: [d for d in client.diagnostics.get(u, []) if d.code == "context-limits"] and
                        client.diagnostics[u], what="the reading diagnostics")
    for claim, _source, _quote, codes, _ok in CASES:
        line = line_of(text, claim)
        # a claim's squiggle starts on its line; context-limits and context-negates sit on the quote's line
        # with the claim's range, so both start at the claim
        got = sorted(d.code for d in diags if d.range.start.line == line and d.code != "unsupported-sentence")
        assert got == sorted(codes), (claim, [(d.code, d.message) for d in diags if d.range.start.line == line])
        for d in diags:
            if d.range.start.line == line and d.code in codes:
                assert d.severity == types.DiagnosticSeverity.Error
        if claim in DECIDING:
            value = (await _hover_text(client, u, line)).replace("\\", "")  # Markdown escapes aside
            mine, theirs = DECIDING[claim]
            assert f"`{codes[0]}`" in value and mine in value and theirs in value, value
