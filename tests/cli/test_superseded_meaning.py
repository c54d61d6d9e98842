"""A cited source edited after the draft was written (SPEC section 4, the
superseded-chunk rules), through the real CLI: a re-wrapped paragraph keeps
its citations (span-shifted, and --fix writes the new exact quote); a quote
whose sentence changed is re-anchored only in the editor, and `--fix` never
re-anchors it into a sentence that now negates it."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import check_json, run_cairn

POLICY = (
    "# Returns\n\n"
    "Unopened goods are accepted back within 30 days of delivery. Refunds go to the original card.\n\n"
    "Opened items cannot be returned.\n"
)


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "sources" / "policy.md").write_text(POLICY, encoding="utf-8")
    assert run_cairn(root, "index").returncode == 0
    chunks = [json.loads(x) for x in run_cairn(root, "chunks", "--json").stdout.splitlines()]
    quote = "accepted back within 30 days of delivery"
    chunk = next(c for c in chunks if quote in c["text"])
    start = chunk["text"].index(quote)
    (root / "drafts" / "answer.md").write_text(
        "Unopened goods are accepted back within 30 days of delivery.\n\n```cite\n"
        f"chunk_id: {chunk['chunk_id']}\nstart: {start}\nend: {start + len(quote)}\n"
        f"quote: \"{quote}\"\nsource: sources/policy.md\nversion: {chunk['version'][:8]}\n```\n",
        encoding="utf-8",
    )
    code, report = check_json(root)
    assert code == 0, report
    return root


def _claim(root: Path) -> dict:
    _, report = check_json(root)
    return report["drafts"][0]["claims"][0]


def _edit_sentence(root: Path, now: str) -> dict:
    """The cited sentence rewritten in the source; the claim as cairn check then sees it."""
    (root / "sources" / "policy.md").write_text(
        POLICY.replace("Unopened goods are accepted back within 30 days of delivery.", now), encoding="utf-8")
    return _claim(root)


def _fix_changes_nothing(root: Path) -> int:
    before = (root / "drafts" / "answer.md").read_bytes()
    proc = run_cairn(root, "check", "--fix")
    assert (root / "drafts" / "answer.md").read_bytes() == before
    return proc.returncode


def test_rewrapped_paragraph_keeps_its_citation_and_fix_writes_the_new_quote(tmp_path: Path):
    root = _workspace(tmp_path)
    (root / "sources" / "policy.md").write_text(
        POLICY.replace("accepted back within 30 days", "accepted back\nwithin  30 days"), encoding="utf-8")
    claim = _claim(root)
    assert claim["supported"] is True
    d = claim["diagnostics"]
    assert [x["code"] for x in d] == ["span-shifted"]
    assert "re-wrapped" in d[0]["message"] and "sentence now reads" not in d[0]["message"]
    assert d[0]["fix"]  # --fix will apply it
    proc = run_cairn(root, "check", "--fix")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (root / "drafts" / "answer.md").read_text(encoding="utf-8")
    assert "accepted back\\nwithin  30 days of delivery" in text
    claim = _claim(root)
    assert claim["supported"] is True and claim["diagnostics"] == []


def test_changed_sentence_is_quoted_and_fix_does_not_reanchor(tmp_path: Path):
    root = _workspace(tmp_path)
    claim = _edit_sentence(
        root, "Since May, only unopened goods bought in store are accepted back within 30 days of delivery.")
    d = claim["diagnostics"]
    # the sentence as it reads now also narrows the goods the claim speaks of (meaning-39): context-limits
    assert [x["code"] for x in d] == ["span-shifted", "context-limits"]
    assert "bought in store" in d[1]["message"]
    assert ("its sentence now reads \u201cSince May, only unopened goods bought in store are accepted back within "
            "30 days of delivery.\u201d") in d[0]["message"]
    assert d[0].get("fix") in (None, "")
    _fix_changes_nothing(root)


def test_sentence_that_now_negates_the_quote_fails_the_claim(tmp_path: Path):
    root = _workspace(tmp_path)
    claim = _edit_sentence(root, "It is no longer the case that goods are accepted back within 30 days of delivery.")
    codes = [x["code"] for x in claim["diagnostics"]]
    assert codes == ["span-shifted", "context-negates"], claim["diagnostics"]
    assert claim["supported"] is False
    assert "It is no longer the case that goods are accepted back" in claim["diagnostics"][1]["message"]
    assert _fix_changes_nothing(root) == 1


def test_source_cut_again_is_not_reported_as_changed(tmp_path: Path):
    """chunk_chars changed, the file did not: the re-anchor message says the file is unchanged and
    only its chunks are new (it had said "changed since version ..." of a file nobody touched)."""
    root = _workspace(tmp_path)
    (root / "cairn.toml").write_text("chunk_chars = 80\n", encoding="utf-8")
    claim = _claim(root)
    d = claim["diagnostics"]
    assert [x["code"] for x in d] == ["span-shifted"], d
    assert "has not changed since version" in d[0]["message"] and "cut into chunks again" in d[0]["message"]
    assert "sources/policy.md changed since" not in d[0]["message"]


def test_quote_across_a_new_chunk_boundary_is_not_reported_as_gone(tmp_path: Path):
    """A quote of two sentences that a smaller chunk_chars puts in two chunks: it cannot resolve
    (a span lies in one chunk), but the message says why, not "not in its current version"."""
    root = _workspace(tmp_path)
    quote = "30 days of delivery. Refunds go to the original card."
    answer = root / "drafts" / "answer.md"
    chunks = [json.loads(x) for x in run_cairn(root, "chunks", "--json").stdout.splitlines()]
    chunk = next(c for c in chunks if quote in c["text"])
    start = chunk["text"].index(quote)
    answer.write_text(
        "Goods come back within 30 days and refunds go to the card.\n\n```cite\n"
        f"chunk_id: {chunk['chunk_id']}\nstart: {start}\nend: {start + len(quote)}\n"
        f"quote: \"{quote}\"\nsource: sources/policy.md\nversion: {chunk['version'][:8]}\n```\n",
        encoding="utf-8",
    )
    assert _claim(root)["supported"] is True
    (root / "cairn.toml").write_text("chunk_chars = 70\n", encoding="utf-8")
    d = _claim(root)["diagnostics"]
    assert [x["code"] for x in d] == ["source-changed"], d
    assert "the quote now runs across a chunk boundary" in d[0]["message"]
    assert "not in its current version" not in d[0]["message"]
