"""A workspace's own git configuration cannot make Cairn run programs or
fetch anything (issue point 3, "a repository cannot make Cairn send
anything anywhere by itself").

A workspace copied or downloaded with its `.git` folder brings its
`.git/config`, which can name programs git runs by itself. Cairn calls git
to find drafts (`ls-files`) and old versions of sources (`log`, `ls-tree`,
`cat-file`): each of these must leave the programs unrun.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from robust_util import check_json, make_demo, run_cairn


def _marker_script(path: Path, marker: Path, then: str = "exit 1") -> Path:
    path.write_text(f"#!/bin/sh\ntouch {marker}\n{then}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def _git(root: Path, *args: str) -> str:
    env = {**os.environ, **make_demo._ENV}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True,
                          env=env).stdout


def _signed_head(root: Path) -> None:
    """A last commit that changes a source and carries a (fake) signature: `git log` over
    the sources verifies it when log.showSignature is set."""
    faq = root / "sources" / "faq.txt"
    faq.write_text(faq.read_text(encoding="utf-8") + "\nA signed addition.\n", encoding="utf-8")
    _git(root, "commit", "-qam", "unsigned")
    tree = _git(root, "rev-parse", "HEAD^{tree}").strip()
    parent = _git(root, "rev-parse", "HEAD^").strip()
    body = (f"tree {tree}\nparent {parent}\nauthor a <a@b> 1772355600 +0000\ncommitter a <a@b> 1772355600 +0000\n"
            "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n")
    obj = subprocess.run(["git", "-C", str(root), "hash-object", "-t", "commit", "-w", "--stdin"], input=body,
                         capture_output=True, text=True, check=True).stdout.strip()
    _git(root, "update-ref", "HEAD", obj)


def _stale_citation(root: Path) -> str:
    """A draft citing a chunk that only the 2024 edition (in git history) holds."""
    old = (make_demo.HISTORY / "sources" / "policy.md").read_text(encoding="utf-8")
    para = next(p for p in old.split("\n\n") if "days" in p and not p.startswith("#")).strip()
    import hashlib

    cid = hashlib.sha256(("sources/policy.md\n" + para).encode()).hexdigest()[:16]
    quote = para.split("\n")[0][:40]
    text = (f"An old claim.\n\n```cite\nchunk_id: {cid}\nstart: 0\nend: {len(quote)}\n"
            f"quote: \"{quote}\"\n```\n")
    (root / "drafts" / "stale.md").write_text(text, encoding="utf-8")
    return cid


def test_repository_config_runs_no_program(demo: Path, tmp_path: Path):
    marks = {name: tmp_path / f"ran-{name}" for name in ("fsmonitor", "gpg", "hook")}
    # drafts found by discovery (git ls-files), not by a glob
    (demo / "cairn.toml").write_text('sources = ["sources"]\n', encoding="utf-8")
    _signed_head(demo)
    _git(demo, "config", "core.fsmonitor", str(_marker_script(tmp_path / "fsmonitor.sh", marks["fsmonitor"])))
    _git(demo, "config", "log.showSignature", "true")
    _git(demo, "config", "gpg.program", str(_marker_script(tmp_path / "gpg.sh", marks["gpg"])))
    hooks = demo / ".git" / "hooks"
    for hook in ("post-checkout", "post-index-change", "reference-transaction"):
        _marker_script(hooks / hook, marks["hook"], "exit 0")
    _stale_citation(demo)
    git_dir = demo / ".git"
    before = {p: p.stat().st_mtime_ns for p in [git_dir / "index", git_dir / "config"]}
    code, report, stderr = check_json(demo)
    paths = {d["path"] for d in report["drafts"]}
    assert "drafts/credits-answer.md" in paths and "drafts/stale.md" in paths  # discovery worked
    (stale,) = [d for d in report["drafts"] if d["path"] == "drafts/stale.md"]
    assert [x["code"] for x in stale["claims"][0]["diagnostics"]] == ["source-changed"]  # found in history
    for name, mark in marks.items():
        assert not mark.exists(), f"the repository's {name} setting ran a program"
    assert {p: p.stat().st_mtime_ns for p in before} == before  # nothing written into .git


def test_partial_clone_never_fetches(demo: Path, tmp_path: Path):
    """A partial clone lacks old blobs; reading one would fetch it from the promisor remote,
    running its upload-pack command (or reaching the network)."""
    _git(demo, "config", "uploadpack.allowFilter", "true")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--filter=blob:none", f"file://{demo}", str(clone)], check=True,
                   capture_output=True)
    mark = tmp_path / "ran-upload-pack"
    script = _marker_script(tmp_path / "upload.sh", mark, 'exec git-upload-pack "$@"')
    _git(clone, "config", "remote.origin.uploadpack", str(script))
    _stale_citation(clone)
    proc = run_cairn(clone, "check", "--format", "json", "drafts/stale.md")
    assert proc.returncode == 1, proc.stderr
    assert not mark.exists(), "a lazy fetch ran the promisor remote's upload-pack"
