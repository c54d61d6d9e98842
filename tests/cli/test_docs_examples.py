"""The pipeline examples of the docs, run as written: the guide's JSON answer
through `cairn check`, and docs/api.md's Python example in a copy of the demo."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from cairn_testing import run_cairn

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _block_after(text: str, marker: str, lang: str) -> str:
    at = text.index(marker)
    m = re.compile(rf"```{lang}\n(.*?)\n```", re.S).search(text, at)
    assert m is not None, marker
    return m.group(1)


def test_guide_json_answer_checks_as_shown(demo: Path):
    guide = (DOCS / "guide.md").read_text(encoding="utf-8")
    answer = _block_after(guide, "<!-- checked by tests/cli/test_docs_examples.py -->", "json")
    (demo / "answer.json").write_text(answer, encoding="utf-8")
    proc = run_cairn(demo, "check", "answer.json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    shown = guide[guide.index("is checked with `cairn check answer.json`:"):]
    shown = _block_after(shown, "", "")
    assert proc.stdout.strip().splitlines()[: len(shown.splitlines())] == shown.splitlines()


def test_api_example_runs_as_documented(demo: Path):
    doc = (DOCS / "api.md").read_text(encoding="utf-8")
    code = _block_after(doc, "<!-- run by tests/cli/test_docs_examples.py", "python")
    proc = subprocess.run([sys.executable, "-c", code], cwd=demo, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("True ") and lines[0].endswith("A customer has 14 days to request a credit for a damaged delivery.")
    assert lines[1].startswith("False ")
    assert "quote-not-found" in lines[2]
    assert lines[-1] == "0.5 0.0"


def test_api_retrieval_example_runs_as_documented(demo: Path):
    doc = (DOCS / "api.md").read_text(encoding="utf-8")
    code = _block_after(doc, "<!-- run by tests/cli/test_docs_examples.py (retrieval)", "python")
    proc = subprocess.run([sys.executable, "-c", code], cwd=demo, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "sources/policy.md 8 691d71e4b46d8b0d"  # as the page says
    assert len(lines) == 5 and lines[3] == "True"
    count = int(lines[4].split()[0])
    listed = run_cairn(demo, "chunks", "--json", "sources/policy.md").stdout.splitlines()
    assert count == len(listed) > 1
