"""The openai judge's cost, through the real CLI against a chat-completions server on 127.0.0.1
started by the test: several claims in one request (`claims_per_request`), each verdict read
back on its own (a malformed part of a reply falls back for its claims only), and the requests
and tokens of a check in `metrics.judge` of the JSON report."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import nli_ws
from cairn_testing import run_cairn
from judge_server import JudgeServer, Request
from nli_ws import BRIDGE, DAYS, FERRIES

USAGE = {"prompt_tokens": 120, "completion_tokens": 15, "total_tokens": 135}


def claims_of(req: Request) -> list[str]:
    user = next(m["content"] for m in req.body["messages"] if m["role"] == "user")
    return re.findall(r"(?m)^Claim \d+:\n(.*)$", user)


def verdict(n: int, claim: str) -> dict:
    no = "bridge" in claim
    return {"claim": n, "label": "not_supported" if no else "supported", "score": 0.1 if no else 0.9}


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return nli_ws.build(tmp_path / "ws", judge=False)


@pytest.fixture
def srv():
    with JudgeServer() as s:
        s.usage = USAGE
        yield s


def configure(ws: Path, url: str, **extra) -> None:
    lines = ['provider = "openai"', f'url = "{url}"', 'model = "m"', "retries = 0"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in extra.items()]
    (ws / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n[judge]\n' + "\n".join(lines)
                                   + "\n", encoding="utf-8")


def check(ws: Path) -> tuple[dict[str, dict], dict]:
    proc = run_cairn(ws, "check", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    return {c["text"]: c for d in report["drafts"] for c in d["claims"]}, report["metrics"]


def test_several_claims_in_one_request_and_the_cost_reported(ws: Path, srv: JudgeServer):
    srv.answer_request = lambda req: {"verdicts": [verdict(n, c) for n, c in enumerate(claims_of(req), 1)]}
    configure(ws, srv.url, claims_per_request=2)
    claims, metrics = check(ws)
    assert srv.count == 2 and sorted(len(claims_of(r)) for r in srv.requests) == [1, 2]
    assert sorted(c for r in srv.requests for c in claims_of(r)) == sorted([FERRIES, BRIDGE, DAYS])
    assert all(c["judge"] == "openai" for c in claims.values())
    assert claims[FERRIES]["supported"] is True and claims[BRIDGE]["supported"] is False
    assert claims[BRIDGE]["support_score"] == 0.1
    assert metrics["judge"] == {"provider": "openai", "claims_asked": 3, "claims_cached": 0, "fallbacks": 0,
                                "requests": 2, "prompt_tokens": 240, "completion_tokens": 30}
    # a re-check: every verdict from the cache, nothing sent, nothing spent
    again, metrics = check(ws)
    assert again == claims and srv.count == 2
    assert metrics["judge"]["requests"] == 0 and metrics["judge"]["claims_cached"] == 3
    assert metrics["judge"]["prompt_tokens"] == 0


def test_one_claim_a_request_by_default(ws: Path, srv: JudgeServer):
    srv.answer = lambda claim, quotes: {"label": "supported", "score": 0.8}
    configure(ws, srv.url)
    claims, metrics = check(ws)
    assert srv.count == 3 and all(c["judge"] == "openai" for c in claims.values())
    assert metrics["judge"]["requests"] == 3 and metrics["judge"]["prompt_tokens"] == 360
    assert metrics["judge"]["claims_asked"] == 3


@pytest.mark.parametrize("reply, judged, reason", [
    # claim 2 missing, claim 3 malformed: only claim 1 keeps the judge's verdict
    (lambda cs: {"verdicts": [verdict(1, cs[0]), {"claim": 3, "label": "maybe"}]}, 1, "malformed batch answer"),
    # numbers as strings, prose and a code fence around the object: all read
    (lambda cs: "Here you go:\n```json\n" + json.dumps({"verdicts": [{**verdict(n, c), "claim": str(n)}
                                                        for n, c in enumerate(cs, 1)]}) + "\n```", 3, ""),
    # a bare list in order, without numbers
    (lambda cs: json.dumps([{k: v for k, v in verdict(n, c).items() if k != "claim"} for n, c in enumerate(cs, 1)]),
     3, ""),
    # two different verdicts for one claim: that claim falls back
    (lambda cs: {"verdicts": [verdict(n, c) for n, c in enumerate(cs, 1)]
                 + [{"claim": 2, "label": "supported", "score": 0.5}]}, 2, "two different verdicts"),
    # no verdicts at all
    (lambda cs: "I cannot tell.", 0, "no list of verdicts"),
])
def test_a_batch_reply_is_read_claim_by_claim(ws: Path, srv: JudgeServer, reply, judged: int, reason: str):
    srv.answer_request = lambda req: reply(claims_of(req))
    configure(ws, srv.url, claims_per_request=3)
    claims, metrics = check(ws)
    assert srv.count == 1
    order = claims_of(srv.requests[0])
    got = [claims[c]["judge"] for c in order]
    assert got.count("openai") == judged and got.count("fallback") == 3 - judged
    for c in order:
        if claims[c]["judge"] == "fallback":
            (fb,) = [d for d in claims[c]["diagnostics"] if d["code"] == "judge-fallback"]
            assert reason in fb["message"] and "lexical check decided" in fb["message"]
    assert metrics["judge"]["fallbacks"] == 3 - judged and metrics["judge"]["requests"] == 1


def test_claims_per_request_out_of_range_is_a_configuration_error(ws: Path, srv: JudgeServer):
    configure(ws, srv.url, claims_per_request=0)
    proc = run_cairn(ws, "check")
    assert proc.returncode == 2 and "claims_per_request" in proc.stderr
