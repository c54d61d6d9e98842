"""`cairn cite QUOTE` through the real CLI: a block that verifies when pasted, loose
white space, several places, no place, --source and --json."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import check_json, run_cairn


def test_cited_block_pasted_into_a_draft_verifies(demo: Path):
    # the source breaks this passage across two lines: the quote's single space matches the line break
    quote = "The request must include a photo of the damaged items"
    proc = run_cairn(demo, "cite", quote)
    assert proc.returncode == 0, proc.stderr
    block = proc.stdout
    assert block.startswith("```cite\n") and block.endswith("```\n")
    assert 'quote: "The request\\nmust include a photo of the damaged items"' in block
    assert "source: sources/policy.md" in block and "version: " in block
    assert "found in sources/policy.md:" in proc.stderr
    draft = demo / "drafts" / "pasted.md"
    draft.write_text("# Pasted\n\nA credit request must include a photo of the damaged items.\n\n" + block,
                     encoding="utf-8")
    code, report = check_json(demo, "drafts/pasted.md")
    (claim,) = report["drafts"][0]["claims"]
    assert claim["supported"] is True and claim["diagnostics"] == []
    assert code == 0


def test_several_places_are_listed_and_exit_1(demo: Path):
    """SPEC section 6: several places list them, exit 1 (2 is the usage-error code, issue 49 item 6)."""
    proc = run_cairn(demo, "cite", "credit")
    assert proc.returncode == 1
    assert "places; narrow it with --source" in proc.stderr
    assert "sources/policy.md:8: A customer has 14 days to request a credit for a damaged delivery." in proc.stderr
    assert proc.stdout == ""
    # --source narrows it to one
    proc = run_cairn(demo, "cite", "--source", "sources/policy.md", "request a credit for a damaged")
    assert proc.returncode == 0, proc.stderr
    assert "chunk_id: 691d71e4b46d8b0d" in proc.stdout


def test_missing_quote_lists_the_closest_and_exit_1(demo: Path):
    proc = run_cairn(demo, "cite", "A customer has 41 days to request a credit for damaged goods")
    assert proc.returncode == 1
    assert "not in the sources; the closest passages:" in proc.stderr
    lines = proc.stderr.splitlines()
    first = lines[lines.index("cairn: the quote is not in the sources; the closest passages:") + 1]
    assert first.startswith("sources/policy.md:8 (") and "A customer has 14 days" in first
    assert proc.stdout == ""


def test_json_for_scripts(demo: Path):
    proc = run_cairn(demo, "cite", "--json", "A customer   has 14\n days")
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["found"] == 1 and got["line"] == 8
    assert got["citation"] == {"chunk_id": "691d71e4b46d8b0d", "start": 0, "end": 22, "quote": "A customer has 14 days",
                               "source": "sources/policy.md", "version": got["citation"]["version"]}
    assert len(got["citation"]["version"]) == 12
    many = run_cairn(demo, "cite", "--json", "credit")
    assert many.returncode == 1 and json.loads(many.stdout)["found"] > 1
    none = run_cairn(demo, "cite", "--json", "zebra crossings are painted weekly")
    assert none.returncode == 1 and json.loads(none.stdout)["found"] == 0


def test_bad_input_exits_2_with_a_message(demo: Path):
    proc = run_cairn(demo, "cite", "   ")
    assert proc.returncode == 2 and "the quote is empty" in proc.stderr
    proc = run_cairn(demo, "cite", "--source", "drafts/credits-answer.md", "credit")
    assert proc.returncode == 2 and "not a source" in proc.stderr
    assert "Traceback" not in proc.stderr
