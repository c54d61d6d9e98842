"""Measure each rule of the calibrated support mode on WiCE dev.

For every rule: seed plus that rule alone, the rules added one by one in a
fixed order, and the calibrated mode without that rule; balanced accuracy at
the default threshold 0.5, and how many rows' scores the rule alone changes.
Then the alternatives that were measured and not adopted, and the weight's
sensitivity. Everything runs through cairn.calibrate, the code behind
`cairn calibrate`, so the figures are those of the shipped check.

    .venv/bin/python bench/support_modes.py [DATA.jsonl] [--markdown]

The data is read in place from ../shared/data/wice/dev.jsonl (never copied).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from cairn import support
from cairn.verify.calibrate import calibrate, load_rows

ORDER = ["dates", "ordinal", "percent", "scale", "fold", "negation", "stem", "compound", "negators", "version", "names",
         "sentence", "titles", "weight"]
NOT_ADOPTED = ["light_stem"]
DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared/data/wice/dev.jsonl"


def mode(rules) -> str:
    name = "bench:" + "+".join(sorted(rules))
    support.register_mode(name, rules)
    return name


def measure(rows, rules) -> tuple[float, float, float]:
    r = calibrate(rows, mode=mode(rules), threshold=0.5)
    return r.balanced_accuracy, r.best_balanced_accuracy, r.best_threshold


def scores(rows, rules) -> list[float | None]:
    m = mode(rules)
    return [support.check_support(r.claim, r.quotes, mode=m).score for r in rows]


def bootstrap(rows, rules, n: int = 2000) -> tuple[float, float, float]:
    """Resample the rows (fixed seed); the difference in balanced accuracy at 0.5."""
    a, b = mode([]), mode(rules)
    verdicts = [
        (r.supported, support.check_support(r.claim, r.quotes, mode=a).passed,
         support.check_support(r.claim, r.quotes, mode=b).passed)
        for r in rows
    ]  # fmt: skip

    def ba(sample, i):
        pos = [v[i] for v in sample if v[0]]
        neg = [not v[i] for v in sample if not v[0]]
        return (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2

    rng = random.Random(0)
    diffs = sorted(
        ba(s, 2) - ba(s, 1) for s in ([rng.choice(verdicts) for _ in verdicts] for _ in range(n))
    )
    return diffs[int(0.025 * n)], diffs[int(0.975 * n) - 1], sum(d > 0 for d in diffs) / n


def main(argv: list[str]) -> None:
    md = "--markdown" in argv
    args = [a for a in argv if not a.startswith("--")]
    rows = load_rows(args[0] if args else DEFAULT_DATA)
    adopted = set(support.MODE_RULES["calibrated"])
    assert adopted <= set(ORDER) and set(ORDER + NOT_ADOPTED) == set(support.RULES), "bench ORDER out of date"
    seed = measure(rows, [])
    seed_scores = scores(rows, [])
    full = measure(rows, adopted)
    if md:
        row = lambda *c: "| " + " | ".join(c) + " |"  # noqa: E731 - a one-line row format
    else:
        row = lambda *c: "".join(f"{x:<26}" for x in c).rstrip()  # noqa: E731 - a one-line row format
    lines = [row("rule", "seed + this rule", "rows rescored", "cumulative (this order)", "calibrated without it")]
    if md:
        lines.append("| --- | ---: | ---: | ---: | ---: |")
    lines.append(row("(seed)", f"{seed[0]:.4f}", "", f"{seed[0]:.4f}", ""))
    done: list[str] = []
    for rule in ORDER:
        alone = measure(rows, [rule])
        changed = sum(a != b for a, b in zip(seed_scores, scores(rows, [rule])))
        done.append(rule)
        cum = measure(rows, done)
        without = measure(rows, adopted - {rule})
        lines.append(
            row(
                f"`{rule}`" if md else rule,
                f"{alone[0]:.4f} ({alone[0] - seed[0]:+.4f})",
                str(changed),
                f"{cum[0]:.4f} ({cum[0] - seed[0]:+.4f})",
                f"{without[0]:.4f} ({without[0] - full[0]:+.4f})",
            )
        )
    print("\n".join(lines))
    print()
    alone = measure(rows, ["light_stem"])
    swapped = measure(rows, (adopted - {"stem"}) | {"light_stem"})
    print(f"light_stem instead of stem: seed + light_stem {alone[0]:.4f}; calibrated with it {swapped[0]:.4f}")
    saved = support.modes.WEIGHT
    try:
        for w in (1.5, 3.0):
            support.modes.WEIGHT = w
            support.clear_caches()
            print(f"weight {w:g} instead of {saved:g}: calibrated {measure(rows, adopted)[0]:.4f}")
    finally:
        support.modes.WEIGHT = saved
        support.clear_caches()
    lo, hi, share = bootstrap(rows, adopted)
    print(f"paired bootstrap of calibrated - seed (2000 resamples): 95% interval [{lo:+.4f}, {hi:+.4f}], "
          f"above 0 in {share:.1%}")
    print()
    print(f"seed:       {seed[0]:.4f} at threshold 0.5; best {seed[1]:.4f} at {seed[2]:.2f}")
    print(f"calibrated: {full[0]:.4f} at threshold 0.5; best {full[1]:.4f} at {full[2]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
