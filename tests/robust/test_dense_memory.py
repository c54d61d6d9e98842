"""Memory on dense inputs, through the real `cairn` process: sources of many
short lines, the source size limit, and drafts made of thousands of tiny blocks
(docs/security.md, "Bounds")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from robust_util import cairn_env, lsp_start, open_doc, run_cairn, server_pid, until

MB = 1024 * 1024


def peak_rss(cwd: Path, *args: str) -> tuple[int, subprocess.CompletedProcess]:
    """Run `cairn <args>` in a wrapper process whose only child it is; the child's
    peak resident set in bytes (RUSAGE_CHILDREN of the wrapper), and the result."""
    wrapper = (
        "import resource, subprocess, sys, json\n"
        "p = subprocess.run([sys.executable, '-m', 'cairn', *sys.argv[1:]], capture_output=True, text=True)\n"
        "print(json.dumps({'rss': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024,"
        " 'rc': p.returncode, 'out': p.stdout, 'err': p.stderr}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", wrapper, *args], cwd=cwd, capture_output=True, text=True,
                          env=cairn_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    return r["rss"], subprocess.CompletedProcess(args, r["rc"], r["out"], r["err"])


def _workspace(root: Path) -> Path:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text("", encoding="utf-8")
    return root


# --------------------------------------------------------------------------
# Sources


def test_a_source_of_many_short_lines_is_indexed_in_linear_memory(tmp_path: Path):
    """"a\\n" * N took about 117 bytes a character while indexing (the paragraph
    pattern kept a backtracking point per line); now a few bytes."""
    empty = _workspace(tmp_path / "empty")
    (empty / "sources" / "one.txt").write_text("a\n", encoding="utf-8")
    base, proc = peak_rss(empty, "index")
    assert proc.returncode == 0, proc.stderr
    ws = _workspace(tmp_path / "dense")
    size = 4 * MB
    (ws / "sources" / "lines.txt").write_text("a\n" * (size // 2), encoding="utf-8")
    rss, proc = peak_rss(ws, "index")
    assert proc.returncode == 0, proc.stderr
    assert "indexed 1 source(s)" in proc.stderr
    grown = rss - base
    assert grown < 8 * size + 40 * MB, f"indexing grew {grown / MB:.0f} MB for {size / MB:.0f} MB of text"


def test_a_source_over_the_size_limit_is_skipped_with_its_name_and_the_reason(tmp_path: Path):
    ws = _workspace(tmp_path / "ws")
    (ws / "sources" / "small.txt").write_text("A small source that is indexed.\n", encoding="utf-8")
    big = ws / "sources" / "huge.txt"
    with big.open("wb") as f:  # 64 MB and a bit of text: one character over the limit
        f.write(b"word " * (64 * MB // 5))
        f.write(b"more text")
    rss, proc = peak_rss(ws, "index")
    assert proc.returncode == 0, proc.stderr
    assert "warning: sources/huge.txt: skipped: its text is 64.0 MB, over the 64 MB limit" in proc.stderr
    assert "indexed 1 source(s), 0 unchanged, 0 removed, 1 skipped" in proc.stderr
    # refused before it is decoded: the 64 MB are read once, never held as text too
    assert rss < 64 * MB + 96 * MB, f"{rss / MB:.0f} MB"
    chunks = run_cairn(ws, "chunks")
    assert "sources/small.txt" in chunks.stdout and "huge" not in chunks.stdout


# --------------------------------------------------------------------------
# Drafts

PER_CHAR = 40  # docs/security.md: about 96 MB plus 40 bytes a character
FIXED = 96 * MB
CLAIM = (
    "\nA customer has 14 days to request a credit.\n\n```cite\n"
    "chunk_id: 0123456789abcdef\nstart: 0\nend: 42\nquote: A customer has 14 days to request a credit\n```\n"
)


def dense_draft(kind: str, size: int) -> str:
    """`size` characters of tiny blocks (list items, table rows or short paragraphs),
    then one claim with a cite block."""
    unit = {"list": "- item {i}\n", "table": "| a{i} | b |\n", "para": "w{i}.\n\n"}[kind]
    out = ["| x | y |\n| --- | --- |\n"] if kind == "table" else []
    n = i = 0
    while n < size:
        piece = unit.format(i=i)
        out.append(piece)
        n += len(piece)
        i += 1
    out.append(CLAIM)
    return "".join(out)


def test_dense_drafts_are_checked_within_the_documented_memory_bound(tmp_path: Path):
    """400,000 characters each of list items, table rows and short paragraphs: `cairn check`
    grows by at most 96 MB + 40 bytes a character over a check of a one-claim draft
    (it took 150-240 bytes a character: markdown-it's whole token stream and a tree
    of every block were held at once)."""
    ws = _workspace(tmp_path / "ws")
    (ws / "sources" / "policy.txt").write_text("A customer has 14 days to request a credit.\n", encoding="utf-8")
    draft = ws / "drafts" / "dense.md"
    draft.write_text(CLAIM, encoding="utf-8")
    base, proc = peak_rss(ws, "check", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    size = 400_000
    for kind in ("list", "table", "para"):
        text = dense_draft(kind, size)
        draft.write_text(text, encoding="utf-8")
        rss, proc = peak_rss(ws, "check", "--format", "json")
        assert proc.returncode in (0, 1), proc.stderr
        (d,) = json.loads(proc.stdout)["drafts"]
        assert len(d["claims"]) == 1
        grown = rss - base
        # with margin: half the documented bound
        assert grown < (FIXED + PER_CHAR * len(text)) / 2, f"{kind}: grew {grown / MB:.0f} MB for {len(text) / MB:.1f} MB"


def _vm_hwm(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmHWM for {pid}")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"]))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def test_the_server_checks_a_dense_draft_within_the_bound(client: LanguageClient, tmp_path: Path):
    """The same bound in the server: a draft of 400,000 characters of list items sent
    by an editor grows the server's peak resident set by under half of it."""
    ws = _workspace(tmp_path / "ws")
    (ws / "sources" / "policy.txt").write_text("A customer has 14 days to request a credit.\n", encoding="utf-8")
    draft = ws / "drafts" / "dense.md"
    draft.write_text(CLAIM, encoding="utf-8")
    await lsp_start(client, ws)
    pid = server_pid(client)
    u = open_doc(client, draft)
    await until(lambda: u in client.diagnostics, what="the small draft checked")
    base = _vm_hwm(pid)
    text = dense_draft("list", 400_000)
    client.diagnostics.pop(u)
    open_doc(client, ws / "drafts" / "other.md", text)
    other = u.replace("dense.md", "other.md")
    await until(lambda: other in client.diagnostics, what="the dense draft checked")
    grown = _vm_hwm(pid) - base
    assert grown < (FIXED + PER_CHAR * len(text)) / 2, f"grew {grown / MB:.0f} MB for {len(text) / MB:.1f} MB"
