"""Trust boundaries, round two, finding 7 (issue 45): a file link under a source root
never launders a source. `sources/public/notes.md -> ../counsel/memo.md` is read
under the link's name, but every rule the policy keys by path applies to where the
link leads as well as to the link, the stricter winning: a principal must be allowed
both paths, the tier is the lower, and a link to a hidden file is not read
(docs/security.md, "Round two: store, git and policy").

Before the fix the policy was decided on the link's path alone: a reader saw the
counsel-only memo's text in `cairn chunks`, `cairn cite --for` and `cairn check`,
where the claim citing it was VERIFIED."""

from __future__ import annotations

import json
import os
from pathlib import Path

from policy_ws import POLICY, PROPOSAL, SECRET, SECRET_WORDS, TOML, cite, make
from robust_util import run_cairn

LINK = "sources/public/notes.md"


def linked(tmp_path: Path, target: str = "../counsel/memo.md", text: str = SECRET) -> Path:
    """The policy workspace with a readable-looking link to `target` and a draft citing the link."""
    ws = make(tmp_path, TOML + '[[policy]]\npath = "sources/public/**"\naccess = ["public"]\n')
    (ws / "sources" / "public").mkdir()
    (ws / LINK).symlink_to(target)
    (ws / "drafts" / "a.md").write_text(cite("The Acme settlement is capped.", LINK, text, named=True),
                                        encoding="utf-8")
    return ws


def outputs(ws: Path, principal: str) -> tuple[dict, str]:
    """The JSON report as this principal, and every output of check, chunks and cite --for as one text."""
    env = {"CAIRN_PRINCIPAL": principal}
    runs = [run_cairn(ws, "check", "--as", principal, "--format", "json"),
            run_cairn(ws, "check", "--as", principal),
            run_cairn(ws, "check", "--as", principal, "--format", "sarif"),
            run_cairn(ws, "chunks", "--as", principal, "--json"),
            run_cairn(ws, "cite", "--for", "The settlement with Acme Corp is capped.", "--json", env=env),
            run_cairn(ws, "cite", "The settlement with Acme Corp", env=env)]
    for proc in runs:
        assert proc.returncode in (0, 1), proc.stderr
    return json.loads(runs[0].stdout), "\n".join(p.stdout + p.stderr for p in runs)


def test_a_link_to_a_counsel_only_source_is_denied_to_a_reader(tmp_path: Path) -> None:
    ws = linked(tmp_path)
    rep, shown = outputs(ws, "reader")
    (claim,) = rep["drafts"][0]["claims"]
    assert not claim["supported"]
    (denied,) = [d for d in claim["diagnostics"] if d["code"] == "source-denied"]
    assert LINK in denied["message"] and "sources/counsel/memo.md" in denied["message"]
    for words in SECRET_WORDS:
        assert words not in shown
    assert rep["metrics"]["verified_claims"] == 0

    # counsel may read both paths: the same link verifies, and the search above can find the text
    rep, shown = outputs(ws, "counsel")
    (claim,) = rep["drafts"][0]["claims"]
    assert claim["supported"] and claim["citations"][0]["source"] == LINK
    assert SECRET in shown


def test_every_hop_of_a_chain_of_links_counts(tmp_path: Path) -> None:
    """public/notes.md -> ../hop/next.md -> ../policy.md, with sources/hop/ counsel-only: the
    policy of the path in the middle applies too, though the file it ends at is readable."""
    ws = linked(tmp_path, "../hop/next.md", POLICY)
    (ws / "cairn.toml").write_text(TOML + '[[policy]]\npath = "sources/hop/**"\naccess = ["counsel"]\n',
                                   encoding="utf-8")
    (ws / "sources" / "hop").mkdir()
    (ws / "sources" / "hop" / "next.md").symlink_to("../policy.md")
    (ws / "drafts" / "a.md").write_text(
        cite("Refunds are paid within 30 days of the request.", LINK, POLICY, named=True), encoding="utf-8")
    rep, _ = outputs(ws, "reader")
    assert [d["code"] for d in rep["drafts"][0]["claims"][0]["diagnostics"]] == ["source-denied"]
    rep, _ = outputs(ws, "counsel")
    assert rep["drafts"][0]["claims"][0]["supported"]


def test_a_link_gets_the_lower_tier_of_its_two_paths(tmp_path: Path) -> None:
    """A link under an official path to the draft-tier proposal is a draft: `low-authority`."""
    ws = linked(tmp_path, "../proposal.md", PROPOSAL)
    (ws / "drafts" / "a.md").write_text(
        cite("Refunds are paid within 5 days of the request.", LINK, PROPOSAL, named=True), encoding="utf-8")
    rep, _ = outputs(ws, "reader")
    (claim,) = rep["drafts"][0]["claims"]
    assert claim["citations"][0]["authority"] == "draft"
    assert [d["code"] for d in claim["diagnostics"]] == ["low-authority"]
    assert rep["metrics"]["source_quality"]["official"] == 0


def test_a_file_turned_into_a_link_is_not_served_from_the_cache(tmp_path: Path) -> None:
    """The same bytes, first a readable copy, then a link to the memo: the reader's cached
    verdict (VERIFIED) must not outlive the link."""
    ws = linked(tmp_path)
    (ws / LINK).unlink()
    (ws / LINK).write_text(SECRET + "\n", encoding="utf-8")
    first = run_cairn(ws, "check", "--as", "reader")
    assert first.returncode == 0, first.stdout + first.stderr
    (ws / LINK).unlink()
    (ws / LINK).symlink_to("../counsel/memo.md")
    second = run_cairn(ws, "check", "--as", "reader")
    assert second.returncode == 1 and "source-denied" in second.stdout
    assert not any(words in second.stdout for words in SECRET_WORDS)


def test_a_link_to_a_hidden_file_is_not_read(tmp_path: Path) -> None:
    """Hidden files are never sources; a link to one under the roots is not a way in."""
    ws = make(tmp_path, "")
    (ws / "sources" / ".private").mkdir()
    (ws / "sources" / ".private" / "keys.md").write_text("The vault code is 4471.\n", encoding="utf-8")
    os.symlink(".private/keys.md", ws / "sources" / "keys.md")
    index = run_cairn(ws, "index")
    assert index.returncode == 0, index.stderr
    assert "sources/keys.md: skipped: a link to a hidden file" in index.stderr
    chunks = run_cairn(ws, "chunks")
    assert chunks.returncode == 0 and "4471" not in chunks.stdout and "sources/policy.md" in chunks.stdout
