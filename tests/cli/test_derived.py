"""Derived sources through the real CLI (SPEC section 4, `derived-source`): a
summary whose cited paragraph carries resolvable citations of its own is
checked against the original quotes; one without lineage fails the claim;
a cycle of summaries (or a summary citing itself) is reported, not followed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cairn_testing import run_cairn

ORIGINAL = "Refunds are paid within 30 days of the request."
SUMMARY_LINE = "Refunds come within 30 days of a request."
BARE_LINE = "Nobody checks the refunds."


def cid(source: str, text: str) -> str:
    return hashlib.sha256(f"{source}\n{text}".encode()).hexdigest()[:16]


def block(source: str, quote: str) -> str:
    return f"```cite\nchunk_id: {cid(source, quote)}\nstart: 0\nend: {len(quote)}\nquote: {json.dumps(quote)}\n```\n"


def make(tmp_path: Path, summary: str, draft: str) -> Path:
    ws = tmp_path / "ws"
    (ws / "sources" / "summaries").mkdir(parents=True)
    (ws / "drafts").mkdir()
    (ws / "cairn.toml").write_text('[[policy]]\npath = "sources/summaries/**"\nderived = true\n', encoding="utf-8")
    (ws / "sources" / "policy.md").write_text(ORIGINAL + "\n", encoding="utf-8")
    (ws / "sources" / "summaries" / "s.md").write_text(summary, encoding="utf-8")
    (ws / "drafts" / "a.md").write_text(draft, encoding="utf-8")
    return ws


def claims(ws: Path) -> list[dict]:
    proc = run_cairn(ws, "check", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    return [c for d in json.loads(proc.stdout)["drafts"] for c in d["claims"]]


def derived(claim: dict) -> dict:
    (d,) = [d for d in claim["diagnostics"] if d["code"] == "derived-source"]
    return d


def test_summary_with_and_without_lineage(tmp_path: Path) -> None:
    summary = f"# Summary\n\n{SUMMARY_LINE}\n\n{block('sources/policy.md', ORIGINAL)}\n{BARE_LINE}\n"
    draft = (f"Refunds are paid within 30 days of the request.\n\n{block('sources/summaries/s.md', SUMMARY_LINE)}\n"
             f"Nobody checks the refunds.\n\n{block('sources/summaries/s.md', BARE_LINE)}"
             f"\nRefunds take 90 days from the request.\n\n{block('sources/summaries/s.md', SUMMARY_LINE)}")
    ws = make(tmp_path, summary, draft)
    with_lineage, without, unsupported = claims(ws)
    d = derived(with_lineage)
    assert with_lineage["supported"] and d["severity"] == "warning"
    assert "sources/policy.md" in d["message"] and ORIGINAL in d["message"]
    assert "support the claim" in d["message"]
    assert not without["supported"]
    assert "a summary is not an original quotation" in derived(without)["message"]
    # lineage that resolves but whose original quotes do not back the claim fails it
    assert not unsupported["supported"]
    assert "do not support the claim" in derived(unsupported)["message"]
    # the re-cite of the original span is offered in the editor, never by --fix
    proc = run_cairn(ws, "check", "--fix")
    assert "fixed" not in proc.stderr
    assert (ws / "drafts" / "a.md").read_text(encoding="utf-8") == draft


def test_original_sources_are_never_derived_findings(tmp_path: Path) -> None:
    ws = make(tmp_path, "# Summary\n", f"Refunds are paid within 30 days of the request.\n\n{block('sources/policy.md', ORIGINAL)}")
    (claim,) = claims(ws)
    assert claim["supported"] and claim["diagnostics"] == []


def test_cycles_and_a_summary_citing_itself_are_reported(tmp_path: Path) -> None:
    # s.md cites t.md, t.md cites s.md
    s_line, t_line = "Refunds are paid within 30 days, says t.", "Refunds are paid within 30 days, says s."
    summary = f"{s_line}\n\n{block('sources/summaries/t.md', t_line)}"
    draft = f"Refunds are paid within 30 days.\n\n{block('sources/summaries/s.md', s_line)}"
    ws = make(tmp_path, summary, draft)
    (ws / "sources" / "summaries" / "t.md").write_text(f"{t_line}\n\n{block('sources/summaries/s.md', s_line)}",
                                                       encoding="utf-8")
    (claim,) = claims(ws)
    msg = derived(claim)["message"]
    assert not claim["supported"] and "cycle" in msg
    assert "sources/summaries/s.md → sources/summaries/t.md → sources/summaries/s.md" in msg
    # a summary whose paragraph cites that very paragraph
    own = "Refunds are paid within 30 days, it says itself."
    (ws / "sources" / "summaries" / "s.md").write_text(f"{own}\n\n{block('sources/summaries/s.md', own)}",
                                                       encoding="utf-8")
    (ws / "drafts" / "a.md").write_text(f"Refunds are paid within 30 days.\n\n{block('sources/summaries/s.md', own)}",
                                        encoding="utf-8")
    (claim,) = claims(ws)
    assert not claim["supported"] and "cycle" in derived(claim)["message"]
