"""The sentence reader's cost (cairn.reading): parse time per claim and per quote
sentence (median, p90) over development rows, one by one and read ahead in
batches; the loaded pipeline's peak memory; the install size of spaCy with
its English pipeline; and `cairn check` of a draft of `--claims` distinct
claims three ways: a first check (no index, no kept readings), a second clone
(no index, the readings kept in the user's cache) and the same with the
reader off. Prints figures only.

    .venv/bin/python bench/reader_bench.py [--rows N] [--claims N]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

from cairn.meaning.sentences import sentence_spans
from cairn.reading import pipeline
from cairn.reading.build import build

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "support"


def _p90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * (len(xs) - 1))]


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=300)
    ap.add_argument("--claims", type=int, default=1000, help="claims of the check figures (0: none)")
    args = ap.parse_args()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    nlp = pipeline.load()
    if nlp is None:
        print(f"the reader is off: {pipeline.reason()}")
        return 1
    load_s = time.perf_counter() - t
    claims, sentences = [], []
    for line in list((SHARED / "begin.jsonl").open(encoding="utf-8"))[: args.rows // 2] + \
            list((SHARED / "summedits.jsonl").open(encoding="utf-8"))[: args.rows // 2]:
        obj = json.loads(line)
        claims.append(obj["claim"])
        quote = obj["quote"] if isinstance(obj["quote"], str) else " ".join(obj["quote"])
        sentences += [quote[a:b] for a, b in sentence_spans(quote) if quote[a:b].strip()][:3]
    t = time.perf_counter()
    list(nlp.pipe(claims, batch_size=64))
    batched_ms = (time.perf_counter() - t) * 1000 / max(1, len(claims))
    out = {}
    for name, texts in (("claim", claims), ("quote sentence", sentences)):
        times = []
        for text in texts:
            t = time.perf_counter()
            build(nlp(text))  # uncached: the cost of a first reading
            times.append((time.perf_counter() - t) * 1000)
        out[name] = (statistics.median(times), _p90(times), len(times))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    import spacy

    folder, found = pipeline.find()
    site = Path(spacy.__file__).parent.parent
    deps = ["spacy", "thinc", "blis", "srsly", "cymem", "preshed", "murmurhash", "wasabi", "weasel", "catalogue",
            "confection", "langcodes", "spacy_legacy", "spacy_loggers", "cloudpathlib", "typer", "smart_open"]
    size = sum(_size(site / d) for d in deps if (site / d).is_dir())
    model = _size(folder.parent if folder is not None and folder.parent.name == found else folder) if folder else 0
    print(f"pipeline: {found} {pipeline.VERSION}, loaded in {load_s:.2f} s")
    for name, (med, p90, n) in out.items():
        print(f"parse per {name}: median {med:.2f} ms, p90 {p90:.2f} ms ({n} texts)")
    print(f"parse per claim read ahead in batches of 64: mean {batched_ms:.2f} ms")
    print(f"peak memory: {peak / 1024:.0f} MB ({(peak - before) / 1024:.0f} MB more than before loading)")
    print(f"install size: spaCy and its dependencies {size / 2**20:.0f} MB, the pipeline {model / 2**20:.0f} MB")
    if args.claims:
        checks(args.claims)
    return 0


def checks(n: int) -> None:
    """`cairn check` of a draft of n distinct claims on the demo's sources: first, second clone, reader off."""
    import os
    import subprocess
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
    import make_demo

    cite = ("```cite\nchunk_id: 691d71e4b46d8b0d\nstart: 0\nend: 65\n"
            "quote: \"A customer has 14 days to request a credit for a damaged delivery\"\n"
            "source: sources/policy.md\nversion: 9b3c4325200c\n```\n")
    draft = "".join(f"Claim number {i}: a customer has 14 days to request a credit.\n\n{cite}\n" for i in range(n))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shim = root / "no-spacy"
        shim.mkdir()
        (shim / "spacy.py").write_text("raise ImportError('the reader is off for this run')\n")

        def run(name: str, cache: str, off: bool = False) -> float:
            ws = make_demo.build(root / name)
            (ws / "drafts" / "bench.md").write_text(draft, encoding="utf-8")
            env = {**os.environ, "XDG_CACHE_HOME": str(root / cache)}
            if off:
                env["PYTHONPATH"] = str(shim)
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cairn", "check", "drafts/bench.md"], cwd=ws, env=env,
                           capture_output=True, check=False)
            return time.perf_counter() - t

        first = run("one", "cache")
        second = run("two", "cache")
        off = run("three", "empty", off=True)
    print(f"cairn check of {n} distinct claims: first {first:.2f} s; a second clone with the readings kept"
          f" {second:.2f} s ({second / first:.2f}x); the reader off {off:.2f} s ({first / off:.2f}x of it)")


if __name__ == "__main__":
    sys.exit(main())
