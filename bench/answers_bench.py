"""JSON answers and `cairn ask` retrieval: prints figures, asserts nothing.

    .venv/bin/python bench/answers_bench.py [--mb 20] [--citations 10000] [--runs 5]

Generates the workspace of bench/engine_bench.py (about 20 MB of sources,
drafts holding 10,000 claims with mixed verdicts), writes the same claims as
JSON answers (one .jsonl line per Markdown draft), and reports medians:

1. checking the claims in process, Markdown drafts beside the same claims as
   JSON answers (read, parse, verify; a fresh verifier each run), with the
   verdicts compared so both sides did the same work;
2. `cairn ask` retrieval (the store's BM25 ranking of the k = 8 best current
   chunks) for questions made of the sources' words.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))

import engine_bench  # noqa: E402 - the shared workspace generator, found through the path above


def markdown_to_jsonl(root: Path) -> int:
    """The claims of every draft, written as one JSON answer a draft in answers/all.jsonl."""
    from cairn.drafts import parse_draft

    out = root / "answers"
    out.mkdir()
    lines, n = [], 0
    for p in sorted((root / "drafts").glob("*.md")):
        claims = []
        for claim in parse_draft(p.read_text(encoding="utf-8")).claims:
            cits = [{"chunk_id": c.chunk_id, "start": c.start, "end": c.end, "quote": c.quote,
                     "source": c.source, "version": c.version} for c in claim.citations]
            claims.append({"text": claim.text, "citations": cits, "supported": True})
        n += len(claims)
        lines.append(json.dumps({"id": p.stem, "claims": claims}, ensure_ascii=False))
    (out / "all.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return n


def median_check(ws, folder: Path, runs: int) -> tuple[float, list[bool]]:
    from cairn.engine import checks as engine
    from cairn.verify.verifier import Verifier

    times, verdicts = [], []
    for _ in range(runs):
        verifier = Verifier(ws)
        t0 = time.perf_counter()
        checked = engine.check(ws, [folder], verifier)
        times.append(time.perf_counter() - t0)
        verdicts = [c.supported for cd in checked for c in cd.result.claims]
    return statistics.median(times), verdicts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=20)
    ap.add_argument("--citations", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--questions", type=int, default=50)
    args = ap.parse_args()

    from cairn.answers.ask import retrieve
    from cairn.engine import checks as engine
    from cairn.index.workspace import Workspace

    with tempfile.TemporaryDirectory(prefix="cairn-answers-bench-") as tmp:
        root = Path(tmp) / "ws"
        info = engine_bench.generate(root, args.mb, args.citations)
        n = markdown_to_jsonl(root)
        ws = Workspace(root)
        t0 = time.perf_counter()
        engine.index(ws)
        print(f"workspace: {info['sources']} sources, {info['source_bytes'] / 1e6:.1f} MB, {n} claims"
              f" (indexed in {time.perf_counter() - t0:.1f} s)")

        median_check(ws, root / "drafts", 1)  # warm the store's caches for both sides alike
        median_check(ws, root / "answers", 1)
        md_t, md_v = median_check(ws, root / "drafts", args.runs)
        js_t, js_v = median_check(ws, root / "answers", args.runs)
        same = md_v == js_v
        print(f"check in process, median of {args.runs}:")
        print(f"  Markdown drafts  {md_t:7.2f} s  {len(md_v) / md_t:9,.0f} claims/s")
        print(f"  JSON answers     {js_t:7.2f} s  {len(js_v) / js_t:9,.0f} claims/s"
              f"  (JSON/Markdown time ratio {js_t / md_t:.2f}; same verdicts: {same})")

        rng = random.Random(3)
        chunks = ws.store.current_chunks()
        questions = []  # six words of a passage: that passage should come back
        for _ in range(args.questions):
            ch = rng.choice(chunks)
            words = ch.text.split()
            start = rng.randrange(max(1, len(words) - 8))
            questions.append((ch.chunk_id, "What does the policy say about " + " ".join(words[start:start + 6]) + "?"))
        retrieve(ws, questions[0][1], 8)  # warm the connection and the page cache
        times, found = [], 0
        for want, q in questions:
            t0 = time.perf_counter()
            got = retrieve(ws, q, 8)
            times.append(time.perf_counter() - t0)
            found += want in {c.chunk_id for c in got}
        times.sort()
        print(f"ask retrieval (k=8) over {info['source_bytes'] / 1e6:.1f} MB, {len(questions)} questions:"
              f" median {statistics.median(times) * 1e3:.1f} ms, slowest {times[-1] * 1e3:.1f} ms (target < 50 ms);"
              f" the passage asked about is in the 8: {found}/{len(questions)}")
        ws.store.close()


if __name__ == "__main__":
    main()
