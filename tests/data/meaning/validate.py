"""Check the shape of the meaning regression set (pairs.jsonl).

Standard library only, so it runs anywhere:

    python tests/data/meaning/validate.py [path/to/pairs.jsonl]

It prints the counts per rule, label and split, and exits with status 1
(listing every problem) when the file breaks one of the checks below.
"""

from __future__ import annotations

import collections
import hashlib
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_PATH = HERE / "pairs.jsonl"

LABELS = ("supported", "unsupported")
RULES = (
    "quantity", "date", "identifier", "count-word", "negation",
    "antonym", "direction", "context", "paraphrase", "topic",
)
# Paraphrases are correct by construction and off-topic claims wrong by
# construction; every other rule is tested in both directions.
ONE_SIDED = {"paraphrase": "supported", "topic": "unsupported"}
SPLITS = ("dev", "test")
FIELDS = {
    "id": str, "claim": str, "quote": str, "label": str, "rule": str,
    "why": str, "source": str, "package_version": (str, type(None)),
    "sentence": str, "context": str, "split": str,
}
MIN_PAIRS = 240
MAX_QUOTE = 300
MIN_PER_SIDE = 5          # pairs per (rule, label) for two-sided rules
BALANCE = (0.4, 0.6)      # share of "supported" pairs overall and per split


def load(path: Path) -> list[dict]:
    """The records of a JSONL file, one per non-empty line."""
    records = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as err:
                    raise ValueError(f"line {number}: not JSON ({err})") from None
    return records


def assign_splits(records: list[dict]) -> dict[str, str]:
    """The split of each id: deterministic from the ids alone.

    Within each (rule, label) group the ids are ordered by their SHA-256
    and dealt out alternately; odd-sized groups start alternately with
    "dev" and "test" so that both halves stay the same size.
    """
    groups: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    for record in records:
        groups[(record["rule"], record["label"])].append(record["id"])
    result: dict[str, str] = {}
    odd = 0
    for key in sorted(groups):
        ids = sorted(groups[key], key=lambda i: hashlib.sha256(i.encode()).hexdigest())
        first = odd % 2
        if len(ids) % 2:
            odd += 1
        for position, record_id in enumerate(ids):
            result[record_id] = SPLITS[(position + first) % 2]
    return result


def problems(records: list[dict]) -> list[str]:
    """Every way the records break the set's rules (empty when fine)."""
    errors: list[str] = []
    seen: set[str] = set()
    for index, record in enumerate(records, 1):
        where = f"record {index} ({record.get('id', '?')})"
        for field, kind in FIELDS.items():
            if field not in record:
                errors.append(f"{where}: missing field {field!r}")
            elif not isinstance(record[field], kind):
                errors.append(f"{where}: field {field!r} has the wrong type")
        extra = set(record) - set(FIELDS)
        if extra:
            errors.append(f"{where}: unknown fields {sorted(extra)}")
        if any(field not in record or not isinstance(record[field], kind)
               for field, kind in FIELDS.items()):
            continue
        if not re.fullmatch(r"m\d{3}", record["id"]):
            errors.append(f"{where}: id should look like m001")
        if record["id"] in seen:
            errors.append(f"{where}: duplicate id")
        seen.add(record["id"])
        if record["label"] not in LABELS:
            errors.append(f"{where}: label {record['label']!r} not in {LABELS}")
        if record["rule"] not in RULES:
            errors.append(f"{where}: rule {record['rule']!r} not in {RULES}")
        if record["split"] not in SPLITS:
            errors.append(f"{where}: split {record['split']!r} not in {SPLITS}")
        for field in ("claim", "quote", "why", "source", "sentence", "context"):
            if not record[field].strip():
                errors.append(f"{where}: empty {field}")
        if len(record["quote"]) > MAX_QUOTE:
            errors.append(f"{where}: quote longer than {MAX_QUOTE} characters")
        if record["quote"] not in record["context"]:
            errors.append(f"{where}: quote is not a substring of its context")
        if record["sentence"] not in record["context"]:
            errors.append(f"{where}: sentence is not a substring of its context")
        if record["quote"] not in record["sentence"]:
            errors.append(f"{where}: quote is not a substring of its sentence")
        if "\n\n" in record["context"] or record["context"] != record["context"].strip("\n"):
            errors.append(f"{where}: context is not a single paragraph")
        if not record["source"].startswith("/usr/share/"):
            errors.append(f"{where}: source should be a path under /usr/share/")
    if errors:
        return errors
    if len(records) < MIN_PAIRS:
        errors.append(f"only {len(records)} pairs; at least {MIN_PAIRS} wanted")
    counts = collections.Counter((r["rule"], r["label"]) for r in records)
    for rule in RULES:
        for label in LABELS:
            n = counts[(rule, label)]
            if rule in ONE_SIDED:
                if label != ONE_SIDED[rule] and n:
                    errors.append(f"rule {rule}: {n} {label} pairs, expected none")
                elif label == ONE_SIDED[rule] and n < MIN_PER_SIDE:
                    errors.append(f"rule {rule}: only {n} {label} pairs")
            elif n < MIN_PER_SIDE:
                errors.append(f"rule {rule}: only {n} {label} pairs (need {MIN_PER_SIDE})")
    halves = collections.Counter((r["rule"], r["label"], r["split"]) for r in records)
    for rule, label in counts:
        gap = abs(halves[(rule, label, "dev")] - halves[(rule, label, "test")])
        if gap > 1:
            errors.append(f"rule {rule}, {label}: dev and test differ by {gap} pairs")
    for name, subset in [("all", records)] + [
        (split, [r for r in records if r["split"] == split]) for split in SPLITS
    ]:
        share = sum(r["label"] == "supported" for r in subset) / max(len(subset), 1)
        if not BALANCE[0] <= share <= BALANCE[1]:
            errors.append(f"{name}: {share:.0%} supported, outside {BALANCE}")
    expected = assign_splits(records)
    for record in records:
        if record["split"] != expected[record["id"]]:
            errors.append(f"{record['id']}: split {record['split']!r}, "
                          f"the rule in assign_splits() gives {expected[record['id']]!r}")
    return errors


def summary(records: list[dict]) -> str:
    """A table of counts: rule x (label, split)."""
    counts = collections.Counter((r["rule"], r["label"], r["split"]) for r in records)
    cols = [(label, split) for label in LABELS for split in SPLITS]
    lines = ["rule          " + "  ".join(f"{lab[:5]}/{s:4}" for lab, s in cols) + "  total"]
    for rule in RULES:
        row = [counts[(rule, lab, s)] for lab, s in cols]
        lines.append(f"{rule:12}  " + "  ".join(f"{n:10}" for n in row) + f"  {sum(row):5}")
    row = [sum(counts[(rule, lab, s)] for rule in RULES) for lab, s in cols]
    lines.append(f"{'total':12}  " + "  ".join(f"{n:10}" for n in row) + f"  {sum(row):5}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT_PATH
    try:
        records = load(path)
    except (OSError, ValueError) as err:
        print(f"{path}: {err}", file=sys.stderr)
        return 1
    errors = problems(records)
    for error in errors:
        print(f"{path}: {error}", file=sys.stderr)
    if not errors:
        print(summary(records))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
