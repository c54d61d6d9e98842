"""Answers written as JSON (SPEC section 3) through the real `cairn check`: every form
of file, recomputed verdicts, malformed answers, `--fix`, SARIF, globs and folders,
and nothing to check as an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cairn_testing import check_json, run_cairn

CHUNK = "691d71e4b46d8b0d"  # sources/policy.md, first paragraph of the demo
QUOTE = "A customer has 14 days to request a credit for a damaged delivery"
GOOD = {"text": QUOTE + ".", "citations": [{"chunk_id": CHUNK, "start": 0, "end": 65, "quote": QUOTE}]}
# a model that calls its own fabricated quote supported
FAKE = {"text": "A customer has 30 days to request a credit.", "supported": True, "support_score": 0.99,
        "citations": [{"chunk_id": CHUNK, "start": 0, "end": 65,
                       "quote": "A customer has 30 days to request a credit for a damaged delivery"}]}


def _write(demo: Path, name: str, value) -> Path:
    p = demo / "answers" / name
    p.parent.mkdir(exist_ok=True)
    p.write_text(value if isinstance(value, str) else json.dumps(value, indent=2), encoding="utf-8")
    return p


def _entries(report: dict, path: str) -> list[dict]:
    return [d for d in report["drafts"] if d["path"] == path]


@pytest.mark.parametrize(
    ("name", "value", "ids", "verdicts"),
    [
        ("seed-claim.json", {**GOOD, "supported": False, "support_score": 0.0}, [1], [[True]]),
        ("claims.json", [GOOD, FAKE], [1], [[True, False]]),
        ("answer.json", {"id": "a-7", "question": "How long?", "claims": [GOOD]}, ["a-7"], [[True]]),
        ("answers.json", [{"id": "x", "claims": [GOOD]}, {"claims": [FAKE, GOOD]}], ["x", 2], [[True], [False, True]]),
        ("answers.jsonl", "\n".join(json.dumps(a) for a in ({"id": "q1", "claims": [GOOD]}, {"claims": [FAKE]})),
         ["q1", 2], [[True], [False]]),
    ],
)
def test_each_form_of_json_answer(demo: Path, name, value, ids, verdicts):
    _write(demo, name, value)
    code, report = check_json(demo, f"answers/{name}")
    entries = _entries(report, f"answers/{name}")
    assert [e["id"] for e in entries] == ids
    assert [[c["supported"] for c in e["claims"]] for e in entries] == verdicts
    assert report["metrics"]["answers"] == len(ids)
    assert code == (0 if all(all(v) for v in verdicts) else 1)
    # the model's own flag is never what decides
    for e in entries:
        for c in e["claims"]:
            if c["text"].startswith("A customer has 30 days"):
                assert [d["code"] for d in c["diagnostics"]] == ["quote-not-found"]
            else:
                assert c["support_score"] is not None and c["support_score"] > 0.5


def test_answer_lines_question_and_text_output(demo: Path):
    p = _write(demo, "a.json", [{"id": "first", "question": "How long do customers have?", "claims": [GOOD]},
                                {"id": "second", "claims": [FAKE]}])
    lines = p.read_text().splitlines()
    second_at = lines.index('    "id": "second",')  # 0-based line after the object's "{"
    _, report = check_json(demo, "answers/a.json")
    assert check_json(demo, "answers/a.json")[1] == report  # the second run reads the file's cached verdicts
    first, second = _entries(report, "answers/a.json")
    assert first["question"] == "How long do customers have?"
    assert first["claims"][0]["line"] == 2  # the line where the answer's object starts
    assert lines[second_at - 1].strip() == "{"
    assert second["claims"][0]["line"] == second_at
    assert second["claims"][0]["diagnostics"][0]["line"] == second_at
    proc = run_cairn(demo, "check", "answers/a.json")
    assert proc.returncode == 1
    assert "answers/a.json: answer first: faithful" in proc.stdout
    assert "question: How long do customers have?" in proc.stdout
    assert f"answers/a.json:{second_at}: FAILED" in proc.stdout
    assert "sources/policy.md" in proc.stdout and f"\u201c{QUOTE}\u201d" in proc.stdout


def test_malformed_answers_are_block_syntax_and_the_rest_is_checked(demo: Path):
    lines = [json.dumps({"id": "ok", "claims": [GOOD]}), "{not json", "", json.dumps([1, 2]),
             json.dumps({"claims": [{"text": "no citations here"}, "a string", {"text": "x", "citations": []}]}),
             json.dumps({"id": "ok2", "claims": [GOOD]})]
    _write(demo, "mixed.jsonl", "\n".join(lines) + "\n")
    code, report = check_json(demo, "answers/mixed.jsonl")
    assert code == 1
    entries = {e["id"]: e for e in _entries(report, "answers/mixed.jsonl")}
    assert sorted(entries, key=str) == [2, 4, 5, "ok", "ok2"]
    assert entries["ok"]["faithful"] and entries["ok2"]["faithful"]
    (bad,) = entries[2]["claims"]
    assert [d["code"] for d in bad["diagnostics"]] == ["block-syntax"]
    assert "invalid JSON" in bad["diagnostics"][0]["message"] and bad["line"] == 2
    assert [d["code"] for c in entries[4]["claims"] for d in c["diagnostics"]] == ["block-syntax", "block-syntax"]
    codes = [[d["code"] for d in c["diagnostics"]] for c in entries[5]["claims"]]
    assert codes == [["block-syntax"], ["block-syntax"], ["no-citations"]]
    assert "claim 1: citations: missing" in entries[5]["claims"][0]["diagnostics"][0]["message"]


def test_a_whole_file_that_is_not_json(demo: Path):
    _write(demo, "broken.json", '{"claims": [\n  {"text": "x",\n')
    code, report = check_json(demo, "answers/broken.json")
    assert code == 1
    (entry,) = _entries(report, "answers/broken.json")
    assert entry["claims"][0]["diagnostics"][0]["code"] == "block-syntax"


def test_fix_never_edits_json(demo: Path):
    shifted = {"text": QUOTE + ".", "citations": [{"chunk_id": CHUNK, "start": 1, "end": 66, "quote": QUOTE}]}
    p = _write(demo, "shifted.json", {"claims": [shifted]})
    before = p.read_bytes()
    _, report = check_json(demo, "answers/shifted.json")
    (diag,) = report["drafts"][0]["claims"][0]["diagnostics"]
    assert diag["code"] == "span-shifted" and diag["fix"] is None
    proc = run_cairn(demo, "check", "--fix", "answers/shifted.json")
    assert proc.returncode == 0, proc.stderr
    assert p.read_bytes() == before
    assert "fixed" not in proc.stderr


def test_sarif_carries_json_answers(demo: Path):
    _write(demo, "a.jsonl", json.dumps({"id": "q9", "claims": [FAKE]}) + "\n")
    proc = run_cairn(demo, "check", "--format", "sarif", "answers/a.jsonl")
    assert proc.returncode == 1
    (result,) = json.loads(proc.stdout)["runs"][0]["results"]
    assert result["ruleId"] == "quote-not-found"
    assert result["message"]["text"].startswith("answer q9: ")
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "answers/a.jsonl"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 1


def test_folders_and_globs_take_json_answers(demo: Path):
    _write(demo, "a.json", {"claims": [GOOD]})
    _write(demo, "b.jsonl", json.dumps({"claims": [GOOD]}) + "\n" + json.dumps({"claims": [GOOD]}) + "\n")
    code, report = check_json(demo, "answers")
    assert code == 0
    assert sorted((d["path"], d["id"]) for d in report["drafts"]) == [
        ("answers/a.json", 1), ("answers/b.jsonl", 1), ("answers/b.jsonl", 2)]
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text().replace('drafts = ["drafts/*.md"]', 'drafts = ["drafts/*.md", "answers/*.json*"]'))
    code, report = check_json(demo)
    paths = {d["path"] for d in report["drafts"]}
    assert {"answers/a.json", "answers/b.jsonl", "drafts/credits-answer.md"} <= paths


def test_nothing_to_check_is_an_error(demo: Path):
    _write(demo, "empty.json", "[]")
    _write(demo, "blank.jsonl", "\n\n")
    for name in ("empty.json", "blank.jsonl"):
        proc = run_cairn(demo, "check", f"answers/{name}")
        assert proc.returncode == 2
        assert f"answers/{name}: holds no answer" in proc.stderr
    (demo / "nothing").mkdir()
    (demo / "nothing" / "notes.txt").write_text("no answers here\n")
    proc = run_cairn(demo, "check", "nothing")
    assert proc.returncode == 2 and "nothing: holds no draft" in proc.stderr
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text().replace('drafts = ["drafts/*.md"]', 'drafts = ["answers/*.json"]'))
    proc = run_cairn(demo, "check")
    assert proc.returncode == 2
    assert "drafts glob 'answers/*.json'" in proc.stderr and "matches no answer" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_gc_keeps_versions_only_a_json_answer_cites(demo: Path):
    extra = demo / "sources" / "extra.md"
    extra.write_text("Pallets are inspected within two hours of arrival.\n", encoding="utf-8")
    run_cairn(demo, "index")
    (row,) = [json.loads(x) for x in run_cairn(demo, "chunks", "--json", "sources/extra.md").stdout.splitlines()]
    quote = "Pallets are inspected within two hours of arrival."
    _write(demo, "a.json", {"claims": [{"text": quote, "citations": [
        {"chunk_id": row["chunk_id"], "start": 0, "end": len(quote), "quote": quote, "version": row["version"][:12]}]}]})
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text().replace('drafts = ["drafts/*.md"]', 'drafts = ["drafts/*.md", "answers/*.json"]'))
    extra.write_text("Pallets are inspected within four hours of arrival.\n", encoding="utf-8")
    run_cairn(demo, "index")
    proc = run_cairn(demo, "gc")
    assert proc.returncode == 0, proc.stderr
    assert "dropped 0 stored version" in proc.stderr
    _, report = check_json(demo, "answers/a.json")
    (claim,) = report["drafts"][0]["claims"]
    # the cited version is still in the store: the finding is that the source changed, not an unknown chunk
    assert [d["code"] for d in claim["diagnostics"]] == ["source-changed"]
    assert claim["citations"][0]["version"].startswith(row["version"])
