"""Lineage and location through the real CLI (SPEC section 6): `lineage` in
`cairn chunks --json` and in each citation of the report, each citation's
`source_start`/`source_end` in its source's parsed text, and line:column
for text sources."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import run_cairn

TEXT = ("# Policy\n\nIntro line one.\nIntro line two.\n\n"
        "Returns: a customer has 14 days to request a credit.\r\nAnother line of it.\n")
HTML = "<html><body><p>Deliveries arrive within two working days.</p></body></html>"


def chunks(ws: Path) -> dict[str, dict]:
    proc = run_cairn(ws, "chunks", "--json")
    assert proc.returncode == 0, proc.stderr
    return {row["text"][:12]: row for row in map(json.loads, proc.stdout.splitlines())}


def cite_block(row: dict, quote: str) -> str:
    start = row["text"].index(quote)
    return (f"```cite\nchunk_id: {row['chunk_id']}\nstart: {start}\nend: {start + len(quote)}\n"
            f"quote: {json.dumps(quote)}\n```\n\n")


def test_lineage_offsets_and_line_column(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "sources").mkdir(parents=True)
    (ws / "drafts").mkdir()
    (ws / "sources" / "policy.md").write_bytes(TEXT.encode())
    (ws / "sources" / "handbook.html").write_text(HTML, encoding="utf-8")
    rows = chunks(ws)
    returns, html = rows["Returns: a c"], rows["Deliveries a"]
    assert returns["lineage"].startswith("text/") and html["lineage"].startswith("html")
    quote = "request a credit"
    (ws / "drafts" / "a.md").write_text(
        "A customer may request a credit.\n\n" + cite_block(returns, quote)
        + "Deliveries take two working days.\n\n" + cite_block(html, "two working days"), encoding="utf-8")
    proc = run_cairn(ws, "check", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    first, second = [c["citations"][0] for d in json.loads(proc.stdout)["drafts"] for c in d["claims"]]
    parsed = TEXT  # a .md source's parsed text is its decoded bytes
    assert parsed[first["source_start"]:first["source_end"]] == quote
    assert first["lineage"] == returns["lineage"]
    # line 6 of the file; the column counts code points from 1
    assert (first["source_line"], first["source_column"]) == (6, len("Returns: a customer has 14 days to ") + 1)
    assert second["lineage"] == html["lineage"]
    assert second["source_end"] - second["source_start"] == len("two working days")
    assert second["source_line"] is None  # not a text source: offsets only

    # the source changes above the quote: the span moves, the offsets follow it to the current text
    moved = TEXT.replace("Intro line two.\n", "Intro line two.\nA new line.\n")
    (ws / "sources" / "policy.md").write_bytes(moved.encode())
    proc = run_cairn(ws, "check", "--format", "json")
    first = json.loads(proc.stdout)["drafts"][0]["claims"][0]["citations"][0]
    assert moved[first["source_start"]:first["source_end"]] == quote
    assert first["source_line"] == 7


def test_text_output_names_the_tier_only_with_tiers(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "sources").mkdir(parents=True)
    (ws / "sources" / "policy.md").write_text(TEXT, encoding="utf-8")
    (ws / "drafts").mkdir()
    row = chunks(ws)["Returns: a c"]
    (ws / "drafts" / "a.md").write_text("A customer may request a credit.\n\n" + cite_block(row, "request a credit"),
                                        encoding="utf-8")
    assert "(official)" not in run_cairn(ws, "check").stdout
    (ws / "cairn.toml").write_text('[authority]\ntiers = ["official", "draft"]\ndefault = "official"\n',
                                   encoding="utf-8")
    assert "(official)" in run_cairn(ws, "check").stdout
