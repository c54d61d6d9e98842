"""Trust boundaries, round two, findings 11 and 13, through the real CLI: a model's text never
drives the terminal that shows `cairn ask --format markdown` (13), and a reply or a calibration
row nested 200,000 deep is a finding, never an internal error (11)."""

from __future__ import annotations

import json
from pathlib import Path

from cairn_testing import run_cairn
from judge_server import JudgeServer, Reply

QUESTION = "How long does a customer have to request a credit?"
CHUNK = "691d71e4b46d8b0d"  # sources/policy.md in the demo
QUOTE = "A customer has 14 days to request a credit for a damaged delivery"
DEEP = 200_000


def _use_model(demo: Path, url: str) -> None:
    toml = demo / "cairn.toml"
    toml.write_text(toml.read_text() + f'\n[ask]\nprovider = "openai"\nurl = "{url}"\nmodel = "m"\nk = 3\n'
                    "timeout = 10\nretries = 0\n")


def test_a_models_control_characters_are_shown_not_obeyed_in_markdown(demo: Path):
    """Finding 13: OSC 0 (retitle the terminal) and OSC 52 (write its clipboard) in a model's
    claim and BEL/CSI in between come out as escapes; the answer's citation still verifies."""
    hostile = ("Customers have 14 days\x1b]0;pwned\x07 to ask for a credit\x1b]52;c;Y3VybCBldmlsCg==\x07"
               "\x1b[2K\x9b for a damaged delivery.")
    answer = {"claims": [{"text": hostile, "citations": [{"chunk_id": CHUNK, "start": 0, "end": len(QUOTE),
                                                           "quote": QUOTE}]}]}
    with JudgeServer(lambda claim, quotes: json.dumps(answer)) as srv:
        _use_model(demo, srv.url)
        proc = run_cairn(demo, "ask", "--format", "markdown", QUESTION)
    assert proc.returncode in (0, 1) and "internal error" not in proc.stderr, proc.stderr
    for raw in ("\x1b", "\x07", "\x9b"):
        assert raw not in proc.stdout
    assert "\\x1b]0;pwned\\x07" in proc.stdout and "\\x1b]52;c;" in proc.stdout
    assert f"chunk_id: {CHUNK}" in proc.stdout  # the answer is still written, with its cite block


def test_a_reply_nested_200000_deep_is_a_finding(demo: Path):
    """Finding 11: the model's answer (the message content) and the chat completion itself
    nested 200,000 deep each give a failed answer with a reason, exit 1, no internal error."""
    content = '{"claims": ' + "[" * DEEP + "]" * DEEP + "}"
    body = ('{"choices": [{"message": {"role": "assistant", "content": "x"}, "x": '
            + "[" * DEEP + "]" * DEEP + "}]}").encode()
    replies = [content, Reply(body=body)]
    with JudgeServer(lambda claim, quotes: replies.pop(0)) as srv:
        _use_model(demo, srv.url)
        for _ in range(2):
            proc = run_cairn(demo, "ask", QUESTION)
            assert proc.returncode == 1, (proc.returncode, proc.stderr[-500:])
            assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
            assert "FAILED" in proc.stdout or "gave no answer" in proc.stderr


def test_a_calibration_row_nested_200000_deep_names_its_line(demo: Path, tmp_path: Path):
    data = tmp_path / "rows.jsonl"
    good = json.dumps({"claim": "A customer has 14 days.", "quote": QUOTE, "label": "supported"})
    data.write_text(good + "\n" + '{"claim": ' + "[" * DEEP + "]" * DEEP + "}\n", encoding="utf-8")
    proc = run_cairn(demo, "calibrate", str(data))
    assert proc.returncode == 2
    assert "internal error" not in proc.stderr
    assert f"{data}:2: nested too deeply" in proc.stderr
