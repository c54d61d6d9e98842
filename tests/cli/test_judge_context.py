"""The judge reads each quote with the sentence of its source that holds
it, and the meaning rules still apply after its verdict (SPEC section 4),
against a real chat-completions server on 127.0.0.1 started by the test."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cairn_testing import run_cairn
from judge_server import JudgeServer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures" / "meaning"))
from make_meaning import build  # the fixture builder lives beside its data


def test_judge_gets_the_sentence_and_the_quantity_rule_still_applies(tmp_path: Path):
    root = build(tmp_path / "ws")
    seen: dict[str, list[str]] = {}

    def answer(claim: str, quotes: list[str]) -> dict:
        seen[claim] = quotes
        return {"label": "supported", "score": 0.9}  # a judge that says yes to everything

    with JudgeServer(answer) as srv:
        with (root / "cairn.toml").open("a", encoding="utf-8") as f:
            f.write(f'\n[judge]\nprovider = "openai"\nurl = "{srv.url}"\nmodel = "test-model"\n')
        proc = run_cairn(root, "check", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    claims = {c["text"]: c for c in json.loads(proc.stdout)["drafts"][0]["claims"]}

    # the quote "the warranty covers accidental damage" went with its sentence
    q = seen["The warranty covers accidental damage."]
    assert len(q) == 1 and "It is false that the warranty covers accidental damage." in q[0]
    # a quote that is its whole sentence goes alone
    assert seen["Opened items can be returned."] == ["Opened items cannot be returned"]

    # the judge said supported; the quantity rule still fails the -18 °F claim
    f = claims["Frozen goods are held at or below -18 °F until dispatch."]
    assert f["judge"] == "openai" and f["supported"] is False
    assert [d["code"] for d in f["diagnostics"]] == ["number-mismatch"]
    # and a claim with no meaning failure takes the judge's verdict
    ok = claims["The Leeds depot opened on May 12, 2024."]
    assert ok["judge"] == "openai" and ok["supported"] is True
