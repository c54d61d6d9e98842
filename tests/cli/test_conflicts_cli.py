"""Issue 47 through the real `cairn check`: sources that disagree with a verified claim
(`conflicting-source`, `[authority] conflicts`), authority over the citations that back the
claim (`low-authority`, `source_quality`), and a claim's parts with the quotes backing each
(`parts`, `joint`, `unsupported-sentence`, `citation-reuse`)."""

from __future__ import annotations

import json
from pathlib import Path

from conflict_ws import DRAFT, OFFICE, PLAN_A, PLAN_B, POLICY, cite, draft, make

from cairn_testing import run_cairn

POL = ("sources/policy/refunds.md", POLICY)
DRF = ("sources/internal/draft.md", DRAFT)
OFF = ("sources/office.md", OFFICE)
PA = ("sources/plans/a.md", PLAN_A)
PB = ("sources/plans/b.md", PLAN_B)
COMPARISON = PLAN_A[:-1] + ", but " + PLAN_B


def check(ws: Path, *args: str) -> tuple[int, dict]:
    proc = run_cairn(ws, "check", "--format", "json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def claims(rep: dict) -> list[dict]:
    return [c for d in rep["drafts"] for c in d["claims"]]


def diags(claim: dict, code: str) -> list[dict]:
    return [d for d in claim["diagnostics"] if d["code"] == code]


# -- conflicting-source ------------------------------------------------------------------


def test_five_days_against_the_authoritative_fourteen_warns(tmp_path: Path) -> None:
    ws = make(tmp_path)
    draft(ws, cite(DRAFT, DRF))
    code, rep = check(ws, "--as", "reader")
    (claim,) = claims(rep)
    assert code == 0 and claim["supported"], claim
    (d,) = diags(claim, "conflicting-source")
    assert d["severity"] == "warning" and d["line"] == claim["line"]
    msg = d["message"]
    # the passage quoted, with its source, tier and date, and the rule that sets them apart
    assert f"\u201c{POLICY}\u201d" in msg and "sources/policy/refunds.md (authoritative, 2024-06-01)" in msg
    assert "claim says 5 days" in msg and "14 days" in msg
    assert "the policy prefers sources/policy/refunds.md" in msg and "tier 'authoritative'" in msg
    text = run_cairn(ws, "check", "--as", "reader")
    assert text.returncode == 0 and "[conflicting-source]" in text.stdout and "14 days" in text.stdout
    html = run_cairn(ws, "check", "--as", "reader", "--format", "html")
    assert html.returncode == 0 and "conflicting-source" in html.stdout and "sources/policy/refunds.md" in html.stdout


def test_conflicts_fail_fails_the_claim_and_off_does_not_look(tmp_path: Path) -> None:
    ws = make(tmp_path, conflicts="fail")
    draft(ws, cite(DRAFT, DRF))
    code, rep = check(ws, "--as", "reader")
    (claim,) = claims(rep)
    assert code == 1 and not claim["supported"] and not rep["drafts"][0]["faithful"]
    (d,) = diags(claim, "conflicting-source")
    assert d["severity"] == "warning"
    off = make(tmp_path / "off", conflicts="off")
    draft(off, cite(DRAFT, DRF))
    code, rep = check(off, "--as", "reader")
    assert code == 0 and diags(claims(rep)[0], "conflicting-source") == []


def test_a_bad_conflicts_value_is_a_configuration_error(tmp_path: Path) -> None:
    ws = make(tmp_path, conflicts="loud")
    draft(ws, cite(DRAFT, DRF))
    proc = run_cairn(ws, "check")
    assert proc.returncode == 2 and "conflicts" in proc.stderr, proc.stderr


def test_a_lower_tier_does_not_conflict_with_a_higher_one(tmp_path: Path) -> None:
    """The claim rests on the authoritative policy: the internal draft and the official memo,
    both lower, say other numbers and are not raised."""
    ws = make(tmp_path)
    draft(ws, cite(POLICY, POL))
    code, rep = check(ws)
    (claim,) = claims(rep)
    assert code == 0 and claim["supported"] and diags(claim, "conflicting-source") == []


def test_precedence_by_date_within_one_tier(tmp_path: Path) -> None:
    """Same tier: the newer source is the one the policy prefers, whichever side it is on."""
    ws = make(tmp_path, draft_tier="authoritative")
    draft(ws, cite(POLICY, POL))  # the 2024 policy, against the 2025 draft
    _, rep = check(ws, "--as", "reader")
    (d,) = diags(claims(rep)[0], "conflicting-source")
    assert "sources/internal/draft.md (authoritative, 2025-01-10)" in d["message"]
    assert "the policy prefers sources/internal/draft.md: it is newer (2025-01-10)" in d["message"]
    draft(ws, cite(DRAFT, DRF))  # the newer draft, against the older policy
    _, rep = check(ws, "--as", "reader")
    (d,) = diags(claims(rep)[0], "conflicting-source")
    assert "sources/policy/refunds.md (authoritative, 2024-06-01)" in d["message"]
    assert "the policy prefers the claim's sources: they are newer (2025-01-10)" in d["message"]


def test_without_tiers_any_source_conflicts(tmp_path: Path) -> None:
    ws = make(tmp_path, toml="", skip=("sources/counsel/memo.md",))
    draft(ws, cite(DRAFT, DRF))
    code, rep = check(ws)
    (d,) = diags(claims(rep)[0], "conflicting-source")
    assert code == 0 and "sources/policy/refunds.md (no tier, undated)" in d["message"]


def test_a_denied_source_is_never_named(tmp_path: Path) -> None:
    """The counsel-only memo says 60 days: counsel is told, a reader never sees a word of it."""
    ws = make(tmp_path, draft_tier="official")
    draft(ws, cite(DRAFT, DRF))
    outs = [run_cairn(ws, "check", "--as", "reader", *f).stdout for f in ((), ("--format", "json"),
                                                                        ("--format", "html"), ("--format", "sarif"))]
    for out in outs:
        assert "counsel" not in out and "memo" not in out and "60 days" not in out
    assert "conflicting-source" in outs[1]  # the readable authoritative policy is named
    _, rep = check(ws, "--as", "counsel")
    (d,) = diags(claims(rep)[0], "conflicting-source")
    assert "sources/counsel/memo.md" in d["message"] or "and 1 more source" in d["message"]


# -- authority over the supporting citations -------------------------------------------------


def test_an_unrelated_official_quote_does_not_lift_a_draft_claim(tmp_path: Path) -> None:
    """The gamed minimum: the internal draft backs the claim; the office hours back no part of it."""
    ws = make(tmp_path, minimum="official", conflicts="off")
    draft(ws, cite(DRAFT, DRF, OFF))
    code, rep = check(ws)
    (claim,) = claims(rep)
    assert code == 1 and not claim["supported"]
    (d,) = diags(claim, "low-authority")
    assert "sources/internal/draft.md (internal)" in d["message"] and "office" not in d["message"]
    assert claim["parts"] == [{"text": DRAFT, "start": 0, "end": len(DRAFT), "citations": [0], "supported": True}]
    # a claim the official quote does back is not low-authority, even with the draft's quote beside it
    draft(ws, cite(OFFICE, OFF, DRF))
    code, rep = check(ws)
    (claim,) = claims(rep)
    assert code == 0 and claim["supported"] and diags(claim, "low-authority") == []


def test_source_quality_counts_the_backing_citations(tmp_path: Path) -> None:
    ws = make(tmp_path, conflicts="off")
    draft(ws, cite(OFFICE, OFF, DRF))  # the draft's quote backs no part: the weakest backing tier is official
    _, rep = check(ws)
    assert rep["metrics"]["source_quality"] == {"authoritative": 0, "official": 1, "internal": 0, "draft": 0}


# -- parts ------------------------------------------------------------------------------------


def test_a_comparison_backed_jointly_each_half_by_one_quote(tmp_path: Path) -> None:
    ws = make(tmp_path)
    draft(ws, cite(COMPARISON, PA, PB))
    code, rep = check(ws)
    (claim,) = claims(rep)
    assert code == 0 and claim["supported"] and claim["joint"] is True
    first, second = claim["parts"]
    assert first["text"] == PLAN_A[:-1] and first["citations"] == [0] and first["supported"]
    assert second["text"] == PLAN_B and second["citations"] == [1] and second["supported"]
    assert COMPARISON[first["start"]:first["end"]] == first["text"]
    assert COMPARISON[second["start"]:second["end"]] == second["text"]
    assert diags(claim, "unsupported-sentence") == []
    text = run_cairn(ws, "check").stdout
    assert "part 1 (backed; citation 1)" in text and "part 2 (backed; citation 2)" in text and "joint:" in text


def test_one_quote_backing_the_whole_claim_is_not_joint(tmp_path: Path) -> None:
    ws = make(tmp_path)
    draft(ws, cite(POLICY, POL, OFF))
    _, rep = check(ws)
    (claim,) = claims(rep)
    assert claim["supported"] and claim["joint"] is False and claim["parts"][0]["citations"] == [0]


def test_a_clause_no_quote_backs_is_an_unsupported_part(tmp_path: Path) -> None:
    text = POLICY[:-1] + ", and the office is closed on Sundays."
    ws = make(tmp_path)
    draft(ws, cite(text, POL))
    code, rep = check(ws)
    (claim,) = claims(rep)
    assert code == 0 and claim["supported"]  # a warning: the claim as a whole still passes
    backed, unbacked = claim["parts"]
    assert backed["citations"] == [0] and backed["supported"]
    assert unbacked == {"text": "the office is closed on Sundays.", "start": text.index("the office"),
                        "end": len(text), "citations": [], "supported": False}
    (d,) = diags(claim, "unsupported-sentence")
    assert "\u201cthe office is closed on Sundays.\u201d" in d["message"] and "part" in d["message"]
    strict = make(tmp_path / "strict", toml="strict_sentences = true\n")
    draft(strict, cite(text, POL))
    code, rep = check(strict)
    assert code == 1 and not claims(rep)[0]["supported"]


def test_a_claim_all_of_whose_parts_are_backed(tmp_path: Path) -> None:
    text = POLICY[:-1] + ", and " + OFFICE[0].lower() + OFFICE[1:]
    ws = make(tmp_path, toml="strict_sentences = true\n")
    draft(ws, cite(text, POL, OFF))
    code, rep = check(ws)
    (claim,) = claims(rep)
    assert code == 0 and claim["supported"] and claim["joint"] is True
    assert [p["citations"] for p in claim["parts"]] == [[0], [1]]
    assert all(p["supported"] for p in claim["parts"]) and diags(claim, "unsupported-sentence") == []


def test_citation_reuse_compares_a_span_with_the_part_it_backs(tmp_path: Path) -> None:
    """Plan A's span backs the first part of the comparison and a claim of its own: related."""
    ws = make(tmp_path)
    draft(ws, cite(COMPARISON, PA, PB) + cite(PLAN_A, PA))
    _, rep = check(ws)
    for claim in claims(rep):
        assert diags(claim, "citation-reuse") == [], claim
    # a claim about something else on the same span is still reported
    draft(ws, cite(COMPARISON, PA, PB) + cite("Small teams get a discount this year.", PA))
    _, rep = check(ws)
    assert diags(claims(rep)[0], "citation-reuse")
