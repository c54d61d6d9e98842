"""Memory benchmark: prints figures, asserts nothing (tests/robust/test_dense_memory.py holds the bounds).

    .venv/bin/python bench/memory_bench.py [--mb 2] [--source-mb 20]

Generates, in a temporary folder, drafts made of `--mb` MB of tiny blocks (list
items, table rows, short paragraphs; one claim at the end) and a source of
`--source-mb` MB of two-character lines ("a\\n" * N). For each it runs the real
`cairn check` / `cairn index` and prints the peak resident set (the child's
max RSS), its growth over the same command on a tiny input, bytes a character
of growth, and CPU seconds. docs/security.md promises drafts within about
96 MB + 40 bytes a character of growth.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

MB = 1024 * 1024
CLAIM = (
    "\nA customer has 14 days to request a credit.\n\n```cite\n"
    "chunk_id: 0123456789abcdef\nstart: 0\nend: 42\nquote: A customer has 14 days to request a credit\n```\n"
)
UNITS = {"list items": "- item {i}\n", "table rows": "| a{i} | b |\n", "short paragraphs": "w{i}.\n\n"}

WRAPPER = (
    "import json, resource, subprocess, sys\n"
    "p = subprocess.run([sys.executable, '-m', 'cairn', *sys.argv[1:]], capture_output=True)\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(json.dumps({'rss': u.ru_maxrss * 1024, 'cpu': u.ru_utime + u.ru_stime, 'rc': p.returncode}))\n"
)


def run(cwd: Path, *args: str) -> dict:
    out = subprocess.run([sys.executable, "-c", WRAPPER, *args], cwd=cwd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def dense(unit: str, size: int) -> str:
    out = ["| x | y |\n| --- | --- |\n"] if unit.startswith("|") else []
    n = i = 0
    while n < size:
        piece = unit.format(i=i)
        out.append(piece)
        n += len(piece)
        i += 1
    out.append(CLAIM)
    return "".join(out)


def workspace(root: Path) -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text("", encoding="utf-8")
    (root / "sources" / "policy.txt").write_text("A customer has 14 days to request a credit.\n", encoding="utf-8")
    return root


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=2.0, help="size of each dense draft")
    ap.add_argument("--source-mb", type=float, default=20.0, help="size of the source of short lines")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = workspace(Path(tmp) / "ws")
        draft = ws / "drafts" / "dense.md"
        draft.write_text(CLAIM, encoding="utf-8")
        base = run(ws, "check", "--format", "json")
        print(f"cairn check, one claim: peak RSS {base['rss'] / MB:.0f} MB")
        for name, unit in UNITS.items():
            text = dense(unit, int(a.mb * MB))
            draft.write_text(text, encoding="utf-8")
            r = run(ws, "check", "--format", "json")
            grown = r["rss"] - base["rss"]
            print(f"cairn check, {len(text) / MB:.1f} MB of {name}: peak RSS {r['rss'] / MB:.0f} MB,"
                  f" growth {grown / MB:.0f} MB ({grown / len(text):.0f} bytes a character;"
                  f" bound {96 + 40 * len(text) / MB:.0f} MB), {r['cpu']:.1f} s CPU")
        draft.unlink()
        src = ws / "sources" / "lines.txt"
        base = run(ws, "index")
        n = int(a.source_mb * MB)
        src.write_text("a\n" * (n // 2), encoding="utf-8")
        r = run(ws, "index")
        grown = r["rss"] - base["rss"]
        print(f"cairn index, {n / MB:.0f} MB of \"a\\n\": peak RSS {r['rss'] / MB:.0f} MB,"
              f" growth {grown / MB:.0f} MB ({grown / n:.1f} bytes a character), {r['cpu']:.1f} s CPU")


if __name__ == "__main__":
    main()
