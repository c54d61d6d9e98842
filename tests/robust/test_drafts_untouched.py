"""Drafts are never damaged (issue point 5).

Cairn writes a draft only through `cairn check --fix` (or an edit the user
applies in the editor). A plain check, an index, the other commands and a
whole server session change no byte of the workspace. `--fix` writes
through a temporary file and a rename: a failure or a kill at any moment
leaves the old draft or the new one, never a mix; it keeps line endings, a
BOM, the file's mode and a symbolic link, never writes a draft that is not
valid UTF-8, and leaves a draft that changed on disk while it was checked
as the user saved it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from robust_util import check_json, copy_tree, lsp_start, open_doc, run_cairn, tree_digest, until

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"])

# A citation of sources/policy.md with its offsets off by one and curly quotes: --fix
# re-anchors it and straightens the quote (both safe fixes).
FIXABLE = (
    "A customer has 14 days — « café » — to request a credit for a damaged delivery.",
    "```cite",
    "chunk_id: 691d71e4b46d8b0d",
    "start: 1",
    "end: 66",
    "quote: \"A customer has 14 days to request a credit for a damaged delivery\"",
    "source: sources/policy.md",
    "```",
)


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def full_digest(root: Path) -> dict[str, str]:
    """Every file, .git included (Cairn must not even refresh git's index); only .cairn skipped."""
    return tree_digest(root, skip=(".cairn",))


# --------------------------------------------------------------------------
# Nothing but --fix writes


def test_commands_other_than_fix_change_no_byte(demo: Path):
    (demo / "cairn.toml").write_text('sources = ["sources"]\n', encoding="utf-8")  # discovery: git ls-files
    before = full_digest(demo)
    _, report, _ = check_json(demo)
    (demo.parent / "baseline.json").write_text(json.dumps(report), encoding="utf-8")
    for args in (["check"], ["check", "--format", "sarif"], ["check", "--strict"],
                 ["check", "--baseline", str(demo.parent / "baseline.json")], ["index"], ["chunks"],
                 ["chunks", "--json", "sources/policy.md"], ["gc"], ["check", "drafts/credits-answer.md"]):
        proc = run_cairn(demo, *args)
        assert proc.returncode in (0, 1), (args, proc.stderr)
        assert full_digest(demo) == before, args


async def test_a_server_session_changes_no_byte(client: LanguageClient, demo: Path):
    applied = []

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def on_apply(params):
        applied.append(params)
        return types.ApplyWorkspaceEditResult(applied=False)

    before = full_digest(demo)
    await lsp_start(client, demo)
    offered = 0
    for name in ("review-notes.md", "credits-answer.md", "legacy-import.md"):
        path = demo / "drafts" / name
        text = path.read_text(encoding="utf-8", errors="replace")
        u = open_doc(client, path, text)
        await until(lambda: u in client.diagnostics, what=f"diagnostics of {name}")
        doc = types.TextDocumentIdentifier(uri=u)
        n = text.count("\n")
        for line in range(0, n, 3):
            pos = types.Position(line=line, character=1)
            await client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos))
            await client.text_document_definition_async(types.DefinitionParams(text_document=doc, position=pos))
        await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc))
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=doc, range=types.Range(start=types.Position(line=0, character=0),
                                                 end=types.Position(line=n, character=0)),
            context=types.CodeActionContext(diagnostics=[])))
        offered += len(actions or [])
        # an edit in the editor that is never saved
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=u, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + "\nUnsaved claim.\n")]))
        client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc))
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report"))
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.reindex"))
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="cairn.citeSelection", arguments=[(demo / "sources" / "policy.md").as_uri(),
                                                  {"start": {"line": 6, "character": 0},
                                                   "end": {"line": 7, "character": 10}}]))
    await asyncio_sleep(0.5)
    assert offered > 3  # fixes are offered, as edits for the editor; the server never writes them
    assert applied == []
    assert full_digest(demo) == before


async def asyncio_sleep(s: float) -> None:
    import asyncio

    await asyncio.sleep(s)


# --------------------------------------------------------------------------
# --fix: byte for byte


def _fixable_draft(eols: list[str], head: str = "# Überblick — café ☕") -> bytes:
    lines = [head, "", *FIXABLE, ""]
    return "".join(line + eols[i % len(eols)] for i, line in enumerate(lines)).encode("utf-8")


@pytest.mark.parametrize("eols", [["\r\n"], ["\n"], ["\r"], ["\r\n", "\n", "\r"], ["\n", "\r\n"]],
                         ids=["crlf", "lf", "cr", "mixed", "mixed2"])
def test_fix_changes_only_the_fixed_values_byte_for_byte(demo: Path, eols):
    path = demo / "drafts" / "fixme.md"
    original = _fixable_draft(eols)
    path.write_bytes(original)
    os.chmod(path, 0o640)
    proc = run_cairn(demo, "check", "--fix", "drafts/fixme.md")
    assert "citation(s) in 1 draft(s)" in proc.stderr, proc.stderr
    expected = original.replace(b"start: 1", b"start: 0", 1).replace(b"end: 66", b"end: 65", 1)
    got = path.read_bytes()
    # the re-anchor also writes the version: the one inserted line uses the draft's first line ending
    version_line = [ln for ln in got.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
                    if ln.startswith(b"version: ")]
    assert len(version_line) == 1
    if got != expected:
        first_eol = eols[0].encode()
        source_line = b"source: sources/policy.md"
        at = expected.index(source_line) + len(source_line)
        expected = expected[:at] + first_eol + version_line[0] + expected[at:]
    assert got == expected
    assert os.stat(path).st_mode & 0o777 == 0o640
    _, report, _ = check_json(demo, "drafts/fixme.md")
    assert report["drafts"][0]["claims"][0]["diagnostics"] == []


def test_fix_keeps_a_bom_and_a_symbolic_link(demo: Path):
    real = demo / "drafts" / "real.md"
    real.write_bytes(b"\xef\xbb\xbf" + _fixable_draft(["\r\n"]))
    link = demo / "drafts" / "alias.md"
    link.symlink_to("real.md")
    run_cairn(demo, "check", "--fix", "drafts/alias.md")
    assert link.is_symlink() and os.readlink(link) == "real.md"
    data = real.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf#") and b"start: 0" in data and b"\r\n" in data


def test_fix_never_writes_a_draft_that_is_not_utf8(demo: Path):
    path = demo / "drafts" / "latin1.md"
    original = _fixable_draft(["\n"]).replace("café".encode(), "café".encode("latin-1"))
    path.write_bytes(original)
    mtime = path.stat().st_mtime_ns
    proc = run_cairn(demo, "check", "--fix", "--format", "json", "drafts/latin1.md")
    report = json.loads(proc.stdout)
    assert "span-shifted" in [d["code"] for c in report["drafts"][0]["claims"] for d in c["diagnostics"]]
    assert path.read_bytes() == original and path.stat().st_mtime_ns == mtime


def test_fix_leaves_untouched_drafts_alone(demo: Path):
    (demo / "drafts" / "fixme.md").write_bytes(_fixable_draft(["\n"]))
    others = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (demo / "drafts").glob("*.md")
              if p.name in ("credits-answer.md", "legacy-import.md")}
    run_cairn(demo, "check", "--fix")
    for p, (data, mtime) in others.items():
        assert (p.read_bytes(), p.stat().st_mtime_ns) == (data, mtime), p


# --------------------------------------------------------------------------
# --fix: atomic


def _prepared(demo: Path):
    from cairn.engine import checks as engine
    from cairn.index.workspace import Workspace

    path = demo / "drafts" / "fixme.md"
    path.write_bytes(_fixable_draft(["\r\n"]))
    ws = Workspace(demo)
    engine.index(ws)
    (cd,) = engine.check(ws, [path])
    new = engine.fixed_text(cd)
    assert new is not None
    return engine, path, cd, new


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".cairn-tmp")]


@pytest.mark.parametrize("fail_at", ["write", "fsync", "chmod", "replace"])
def test_a_failing_fix_leaves_the_draft_whole(demo: Path, monkeypatch, fail_at):
    engine, path, cd, new = _prepared(demo)
    original = path.read_bytes()

    def boom(*a, **k):
        raise OSError(28, "No space left on device (simulated)")

    if fail_at == "write":
        real_fdopen = os.fdopen

        class HalfWriter:
            def __init__(self, f):
                self.f = f

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

            def write(self, data):
                self.f.write(data[: len(data) // 2])
                raise OSError(28, "No space left on device (simulated)")

            def __getattr__(self, name):
                return getattr(self.f, name)

        monkeypatch.setattr(engine.os, "fdopen", lambda fd, mode="r", *a, **k: HalfWriter(real_fdopen(fd, mode)))
    else:
        monkeypatch.setattr(engine.os, fail_at, boom)
    with pytest.raises(OSError):
        engine.write_atomic(cd.path, new)
    monkeypatch.undo()
    assert path.read_bytes() == original
    assert _leftovers(path.parent) == []
    # and the same write, unhindered, is complete
    engine.write_atomic(cd.path, new)
    assert path.read_bytes() == new.encode("utf-8")


def test_the_draft_is_replaced_by_a_rename_never_written_in_place(demo: Path, monkeypatch):
    engine, path, cd, new = _prepared(demo)
    inode = path.stat().st_ino
    renames = []
    real_replace = os.replace

    def spy(src, dst):
        renames.append((Path(src).name, Path(dst)))
        # at the moment of the rename the new text is complete in the temporary file
        assert Path(src).read_bytes() == new.encode("utf-8")
        assert path.read_bytes() != new.encode("utf-8")
        return real_replace(src, dst)

    monkeypatch.setattr(engine.os, "replace", spy)
    engine.write_atomic(cd.path, new)
    assert len(renames) == 1 and renames[0][1] == path and renames[0][0].endswith(".cairn-tmp")
    assert path.stat().st_ino != inode


def test_a_draft_changed_while_checked_is_not_overwritten(demo: Path):
    """The user saves the draft between the check and the write: their text wins."""
    engine, path, cd, new = _prepared(demo)
    saved = path.read_bytes() + "Une phrase ajoutée pendant la vérification.\r\n".encode()
    path.write_bytes(saved)
    assert engine.write_atomic(cd.path, new, expected=cd.text) is False
    assert path.read_bytes() == saved


def test_fix_through_the_cli_keeps_a_concurrent_save(demo: Path, monkeypatch):
    from click.testing import CliRunner

    from cairn.cli import main as cli
    from cairn.engine import checks as engine

    path = demo / "drafts" / "fixme.md"
    path.write_bytes(_fixable_draft(["\n"]))
    real_fixed_text = engine.fixed_text
    saved = []

    def fixed_text_then_user_saves(cd, *args, **kwargs):
        new = real_fixed_text(cd, *args, **kwargs)
        if cd.path.name == "fixme.md" and not saved:
            data = path.read_bytes() + b"Saved by the user meanwhile.\n"
            path.write_bytes(data)
            saved.append(data)
        return new

    monkeypatch.setattr(engine, "fixed_text", fixed_text_then_user_saves)
    monkeypatch.chdir(demo)
    result = CliRunner().invoke(cli.main, ["check", "--fix", "drafts/fixme.md"])
    assert result.exit_code in (0, 1), result.output
    assert path.read_bytes() == saved[0]
    assert "changed while it was checked" in result.output


def test_killed_during_fix_every_draft_is_old_or_new(demo_template: Path, tmp_path: Path):
    """SIGKILL at random moments of `cairn check --fix` over many drafts: each draft is
    afterwards byte-identical to its old or to its fixed self."""
    n = 120
    reference = copy_tree(demo_template, tmp_path / "reference")
    for i in range(n):
        (reference / "drafts" / f"d{i:03d}.md").write_bytes(_fixable_draft(["\r\n"] if i % 2 else ["\n"],
                                                                           head=f"# Draft {i} — é"))
    old = {p.name: p.read_bytes() for p in (reference / "drafts").glob("d*.md")}
    work = copy_tree(reference, tmp_path / "work")
    run_cairn(reference, "check", "--fix")
    new = {p.name: p.read_bytes() for p in (reference / "drafts").glob("d*.md")}
    assert all(old[k] != new[k] for k in old)
    rng = random.Random(4)
    for attempt in range(4):
        proc = subprocess.Popen([sys.executable, "-m", "cairn", "check", "--fix"], cwd=work,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.4, 2.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        for p in (work / "drafts").glob("d*.md"):
            assert p.read_bytes() in (old[p.name], new[p.name]), (attempt, p.name)
    run_cairn(work, "check", "--fix")
    assert {p.name: p.read_bytes() for p in (work / "drafts").glob("d*.md")} == new
    assert not any(p.name.endswith(".md") and p.name not in old and p.name.startswith(".")
                   for p in (work / "drafts").iterdir())
