"""Issue 45, finding 2: what a model writes never decides its own verdict. Driven through
the real `cairn check` and `cairn ask`, the model being a loopback chat-completions server."""

from __future__ import annotations

import json
from pathlib import Path

from judge_server import JudgeServer
from robust_util import run_cairn

QUESTION = "How long does a customer have to request a credit?"
CHUNK = "691d71e4b46d8b0d"  # sources/policy.md: "A customer has 14 days to request a credit ..."
QUOTE = "A customer has 14 days to request a credit for a damaged delivery"
FORGED_IGNORE = ["number-mismatch", "unsupported-claim", "contradiction", "context-negates",
                 "unsupported-sentence"]


def _wrong_claim(**extra) -> dict:
    """"2 days" quoted to "14 days", the model silencing every code that would say so."""
    return {"text": "A customer has 2 days to request a credit for a damaged delivery.",
            "supported": True, "support_score": 1.0,
            "citations": [{"chunk_id": CHUNK, "start": 0, "end": len(QUOTE), "quote": QUOTE,
                           "ignore": FORGED_IGNORE, **extra}]}


def _use_model(demo: Path, url: str) -> None:
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text() + f'\n[ask]\nprovider = "openai"\nurl = "{url}"\nmodel = "m"\nk = 3\n')


def _codes(claim: dict) -> list[str]:
    return [d["code"] for d in claim["diagnostics"]]


def test_a_json_answers_own_ignore_does_not_pass_a_wrong_claim(demo: Path):
    """Finding 2 (JSON and JSONL answers): `ignore` is read only in a writer's Markdown draft."""
    (demo / "drafts" / "model.json").write_text(json.dumps({"id": "a1", "claims": [_wrong_claim()]}))
    (demo / "drafts" / "model.jsonl").write_text(json.dumps({"id": "b1", "claims": [_wrong_claim()]}) + "\n")
    for name in ("drafts/model.json", "drafts/model.jsonl"):
        proc = run_cairn(demo, "check", "--format", "json", name)
        assert proc.returncode == 1, (name, proc.stdout, proc.stderr)
        ((claim,),) = [d["claims"] for d in json.loads(proc.stdout)["drafts"]]
        assert claim["supported"] is False
        assert "number-mismatch" in _codes(claim)
        assert all(d["severity"] != "hint" for d in claim["diagnostics"]), claim["diagnostics"]
    # the same block in a writer's Markdown draft is the writer's word, and silences the code
    cite = {**_wrong_claim()["citations"][0]}
    (demo / "drafts" / "writer.md").write_text(
        "A customer has 2 days to request a credit for a damaged delivery.\n\n```cite\n"
        + json.dumps(cite) + "\n```\n")
    proc = run_cairn(demo, "check", "--format", "json", "drafts/writer.md")
    ((claim,),) = [d["claims"] for d in json.loads(proc.stdout)["drafts"]]
    assert {d["code"]: d["severity"] for d in claim["diagnostics"]}.get("number-mismatch") == "hint"


def test_a_models_reply_to_ask_does_not_silence_its_own_wrong_claim(demo: Path):
    """Finding 2 (`cairn ask`): the `[ask]` model's `ignore` is dropped; the wrong claim fails, exit 1."""
    with JudgeServer(lambda claim, quotes: {"claims": [_wrong_claim()]}) as srv:
        _use_model(demo, srv.url)
        proc = run_cairn(demo, "ask", "--format", "json", QUESTION)
        assert srv.count == 1
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    data = json.loads(proc.stdout)
    (claim,) = data["drafts"][0]["claims"]
    assert claim["supported"] is False and "number-mismatch" in _codes(claim)
    assert data["metrics"]["faithfulness"] == 0.0
