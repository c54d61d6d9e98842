"""The blind pairs (tests/data/blind/, written for Cairn with their labels
decided first) through the real `cairn calibrate`: the shipped default may
not raise the false alarms (correct pairs failed) or the misses (wrong pairs
verified) above what was measured when the pairs were written. When a change
lowers them, lower the figures here with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cairn_testing import run_cairn

BLIND = Path(__file__).resolve().parents[1] / "data" / "blind"

# measured on main (meaning-44; the default mode, threshold 0.5) over the five batches: 10 of 198 correct
# pairs failed, 23 of 198 wrong pairs verified (bench/support_lodo.py gives the same; 18 and 34 with meaning-43,
# 25 and 54 with meaning-42, whose misses meaning-43 was written from). Each batch measured before any rule was
# changed after it was written (see the README): the second 20 of 72 and 55 of 72; the third 1 of 6 and 5 of 6;
# the fourth 3 of 18 and 11 of 18; the fifth 2 of 18 and 11 of 18. The first batch, which the rules were written
# against: 7 of 84 and 35 of 84 with meaning-38.
FALSE_ALARMS = 10
MISSES = 23


def _rows() -> list[dict]:
    return [json.loads(line) for path in sorted(BLIND.glob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_blind_sets_are_as_their_readme_says():
    files = sorted(BLIND.glob("*.jsonl"))
    assert len(files) >= 12
    for path in files:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        # one domain a file, half supported and half not, in calibrate's plain format
        assert {r["domain"] for r in rows} == {path.stem}, path.name
        assert sum(r["label"] == "supported" for r in rows) * 2 == len(rows), path.name
        assert all(set(r) >= {"claim", "quote", "label", "domain", "source_id"} for r in rows), path.name
    rows = _rows()
    assert len(rows) >= 150
    readme = (BLIND / "README.md").read_text(encoding="utf-8")
    for path in files:
        assert f"`{path.stem}`" in readme, path.stem


def _calibrated(tmp_path: Path, rows: str) -> dict:
    """The report of the real `cairn calibrate` over `rows` (JSON lines), with the shipped settings."""
    (tmp_path / "cairn.toml").write_text("", encoding="utf-8")  # the shipped settings, whatever lies above
    data = tmp_path / "pairs.jsonl"
    data.write_text(rows, encoding="utf-8")
    proc = run_cairn(tmp_path, "calibrate", str(data), "--format", "json", timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_default_does_not_fail_more_correct_pairs_nor_verify_more_wrong_ones(tmp_path: Path):
    report = _calibrated(tmp_path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _rows()))
    c = report["confusion"]
    assert (report["supported"], report["unsupported"]) == (198, 198)
    false_alarms, misses = c["fn"], c["fp"]
    assert false_alarms <= FALSE_ALARMS, f"{false_alarms} of 198 correct pairs failed (was {FALSE_ALARMS})"
    assert misses <= MISSES, f"{misses} of 198 wrong pairs verified (was {MISSES})"


# the batches kept out of rule writing (only their counts are looked at): (folder, pairs of each label,
# correct pairs failed, wrong pairs verified). The sixth: 18 and 23 of 48 before meaning-42, 18 and 19 with it,
# 17 and 17 with meaning-43, 15 and 16 with meaning-44; the seventh, written after meaning-42: 2 and 7 of 12, 2 and 6
# with meaning-44; the eighth, by a hand that had not seen the rules: 9 and 12 of 24, 9 and 10 with meaning-43 and
# -44; the ninth and tenth, written the same way after meaning-42 and measured once with meaning-43: 10 and 12 of
# 24, and 6 and 14 of 24 (meaning-44: 10 and 12, 4 and 13); the eleventh, written during meaning-44 and measured
# once after it: 13 and 24 of 48 (meaning-43 gives 14 and 25); the twelfth, prose in eight domains, measured once
# with meaning-44: 7 and 14 of 24 (12a, development data after that) and 8 and 17 of 24 (12b, held out);
# meaning-45, written from 12a's failures: 12a 3 and 6, 12b 8 and 16, the eleventh 13 and 24
HELD_OUT = [("blind-6", 48, 15, 16), ("blind-7", 12, 2, 6), ("blind-8", 24, 9, 10), ("blind-9", 24, 10, 12),
            ("blind-10", 24, 4, 13), ("blind-11", 48, 13, 24),
            ("blind-12a", 24, 3, 6), ("blind-12b", 24, 8, 16)]


@pytest.mark.parametrize("folder,pairs,false_alarms,misses", HELD_OUT)
def test_the_held_out_batches_are_not_worse(tmp_path: Path, folder: str, pairs: int, false_alarms: int, misses: int):
    report = _calibrated(tmp_path, "".join(p.read_text(encoding="utf-8")
                                           for p in sorted((BLIND.parent / folder).glob("*.jsonl"))))
    assert (report["supported"], report["unsupported"]) == (pairs, pairs)
    c = report["confusion"]
    assert c["fn"] <= false_alarms and c["fp"] <= misses, c
