"""Which meaning rules may fail a claim on their own (SPEC section 4): each rule's
firing rate on the labelled supported rows of every development domain, which
must be at most 5 % (precision on supported rows >= 0.95), and how often it
fires on the unsupported rows (what it catches).

Domains: the SummEdits sub-domains and BEGIN (../shared/data/support/), WiCE dev
(../shared/data/wice/), read in place. Each row's quotes are cited whole (a
summary's quote is its document), so a rule reads more text than a real
citation gives it: the rates are an upper bound.

    .venv/bin/python bench/reader_adoption.py [--limit N] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from cairn import meaning
from cairn.meaning.parsed import run as parsed
from cairn.support import check_support
from cairn.verify.calibrate import load_rows

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
BAR = 0.05
RULES = ("number-mismatch", "contradiction", "context-negates",
         "relation", "pairing", "relation-converse", "relation-total", "relation-change", "relation-order",
         "relation-rate", "relation-than", "relation-place", "relation-unit", "relation-rank", "relation-member", "relation-actor", "relation-added", "relation-roles", "limits-only-added", "limits-only-dropped", "relation-examples", "limits-partial", "limits-either", "limits-cause", "limits-ranked", "limits-significance", "relation-counted",
         "limits-modality", "limits-universal", "limits-condition", "limits-hedge", "limits-exception", "limits-bound",
         "limits-association", "limits-subject", "limits-only", "limits-only-list", "limits-argued", "limits-advice",
         "limits-estimate", "limits-threshold", "limits-plan", "limits-optional", "limits-time", "limits-superlative", "limits-days",
         "limits-for", "negation-scope", "tense", "retraction")


def rows(limit: int | None):
    """(domain, claim, quotes, supported) of every development row."""
    for name in ("summedits.jsonl", "begin.jsonl"):
        per: dict[str, int] = defaultdict(int)
        for line in (SHARED / "support" / name).open(encoding="utf-8"):
            obj = json.loads(line)
            sid = obj["source_id"].split(":")
            domain = ":".join(sid[:2])
            if limit and per[domain] >= limit:
                continue
            per[domain] += 1
            quotes = obj["quote"] if isinstance(obj["quote"], list) else [obj["quote"]]
            yield domain, obj["claim"], quotes, obj["label"] == "supported"
    got = list(load_rows(SHARED / "wice" / "dev.jsonl"))
    for r in got[:limit] if limit else got:
        yield "wice:dev", r.claim, r.quotes, r.supported


def fired(claim: str, quotes: list[str]) -> set[str]:
    evidence = [meaning.Evidence(q, q, 0, len(q)) for q in quotes]
    found = meaning.check(claim, evidence, polarity=True, adopted=frozenset())
    out = set()
    if found.numbers:
        out.add("number-mismatch")
    if found.contradictions:
        out.add("contradiction")
    if found.context:
        out.add("context-negates")
    s = parsed.check(claim, [(q, q, 0, len(q)) for q in quotes])
    if s.relations:
        out.add("relation")
    if s.pairings:
        out.add("pairing")
    out |= {f"relation-{k}" for k, _ in s.amounts}
    out |= {f"limits-{x.kind}" for _, x in s.limits}
    if s.negations and not any(c.kind == "negation" for c in found.contradictions):
        out.add("negation-scope")
    if s.tenses:
        out.add("tense")
    if s.retractions:
        out.add("retraction")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=None, help="rows per domain (all by default)")
    ap.add_argument("--json", type=Path, default=None, help="write the figures and the firing rows here")
    args = ap.parse_args()
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    examples: dict[str, list[dict]] = defaultdict(list)
    t0 = time.perf_counter()
    for n, (domain, claim, quotes, supported) in enumerate(rows(args.limit)):
        score = check_support(claim, quotes, threshold=0.5, mode="seed").score
        passes = score is not None and score >= 0.5
        got = fired(claim, quotes)
        for rule in RULES:
            c = counts[domain][rule]
            # [supported rows, fired on supported, unsupported rows, fired on unsupported]
            c[0 if supported else 2] += 1
            if rule in got:
                c[1 if supported else 3] += 1
                if supported and len(examples[rule]) < 40:
                    examples[rule].append({"domain": domain, "claim": claim, "passes": passes})
        if n % 500 == 0:
            print(f"  {n} rows, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    domains = sorted(counts)
    print(f"rows read in {time.perf_counter() - t0:.0f} s; a rule is adopted when it fires on at most "
          f"{BAR:.0%} of the supported rows of every domain\n")
    print("| rule | " + " | ".join(domains) + " | adopted |")
    print("| --- | " + " | ".join("---:" for _ in domains) + " | --- |")
    verdicts = {}
    for rule in RULES:
        cells, ok = [], True
        for d in domains:
            sup, fs, uns, fu = counts[d][rule]
            rate = fs / sup if sup else 0.0
            ok = ok and rate <= BAR
            cells.append(f"{rate:.1%} / {fu / uns if uns else 0:.1%}")
        verdicts[rule] = ok
        print(f"| {rule} | " + " | ".join(cells) + f" | {'yes' if ok else 'no'} |")
    print("\n(each cell: share of supported rows it fires on / share of unsupported rows it fires on)")
    if args.json:
        args.json.write_text(json.dumps({"counts": counts, "adopted": verdicts, "examples": examples}, indent=1),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
