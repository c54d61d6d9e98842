"""Scale benchmark: a large generated corpus on the SQLite file and on PostgreSQL.
Prints figures, asserts nothing.

    .venv/bin/python bench/scale_bench.py [--size 1GB] [--citations 20000] [--runs 3]
        [--workers 2] [--url postgresql://...] [--no-postgres] [--tmp DIR]

Generates, in a temporary folder (under --tmp, or the system's), a workspace of
`--size` of .md/.txt sources (default 1 GB; `--size 50MB` gives a quick figure)
and drafts holding `--citations` citations with mixed verdicts, then for each
store:

- `cairn index` from empty with one process and with `--workers` worker
  processes (CAIRN_INDEX_WORKERS): wall time, MB/s, the CPU seconds spent by
  Cairn (its workers included) and, for the throw-away PostgreSQL, by the
  server; the speed-up of the workers;
- a cold `cairn check` (empty index: index and verify) and its peak memory
  (the largest resident set of the process and its workers);
- warm checks (the index up to date; median of `--runs`);
- a second clone (a copy of the workspace in another folder, without .cairn):
  its first check and its warm checks. With PostgreSQL the clone finds its
  sources already indexed; with SQLite it builds an index of its own;
- the size of the index.

PostgreSQL is tests/pg_server.py's throw-away server, or the database `--url`
names (its tables are dropped and made again: use a scratch database).
Whether both stores gave the same JSON report is printed too. The machine
these figures come from is shared: CPU seconds and ratios travel better than
wall times.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE.parent / "server"))

import engine_bench  # noqa: E402 - the sentence generator beside this file
from cairn.core.chunking import chunk_document  # noqa: E402 - from this tree's server/, put on the path above

PG_TABLES = ("cairn_meta, cairn_versions, cairn_chunks, cairn_current, cairn_source_errors, cairn_source_warnings,"
             " cairn_git_seen, cairn_kv_cache, cairn_purged, cairn_version_dates, cairn_snapshots")


def parse_size(text: str) -> int:
    """'1GB', '50MB', '500k' or a number of bytes (decimal units, as MB/s is)."""
    m = re.fullmatch(r"\s*([\d.]+)\s*([kmg]?)b?\s*", text.lower())
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (say 1GB, 50MB)")
    return int(float(m.group(1)) * {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}[m.group(2)])


# -- the corpus ------------------------------------------------------------------------


def generate(root: Path, size: int, citations: int, seed: int = 11) -> dict:
    """Sources of about `size` bytes and drafts citing them (engine_bench's kinds of citation).

    Paragraphs are drawn from a pool of sentences (writing 1 GB sentence by sentence
    would take longer than indexing it); each starts with a label of its own, so every
    paragraph, and every quote taken from its first sentence, is unique. Only a sample
    of chunks is kept to cite, so memory stays small whatever the size."""
    rng = random.Random(seed)
    pool = [engine_bench.sentence(rng) for _ in range(50_000)]
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('drafts = ["drafts/*.md"]\n')
    keep = citations * 3
    sample: list[tuple[str, str, object]] = []  # a uniform sample of citable chunks (reservoir)
    seen = written = n = 0
    while written < size:
        ext = ".md" if n % 2 == 0 else ".txt"
        ident = f"sources/d{n // 1000:03d}/doc{n:06d}{ext}"
        paras = []
        for p in range(60):
            words = " ".join(rng.choices(pool, k=rng.randint(2, 8)))
            paras.append(engine_bench.wrap(f"Item {n}-{p} reads: {words}"))
        text = (f"# Document {n}\n\n" if ext == ".md" else "") + "\n\n".join(paras) + "\n"
        path = root / ident
        path.parent.mkdir(exist_ok=True)
        data = text.encode()
        path.write_bytes(data)
        written += len(data)
        version = hashlib.sha256(data).hexdigest()
        for ch in chunk_document(ident, text):
            if len(ch.text) <= 80 or "#" in ch.text:
                continue
            seen += 1
            if len(sample) < keep:
                sample.append((ident, version, ch))
            elif (j := rng.randrange(seen)) < keep:
                sample[j] = (ident, version, ch)
        n += 1
    kinds = write_drafts(root, rng, sample, citations)
    return {"sources": n, "source_bytes": written, "drafts": max(1, citations // 100), "citations": citations,
            "kinds": kinds}


def write_drafts(root: Path, rng: random.Random, sample: list, citations: int) -> dict[str, int]:
    """Drafts of 100 claims, one citation each: 70 % exact, the rest shifted offsets,
    near-miss quotes, unknown chunk ids and claims with a number the source lacks."""
    kinds = {"exact": 0, "shifted": 0, "near-miss": 0, "unknown": 0, "number": 0}
    per_draft = 100
    for d in range(max(1, citations // per_draft)):
        parts = [f"# Answer {d}\n"]
        for _ in range(per_draft):
            ident, version, ch = rng.choice(sample)
            flat = ch.text.replace("\n", " ")
            quote_src = flat.split(".")[0]
            start = 0
            quote = ch.text[start:start + len(quote_src)]
            parts.append(engine_bench.cite_case(rng, kinds, ch.chunk_id, start, quote, ident, version))
        (root / "drafts" / f"answer{d:03d}.md").write_text("\n".join(parts), encoding="utf-8")
    return kinds


# -- running cairn ----------------------------------------------------------------------


# Runs a command and writes its wait4() figures to the file named first. A child's
# peak memory starts at its parent's when forked, so `cairn` is started from this
# small interpreter, never from the benchmark's own (large) process.
LAUNCHER = """
import json, os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as f:
    json.dump([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss], f)
"""


class Run:
    """One `cairn` process: wall seconds, exit code, CPU seconds and peak resident
    memory (MB) of it and its worker processes (wait4 counts the children it
    reaped), its stdout and the end of its stderr."""

    def __init__(self, root: Path, args: list[str], env: dict[str, str]):
        with tempfile.TemporaryDirectory() as scratch:
            figures, errors = Path(scratch) / "usage.json", Path(scratch) / "stderr"
            t0 = time.perf_counter()
            with errors.open("wb") as err:
                proc = subprocess.run([sys.executable, "-c", LAUNCHER, str(figures), sys.executable, "-m", "cairn",
                                       *args], cwd=root, env={**os.environ, **env}, stdout=subprocess.PIPE,
                                      stderr=err)
            self.wall = time.perf_counter() - t0
            self.out = proc.stdout.decode()
            self.err = errors.read_text(errors="replace")[-2000:]
            self.code, self.cpu, rss = json.loads(figures.read_text()) if figures.exists() else (-1, 0.0, 0)
        self.rss_mb = rss / 1024


def cairn(root: Path, *args: str, env: dict[str, str]) -> Run:
    return Run(root, list(args), env)


class ServerCPU:
    """CPU seconds of a local PostgreSQL cluster (the postmaster, its live backends and
    the backends that have exited), read from /proc; None when it cannot be read."""

    def __init__(self, data_dir: Path | None):
        self.pid = None
        if data_dir is not None:
            try:
                self.pid = int((data_dir / "postmaster.pid").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                self.pid = None
        self.tick = os.sysconf("SC_CLK_TCK")

    def _fields(self, pid: int) -> list[str] | None:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None

    def now(self) -> float | None:
        if self.pid is None:
            return None
        main = self._fields(self.pid)
        if main is None:
            return None
        total = sum(int(x) for x in main[11:15])  # utime, stime, cutime, cstime
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                f = self._fields(int(entry))
                if f is not None and f[1] == str(self.pid):  # ppid: a backend or worker
                    total += int(f[11]) + int(f[12])
        return total / self.tick


# -- measuring a store -----------------------------------------------------------------------


def measure(name: str, root: Path, env: dict[str, str], reset: Callable[[], None], size: Callable[[], int],
            server: ServerCPU, mb: float, runs: int, workers: int) -> dict:
    def fresh() -> None:
        shutil.rmtree(root / ".cairn", ignore_errors=True)
        reset()

    fig: dict = {}
    for label, n in (("1", 1), ("n", workers)):
        fresh()
        s0 = server.now()
        r = cairn(root, "index", env={**env, "CAIRN_INDEX_WORKERS": str(n)})
        s1 = server.now()
        if r.code != 0:
            raise SystemExit(f"{name}: cairn index exited {r.code}: {r.err}")
        fig[f"index{label}_s"] = r.wall
        fig[f"index{label}_cpu"] = r.cpu
        fig[f"index{label}_server_cpu"] = (s1 - s0) if s0 is not None and s1 is not None else None
        fig[f"index{label}_rss_mb"] = r.rss_mb
    fresh()
    cold = cairn(root, "check", "--format", "json", env=env)
    if cold.code not in (0, 1):
        raise SystemExit(f"{name}: cairn check exited {cold.code}: {cold.err}")
    fig["cold_s"] = cold.wall
    fig["cold_rss_mb"] = cold.rss_mb
    fig["report"] = cold.out
    warm = [cairn(root, "check", "--format", "json", env=env) for _ in range(runs)]
    fig["warm_s"] = statistics.median(r.wall for r in warm)
    fig["warm_report"] = warm[-1].out
    fig["warm_rss_mb"] = max(r.rss_mb for r in warm)
    clone = root.with_name(root.name + "-clone")
    shutil.rmtree(clone, ignore_errors=True)
    shutil.copytree(root, clone, ignore=shutil.ignore_patterns(".cairn"))
    first = cairn(clone, "check", "--format", "json", env=env)
    fig["clone_first_s"] = first.wall
    fig["clone_report"] = first.out
    fig["clone_warm_s"] = statistics.median(cairn(clone, "check", "--format", "json", env=env).wall
                                            for _ in range(runs))
    shutil.rmtree(clone, ignore_errors=True)
    fig["size_mb"] = size() / 1e6

    def cpu_text(label: str) -> str:
        own, srv = fig[f"index{label}_cpu"], fig[f"index{label}_server_cpu"]
        total = own + (srv or 0.0)
        extra = f" + server {srv:.1f}" if srv is not None else ""
        return f"CPU {own:.1f} s{extra} = {mb / total:.1f} MB per CPU-second"

    i1, i_n = fig["index1_s"], fig["indexn_s"]
    print(f"\n{name}:", flush=True)
    print(f"  index, 1 process        {i1:8.2f} s  {mb / i1:6.1f} MB/s   ({cpu_text('1')})")
    print(f"  index, {workers} workers       {i_n:8.2f} s  {mb / i_n:6.1f} MB/s   ({cpu_text('n')});"
          f" speed-up x{i1 / i_n:.2f}")
    print(f"  cold check              {fig['cold_s']:8.2f} s")
    print(f"  warm check              {fig['warm_s']:8.2f} s   (median of {runs})")
    print(f"  second clone: first     {fig['clone_first_s']:8.2f} s,  warm {fig['clone_warm_s']:.2f} s")
    print(f"  peak memory             index {fig['index1_rss_mb']:.0f} MB"
          f" ({workers} workers: {fig['indexn_rss_mb']:.0f} MB), cold check {fig['cold_rss_mb']:.0f} MB,"
          f" warm check {fig['warm_rss_mb']:.0f} MB")
    print(f"  index size              {fig['size_mb']:8.1f} MB", flush=True)
    return fig


def same(a: str, b: str) -> bool:
    try:
        return json.loads(a) == json.loads(b)
    except ValueError:
        return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=parse_size, default=parse_size("1GB"), help="bytes of sources (1GB, 50MB)")
    ap.add_argument("--citations", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=3, help="warm checks per figure (the median is printed)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes for the parallel index")
    ap.add_argument("--url", help="a scratch PostgreSQL database instead of a throw-away server")
    ap.add_argument("--no-postgres", action="store_true")
    ap.add_argument("--tmp", type=Path, help="where the corpus is generated (needs about 3x --size free)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="cairn-scale-", dir=args.tmp))
    server = None
    try:
        root = tmp / "ws"
        t0 = time.perf_counter()
        info = generate(root, args.size, args.citations)
        mb = info["source_bytes"] / 1e6
        print(f"corpus: {info['sources']} sources, {mb:.1f} MB, {info['drafts']} drafts, {info['citations']}"
              f" citations {info['kinds']}; generated in {time.perf_counter() - t0:.0f} s; {os.cpu_count()} cores;"
              f" load average {os.getloadavg()[0]:.1f}", flush=True)
        db = root / ".cairn" / "index.db"

        def sqlite_size() -> int:
            return sum(p.stat().st_size for p in db.parent.glob("index.db*") if p.is_file())

        results = {"sqlite": measure("sqlite", root, {"CAIRN_STORE_URL": ""}, lambda: None, sqlite_size,
                                     ServerCPU(None), mb, args.runs, args.workers)}
        url, data_dir = args.url, None
        if url is None and not args.no_postgres:
            import pg_server

            try:
                server = pg_server.PostgresServer()
                url, data_dir = server.new_database(), server.data
            except pg_server.Unavailable as exc:
                print(f"\npostgresql: not measured ({exc})")
        if url and not args.no_postgres:
            import psycopg

            def reset() -> None:
                with psycopg.connect(url, autocommit=True) as c:
                    c.execute(f"DROP TABLE IF EXISTS {PG_TABLES} CASCADE")

            def pg_size() -> int:
                with psycopg.connect(url) as c:
                    return c.execute("SELECT pg_database_size(current_database())").fetchone()[0]

            results["postgresql"] = measure("postgresql", root, {"CAIRN_STORE_URL": url}, reset, pg_size,
                                            ServerCPU(data_dir), mb, args.runs, args.workers)
        base = results["sqlite"]
        print(f"\nsqlite: the warm report is the cold one: {same(base['warm_report'], base['report'])}")
        if "postgresql" in results:
            pg = results["postgresql"]
            print(f"postgresql against sqlite: same reports (cold, warm, second clone)"
                  f" {same(pg['report'], base['report'])}, {same(pg['warm_report'], base['report'])},"
                  f" {same(pg['clone_report'], base['report'])}")
            print(f"  second clone's warm check / sqlite's warm check: x{pg['clone_warm_s'] / base['warm_s']:.2f}"
                  " (target: at most x2)")
            print(f"  warm check x{pg['warm_s'] / base['warm_s']:.2f}, cold check x{pg['cold_s'] / base['cold_s']:.2f},"
                  f" index (1 process) x{pg['index1_s'] / base['index1_s']:.2f}")
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
