"""`cairn index`, `cairn chunks`, `cairn gc` and tricky drafts, through the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

from cairn_testing import check_json, run_cairn, run_in_pty


def test_index_is_incremental_and_quiet_when_piped(demo: Path):
    proc = run_cairn(demo, "index")
    assert proc.returncode == 0
    assert "indexed 4 source(s), 0 unchanged" in proc.stderr
    assert "\r" not in proc.stderr  # no progress bar when stderr is not a terminal
    proc = run_cairn(demo, "index")
    assert "indexed 0 source(s), 4 unchanged" in proc.stderr
    if os.environ.get("CAIRN_STORE_URL"):  # a shared index: nothing is written in the workspace
        assert not (demo / ".cairn").exists()
    else:
        assert (demo / ".cairn" / ".gitignore").read_text().splitlines()[1:] == ["*", "!.gitignore", "!snapshots/", "!snapshots/**"]


def test_index_reports_bad_sources_and_goes_on(demo: Path):
    (demo / "sources" / "broken.pdf").write_bytes(b"%PDF-1.7 garbage")
    (demo / "sources" / "image.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    proc = run_cairn(demo, "index")
    assert proc.returncode == 0
    assert "sources/broken.pdf: skipped: cannot read PDF" in proc.stderr
    # a file's bytes decide whether it is text, whatever its extension (SPEC section 2)
    assert "sources/image.txt: skipped: binary (NUL bytes)" in proc.stderr
    assert "indexed 4 source(s)" in proc.stderr


def test_chunks_json(demo: Path):
    proc = run_cairn(demo, "chunks", "--json")
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert {r["source"] for r in rows} == {
        "sources/policy.md", "sources/faq.txt", "sources/handbook.html", "sources/shipping.pdf"
    }
    for r in rows:
        assert set(r) == {"chunk_id", "source", "version", "start", "end", "page", "text", "lineage"}
        assert len(r["chunk_id"]) == 16 and len(r["version"]) == 64
    pdf = [r for r in rows if r["source"] == "sources/shipping.pdf"]
    assert [r["page"] for r in pdf] == [1, 2]
    assert pdf[0]["lineage"].startswith("pdf") and all(r["lineage"] for r in rows)
    policy_text = (demo / "sources" / "policy.md").read_text(encoding="utf-8")
    for r in rows:
        if r["source"] == "sources/policy.md":
            assert policy_text[r["start"]:r["end"]] == r["text"]
    only = run_cairn(demo, "chunks", "--json", "sources/faq.txt")
    assert {json.loads(x)["source"] for x in only.stdout.splitlines()} == {"sources/faq.txt"}
    denied = run_cairn(demo, "chunks", "../../etc/passwd")
    assert denied.returncode == 2 and "outside the source roots" in denied.stderr


def test_gc_drops_versions_no_draft_cites(demo: Path):
    check_json(demo)  # pulls the 2024 policy from git history: cited, so kept
    policy = demo / "sources" / "policy.md"
    original = policy.read_text(encoding="utf-8")
    policy.write_text(original + "\nAn appendix nobody cites.\n", encoding="utf-8")
    run_cairn(demo, "index")
    policy.write_text(original, encoding="utf-8")
    run_cairn(demo, "index")
    proc = run_cairn(demo, "gc")
    assert proc.returncode == 0
    assert "dropped 1 stored version" in proc.stderr
    _, report = check_json(demo)
    notes = [d for d in report["drafts"] if d["path"] == "drafts/review-notes.md"][0]
    by_line = {c["line"]: c for c in notes["claims"]}
    assert [d["code"] for d in by_line[106]["diagnostics"]] == ["source-changed"]
    # the message shows what the source says now where the quote was
    message = by_line[106]["diagnostics"][0]["message"]
    assert "now says \u201cA customer has 14 days to request a credit for a damaged delivery." in message
    assert "% similar)" in message


def test_yaml_values_a_naive_loader_mistypes(demo: Path):
    (demo / "sources" / "dates.md").write_text(
        "The audit closed on 2024-03-01 with no findings.\n\nThe answer was no, twice.\n", encoding="utf-8"
    )
    run_cairn(demo, "index")
    rows = [json.loads(x) for x in run_cairn(demo, "chunks", "--json", "sources/dates.md").stdout.splitlines()]
    audit, answer = rows
    draft = demo / "drafts" / "tricky.md"
    draft.write_text(
        "The audit closed on 2024-03-01.\n\n```cite\n"
        f"chunk_id: {audit['chunk_id']}\nstart: 20\nend: 30\nquote: 2024-03-01\n"
        f"version: {audit['version'][:8]}\n```\n\n"
        "The answer was no.\n\n```cite\n"
        f"chunk_id: {answer['chunk_id']}\nstart: 15\nend: 17\nquote: no\n```\n\n"
        "A leading zero id stays a string.\n\n```cite\n"
        "chunk_id: 0123456789abcdef\nstart: 0\nend: 3\nquote: The\nversion: 12345678\n```\n",
        encoding="utf-8",
    )
    _, report = check_json(demo, "drafts/tricky.md")
    claims = report["drafts"][0]["claims"]
    assert claims[0]["citations"][0]["quote"] == "2024-03-01"
    assert claims[0]["citations"][0]["resolved"] is True and claims[0]["diagnostics"] == []
    assert claims[1]["citations"][0]["quote"] == "no" and claims[1]["citations"][0]["resolved"] is True
    assert claims[2]["citations"][0]["chunk_id"] == "0123456789abcdef"
    assert [d["code"] for d in claims[2]["diagnostics"]] == ["unknown-chunk"]


def test_emoji_and_cjk_before_the_cited_span(demo: Path):
    _, report = check_json(demo, "drafts/credits-answer.md")
    (claim,) = [c for c in report["drafts"][0]["claims"] if "Perishable" in c["text"]]
    cit = claim["citations"][0]
    assert claim["supported"] is True and cit["resolved"] is True
    rows = [json.loads(x) for x in run_cairn(demo, "chunks", "--json", "sources/policy.md").stdout.splitlines()]
    (chunk,) = [r for r in rows if r["chunk_id"] == cit["chunk_id"]]
    assert "🥛" in chunk["text"][: cit["start"]] and "生" in chunk["text"][: cit["start"]]
    assert chunk["text"][cit["start"]:cit["end"]] == cit["quote"]
    # the same span in UTF-16 units or bytes would be elsewhere
    assert len(chunk["text"][: cit["start"]].encode("utf-16-le")) // 2 != cit["start"]


def test_index_shows_a_progress_bar_on_a_terminal(demo: Path):
    """On a terminal `cairn index` draws a progress bar (tqdm) on stderr."""
    code, out = run_in_pty(demo, "index")
    assert code == 0
    assert "indexing" in out and "file" in out and "%" in out  # tqdm's bar
    assert "indexed 4 source(s)" in out
