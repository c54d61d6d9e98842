"""`--fix`, `--baseline` and edits to sources after citing them, through the CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from cairn_testing import check_json, run_cairn


def _by_line(report: dict, path: str) -> dict[int, dict]:
    (draft,) = [d for d in report["drafts"] if d["path"] == path]
    return {c["line"]: c for c in draft["claims"]}


def test_fix_applies_only_safe_fixes(demo: Path):
    draft = demo / "drafts" / "review-notes.md"
    before = draft.read_text(encoding="utf-8")
    proc = run_cairn(demo, "check", "--fix", "--format", "json")
    assert proc.returncode == 1
    after = draft.read_text(encoding="utf-8")
    assert after != before
    report = json.loads(proc.stdout)
    claims = _by_line(report, "drafts/review-notes.md")
    # fixed: offsets re-anchored, curly quotes replaced, unknown chunk re-anchored,
    # version set, the superseded span moved to the current version
    assert [d["code"] for d in claims[6]["diagnostics"]] == []
    assert [d["code"] for d in claims[17]["diagnostics"]] == []
    assert claims[17]["supported"] is True
    assert [d["code"] for d in claims[39]["diagnostics"]] == []
    assert [d["code"] for d in claims[50]["diagnostics"]] == []
    assert [d["code"] for d in claims[117]["diagnostics"]] == []
    # not fixed: the near-miss quote (editor only), the number, the changed source
    assert [d["code"] for d in claims[28]["diagnostics"]] == ["quote-not-found"]
    assert [d["code"] for d in claims[84]["diagnostics"]] == ["number-mismatch"]
    assert [d["code"] for d in claims[106]["diagnostics"]] == ["source-changed"]
    assert "shortage" in after  # the near miss stays as the writer wrote it
    # only citation fields changed: every other line is identical
    b_lines, a_lines = before.split("\n"), after.split("\n")
    assert len(b_lines) == len(a_lines)
    changed = [(x, y) for x, y in zip(b_lines, a_lines) if x != y]
    keys = {y.split(":", 1)[0].strip() for _, y in changed}
    assert keys <= {"chunk_id", "start", "end", "quote", "source", "version"}, changed
    # a second run changes nothing more
    again = run_cairn(demo, "check", "--fix")
    assert draft.read_text(encoding="utf-8") == after
    assert "fixed" not in again.stderr


def test_fix_never_writes_a_draft_with_encoding_problems(demo: Path):
    legacy = demo / "drafts" / "legacy-import.md"
    text = legacy.read_bytes().replace(b"start: 30", b"start: 31").replace(b"end: 90", b"end: 91")
    legacy.write_bytes(text)
    proc = run_cairn(demo, "check", "--fix", "drafts/legacy-import.md", "--format", "json")
    report = json.loads(proc.stdout)
    codes = [d["code"] for c in report["drafts"][0]["claims"] for d in c["diagnostics"]]
    assert "span-shifted" in codes
    assert legacy.read_bytes() == text


def test_fix_keeps_crlf_and_non_ascii_byte_for_byte(demo: Path):
    src = (demo / "drafts" / "review-notes.md").read_text(encoding="utf-8")
    head = "# Überblick — café ☕\r\n\r\n"
    crlf = head + src.replace("\n", "\r\n")
    path = demo / "drafts" / "crlf.md"
    path.write_bytes(crlf.encode("utf-8"))
    run_cairn(demo, "check", "--fix", "drafts/crlf.md")
    out = path.read_bytes()
    assert out.startswith(head.encode("utf-8"))
    assert b"\n" not in out.replace(b"\r\n", b"")  # no bare LF introduced
    # the same fixes as on the LF draft, line for line
    run_cairn(demo, "check", "--fix", "drafts/review-notes.md")
    lf_fixed = (demo / "drafts" / "review-notes.md").read_bytes()
    assert out == head.encode("utf-8") + lf_fixed.replace(b"\n", b"\r\n")


def test_fix_leaves_file_untouched_when_nothing_applies(demo: Path):
    path = demo / "drafts" / "credits-answer.md"
    before = path.read_bytes()
    stat = path.stat()
    run_cairn(demo, "check", "--fix")
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == stat.st_mtime_ns


def test_baseline_refuses_a_change_that_cites_less(demo: Path):
    base = demo / "baseline.json"
    code, report = check_json(demo)
    base.write_text(json.dumps(report))
    # unchanged: passes the gate on the metrics (exit still 1 for the failing claims)
    proc = run_cairn(demo, "check", "--baseline", str(base), "drafts/credits-answer.md")
    assert "set of answers differs" in proc.stderr
    # delete a verified citation block from the good answer: fewer claims verified
    good = demo / "drafts" / "credits-answer.md"
    text = good.read_text(encoding="utf-8")
    start = text.index("Approved credits go back")
    end = text.index("```\n", text.index("```cite", start) + 7) + 4
    good.write_text(text[:start] + "Approved credits go back to the card quickly.\n" + text[end:], encoding="utf-8")
    proc = run_cairn(demo, "check", "--baseline", str(base))
    assert proc.returncode == 3  # a baseline regression, told apart from failing claims (1)
    assert "coverage fell from" in proc.stderr
    assert "verified claims fell from 11 to 10" in proc.stderr


def test_baseline_passes_when_nothing_fell(demo: Path):
    for name in ("review-notes.md", "legacy-import.md"):
        (demo / "drafts" / name).unlink()
    code, report = check_json(demo)
    assert code == 0
    base = demo / "baseline.json"
    base.write_text(json.dumps(report))
    proc = run_cairn(demo, "check", "--baseline", str(base))
    assert proc.returncode == 0, proc.stderr
    # deleting the failing... here: a failing block removed elsewhere would raise validity;
    # deleting a good claim's citation block lowers it and is refused
    bad = run_cairn(demo, "check", "--baseline", str(demo / "missing.json"))
    assert bad.returncode == 2
    # a file that is not a report: one plain line, exit 2
    (demo / "other.json").write_text('{"drafts": []}', encoding="utf-8")
    bad = run_cairn(demo, "check", "--baseline", str(demo / "other.json"))
    assert bad.returncode == 2 and "is not a Cairn JSON report" in bad.stderr and "'metrics'" in bad.stderr
    assert "Field required" not in bad.stderr and "Traceback" not in bad.stderr


def test_deleting_a_failing_citation_block_is_refused(demo: Path):
    """Removing a failing claim's citation raises nothing: the claim becomes
    uncited prose, coverage falls, and the gate refuses it."""
    base = demo / "baseline.json"
    _, report = check_json(demo)
    base.write_text(json.dumps(report))
    notes = demo / "drafts" / "review-notes.md"
    text = notes.read_text(encoding="utf-8")
    start = text.index("```cite", text.index("Customers have 30 days"))
    end = text.index("```\n", start + 7) + 4
    notes.write_text(text[:start] + text[end:], encoding="utf-8")
    _, new = check_json(demo)
    assert new["metrics"]["citation_validity"] > report["metrics"]["citation_validity"]
    proc = run_cairn(demo, "check", "--baseline", str(base))
    assert proc.returncode == 3  # a baseline regression, told apart from failing claims (1)
    assert "coverage fell from" in proc.stderr


def test_source_edited_after_citing(demo: Path):
    """Edit the policy: a quote still present gives span-shifted with a
    re-anchor fix; a quote that is gone gives source-changed."""
    check_json(demo)  # index the current version
    policy = demo / "sources" / "policy.md"
    text = policy.read_text(encoding="utf-8")
    text = text.replace("## Damaged deliveries\n\n", "## Damaged deliveries\n\nRead this section in full.\n")
    text = text.replace("Reports after 48 hours are reviewed case by case by the\ncustomer care team.",
                        "Late reports are no longer accepted.")
    policy.write_text(text, encoding="utf-8")
    _, report = check_json(demo, "drafts/credits-answer.md")
    claims = _by_line(report, "drafts/credits-answer.md")
    shifted = claims[6]
    assert [d["code"] for d in shifted["diagnostics"]] == ["span-shifted", "span-shifted"]
    assert shifted["supported"] is True
    changed = claims[35]
    assert [d["code"] for d in changed["diagnostics"]] == ["source-changed"]
    assert changed["supported"] is False
    # the fix re-anchors to the current chunk, and then the claim is clean
    run_cairn(demo, "check", "--fix", "drafts/credits-answer.md")
    _, report = check_json(demo, "drafts/credits-answer.md")
    claims = _by_line(report, "drafts/credits-answer.md")
    assert claims[6]["diagnostics"] == []
    new_id = claims[6]["citations"][0]["chunk_id"]
    chunks = [json.loads(x) for x in run_cairn(demo, "chunks", "--json", "sources/policy.md").stdout.splitlines()]
    (ch,) = [c for c in chunks if c["chunk_id"] == new_id]
    cit = claims[6]["citations"][0]
    assert ch["text"][cit["start"]:cit["end"]] == cit["quote"]


def test_fresh_clone_gives_the_same_verdicts(tmp_path: Path):
    """The writer indexed the 2024 policy before it changed, so the old chunks
    are in the writer's store; a fresh clone has no store and finds the old
    version in git history. Both give the same report."""
    import make_demo

    writer = tmp_path / "writer"
    shutil.copytree(make_demo.HISTORY, writer)
    make_demo._git(writer, "init", "-q", "-b", "main")
    make_demo._git(writer, "add", "-A")
    make_demo._git(writer, "commit", "-q", "-m", "2024 edition")
    assert run_cairn(writer, "index").returncode == 0
    shutil.copytree(make_demo.DEMO, writer, dirs_exist_ok=True)
    make_demo._git(writer, "add", "-A")
    make_demo._git(writer, "commit", "-q", "-m", "2026 edition")
    _, mine = check_json(writer)
    notes = _by_line(mine, "drafts/review-notes.md")
    assert [d["code"] for d in notes[106]["diagnostics"]] == ["source-changed"]
    assert [d["code"] for d in notes[117]["diagnostics"]] == ["span-shifted"]

    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(writer), str(clone)], check=True)
    # the index is a cache and never committed; the snapshots are the record and are
    assert not (clone / ".cairn" / "index.db").exists()
    _, theirs = check_json(clone)
    assert theirs == mine
    # without the history the old chunks are unknown: the history is what resolves them
    shutil.rmtree(clone / ".git")
    shutil.rmtree(clone / ".cairn")
    _, bare = check_json(clone)
    notes = _by_line(bare, "drafts/review-notes.md")
    assert [d["code"] for d in notes[106]["diagnostics"]] == ["unknown-chunk"]
