"""`cairn cite --for CLAIM` through the real CLI, on the demo workspace: the passage
that backs a claim first, a passage with another number never offered as support,
nothing for a claim no source backs (exit 1), --source, --json, and a block that
verifies when pasted under its claim."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import check_json, run_cairn

CLAIM = "A customer has 14 days to request a credit for a damaged delivery."


def test_the_passage_the_policy_backs_comes_first_and_verifies_when_pasted(demo: Path):
    proc = run_cairn(demo, "cite", "--for", CLAIM)
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.split("```\n")[0] + "```\n"
    assert first.startswith("# sources/policy.md:8 \u00b7 supports it, support 1.00\n```cite\n")
    assert 'quote: "A customer has 14 days to request a credit for a damaged delivery."' in first
    assert 'claim: "A customer has 14 days to request a"' in first  # bound to its claim (its first words)
    block = first.split("\n", 1)[1]
    draft = demo / "drafts" / "evidence.md"
    draft.write_text(f"# Found\n\n{CLAIM}\n\n{block}", encoding="utf-8")
    code, report = check_json(demo, "drafts/evidence.md")
    (claim,) = report["drafts"][0]["claims"]
    assert claim["supported"] is True and claim["diagnostics"] == []
    assert code == 0


def test_a_claim_with_the_wrong_number_is_not_backed_by_that_passage(demo: Path):
    proc = run_cairn(demo, "cite", "--for", CLAIM.replace("14", "30"), "--json")
    assert proc.returncode == 1, proc.stderr
    got = json.loads(proc.stdout)
    assert got["supported"] is False
    policy = [p for p in got["passages"] if "14 days" in p["citation"]["quote"]]
    assert policy and not policy[0]["supports"]
    assert "claim says 30 days; quotes say 14 days" in policy[0]["why"]


def test_a_claim_nothing_is_about_says_nothing_answers_it_and_exits_1(demo: Path):
    proc = run_cairn(demo, "cite", "--for", "The warehouse roof is painted bright orange every spring.")
    assert proc.returncode == 1
    assert "nothing in the sources answers this" in proc.stderr
    assert "supports it" not in proc.stdout
    shown = [line for line in proc.stdout.splitlines() if line.startswith("# ")]
    assert all("does not answer it: not about the claim" in line for line in shown)
    got = json.loads(run_cairn(demo, "cite", "--for", "The warehouse roof is painted bright orange every spring.",
                               "--json").stdout)
    assert got["answered"] is False and got["supported"] is False
    assert got["message"] == "nothing in the sources answers this"
    assert all(not p["answers"] and not p["supports"] for p in got["passages"])


def test_a_claim_the_sources_are_about_but_do_not_back_says_so(demo: Path):
    proc = run_cairn(demo, "cite", "--for", CLAIM.replace("14", "30"))
    assert proc.returncode == 1
    assert "nothing in the sources supports this" in proc.stderr
    assert "does not support it: claim says 30 days" in proc.stdout


def test_source_glob_and_json(demo: Path):
    proc = run_cairn(demo, "cite", "--for", CLAIM, "--source", "sources/*.pdf", "--json", "-k", "5")
    got = json.loads(proc.stdout)
    assert got["passages"] and all(p["source"] == "sources/shipping.pdf" for p in got["passages"])
    assert proc.returncode == 1  # the PDF does not back it
    proc = run_cairn(demo, "cite", "--for", CLAIM, "--json", "-k", "1")
    got = json.loads(proc.stdout)
    assert proc.returncode == 0 and len(got["passages"]) == 1
    p = got["passages"][0]
    assert p["supports"] and p["support_score"] == 1.0 and p["source"] == "sources/policy.md"
    assert p["block"].startswith("```cite\n") and p["citation"]["chunk_id"] == "691d71e4b46d8b0d"


def test_quote_and_claim_together_or_neither_is_a_usage_error(demo: Path):
    assert run_cairn(demo, "cite", "some quote", "--for", CLAIM).returncode == 2
    proc = run_cairn(demo, "cite")
    assert proc.returncode == 2 and "--for CLAIM" in proc.stderr
