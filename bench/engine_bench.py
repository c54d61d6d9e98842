"""Engine benchmark: prints figures, asserts nothing (machines here are noisy).

    .venv/bin/python bench/engine_bench.py [--mb 20] [--citations 10000] [--runs 5]

Generates a workspace in a temporary folder: about 20 MB of .md/.txt sources
and drafts holding 10,000 citations with mixed verdicts (exact, shifted
offsets, near-miss quotes, unknown chunks, wrong numbers). Reports medians of
several runs: cold `cairn check` (index + verify), warm `cairn check` (index
up to date), in-process verification and draft parsing throughput, indexing
throughput beside the floor of merely reading and hashing the same files, and
the peak memory (max RSS) of the cold check.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = (
    "customer credit delivery damaged request policy order refund store member payment approval warehouse "
    "driver window goods perishable report photo account agent supervisor ticket invoice return shipping "
    "package address schedule market region quarter budget forecast supplier contract audit review team "
    "service support product price discount season holiday weekend morning evening city river mountain "
    "library museum station harbor bridge garden council school hospital tower railway airport stadium"
).split()
FILLER = "the a of to in and for with on by within after before during about from".split()


SYLLABLES = "ka lo mi ne ru sa ti vo be da fe gi ho ju ly pa qu re so tu wa xe yo zi an er in on us".split()


def _vocabulary(rng: random.Random, n: int = 20000) -> list[str]:
    """Real words first, then invented ones: text with a long tail of rare words."""
    vocab = list(WORDS)
    while len(vocab) < n:
        vocab.append("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return vocab


_VOCAB: list[str] = []
# cumulative Zipf-like weights: the k-th word is about 1/k as frequent as the first
_WEIGHTS: list[float] = []


def sentence(rng: random.Random) -> str:
    if not _VOCAB:
        _VOCAB.extend(_vocabulary(random.Random(1)))
        total = 0.0
        for k in range(len(_VOCAB)):
            total += 1.0 / (k + 1)
            _WEIGHTS.append(total)
    n = rng.randint(8, 20)
    picks = rng.choices(_VOCAB, cum_weights=_WEIGHTS, k=n)
    words = []
    for i in range(n):
        r = rng.random()
        if r < 0.08:
            words.append(str(rng.randint(1, 500)))
        elif r < 0.35:
            words.append(rng.choice(FILLER))
        else:
            words.append(picks[i])
    s = " ".join(words)
    return s[0].upper() + s[1:] + "."


def paragraph(rng: random.Random) -> str:
    sents = [sentence(rng) for _ in range(rng.randint(2, 8))]
    return wrap(" ".join(sents))


def wrap(text: str) -> str:
    """Wrap at about 78 columns like a real Markdown file."""
    out, line = [], ""
    for w in text.split(" "):
        if len(line) + len(w) + 1 > 78:
            out.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    out.append(line)
    return "\n".join(out)



def cite_case(rng: random.Random, kinds: dict[str, int], chunk_id: str, start: int, quote: str,
              ident: str, version: str) -> str:
    """A claim (the quote itself) and its cite block, made one of the benchmark's
    cases at random: 70 % exact, 10 % shifted offsets, 8 % near-miss quotes, 6 %
    unknown chunk ids, 6 % a number the source lacks (counted in `kinds`)."""
    end = start + len(quote)
    claim = quote.replace("\n", " ")
    cid = chunk_id
    r = rng.random()
    if r < 0.70:
        kinds["exact"] += 1
    elif r < 0.80:
        kinds["shifted"] += 1
        start, end = start + 1, end + 1
    elif r < 0.88:
        kinds["near-miss"] += 1
        quote = quote.replace(" ", "  ", 1)
    elif r < 0.94:
        kinds["unknown"] += 1
        cid = hashlib.sha256(cid.encode()).hexdigest()[:16]
    else:
        kinds["number"] += 1
        claim = claim + " within 999 days"
    q = quote.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return (f"{claim}\n\n```cite\nchunk_id: {cid}\nstart: {start}\nend: {end}\nquote: \"{q}\"\n"
            f"source: {ident}\nversion: {version[:12]}\n```\n")


def generate(root: Path, mb: float, citations: int, seed: int = 7) -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
    from cairn.core.chunking import chunk_document

    rng = random.Random(seed)
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('drafts = ["drafts/*.md"]\n')
    target = int(mb * 1024 * 1024)
    size = 0
    all_chunks = []
    i = 0
    while size < target:
        ext = ".md" if i % 2 == 0 else ".txt"
        ident = f"sources/doc{i:04d}{ext}"
        paras = [paragraph(rng) for _ in range(60)]
        text = ("# Document %d\n\n" % i if ext == ".md" else "") + "\n\n".join(paras) + "\n"
        (root / ident).write_text(text, encoding="utf-8")
        size += len(text.encode())
        version = hashlib.sha256(text.encode()).hexdigest()
        for ch in chunk_document(ident, text):
            if len(ch.text) > 80 and "#" not in ch.text:
                all_chunks.append((ident, version, ch))
        i += 1
    n_sources = i
    per_draft = 100
    n_drafts = max(1, citations // per_draft)
    kinds = {"exact": 0, "shifted": 0, "near-miss": 0, "unknown": 0, "number": 0}
    for d in range(n_drafts):
        parts = [f"# Answer {d}\n"]
        for _ in range(per_draft):
            ident, version, ch = rng.choice(all_chunks)
            sents = [s for s in ch.text.replace("\n", " ").split(". ") if len(s) > 30]
            if not sents:
                sents = [ch.text[:60]]
            quote_src = sents[0].split(".")[0]
            start = ch.text.replace("\n", " ").find(quote_src)
            quote = ch.text[start:start + len(quote_src)]
            parts.append(cite_case(rng, kinds, ch.chunk_id, start, quote, ident, version))
        (root / "drafts" / f"answer{d:03d}.md").write_text("\n".join(parts), encoding="utf-8")
    return {"sources": n_sources, "source_bytes": size, "drafts": n_drafts, "citations": n_drafts * per_draft,
            "kinds": kinds}


def run_check(root: Path, fmt: str = "json") -> tuple[float, int, int]:
    """Seconds, exit code and peak RSS (KiB) of one `cairn check` process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cairn", "check", "--format", fmt], cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    dt = time.perf_counter() - t0
    return dt, os.waitstatus_to_exitcode(status), usage.ru_maxrss


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=20.0)
    ap.add_argument("--citations", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", help="generate into this folder and keep it")
    args = ap.parse_args()
    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="cairn-bench-"))
    root = tmp / "ws"
    if root.exists():
        shutil.rmtree(root)
    t0 = time.perf_counter()
    info = generate(root, args.mb, args.citations)
    print(f"generated {info['source_bytes'] / 1e6:.1f} MB in {info['sources']} sources, {info['drafts']} drafts, "
          f"{info['citations']} citations {info['kinds']} in {time.perf_counter() - t0:.1f} s")

    cold, rss = [], []
    for _ in range(max(3, args.runs // 2 + 1)):
        shutil.rmtree(root / ".cairn", ignore_errors=True)
        dt, code, peak = run_check(root)
        assert code in (0, 1), f"cairn check failed with exit {code}"
        cold.append(dt)
        rss.append(peak)
    warm = [run_check(root)[0] for _ in range(args.runs)]
    # SARIF needs every diagnostic's range, so it bypasses the verdict cache:
    # this is a warm index with every draft parsed and verified again
    reverify = [run_check(root, "sarif")[0] for _ in range(max(3, args.runs // 2 + 1))]

    # in process: parsing, verification, indexing against the floor
    from cairn import drafts as drafts_mod
    from cairn.cli.main import tune_gc
    from cairn.core.config import load_settings
    from cairn.index.workspace import Workspace
    from cairn.store import Store
    from cairn.verify.verifier import Verifier

    tune_gc()  # as the cairn command does
    texts = [p.read_text(encoding="utf-8") for p in sorted((root / "drafts").glob("*.md"))]
    parse_t = []
    for _ in range(args.runs):
        t = time.perf_counter()
        docs = [drafts_mod.parse_draft(x) for x in texts]
        parse_t.append(time.perf_counter() - t)
    n_cit = sum(len(c.citations) for d in docs for c in d.claims)
    ws = Workspace(root, load_settings(root))
    # each run a new Verifier (nothing read from the store is kept); the first
    # run in the process also meets every word for the first time
    verify_t = []
    for _ in range(args.runs):
        v = Verifier(ws)
        t = time.perf_counter()
        for i, d in enumerate(docs):
            v.verify_draft(f"drafts/answer{i:03d}.md", d)
        verify_t.append(time.perf_counter() - t)
    # what a report costs on top: every message and fix read, so each unknown
    # chunk's quote is searched for across the corpus
    read_t = []
    for _ in range(max(3, args.runs // 2 + 1)):
        v = Verifier(ws)
        t = time.perf_counter()
        for i, d in enumerate(docs):
            res = v.verify_draft(f"drafts/answer{i:03d}.md", d)
            for cr in res.claims:
                for diag in cr.diagnostics:
                    _ = (diag.message, diag.fixes)
        read_t.append(time.perf_counter() - t)

    # per outcome: the cost of one claim by what verification found, its
    # diagnostics read (as a report reads them)
    per_kind: dict[str, list[float]] = {}
    v = Verifier(ws)
    for d in docs:
        v.prefetch(c.chunk_id for claim in d.claims for c in claim.citations)
        for claim in d.claims:
            t = time.perf_counter()
            cr = v.verify_claim(claim)
            for diag in cr.diagnostics:
                _ = (diag.message, diag.fixes)
            dt = time.perf_counter() - t
            kind = cr.diagnostics[0].code if cr.diagnostics else "verified, no diagnostic"
            per_kind.setdefault(kind, []).append(dt)

    files = sorted((root / "sources").iterdir())
    floor_t, index_t = [], []
    for _ in range(3):
        t = time.perf_counter()
        for f in files:
            hashlib.sha256(f.read_bytes()).hexdigest()
        floor_t.append(time.perf_counter() - t)
        db = tmp / "index-bench.db"
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        ws2 = Workspace(root, load_settings(root), store=Store(root, path=db))
        t = time.perf_counter()
        ws2.index()
        index_t.append(time.perf_counter() - t)
        ws2.store.close()
    mb = info["source_bytes"] / 1e6
    med = statistics.median
    rows = [
        ("cold cairn check (index + verify)", f"{med(cold):.2f} s", "<= 10 s"),
        ("warm cairn check (index up to date)", f"{med(warm):.2f} s", "<= 2 s"),
        ("warm, every draft verified again", f"{med(reverify):.2f} s", "(verdict cache bypassed)"),
        ("verification in process", f"{n_cit / med(verify_t):,.0f} citations/s", ">= 20,000/s"),
        ("  first run in the process", f"{n_cit / verify_t[0]:,.0f} citations/s", "every word new"),
        ("  with every diagnostic read", f"{n_cit / med(read_t):,.0f} citations/s",
         "unknown chunks' quotes searched"),
        ("draft parsing", f"{n_cit / med(parse_t):,.0f} citations/s "
                          f"({sum(map(len, texts)) / 1e6 / med(parse_t):.1f} MB/s)", ""),
        ("indexing", f"{mb / med(index_t):.1f} MB/s", ""),
        ("read + hash floor", f"{mb / med(floor_t):.1f} MB/s "
                              f"(indexing takes {med(index_t) / med(floor_t):.0f}x the floor)", ""),
        ("peak memory, cold check", f"{max(rss) / 1024:.0f} MB max RSS", "<= 300 MB"),
    ]
    w = max(len(r[0]) for r in rows)
    print(f"\n{'figure'.ljust(w)}  median  (target)")
    for name, val, target in rows:
        print(f"{name.ljust(w)}  {val}  {('(' + target + ')') if target else ''}")
    print(f"\nruns: cold {[round(x, 2) for x in cold]}, warm {[round(x, 2) for x in warm]}, "
          f"verify {[round(x, 3) for x in verify_t]}")
    print("\nverification cost per claim by outcome (one citation each, diagnostics read; median):")
    for kind, ts in sorted(per_kind.items(), key=lambda kv: -len(kv[1])):
        print(f"  {kind:<26} {len(ts):>6} claims  {med(ts) * 1e6:8.1f} µs  ({1 / med(ts):,.0f}/s)")
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
