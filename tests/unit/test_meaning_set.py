"""The meaning regression set (tests/data/meaning): its shape, and that every
quote is still verbatim in the Debian text it was taken from."""

from __future__ import annotations

import gzip
import importlib.util
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

DATA = Path(__file__).parents[1] / "data/meaning"
VALIDATE = DATA / "validate.py"
PAIRS = DATA / "pairs.jsonl"


def _validator():
    spec = importlib.util.spec_from_file_location("meaning_validate", VALIDATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(VALIDATE), str(path)],
                          capture_output=True, text=True, timeout=60)


def records() -> list[dict]:
    return [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]


def source_text(path: str) -> str:
    raw = gzip.decompress(Path(path).read_bytes()) if path.endswith(".gz") else Path(path).read_bytes()
    return raw.decode("utf-8", errors="replace")


def test_the_set_passes_its_validator_and_prints_the_counts():
    done = run_validate(PAIRS)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    total = done.stdout.splitlines()[-1].split()
    assert total[0] == "total" and int(total[-1]) == len(records()) >= 240


def _write(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("breakage, message", [
    (lambda rows: rows[0].update(quote=rows[0]["quote"] + " (not in the source)"),
     "quote is not a substring of its context"),
    (lambda rows: rows[1].update(sentence="A sentence the paragraph does not hold."),
     "sentence is not a substring of its context"),
    (lambda rows: rows[2].pop("why"), "missing field 'why'"),
    (lambda rows: rows[3].update(label="true"), "label 'true'"),
    (lambda rows: rows[4].update(split="test" if rows[4]["split"] == "dev" else "dev"),
     "the rule in assign_splits() gives"),
    (lambda rows: [r.update(label="supported") for r in rows if r["rule"] == "negation"],
     "rule negation: only 0 unsupported pairs"),
    (lambda rows: rows.append(dict(rows[0])), "duplicate id"),
])
def test_the_validator_rejects_a_broken_copy(tmp_path, breakage, message):
    rows = records()
    breakage(rows)
    done = run_validate(_write(tmp_path, rows))
    assert done.returncode == 1
    assert message in done.stderr


def test_the_validator_rejects_a_set_that_is_too_small(tmp_path):
    rows = records()[:100]
    done = run_validate(_write(tmp_path, rows))
    assert done.returncode == 1
    assert "only 100 pairs" in done.stderr


def test_splits_are_a_function_of_the_ids_alone():
    rows = records()
    splits = _validator().assign_splits(rows)
    assert splits == _validator().assign_splits(list(reversed(rows)))
    assert {r["id"]: r["split"] for r in rows} == splits


def test_each_quote_and_its_paragraph_are_verbatim_in_the_source_on_this_machine():
    by_source: dict[str, list[dict]] = defaultdict(list)
    for record in records():
        by_source[record["source"]].append(record)
    present = [source for source in by_source if Path(source).is_file()]
    if not present:
        pytest.skip("none of the Debian source texts is installed on this machine")
    failures = []
    for source in present:
        text = source_text(source)
        for record in by_source[source]:
            if record["context"] not in text:
                failures.append(f"{record['id']}: paragraph not in {source}")
            elif record["quote"] not in text:
                failures.append(f"{record['id']}: quote not in {source}")
    assert not failures, "\n".join(failures)
