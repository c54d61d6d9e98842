"""`cairn calibrate` with a judge, through the real CLI: the tiny ONNX classifier of
tests/nli_model.py (the nli provider) and a chat-completions server on 127.0.0.1 started by the
test (the openai provider); the judge's figures beside the lexical default's on the same rows,
its time per claim, `--limit`, the progress bar, and rows the judge failed on counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nli_ws
from cairn_testing import run_cairn, run_in_pty
from judge_server import JudgeServer, Reply

# The tiny model says "supported" exactly when a quote holds "confirmed"; the lexical check
# counts shared words. Rows 1-2: the model is right and the lexical check wrong; rows 3-4: both
# right; row 5: the model's yes overruled by the quantity rule (as in cairn check).
ROWS = [
    {"claim": "Ferries were suspended across the whole region.",
     "quote": "The office confirmed that the ferries stopped running.", "label": "supported"},
    {"claim": "The bridge opened in spring.", "quote": "The bridge opened in spring, the report said.",
     "label": "unsupported"},
    {"claim": "The office stated that the ferries stopped.", "quote": "It was confirmed: the office stated"
     " that the ferries stopped.", "label": "supported"},
    {"claim": "Customers can ask for a credit.", "quote": "Deliveries arrive after two days.", "label": "unsupported"},
    {"claim": "The ferries stopped for 30 days.", "quote": "It was confirmed that the ferries stopped for 14 days.",
     "label": "unsupported"},
]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return nli_ws.build(tmp_path / "ws")


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "labels.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


def calibrate(ws: Path, *args: str, env: dict | None = None) -> tuple[dict, str]:
    proc = run_cairn(ws, "calibrate", *args, "--format", "json", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout), proc.stderr


def test_the_nli_judge_beside_the_lexical_default(ws: Path, data: Path):
    report, _ = calibrate(ws, str(data))
    assert report["judge"] == "nli" and report["rows"] == 5 and report["judge_fallbacks"] == 0
    assert report["confusion"] == {"tp": 2, "fn": 0, "fp": 0, "tn": 3}
    assert report["balanced_accuracy"] == 1.0
    # the lexical default on the same rows: it passes the bridge and fails the ferries
    lexical = report["lexical"]
    assert lexical["confusion"] == {"tp": 1, "fn": 1, "fp": 1, "tn": 2}
    assert lexical["balanced_accuracy"] == pytest.approx((1 / 2 + 2 / 3) / 2)
    run = report["judge_run"]
    assert run["asked"] == 5 and run["cached"] == 0 and run["fallbacks"] == 0
    assert run["seconds"] > 0 and 0 < run["seconds_per_claim"] <= run["seconds"]
    # again: the verdicts come from the cache, and the report says so
    again, _ = calibrate(ws, str(data))
    assert again["confusion"] == report["confusion"]
    assert again["judge_run"]["cached"] == 5 and again["judge_run"]["seconds_per_claim"] is None
    text = run_cairn(ws, "calibrate", str(data))
    assert text.returncode == 0, text.stderr
    assert "check: nli" in text.stdout and "judge fallbacks:       0" in text.stdout
    assert [ln.split() for ln in text.stdout.splitlines() if ln.startswith("balanced accuracy  ")] == [
        ["balanced", "accuracy", "1.000", "0.583"]]
    assert "every verdict from the cache (5 asked, 5 from the cache)" in text.stdout


def test_limit_reads_only_the_first_rows(ws: Path, data: Path):
    report, _ = calibrate(ws, str(data), "--limit", "2")
    assert report["rows"] == 2 and report["limit"] == 2 and report["judge_run"]["asked"] == 2
    assert report["confusion"] == {"tp": 1, "fn": 0, "fp": 0, "tn": 1}
    text = run_cairn(ws, "calibrate", str(data), "--limit", "2")
    assert "(the first 2 rows)" in text.stdout
    bad = run_cairn(ws, "calibrate", str(data), "--limit", "0")
    assert bad.returncode == 2 and "--limit" in bad.stderr


def test_a_failing_judge_counts_its_rows_as_fallbacks(ws: Path, data: Path):
    (ws / nli_ws.MODEL / "model.onnx").write_bytes(b"damaged" * 40)
    report, stderr = calibrate(ws, str(data))
    assert report["judge_fallbacks"] == 5 and report["judge_run"]["fallbacks"] == 5
    # every row fell back: the figures are the lexical check's
    assert report["confusion"] == report["lexical"]["confusion"]
    assert "the judge failed on 5 of 5 rows" in stderr


def test_progress_on_a_terminal(ws: Path, data: Path):
    code, out = run_in_pty(ws, "calibrate", str(data), stdout_to_pty=False)
    assert code == 0
    assert "judging" in out and "5/5" in out


def test_the_openai_judge_beside_the_lexical_default(ws: Path, data: Path):
    def answer(claim: str, quotes: list[str]):
        if "bridge" in claim:
            return Reply(status=500, body=b'{"error": {"message": "overloaded"}}')
        if "credit" in claim:
            return {"label": "not_supported", "score": 0.1}
        return {"label": "supported", "score": 0.9}

    with JudgeServer(answer) as srv:
        (ws / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n[judge]\nprovider = "openai"\n'
                                       f'url = "{srv.url}"\nmodel = "m"\nretries = 0\n', encoding="utf-8")
        report, stderr = calibrate(ws, str(data))
    assert report["judge"] == "openai"
    # the bridge row: the judge failed, the lexical check (which passes it) decided
    assert report["judge_fallbacks"] == 1 and report["judge_run"]["fallbacks"] == 1
    assert "the judge failed on 1 of 5 rows" in stderr
    assert report["confusion"] == {"tp": 2, "fn": 0, "fp": 1, "tn": 2}
    assert report["lexical"]["confusion"] == {"tp": 1, "fn": 1, "fp": 1, "tn": 2}
    assert report["judge_run"]["asked"] == 5 and report["judge_run"]["seconds_per_claim"] > 0
