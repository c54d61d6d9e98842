"""Hostile sources (issue point 2): binary files with a source extension,
invalid UTF-8, a zero-byte file, a 50 MB text file, a file over the size
limit, corrupt, truncated and encrypted PDFs, deeply nested HTML, HTML that
names local files, a FIFO and a file name that is not UTF-8. Each is skipped
or parsed with a clear message, and the other sources are indexed as usual:
the demo's verdicts do not change. Everything is generated in tmp.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import time
from pathlib import Path

import pytest

from robust_util import check_json, copy_tree, run_cairn

MB = 1024 * 1024
NEEDLE = "The needle sentence sits in the middle of the haystack."


def _pdf(text: str = "Encrypted credit policy text.", **encrypt) -> bytes:
    from fpdf import FPDF
    from pypdf import PdfReader, PdfWriter

    doc = FPDF()
    doc.add_page()
    doc.set_font("Helvetica", size=12)
    doc.cell(0, 10, text)
    plain = bytes(doc.output())
    if not encrypt:
        return plain
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(plain)))
    writer.encrypt(**encrypt)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _pdf_bomb(megabytes: int = 400) -> bytes:
    """A one-page PDF whose content stream inflates from 400 kB to 400 MB."""
    import zlib

    co = zlib.compressobj(9)
    block = b" " * (1 << 20)
    stream = b"".join(co.compress(block) for _ in range(megabytes))
    stream += co.compress(b"BT /F1 12 Tf 72 712 Td (Bomb text) Tj ET") + co.flush()
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, obj in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)


def _verdicts(report: dict) -> dict:
    return {d["path"]: [(c["line"], c["supported"], [x["code"] for x in c["diagnostics"]]) for c in d["claims"]]
            for d in report["drafts"]}


def _chunks(root: Path) -> list[dict]:
    proc = run_cairn(root, "chunks", "--json")
    assert proc.returncode == 0, proc.stderr
    # lines end at "\n" only: a chunk of a binary .txt may hold U+0085 or U+2028, which JSON leaves as they are
    return [json.loads(line) for line in proc.stdout.split("\n") if line]


@pytest.fixture
def clean_verdicts(demo_template, tmp_path) -> dict:
    # checked in a copy: the template stays without an index, as every test expects its copy
    _, report, _ = check_json(copy_tree(demo_template, tmp_path / "clean"))
    return _verdicts(report)


def test_hostile_sources_are_skipped_or_parsed_with_a_message(demo: Path, clean_verdicts):
    rng = random.Random(7)
    src = demo / "sources"
    (src / "binary.txt").write_bytes(bytes(rng.randrange(256) for _ in range(64 * 1024)))
    (src / "binary.md").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(rng.randrange(256) for _ in range(4096)))
    (src / "latin1.md").write_bytes("Crédit accordé après vérification.\n".encode("latin-1"))
    (src / "empty.md").write_bytes(b"")
    (src / "only-bom.txt").write_bytes(b"\xef\xbb\xbf")
    (src / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + bytes(rng.randrange(256) for _ in range(8192)))
    (src / "not-a.pdf").write_bytes(b"just some text, not a PDF at all\n")
    good_pdf = (demo / "sources" / "shipping.pdf").read_bytes()
    (src / "truncated.pdf").write_bytes(good_pdf[: len(good_pdf) // 2])
    (src / "encrypted.pdf").write_bytes(_pdf(user_password="secret", owner_password="owner"))
    (src / "bomb.pdf").write_bytes(_pdf_bomb())
    (src / "owner-only.pdf").write_bytes(_pdf("Owner locked but readable text.", user_password="",
                                             owner_password="owner"))
    depth = 20_000
    (src / "deep.html").write_bytes(b"<html><body><p>Before the deep part.</p>" + b"<div>" * depth +
                                    b"Deep inside the tree." + b"</div>" * depth + b"<p>After it.</p></body></html>")
    (src / "unclosed.html").write_bytes(b"<p>" + b"<b><i><span>" * 300 + b"Never closed text.")
    (src / "entities.html").write_bytes(
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">'
        b'<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        b'<html><body><p>Entity &e; and &b;.</p><iframe src="file:///etc/passwd"></iframe>'
        b'<img src="file:///etc/hostname"><p>Visible paragraph.</p></body></html>')
    os.mkfifo(src / "fifo.txt")  # reading it would block forever
    (src / "dir.md").mkdir()  # a folder with a source's suffix
    (src / "dir.md" / "inner.txt").write_text("Inner text in a folder named like a file.\n", encoding="utf-8")
    with open(src / "over-limit.txt", "wb") as f:  # sparse: no disk space used
        f.truncate(300 * MB)

    t0 = time.monotonic()
    proc = run_cairn(demo, "index", timeout=120)
    elapsed = time.monotonic() - t0
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    err = proc.stderr
    for name, message in [
        ("corrupt.pdf", "cannot read PDF"),
        ("not-a.pdf", "cannot read PDF"),
        ("truncated.pdf", "PDF"),
        ("encrypted.pdf", "encrypted PDF"),
        ("bomb.pdf", "Limit reached while decompressing"),
        ("over-limit.txt", "larger than 256 MB"),
    ]:
        line = [ln for ln in err.splitlines() if f"sources/{name}:" in ln]
        assert line and message in line[0] and "skipped" in line[0], (name, err)
    assert "sources/latin1.md: not valid UTF-8" in err
    # a file's bytes decide whether it is text, whatever its extension (SPEC section 2)
    for name in ("binary.txt", "binary.md"):
        assert f"sources/{name}: skipped: binary (NUL bytes)" in err, err
    assert "sources/deep.html: HTML nested 2048 levels deep: the parser stops" in err
    assert "sources/fifo.txt: skipped: not a regular file" in err
    assert elapsed < 60

    chunks = _chunks(demo)
    by_source: dict[str, list[str]] = {}
    for ch in chunks:
        by_source.setdefault(ch["source"], []).append(ch["text"])
    text_of = {k: "\n".join(v) for k, v in by_source.items()}
    assert "Crédit accordé" not in text_of["sources/latin1.md"] and "\ufffd" in text_of["sources/latin1.md"]
    assert "Owner locked but readable text." in text_of["sources/owner-only.pdf"]
    assert "Before the deep part." in text_of["sources/deep.html"]  # what the parser read is kept
    assert "Visible paragraph." in text_of["sources/entities.html"]
    assert "Never closed text." in text_of["sources/unclosed.html"]
    assert "Inner text" in text_of["sources/dir.md/inner.txt"]
    everything = "\n".join(ch["text"] for ch in chunks)
    assert "root:" not in everything and "/bin/" not in everything  # no entity or file was fetched
    for skipped in ("corrupt.pdf", "encrypted.pdf", "over-limit.txt", "fifo.txt", "empty.md", "bomb.pdf",
                    "binary.txt", "binary.md"):
        assert f"sources/{skipped}" not in by_source
    # the demo's own sources are indexed as usual: the same verdicts as a clean workspace
    _, report, stderr = check_json(demo)
    assert _verdicts(report) == clean_verdicts
    # and a second run reads nothing again and says the same
    again = run_cairn(demo, "index")
    assert "indexed 0 source(s)" in again.stderr


def test_file_names_that_are_not_utf8(demo: Path, clean_verdicts):
    """A git repository can hold any bytes as a file name: a source so named is skipped with a
    message (it crashed every command), a draft so named is reported under a readable name."""
    src = os.fsencode(demo / "sources")
    with open(os.path.join(src, b"name-\xff\xfe.md"), "wb") as f:
        f.write(b"A source whose name is not UTF-8.\n")
    draft = os.path.join(os.fsencode(demo / "drafts"), b"answer-\xe9.md")
    with open(draft, "wb") as f:
        f.write((demo / "drafts" / "credits-answer.md").read_bytes())
    for fmt in ("json", "sarif", "text"):
        proc = run_cairn(demo, "check", "--format", fmt)
        assert proc.returncode == 1, proc.stderr
        assert "Traceback" not in proc.stderr
        assert "sources/name-\ufffd\ufffd.md: skipped: the file name is not valid UTF-8" in proc.stderr
    report = json.loads(run_cairn(demo, "check", "--format", "json").stdout)
    verdicts = _verdicts(report)
    assert verdicts.pop("drafts/answer-\ufffd.md") == clean_verdicts["drafts/credits-answer.md"]
    assert verdicts == clean_verdicts
    json.loads(run_cairn(demo, "check", "--format", "sarif").stdout.encode("utf-8"))


def test_a_50_megabyte_source(demo: Path, clean_verdicts):
    rng = random.Random(11)
    words = "credit customer delivery damaged refund window days photo order policy team review".split()
    pool = [" ".join(rng.choice(words) for _ in range(rng.randrange(10, 400))) + ".\n\n" for _ in range(3000)]
    needle = NEEDLE
    big = demo / "sources" / "huge.txt"
    with big.open("w", encoding="utf-8") as f:
        size = 0
        while size < 50 * MB:
            p = rng.choice(pool)
            f.write(p)
            size += len(p)
            if needle and size > 25 * MB:
                f.write(needle + "\n\n")
                needle = ""
    # one 5 MB line without any white space: cut hard at chunk_chars
    (demo / "sources" / "one-line.txt").write_text("x" * (5 * MB), encoding="utf-8")
    t0 = time.monotonic()
    proc = run_cairn(demo, "index", timeout=180)
    assert proc.returncode == 0, proc.stderr
    assert "warning" not in proc.stderr and " 0 skipped" in proc.stderr
    assert time.monotonic() - t0 < 90
    _, report, _ = check_json(demo)
    assert _verdicts(report) == clean_verdicts
    n = {"chunk_id": hashlib.sha256(b"sources/huge.txt\n" + NEEDLE.encode()).hexdigest()[:16], "text": NEEDLE}
    # a draft citing the needle in the 50 MB source verifies
    (demo / "drafts" / "needle.md").write_text(
        "The needle sentence sits in the middle of the haystack.\n\n```cite\n"
        f"chunk_id: {n['chunk_id']}\nstart: 0\nend: {len(n['text'])}\nquote: \"{n['text']}\"\n```\n",
        encoding="utf-8")
    _, report, _ = check_json(demo, "drafts/needle.md")
    assert report["drafts"][0]["claims"][0]["supported"] is True
