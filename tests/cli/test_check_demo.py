"""`cairn check` on the demo workspace, claim by claim, through the real CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

from cairn_testing import check_json, run_cairn


def _claims(report: dict, path: str) -> list[dict]:
    (draft,) = [d for d in report["drafts"] if d["path"] == path]
    return draft["claims"]


def _codes(claim: dict) -> list[str]:
    return [d["code"] for d in claim["diagnostics"]]


def test_demo_verdicts_claim_by_claim(demo: Path):
    code, report = check_json(demo)
    assert code == 1
    good = _claims(report, "drafts/credits-answer.md")
    assert [c["supported"] for c in good] == [True] * 5
    assert all(c["judge"] == "lexical" for c in good)
    # one warning only: the agents' limit is also cited, in the review notes, for a claim about
    # supervisors reviewing refunds (a passage attached to an unrelated claim)
    assert [(c["line"], [d["code"] for d in c["diagnostics"]]) for c in good if c["diagnostics"]] == [
        (46, ["citation-reuse"])]
    reuse = [c for c in good if c["line"] == 46][0]["diagnostics"][0]
    assert reuse["severity"] == "warning" and "(drafts/review-notes.md:95)" in reuse["message"]
    # the PDF citation knows its page
    pdf = [c for c in good if c["citations"][0]["source"] == "sources/shipping.pdf"][0]
    assert pdf["citations"][0]["page"] == 2
    assert pdf["citations"][0]["resolved"] is True
    assert len(pdf["citations"][0]["version"]) == 64

    notes = _claims(report, "drafts/review-notes.md")
    by_line = {c["line"]: c for c in notes}
    expect = {
        6: (True, ["span-shifted"]),
        17: (False, ["quote-not-found"]),
        28: (False, ["quote-not-found"]),
        39: (False, ["unknown-chunk"]),
        50: (True, ["version-mismatch"]),
        61: (False, ["source-denied"]),
        71: (False, ["block-syntax"]),
        80: (False, ["no-citations"]),
        84: (False, ["number-mismatch"]),
        95: (False, ["unsupported-claim", "citation-reuse"]),  # its quote also backs the agents' limit
        106: (False, ["source-changed"]),
        117: (True, ["span-shifted"]),
        128: (True, ["unsupported-claim"]),
        140: (True, []),
    }
    assert sorted(by_line) == sorted(expect)
    for line, (supported, codes) in expect.items():
        assert by_line[line]["supported"] is supported, (line, by_line[line])
        assert _codes(by_line[line]) == codes, (line, by_line[line]["diagnostics"])
    # diagnostics sit on the lines the SPEC names
    diag_line = {line: by_line[line]["diagnostics"][0]["line"] for line in expect if expect[line][1]}
    assert diag_line[6] == 10  # span-shifted: the start: line
    assert diag_line[17] == 23  # quote-not-found: the quote: line
    assert diag_line[39] == 42  # unknown-chunk: the chunk_id: line
    assert diag_line[50] == 58  # version-mismatch: the version: line
    assert diag_line[61] == 68  # source-denied: the source: line
    assert diag_line[71] == 75  # block-syntax: the faulty field's line
    assert diag_line[80] == 80  # no-citations: the fence
    assert diag_line[84] == 84  # number-mismatch: the claim's first line
    assert diag_line[106] == 109  # source-changed: the chunk_id: line
    # severities, the number message, the ignored code
    nm = by_line[84]["diagnostics"][0]
    assert nm["severity"] == "error" and nm["message"] == "claim says 30 days; quotes say 14 days"
    assert by_line[95]["diagnostics"][0]["severity"] == "warning"
    assert by_line[128]["diagnostics"][0]["severity"] == "hint"
    assert by_line[6]["diagnostics"][0]["severity"] == "warning"
    # scores: null without a resolved citation
    assert by_line[17]["support_score"] is None
    assert 0 < by_line[95]["support_score"] < 0.5
    # the superseded citation still names its old version
    assert by_line[106]["citations"][0]["resolved"] is False
    assert by_line[117]["citations"][0]["resolved"] is True

    legacy = [d for d in report["drafts"] if d["path"] == "drafts/legacy-import.md"][0]
    assert [d["code"] for d in legacy["diagnostics"]] == ["encoding"]
    assert legacy["diagnostics"][0]["line"] == 1 and legacy["faithful"] is True

    m = report["metrics"]
    assert m["claims"] == 20 and m["verified_claims"] == 11
    assert m["citation_validity"] == 11 / 20
    assert m["answers"] == 3 and m["faithful_answers"] == 2 and m["faithfulness"] == 2 / 3
    assert m["citations"] == 20 and m["resolved_citations"] == 14
    assert m["resolution"] == 14 / 20
    assert m["coverage"] == 20 / (20 + m["uncited_paragraphs"])


def test_text_output_shows_verdict_source_page_and_quote(demo: Path):
    proc = run_cairn(demo, "check", "drafts/credits-answer.md")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "VERIFIED" in out
    assert "sources/shipping.pdf p.2" in out
    assert "\u201cA missed delivery can be rebooked once at no charge within 3 days.\u201d" in out
    assert "citation_validity 100.0%" in out


def test_exit_codes_and_usage_errors(demo: Path):
    assert run_cairn(demo, "check", "drafts/credits-answer.md").returncode == 0
    assert run_cairn(demo, "check", "drafts/review-notes.md").returncode == 1
    proc = run_cairn(demo, "check", "sources/faq.txt")
    assert proc.returncode == 2 and "source root" in proc.stderr
    proc = run_cairn(demo, "check", "drafts/nope.md")
    assert proc.returncode == 2 and "no such file" in proc.stderr
    (demo / "cairn.toml").write_text("threshold = 'high'\n")
    proc = run_cairn(demo, "check")
    assert proc.returncode == 2 and "threshold" in proc.stderr
    (demo / "cairn.toml").write_text('sources = ["../elsewhere"]\n')
    proc = run_cairn(demo, "check")
    assert proc.returncode == 2 and "leaves the workspace" in proc.stderr


def test_strict_fails_on_warnings(demo: Path):
    # credits-answer's one warning is citation-reuse (its span also backs a claim of review-notes.md, which
    # counts whichever drafts are named); legacy-import has an encoding warning
    assert run_cairn(demo, "check", "drafts/credits-answer.md").returncode == 0
    strict = run_cairn(demo, "check", "--strict", "drafts/credits-answer.md")
    assert strict.returncode == 1 and "[citation-reuse]" in strict.stdout and "drafts/review-notes.md" in strict.stdout
    assert run_cairn(demo, "check", "drafts/legacy-import.md").returncode == 0
    assert run_cairn(demo, "check", "--strict", "drafts/legacy-import.md").returncode == 1


def test_sarif_output(demo: Path):
    proc = run_cairn(demo, "check", "--format", "sarif")
    assert proc.returncode == 1
    sarif = json.loads(proc.stdout)
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    rules = {r["ruleId"] for r in results}
    assert {"number-mismatch", "span-shifted", "encoding", "unknown-chunk"} <= rules
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert "drafts/review-notes.md" in uris  # the demo copy is its own git repo root
    nm = [r for r in results if r["ruleId"] == "number-mismatch"][0]
    assert nm["level"] == "error"
    assert nm["locations"][0]["physicalLocation"]["region"]["startLine"] == 84


def test_answers_discovery_without_drafts_setting(demo: Path):
    (demo / "cairn.toml").write_text('sources = ["sources"]\n')
    (demo / "notes.md").write_text("# Just notes\n\nNo citations here.\n")
    (demo / ".hidden").mkdir()
    (demo / ".hidden" / "x.md").write_text((demo / "drafts" / "credits-answer.md").read_text())
    (demo / ".gitignore").write_text("ignored.md\n")
    (demo / "ignored.md").write_text((demo / "drafts" / "credits-answer.md").read_text())
    _, report = check_json(demo)
    paths = sorted(d["path"] for d in report["drafts"])
    assert paths == ["drafts/credits-answer.md", "drafts/legacy-import.md", "drafts/review-notes.md"]


def test_drafts_glob_counts_answers_without_claims(demo: Path):
    (demo / "drafts" / "empty.md").write_text("# Empty answer\n\nNothing cited yet.\n")
    _, report = check_json(demo)
    empty = [d for d in report["drafts"] if d["path"] == "drafts/empty.md"][0]
    assert empty["claims"] == [] and empty["faithful"] is False
    assert report["metrics"]["answers"] == 4


def test_empty_workspace_reports_null_figures(tmp_path: Path):
    (tmp_path / "cairn.toml").write_text("")
    (tmp_path / "sources").mkdir()  # an empty source root (a missing one is an error: exit 2)
    code, report = check_json(tmp_path)
    assert code == 0
    m = report["metrics"]
    assert m["claims"] == 0 and m["citation_validity"] is None and m["faithfulness"] is None
    assert m["resolution"] is None and m["coverage"] is None


def _cached_reports(demo: Path) -> int:
    """How many draft reports the store of this run (SQLite file or shared index) caches."""
    url = os.environ.get("CAIRN_STORE_URL")
    if url:
        import psycopg

        with psycopg.connect(url) as db:
            return db.execute("SELECT count(*) FROM cairn_kv_cache WHERE key LIKE 'draft-report:%'").fetchone()[0]
    import sqlite3

    db = sqlite3.connect(demo / ".cairn" / "index.db")
    try:
        return db.execute("SELECT count(*) FROM kv_cache WHERE key LIKE 'draft-report:%'").fetchone()[0]
    finally:
        db.close()


def test_warm_check_reuses_verdicts_until_an_input_changes(demo: Path):
    _, first = check_json(demo)
    assert _cached_reports(demo) == 3
    _, second = check_json(demo)
    assert second == first
    # a changed threshold is a changed input: new verdicts, not the cached ones
    (demo / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\nthreshold = 0.99\n')
    _, strict = check_json(demo)
    assert strict["metrics"]["verified_claims"] < first["metrics"]["verified_claims"]


def test_the_report_says_which_diagnostics_fix_applies_to(demo: Path):
    """Each diagnostic's `fix` (an extra JSON field) names what `cairn check
    --fix` would do about it; the text output lists them and counts them."""
    code, report = check_json(demo)
    by_line = {c["line"]: c for c in _claims(report, "drafts/review-notes.md")}
    fix = {line: [d["fix"] for d in c["diagnostics"]] for line, c in by_line.items()}
    assert fix[6] == ["Re-anchor to [86, 154)"]  # span-shifted in its chunk
    assert fix[17] == ["Replace the quote with the source's exact text"]  # curly quotes only
    assert fix[28] == [None]  # a near miss: the editor offers it, --fix never applies it
    assert fix[39] == ["Re-anchor to sources/handbook.html (quote found there)"]  # unknown chunk
    assert fix[84] == [None] and fix[95] == [None, None]  # nothing to re-anchor (95: also citation-reuse)
    assert fix[106] == [None]  # source-changed: the closest match is editor only
    assert fix[117] == ["Re-anchor to the current version of sources/policy.md"]
    fixes = sum(1 for c in by_line.values() for f in fix[c["line"]] if f)
    # the warm run (verdicts reused from the cache) says the same
    assert check_json(demo) == (code, report)

    text = run_cairn(demo, "check").stdout
    assert text.count("\n      fix: ") == fixes
    assert text.rstrip().endswith(f"{fixes} fixes above can be applied with `cairn check --fix`")
    run_cairn(demo, "check", "--fix")
    after = run_cairn(demo, "check").stdout
    assert "      fix: " not in after and "cairn check --fix" not in after


def test_no_fix_is_offered_on_a_draft_fix_never_writes(demo: Path):
    legacy = demo / "drafts" / "legacy-import.md"
    legacy.write_bytes(legacy.read_bytes().replace(b"start: 30", b"start: 31").replace(b"end: 90", b"end: 91"))
    _, report = check_json(demo, "drafts/legacy-import.md")
    diags = [d for c in report["drafts"][0]["claims"] for d in c["diagnostics"]]
    assert "span-shifted" in [d["code"] for d in diags]
    assert all(d["fix"] is None for d in diags)  # the draft is not valid UTF-8


def test_mistakes_that_would_check_nothing_exit_2(demo: Path):
    """SPEC section 6: a source root that does not exist, a drafts glob or a folder
    that matches no answer: exit 2 with the culprit named, never 'claims 0/0' and 0."""
    toml = demo / "cairn.toml"
    original = toml.read_text(encoding="utf-8")
    toml.write_text(original.replace('drafts = ["drafts/*.md"]', 'drafts = ["draft/*.md"]'), encoding="utf-8")
    proc = run_cairn(demo, "check", "--strict")
    assert proc.returncode == 2 and "'draft/*.md'" in proc.stderr and "matches no answer" in proc.stderr
    toml.write_text(original.replace('sources = ["sources"]', 'sources = ["srcs"]'), encoding="utf-8")
    proc = run_cairn(demo, "check")
    assert proc.returncode == 2 and "source root 'srcs' does not exist" in proc.stderr
    assert "source-denied" not in proc.stdout
    toml.write_text(original, encoding="utf-8")
    (demo / "empty").mkdir()
    proc = run_cairn(demo, "check", "empty")
    assert proc.returncode == 2 and "holds no draft" in proc.stderr
    assert run_cairn(demo, "check", "drafts/credits-answer.md").returncode == 0


def test_a_misspelt_required_field_is_named(demo: Path):
    draft = demo / "drafts" / "typo.md"
    draft.write_text(
        "A customer has 14 days to request a credit.\n\n```cite\nchunk_id: 0123456789abcdef\nstart: 0\nend: 5\n"
        "qoute: A cus\n```\n", encoding="utf-8")
    _, report = check_json(demo, "drafts/typo.md")
    (claim,) = report["drafts"][0]["claims"]
    (d,) = claim["diagnostics"]
    assert d["code"] == "block-syntax"
    assert d["message"] == "missing required field 'quote': unknown field 'qoute' (did you mean 'quote'?)"
    assert d["line"] == 7  # the misspelt key's own line


def test_a_drafts_glob_ending_in_two_stars_names_every_file_below(demo: Path):
    """`drafts = ["drafts/**"]` is every draft below drafts/, as `**` is in `exclude` and a policy's
    path (it was read as folders only: 'matches no answer', exit 2)."""
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('drafts = ["drafts/*.md"]', 'drafts = ["drafts/**"]'),
                    encoding="utf-8")
    (demo / "drafts" / "deeper").mkdir()
    (demo / "drafts" / "credits-answer.md").rename(demo / "drafts" / "deeper" / "credits-answer.md")
    proc = run_cairn(demo, "check", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    paths = [d["path"] for d in json.loads(proc.stdout)["drafts"]]
    assert "drafts/deeper/credits-answer.md" in paths and "drafts/review-notes.md" in paths
