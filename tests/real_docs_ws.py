"""A workspace of real texts that ship on Debian machines (licences from
/usr/share/common-licenses, manuals and changelogs from /usr/share/doc), as
bench/data/retrieval/corpus.txt lists them: the retrieval set's corpus and the
corpus of tests/cli/test_retrieval_real.py. Importable (tests/ is on sys.path)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "bench" / "data" / "retrieval" / "corpus.txt"


def entries() -> list[tuple[str, Path]]:
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, path = line.partition(" <- ")
            out.append((name.strip(), Path(path.strip())))
    return out


def missing() -> list[Path]:
    """The corpus files this machine lacks (a test skips, naming them)."""
    return [p for _, p in entries() if not p.exists()]


def build(root: Path) -> Path:
    """Copy the corpus into `root` (a new workspace with a `cairn.toml` and `drafts/`)."""
    (root / "drafts").mkdir(parents=True)
    (root / "cairn.toml").write_text('drafts = ["drafts/*.md"]\n', encoding="utf-8")
    for name, path in entries():
        dest = root / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            shutil.copytree(path, dest)
        elif path.suffix == ".gz":
            dest.write_bytes(gzip.decompress(path.read_bytes()))
        else:
            shutil.copyfile(path, dest)
    return root
