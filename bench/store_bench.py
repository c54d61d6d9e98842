"""Store benchmark: the SQLite file against the shared PostgreSQL index.
Prints figures, asserts nothing.

    .venv/bin/python bench/store_bench.py [--mb 20] [--citations 10000] [--runs 3] [--before DIR] [--speedup]

Generates bench/engine_bench.py's corpus (sources and drafts with mixed
verdicts), then for each store: `cairn index` from empty (MB/s, peak memory),
a cold `cairn check` (an empty index: index and verify), warm checks (index
up to date), a second clone's first check (a copy of the workspace in another
folder: with PostgreSQL its sources are found already indexed) and its warm
check, and the size of the index; `--speedup`: indexing with one process against
indexing with a worker process a core. Every report must be the same JSON on both
stores; the script says whether it is.

`--before DIR`: a folder holding another Cairn's `server/` (say, an export of
the commit before the store was split: `git archive <commit> server | tar -x
-C DIR`); its SQLite figures are printed beside this tree's.

For the large corpus of issue 17 (1 GB, 20,000 citations, CPU seconds of the
server too), see bench/scale_bench.py.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import engine_bench  # noqa: E402 - the corpus generator beside this file


def cairn(root: Path, *args: str, env: dict[str, str]) -> tuple[float, int, int, str]:
    """Seconds, exit code, peak RSS (KiB) and stdout of one `cairn` process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cairn", *args], cwd=root, env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read().decode() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - t0, os.waitstatus_to_exitcode(status), usage.ru_maxrss, out


def fresh_index(root: Path, env: dict[str, str], reset) -> None:
    shutil.rmtree(root / ".cairn", ignore_errors=True)
    reset()


def measure(name: str, root: Path, env: dict[str, str], reset, size, mb: float, runs: int) -> dict:
    """The figures of one store (`reset` empties it; `size` gives its bytes)."""
    idx, cold, rss_cold, rss_index = [], [], [], []
    for _ in range(runs):
        fresh_index(root, env, reset)
        dt, code, rss, _ = cairn(root, "index", env=env)
        assert code == 0, f"{name}: cairn index exited {code}"
        idx.append(dt)
        rss_index.append(rss)
        fresh_index(root, env, reset)
        dt, code, rss, report = cairn(root, "check", "--format", "json", env=env)
        cold.append(dt)
        rss_cold.append(rss)
    warm = []
    for _ in range(runs):
        dt, code, _, report = cairn(root, "check", "--format", "json", env=env)
        warm.append(dt)
    clone = root.with_name(root.name + "-clone")
    shutil.rmtree(clone, ignore_errors=True)
    shutil.copytree(root, clone, ignore=shutil.ignore_patterns(".cairn"))
    first_clone, _, _, clone_report = cairn(clone, "check", "--format", "json", env=env)
    clone_warm = statistics.median(cairn(clone, "check", "--format", "json", env=env)[0] for _ in range(runs))
    db_bytes = size()
    shutil.rmtree(clone, ignore_errors=True)
    figures = {
        "index_s": statistics.median(idx), "index_mb_s": mb / statistics.median(idx),
        "index_rss_mb": max(rss_index) / 1024, "cold_check_s": statistics.median(cold),
        "cold_rss_mb": max(rss_cold) / 1024, "warm_check_s": statistics.median(warm),
        "second_clone_first_check_s": first_clone, "second_clone_warm_check_s": clone_warm,
        "index_size_mb": db_bytes / 1e6, "report": report, "clone_report": clone_report,
    }
    print(f"{name:>16}: index {figures['index_s']:.2f} s ({figures['index_mb_s']:.1f} MB/s,"
          f" {figures['index_rss_mb']:.0f} MB peak) | cold check {figures['cold_check_s']:.2f} s"
          f" ({figures['cold_rss_mb']:.0f} MB peak) | warm check {figures['warm_check_s']:.2f} s |"
          f" second clone: first check {first_clone:.2f} s, warm {clone_warm:.2f} s |"
          f" index {figures['index_size_mb']:.1f} MB", flush=True)
    return figures


def before_after(root: Path, before: dict[str, str], after: dict[str, str], mb: float, runs: int) -> None:
    """SQLite with another Cairn's code and with this one, run after run in turn (a busy
    machine slows both alike): index from empty, cold check, warm check."""
    got: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    reports = {}
    for _ in range(runs):
        for name, env in (("before", before), ("after", after)):
            fig = got[name]
            fresh_index(root, env, lambda: None)
            fig.setdefault("index", []).append(cairn(root, "index", env=env)[0])
            fresh_index(root, env, lambda: None)
            fig.setdefault("cold check", []).append(cairn(root, "check", "--format", "json", env=env)[0])
            dt, _, _, reports[name] = cairn(root, "check", "--format", "json", env=env)
            fig.setdefault("warm check", []).append(dt)
    parts = []
    for what in ("index", "cold check", "warm check"):
        b, a = statistics.median(got["before"][what]), statistics.median(got["after"][what])
        parts.append(f"{what} {b:.2f} -> {a:.2f} s (x{a / b:.2f})")
    print(f"sqlite before -> after, alternating runs: {'; '.join(parts)};"
          f" same reports {same_verdicts(reports['before'], reports['after'])}", flush=True)


def index_speedup(name: str, root: Path, env: dict[str, str], reset, mb: float, runs: int) -> None:
    """`cairn index` from empty with one process, then with a worker a core (cairn.parallel)."""
    got = {}
    for n in ("1", str(os.cpu_count() or 1)):
        times = []
        for _ in range(runs):
            fresh_index(root, env, reset)
            dt, code, _, _ = cairn(root, "index", env={**env, "CAIRN_INDEX_WORKERS": n})
            assert code == 0
            times.append(dt)
        got[n] = statistics.median(times)
    one, many = got.values()
    print(f"{name:>16}: index with 1 process {one:.2f} s ({mb / one:.1f} MB/s), with {os.cpu_count()} workers"
          f" {many:.2f} s ({mb / many:.1f} MB/s): speed-up x{one / many:.2f}", flush=True)


def same_verdicts(a: str, b: str) -> bool:
    return json.loads(a) == json.loads(b)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=20.0)
    ap.add_argument("--citations", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--before", type=Path, help="a folder holding another Cairn's server/ to compare SQLite with")
    ap.add_argument("--no-postgres", action="store_true")
    ap.add_argument("--speedup", action="store_true", help="also index with 1 process and with a worker a core")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="cairn-store-bench-"))
    root = tmp / "ws"
    info = engine_bench.generate(root, args.mb, args.citations)
    mb = info["source_bytes"] / 1e6
    print(f"corpus: {info['sources']} sources, {mb:.1f} MB, {info['drafts']} drafts, {info['citations']} citations;"
          f" medians of {args.runs} runs; {os.cpu_count()} cores", flush=True)
    sqlite_env = {"CAIRN_STORE_URL": ""}
    db = root / ".cairn" / "index.db"
    sqlite_size = lambda: db.stat().st_size if db.exists() else 0  # noqa: E731 - a one-line figure
    results = {}
    if args.before:
        before_after(root, {**sqlite_env, "PYTHONPATH": str((args.before / "server").resolve())}, sqlite_env, mb,
                     args.runs)
    results["sqlite"] = measure("sqlite", root, sqlite_env, lambda: None, sqlite_size, mb, args.runs)
    if args.speedup:
        index_speedup("sqlite", root, sqlite_env, lambda: None, mb, args.runs)
    server = None
    if not args.no_postgres:
        import psycopg

        import pg_server

        try:
            server = pg_server.PostgresServer()
        except pg_server.Unavailable as exc:
            print(f"postgresql: not measured ({exc})")
    try:
        if server is not None:
            url = server.new_database()

            def reset() -> None:
                with psycopg.connect(url, autocommit=True) as c:
                    c.execute("DROP TABLE IF EXISTS cairn_meta, cairn_versions, cairn_chunks, cairn_current,"
                              " cairn_source_errors, cairn_source_warnings, cairn_git_seen, cairn_kv_cache, cairn_purged,"
                              " cairn_version_dates CASCADE")

            def pg_size() -> int:
                with psycopg.connect(url) as c:
                    return c.execute("SELECT pg_database_size(current_database())").fetchone()[0]

            results["postgresql"] = measure("postgresql", root, {"CAIRN_STORE_URL": url}, reset, pg_size, mb,
                                            args.runs)
            if args.speedup:
                index_speedup("postgresql", root, {"CAIRN_STORE_URL": url}, reset, mb, args.runs)
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    base = results["sqlite"]
    for name, r in results.items():
        if name == "sqlite":
            continue
        same = same_verdicts(r["report"], base["report"]) and same_verdicts(r["clone_report"], base["report"])
        print(f"{name} against sqlite: same reports {same}; warm check x{r['warm_check_s'] / base['warm_check_s']:.2f},"
              f" second clone warm check x{r['second_clone_warm_check_s'] / base['warm_check_s']:.2f},"
              f" cold check x{r['cold_check_s'] / base['cold_check_s']:.2f},"
              f" indexing x{r['index_s'] / base['index_s']:.2f}")


if __name__ == "__main__":
    main()
