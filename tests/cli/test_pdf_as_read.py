"""PDF text as people read it, and a quote over two paragraphs, through the real CLI: a word
hyphenated across a line break reads whole (offsets exact into the parsed text, the page kept),
and a quote that runs across two chunks says so instead of "not in the sources"."""

from __future__ import annotations

import io
import json
from pathlib import Path

from cairn_testing import run_cairn


def _pdf(pages: list[list[str]]) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for lines in pages:
        pdf.add_page()
        for line in lines:
            pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    buf = io.BytesIO()
    pdf.output(buf)
    return buf.getvalue()


def _workspace(root: Path) -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text("", encoding="utf-8")
    return root


def test_a_word_hyphenated_at_a_line_end_reads_whole(tmp_path: Path):
    ws = _workspace(tmp_path / "ws")
    (ws / "sources" / "guide.pdf").write_bytes(_pdf([
        ["The first page says little."],
        ["Careless manip-", "ulation of the valve voids the warranty.", "An Anglo-", "Saxon charter is kept."],
    ]))
    rows = [json.loads(x) for x in run_cairn(ws, "chunks", "--json").stdout.splitlines()]
    (chunk,) = [r for r in rows if "warranty" in r["text"]]
    assert "Careless manipulation of the valve voids the warranty." in chunk["text"]
    assert "Anglo-\nSaxon" in chunk["text"] or "Anglo- Saxon" in chunk["text"]  # a capital after the break: kept
    assert chunk["page"] == 2
    cited = run_cairn(ws, "cite", "manipulation of the valve voids the warranty")
    assert cited.returncode == 0, cited.stderr
    block = cited.stdout
    (ws / "drafts" / "d.md").write_text("Careless manipulation of the valve voids the warranty.\n\n" + block,
                                        encoding="utf-8")
    checked = run_cairn(ws, "check", "drafts/d.md", "--format", "json")
    assert checked.returncode == 0, checked.stdout
    (cit,) = json.loads(checked.stdout)["drafts"][0]["claims"][0]["citations"]
    assert cit["page"] == 2 and cit["lineage"].startswith("pdf-pypdf/3")
    # the offsets are exact into the parsed text: the chunk's own text at [start, end) is the quote
    assert chunk["text"][cit["start"]:cit["end"]] == "manipulation of the valve voids the warranty"


def test_a_quote_across_two_paragraphs_says_to_cite_each_part(tmp_path: Path):
    ws = _workspace(tmp_path / "ws")
    (ws / "sources" / "faq.txt").write_text(
        "Refunds are paid within 14 days.\n\nExchanges are free of charge.\n", encoding="utf-8")
    quote = "paid within 14 days. Exchanges are free"
    cited = run_cairn(ws, "cite", quote)
    assert cited.returncode == 1
    assert "runs across two paragraphs of sources/faq.txt" in cited.stderr and "cite each part" in cited.stderr
    assert "not in the sources" not in cited.stderr
    as_json = json.loads(run_cairn(ws, "cite", quote, "--json").stdout)
    assert as_json["found"] == 0 and len(as_json["across"]["chunks"]) == 2
    # a draft citing the first chunk with the whole quote: the same words in check
    rows = [json.loads(x) for x in run_cairn(ws, "chunks", "--json").stdout.splitlines()]
    first = rows[0]["chunk_id"]
    (ws / "drafts" / "d.md").write_text(
        f"Refunds are paid within 14 days and exchanges are free.\n\n```cite\nchunk_id: {first}\nstart: 12\n"
        f"end: 51\nquote: \"{quote}\"\n```\n", encoding="utf-8")
    checked = run_cairn(ws, "check", "drafts/d.md")
    assert checked.returncode == 1
    line = next(x for x in checked.stdout.splitlines() if "[quote-not-found]" in x)
    assert "runs across two paragraphs" in line and "cite each part" in line
