"""The openai judge provider against a real chat-completions server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from cairn.core.config import ConfigError, JudgeConfig, load_settings
from cairn.engine import checks as engine
from cairn.index.workspace import Workspace
from cairn.judge import client as judge_client
from cairn.judge import providers as judge_mod
from cairn.judge.providers import JudgeAnswer, OpenAIJudge, endpoint_url, first_json_object, judge_results, make_judge
from cairn.store import Store
from cairn.verify.verdicts import JudgeVerdict, apply_verdict
from cairn.verify.verifier import Verifier

from judge_server import JudgeServer, Reply

CLAIM = "Agents may approve credits of up to $200 without a supervisor."
QUOTES = ["Agents can approve credits up to $200 on their own.", "Larger credits need a supervisor."]


@pytest.fixture
def srv():
    with JudgeServer() as s:
        yield s


@pytest.fixture(autouse=True)
def fast_backoff(monkeypatch):
    monkeypatch.setattr(judge_client, "BACKOFF_BASE", 0.01)


def make(srv_or_url, *, store=None, trusted=True, environ=None, **cfg) -> OpenAIJudge:
    url = srv_or_url if isinstance(srv_or_url, str) else srv_or_url.url
    cfg.setdefault("timeout", 2.0)
    cfg.setdefault("retries", 1)
    config = JudgeConfig(provider="openai", url=url, model=cfg.pop("model", "test-model"), **cfg)
    return OpenAIJudge(config, trusted=trusted, store=store, environ=environ or {})


# -- the request and a good answer --------------------------------------------------


def test_good_answer_and_the_request_it_came_from(srv):
    srv.answer = lambda claim, quotes: {"label": "supported", "score": 0.83}
    v = make(srv).judge(CLAIM, QUOTES)
    assert (v.supported, v.score, v.judge) == (True, 0.83, "openai")
    (req,) = srv.requests
    assert req.path == "/v1/chat/completions"
    assert req.body["model"] == "test-model"
    assert req.body["temperature"] == 0
    assert req.body["response_format"] == {"type": "json_object"}
    system, user = req.body["messages"]
    assert system["role"] == "system" and "entail" in system["content"]
    assert "qualifications" in system["content"] and "units" in system["content"]
    assert user["role"] == "user"
    assert "[1] " + QUOTES[0] in user["content"] and "[2] " + QUOTES[1] in user["content"]
    assert (req.claim, req.quotes) == (CLAIM, QUOTES)
    assert "authorization" not in req.headers  # no api_key_env: no key


def test_not_supported_follows_the_label(srv):
    srv.answer = lambda claim, quotes: {"label": "not_supported", "score": 0.12}
    v = make(srv).judge(CLAIM, QUOTES)
    assert (v.supported, v.score, v.judge) == (False, 0.12, "openai")


def test_url_already_naming_the_endpoint_is_used_as_given(srv):
    make(srv.url + "/chat/completions/").judge(CLAIM, QUOTES)
    assert srv.requests[0].path == "/v1/chat/completions"
    assert endpoint_url("http://h:1/v1/") == "http://h:1/v1/chat/completions"
    assert endpoint_url("http://h:1/v1/chat/completions") == "http://h:1/v1/chat/completions"


@pytest.mark.parametrize(
    "content",
    [
        '```json\n{"label": "supported", "score": 0.7}\n```',
        'Sure. {"label": "Supported", "score": "0.7"} Hope this helps.',
        '<think>is {this} it?</think>{"score": 0.7, "label": "supported", "why": "all there"}',
    ],
)
def test_answers_around_the_json_object_are_tolerated(srv, content):
    srv.answer = lambda claim, quotes: content
    v = make(srv).judge(CLAIM, QUOTES)
    assert (v.supported, v.score, v.judge) == (True, 0.7, "openai")


def test_an_endpoint_without_response_format_is_asked_again_without_it(srv):
    def answer(claim, quotes):
        if "response_format" in srv.requests[-1].body:
            return Reply(status=400, body=b'{"error": {"message": "unknown field response_format"}}')
        return {"label": "supported", "score": 0.6}

    srv.answer = answer
    j = make(srv)
    assert j.judge(CLAIM, QUOTES).judge == "openai"
    assert j.judge("Another claim.", QUOTES).judge == "openai"
    assert ["response_format" in r.body for r in srv.requests] == [True, False, False]


# -- failures: the lexical check decides -------------------------------------------------


@pytest.mark.parametrize(
    "reply, why",
    [
        ("I think the quotes support it.", "no JSON object"),
        ({"label": "maybe", "score": 0.5}, "label"),
        ({"label": "supported", "score": 7}, "score"),
        ({"label": "supported"}, "score"),
        (Reply(body=b"<html>oops</html>"), "not JSON"),
        (Reply(body=b'{"choices": []}'), "not a chat completion"),
    ],
)
def test_malformed_answer_falls_back_without_retrying(srv, reply, why):
    srv.answer = lambda claim, quotes: reply
    v = make(srv, retries=3).judge(CLAIM, QUOTES)
    assert v.judge == "fallback" and v.score is None
    assert "malformed answer" in v.note and why in v.note
    assert srv.count == 1


def test_slow_answer_times_out_in_bounded_time(srv):
    srv.answer = lambda claim, quotes: Reply(content='{"label": "supported", "score": 1}', delay=3)
    start = time.monotonic()
    v = make(srv, timeout=0.3, retries=1).judge(CLAIM, QUOTES)
    elapsed = time.monotonic() - start
    assert v.judge == "fallback"
    assert "no answer within 0.3s" in v.note and "after 2 attempts" in v.note
    assert elapsed < 2.0
    assert srv.count == 2


def test_error_status_is_retried_a_bounded_number_of_times(srv):
    srv.answer = lambda claim, quotes: Reply(status=500, body=b'{"error": {"message": "model crashed"}}')
    v = make(srv, retries=2).judge(CLAIM, QUOTES)
    assert v.judge == "fallback"
    assert "HTTP 500" in v.note and "model crashed" in v.note and "after 3 attempts" in v.note
    assert srv.count == 3


def test_client_errors_are_not_retried(srv):
    srv.answer = lambda claim, quotes: Reply(status=404, body=b'{"error": "model not found"}')
    v = make(srv, retries=3).judge(CLAIM, QUOTES)
    assert v.judge == "fallback" and "HTTP 404" in v.note and "model not found" in v.note
    assert srv.count == 1


def test_rate_limit_is_retried_then_answered(srv):
    replies = [Reply(status=429, headers={"Retry-After": "0"}), {"label": "supported", "score": 0.5}]
    srv.answer = lambda claim, quotes: replies.pop(0)
    v = make(srv, retries=1).judge(CLAIM, QUOTES)
    assert (v.judge, v.score) == ("openai", 0.5)


def test_redirects_are_not_followed(srv):
    srv.answer = lambda claim, quotes: Reply(status=307, headers={"Location": "http://127.0.0.1:9/elsewhere"})
    v = make(srv, retries=0).judge(CLAIM, QUOTES)
    assert v.judge == "fallback" and "redirect" in v.note
    assert all(r.path == "/v1/chat/completions" for r in srv.requests)


def test_unreachable_endpoint_falls_back(srv):
    srv.__exit__()  # nothing listens on the port any more
    v = make(srv, retries=1).judge(CLAIM, QUOTES)
    assert v.judge == "fallback" and "cannot reach" in v.note


def test_a_failing_endpoint_is_left_alone_after_some_failures(srv):
    srv.answer = lambda claim, quotes: Reply(status=503)
    j = make(srv, retries=0, concurrency=1)
    verdicts = j.judge_many([(f"claim {i}", QUOTES) for i in range(6)])
    assert all(v.judge == "fallback" for v in verdicts)
    assert srv.count == judge_client.BREAK_AFTER
    assert "in a row" in verdicts[-1].note


def test_a_failed_claim_is_asked_again_later(srv):
    replies = [Reply(status=500), {"label": "supported", "score": 0.9}]
    srv.answer = lambda claim, quotes: replies.pop(0)
    j = make(srv, retries=0)
    assert j.judge(CLAIM, QUOTES).judge == "fallback"
    assert j.cached(CLAIM, QUOTES).judge == "fallback"  # the last verdict, until asked again
    assert j.judge(CLAIM, QUOTES).judge == "openai"


# -- cache ----------------------------------------------------------------------------


def test_verdicts_are_cached_in_the_store(srv, tmp_path):
    store = Store(tmp_path)
    j = make(srv, store=store)
    assert j.cached(CLAIM, QUOTES) is None  # never asks
    assert srv.count == 0
    first = j.judge(CLAIM, QUOTES)
    assert srv.count == 1
    assert j.cached(CLAIM, QUOTES) == first
    # a new judge (a new run) on the same store: no request
    again = make(srv, store=Store(tmp_path)).judge(CLAIM, QUOTES)
    assert again == first and srv.count == 1
    # another model, another prompt version, another quote: asked again
    make(srv, store=store, model="other").judge(CLAIM, QUOTES)
    assert srv.count == 2
    j.judge(CLAIM, QUOTES[:1])
    assert srv.count == 3


def test_cache_key_covers_url_model_prompt_version_claim_and_quotes(srv, monkeypatch):
    j = make(srv)
    k = j.cache_key(CLAIM, QUOTES)
    assert k != make(srv, model="m2").cache_key(CLAIM, QUOTES)
    assert k != make("http://127.0.0.1:1/v1").cache_key(CLAIM, QUOTES)
    assert k != j.cache_key(CLAIM + " ", QUOTES)
    assert k != j.cache_key(CLAIM, list(reversed(QUOTES)))
    monkeypatch.setattr(judge_mod, "PROMPT_VERSION", "999")
    assert k != j.cache_key(CLAIM, QUOTES)


def test_failures_are_not_cached(srv, tmp_path):
    srv.answer = lambda claim, quotes: "no idea"
    make(srv, store=Store(tmp_path)).judge(CLAIM, QUOTES)
    srv.answer = lambda claim, quotes: {"label": "supported", "score": 1}
    assert make(srv, store=Store(tmp_path)).judge(CLAIM, QUOTES).judge == "openai"
    assert srv.count == 2


# -- concurrency ----------------------------------------------------------------------


def test_judge_many_is_parallel_bounded_and_ordered(srv):
    in_flight = peak = 0
    lock = threading.Lock()

    def answer(claim, quotes):
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.2)
        with lock:
            in_flight -= 1
        n = int(claim.split()[-1])
        return {"label": "supported" if n % 2 else "not_supported", "score": n / 10}

    srv.answer = answer
    items = [(f"claim {i}", QUOTES) for i in range(8)] + [("claim 3", QUOTES)]
    seen = []
    out = make(srv, concurrency=4).judge_many(items, progress=lambda d, t, c: seen.append((d, t)))
    assert [v.score for v in out] == [i / 10 for i in range(8)] + [0.3]
    assert [v.supported for v in out[:4]] == [False, True, False, True]
    assert srv.count == 8  # the repeated pair is asked once
    assert peak == 4  # parallel, and never more than the configured concurrency
    assert seen[-1] == (9, 9)


# -- which URLs may be contacted; the key ------------------------------------------------------


def test_refused_url_is_never_contacted():
    j = make("http://203.0.113.5/v1", trusted=False)
    assert j.problem and "refused" in j.problem and "203.0.113.5" in j.problem
    assert "CAIRN_JUDGE_URL" in j.problem and "--judge-url" in j.problem
    v = j.judge(CLAIM, QUOTES)
    assert v.judge == "fallback" and v.note == j.problem
    assert j.cached(CLAIM, QUOTES).judge == "fallback"
    assert all(v.judge == "fallback" for v in j.judge_many([(CLAIM, QUOTES)] * 3))


def test_trust_follows_the_configuration(tmp_path, monkeypatch):
    monkeypatch.delenv("CAIRN_JUDGE_URL", raising=False)
    (tmp_path / "cairn.toml").write_text('[judge]\nprovider = "openai"\nurl = "http://203.0.113.5/v1"\n')
    assert load_settings(tmp_path).judge_url_trusted is False
    assert load_settings(tmp_path, judge_url_override="http://127.0.0.1:1/v1").judge_url_trusted is True
    monkeypatch.setenv("CAIRN_JUDGE_URL", "https://judge.example/v1")
    s = load_settings(tmp_path)
    assert s.judge_url_trusted is True and s.config.judge.url == "https://judge.example/v1"
    monkeypatch.delenv("CAIRN_JUDGE_URL")
    (tmp_path / "cairn.toml").write_text('[judge]\nprovider = "openai"\nurl = "http://localhost:11434/v1"\n')
    assert load_settings(tmp_path).judge_url_trusted is True


def test_api_key_goes_only_into_the_authorization_header(srv, tmp_path):
    secret = "sk-test-0123456789abcdef"
    store = Store(tmp_path)
    srv.answer = lambda claim, quotes: Reply(status=401, body=json.dumps({"error": f"bad key {secret}"}).encode())
    j = make(srv, store=store, api_key_env="CAIRN_TEST_KEY", environ={"CAIRN_TEST_KEY": secret}, retries=0)
    assert secret not in repr(j)
    v = j.judge(CLAIM, QUOTES)
    assert srv.requests[0].headers["authorization"] == f"Bearer {secret}"
    assert secret not in v.note and "***" in v.note  # an echoed key is scrubbed
    srv.answer = lambda claim, quotes: {"label": "supported", "score": 0.9}
    assert j.judge("Other claim.", QUOTES).judge == "openai"
    store.close()
    for f in tmp_path.rglob("*"):
        if f.is_file():
            assert secret.encode() not in f.read_bytes(), f


def test_missing_key_falls_back_without_asking(srv):
    j = make(srv, api_key_env="CAIRN_TEST_KEY", environ={})
    assert "CAIRN_TEST_KEY" in j.problem
    assert j.judge(CLAIM, QUOTES).judge == "fallback"
    assert srv.count == 0


@pytest.mark.parametrize("url", ["", "file:///etc/passwd", "ftp://127.0.0.1/v1", "127.0.0.1:8080/v1", "http://h:x/"])
def test_bad_urls_are_configuration_errors(url):
    with pytest.raises(ConfigError):
        make(url)


def test_api_key_env_must_start_with_cairn():
    with pytest.raises(ValueError, match="CAIRN_"):
        JudgeConfig(provider="openai", url="http://127.0.0.1/v1", api_key_env="OPENAI_API_KEY")


def test_answer_model():
    assert JudgeAnswer.model_validate({"label": "Not Supported", "score": 0}).label == "not_supported"
    assert JudgeAnswer.model_validate({"label": "unsupported", "score": 1}).label == "not_supported"
    with pytest.raises(ValueError):
        JudgeAnswer.model_validate({"label": "supported", "score": True})
    assert first_json_object('x {"a": 1} {"b": 2}') == {"a": 1}
    assert first_json_object("none") is None


# -- verdicts applied to verified claims ------------------------------------------------------


def _demo_results(demo: Path, judge=None):
    ws = Workspace(demo)
    engine.index(ws)
    checked = engine.check(ws, None, Verifier(ws, judge=judge))
    return ws, {(cd.result.path, c.claim.line + 1): c for cd in checked for c in cd.result.claims}, checked


def test_apply_verdict(demo):
    ws, claims, _ = _demo_results(demo)
    t = ws.settings.config.threshold
    low = claims[("drafts/review-notes.md", 95)]  # lexically unsupported
    assert (low.supported, low.judge) == (False, "lexical")
    judged = apply_verdict(low, JudgeVerdict(True, 0.91, "openai"), t)
    assert (judged.supported, judged.support_score, judged.judge, judged.diagnostics) == (True, 0.91, "openai", [])
    assert judged.lexical_score == low.support_score and low.judge == "lexical"  # the input is untouched
    # the judge's "no" fails the claim with a message naming the judge
    good = claims[("drafts/credits-answer.md", 46)]
    no = apply_verdict(good, JudgeVerdict(False, 0.2, "openai"), t)
    assert not no.supported
    (d,) = no.diagnostics
    assert d.code == "unsupported-claim" and "openai judge" in d.message and "0.20" in d.message
    # back to the lexical check from a judged result
    assert apply_verdict(no, None, t).supported and apply_verdict(no, None, t).judge == "lexical"
    # the number rule still applies
    num = claims[("drafts/review-notes.md", 84)]
    yes = apply_verdict(num, JudgeVerdict(True, 1.0, "openai"), t)
    assert not yes.supported and [d.code for d in yes.diagnostics] == ["number-mismatch"]
    # a fallback: the lexical decision, plus an information diagnostic on the claim's first line
    fb = apply_verdict(low, JudgeVerdict(False, None, "fallback", "HTTP 500"), t)
    assert (fb.supported, fb.judge, fb.support_score) == (False, "fallback", low.support_score)
    codes = {d.code: d for d in fb.diagnostics}
    assert codes["judge-fallback"].severity == "information" and not codes["judge-fallback"].fails
    assert "HTTP 500" in codes["judge-fallback"].message and codes["judge-fallback"].line == low.claim.line
    assert "unsupported-claim" in codes
    ok = apply_verdict(good, JudgeVerdict(False, None, "fallback", "timeout"), t)
    assert ok.supported and ok.judge == "fallback"
    # an ignored unsupported-claim stays ignored under the judge
    ignored = claims[("drafts/review-notes.md", 128)]
    assert apply_verdict(ignored, JudgeVerdict(False, 0.1, "openai"), t).supported
    # a claim without a resolved quote is never judged
    unresolved = claims[("drafts/review-notes.md", 17)]
    assert apply_verdict(unresolved, JudgeVerdict(True, 1.0, "openai"), t) is unresolved


def test_two_phases_on_the_demo(demo, srv):
    srv.answer = lambda claim, quotes: {"label": "not_supported" if "Perishable" in claim else "supported",
                                        "score": 0.25 if "Perishable" in claim else 0.75}
    (demo / "cairn.toml").write_text(
        (demo / "cairn.toml").read_text() + f'\n[judge]\nprovider = "openai"\nurl = "{srv.url}"\ntimeout = 2\n'
    )
    ws = Workspace(demo)
    j = make_judge(ws)
    engine.index(ws)
    checked = engine.check(ws, None, Verifier(ws, judge=j))
    results = [cd.result for cd in checked]
    assert srv.count == 0  # verifying never asks
    assert {c.judge for r in results for c in r.claims} == {"lexical"}
    judge_results(results, j, ws.settings.config.threshold)
    judged = [c for r in results for c in r.claims if c.judge == "openai"]
    assert len(judged) == srv.count == 13
    # verifying again applies the cached verdicts straight away
    again = engine.check(ws, None, Verifier(ws, judge=make_judge(ws)))
    assert [(c.judge, c.supported, c.support_score) for cd in again for c in cd.result.claims] == [
        (c.judge, c.supported, c.support_score) for r in results for c in r.claims
    ]
    assert srv.count == 13


def test_judge_many_can_be_cancelled(srv):
    cancel = threading.Event()

    def answer(claim, quotes):
        cancel.set()
        return {"label": "supported", "score": 0.5}

    srv.answer = answer
    j = make(srv, concurrency=1)
    out = j.judge_many([(f"claim {i}", QUOTES) for i in range(5)], cancel=cancel)
    assert srv.count == 1
    assert [v.judge for v in out].count("openai") == 1
    assert all("cancelled" in v.note for v in out if v.judge == "fallback")
    # a cancelled claim was not asked: it is asked next time
    assert j.cached("claim 4", QUOTES) is None


def test_cache_keys_stay_as_they_were_for_a_fixed_input(tmp_path):
    """The keys of the store's judge cache, pinned: a refactor that changed them would make every
    workspace's cached verdicts unreachable (each claim judged again). The values are those the
    code gave when the keys of both providers were made by CachingJudge.cache_key alone."""
    from cairn.judge.nli import NLIJudge, folder_digest

    claim, quotes = "Refunds take 14 days.", ["Refunds are paid within 14 days.", "Q2"]
    url = "http://127.0.0.1:8080/v1"
    one = OpenAIJudge(JudgeConfig(provider="openai", url=url, model="test-model"), trusted=True, environ={})
    assert one.cache_key(claim, quotes) == "judge:176020f1eca5dc138804783e814fb700b6a2b1b648951b906a29cc2e9d20c093"
    batched = OpenAIJudge(JudgeConfig(provider="openai", url=url, model="test-model", claims_per_request=4),
                          trusted=True, environ={})
    assert batched.cache_key(claim, quotes) == (
        "judge:9a4bc66bbc0735139918bd390303a5ce2a2f8bcafe8089b4f9ebe12385804194")
    pytest.importorskip("onnxruntime")
    (tmp_path / "model.onnx").write_bytes(b"not a model")  # hashed, never loaded here
    (tmp_path / "tokenizer.json").write_text("{}", encoding="utf-8")
    (tmp_path / "config.json").write_text(json.dumps({"id2label": {"0": "entailment", "1": "neutral",
                                                                   "2": "contradiction"}}), encoding="utf-8")
    assert folder_digest(tmp_path) == "fceed36e368f0597ecec3be3f298c49096b5e276a69976778a53122f9168e16b"
    nli = NLIJudge(str(tmp_path), tmp_path, trusted=True)
    assert nli.problem is None
    assert nli.cache_key(claim, quotes) == "judge:7aa68c98aa2b88af534ba4269604428644f8dc4f5cf5a037bba46563dfa9dfca"
