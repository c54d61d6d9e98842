"""The retrieval set (bench/data/retrieval/): how `cairn cite --for` and `cairn ask`
find the passages that answer a claim or a question, and say when nothing does.
Prints figures, asserts nothing; bench/rank_eval.py runs it first.

Each item of labels.jsonl is a claim or a question with the passages that answer
it (a source and a phrase of the answering paragraph), or none. The corpus
(corpus.txt: licences and manuals shipped in /usr/share) is copied into a
temporary workspace and indexed, then

- a claim is put through the evidence search of `cite --for` (evidence_for,
  k = 3): a hit at k when one of the first k passages offered as supporting it
  is an answering paragraph;
- a question through the retrieval of `ask` (ask.ranked, k = 8: the relevant
  passages of 30 candidates, most relevant first): a hit at k when one of the first k relevant passages is one;
- an item with no answer is right when the command says nothing answers it
  (no passage relevant), and an item with one is wrong when it says so.

The latency is one claim's evidence_for in process (store retrieval, key-term
weights, spans scored, each offer verified as `cairn check` would), after one
warm-up claim; no process start, no indexing.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LABELS = HERE / "data" / "retrieval" / "labels.jsonl"
sys.path.insert(0, str(HERE.parent / "tests"))


def _norm(text: str) -> str:
    return " ".join(text.split())


def _hit(chunk, answers: list[dict]) -> bool:
    text = _norm(chunk.text)
    return any(chunk.source == a["source"] and _norm(a["contains"]) in text for a in answers)


def measure(root: Path, items: list[dict]) -> dict:
    from cairn.answers import ask
    from cairn.answers.evidence import evidence_for
    from cairn.index.workspace import Workspace

    ws = Workspace(root)
    ws.index()
    # every label's phrase must be in its source's chunks: a typo in a label is no miss of the ranking
    chunks = ws.store.current_chunks()
    bad = [it["id"] for it in items for a in it["answers"] if not any(_hit(c, [a]) for c in chunks)]
    evidence_for(ws, "zlib is a general purpose data compression library.", k=3)  # warm-up
    rows = []
    times = []
    for it in items:
        if it["kind"] == "claim":
            t0 = time.perf_counter()
            found = evidence_for(ws, it["text"], k=3)
            times.append(time.perf_counter() - t0)
            ranked = [p.chunk for p in found.passages if p.supports]
            answered = found.answered
        else:
            _, _, about = ask.ranked(ws, it["text"], 8)
            ranked, answered = about, bool(about)
        first = next((i for i, ch in enumerate(ranked, 1) if _hit(ch, it["answers"])), None)
        rows.append({"id": it["id"], "kind": it["kind"], "answerable": bool(it["answers"]), "answered": answered,
                     "rank": first})
    answerable = [r for r in rows if r["answerable"]]
    none = [r for r in rows if not r["answerable"]]

    def share(xs: list, pred) -> float:
        return round(sum(1 for x in xs if pred(x)) / len(xs), 4) if xs else float("nan")

    figures = {
        "items": len(rows), "answerable": len(answerable), "with no answer": len(none),
        "recall@1": share(answerable, lambda r: r["rank"] == 1),
        "recall@3": share(answerable, lambda r: r["rank"] is not None and r["rank"] <= 3),
        "nothing-answers right": share(none, lambda r: not r["answered"]),
        "answerable said to have no answer": share(answerable, lambda r: not r["answered"]),
        "by kind": {k: {"recall@1": share([r for r in answerable if r["kind"] == k], lambda r: r["rank"] == 1),
                        "recall@3": share([r for r in answerable if r["kind"] == k],
                                          lambda r: r["rank"] is not None and r["rank"] <= 3),
                        "nothing-answers right": share([r for r in none if r["kind"] == k],
                                                       lambda r: not r["answered"])}
                    for k in ("claim", "question")},
        "cite --for median ms": round(statistics.median(times) * 1e3, 1),
        "cite --for p90 ms": round(statistics.quantiles(times, n=10)[-1] * 1e3, 1),
        "misses": [r["id"] for r in answerable if r["rank"] is None or r["rank"] > 3],
        "wrong nothing-answers": [r["id"] for r in none if r["answered"]],
        "answerable said to have no answer, ids": [r["id"] for r in answerable if not r["answered"]],
        "labels not found in the corpus": bad,
    }
    ws.store.close()
    return figures


def main() -> None:
    import real_docs_ws

    missing = real_docs_ws.missing()
    if missing:
        print(f"retrieval set: skipped, this machine lacks {', '.join(map(str, missing))}")
        return
    items = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines() if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        root = real_docs_ws.build(Path(tmp) / "ws")
        figures = measure(root, items)
    print("retrieval set (bench/data/retrieval):")
    for key, value in figures.items():
        print(f"  {key}: {json.dumps(value)}")


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent / "server"))
    main()
