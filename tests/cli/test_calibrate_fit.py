"""`cairn calibrate DATA... --fit` through the real CLI: several data files read as one set, and the
threshold fitted on the labels, measured on documents it was not chosen on (SPEC section 6)."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import run_cairn

# each supported claim shares two of its five words with its quote (score 0.4), each unsupported
# claim one (0.2): at the default 0.5 every claim fails; anywhere from 0.25 to 0.4 the labels are met
WORDS = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron", "iris", "juniper",
         "kestrel", "larch", "maple", "nectar", "orchid", "poplar", "quartz", "raven", "sorrel", "thistle"]


def _rows(doc: int) -> list[dict]:
    w = [WORDS[(doc * 3 + k) % len(WORDS)] for k in range(10)]
    quote = f"The {w[0]} {w[1]} {w[2]} report."
    return [
        {"claim": f"{w[0]} {w[1]} {w[5]} {w[6]} {w[7]}", "quote": quote, "label": "supported",
         "source_id": f"fit:doc{doc}_1"},
        {"claim": f"{w[1]} {w[2]} {w[6]} {w[8]} {w[9]}", "quote": quote, "label": "supported",
         "source_id": f"fit:doc{doc}_2"},
        {"claim": f"{w[0]} {w[5]} {w[6]} {w[7]} {w[8]}", "quote": quote, "label": "unsupported",
         "source_id": f"fit:doc{doc}_3"},
        {"claim": f"{w[2]} {w[6]} {w[7]} {w[8]} {w[9]}", "quote": quote, "label": "unsupported",
         "source_id": f"fit:doc{doc}_4"},
    ]


def _write(path: Path, docs: range) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for d in docs for r in _rows(d)), encoding="utf-8")
    return path


def test_several_files_are_one_set_and_a_fitted_threshold_that_pays_is_named(tmp_path: Path):
    (tmp_path / "cairn.toml").write_text("", encoding="utf-8")
    a, b = _write(tmp_path / "a.jsonl", range(0, 6)), _write(tmp_path / "b.jsonl", range(6, 12))
    proc = run_cairn(tmp_path, "calibrate", str(a), str(b), "--fit", "--format", "json", timeout=120)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert (report["supported"], report["unsupported"]) == (24, 24)
    assert report["balanced_accuracy"] == 0.5  # at 0.5 every claim fails
    fit = report["fit"]
    assert fit["documents"] == 12 and fit["folds"] == 5
    assert 0.25 <= fit["threshold"] <= 0.4
    assert fit["held_out_balanced_accuracy"] == 1.0 and fit["configured_balanced_accuracy"] == 0.5
    assert fit["pays"] is True
    text = run_cairn(tmp_path, "calibrate", str(a), str(b), "--fit", timeout=120)
    assert f"set threshold = {fit['threshold']:.2f} in cairn.toml" in text.stdout
    assert f"data: {a}, {b}" in text.stdout


def test_a_fit_that_does_not_pay_says_to_keep_the_threshold(tmp_path: Path):
    (tmp_path / "cairn.toml").write_text("threshold = 0.3\n", encoding="utf-8")
    a = _write(tmp_path / "a.jsonl", range(0, 8))
    proc = run_cairn(tmp_path, "calibrate", str(a), "--fit", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "keep the configured threshold" in proc.stdout
    assert "set threshold" not in proc.stdout


def test_without_fit_no_fit_is_reported_and_a_missing_file_is_a_usage_error(tmp_path: Path):
    (tmp_path / "cairn.toml").write_text("", encoding="utf-8")
    a = _write(tmp_path / "a.jsonl", range(0, 2))
    report = json.loads(run_cairn(tmp_path, "calibrate", str(a), "--format", "json", timeout=120).stdout)
    assert report["fit"] is None
    missing = run_cairn(tmp_path, "calibrate", str(a), str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "nope.jsonl: no such file" in missing.stderr
