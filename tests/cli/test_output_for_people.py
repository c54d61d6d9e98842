"""Issue 49, item 6, through the real CLI on the demo: `cairn check --only-failures`
(short `-q`) prints the failing claims and the summary alone, and `check`, `ask` and
`cite` name a text source's line (`sources/policy.md:8`) where a PDF gets its page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cairn_testing import run_cairn

pytestmark = pytest.mark.sqlite_only
CLAIM_LINE = re.compile(r"^  (\S+?):(\d+): (VERIFIED|FAILED) ", re.M)


def claims_shown(out: str) -> list[tuple[str, int, str]]:
    return [(p, int(n), v) for p, n, v in CLAIM_LINE.findall(out)]


def test_only_failures_prints_the_failing_claims_and_the_summary(demo: Path):
    full = run_cairn(demo, "check")
    rep = json.loads(run_cairn(demo, "check", "--format", "json").stdout)
    failing = [(d["path"], c["line"]) for d in rep["drafts"] for c in d["claims"] if not c["supported"]]
    verified = sum(c["supported"] for d in rep["drafts"] for c in d["claims"])
    assert failing and verified
    for flag in ("--only-failures", "-q"):
        short = run_cairn(demo, "check", flag)
        assert short.returncode == full.returncode == 1, short.stderr
        shown = claims_shown(short.stdout)
        assert [(p, n) for p, n, _ in shown] == failing
        assert {v for _, _, v in shown} == {"FAILED"}
        # the summary is the full run's, then how many claims were left out
        summary = [line for line in full.stdout.splitlines() if line.startswith("claims ")]
        assert summary and summary[0] in short.stdout.splitlines()
        assert short.stdout.rstrip().endswith(f"{verified} verified claims not shown (--only-failures)")
        # an answer with no failing claim is not named at all
        heads = [line for line in short.stdout.splitlines() if re.match(r"^\S+: (not )?faithful$", line)]
        assert heads == ["drafts/review-notes.md: not faithful"]
        # each failing claim keeps its citations and diagnostics, as in the full output
        assert "error [number-mismatch] claim says 30 days; quotes say 14 days" in short.stdout
    # other formats stay whole
    assert json.loads(run_cairn(demo, "check", "-q", "--format", "json").stdout) == rep


def test_only_failures_with_strict_also_shows_the_claims_with_a_warning(demo: Path):
    short = run_cairn(demo, "check", "-q", "--strict")
    shown = claims_shown(short.stdout)
    # a verified claim with a warning (citation-reuse on credits-answer.md:46) fails under --strict
    assert ("drafts/credits-answer.md", 46, "VERIFIED") in shown
    assert "warning [citation-reuse]" in short.stdout
    assert ("drafts/credits-answer.md", 6, "VERIFIED") not in shown  # verified without a warning


def test_only_failures_on_a_clean_run_prints_the_summary_alone(demo: Path):
    proc = run_cairn(demo, "check", "--only-failures", "drafts/credits-answer.md", "drafts/legacy-import.md")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert lines[0].startswith("claims 6/6 verified") and lines[1] == "6 verified claims not shown (--only-failures)"
    assert len(lines) == 2


def test_check_ask_and_cite_name_a_text_sources_line(demo: Path):
    line = next(n for n, text in enumerate((demo / "sources" / "policy.md").read_text().splitlines(), 1)
                if text.startswith("Credits are issued to the original payment method"))
    check = run_cairn(demo, "check", "drafts/credits-answer.md")
    assert f"      sources/policy.md:{line} @9b3c4325 [0, 85) resolved" in check.stdout
    assert "      sources/shipping.pdf p.2 @" in check.stdout  # a PDF: its page, no line
    ask = run_cairn(demo, "ask", "-k", "2", "How long do credits take to reach the original payment method?")
    assert ask.returncode == 0, ask.stderr
    assert f"      sources/policy.md:{line} @9b3c4325 [0, 85) resolved" in ask.stdout
    cite = run_cairn(demo, "cite", "issued to the original payment method")
    assert cite.returncode == 0 and f"found in sources/policy.md:{line}" in cite.stderr
    cite_for = run_cairn(demo, "cite", "--for", "Credits go back to the original payment method", "-k", "1")
    assert f"# sources/policy.md:{line} · supports it" in cite_for.stdout
