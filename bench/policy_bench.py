"""Policy benchmark: prints figures, asserts nothing (machines here are noisy).

    .venv/bin/python bench/policy_bench.py [--mb 5] [--citations 3000] [--runs 5]

On the engine benchmark's generated workspace (bench/engine_bench.py), with a
policy of tiers, access labels and a derived folder in its cairn.toml:
in-process verification with the policy rules and the per-citation lineage
and location (cairn.lineage.annotate, cairn.policy_checks) against the same
verification with both switched off; then `cairn gc --purge` of a tenth of
the sources (delete, FTS rebuild, VACUUM) on the indexed workspace.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_bench import generate  # the bench folder is put on the path just above

POLICY = """
[authority]
tiers = ["official", "internal", "draft"]
minimum = "internal"
[[policy]]
path = "sources/**"
authority = "official"
[[policy]]
path = "sources/*1.md"
authority = "draft"
access = ["counsel"]
[principals]
reader = ["public"]
counsel = ["counsel"]
"""


def verify_all(ws, docs) -> float:
    from cairn.verify.verifier import Verifier

    v = Verifier(ws)
    t = time.perf_counter()
    for i, d in enumerate(docs):
        v.verify_draft(f"drafts/answer{i:03d}.md", d)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=5.0)
    ap.add_argument("--citations", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="cairn-policy-bench-")) / "ws"
    info = generate(root, args.mb, args.citations)
    (root / "cairn.toml").write_text(POLICY, encoding="utf-8")
    print(f"generated {info['source_bytes'] / 1e6:.1f} MB in {info['sources']} sources, {info['citations']} citations")

    from cairn import drafts as drafts_mod
    from cairn.cli.main import tune_gc
    from cairn.core.config import load_settings
    from cairn.index.workspace import Workspace
    from cairn.verify import verifier as verify_mod

    tune_gc()
    docs = [drafts_mod.parse_draft(p.read_text(encoding="utf-8")) for p in sorted((root / "drafts").glob("*.md"))]
    ws = Workspace(root, load_settings(root, principal_override="reader"))
    ws.index()
    verify_all(ws, docs)  # warm the store's pages and the word caches
    with_policy, without = [], []
    annotate, rules = verify_mod.annotate, verify_mod.policy_diagnostics
    for _ in range(args.runs):
        with_policy.append(verify_all(ws, docs))
        verify_mod.annotate, verify_mod.policy_diagnostics = (lambda v, r: None), (lambda v, c, r: [])
        try:
            without.append(verify_all(ws, docs))
        finally:
            verify_mod.annotate, verify_mod.policy_diagnostics = annotate, rules
    a, b = statistics.median(with_policy), statistics.median(without)
    print(f"verify {info['citations']} citations: with policy and lineage {a * 1000:.0f} ms, without {b * 1000:.0f} ms"
          f" (median of {args.runs}; ratio {a / b:.2f})")
    ws.store.close()

    victims = sorted(p.relative_to(root).as_posix() for p in (root / "sources").rglob("*.md"))[::10]
    size = (root / ".cairn" / "index.db").stat().st_size
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "cairn", "gc", "--purge", *victims], cwd=root,
                          capture_output=True, text=True)
    dt = time.perf_counter() - t
    after = (root / ".cairn" / "index.db").stat().st_size
    print(f"gc --purge of {len(victims)} sources: {dt:.2f} s (exit {proc.returncode}); index {size / 1e6:.1f} MB ->"
          f" {after / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
