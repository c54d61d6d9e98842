"""How often the rules of issue 44 fire on the labelled supported rows of every
development domain (each must fire on at most 1-2 % of them): the frequency rule
(`every year` against `every six months`) and the cased unit symbols (`10 µM`
against `10 mM`). A rule "fires" on a row when the quantity rule finds a
mismatch that only it makes: a frequency the quotes give otherwise, or a
claim's quantity in a molar, pressure or case-distinct unit that matches none.
Rows as bench/reader_adoption.py reads them, in place; each row's quotes are
cited whole, so the rates are an upper bound.

    .venv/bin/python bench/unit_rules_firing.py [--limit N] [--show N]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cairn.meaning.backing import compare
from cairn.meaning.frequency import frequency_mismatches
from cairn.meaning.quantities import extract
from reader_adoption import rows

# the units this issue taught, and those whose case it made matter
NEW_UNITS = frozenset({"M", "mM", "\u03bcM", "nM", "pM", "mol", "mmol", "\u03bcmol", "nmol", "\u03bcm", "Pa", "hPa",
                       "kPa", "MPa", "mW", "Mbit"})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--show", type=int, default=0, help="print this many supported rows each rule fires on")
    args = ap.parse_args()
    seen: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # supported, freq, units, unsup, freq on unsup
    shown: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for domain, claim, quotes, supported in rows(args.limit):
        c = seen[domain]
        often = frequency_mismatches(claim, quotes)[0]
        units = [m for m in compare(claim, quotes)
                 if any(q.unit in NEW_UNITS and q.text == m.claim for q in extract(claim))]
        if supported:
            c[0] += 1
            c[1] += bool(often)
            c[2] += bool(units)
            for rule, got in (("frequency", often), ("units", units)):
                if got and len(shown[rule]) < args.show:
                    shown[rule].append((domain, f"{claim[:160]} -- {got[0].message}"))
        else:
            c[3] += 1
            c[4] += bool(often)
    print("| domain | supported rows | frequency fires | units fire | unsupported rows | frequency fires |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for d in sorted(seen):
        n, f, u, un, fu = seen[d]
        print(f"| {d} | {n} | {f} ({f / max(n, 1):.1%}) | {u} ({u / max(n, 1):.1%}) | {un} | {fu} |")
    for rule, got in shown.items():
        print(f"\n{rule}:")
        for d, text in got:
            print(f"  [{d}] {text}")


if __name__ == "__main__":
    main()
