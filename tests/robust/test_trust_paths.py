"""Trust boundaries of paths (issue 11, items 1, 3, 6 and 12): what Cairn
reads is decided by one rule however it is reached.

- a configuration the CLI refuses never makes the server read more: it runs
  with no source root and says so;
- git history is read only from the workspace's own repository (not through
  a `.git` file or link, nor a `core.worktree` elsewhere), and a lookup that
  fails leaves the diagnostics as they are without history, never none;
- a folder named on the command line finds drafts by the rule of globs and
  discovery: a link to a file elsewhere is not a draft, and --fix never writes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from robust_util import check_json, lsp_start, make_demo, open_doc, run_cairn, until

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"])

SECRET = "The vault code is 7319 and the spare key is under the third flowerpot."


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={**os.environ, **make_demo._ENV})


def _stale_draft(root: Path) -> str:
    """drafts/stale.md citing a chunk that only the 2024 edition of the policy (in git history) holds."""
    old = (make_demo.HISTORY / "sources" / "policy.md").read_text(encoding="utf-8")
    para = next(p for p in old.split("\n\n") if "days" in p and not p.startswith("#")).strip()
    cid = hashlib.sha256(("sources/policy.md\n" + para).encode()).hexdigest()[:16]
    quote = para.split("\n")[0][:40]
    (root / "drafts" / "stale.md").write_text(
        f"An old claim.\n\n```cite\nchunk_id: {cid}\nstart: 0\nend: {len(quote)}\nquote: {json.dumps(quote)}\n```\n",
        encoding="utf-8")
    return cid


def _stale_codes(root: Path) -> tuple[list[str], str]:
    proc = run_cairn(root, "check", "--format", "json", "drafts/stale.md")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    (draft,) = json.loads(proc.stdout)["drafts"]
    return [x["code"] for c in draft["claims"] for x in c["diagnostics"]], proc.stderr


# --------------------------------------------------------------------------
# Item 1: a refused configuration never widens what the server reads


@pytest.fixture
def linked_sources(demo: Path, tmp_path: Path) -> Path:
    """`sources` is a link to a folder outside the workspace holding a secret."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET + "\n", encoding="utf-8")
    shutil.rmtree(demo / "sources")
    (demo / "sources").symlink_to(outside, target_is_directory=True)
    shutil.rmtree(demo / ".cairn", ignore_errors=True)
    return demo


@pytest.mark.parametrize("toml", [None, 'sources = ["sources"]\n', 'sources = ["sources"]\nthreshold = "high"\n'])
async def test_the_server_reads_no_source_when_the_configuration_is_refused(
        client: LanguageClient, linked_sources: Path, toml):
    root = linked_sources
    if toml is None:
        (root / "cairn.toml").unlink()
    else:
        (root / "cairn.toml").write_text(toml, encoding="utf-8")
    proc = run_cairn(root, "check")
    assert proc.returncode == 2 and "configuration error" in proc.stderr, proc.stderr

    await lsp_start(client, root)
    # nothing of the folder outside went into the index (its WAL included)
    for f in (root / ".cairn").glob("index.db*"):
        assert b"flowerpot" not in f.read_bytes(), f

    # a draft asking for the secret by quote completion gets nothing from it
    path = root / "drafts" / "vault.md"
    text = "A claim about the vault.\n\n```cite\nquote: vault cod\n```\n"
    path.write_text(text, encoding="utf-8")
    u = open_doc(client, path, text)
    await until(lambda: u in client.diagnostics, what="the draft checked")
    got = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(line=3, character=16)))
    items = got.items if isinstance(got, types.CompletionList) else (got or [])
    assert not [i for i in items if "flowerpot" in json.dumps([i.label, i.detail, str(i.documentation)])]
    report = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="cairn.report"))
    assert "flowerpot" not in json.dumps(report, default=str)
    # and the user is told, on screen and in the log
    shown = [m.message for m in client.messages]
    assert any("configuration error" in m and "no source is read" in m for m in shown), shown
    assert any("no source is read" in m.message for m in client.log_messages)


# --------------------------------------------------------------------------
# Item 3: history only from the workspace's own repository


@pytest.mark.parametrize("how", ["gitdir file", "symbolic link"])
def test_history_is_never_read_from_a_repository_elsewhere(demo: Path, tmp_path: Path, how):
    """A workspace without history of its own whose `.git` points at another repository
    (which holds the 2024 edition): the old chunk stays unknown, and the CLI says why."""
    work = tmp_path / "work"
    shutil.copytree(demo, work, ignore=shutil.ignore_patterns(".git", ".cairn"))
    _stale_draft(work)
    if how == "gitdir file":
        (work / ".git").write_text(f"gitdir: {demo / '.git'}\n", encoding="utf-8")
    else:
        (work / ".git").symlink_to(demo / ".git", target_is_directory=True)
    codes, stderr = _stale_codes(work)
    assert codes == ["unknown-chunk"], codes
    assert "git history is not used" in stderr and "elsewhere" in stderr, stderr
    # the same draft in the repository itself does find it (the test's premise)
    _stale_draft(demo)
    assert _stale_codes(demo)[0] == ["source-changed"]


def test_history_of_a_parent_repository_holding_the_workspace_is_used(tmp_path: Path):
    """The normal case of a repository above the workspace (a report folder inside a project)."""
    parent = tmp_path / "project"
    ws = parent / "report"
    shutil.copytree(make_demo.HISTORY, ws)
    _git(parent, "init", "-q", "-b", "main")
    _git(parent, "add", "-A")
    _git(parent, "commit", "-qm", "2024")
    shutil.copytree(make_demo.DEMO, ws, dirs_exist_ok=True)
    _git(parent, "add", "-A")
    _git(parent, "commit", "-qm", "2026")
    _stale_draft(ws)
    codes, stderr = _stale_codes(ws)
    assert codes == ["source-changed"], (codes, stderr)
    assert "history is not used" not in stderr


# --------------------------------------------------------------------------
# Item 12: a history lookup that fails is "history not used", never a crash


def _all_codes(report: dict) -> list[tuple[str, str]]:
    return sorted((d["path"], x["code"]) for d in report["drafts"] for c in d["claims"] for x in c["diagnostics"])


async def test_core_worktree_elsewhere_degrades_to_no_history(client: LanguageClient, demo: Path, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    without_git = tmp_path / "nogit"
    shutil.copytree(demo, without_git, ignore=shutil.ignore_patterns(".git", ".cairn"))
    _, expected, _ = check_json(without_git)
    _git(demo, "config", "core.worktree", str(elsewhere))
    code, report, stderr = check_json(demo)
    assert "Traceback" not in stderr and "git history is not used" in stderr, stderr
    assert _all_codes(report) == _all_codes(expected)
    assert len(_all_codes(report)) >= 10  # the demo's problems, all reported

    # in the server, every draft still gets its diagnostics (before: none at all)
    await lsp_start(client, demo)
    for rel in sorted({p for p, _ in _all_codes(report)}):
        u = open_doc(client, demo / rel)
        await until(lambda: u in client.diagnostics, what=f"diagnostics of {rel}")
        want = sorted(c for p, c in _all_codes(report) if p == rel)
        await until(lambda: sorted(d.code for d in client.diagnostics[u] if d.code != "uncited-prose") == want,
                    what=f"{rel}: {want}")
    assert any("git history is not used" in m.message for m in client.log_messages)


# --------------------------------------------------------------------------
# Item 6: a folder on the command line follows the rule of globs and discovery


def test_a_folder_named_on_the_command_line_never_follows_a_link_out(demo: Path, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    notes = (demo / "drafts" / "review-notes.md").read_text(encoding="utf-8")  # holds fixable citations
    (elsewhere / "notes.md").write_text(notes.replace("# ", "# ELSEWHERE ", 1), encoding="utf-8")
    before = (elsewhere / "notes.md").read_bytes()
    (demo / "drafts" / "elsewhere.md").symlink_to(elsewhere / "notes.md")
    (demo / "drafts" / "inside.md").symlink_to(demo / "drafts" / "credits-answer.md")  # a link inside is fine
    for args in (["drafts/"], ["drafts"], ["--fix", "drafts/"], ["--fix", "."]):
        proc = run_cairn(demo, "check", "--format", "json", *args)
        assert proc.returncode == 1, proc.stderr
        paths = {d["path"] for d in json.loads(proc.stdout)["drafts"]}
        assert "drafts/credits-answer.md" in paths and "drafts/elsewhere.md" not in paths, paths
        assert "ELSEWHERE" not in proc.stdout + proc.stderr
        assert (elsewhere / "notes.md").read_bytes() == before
        assert (demo / "drafts" / "elsewhere.md").is_symlink()
    # named alone, the link is refused with a reason (exit 2), the file elsewhere untouched
    proc = run_cairn(demo, "check", "--fix", "drafts/elsewhere.md")
    assert proc.returncode == 2 and "not a draft of this workspace" in proc.stderr, proc.stderr
    assert (elsewhere / "notes.md").read_bytes() == before
