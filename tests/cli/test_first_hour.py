"""A new user's first hour, through the real CLI: `cairn init`, loud mistakes
(exit 2 naming the culprit), skipped files named, `cairn chunks` on a missing path."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from cairn.core.config import Config

from cairn_testing import run_cairn


def test_init_writes_a_workspace_that_checks_clean(tmp_path: Path):
    proc = run_cairn(tmp_path, "init")
    assert proc.returncode == 0, proc.stderr
    for rel in ("cairn.toml", "sources/", "drafts/", ".cairn/.gitignore", "drafts/first-draft.md"):
        assert f"created {rel}" in proc.stdout
    assert (tmp_path / ".cairn" / ".gitignore").read_text().splitlines()[1:] == ["*", "!.gitignore", "!snapshots/", "!snapshots/**"]
    draft = (tmp_path / "drafts" / "first-draft.md").read_text()
    assert "```cite\n" in draft
    version = re.search(r"^version: (\w+)$", draft, re.M).group(1)
    assert len(version) == 12
    check = run_cairn(tmp_path, "check", "--format", "json")
    assert check.returncode == 0, check.stdout + check.stderr
    claims = json.loads(check.stdout)["drafts"][0]["claims"]
    assert [c["supported"] for c in claims] == [True]
    assert claims[0]["citations"][0]["source"] == "sources/example.md"


def test_init_config_names_every_key_with_the_default_the_code_uses(tmp_path: Path):
    run_cairn(tmp_path, "init")
    text = (tmp_path / "cairn.toml").read_text()
    assert tomllib.loads(text) == {}  # every line a comment: the file changes nothing
    read, _, rest_text = text.partition("\n# Tables with no default, each shown with an example")
    examples, _, later = rest_text.partition("\n# Keys of the Cairn configuration that this version does not read yet")
    # the tables of entries ([[policy]], [principals]) are read by this version: examples, apart from the defaults
    shown = tomllib.loads("\n".join(re.sub(r"^# (?=\[|\w+ = )", "", line) for line in examples.splitlines()[2:]))
    assert set(shown) == {"policy", "principals"} and set(shown["policy"][0]) >= {"path", "authority", "access"}
    # uncommented, the keys this version reads give exactly its defaults
    live = tomllib.loads("\n".join(re.sub(r"^# (?=\[|\w+ = )", "", line) for line in read.splitlines()))
    assert Config.model_validate(live) == Config()
    assert set(live) | {f"{t}.{k}" for t, v in live.items() if isinstance(v, dict) for k in v} >= {
        "sources", "drafts", "exclude", "threshold", "chunk_chars", "text_without_extension", "support.mode",
        "judge.provider", "judge.url", "judge.model", "judge.api_key_env"}
    # every other key of the configuration is named too, apart, as not read yet
    rest = tomllib.loads("\n".join(re.sub(r"^# (?=\[|\w+ = )", "", line) for line in later.splitlines()[1:]))
    keys = set(rest) | {f"{t}.{k}" for t, v in rest.items() if isinstance(v, dict) for k in v}
    keys |= {f"policy.{k}" for k in shown["policy"][0]}
    for key in ("strict_sentences", "date_window_days", "principal", "ask.provider", "ask.url", "ask.model",
                "ask.api_key_env", "ask.k", "authority.tiers", "authority.default", "authority.minimum",
                "policy.path", "policy.authority", "policy.date", "policy.derived", "policy.access", "store.url"):
        assert key in keys or key in live or key.split(".")[0] in live, key


def test_init_keeps_an_existing_cairn_toml_and_makes_the_folders_it_names(tmp_path: Path):
    """SPEC section 6: cairn.toml and the folders "where missing": an existing file is left as it is, and
    the folders it names (its source roots, drafts/) are made when missing, nothing written in them."""
    (tmp_path / "cairn.toml").write_text('sources = ["docs", "refs/papers"]\n')
    proc = run_cairn(tmp_path, "init")
    assert proc.returncode == 0, proc.stderr
    assert "kept cairn.toml (it exists; left as it is)" in proc.stdout
    assert "created docs/" in proc.stdout and "created refs/papers/" in proc.stdout and "created drafts/" in proc.stdout
    assert (tmp_path / "cairn.toml").read_text() == 'sources = ["docs", "refs/papers"]\n'
    assert not (tmp_path / "sources").exists()
    assert all(not any((tmp_path / d).iterdir()) for d in ("docs", "refs/papers", "drafts"))
    again = run_cairn(tmp_path, "init")
    assert again.returncode == 0 and "nothing was missing; nothing was changed" in again.stdout


def test_init_with_an_unreadable_cairn_toml_changes_nothing(tmp_path: Path):
    (tmp_path / "cairn.toml").write_text('sources = "docs"\n')
    proc = run_cairn(tmp_path, "init")
    assert proc.returncode == 2
    assert "nothing was changed" in proc.stderr and "Traceback" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cairn.toml"]


def test_init_keeps_existing_folders_and_adds_no_example_among_them(tmp_path: Path):
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "mine.txt").write_text("My own source.\n")
    proc = run_cairn(tmp_path, "init")
    assert proc.returncode == 0
    assert "kept sources/ (it exists)" in proc.stdout
    assert sorted(p.name for p in (tmp_path / "sources").iterdir()) == ["mine.txt"]
    assert list((tmp_path / "drafts").iterdir()) == []


def test_check_above_a_workspace_names_the_workspace_below(tmp_path: Path):
    ws = tmp_path / "projects" / "ws"
    (ws / "sources").mkdir(parents=True)
    (ws / "sources" / "a.txt").write_text("A fact.\n")
    (ws / "cairn.toml").write_text("")
    (tmp_path / ".hidden" / "other").mkdir(parents=True)
    (tmp_path / ".hidden" / "other" / "cairn.toml").write_text("")
    proc = run_cairn(tmp_path / "projects", "check")
    assert proc.returncode == 2
    assert "did you mean `cd ws`?" in proc.stderr and "not a Cairn workspace" in proc.stderr
    top = run_cairn(tmp_path, "check")  # two levels down is still found; a hidden folder is not entered
    assert top.returncode == 2 and "did you mean `cd projects/ws`?" in top.stderr and "other" not in top.stderr
    assert not (tmp_path / ".cairn").exists() and not (tmp_path / "projects" / ".cairn").exists()


def test_check_in_an_empty_folder_says_how_to_start_and_writes_nothing(tmp_path: Path):
    proc = run_cairn(tmp_path, "check")
    assert proc.returncode == 2
    assert "not a Cairn workspace" in proc.stderr and "cairn init" in proc.stderr
    assert list(tmp_path.iterdir()) == []  # no .cairn/ left behind


def test_empty_source_root_is_named(tmp_path: Path):
    run_cairn(tmp_path, "init")
    (tmp_path / "sources" / "example.md").unlink()
    proc = run_cairn(tmp_path, "check")
    assert proc.returncode == 2
    assert "source root 'sources' holds no file" in proc.stderr


def test_index_names_every_skipped_file_and_reads_text_without_extension(tmp_path: Path):
    run_cairn(tmp_path, "init")
    src = tmp_path / "sources"
    (src / "LICENSE").write_text("Permission is granted to copy this file.\n\nNo warranty is given.\n")
    (src / "BLOB").write_bytes(b"\x7fELF\x00\x00\x01" * 50)
    (src / "report.docx").write_bytes(b"PK\x03\x04")
    proc = run_cairn(tmp_path, "index")
    assert proc.returncode == 0
    assert "sources/report.docx: skipped: unsupported type (.docx)" in proc.stderr
    assert "sources/BLOB: skipped: binary" in proc.stderr
    assert "indexed 2 source(s), 0 unchanged, 0 removed, 2 skipped" in proc.stderr
    rows = [json.loads(x) for x in run_cairn(tmp_path, "chunks", "--json", "sources/LICENSE").stdout.splitlines()]
    assert [r["text"] for r in rows] == ["Permission is granted to copy this file.", "No warranty is given."]
    # a plain check counts what it skipped, and names the failures
    check = run_cairn(tmp_path, "check")
    assert "not sources and were skipped" in check.stderr


def test_text_without_extension_can_be_turned_off(tmp_path: Path):
    run_cairn(tmp_path, "init")
    (tmp_path / "cairn.toml").write_text("text_without_extension = false\n")
    (tmp_path / "sources" / "LICENSE").write_text("Some licence text.\n")
    proc = run_cairn(tmp_path, "index")
    assert "sources/LICENSE: skipped: no extension" in proc.stderr
    chunks = run_cairn(tmp_path, "chunks", "--json").stdout
    assert "sources/LICENSE" not in chunks


def test_chunks_on_a_missing_or_skipped_path_exits_2(tmp_path: Path):
    run_cairn(tmp_path, "init")
    (tmp_path / "sources" / "slides.pptx").write_bytes(b"PK")
    missing = run_cairn(tmp_path, "chunks", "sources/nope.txt")
    assert missing.returncode == 2 and "sources/nope.txt: no such source" in missing.stderr
    assert missing.stdout == ""
    skipped = run_cairn(tmp_path, "chunks", "sources/slides.pptx")
    assert skipped.returncode == 2 and "not a source: skipped (unsupported type (.pptx)" in skipped.stderr


def test_chunk_listing_says_its_ranges_are_in_the_source(tmp_path: Path):
    run_cairn(tmp_path, "init")
    proc = run_cairn(tmp_path, "chunks", "sources/example.md")
    assert proc.returncode == 0
    text = (tmp_path / "sources" / "example.md").read_text()
    first = proc.stdout.splitlines()[0]
    start, end = map(int, re.search(r"source\[(\d+), (\d+)\)", first).groups())
    assert text[start:end] == "# An example source"
    assert "a cite block's start and end count from the chunk's own first character" in proc.stderr


def test_a_fence_almost_cite_is_named(tmp_path: Path):
    run_cairn(tmp_path, "init")
    drafts = tmp_path / "drafts"
    # discovered drafts: one with a real block and a ~~~citation fence, one with only ```Cite
    (drafts / "mixed.md").write_text((drafts / "first-draft.md").read_text() + "\nMore.\n\n~~~citation\nx: 1\n~~~\n")
    (drafts / "only.md").write_text("A claim.\n\n- a list\n\n  ```Cite\n  chunk_id: 0123456789abcdef\n  ```\n")
    (drafts / "fine.md").write_text("Code:\n\n```cites\nnot a near miss\n```\n")
    proc = run_cairn(tmp_path, "check")
    assert proc.returncode == 0
    fence = (drafts / "mixed.md").read_text().splitlines().index("~~~citation") + 1
    assert f"drafts/mixed.md:{fence}: a fence with the info string 'citation' is not a citation block" in proc.stderr
    assert "drafts/only.md:5: a fence with the info string 'Cite' is not a citation block" in proc.stderr
    assert "fine.md" not in proc.stderr
    # the cached (warm) run says it again
    again = run_cairn(tmp_path, "check", "drafts/only.md", "drafts/first-draft.md")
    assert "drafts/only.md:5: a fence with the info string 'Cite'" in again.stderr


def test_fix_says_what_it_changed_and_what_the_check_still_finds(tmp_path: Path):
    import hashlib

    run_cairn(tmp_path, "init")
    policy = "A customer has 14 days to request a credit.\n"
    (tmp_path / "sources" / "policy.md").write_text(policy)
    version = hashlib.sha256(policy.encode()).hexdigest()
    quote = "A customer has 14 days to request a credit"
    # a chunk id nobody knows (the quote is found elsewhere), and a claim the quote contradicts
    draft = tmp_path / "drafts" / "credit.md"
    draft.write_text(f"A customer has 30 days to request a credit.\n\n```cite\nchunk_id: 00000000000000aa\n"
                     f"start: 0\nend: {len(quote)}\nquote: \"{quote}\"\n```\n")
    proc = run_cairn(tmp_path, "check", "--fix", "drafts/credit.md")
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    fixed = [x for x in lines if "drafts/credit.md:3: fixed [unknown-chunk]" in x]
    assert len(fixed) == 1, proc.stderr
    assert 'chunk_id "00000000000000aa" -> "' in fixed[0]
    assert f'version (none) -> "{version[:12]}"' in fixed[0]
    assert any(x.startswith("cairn:   still on this claim: error [number-mismatch]") for x in lines), proc.stderr
    assert "fixed 1 citation(s) in 1 draft(s)" in proc.stderr
    assert f"version: {version[:12]}\n" in draft.read_text()  # written at the length the docs show


def test_short_version_grows_only_when_ambiguous():
    from cairn.engine.checks import short_version

    a = "ab" * 32
    assert short_version(a, [a, "cd" * 32]) == a[:12]
    b = a[:12] + "f" * 52
    assert short_version(a, [a, b]) == a[:16]


def test_init_writes_nothing_through_a_linked_folder(tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / ".cairn").symlink_to(outside)
    proc = run_cairn(ws, "init")
    assert proc.returncode == 0
    assert "kept .cairn/.gitignore (not written: its folder is a symbolic link)" in proc.stdout
    assert list(outside.iterdir()) == []
