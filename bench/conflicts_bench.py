"""What the search for contradicting sources (`conflicting-source`, issue 47) costs a `cairn check`.
Prints figures, asserts nothing (the machine is shared: compare the ratios).

    .venv/bin/python bench/conflicts_bench.py [--mb 20] [--citations 10000] [--runs 3]

Generates bench/engine_bench.py's workspace (about 20 MB of sources, drafts with mixed verdicts),
indexes it (`cairn index`), then with `[authority] conflicts = "off"` and with the default `"warn"`:

- the first `cairn check` under that configuration (index up to date, nothing in the verdict
  cache for it: every draft verified, uncached; the first, `off`, also reads every cited
  passage for the first time, which the store keeps for the `warn` one);
- a warm `cairn check` (index up to date; the verdict cache holds the findings: the store's
  state is in its key), median of `--runs`, the two configurations taking turns;
- a warm index with every draft verified again (`--format sarif` bypasses the verdict cache):
  every verified claim searched for contradicting passages.

The budget (issue 47) is at most +25 % on the warm check.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engine_bench  # noqa: E402 - the workspace generator beside this file


def _config(root: Path, conflicts: str) -> None:
    (root / "cairn.toml").write_text(f'drafts = ["drafts/*.md"]\n[authority]\nconflicts = "{conflicts}"\n')


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=20.0)
    ap.add_argument("--citations", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="cairn-conflicts-bench-"))
    root = tmp / "ws"
    try:
        info = engine_bench.generate(root, args.mb, args.citations)
        print(f"generated {info['source_bytes'] / 1e6:.1f} MB in {info['sources']} sources,"
              f" {info['drafts']} drafts, {info['citations']} citations")
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "cairn", "index"], cwd=root, capture_output=True)
        assert proc.returncode == 0, proc.stderr.decode()[-500:]
        print(f"indexed in {time.perf_counter() - t0:.1f} s")
        fig: dict[str, tuple[float, float, float]] = {}
        med = statistics.median
        first: dict[str, float] = {}
        for mode in ("off", "warn"):
            _config(root, mode)
            first[mode], code, _ = engine_bench.run_check(root)  # fills the verdict cache under this configuration
            assert code in (0, 1), f"cairn check failed with exit {code}"
        # the warm runs of the two configurations alternate, so that a change in the machine's load
        # falls on both alike (the verdict cache keeps each configuration's findings)
        warm: dict[str, list[float]] = {"off": [], "warn": []}
        again: dict[str, list[float]] = {"off": [], "warn": []}
        for _ in range(args.runs):
            for mode in ("off", "warn"):
                _config(root, mode)
                warm[mode].append(engine_bench.run_check(root)[0])
        for _ in range(args.runs):
            for mode in ("off", "warn"):
                _config(root, mode)
                again[mode].append(engine_bench.run_check(root, "sarif")[0])
        for mode in ("off", "warn"):
            fig[mode] = (first[mode], med(warm[mode]), med(again[mode]))
            print(f"conflicts = {mode!r}: first check {first[mode]:.2f} s, warm {med(warm[mode]):.2f} s"
                  f" {[round(x, 2) for x in warm[mode]]}, every draft verified again {med(again[mode]):.2f} s"
                  f" {[round(x, 2) for x in again[mode]]}")
        (f0, w0, a0), (f1, w1, a1) = fig["off"], fig["warn"]
        print(f"\nwarm cairn check: {w0:.2f} s -> {w1:.2f} s ({(w1 / w0 - 1) * 100:+.0f} %; budget +25 %)")
        print(f"first (uncached) cairn check: {f0:.2f} s -> {f1:.2f} s ({(f1 / f0 - 1) * 100:+.0f} %)")
        print(f"every draft verified again: {a0:.2f} s -> {a1:.2f} s ({(a1 / a0 - 1) * 100:+.0f} %)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
