"""Issue 49, item 3, through the real CLI: uncited prose paragraphs are listed with their
lines in the text output, the JSON report (`uncited: [{line, text}]`) and SARIF (note level)
(the HTML report: tests/html/test_html_report.py); `<!-- cairn: no-claim -->` on the line before a paragraph marks it
as no claim (SPEC section 5); `cairn init`'s own first draft starts at 100 % coverage."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cairn_testing import run_cairn
from policy_ws import POLICY, cite

DRAFT = (
    "# Refunds\n"                                          # 1
    "\n"
    "This note sums up what the policy says.\n"            # 3: uncited
    "\n"
    "<!-- cairn: no-claim -->\n"                           # 5
    "Written for the support team; not a claim.\n"         # 6: marked, not prose
    "\n"
    + cite("Refunds are paid within 30 days of the request.", "sources/policy.md", POLICY)  # 8: the claim
    + "- A list item **nobody** cited.\n"                  # uncited
    "\n"
    "<!--   cairn:no-claim   -->\n"
    "> A quoted aside, marked too.\n"
)


def line_of(needle: str, text: str = DRAFT) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


ITEM = line_of("A list item")
UNCITED = [{"line": 3, "text": "This note sums up what the policy says."},
           {"line": ITEM, "text": "A list item nobody cited."}]


def workspace(tmp_path: Path, draft: str = DRAFT) -> Path:
    ws = tmp_path / "ws"
    (ws / "sources").mkdir(parents=True)
    (ws / "drafts").mkdir()
    (ws / "cairn.toml").write_text("", encoding="utf-8")
    (ws / "sources" / "policy.md").write_text(POLICY + "\n", encoding="utf-8")
    (ws / "drafts" / "a.md").write_text(draft, encoding="utf-8")
    return ws


def test_json_lists_each_uncited_paragraph_and_the_marked_ones_are_not_prose(tmp_path: Path):
    ws = workspace(tmp_path)
    proc = run_cairn(ws, "check", "--format", "json")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # uncited prose never fails a check
    rep = json.loads(proc.stdout)
    (d,) = rep["drafts"]
    assert d["uncited"] == UNCITED and d["uncited_paragraphs"] == 2
    assert rep["metrics"]["coverage"] == 1 / 3
    # without the two marks, the two marked paragraphs count as uncited prose too
    unmarked = workspace(tmp_path / "b", re.sub(r"<!--.*-->\n", "\n", DRAFT))
    rep = json.loads(run_cairn(unmarked, "check", "--format", "json").stdout)
    assert [u["line"] for u in rep["drafts"][0]["uncited"]] == [3, line_of("not a claim"), ITEM,
                                                                line_of("quoted aside")]
    assert rep["metrics"]["coverage"] == 1 / 5


def test_text_sarif_and_html_name_the_uncited_lines(tmp_path: Path):
    ws = workspace(tmp_path)
    text = run_cairn(ws, "check").stdout
    assert "  drafts/a.md:3: uncited prose: This note sums up what the policy says." in text
    assert f"  drafts/a.md:{ITEM}: uncited prose: A list item nobody cited." in text
    assert "not a claim" not in text and "quoted aside" not in text
    assert "uncited prose" not in run_cairn(ws, "check", "--only-failures").stdout
    sarif = json.loads(run_cairn(ws, "check", "--format", "sarif").stdout)
    notes = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "uncited-prose"]
    assert [(r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in notes] == \
        [("note", 3), ("note", ITEM)]
    assert "no-claim" in notes[0]["message"]["text"]
    # the HTML report: tests/html/test_html_report.py::test_uncited_paragraphs_are_listed_under_their_answer


def test_a_long_list_of_uncited_paragraphs_is_cut_in_the_text_output(tmp_path: Path):
    draft = "".join(f"Paragraph number {i} says nothing cited.\n\n" for i in range(25))
    ws = workspace(tmp_path, draft + cite("Refunds are paid within 30 days.", "sources/policy.md", POLICY))
    text = run_cairn(ws, "check").stdout
    assert text.count("uncited prose: ") == 10
    assert "... and 15 more uncited paragraphs (`--format json` lists them all)" in text
    rep = json.loads(run_cairn(ws, "check", "--format", "json").stdout)
    assert len(rep["drafts"][0]["uncited"]) == 25


def test_init_starts_a_workspace_at_full_coverage(tmp_path: Path):
    assert run_cairn(tmp_path, "init").returncode == 0
    draft = (tmp_path / "drafts" / "first-draft.md").read_text(encoding="utf-8")
    assert "<!-- cairn: no-claim -->\n" in draft
    rep = json.loads(run_cairn(tmp_path, "check", "--format", "json").stdout)
    assert rep["metrics"]["coverage"] == 1.0 and rep["drafts"][0]["uncited"] == []
