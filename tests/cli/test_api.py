"""The Python API (cairn.api) against the real CLI's JSON report on the demo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cairn.api import Answer, open_workspace

from cairn_testing import check_json

CHUNK = "691d71e4b46d8b0d"
QUOTE = "A customer has 14 days to request a credit for a damaged delivery"
GOOD = {"text": QUOTE + ".", "supported": False,
        "citations": [{"chunk_id": CHUNK, "start": 0, "end": 65, "quote": QUOTE}]}
FAKE = {"text": "A customer has 30 days.", "supported": True, "support_score": 1.0,
        "citations": [{"chunk_id": CHUNK, "start": 0, "end": 65, "quote": QUOTE.replace("14", "30")}]}


def _no_path(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if k != "path"}


def test_api_check_equals_the_cli_report(demo: Path):
    _, cli = check_json(demo)
    with open_workspace(demo) as ws:
        report = ws.check()
    assert json.loads(report.model_dump_json()) == cli


def test_api_verify_equals_cli_on_the_same_json(demo: Path):
    answers = [{"id": "a", "question": "How long?", "claims": [GOOD, FAKE]}, {"claims": [GOOD]}]
    (demo / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
    _, cli = check_json(demo, "answers.json")
    with open_workspace(demo) as ws:
        report = ws.verify_many(answers)
        one = ws.verify(Answer.model_validate(answers[0]))
    got = json.loads(report.model_dump_json())
    assert [_no_path(d) for d in got["drafts"]] == [_no_path(d) for d in cli["drafts"]]
    assert got["metrics"] == cli["metrics"]
    assert one.id == "a" and [c.supported for c in one.claims] == [True, False]
    assert one.claims[1].diagnostics[0].code == "quote-not-found"
    assert one.claims[0].support_score is not None and one.claims[0].support_score > 0.5
    assert report.metrics.faithful_answers == 1 and report.metrics.citation_validity == 2 / 3


def test_api_malformed_answer_is_a_finding_not_an_exception(demo: Path):
    with open_workspace(demo) as ws:
        res = ws.verify({"claims": "nope"})
        bad = ws.verify(["not a claim"])
    assert not res.faithful and res.claims[0].diagnostics[0].code == "block-syntax"
    assert bad.claims[0].diagnostics[0].code == "block-syntax"


def test_api_threads_share_one_workspace(demo: Path):
    with open_workspace(demo) as ws:
        expected = ws.verify({"claims": [GOOD, FAKE]}).model_dump()
        with ThreadPoolExecutor(max_workers=8) as pool:
            got = list(pool.map(lambda i: ws.verify({"claims": [GOOD, FAKE]}).model_dump(), range(40)))
    assert all(g == expected for g in got)


def test_api_prints_nothing_and_starts_no_process(demo: Path, tmp_path: Path):
    script = tmp_path / "pipeline.py"
    script.write_text(
        "import json, subprocess, sys\n"
        "def no(*a, **k): raise AssertionError('no subprocess')\n"
        "subprocess.Popen = no\n"
        "from cairn.api import open_workspace\n"
        f"ws = open_workspace({str(demo)!r})\n"
        f"r = ws.verify(json.loads({json.dumps(GOOD)!r}))\n"
        "sys.stderr.write(json.dumps([r.faithful, r.claims[0].supported]))\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert json.loads(proc.stderr) == [True, True]


def test_api_chunks_match_the_cli_and_respect_the_principal(demo: Path):
    listed = [json.loads(line) for line in
              subprocess.run([sys.executable, "-m", "cairn", "chunks", "--json"], cwd=demo, capture_output=True,
                             text=True, timeout=120, check=True).stdout.splitlines()]
    with open_workspace(demo) as ws:
        got = ws.chunks()
        assert [(c.chunk_id, c.source, c.start, c.end, c.text) for c in got] == \
            [(c["chunk_id"], c["source"], c["start"], c["end"], c["text"]) for c in listed]
        policy = ws.chunks("sources/policy.md")
        assert policy and {c.source for c in policy} == {"sources/policy.md"}
        assert ws.chunks(demo / "sources" / "policy.md") == policy
        assert ws.chunks("sources/nothing-here.md") == [] and ws.chunks("../outside.md") == []
        one = ws.chunk(CHUNK)
        assert one is not None and one.source == "sources/policy.md" and one.current and one.text.startswith(QUOTE)
        # the line is that of the parsed text, counted as everywhere in Cairn
        assert one.line == 8 and policy[0].line == 1 and policy[0].text == "# Customer Credit Policy"
        assert [c.line for c in policy] == sorted(c.line for c in policy)
        assert ws.chunk("0123456789abcdef") is None
        found = ws.retrieve("How many days does a customer have to request a credit for a damaged delivery?", k=3)
        assert len(found) == 3 and found[0].chunk_id == CHUNK
    # a principal who may not read the policy sees none of it, by any of the three calls
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + '\n[[policy]]\npath = "sources/policy.md"\naccess = ["staff"]\n'
                    '[principals]\nreader = ["public"]\nprincipal = "reader"\n', encoding="utf-8")
    with open_workspace(demo) as ws:
        assert ws.chunks("sources/policy.md") == []
        assert all(c.source != "sources/policy.md" for c in ws.chunks()) and ws.chunks()
        assert ws.chunk(CHUNK) is None
        assert all(c.source != "sources/policy.md"
                   for c in ws.retrieve("customer credit damaged delivery days", k=8))


def test_api_retrieve_refuses_a_k_below_one(demo: Path):
    with open_workspace(demo) as ws:
        try:
            ws.retrieve("anything", k=0)
        except ValueError as exc:
            assert "at least 1" in str(exc)
        else:
            raise AssertionError("k=0 was accepted")
