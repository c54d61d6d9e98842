"""Speed of the lexical support check: prints figures, asserts nothing.

    .venv/bin/python bench/support_speed.py [--pairs 2000] [--runs 7] [--warm 5000] [--seed 1]
                                           [--real-only] [--passes 5]

Generates fresh claim/quote pairs of 15 to 25 words (fixed seed) from a fixed
vocabulary of common words, stopwords, names and numbers, with now and then a
date, a percent, a scaled number, a contraction, an ordinal, an accented name
or a hyphenated compound, so every rule of the calibrated mode gets work. For
each mode it prints the median (and the best) over several runs of the
microseconds per ``check_support(claim, [quote])``:

- uncached: every claim and quote is new to the process (a new set of pairs
  each run), the engine's cost for a citation it has not seen;
- cached: the same pairs checked again, the hot path when a draft is
  re-checked.

The rows ``+ meaning`` are the whole support check of a new claim as
`cairn check` runs it: the calibrated score and then the meaning rules
(quantities, polarity and direction, the quote's sentence; cairn.meaning),
polarity only when the score passes. ``+ meaning, backed`` uses pairs whose
quote says most of what the claim says, so that every rule runs. In these
two rows both the claim and its quote are new to the process.

The rows ``…, quote seen`` are the case a writer meets: a claim just typed
(new to the process) cited to a quote the engine has already checked, as a
quote from a source chunk the editor re-checks on every edit. Before the
timed check, each pair's quote is checked once with an earlier version of
the claim (one word different), untimed; the timed claim is then new and
its quote is not.

The rows ``real claims, …`` time the same writer's case on written claims
rather than generated ones: the claims of Cairn's labelled meaning set
(tests/data/meaning/pairs.jsonl, with each quote's chunk and source title, as
`cairn check` reads them) and of WiCE dev (../shared/data/wice/dev.jsonl,
read in place when it is there). Each claim is checked once, new to the
process, after its quote was checked with an earlier version of it (one
word changed); the figure is the median (and 75th percentile) over claims.
These sentences are ordinary prose, where the generated ones are dense with
names and numbers, so both are printed. A claim can be new to a process only
once, so the written claims are timed in several fresh processes (--passes):
the figures are the median over the passes of each pass's median and 75th
percentile, and the median over claims of each claim's best time across the
passes, which a passing load on a shared machine does not move.

The rules run as `cairn` runs them here: compiled when the venv holds a
current build of them (cairn/native.py; `make` builds it), else as pure
Python; the first line says which, and `CAIRN_NATIVE=0` times pure Python.

The process collects garbage as `cairn check` and `cairn serve` do
(`cairn.cli.tune_gc`): the figures are the engine's as it runs.

The vocabulary is fixed and checked first (--warm pairs), so the per-word
caches are warm, as they are in a long-running engine; the numbers and dates
of new pairs still bring chunks never seen before.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from cairn import meaning, native, support
from cairn.cli.main import tune_gc

WORDS = (
    "customer credit delivery damaged request policy order refund store member payment approval warehouse "
    "driver window goods perishable report photo account agent supervisor ticket invoice returned shipping "
    "package address schedule market region quarter budget forecast supplier contract audit reviewed team "
    "service supported products price discount season holiday weekend morning evening city river mountain "
    "library museum station harbor bridge garden council school hospital tower railway airport stadium "
    "released releasing championship congratulated studies governments elected minister opened building "
    "population recorded album singer football league scored goals married died born founded company"
).split()
NAMES = "Paris London Lyon Tokyo Smith Johnson Garcia Hernández Müller Dubois Nakamura Williams".split()
FILLER = (
    "the a an of to in and for with on by within after before during about from was were is are has had "
    "it its he she they their which that this not no"
).split()
EXTRAS = [
    lambda r: f"{r.randint(1, 28)} {r.choice(['September', 'May', 'Sept.', 'Jan.', 'March'])} {r.randint(1900, 2024)}",
    lambda r: f"{r.randint(1900, 2024)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    lambda r: f"{r.randint(1, 99)}%",
    lambda r: f"{r.randint(1, 99)} per cent",
    lambda r: f"{r.randint(1, 9)}.{r.randint(1, 9)} million",
    lambda r: f"{r.randint(1, 999)},{r.randint(0, 999):03d}",
    lambda r: f"{r.randint(1, 31)}{r.choice(['st', 'nd', 'rd', 'th'])}",
    lambda r: f"{r.randint(1990, 2020)}–{r.randint(10, 99)}",
    lambda r: r.choice(["didn't", "can't", "won't", "cannot", "isn't"]),
    lambda r: r.choice(["Ibero-American", "co-star", "twenty-four", "well-known", "long-term"]),
    lambda r: r.choice(["fourteen", "twenty", "hundred", "thousand"]),
    lambda r: r.choice(["at least", "no more than", "prior to", "above", "non-exclusive", "irrevocable",
                        "without", "never", "no longer"]),
    lambda r: f"{r.choice(['-', ''])}{r.randint(1, 40)} {r.choice(['°C', 'days', 'km', 'percent', 'weeks'])}",
    lambda r: f"{r.choice(['version', 'Section', 'Apache', 'RFC'])} {r.randint(1, 9)}.{r.randint(0, 9)}",
]


def sentence(rng: random.Random) -> str:
    words: list[str] = []
    for _ in range(rng.randint(15, 25)):
        x = rng.random()
        if x < 0.10:
            words.append(str(rng.randint(1, 5000)))
        elif x < 0.16:
            words.append(rng.choice(NAMES))
        elif x < 0.20:
            words.append(rng.choice(EXTRAS)(rng))
        elif x < 0.45:
            words.append(rng.choice(FILLER))
        else:
            words.append(rng.choice(WORDS))
        if rng.random() < 0.05:
            words[-1] += rng.choice([",", ".", ";"])
    s = " ".join(words)
    return s[0].upper() + s[1:] + "."


def pairs(rng: random.Random, n: int) -> list[tuple[str, str]]:
    return [(sentence(rng), sentence(rng)) for _ in range(n)]


def backed_pairs(rng: random.Random, n: int) -> list[tuple[str, str]]:
    """Pairs whose quote says most of what the claim says (a tenth of its words
    dropped or replaced): the usual case in a draft, where every rule runs."""
    out = []
    for _ in range(n):
        claim = sentence(rng)
        words = [w if rng.random() > 0.1 else rng.choice(WORDS) for w in claim.split() if rng.random() > 0.1]
        out.append((claim, " ".join(words)))
    return out


def edited(rng: random.Random, claim: str) -> str:
    """An earlier version of `claim`: one of its words replaced, as a writer edits."""
    words = claim.split()
    words[rng.randrange(len(words))] = rng.choice(WORDS)
    return " ".join(words)


def per_check(batch: list[tuple[str, str]], mode: str) -> float:
    """Microseconds per check_support over the batch; mode "+ meaning": the
    calibrated check and then every meaning rule, as `cairn check` runs them."""
    check = support.check_support
    rules = mode == "+ meaning"
    mode = "calibrated" if rules else mode
    start = time.perf_counter()
    for claim, quote in batch:
        lex = check(claim, [quote], mode=mode)
        if rules:  # as the verifier calls them: polarity only for a claim its quote is about
            meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))],
                          polarity=lex.score is not None and lex.score >= 0.5)
    return (time.perf_counter() - start) / len(batch) * 1e6


def real_claims() -> dict[str, list[tuple[str, list[meaning.Evidence]]]]:
    """The written claims the real rows time, with their evidence, by set."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import meaning_eval

    out = {"meaning set": [(p["claim"], meaning_eval.pair_evidence(p)) for p in meaning_eval.load_pairs("all")]}
    wice = [(claim, evidence) for claim, evidence, _ in meaning_eval.wice_rows()]
    if wice:
        out["WiCE dev"] = wice
    return out


def per_claim(rows: list[tuple[str, list[meaning.Evidence]]], rng: random.Random) -> list[float]:
    """Microseconds per new written claim, its quotes checked before with an
    earlier version of it: the whole check as `cairn check` runs it."""
    def one(claim: str, evidence: list[meaning.Evidence]) -> None:
        quotes = [e.quote for e in evidence]
        lex = support.check_support(claim, quotes, mode="calibrated")
        meaning.check(claim, evidence, polarity=lex.score is not None and lex.score >= 0.5)

    for claim, evidence in rows:
        one(edited(rng, claim), evidence)
    times = []
    for claim, evidence in rows:
        start = time.perf_counter()
        one(claim, evidence)
        times.append((time.perf_counter() - start) * 1e6)
    return times


def real_pass(seed: int) -> dict[str, list[float]]:
    """One pass over the written claims in this process: µs per claim, by set, in the order of the claims."""
    rng = random.Random(seed)
    return {name: per_claim(rows, rng) for name, rows in real_claims().items()}


def real_passes(n: int, seed: int) -> dict[str, list[list[float]]]:
    """`real_pass` in `n` fresh processes, one after the other (a claim is new to a process once)."""
    out: dict[str, list[list[float]]] = {}
    for k in range(n):
        done = subprocess.run([sys.executable, __file__, "--one-pass", "--seed", str(seed)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"support_speed: pass {k + 1} of the written claims failed:\n{done.stderr}")
        for name, times in json.loads(done.stdout).items():
            out.setdefault(name, []).append(times)
    return out


def main() -> None:
    tune_gc()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=2000, help="pairs per run (both texts must fit the cache)")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warm", type=int, default=5000, help="pairs checked before measuring")
    ap.add_argument("--real-only", action="store_true", help="only the rows of written claims")
    ap.add_argument("--passes", type=int, default=5, help="fresh processes that time the written claims")
    ap.add_argument("--one-pass", action="store_true", help=argparse.SUPPRESS)  # a pass, as JSON (real_passes)
    args = ap.parse_args()
    if args.one_pass:
        json.dump(real_pass(args.seed), sys.stdout)
        return
    rng = random.Random(args.seed)
    print(f"support check rules: {native.status()} (cairn/native.py; CAIRN_NATIVE=0 for pure Python)")
    print(f"{args.pairs} fresh claim/quote pairs per run, {args.runs} runs; µs per check_support, median (best)")
    print(f"{'mode':<30} {'uncached':>17} {'cached':>16} {'uncached/s':>12}")
    rows = (*((m, pairs) for m in support.MODES), ("+ meaning", pairs), ("+ meaning, backed", backed_pairs),
            ("+ meaning, quote seen", pairs), ("+ meaning, backed, quote seen", backed_pairs))
    for mode, make in () if args.real_only else rows:
        label = mode
        seen = label.endswith("quote seen")
        mode = "+ meaning" if mode.startswith("+ meaning") else mode
        per_check(make(rng, args.warm), mode)  # a warm engine: the vocabulary seen before
        cold, warm = [], []
        for _ in range(args.runs):
            batch = make(rng, args.pairs)
            if seen:  # each quote checked before, with an earlier version of its claim (untimed)
                per_check([(edited(rng, claim), quote) for claim, quote in batch], mode)
            cold.append(per_check(batch, mode))
            warm.append(per_check(batch, mode))
        c, w = statistics.median(cold), statistics.median(warm)
        print(f"{label:<30} {c:>8.1f} ({min(cold):6.1f}) {w:>7.2f} ({min(warm):6.2f}) {1e6 / c:>12,.0f}")
    passes = max(1, args.passes)
    print(f"\nwritten claims, each new once, quote seen; µs per claim over the claims, {passes} fresh processes")
    print(f"{'':<30} {'median':>7} {'p75':>7} {'best-of median':>15}")
    for name, runs in real_passes(passes, args.seed).items():
        medians = [statistics.median(times) for times in runs]
        p75s = [sorted(times)[len(times) * 3 // 4] for times in runs]
        best = [min(ts) for ts in zip(*runs)]
        print(f"real claims, {name:<17} {statistics.median(medians):>7.1f} {statistics.median(p75s):>7.1f} "
              f"{statistics.median(best):>15.1f}  ({len(best)} claims; pass medians "
              f"{min(medians):.0f} to {max(medians):.0f})")


if __name__ == "__main__":
    main()
