"""Readings kept between runs (cairn.reading.kept), through the real `cairn check`:
a second check of the same texts, in a new clone, reads them from the user's
cache without the parser (spaCy is made unimportable for it), with the same
verdicts; a row Cairn did not write is never used; a reading survives its
encoding unchanged."""

from __future__ import annotations

import json
import sqlite3
import sys
import zlib
from pathlib import Path

import pytest

from cairn.reading import kept
from cairn.reading.read import available, read

from cairn_testing import run_cairn

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures" / "reading"))
from make_reading import build  # the fixture builder lives beside its data

pytestmark = pytest.mark.skipif(not available()[0], reason=f"the sentence reader is off: {available()[1]}")

# codes only the sentence reader's rules give
READER_CODES = {"relation-mismatch", "context-limits"}


def _check(ws: Path, cache: Path, *, parser: bool) -> dict[str, tuple[list[str], bool]]:
    env = {"XDG_CACHE_HOME": str(cache)}
    if not parser:
        shim = ws.parent / "no-spacy"
        shim.mkdir(exist_ok=True)
        (shim / "spacy.py").write_text("raise ImportError('spaCy hidden by the test')\n")
        env["PYTHONPATH"] = str(shim)
    proc = run_cairn(ws, "check", "--format", "json", env=env)
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    return {c["text"]: ([d["code"] for d in c["diagnostics"]], c["supported"])
            for d in report["drafts"] for c in d["claims"]}


def _reader_codes(got: dict[str, tuple[list[str], bool]]) -> set[str]:
    return {code for codes, _ in got.values() for code in codes} & READER_CODES


def test_a_second_clone_reads_the_kept_readings_without_the_parser(tmp_path):
    cache = tmp_path / "cache"
    first = _check(build(tmp_path / "one" / "ws"), cache, parser=True)
    assert _reader_codes(first) == READER_CODES  # the fixture has cases of both
    db = cache / "cairn" / kept.FOLDER / kept.FILE
    rows = sqlite3.connect(db).execute("SELECT count(*) FROM readings").fetchone()[0]
    assert rows >= len(first)
    again = _check(build(tmp_path / "two" / "ws"), cache, parser=False)
    assert again == first
    # without the kept readings, the same run has no reader: its codes are gone
    bare = _check(build(tmp_path / "three" / "ws"), tmp_path / "empty-cache", parser=False)
    assert _reader_codes(bare) == set()


def test_a_row_cairn_did_not_write_is_not_used(tmp_path):
    cache = tmp_path / "cache"
    _check(build(tmp_path / "one" / "ws"), cache, parser=True)
    db = sqlite3.connect(cache / "cairn" / kept.FOLDER / kept.FILE)
    # each body written again by someone else: the same reading of the same text, other bytes,
    # so that only its MAC tells it from Cairn's own
    rows = db.execute("SELECT key, body FROM readings").fetchall()
    with db:
        for key, body in rows:
            again = zlib.compress(json.dumps(json.loads(zlib.decompress(body)), indent=1).encode(), 1)
            assert kept.decode(again) == kept.decode(body) and again != body
            db.execute("UPDATE readings SET body = ? WHERE key = ?", (again, key))
    db.close()
    got = _check(build(tmp_path / "two" / "ws"), cache, parser=False)
    assert _reader_codes(got) == set()


@pytest.mark.parametrize("text", [
    "Child Benefit is £25.60 a week for the eldest or only child and £16.95 for each additional child.",
    "Pupils with 100% attendance over the year receive a certificate, unless they opted out.",
    "Benefit must not be paid weekly; it can be paid monthly.",
    "Über 90 µL were added by Dr. Smith in Vienna on 13 Oct 2022.",
])
def test_a_reading_survives_its_encoding(text):
    r = read(text)
    assert r is not None
    assert kept.decode(kept.encode(r)) == r
