"""`cairn check` and `cairn calibrate` with the openai judge, against a real
chat-completions server on 127.0.0.1 started by the test."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from cairn_testing import run_cairn, run_in_pty
from judge_server import JudgeServer, Reply

REFUSED_URL = "http://203.0.113.5/v1"  # TEST-NET-3: must never be contacted
KEY = "sk-cairn-test-7f3e9a1c5b"


@pytest.fixture
def srv():
    with JudgeServer() as s:
        yield s


def configure(demo: Path, url: str, **extra) -> None:
    lines = ['provider = "openai"', f'url = "{url}"']
    extra = {"model": "test-model", "timeout": 2, "retries": 1, **extra}
    for k, v in extra.items():
        lines.append(f"{k} = {json.dumps(v)}")
    text = (demo / "cairn.toml").read_text().split("\n[judge]\n")[0]  # replaces an earlier [judge]
    (demo / "cairn.toml").write_text(text + "\n[judge]\n" + "\n".join(lines) + "\n")


def check(demo: Path, *args: str, env: dict | None = None):
    proc = run_cairn(demo, "check", "--format", "json", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    claims = {(d["path"], c["line"]): c for d in report["drafts"] for c in d["claims"]}
    return proc, claims


def judged(claims: dict) -> dict:
    """The claims with a resolved quote: the ones a judge is asked about."""
    return {k: c for k, c in claims.items() if any(x["resolved"] for x in c["citations"])}


def codes(claim: dict) -> list[str]:
    return [d["code"] for d in claim["diagnostics"]]


def answer_by_claim(claim: str, quotes: list[str]) -> dict:
    if "Perishable" in claim:
        return {"label": "not_supported", "score": 0.2}
    return {"label": "supported", "score": 0.85}


def test_good_answers_replace_the_score_test(demo: Path, srv: JudgeServer):
    _, lexical = check(demo)
    srv.answer = answer_by_claim
    configure(demo, srv.url)
    proc, claims = check(demo)
    asked = judged(claims)
    assert len(asked) == 13 and srv.count == 13
    for key, c in claims.items():
        if key in asked:
            assert c["judge"] == "openai"
            assert c["support_score"] == (0.2 if "Perishable" in c["text"] else 0.85)
        else:
            assert c["judge"] == "lexical" and c["support_score"] is None
            assert c == lexical[key]
    # the judge's "no" fails a claim the lexical check passed, and says so
    perishable = claims[("drafts/credits-answer.md", 35)]
    assert perishable["supported"] is False and codes(perishable) == ["unsupported-claim"]
    assert "openai judge" in perishable["diagnostics"][0]["message"]
    # the judge's "yes" passes a claim the lexical check failed
    assert lexical[("drafts/review-notes.md", 95)]["supported"] is False
    assert claims[("drafts/review-notes.md", 95)]["supported"] is True
    # (its quote still backs an unrelated claim of the credits answer: a warning that does not fail it)
    assert codes(claims[("drafts/review-notes.md", 95)]) == ["citation-reuse"]
    # the number rule still applies
    assert claims[("drafts/review-notes.md", 84)]["supported"] is False
    assert codes(claims[("drafts/review-notes.md", 84)]) == ["number-mismatch"]
    assert "\r" not in proc.stderr  # no progress bar when piped


def test_an_unchanged_claim_is_never_judged_twice(demo: Path, srv: JudgeServer):
    srv.answer = answer_by_claim
    configure(demo, srv.url)
    _, first = check(demo)
    assert srv.count == 13
    _, second = check(demo)
    assert srv.count == 13
    assert second == first
    # one claim edited: only it is asked again
    draft = demo / "drafts" / "credits-answer.md"
    draft.write_text(draft.read_text().replace("Perishable goods reported", "Perishable goods that are reported"))
    _, third = check(demo)
    assert srv.count == 14
    assert third[("drafts/credits-answer.md", 35)]["judge"] == "openai"


def test_malformed_answer_falls_back_to_the_lexical_check(demo: Path, srv: JudgeServer):
    code_lex, lexical = check(demo)
    srv.answer = lambda claim, quotes: "Yes, the quotes support the claim."
    configure(demo, srv.url)
    proc, claims = check(demo)
    for key, c in judged(claims).items():
        assert c["judge"] == "fallback"
        assert c["supported"] == lexical[key]["supported"]
        assert c["support_score"] == lexical[key]["support_score"]
        (fb,) = [d for d in c["diagnostics"] if d["code"] == "judge-fallback"]
        assert fb["severity"] == "information" and fb["line"] == c["line"]
        assert "malformed answer" in fb["message"] and "lexical check decided" in fb["message"]
        assert sorted(codes(c)) == sorted(codes(lexical[key]) + ["judge-fallback"])
    assert srv.count == 13  # a malformed answer is not retried


def test_slow_answer_times_out_and_nothing_blocks(demo: Path, srv: JudgeServer):
    srv.answer = lambda claim, quotes: Reply(content='{"label": "supported", "score": 1}', delay=5)
    configure(demo, srv.url, timeout=0.4, retries=0)
    start = time.monotonic()
    proc, claims = check(demo)
    elapsed = time.monotonic() - start
    notes = [d["message"] for c in judged(claims).values() for d in c["diagnostics"] if d["code"] == "judge-fallback"]
    assert len(notes) == 13
    assert all(c["judge"] == "fallback" for c in judged(claims).values())
    assert any("no answer within 0.4s" in n for n in notes)
    # after a few timeouts in a row the endpoint is left alone for the rest of the run
    assert any("in a row" in n for n in notes)
    assert srv.count < 13
    assert elapsed < 15


def test_error_status_is_retried_then_falls_back(demo: Path, srv: JudgeServer):
    srv.answer = lambda claim, quotes: Reply(status=500, body=b'{"error": {"message": "out of memory"}}')
    configure(demo, srv.url, retries=2, concurrency=1)
    _, claims = check(demo)
    assert all(c["judge"] == "fallback" for c in judged(claims).values())
    notes = [d["message"] for c in judged(claims).values() for d in c["diagnostics"] if d["code"] == "judge-fallback"]
    assert "HTTP 500" in notes[0] and "out of memory" in notes[0] and "after 3 attempts" in notes[0]
    assert srv.count == 3 * 3  # three claims, three attempts each, then the endpoint is left alone


def test_workspace_url_off_loopback_is_refused(demo: Path, srv: JudgeServer):
    _, lexical = check(demo)
    configure(demo, REFUSED_URL)
    # were anything sent to the refused URL, the proxy (our loopback server) would see it
    proxy = f"http://127.0.0.1:{srv.port}"
    proc, claims = check(demo, env={"http_proxy": proxy, "HTTP_PROXY": proxy, "no_proxy": "", "NO_PROXY": ""})
    assert srv.count == 0
    assert proc.stderr.count("refused") == 1  # one warning
    assert REFUSED_URL in proc.stderr and "--judge-url" in proc.stderr
    for key, c in judged(claims).items():
        assert c["judge"] == "fallback"
        assert c["supported"] == lexical[key]["supported"]
        (fb,) = [d for d in c["diagnostics"] if d["code"] == "judge-fallback"]
        assert "refused" in fb["message"] and REFUSED_URL in fb["message"]
    assert proc.stdout.count("refused") == 13


def test_the_user_may_allow_a_judge_url(demo: Path, srv: JudgeServer):
    configure(demo, REFUSED_URL)
    _, claims = check(demo, "--judge-url", srv.url)
    assert srv.count == 13
    assert all(c["judge"] == "openai" for c in judged(claims).values())
    configure(demo, REFUSED_URL, model="another-model")  # a new cache key
    _, claims = check(demo, env={"CAIRN_JUDGE_URL": srv.url})
    assert srv.count == 26
    assert all(c["judge"] == "openai" for c in judged(claims).values())


def test_api_key_is_sent_and_never_shown_or_stored(demo: Path, srv: JudgeServer):
    def answer(claim, quotes):
        # an endpoint that echoes the key in an error must not get it shown either
        if "Perishable" in claim:
            return Reply(status=401, body=json.dumps({"error": {"message": f"key {KEY} refused"}}).encode())
        return {"label": "supported", "score": 0.9}

    srv.answer = answer
    configure(demo, srv.url, api_key_env="CAIRN_TEST_JUDGE_KEY")
    proc = run_cairn(demo, "check", "--format", "json", env={"CAIRN_TEST_JUDGE_KEY": KEY})
    assert proc.returncode in (0, 1), proc.stderr
    assert srv.requests and all(r.headers.get("authorization") == f"Bearer {KEY}" for r in srv.requests)
    for fmt in ("text", "sarif"):
        other = run_cairn(demo, "check", "--format", fmt, env={"CAIRN_TEST_JUDGE_KEY": KEY})
        assert KEY not in other.stdout + other.stderr
    assert KEY not in proc.stdout and KEY not in proc.stderr
    assert "key *** refused" in proc.stdout
    for f in (demo / ".cairn").rglob("*"):
        if f.is_file():
            assert KEY.encode() not in f.read_bytes(), f


def test_missing_api_key_falls_back(demo: Path, srv: JudgeServer):
    configure(demo, srv.url, api_key_env="CAIRN_TEST_JUDGE_KEY")
    proc, claims = check(demo)
    assert srv.count == 0
    assert proc.stderr.count("CAIRN_TEST_JUDGE_KEY") == 1
    assert all(c["judge"] == "fallback" for c in judged(claims).values())


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"api_key_env": "OPENAI_API_KEY"}, "CAIRN_"),
        ({"timeout": -1}, "timeout"),
    ],
)
def test_judge_configuration_errors_exit_2(demo: Path, srv: JudgeServer, extra, message):
    configure(demo, srv.url, **extra)
    proc = run_cairn(demo, "check")
    assert proc.returncode == 2
    assert "configuration error" in proc.stderr and message in proc.stderr
    assert srv.count == 0


def test_bad_judge_url_exits_2(demo: Path):
    configure(demo, "file:///etc/passwd")
    proc = run_cairn(demo, "check")
    assert proc.returncode == 2 and "judge.url" in proc.stderr


def test_calibrate_with_the_judge(demo: Path, srv: JudgeServer, tmp_path: Path):
    rows = [
        {"claim": "Credits are issued within 5 business days.", "quote": "Credits are issued in 5 business days.",
         "label": "supported"},
        {"claim": "Perishable goods are always refunded.", "quote": "Perishable goods are reviewed case by case.",
         "label": "unsupported"},
        {"claim": "Refunds take 14 days.", "quote": "Refunds take 30 days.", "label": "unsupported"},
    ]
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    srv.answer = answer_by_claim
    configure(demo, REFUSED_URL)
    proc = run_cairn(demo, "calibrate", str(data), "--format", "json", "--judge-url", srv.url)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["judge"] == "openai" and report["judge_fallbacks"] == 0
    assert srv.count == 3
    # the judge's yes on row 3 is overruled by the number rule
    assert report["confusion"] == {"tp": 1, "fn": 0, "fp": 0, "tn": 2}
    # cached: a second run asks nothing
    text = run_cairn(demo, "calibrate", str(data), "--judge-url", srv.url)
    assert "check: openai" in text.stdout and srv.count == 3
    # refused: every row falls back, one warning
    refused = run_cairn(demo, "calibrate", str(data), "--format", "json")
    assert refused.stderr.count("refused") == 1
    assert json.loads(refused.stdout)["judge_fallbacks"] == 3
    assert srv.count == 3


def test_judging_shows_a_progress_bar_on_a_terminal(demo: Path, srv: JudgeServer):
    srv.answer = answer_by_claim
    configure(demo, srv.url)
    code, out = run_in_pty(demo, "check", stdout_to_pty=False)
    assert code == 1
    assert "judging" in out and "13/13" in out
    assert srv.count == 13
