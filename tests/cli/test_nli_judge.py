"""The nli judge through the real CLI: a tiny ONNX classifier built by the test (tests/nli_model.py)
in a small workspace (tests/nli_ws.py), loaded by the real provider; its verdicts in `cairn check`'s
text, JSON and HTML reports; label mapping, a damaged model folder, consent and the verdict cache."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import nli_model
import nli_ws
from cairn_testing import run_cairn
from nli_ws import BRIDGE, DAYS, FERRIES


def check(root: Path, *args: str, env: dict | None = None) -> tuple[object, dict[str, dict]]:
    proc = run_cairn(root, "check", "--format", "json", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    claims = {c["text"]: c for d in json.loads(proc.stdout)["drafts"] for c in d["claims"]}
    return proc, claims


def codes(claim: dict) -> list[str]:
    return sorted(d["code"] for d in claim["diagnostics"])


def page_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="cairn-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return nli_ws.build(tmp_path / "ws")


def lexical(root: Path) -> dict[str, dict]:
    """The lexical check's claims of the same workspace (the judge table dropped for one run)."""
    toml = root / "cairn.toml"
    saved = toml.read_text(encoding="utf-8")
    toml.write_text(saved.split("\n[judge]\n")[0], encoding="utf-8")
    try:
        return check(root)[1]
    finally:
        toml.write_text(saved, encoding="utf-8")


def assert_model_verdicts(claims: dict[str, dict]) -> None:
    ferries, bridge, days = claims[FERRIES], claims[BRIDGE], claims[DAYS]
    assert all(c["judge"] == "nli" for c in (ferries, bridge, days))
    # the quote's sentence holds the model's keyword: yes, whatever the word overlap
    assert ferries["supported"] is True and ferries["support_score"] > 0.9
    # every word quoted, but no keyword: the model says no and fails the claim
    assert bridge["supported"] is False and bridge["support_score"] < 0.2
    (unsupported,) = [d for d in bridge["diagnostics"] if d["code"] == "unsupported-claim"]
    assert "nli judge" in unsupported["message"]
    # the model's yes does not lift the quantity rule
    assert days["supported"] is False and days["support_score"] > 0.9 and "number-mismatch" in codes(days)


def test_the_models_verdicts_through_text_json_and_html(ws: Path):
    before = lexical(ws)
    assert before[FERRIES]["supported"] is False and before[BRIDGE]["supported"] is True
    assert all(c["judge"] == "lexical" for c in before.values())

    proc, claims = check(ws)
    assert proc.returncode == 1
    assert_model_verdicts(claims)

    text = run_cairn(ws, "check")
    assert text.returncode == 1, text.stderr
    assert re.search(r"answer\.md:\d+: VERIFIED \(support 0\.9\d, nli\) Ferries were suspended across the whole region\.", text.stdout)
    assert re.search(r"answer\.md:\d+: FAILED \(support 0\.0\d, nli\) The bridge opened in spring\.", text.stdout)
    assert "the nli judge finds that the quotes do not support the claim" in text.stdout

    page = run_cairn(ws, "check", "--format", "html")
    assert page.returncode == 1, page.stderr
    shown = {c["text"]: c for a in page_data(page.stdout)["answers"] for c in a["claims"]}
    for text_, c in claims.items():
        assert (shown[text_]["judge"], shown[text_]["supported"]) == ("nli", c["supported"])
        assert [d["code"] for d in shown[text_]["diagnostics"]] == [d["code"] for d in c["diagnostics"]]


def test_labels_come_from_id2label(ws: Path):
    # the "supported" output first rather than last: the same verdicts
    shutil.rmtree(ws / nli_ws.MODEL)
    nli_model.build(ws / nli_ws.MODEL, labels={"0": "ENTAILMENT", "1": "neutral", "2": "contradiction"})
    assert_model_verdicts(check(ws)[1])
    # a two-label export's default names
    shutil.rmtree(ws / nli_ws.MODEL)
    nli_model.build(ws / nli_ws.MODEL, labels=nli_model.TWO_LABELS)
    assert_model_verdicts(check(ws)[1])


@pytest.mark.parametrize("labels", [{"0": "yes", "1": "no"}, {"0": "entailment", "1": "supported"},
                                    {"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"}])
def test_labels_that_cannot_be_mapped_are_a_configuration_error(ws: Path, labels: dict[str, str]):
    shutil.rmtree(ws / nli_ws.MODEL)
    nli_model.build(ws / nli_ws.MODEL, labels=labels)
    proc = run_cairn(ws, "check")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "cannot tell which output of the model means 'supported'" in proc.stderr
    for k, v in labels.items():
        assert f"{k}: {v}" in proc.stderr  # names the labels it found
    assert proc.stdout == ""


def _garbage_graph(folder: Path) -> None:
    (folder / "model.onnx").write_bytes(b"\x08\x07not a graph at all" * 50)


def _no_tokenizer(folder: Path) -> None:
    (folder / "tokenizer.json").unlink()


def _bad_tokenizer(folder: Path) -> None:
    (folder / "tokenizer.json").write_text('{"version": "1.0", "model": {"type": "Nonsense"}}', encoding="utf-8")


def _bad_config(folder: Path) -> None:
    (folder / "config.json").write_text("{not json", encoding="utf-8")


def _other_inputs(folder: Path) -> None:
    import onnx

    model = onnx.load(str(folder / "model.onnx"))
    model.graph.input[0].name = "pixel_values"
    for node in model.graph.node:
        node.input[:] = ["pixel_values" if x == "input_ids" else x for x in node.input]
    onnx.save(model, str(folder / "model.onnx"))


def _wrong_shape(folder: Path) -> None:
    # config.json promises five labels; the graph gives three scores
    cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    cfg["id2label"] = {"0": "contradiction", "1": "neutral", "2": "entailment", "3": "other", "4": "more"}
    (folder / "config.json").write_text(json.dumps(cfg), encoding="utf-8")


@pytest.mark.parametrize("damage, reason", [
    (_garbage_graph, "model.onnx cannot be loaded"),
    (_no_tokenizer, "tokenizer.json is missing"),
    (_bad_tokenizer, "tokenizer.json cannot be read as a tokenizer"),
    (_bad_config, "config.json cannot be read"),
    (_other_inputs, "wants an input named 'pixel_values'"),
    (_wrong_shape, "outputs of shape [3, 3]"),
])
def test_a_damaged_model_folder_leaves_the_lexical_check(ws: Path, damage, reason: str):
    before = lexical(ws)
    damage(ws / nli_ws.MODEL)
    proc, claims = check(ws)
    assert proc.returncode == 1
    for text_, c in claims.items():
        assert c["judge"] == "fallback"
        assert c["supported"] == before[text_]["supported"]
        assert c["support_score"] == before[text_]["support_score"]
        (fb,) = [d for d in c["diagnostics"] if d["code"] == "judge-fallback"]
        assert fb["severity"] == "information" and reason in fb["message"], fb["message"]
        assert "lexical check decided" in fb["message"]
        if damage is not _wrong_shape:  # the folder cannot be used (the other: the model ran, its answer is wrong)
            assert str(ws / nli_ws.MODEL) in fb["message"]
        assert codes(c) == sorted([d["code"] for d in before[text_]["diagnostics"]] + ["judge-fallback"])
    text = run_cairn(ws, "check")
    assert text.returncode == 1 and "Traceback" not in text.stderr
    assert reason in text.stdout


def test_an_empty_model_is_a_configuration_error(ws: Path):
    nli_ws.configure(ws, "")
    proc = run_cairn(ws, "check")
    assert proc.returncode == 2 and "judge.model is empty" in proc.stderr


def test_a_model_folder_outside_the_workspace_needs_the_users_consent(ws: Path, tmp_path: Path):
    outside = nli_model.build(tmp_path / "elsewhere" / "tiny")
    before = lexical(ws)
    for named in (str(outside), "../elsewhere/tiny"):
        nli_ws.configure(ws, named)
        proc, claims = check(ws)
        assert proc.stderr.count("refused to load the judge model folder") == 1, proc.stderr
        assert "CAIRN_JUDGE_MODEL" in proc.stderr
        for text_, c in claims.items():
            assert c["judge"] == "fallback" and c["supported"] == before[text_]["supported"]
            (fb,) = [d for d in c["diagnostics"] if d["code"] == "judge-fallback"]
            assert "refused to load" in fb["message"]
    # a link inside the workspace to a folder outside it is outside too
    (ws / "models" / "link").symlink_to(outside, target_is_directory=True)
    nli_ws.configure(ws, "models/link")
    _, claims = check(ws)
    assert all(c["judge"] == "fallback" for c in claims.values())
    # the user names it: loaded
    nli_ws.configure(ws, str(outside))
    proc, claims = check(ws, env={"CAIRN_JUDGE_MODEL": str(outside)})
    assert "refused" not in proc.stderr
    assert_model_verdicts(claims)


def test_verdicts_are_cached_by_model_digest_claim_and_quotes(ws: Path):
    import sqlite3

    def cached_verdicts() -> int:
        with sqlite3.connect(ws / ".cairn" / "index.db") as db:
            return db.execute("select count(*) from kv_cache where key like 'judge:%'").fetchone()[0]

    _, first = check(ws)
    assert cached_verdicts() == 3
    _, second = check(ws)
    assert second == first and cached_verdicts() == 3
    # another model (the same graph, its labels read the other way round): new digest, new verdicts
    cfg_path = ws / nli_ws.MODEL / "config.json"
    cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
    cfg["id2label"] = {"0": "entailment", "1": "neutral", "2": "contradiction"}
    cfg_path.write_text(json.dumps(cfg), encoding="utf-8")
    _, third = check(ws)
    assert cached_verdicts() == 6
    assert third[BRIDGE]["judge"] == "nli" and third[BRIDGE]["support_score"] != first[BRIDGE]["support_score"]
    # an edited claim is asked again; the others are not
    draft = ws / "drafts" / "answer.md"
    draft.write_text(draft.read_text(encoding="utf-8").replace(FERRIES, "Ferries were suspended across the region."),
                     encoding="utf-8")
    check(ws)
    assert cached_verdicts() == 7
