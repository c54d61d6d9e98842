"""Retrieval quality: the retrieval set of `cite --for` and `ask` (bench/retrieval_set.py:
recall@1, recall@3, "nothing answers" right, cite --for latency), then the store's
full-text ranking on real data (WiCE). Prints figures, asserts nothing.

    .venv/bin/python bench/rank_eval.py [--data /work/shared/data/wice/dev.jsonl] [--server DIR]...
                                        [--no-wice] [--no-set]

Each WiCE record (a claim, the sentences of the page it cites, which of them
support it) becomes one .txt source, a sentence a paragraph (so a chunk); the
sources are indexed in a temporary workspace (the data file is read in place,
never copied). Then for every claim with supporting sentences the store ranks
chunks for it the way `cairn ask` does (ask.retrieve, k = 8) and the way
`cairn cite --for` does (evidence.retrieve, 30 chunks), and the figures say how
often a supporting sentence of the claim's own page comes first, in the first
8 (ask) or 30 (cite --for), and the mean reciprocal rank of the first one.

`--server DIR`: a folder holding another Cairn's `server/` (say `git archive
<commit> server | tar -x -C DIR`); each is run in its own process, this tree's
first, and a line of figures printed for each, so two rankings can be compared
on the same data.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = Path("/work/shared/data/wice/dev.jsonl")


def write_corpus(data: Path, root: Path) -> list[tuple[str, str, set[str]]]:
    """The sources, and (claim, source, its supporting sentences) for each claim that has some."""
    (root / "sources").mkdir(parents=True)
    (root / "cairn.toml").write_text('drafts = ["drafts/*.md"]\n')
    cases = []
    for i, line in enumerate(data.read_text(encoding="utf-8").splitlines()):
        rec = json.loads(line)
        sentences = [" ".join(s.split()) for s in rec["evidence"]]
        ident = f"sources/w{i:04d}.txt"
        (root / ident).write_text("\n\n".join(s for s in sentences if s) + "\n", encoding="utf-8")
        gold = {sentences[j] for pair in rec.get("supporting_sentences") or [] for j in pair if sentences[j]}
        if gold:
            cases.append((rec["claim"], ident, gold))
    return cases


def measure(root: Path, cases: list) -> dict:
    from cairn.answers import ask, evidence
    from cairn.index.workspace import Workspace

    ws = Workspace(root)
    t0 = time.process_time()
    ws.index()
    index_cpu = time.process_time() - t0
    figures: dict = {"claims": len(cases), "index CPU s": round(index_cpu, 2), "lists": {}}
    for name, k, fetch in (("ask", 8, lambda c: ask.retrieve(ws, c, 8)),
                           ("cite --for", 30, lambda c: evidence.retrieve(ws.store, c, 30))):
        first = within = 0
        rr = 0.0
        t0 = time.process_time()
        for claim, ident, gold in cases:
            got = fetch(claim)
            figures["lists"].setdefault(name, []).append([(c.source, c.start) for c in got])
            for pos, ch in enumerate(got, 1):
                if ch.source == ident and ch.text.strip() in gold:
                    first += pos == 1
                    within += pos <= k
                    rr += 1 / pos
                    break
        n = len(cases)
        figures[name] = {"first": round(first / n, 4), f"in {k}": round(within / n, 4), "MRR": round(rr / n, 4),
                         "ms a claim (CPU)": round(1000 * (time.process_time() - t0) / n, 2)}
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--server", type=Path, action="append", default=[], help="another Cairn's folder holding server/")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--no-wice", action="store_true", help="only the retrieval set")
    ap.add_argument("--no-set", action="store_true", help="only WiCE")
    args = ap.parse_args()
    if not args.child and not args.no_set:
        sys.path.insert(0, str(HERE))
        sys.path.insert(0, str(HERE.parent / "server"))
        import retrieval_set

        retrieval_set.main()
    if not args.child and (args.no_wice or not args.data.exists()):
        return
    if args.child:  # one measurement, in a process whose path starts with that Cairn's server/
        root = Path(args.child)
        cases = [(c, i, set(g)) for c, i, g in json.loads((root / "cases.json").read_text())]
        print(json.dumps(measure(root, cases)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "corpus"
        cases = write_corpus(args.data, base)
        print(f"{len(cases)} claims with supporting sentences, {len(list((base / 'sources').iterdir()))} sources")
        first: dict | None = None
        for server in [HERE.parent, *args.server]:
            root = Path(tmp) / f"ws{abs(hash(str(server)))}"
            subprocess.run(["cp", "-r", str(base), str(root)], check=True)
            (root / "cases.json").write_text(json.dumps([(c, i, sorted(g)) for c, i, g in cases]))
            env = {**os.environ, "PYTHONPATH": str(server / "server")}
            out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(root)], env=env,
                                 check=True, capture_output=True, text=True).stdout
            figures = json.loads(out)
            lists = figures.pop("lists")
            if first is None:
                first = lists
            else:  # how many claims were given another list, or another first chunk, than this tree's
                figures["unlike this tree's"] = {
                    name: {"lists": sum(a != b for a, b in zip(first[name], got)),
                           "first chunks": sum(a[:1] != b[:1] for a, b in zip(first[name], got))}
                    for name, got in lists.items()}
            print(f"{server}: {json.dumps(figures)}")


if __name__ == "__main__":
    main()
