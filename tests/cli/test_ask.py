"""`cairn ask` through the real CLI: the extractive answer on the demo, and a model
behind a real loopback chat-completions server (tests/judge_server.py) that answers
well, fabricates a quote, cites a chunk it was not given, or does not answer in JSON."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import check_json, run_cairn
from judge_server import JudgeServer, Reply

QUESTION = "How long does a customer have to request a credit?"
CHUNK = "691d71e4b46d8b0d"  # sources/policy.md: "A customer has 14 days to request a credit ..."
QUOTE = "A customer has 14 days to request a credit for a damaged delivery"
OTHER = "a1a1c965a51165ec"  # sources/shipping.pdf p.1, about delivery hours: not retrieved for QUESTION


def _use_model(demo: Path, url: str) -> None:
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text() + f'\n[ask]\nprovider = "openai"\nurl = "{url}"\nmodel = "m"\nk = 3\n')


def _claims(report: dict) -> list[dict]:
    (entry,) = report["drafts"]
    return entry["claims"]


def test_extractive_answer_on_the_demo(demo: Path):
    proc = run_cairn(demo, "ask", QUESTION)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("extractive answer:")
    assert "VERIFIED" in proc.stdout and "sources/policy.md" in proc.stdout
    assert f"\u201c{QUOTE}.\u201d" in proc.stdout
    js = run_cairn(demo, "ask", "--format", "json", "-k", "4", QUESTION)
    data = json.loads(js.stdout)
    assert data["ask"]["extractive"] is True and data["ask"]["provider"] == "extractive"
    assert len(data["ask"]["passages"]) == 4 and data["ask"]["passages"][0]["chunk_id"] == CHUNK
    claims = _claims(data)
    assert claims and all(c["supported"] for c in claims)
    assert claims[0]["citations"][0]["chunk_id"] == CHUNK
    assert data["metrics"]["citation_validity"] == 1.0


def test_markdown_answer_pasted_into_a_draft_verifies(demo: Path):
    proc = run_cairn(demo, "ask", "--format", "markdown", QUESTION)
    assert proc.returncode == 0, proc.stderr
    md = proc.stdout
    assert md.startswith(f"# {QUESTION}\n") and "<!-- cairn ask: extractive answer" in md
    assert md.count("```cite") >= 2
    (demo / "drafts" / "asked.md").write_text(md, encoding="utf-8")
    code, report = check_json(demo, "drafts/asked.md")
    assert code == 0
    assert report["metrics"]["claims"] == md.count("```cite")
    assert report["metrics"]["uncited_paragraphs"] == 0


def test_model_answer_good_fabricated_unknown_and_non_json(demo: Path):
    replies: list = []
    with JudgeServer(lambda claim, quotes: replies.pop(0)) as srv:
        _use_model(demo, srv.url)
        good = {"claims": [{"text": "Customers have 14 days to ask for a credit for a damaged delivery.",
                            "supported": False,
                            "citations": [{"chunk_id": CHUNK, "start": 0, "end": 65, "quote": QUOTE}]}]}
        replies.append("Here it is:\n```json\n" + json.dumps(good) + "\n```")
        proc = run_cairn(demo, "ask", "--format", "json", QUESTION)
        assert proc.returncode == 0, proc.stderr
        data = json.loads(proc.stdout)
        assert data["ask"]["provider"] == "openai" and data["ask"]["extractive"] is False
        (claim,) = _claims(data)
        assert claim["supported"] is True and claim["citations"][0]["resolved"] is True
        request = srv.requests[-1]
        assert request.body["model"] == "m"
        user = request.body["messages"][1]["content"]
        assert QUESTION in user and f"[chunk_id {CHUNK}]" in user and OTHER not in user

        fabricated = {"claims": [{"text": "Customers have 60 days to ask for a credit.", "supported": True,
                                  "support_score": 1.0, "citations": [
                                      {"chunk_id": CHUNK, "start": 0, "end": 65,
                                       "quote": QUOTE.replace("14", "60")}]}]}
        replies.append(json.dumps(fabricated))
        proc = run_cairn(demo, "ask", "--format", "json", QUESTION)
        assert proc.returncode == 1
        (claim,) = _claims(json.loads(proc.stdout))
        assert claim["supported"] is False
        assert [d["code"] for d in claim["diagnostics"]] == ["quote-not-found"]

        quote = "Northwind Grocers delivers between 7 am and 9 pm"
        unknown = {"claims": [
            {"text": "Deliveries run from 7 am to 9 pm.",
             "citations": [{"chunk_id": OTHER, "start": 19, "end": 19 + len(quote), "quote": quote}]},
            {"text": "A made-up passage.",
             "citations": [{"chunk_id": "0123456789abcdef", "start": 0, "end": 5, "quote": "A mad"}]},
        ]}
        replies.append(json.dumps(unknown))
        proc = run_cairn(demo, "ask", "--format", "json", QUESTION)
        assert proc.returncode == 1
        first, second = _claims(json.loads(proc.stdout))
        assert first["supported"] is False and "unknown-chunk" in [d["code"] for d in first["diagnostics"]]
        assert any("not among the passages retrieved" in d["message"] for d in first["diagnostics"])
        assert second["supported"] is False and "unknown-chunk" in [d["code"] for d in second["diagnostics"]]

        replies.append("I think customers have about two weeks.")
        proc = run_cairn(demo, "ask", QUESTION)
        assert proc.returncode == 1
        assert "FAILED" in proc.stdout and "[block-syntax]" in proc.stdout
        assert "not a JSON answer" in proc.stdout and "warning:" in proc.stderr
        assert "Traceback" not in proc.stderr

        replies.append(Reply(status=500, body=b'{"error": {"message": "boom"}}'))
        replies.extend([Reply(status=500, body=b'{"error": {"message": "boom"}}')] * 5)
        proc = run_cairn(demo, "ask", QUESTION)
        assert proc.returncode == 1
        assert "the model gave no answer: HTTP 500" in proc.stderr


def test_a_remote_url_named_only_by_the_workspace_is_refused(demo: Path):
    # 192.0.2.1 is TEST-NET-1: the refusal is decided before any connection is tried
    _use_model(demo, "http://192.0.2.1:9/v1")
    proc = run_cairn(demo, "ask", QUESTION)
    assert proc.returncode == 2
    assert "refused to contact the ask URL http://192.0.2.1:9/v1" in proc.stderr
    assert "CAIRN_ASK_URL" in proc.stderr


def test_the_users_url_wins_and_is_trusted(demo: Path):
    good = {"claims": [{"text": QUOTE + ".", "citations": [{"chunk_id": CHUNK, "start": 0, "end": 65,
                                                             "quote": QUOTE}]}]}
    with JudgeServer(lambda claim, quotes: good) as srv:
        _use_model(demo, "http://192.0.2.1:9/v1")
        proc = run_cairn(demo, "ask", "--ask-url", srv.url, QUESTION)
        assert proc.returncode == 0, proc.stderr
        assert srv.count == 1


def test_bad_ask_configuration_exits_2(demo: Path):
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text() + '\n[ask]\nprovider = "openai"\n')
    proc = run_cairn(demo, "ask", QUESTION)
    assert proc.returncode == 2 and "ask.url is empty" in proc.stderr
    toml.write_text(toml.read_text().replace('provider = "openai"', 'provider = "oracle"'))
    proc = run_cairn(demo, "ask", QUESTION)
    assert proc.returncode == 2 and "ask.provider" in proc.stderr
