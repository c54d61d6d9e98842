"""Issue 20 through the real `cairn check`: a cite block bound to its claim
(`claim-moved`), one sentence at a time (`unsupported-sentence`,
`strict_sentences` and coverage)."""

from __future__ import annotations

from pathlib import Path

from binding_ws import FROZEN, WAREHOUSE, block, door_block, frozen_block, make
from cairn_testing import check_json, run_cairn

CLAIM = "Frozen goods are held at or below -18 °C until dispatch."
THREE = ("Frozen goods are held at or below -18 °C until dispatch. "
         "Chilled goods are kept in the same room. "
         "The night shift counts every pallet by hand.")


def _claims(report: dict) -> list[dict]:
    return [c for d in report["drafts"] for c in d["claims"]]


def _codes(claim: dict) -> list[str]:
    return [d["code"] for d in claim["diagnostics"]]


def test_a_bound_block_under_its_claim_verifies(tmp_path: Path):
    ws = make(tmp_path / "ws")
    (ws / "drafts" / "a.md").write_text(f"{CLAIM}\n\n{frozen_block('Frozen goods are held at or below')}",
                                        encoding="utf-8")
    code, report = check_json(ws)
    assert code == 0, report
    assert _codes(_claims(report)[0]) == []


def test_a_paragraph_inserted_before_the_block_is_claim_moved(tmp_path: Path):
    ws = make(tmp_path / "ws")
    inserted = "The warehouse is staffed around the clock by a team of forty."
    draft = ws / "drafts" / "a.md"
    text = f"{CLAIM}\n\n{inserted}\n\n{frozen_block('Frozen goods are held at or below')}"
    draft.write_text(text, encoding="utf-8")
    code, report = check_json(ws)
    assert code == 1
    claim = _claims(report)[0]
    assert claim["text"] == inserted
    assert claim["supported"] is False
    moved = [d for d in claim["diagnostics"] if d["code"] == "claim-moved"]
    assert len(moved) == 1
    assert "Frozen goods are held at or below" in moved[0]["message"]
    assert "that claim is now on line 1" in moved[0]["message"]
    assert moved[0]["line"] == 5  # the fence
    # --fix never moves a block
    proc = run_cairn(ws, "check", "--fix")
    assert proc.returncode == 1
    assert draft.read_text(encoding="utf-8") == text


def test_the_move_fix_puts_the_block_back(tmp_path: Path):
    from cairn import drafts
    from cairn.engine import checks as engine
    from cairn.index.workspace import Workspace
    from cairn.verify.verifier import Verifier

    ws_root = make(tmp_path / "ws")
    inserted = "The warehouse is staffed around the clock."
    text = f"{CLAIM}\n\n{inserted}\n\n{frozen_block('Frozen goods are held at or below')}"
    (ws_root / "drafts" / "a.md").write_text(text, encoding="utf-8")
    ws = Workspace(ws_root)
    engine.index(ws)
    checked = engine.check_draft(ws, Verifier(ws), ws_root / "drafts" / "a.md")
    d = next(d for c in checked.result.claims for d in c.diagnostics if d.code == "claim-moved")
    move = d.fixes[0]
    assert move.title.startswith("Move this block back under its claim") and not move.safe
    fixed = drafts.apply_edits(text, move.edits)
    assert fixed == f"{CLAIM}\n\n{frozen_block('Frozen goods are held at or below').rstrip(chr(10))}\n\n{inserted}\n"
    (ws_root / "drafts" / "a.md").write_text(fixed, encoding="utf-8")
    code, report = check_json(ws_root)
    claims = _claims(report)
    assert [c["text"] for c in claims] == [CLAIM]
    assert claims[0]["supported"] is True
    assert report["metrics"]["uncited_paragraphs"] == 1  # the inserted paragraph is prose now


def test_blocks_without_the_field_keep_todays_behaviour(tmp_path: Path):
    ws = make(tmp_path / "ws")
    (ws / "drafts" / "a.md").write_text(f"{CLAIM}\n\nThe warehouse is staffed.\n\n{frozen_block()}",
                                        encoding="utf-8")
    _, report = check_json(ws)
    assert "claim-moved" not in _codes(_claims(report)[0])


def test_a_hash_binding(tmp_path: Path):
    from cairn.drafts.binding import claim_hash

    ws = make(tmp_path / "ws")
    (ws / "drafts" / "a.md").write_text(f"{CLAIM}\n\n{frozen_block(claim_hash(CLAIM))}\n"
                                        f"Another text.\n\n{frozen_block(claim_hash(CLAIM))}", encoding="utf-8")
    _, report = check_json(ws)
    first, second = _claims(report)
    assert _codes(first) == ["citation-reuse"]  # the same span backs "Another text."
    assert "claim-moved" in _codes(second)


def test_three_sentences_one_unbacked(tmp_path: Path):
    ws = make(tmp_path / "ws")
    (ws / "drafts" / "a.md").write_text(f"{THREE}\n\n{frozen_block()}", encoding="utf-8")
    code, report = check_json(ws)
    claim = _claims(report)[0]
    sent = [d for d in claim["diagnostics"] if d["code"] == "unsupported-sentence"]
    assert [d["severity"] for d in sent] == ["warning", "warning"]
    assert "\u201cChilled goods are kept in the same room.\u201d" in sent[0]["message"]
    assert "\u201cThe night shift counts every pallet by hand.\u201d" in sent[1]["message"]
    assert not any(FROZEN in d["message"] for d in sent)
    assert report["metrics"]["coverage"] == 1.0  # not strict: the sentences do not count as uncited


def test_strict_sentences_fails_the_claim_and_leaves_coverage_alone(tmp_path: Path):
    """coverage is claims over claims and uncited prose paragraphs (SPEC section 5), under strict_sentences
    too: an unsupported sentence fails its claim, and is no uncited paragraph."""
    ws = make(tmp_path / "ws", "strict_sentences = true\nthreshold = 0.3\n")
    (ws / "drafts" / "a.md").write_text(f"{THREE}\n\n{frozen_block()}", encoding="utf-8")
    code, report = check_json(ws)
    assert code == 1
    claim = _claims(report)[0]
    assert claim["supported"] is False
    assert _codes(claim).count("unsupported-sentence") == 2
    assert report["metrics"]["uncited_paragraphs"] == 0
    assert report["metrics"]["coverage"] == 1.0
    assert report["metrics"]["citation_validity"] == 0.0


def test_one_sentence_is_not_split(tmp_path: Path):
    ws = make(tmp_path / "ws", "strict_sentences = true\n")
    (ws / "drafts" / "a.md").write_text(f"{CLAIM}\n\n{frozen_block()}\n\n"
                                        f"The north loading door opens at 06:00. It closes at 22:00 every weekday.\n\n"
                                        f"{door_block()}", encoding="utf-8")
    code, report = check_json(ws)
    assert code == 0, report
    assert all(_codes(c) == [] for c in _claims(report))


DOOR_CLAIM = "The warehouse door on the north side is kept locked during the night."


def test_one_span_backing_unrelated_claims_in_two_drafts(tmp_path: Path):
    ws = make(tmp_path / "ws")
    (ws / "drafts" / "a.md").write_text(f"# A\n\n{CLAIM}\n\n{frozen_block()}", encoding="utf-8")
    (ws / "drafts" / "b.md").write_text(f"{DOOR_CLAIM}\n\n{frozen_block()}", encoding="utf-8")
    # a claim in other words about the same thing: related, not reported
    (ws / "drafts" / "c.md").write_text(f"Until dispatch, frozen goods are held at or below -18 °C.\n\n{frozen_block()}",
                                        encoding="utf-8")
    for fix in (False, True):  # the cached path and the full one
        code, report = check_json(ws, *(["--fix"] if fix else []))
        by_path = {d["path"]: d["claims"][0] for d in report["drafts"]}
        reuse_b = [d for d in by_path["drafts/b.md"]["diagnostics"] if d["code"] == "citation-reuse"]
        assert len(reuse_b) == 1 and reuse_b[0]["severity"] == "warning"
        assert f"\u201c{CLAIM}\u201d (drafts/a.md:3)" in reuse_b[0]["message"]
        assert "(drafts/c.md:1)" in reuse_b[0]["message"]
        lines = (ws / "drafts" / "b.md").read_text(encoding="utf-8").splitlines()
        assert lines[reuse_b[0]["line"] - 1].startswith("quote:")
        # a and c are about the same thing: each names b only
        for other in ("drafts/a.md", "drafts/c.md"):
            got = [d["message"] for d in by_path[other]["diagnostics"] if d["code"] == "citation-reuse"]
            assert len(got) == 1 and f"\u201c{DOOR_CLAIM}\u201d (drafts/b.md:1)" in got[0], got
            assert "drafts/a.md" not in got[0] and "drafts/c.md" not in got[0]
        assert by_path["drafts/a.md"]["supported"] is True  # a warning that never fails the claim
    assert run_cairn(ws, "check", "--strict").returncode == 1


def test_a_sentence_backed_by_the_quotes_sentence_is_not_flagged(tmp_path: Path):
    """Each sentence alone is scored as the claim is: a word of the quote's own sentence in the
    source counts half (the rule `sentence`), a word only elsewhere in the chunk does not."""
    ws = make(tmp_path / "ws")
    quote = "held at or below -18 °C"
    backed = "Frozen goods are held at or below -18 °C. Frozen goods are held so until dispatch."
    elsewhere = "Frozen goods are held at or below -18 °C. Chilled goods are held nearby."
    (ws / "drafts" / "a.md").write_text(
        f"{backed}\n\n{block('sources/warehouse.md', WAREHOUSE, quote)}\n\n"
        f"{elsewhere}\n\n{block('sources/warehouse.md', WAREHOUSE, quote)}", encoding="utf-8")
    code, report = check_json(ws)
    first, second = _claims(report)
    assert "unsupported-sentence" not in _codes(first), first["diagnostics"]
    sent = [d["message"] for d in second["diagnostics"] if d["code"] == "unsupported-sentence"]
    assert len(sent) == 1 and "\u201cChilled goods are held nearby.\u201d" in sent[0]


def test_a_sentence_whose_amount_the_quote_writes_otherwise_is_backed(tmp_path: Path):
    """Each sentence is scored as the claim is: a time the quote writes on the other clock is found."""
    ws = make(tmp_path / "ws", "strict_sentences = true\n")
    (ws / "drafts" / "a.md").write_text(
        "The north loading door opens at 6 am. It shuts at 10 pm every weekday.\n\n" + door_block(), encoding="utf-8")
    code, report = check_json(ws)
    claim = _claims(report)[0]
    assert code == 0 and _codes(claim) == [], claim["diagnostics"]
    (ws / "drafts" / "a.md").write_text(
        "The north loading door opens at 6 am. It shuts at 11 pm every weekday.\n\n" + door_block(), encoding="utf-8")
    code, report = check_json(ws)
    claim = _claims(report)[0]
    assert code == 1 and "number-mismatch" in _codes(claim), claim["diagnostics"]
