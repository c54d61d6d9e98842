"""Evidence for a claim (`cairn cite --for`): prints figures, asserts nothing.

    .venv/bin/python bench/evidence_bench.py [--mb 20] [--claims 50]

Generates the engine bench's corpus (bench/engine_bench.py) in a temporary
folder, indexes it, then asks for evidence for claims made from sentences of
the corpus: half copied as they are, half with one word replaced by another
word of the vocabulary. Reports the median and 90th percentile of one claim's
evidence (retrieval from the store, then the key terms' weights, the support
check over spans and each offer verified as `cairn check` would), split in
retrieval and scoring, and how often the sentence a claim was made from is
the first passage offered.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))

import engine_bench  # noqa: E402 - the corpus generator, beside this file
from cairn.answers.evidence import check_confirm, find_evidence, retrieve  # noqa: E402 - after the path set-up above
from cairn.answers.relevance import key_terms  # noqa: E402 - after the path set-up above
from cairn.core.config import load_settings  # noqa: E402 - after the path set-up above
from cairn.index.workspace import Workspace  # noqa: E402 - after the path set-up above


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=20)
    ap.add_argument("--claims", type=int, default=50)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="cairn-evidence-"))
    try:
        root = tmp / "ws"
        engine_bench.generate(root, args.mb, 10)
        ws = Workspace(root, load_settings(root))
        t = time.perf_counter()
        ws.index()
        print(f"indexed {args.mb:g} MB in {time.perf_counter() - t:.1f} s")
        rng = random.Random(3)
        chunks = ws.store.current_chunks()
        words = sorted({w for ch in chunks[:200] for w in re.findall(r"[a-z]{4,}", ch.text)})
        cases = []
        while len(cases) < args.claims:
            ch = rng.choice(chunks)
            sentences = [s.strip() for s in re.split(r"(?<=\.)\s+", ch.text) if len(s.split()) >= 8]
            if not sentences:
                continue
            s = rng.choice(sentences)
            if len(cases) % 2:
                toks = s.split()
                toks[rng.randrange(len(toks))] = rng.choice(words)
                s = " ".join(toks)
            cases.append((s, ch))
        cfg = ws.settings.config
        confirm = check_confirm(ws)
        find_evidence(cases[0][0], retrieve(ws.store, cases[0][0]), allowed=ws.allowed)  # warm the caches
        total, fetch, score, first = [], [], [], 0
        for claim, ch in cases:
            t0 = time.perf_counter()
            cands = retrieve(ws.store, claim)
            t1 = time.perf_counter()
            # as evidence_for does (`cite --for`): weighted key terms, spans scored, offers verified by check
            got = find_evidence(claim, cands, threshold=cfg.threshold, mode=cfg.support.mode, allowed=ws.allowed,
                                terms=key_terms(claim, ws.store), confirm=confirm)
            t2 = time.perf_counter()
            fetch.append(t1 - t0)
            score.append(t2 - t1)
            total.append(t2 - t0)
            first += bool(got) and got[0].chunk.text == ch.text
        q = statistics.quantiles(total, n=10)
        print(f"{len(cases)} claims: evidence median {statistics.median(total) * 1e3:.1f} ms "
              f"(p90 {q[-1] * 1e3:.1f} ms; target: 50 ms on 20 MB)")
        print(f"  retrieval median {statistics.median(fetch) * 1e3:.1f} ms, scoring median "
              f"{statistics.median(score) * 1e3:.1f} ms")
        print(f"  the claim's own chunk offered first: {first}/{len(cases)}")
        ws.store.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
