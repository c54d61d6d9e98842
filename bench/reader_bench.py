"""The sentence reader's cost (cairn.reading): parse time per claim and per quote
sentence (median, p90) over development rows, the loaded pipeline's peak memory,
and the install size of spaCy with its English pipeline. Prints figures only.

    .venv/bin/python bench/reader_bench.py [--rows N]
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
    print(f"peak memory: {peak / 1024:.0f} MB ({(peak - before) / 1024:.0f} MB more than before loading)")
    print(f"install size: spaCy and its dependencies {size / 2**20:.0f} MB, the pipeline {model / 2**20:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
