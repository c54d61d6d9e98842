"""Trust boundaries, round two (issue 45), findings 10, 15 and 16: work bounded by the
input's structure, not only its size. Each test drives the real CLI on a workspace made
here and names its finding (docs/security.md, "Round two: bounded work")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zlib
from pathlib import Path

from robust_util import cairn_env, run_cairn

GIT_ENV = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.invalid", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@example.invalid", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}
STALE = (
    "# Draft\n\nRefunds are accepted within 30 days.\n\n```cite\nchunk_id: 0123456789abcdef\n"
    'start: 0\nend: 7\nquote: "Refunds"\nsource: sources/policy.md\n```\n'
)


def workspace(root: Path) -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text("", encoding="utf-8")
    return root


def _data(b: bytes) -> bytes:
    return b"data %d\n" % len(b) + b + b"\n"


def many_entries_repository(root: Path, entries: int, commits: int) -> Path:
    """A repository whose old commits hold `entries` images under the source root, one of
    them changed by each of `commits` commits (so no two trees are the same), all removed
    at HEAD: only the policy is a source now."""
    workspace(root)
    subprocess.run(["git", "init", "-q", str(root)], check=True, env={**os.environ, **GIT_ENV})
    out = [b"blob\nmark :1\n" + _data(b"png"), b"blob\nmark :2\n" + _data(b"# Policy\n\nRefunds within 14 days.\n")]
    for c in range(commits + 1):
        out.append(b"commit HEAD\ncommitter a <a@example.invalid> %d +0000\n" % (1_700_000_000 + c) + _data(b"c"))
        if c == 0:
            out.append(b"M 100644 :2 sources/policy.md\n")
            out.append(b"".join(b"M 100644 :1 sources/assets/f%d.png\n" % i for i in range(entries)))
        elif c < commits:
            out.append(b"M 100644 inline sources/assets/f0.png\n" + _data(str(c).encode()))
        else:
            out.append(b"D sources/assets\n")
    branch = subprocess.run(["git", "-C", str(root), "symbolic-ref", "HEAD"], check=True, capture_output=True,
                            text=True, env={**os.environ, **GIT_ENV}).stdout.strip()
    data = b"".join(out).replace(b"commit HEAD\n", b"commit " + branch.encode() + b"\n")
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input=data, check=True,
                   env={**os.environ, **GIT_ENV})
    subprocess.run(["git", "-C", str(root), "checkout", "-q", "-f"], check=True, env={**os.environ, **GIT_ENV})
    (root / "drafts" / "stale.md").write_text(STALE, encoding="utf-8")
    return root


def cairn_with(root: Path, setting: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The real `cairn` command line, in its own process, with one of its module constants
    lowered first (`module.NAME = value`): a bound the test can reach with a small input."""
    module, _, assignment = setting.partition(":")
    code = (f"import sys, {module} as m; m.{assignment}; from cairn.cli.main import main; "
            "sys.argv[0] = 'cairn'; main()")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=root, capture_output=True, text=True,
                          env=cairn_env(), timeout=timeout)


# --------------------------------------------------------------------------
# Finding 10: a history search is bounded by the entries it lists and by time


def test_a_history_search_stops_at_its_entry_bound_and_says_so(tmp_path: Path):
    """Finding 10: 3,000 images in each of 40 old commits (120,000 tree entries in all, none a
    source). The search for an unknown chunk id lists at most MAX_ENTRIES of them (lowered
    to 5,000 here), and both the warning and the `unknown-chunk` message say the history
    search was cut short and why. Before, every entry of every commit was listed."""
    root = many_entries_repository(tmp_path / "ws", entries=3000, commits=40)
    began = time.monotonic()
    proc = cairn_with(root, "cairn.index.history:MAX_ENTRIES = 5000", "check", "--format", "json")
    took = time.monotonic() - began
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "git history search for chunk 0123456789abcdef was cut short" in proc.stderr, proc.stderr
    assert "5,000 tree entries" in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    diags = [d for draft in report["drafts"] for c in draft["claims"] for d in c["diagnostics"]]
    unknown = [d for d in diags if d["code"] == "unknown-chunk"]
    assert unknown and "history search was cut short" in unknown[0]["message"], diags
    assert took < 30, took


def index(root: Path, timeout: float = 120) -> tuple[subprocess.CompletedProcess, float]:
    began = time.monotonic()
    proc = run_cairn(root, "index", timeout=timeout)
    took = time.monotonic() - began
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc, took


# --------------------------------------------------------------------------
# Finding 15: HTML bounded in attributes per element and elements per page


def test_html_over_its_attribute_and_element_bounds_is_skipped_unparsed(tmp_path: Path):
    """Finding 15: a page whose one element has 60,000 attributes (libxml2 compares each with
    those before it: seconds here, half a minute at 150,000) and a page of 500,000 `<p>x</p>`
    (a node each: hundreds of megabytes) are skipped before lxml parses them, each with its
    reason; a page within the bounds beside them is indexed."""
    root = workspace(tmp_path / "ws")
    attrs = b" ".join(b'a%d="1"' % i for i in range(60_000))
    (root / "sources" / "attributes.html").write_bytes(b"<html><body><p " + attrs + b">x</p></body></html>")
    (root / "sources" / "elements.html").write_bytes(b"<p>x</p>" * 500_000)
    (root / "sources" / "plain.html").write_bytes(b'<p title="a > b">Refunds within 14 days.</p>')
    proc, took = index(root)
    assert "attributes.html: skipped: HTML element with over 1,000 attributes" in proc.stderr, proc.stderr
    assert "elements.html: skipped: HTML with over 400,000 elements" in proc.stderr, proc.stderr
    assert "indexed 1 source(s)" in proc.stdout + proc.stderr, proc.stderr
    assert took < 10, took


# --------------------------------------------------------------------------
# Finding 16: PDF bounded in the content operators it runs


def shared_stream_pdf(pages: int, operators: int) -> bytes:
    """A PDF written by hand: `pages` pages that all draw one Flate content stream of
    `operators` no-op operators (`q` / `Q` pairs) and one line of text."""
    content = b"q\nQ\n" * (operators // 2) + b"BT /F1 12 Tf 72 720 Td (Refunds within 14 days.) Tj ET\n"
    packed = zlib.compress(content, 9)
    kids = " ".join(f"{5 + i} 0 R" for i in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(packed) + packed + b"\nendstream",
    ]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
                b" /Resources << /Font << /F1 3 0 R >> >> >>"] * pages
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_a_small_pdf_whose_pages_share_a_long_content_stream_is_skipped(tmp_path: Path):
    """Finding 16: a PDF of a few kilobytes whose 20 pages share one content stream of 60,000
    no-op operators (1.2 million for pypdf to run: over ten seconds) is skipped, naming the
    operator bound; one page of the same stream, within the bounds, is indexed."""
    root = workspace(tmp_path / "ws")
    shared = shared_stream_pdf(pages=20, operators=60_000)
    assert len(shared) < 10_000
    (root / "sources" / "shared.pdf").write_bytes(shared)
    (root / "sources" / "single.pdf").write_bytes(shared_stream_pdf(pages=1, operators=2_000))
    proc, took = index(root)
    assert "shared.pdf: skipped: PDF pages 1 to" in proc.stderr, proc.stderr
    assert "content operators, over the bound of 1,000,000 for a document" in proc.stderr, proc.stderr
    assert "indexed 1 source(s)" in proc.stdout + proc.stderr, proc.stderr
    assert took < 10, took
