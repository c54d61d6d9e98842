"""False alarms and misses of the support check, rule by rule.

Two labelled sets:

- tests/data/meaning/pairs.jsonl: claim/quote pairs written for Cairn from
  Debian's licence and documentation texts (see its PROVENANCE.md), each
  tagged with the rule it mainly tests and a dev/test split;
- WiCE dev (../shared/data/wice/dev.jsonl, read in place): real Wikipedia
  claims and the sentences they cite, from another domain.

For each configuration the verdict is the one `cairn check` gives a claim
whose citations all resolve: support score >= threshold and no meaning rule
failing. A **false alarm** is a correct citation (label supported) that
fails; a **miss** is a wrong one that passes.

    .venv/bin/python bench/meaning_eval.py [--split dev|test|all] [--markdown]
    .venv/bin/python bench/meaning_eval.py --probes   # the invented probe pairs, round by round
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import defaultdict
from pathlib import Path

from cairn import meaning
from cairn.meaning.backing import compare
from cairn.meaning.quantities import extract
from cairn.meaning.restating import restated_score, without_identifiers
from cairn.support import check_support
from cairn.verify.calibrate import load_rows
from cairn.verify.verdicts import SENTENCE_REACH

HERE = Path(__file__).resolve().parent
PAIRS = HERE.parent / "tests/data/meaning/pairs.jsonl"
PROBES = HERE.parent / "tests/data/meaning/probes.jsonl"
WICE = HERE.parent.parent / "shared/data/wice/dev.jsonl"
THRESHOLD = 0.5

# name -> (support mode, number rule: "old" | "new" | None, polarity, context)
CONFIGS = {
    "seed, old number rule": ("seed", "old", False, False),
    "calibrated, old number rule": ("calibrated", "old", False, False),
    "seed + quantities": ("seed", "new", False, False),
    "seed + quantities + polarity": ("seed", "new", True, False),
    "seed + all meaning rules": ("seed", "new", True, True),
    "calibrated + quantities": ("calibrated", "new", False, False),
    "calibrated + quantities + polarity": ("calibrated", "new", True, False),
    "calibrated + all meaning rules": ("calibrated", "new", True, True),
    "meaning rules alone (no score)": (None, "new", True, True),
}


def verdict(claim: str, evidence: list[meaning.Evidence], config, heading: str = "") -> bool:
    mode, numbers, polarity, context = config
    quotes = [e.quote for e in evidence]
    if mode is None:  # the rules alone: what they flag, whatever the word overlap
        lex, passed = None, True
    else:
        scored = claim  # the claim as the score reads it
        if numbers == "new" and any(q.kind == "identifier" for q in extract(claim)):
            # as `cairn check` reads it: an identifier is checked against the cited chunk and title, not scored
            scored = without_identifiers(claim, [e.text for e in evidence] + [e.title for e in evidence], quotes)
        lex = check_support(scored, quotes, threshold=THRESHOLD, mode=mode)
        if numbers == "new" and lex.score is not None and lex.score < THRESHOLD and lex.missing and heading:
            # as `cairn check` reads it: words naming the cited source leave the score
            lex = check_support(scored, quotes, threshold=THRESHOLD, mode=mode, named=heading,
                                around=[_sentence(e) for e in evidence])
        if numbers == "new":  # as `cairn check` reads it: an amount the quotes state in another form is theirs
            lex, scored = restated_score(scored, quotes, lex, THRESHOLD,
                                         lambda text: check_support(text, quotes, threshold=THRESHOLD, mode=mode,
                                                                    named=heading,
                                                                    around=[_sentence(e) for e in evidence]))
        passed = lex.score is not None and lex.score >= THRESHOLD
        if passed and lex.displaced and check_support(scored, quotes, threshold=THRESHOLD, mode=mode,
                                                      named=heading).displaced:
            passed = False  # as `cairn check` reads it: a name in place of the quote's (support/names.py)
    if lex is not None and numbers == "old" and lex.numbers_missing:
        return False
    if numbers == "new" and compare(claim, quotes, [e.text for e in evidence], [e.title for e in evidence]):
        return False
    if polarity or context:
        found = meaning.check(claim, evidence, polarity=polarity and passed)
        if found.contradictions:
            return False
        if context and found.context:
            return False
    return passed


def _sentence(e: meaning.Evidence) -> str:
    """The quote's sentence as `cairn check` reads it for the rule `sentence` (verify.py)."""
    s, t = meaning.sentence_around(e.text, e.start, e.end)
    return e.text[max(s, e.start - SENTENCE_REACH):min(t, e.end + SENTENCE_REACH)]


def heading_of(source: str) -> str:
    """The source's file name and, when the file is on this machine (Debian's
    /usr/share/common-licenses and /usr/share/doc), its first line, as
    `cairn check` reads a source's heading. Without the file: the name only."""
    name = source.rsplit("/", 1)[-1]
    try:
        data = Path(source).read_bytes()
        if source.endswith(".gz"):
            data = gzip.decompress(data)
    except OSError:
        return name
    first = next((x.strip() for x in data.decode("utf-8", "replace")[:300].splitlines() if x.strip()), "")
    return f"{name}\n{first[:120]}"


def pair_evidence(p: dict) -> list[meaning.Evidence]:
    ctx = p["context"]
    start = ctx.index(p["quote"])
    title = p["source"].rsplit("/", 1)[-1]
    return [meaning.Evidence(p["quote"], ctx, start, start + len(p["quote"]), title)]


def load_pairs(split: str) -> list[dict]:
    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if split == "all" or r["split"] == split]


def wice_rows(path: Path = WICE):
    if not path.exists():
        return []
    return [
        (r.claim, [meaning.Evidence(q, q, 0, len(q)) for q in r.quotes], r.supported)
        for r in load_rows(path)
    ]


def rates(results: list[tuple[str, bool, bool]]) -> dict[str, tuple[int, int, int, int]]:
    """rule -> (false alarms, correct pairs, misses, wrong pairs)."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for rule, gold, got in results:
        for key in (rule, "all"):
            row = out[key]
            if gold:
                row[1] += 1
                row[0] += not got
            else:
                row[3] += 1
                row[2] += got
    return {k: tuple(v) for k, v in out.items()}  # type: ignore[misc]


def fmt(a: int, n: int) -> str:
    return f"{a}/{n} ({100 * a / n:.0f} %)" if n else "-"


def probe_evidence(row: dict) -> list[meaning.Evidence]:
    """A probe pair's evidence: its quote inside the paragraph it was copied from (`context`, rounds 28
    on), else the quote as its own chunk; never a source title (the probes' sources need not be on the
    machine that runs them)."""
    quote, text = row["quote"], row.get("context", row["quote"])
    start = text.index(quote)
    return [meaning.Evidence(quote, text, start, start + len(quote))]


def probe_rounds() -> int:
    """False alarms and misses of the default on each round of the probe pairs
    (each quote in its paragraph where the round gives one, else its own chunk; no source title)."""
    rows = [json.loads(line) for line in PROBES.read_text(encoding="utf-8").splitlines() if line.strip()]
    config = CONFIGS["calibrated + all meaning rules"]
    print("| probe round | pairs | false alarms | misses |")
    print("| --- | ---: | ---: | ---: |")
    for k in sorted({r["round"] for r in rows}):
        got = [(r["label"] == "supported", verdict(r["claim"], probe_evidence(r), config))
               for r in rows if r["round"] == k]
        fa = sum(1 for gold, ok in got if gold and not ok)
        miss = sum(1 for gold, ok in got if not gold and ok)
        npos = sum(1 for gold, _ in got if gold)
        print(f"| {k} | {len(got)} | {fmt(fa, npos)} | {fmt(miss, len(got) - npos)} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="all", choices=["dev", "test", "all"])
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--by-rule", default="calibrated + all meaning rules,meaning rules alone (no score)",
                    help="configurations shown rule by rule (comma-separated)")
    ap.add_argument("--wice", type=Path, default=WICE, help="WiCE dev (dev.jsonl of the public WiCE repository)")
    ap.add_argument("--probes", action="store_true",
                    help="only the invented probe pairs (tests/data/meaning/probes.jsonl), round by round")
    args = ap.parse_args(argv)
    if args.probes:
        return probe_rounds()
    pairs = load_pairs(args.split)
    wice = wice_rows(args.wice)
    print(f"meaning set ({args.split}): {len(pairs)} pairs; WiCE dev: {len(wice)} rows\n")
    print("| configuration | false alarms | misses | WiCE dev balanced accuracy |")
    print("| --- | ---: | ---: | ---: |")
    by_rule = {}
    for name, config in CONFIGS.items():
        res = [(p["rule"], p["label"] == "supported", verdict(p["claim"], pair_evidence(p), config, heading_of(p["source"]))) for p in pairs]
        r = rates(res)
        fa, npos, miss, nneg = r["all"]
        if wice:
            got = [(gold, verdict(c, ev, config)) for c, ev, gold in wice]
            pos = [g for gold, g in got if gold]
            neg = [not g for gold, g in got if not gold]
            ba = f"{(sum(pos) / len(pos) + sum(neg) / len(neg)) / 2:.4f}"
        else:
            ba = "n/a (data not found)"
        print(f"| {name} | {fmt(fa, npos)} | {fmt(miss, nneg)} | {ba} |")
        if name in args.by_rule.split(","):
            by_rule[name] = r
    if by_rule:
        names = list(by_rule)
        print("\nrule by rule (false alarms / misses):\n")
        print("| rule | " + " | ".join(names) + " |")
        print("| --- |" + " ---: |" * len(names))
        for rule in sorted(k for k in by_rule[names[0]] if k != "all"):
            cells = []
            for n in names:
                fa, npos, miss, nneg = by_rule[n][rule]
                cells.append(f"{fmt(fa, npos)} / {fmt(miss, nneg)}")
            print(f"| {rule} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
