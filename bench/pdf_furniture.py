"""PDF furniture on real PDFs (those Debian ships under /usr/share/doc, or the paths
given): per file, the pages, the lines left out as running headers, footers and page
numbers, and how many chunks carried such a line before and after. Prints figures."""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import pypdf

from cairn.core import chunking
from cairn.sources import parse_bytes
from cairn.sources.pdf import strip_furniture


def main(paths: list[Path]) -> None:
    print(f"{'file':40} {'pages':>5} {'left out':>8} {'chunks':>7} {'with furniture before':>22} {'after':>6}"
          f" {'parse ms':>9}")
    for path in paths:
        data = path.read_bytes()
        raw = [(p.extract_text() or "").replace("\f", " ") for p in pypdf.PdfReader(path).pages]
        kept, dropped = strip_furniture(raw)
        removed: Counter[str] = Counter()
        for a, b in zip(raw, kept):
            removed.update(Counter(a.split("\n")) - Counter(b.split("\n")))
        before = chunking.chunk_document(path.name, "\f".join(raw), None)
        times = []
        for _ in range(3):
            t = time.perf_counter()
            doc = parse_bytes(path.name, data)
            times.append(time.perf_counter() - t)
        after = chunking.chunk_document(path.name, doc.text, doc.pages)

        def carrying(chunks) -> int:
            return sum(1 for c in chunks if set(c.text.split("\n")) & set(removed))

        print(f"{path.name[:40]:40} {len(raw):5} {dropped:8} {len(after):7} {carrying(before):22}"
              f" {carrying(after):6} {statistics.median(times) * 1000:9.1f}")
        shapes = Counter(" ".join(line.split()) for line in removed.elements())
        print("    left out, e.g.:", "; ".join(f"{s!r}" for s, _ in shapes.most_common(3)))


if __name__ == "__main__":
    given = [Path(p) for p in sys.argv[1:]] or sorted(Path("/usr/share/doc").rglob("*.pdf"))
    main(given)
