"""An audit of sources and the index, through the real `cairn` command: the cut of a long
paragraph at a sentence end on the limit, `.md`/`.txt` read whatever their bytes, every
skipped entry under a source root named with its reason, HTML text a browser does not show
left out, and index rows changed behind Cairn's back noticed and replaced (SPEC sections 2, 6)."""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path

from cairn_testing import check_json, run_cairn


def _workspace(tmp_path: Path, toml: str = "") -> Path:
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text(toml, encoding="utf-8")
    return root


def _chunks(root: Path, *names: str) -> list[dict]:
    proc = run_cairn(root, "chunks", "--json", *names)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def _draft(root: Path, claim: str, chunk: dict, quote: str, name: str = "a.md") -> str:
    start = chunk["text"].index(quote)
    (root / "drafts" / name).write_text(
        f"# A draft\n\n{claim}\n\n```cite\nchunk_id: {chunk['chunk_id']}\nstart: {start}\n"
        f"end: {start + len(quote)}\nquote: {json.dumps(quote)}\n```\n", encoding="utf-8")
    return f"drafts/{name}"


def _verdicts(report: dict) -> dict:
    return {d["path"]: [(c["supported"], [x["code"] for x in c["diagnostics"]]) for c in d["claims"]]
            for d in report["drafts"]}


# -- 1. a sentence end on the limit --------------------------------------------------


def test_a_long_paragraph_is_cut_after_a_sentence_end_that_is_the_limits_last_character(tmp_path: Path):
    root = _workspace(tmp_path, "chunk_chars = 40\n")
    (root / "sources" / "s.md").write_text("Aaa. " + "B" * 34 + ". ccc ddd eee fff ggg.\n", encoding="utf-8")
    rows = _chunks(root)
    assert [(r["start"], r["end"], r["text"]) for r in rows] == [
        (0, 40, "Aaa. " + "B" * 34 + "."),  # exactly 40 characters: within the limit
        (41, 61, "ccc ddd eee fff ggg."),
    ]


# -- 2. a file's bytes decide whether it is text, whatever its extension (SPEC section 2) --


def test_md_and_txt_with_nul_bytes_or_utf16_are_skipped_with_their_reason(tmp_path: Path):
    root = _workspace(tmp_path)
    src = root / "sources"
    (src / "nul.md").write_bytes(b"Before the byte \x00 and after it.\n\nThe refund window is fourteen days.\n")
    (src / "wide.txt").write_bytes("Wide text.\n".encode("utf-16"))  # a BOM FF FE, then NULs
    (src / "BLOB").write_bytes(b"\x7fELF\x00\x00\x01" * 50)  # without an extension: read only when text
    (src / "ok.md").write_bytes(b"The refund window is fourteen days.\n")
    proc = run_cairn(root, "index")
    assert proc.returncode == 0, proc.stderr
    assert "indexed 1 source(s)" in proc.stderr
    for name in ("nul.md", "wide.txt", "BLOB"):
        assert f"sources/{name}: skipped: binary (NUL bytes)" in proc.stderr, proc.stderr
    assert {r["source"] for r in _chunks(root)} == {"sources/ok.md"}


# -- 3. every skipped entry under a root is named, with its reason -----------------------


def test_index_names_hidden_entries_skipped_folders_folder_links_and_special_files(tmp_path: Path):
    root = _workspace(tmp_path)
    src = root / "sources"
    (src / "a.md").write_text("A source.\n", encoding="utf-8")
    (src / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    (src / ".notes.md").write_text("Hidden notes.\n", encoding="utf-8")
    (src / ".git").mkdir()
    (src / ".git" / "HEAD.md").write_text("ref\n", encoding="utf-8")
    (src / "node_modules" / "pkg").mkdir(parents=True)
    for i in range(3):
        (src / "node_modules" / "pkg" / f"r{i}.md").write_text("A readme.\n", encoding="utf-8")
    (src / "__pycache__").mkdir()
    (src / "__pycache__" / "x.txt").write_text("cache\n", encoding="utf-8")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.md").write_text("Not a source.\n", encoding="utf-8")
    (src / "etc").symlink_to(outside, target_is_directory=True)
    (src / "sub").mkdir()
    (src / "sub" / "b.md").write_text("Another source.\n", encoding="utf-8")
    (src / "alias").symlink_to(src / "sub", target_is_directory=True)
    os.mkfifo(src / "x.md")

    proc = run_cairn(root, "index", timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()

    def line(name: str) -> str:
        (found,) = [ln for ln in lines if f" sources/{name}: " in ln]
        return found

    assert "skipped: a hidden file" in line(".DS_Store") and "skipped: a hidden file" in line(".notes.md")
    assert "skipped: a hidden folder" in line(".git")
    assert "skipped: a node_modules folder" in line("node_modules")
    assert "skipped: a __pycache__ folder" in line("__pycache__")
    assert "skipped: a folder link that leaves the source roots" in line("etc")
    assert "skipped: a link to a folder within the source roots: not followed" in line("alias")
    assert "skipped: not a regular file" in line("x.md") and "leaves the source roots" not in line("x.md")
    # a skipped folder is named once, not each file in it
    assert not [ln for ln in lines if "node_modules/" in ln or ".git/" in ln or "etc/" in ln]
    assert "indexed 2 source(s), 0 unchanged, 0 removed, 8 skipped" in proc.stderr
    assert {r["source"] for r in _chunks(root)} == {"sources/a.md", "sources/sub/b.md"}

    # the other commands count what they skipped, leaving out what is passed over as a matter
    # of course (hidden entries, node_modules/, __pycache__/, a link within the roots)
    check = run_cairn(root, "check")
    assert "note: 2 file(s) under the source roots are not sources and were skipped" in check.stderr


# -- 4. HTML text a browser does not show ----------------------------------------------


def test_html_text_that_is_not_shown_is_not_indexed(tmp_path: Path):
    root = _workspace(tmp_path)
    (root / "sources" / "page.html").write_text(
        "<html><body><p>Shown first.</p><p hidden>HIDDENTEXT</p>"
        "<div style='color: red; display: none'>NOSHOW<p>NESTED</p></div>"
        "<p>Shown <span style='visibility:hidden'>INVISIBLE</span>again.</p>"
        "<p aria-hidden='true'>Shown to the eye.</p><section hidden><p>GONE</p></section>"
        "<p style='display: block'>Shown last.</p></body></html>", encoding="utf-8")
    rows = _chunks(root)
    text = "\n".join(r["text"] for r in rows)
    for word in ("HIDDENTEXT", "NOSHOW", "NESTED", "INVISIBLE", "GONE"):
        assert word not in text
    assert [r["text"] for r in rows] == ["Shown first.", "Shown again.", "Shown to the eye.", "Shown last."]
    assert rows[0]["lineage"].startswith("html-lxml/2+")  # re-indexed: the parser's output changed


# -- 5. index rows changed behind Cairn's back -----------------------------------------


def _tampered_workspace(tmp_path: Path) -> tuple[Path, dict, str]:
    root = _workspace(tmp_path)
    (root / "sources" / "s.md").write_text(
        "The refund window is fourteen days.\n\nAnother paragraph stays as it is.\n", encoding="utf-8")
    chunk = _chunks(root)[0]
    draft = _draft(root, "Refunds can be asked for within fourteen days.", chunk,
                   "The refund window is fourteen days.")
    code, report = check_json(root)
    assert code == 0 and _verdicts(report)[draft] == [(True, [])]
    return root, chunk, draft


def _sql(root: Path, *statements: str) -> None:
    with closing(sqlite3.connect(root / ".cairn" / "index.db")) as conn:
        for st in statements:
            conn.execute(st)
        conn.commit()


def test_a_chunk_row_changed_in_the_index_is_read_again_from_the_file(tmp_path: Path):
    root, chunk, draft = _tampered_workspace(tmp_path)
    _sql(root, f"UPDATE chunks SET text = 'forged text' WHERE chunk_id = '{chunk['chunk_id']}'")
    proc = run_cairn(root, "index")
    assert proc.returncode == 0, proc.stderr
    assert "holds rows changed outside Cairn, of sources/s.md" in proc.stderr
    assert "indexed 1 source(s), 0 unchanged" in proc.stderr
    code, report = check_json(root)
    assert _verdicts(report)[draft] == [(True, [])], report
    assert code == 0
    assert [r["text"] for r in _chunks(root)][0] == "The refund window is fourteen days."
    assert "indexed 0 source(s), 1 unchanged" in run_cairn(root, "index").stderr  # repaired for good


def test_a_deleted_chunk_row_or_a_change_made_with_the_triggers_dropped_is_noticed(tmp_path: Path):
    root, chunk, draft = _tampered_workspace(tmp_path)
    _sql(root, f"DELETE FROM chunks WHERE chunk_id = '{chunk['chunk_id']}'")
    assert "indexed 1 source(s), 0 unchanged" in run_cairn(root, "index").stderr
    code, report = check_json(root)
    assert _verdicts(report)[draft] == [(True, [])], report
    # the record of changes taken out of the way first: the next run proves the rows itself
    _sql(root, "DROP TRIGGER cairn_chunk_updated", "DROP TRIGGER cairn_chunk_deleted",
         f"UPDATE chunks SET text = 'forged text' WHERE chunk_id = '{chunk['chunk_id']}'")
    proc = run_cairn(root, "index")
    assert "holds rows changed outside Cairn, of sources/s.md" in proc.stderr
    assert "indexed 1 source(s), 0 unchanged" in proc.stderr
    code, report = check_json(root)
    assert _verdicts(report)[draft] == [(True, [])], report
    assert code == 0
