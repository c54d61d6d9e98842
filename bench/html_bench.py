"""HTML report benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/html_bench.py [--citations 10000] [--runs 5] [--mb 2]

Generates the engine benchmark's workspace (bench/engine_bench.py: drafts of
100 claims with mixed verdicts) with 10,000 claims, writes its report with
`cairn check --format html --output`, and opens that file in headless Chromium
(the system's, driven by Playwright; installed with apt-get when missing) in a
fresh page per run. Reports medians of: the page's size, the time to write
it, the time from navigation to the load event and to the first contentful
paint (the target: under 2 s to open), and the time the "failing only" filter
and a search take to update the page.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from engine_bench import generate  # noqa: E402 - after the path set-up above

from chromium_util import ensure_chromium, launch  # noqa: E402 - after the path set-up above


def write_report(root: Path, out: Path) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "cairn", "check", "--format", "html", "--output", str(out)],
                          cwd=root, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        sys.exit(f"cairn check failed ({proc.returncode}): {proc.stderr}")
    return dt


def _until(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError
        time.sleep(0.005)


def open_once(browser, url: str) -> dict[str, float]:
    page = browser.new_page()
    t0 = time.perf_counter()
    page.goto(url, wait_until="load", timeout=120_000)
    wall = time.perf_counter() - t0
    nav = page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])")
    paints = page.evaluate("JSON.stringify(performance.getEntriesByType('paint'))")
    import json

    nav, paints = json.loads(nav), json.loads(paints)
    fcp = next((p["startTime"] for p in paints if p["name"] == "first-contentful-paint"), float("nan"))
    count = page.locator("#f-count")
    before = count.inner_text()
    t1 = time.perf_counter()
    page.get_by_label("failing only").check()
    _until(lambda: count.inner_text() != before)
    failing = time.perf_counter() - t1
    shown_failing = count.inner_text()
    page.get_by_label("failing only").uncheck()
    _until(lambda: count.inner_text() != shown_failing)
    before = count.inner_text()
    t2 = time.perf_counter()
    page.get_by_label("search", exact=True).fill("within 999 days")
    _until(lambda: count.inner_text() != before)
    search = time.perf_counter() - t2  # includes the 120 ms the search waits for more typing
    page.close()
    return {"wall": wall, "dcl": nav["domContentLoadedEventEnd"] / 1000, "load": nav["loadEventEnd"] / 1000,
            "fcp": fcp / 1000, "failing": failing, "search": search}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--citations", type=int, default=10_000)
    ap.add_argument("--mb", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    path, why = ensure_chromium()
    if path is None:
        sys.exit(f"no browser: {why}")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="cairn-html-bench-") as tmp:
        root = Path(tmp) / "ws"
        info = generate(root, args.mb, args.citations)
        out = Path(tmp) / "report.html"
        cold = write_report(root, out)
        warm = [write_report(root, out) for _ in range(max(1, args.runs // 2))]
        size = out.stat().st_size
        with sync_playwright() as pw:
            browser = launch(pw, path)
            open_once(browser, out.as_uri())  # the browser's own start-up out of the figures
            runs = [open_once(browser, out.as_uri()) for _ in range(args.runs)]
            browser.close()
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    print(f"report of {info['citations']} claims in {info['drafts']} answers: {size / 1e6:.1f} MB of HTML")
    print(f"write (cairn check --format html --output): cold {cold:.2f} s, warm median {statistics.median(warm):.2f} s")
    print(f"open in Chromium {subprocess.run([path, '--version'], capture_output=True, text=True).stdout.strip()},"
          f" median of {args.runs}:")
    print(f"  navigation to load event      {med['load']:.3f} s   (target < 2 s)")
    print(f"  navigation to DOMContentLoaded {med['dcl']:.3f} s")
    print(f"  first contentful paint        {med['fcp']:.3f} s")
    print(f"  goto() wall time              {med['wall']:.3f} s")
    print(f"  'failing only' filter         {med['failing'] * 1000:.0f} ms")
    print(f"  search (with 120 ms debounce) {med['search'] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
