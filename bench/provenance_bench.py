"""What the index's provenance check costs (issue 11, item 2).

    .venv/bin/python bench/provenance_bench.py [--mb 10] [--citations 5000] [--runs 5] [--baseline DIR]

Every version, chunk and cache entry of `.cairn/index.db` carries a MAC under
this machine's key (cairn.provenance); every row read is checked once per
process. This prints, on bench/engine_bench.py's corpus:

- `cairn check` cold, warm (verdicts cached) and warm with every draft
  verified again (SARIF bypasses the verdict cache);
- the first check after the machine key changed (a foreign index: every
  current version parsed again) and the one after it;
- verification in process: a new Store (every row proven the first time it
  is read) and a later Verifier on the same Store (proofs remembered);
- the cost of one row's proof.

With `--baseline DIR` (a tree holding `server/cairn` of an earlier commit, e.g.
`git archive COMMIT server | tar -x -C DIR`) the same CLI figures are measured
for it too, runs alternating between the two so that a busy machine slows
both alike. Figures are CPU time (user + system), steadier than the clock on
a shared machine; medians; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVER = HERE.parent / "server"


def run_check(root: Path, env: dict, *args: str) -> float:
    """CPU seconds (user + system) of one `cairn check`: on a machine others share,
    far steadier than the time on the clock."""
    proc = subprocess.Popen([sys.executable, "-m", "cairn", "check", *args], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) in (0, 1), f"cairn check {args} failed in {root}"
    return usage.ru_utime + usage.ru_stime


def environment(src: Path, data: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAIRN_")}
    env["PYTHONPATH"] = str(src)
    env["XDG_DATA_HOME"] = str(data)
    return env


def cli_figures(root: Path, env: dict, runs: int) -> dict[str, list[float]]:
    """One round of each CLI figure (called alternately for each tree)."""
    out: dict[str, list[float]] = {}
    shutil.rmtree(root / ".cairn", ignore_errors=True)
    out["cold"] = [run_check(root, env, "--format", "json")]
    out["warm"] = [run_check(root, env, "--format", "json") for _ in range(runs)]
    out["reverify"] = [run_check(root, env, "--format", "sarif") for _ in range(max(2, runs // 2))]
    return out


def foreign_figures(root: Path, env: dict, data: Path) -> dict[str, list[float]]:
    """The index made under one key, checked under another."""
    other = dict(env, XDG_DATA_HOME=str(data / "elsewhere"))
    shutil.rmtree(root / ".cairn", ignore_errors=True)
    run_check(root, other, "--format", "json")
    shutil.rmtree(data / "elsewhere", ignore_errors=True)  # a new machine: a new key
    first = run_check(root, other, "--format", "sarif")
    then = run_check(root, other, "--format", "sarif")
    return {"foreign_first": [first], "foreign_then": [then]}


def in_process(root: Path, runs: int) -> dict:
    """Run inside the tree under test (PYTHONPATH): verification and proof costs."""
    from cairn import drafts as drafts_mod
    from cairn.cli.main import tune_gc
    from cairn.core.config import load_settings
    from cairn.index.workspace import Workspace
    from cairn.store import Store
    from cairn.verify.verifier import Verifier

    tune_gc()
    docs = [drafts_mod.parse_draft(p.read_text(encoding="utf-8")) for p in sorted((root / "drafts").glob("*.md"))]
    n_cit = sum(len(c.citations) for d in docs for c in d.claims)
    out: dict = {"citations": n_cit}
    Workspace(root, load_settings(root)).index()  # the index as this machine (this key) makes it
    first, later = [], []
    for _ in range(runs):
        ws = Workspace(root, load_settings(root), store=Store(root))
        for target in (first, later):  # a new store: nothing proven yet; then a second Verifier on it
            v = Verifier(ws)
            t = time.process_time()
            for i, d in enumerate(docs):
                v.verify_draft(f"drafts/answer{i:03d}.md", d)
            target.append(time.process_time() - t)
        ws.store.close()
    out["verify_new_store"] = first
    out["verify_proofs_kept"] = later
    store = Store(root)
    if hasattr(store, "_proven"):
        rows = store._conn.execute(store._ROWS_SQL + store._JOIN_CURRENT).fetchall()
        times = []
        for _ in range(runs):
            store._forget_proofs()
            t = time.process_time()
            ok = sum(store._proven(r) for r in rows)
            times.append(time.process_time() - t)
        assert ok == len(rows)
        out["rows"] = len(rows)
        out["proof_us_per_row"] = statistics.median(times) / len(rows) * 1e6
        t = time.process_time()
        for _ in range(runs):
            for r in rows:
                store._proven(r)
        out["remembered_us_per_row"] = (time.process_time() - t) / runs / len(rows) * 1e6
    store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=10.0)
    ap.add_argument("--citations", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--baseline", type=Path, help="a tree with server/cairn of an earlier commit")
    ap.add_argument("--tree", type=Path, default=SERVER.parent, help="the tree measured as 'now' (default: this one)")
    ap.add_argument("--in-process", type=Path, help=argparse.SUPPRESS)  # internal: figures inside one tree
    args = ap.parse_args()
    if args.in_process:
        print(json.dumps(in_process(args.in_process, args.runs)))
        return

    sys.path.insert(0, str(HERE))
    from engine_bench import generate

    tmp = Path(tempfile.mkdtemp(prefix="cairn-provenance-bench-"))
    trees = {"now": args.tree.resolve() / "server"}
    if args.baseline:
        trees["baseline"] = args.baseline.resolve() / "server"
    try:
        info = generate(tmp / "ws", args.mb, args.citations)
        print(f"corpus: {info['source_bytes'] / 1e6:.1f} MB in {info['sources']} sources, "
              f"{info['citations']} citations in {info['drafts']} drafts")
        roots = {name: tmp / "ws" if name == "now" else shutil.copytree(tmp / "ws", tmp / f"ws-{name}")
                 for name in trees}
        envs = {name: environment(src, tmp / f"data-{name}") for name, src in trees.items()}
        figures: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
        for _ in range(max(3, args.runs // 2 + 1)):  # rounds, alternating between the trees
            for name in trees:
                for k, v in cli_figures(roots[name], envs[name], args.runs).items():
                    figures[name].setdefault(k, []).extend(v)
        for k, v in foreign_figures(roots["now"], envs["now"], tmp / "data-now").items():
            figures["now"].setdefault(k, []).extend(v)
        inproc: dict[str, dict] = {name: {} for name in trees}
        for _ in range(args.runs):  # rounds, alternating between the trees
            for name in trees:
                proc = subprocess.run([sys.executable, __file__, "--in-process", str(roots[name]), "--runs", "1"],
                                      env=envs[name], capture_output=True, text=True)
                assert proc.returncode == 0, proc.stderr[-3000:]
                for k, v in json.loads(proc.stdout.strip().splitlines()[-1]).items():
                    inproc[name].setdefault(k, []).extend(v if isinstance(v, list) else [v])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    med = statistics.median
    names = list(trees)
    rows = [
        ("cold cairn check (index + verify)", "cold"),
        ("warm cairn check (verdicts cached)", "warm"),
        ("warm, every draft verified again", "reverify"),
        ("foreign index: first check (all parsed again)", "foreign_first"),
        ("foreign index: the check after it", "foreign_then"),
    ]
    w = max(len(r[0]) for r in rows) + 2
    print("\nCPU time (user + system), medians")
    print("figure".ljust(w) + "".join(n.rjust(12) for n in names))
    for label, key in rows:
        cells = [f"{med(figures[n][key]):.2f} s" if key in figures[n] else "" for n in names]
        print(label.ljust(w) + "".join(c.rjust(12) for c in cells))
    for label, key in (("verification, new store", "verify_new_store"),
                       ("verification, proofs kept", "verify_proofs_kept")):
        rate = {n: med(inproc[n]["citations"]) / med(inproc[n][key]) for n in names}
        print(label.ljust(w) + "".join(f"{rate[n]:,.0f}/s".rjust(12) for n in names))
    now = {k: med(v) for k, v in inproc["now"].items()}
    print(f"\none row's proof: {now['proof_us_per_row']:.2f} µs (keyed BLAKE2b of the chunk and its version), "
          f"{now['remembered_us_per_row']:.2f} µs once proven; {now['rows']:.0f} current chunks")
    print("runs: " + "; ".join(f"{n} {k} {[round(x, 2) for x in v]}" for n in names for k, v in figures[n].items()))


if __name__ == "__main__":
    main()
