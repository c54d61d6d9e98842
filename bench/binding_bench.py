"""Issue 20's added work per check: prints figures, asserts nothing.

    .venv/bin/python bench/binding_bench.py [--claims 13000] [--runs 5]

Medians of several runs, in process:
- the span index (cairn.reuse) over one draft of N claims all citing one span
  (the worst case: every claim is compared with others of its span), as the
  server does on each publish: replace the draft's entries, then the
  `citation-reuse` check of every claim; and across 50 drafts of N/50 claims,
  each citing its own span five times;
- the sentence check (cairn.sentences_check) of N two-sentence claims;
- the binding check (cairn.binding) of N bound claims.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cairn.drafts.binding import binds, claim_field
from cairn.engine.reuse import SpanIndex, Use
from cairn.verify.sentences import sentence_support


def _median(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--claims", type=int, default=13_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    n = args.claims
    texts = [f"Claim {i}: a customer has {i % 30} days to request a credit for item {i}." for i in range(n)]

    one_span = [(("691d71e4b46d8b0d", 0, 65), Use("drafts/big.md", i + 1, t)) for i, t in enumerate(texts)]

    def publish_one_span() -> None:
        index = SpanIndex()
        index.replace("drafts/big.md", one_span)
        for span, use in one_span:
            index.unrelated_to(span, use)

    spread = [(f"drafts/d{i % 50}.md", (f"{i // 5:016x}", 0, 10), Use(f"drafts/d{i % 50}.md", i + 1, t))
              for i, t in enumerate(texts)]

    def publish_spread() -> None:
        index = SpanIndex()
        by_path: dict[str, list] = {}
        for path, span, use in spread:
            by_path.setdefault(path, []).append((span, use))
        for path, uses in by_path.items():
            index.replace(path, uses)
        for _, span, use in spread:
            index.unrelated_to(span, use)

    quotes = ["A customer has 14 days to request a credit for a damaged delivery"]
    two = [f"{t} The request must include a photo." for t in texts]

    def sentences() -> None:
        for t in two:
            sentence_support(t, quotes, threshold=0.5, mode="seed")

    fields = [claim_field(t) for t in texts]

    def binding() -> None:
        for f, t in zip(fields, texts):
            binds(f, t)

    print(f"claims: {n}, runs: {args.runs} (medians)")
    print(f"span index, one draft, one span:    {_median(publish_one_span, args.runs) * 1000:8.1f} ms")
    print(f"span index, 50 drafts, 5 per span:  {_median(publish_spread, args.runs) * 1000:8.1f} ms")
    print(f"sentence check, two sentences each: {_median(sentences, args.runs) * 1000:8.1f} ms")
    print(f"binding check:                      {_median(binding, args.runs) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
