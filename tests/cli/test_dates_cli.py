"""Source dates and `mixed-dates` through the real `cairn check`: a Markdown
front-matter date, an HTML `<meta>` date and a PDF's creation date are stored
with their versions and shown in the report; a claim combining sources further
apart than `date_window_days` gets a warning naming each source and date."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

from binding_ws import PRESS, REGISTER, make
from cairn_testing import check_json, run_cairn

CLAIM = "As of 2026 the Leeds depot, which opened on 12 May 2024, is listed as closed."


def _pdf(path: Path, text: str, created: dt.datetime) -> None:
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(created)
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, text)
    pdf.output(str(path))


def _block(ws: Path, source: str, quote: str) -> str:
    """A cite block for `quote`, made from what `cairn chunks --json` lists (as a writer's tool would)."""
    proc = run_cairn(ws, "chunks", "--json", source)
    assert proc.returncode == 0, proc.stderr
    for line in proc.stdout.splitlines():
        ch = json.loads(line)
        at = ch["text"].find(quote)
        if at >= 0:
            return (f"```cite\nchunk_id: {ch['chunk_id']}\nstart: {at}\nend: {at + len(quote)}\n"
                    f"quote: {json.dumps(quote, ensure_ascii=False)}\nsource: {source}\n```\n")
    raise AssertionError(f"{quote!r} not in {source}")


def _workspace(root: Path, toml: str = "") -> Path:
    ws = make(root, toml)
    (ws / "sources" / "register.md").write_text(REGISTER, encoding="utf-8")
    (ws / "sources" / "press.html").write_text(PRESS, encoding="utf-8")
    _pdf(ws / "sources" / "opening.pdf", "The Leeds depot opened on 12 May 2024 with forty loading bays.",
         dt.datetime(2024, 5, 12, 9, 30, tzinfo=dt.UTC))
    return ws


def _draft(ws: Path, pdf_or_html: str) -> None:
    opened = _block(ws, pdf_or_html, "The Leeds depot opened on 12 May 2024")
    closed = _block(ws, "sources/register.md", "The asset register lists the Leeds depot as closed since January 2026.")
    (ws / "drafts" / "depot.md").write_text(f"{CLAIM}\n\n{opened}{closed}", encoding="utf-8")


def test_dates_from_front_matter_html_and_pdf_metadata(tmp_path: Path):
    ws = _workspace(tmp_path / "ws")
    for source, date in (("sources/opening.pdf", "2024-05-12"), ("sources/press.html", "2024-05-12")):
        _draft(ws, source)
        _, report = check_json(ws)
        cits = report["drafts"][0]["claims"][0]["citations"]
        assert [(c["source"], c["date"]) for c in cits] == [(source, date), ("sources/register.md", "2026-02-10")]
    proc = run_cairn(ws, "check")
    # the quote's line in the Markdown source (after its front matter), then its version and date
    assert re.search(r"sources/register\.md:\d+ @\w+ dated 2026-02-10", proc.stdout), proc.stdout


def test_mixed_dates_names_each_source(tmp_path: Path):
    ws = _workspace(tmp_path / "ws")
    _draft(ws, "sources/opening.pdf")
    _, report = check_json(ws)
    claim = report["drafts"][0]["claims"][0]
    mixed = [d for d in claim["diagnostics"] if d["code"] == "mixed-dates"]
    assert len(mixed) == 1 and mixed[0]["severity"] == "warning"
    assert mixed[0]["line"] == 1
    msg = mixed[0]["message"]
    assert "639 days apart (more than 365)" in msg
    assert msg.endswith("sources/opening.pdf (2024-05-12), sources/register.md (2026-02-10)")


def test_a_wider_window_and_one_source(tmp_path: Path):
    ws = _workspace(tmp_path / "ws", "date_window_days = 700\n")
    _draft(ws, "sources/opening.pdf")
    _, report = check_json(ws)
    assert "mixed-dates" not in [d["code"] for d in report["drafts"][0]["claims"][0]["diagnostics"]]
    # a bad window is a configuration error, exit 2
    (ws / "cairn.toml").write_text("date_window_days = -3\n", encoding="utf-8")
    proc = run_cairn(ws, "check")
    assert proc.returncode == 2 and "date_window_days" in proc.stderr
