"""The judge in the language server, against a real chat-completions server on
127.0.0.1 (tests/judge_server.py): never asked while typing, asked in the
background when a draft is opened or saved, its verdicts replacing the
lexical ones when they arrive; a slow judge blocks no request, a failing one
leaves the lexical verdicts with a judge-fallback note."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from judge_server import JudgeServer, Reply  # tests/judge_server.py (tests/conftest.py puts tests/ on the path)
from lsp_util import CITE_OK, SERVER, change_all, line_of, open_doc, start, until

CLAIM = "A customer has 14 days to request a credit for a damaged delivery."
LINE = 2  # the claim's line in the drafts below


def draft(claim: str = CLAIM, tail: str = "") -> str:
    return f"# New answer\n\n{claim}\n\n{CITE_OK}{tail}"


def answer(claim: str, quotes: list[str]) -> dict:
    """The judge disagrees with the lexical check about the 14 days."""
    if "14 days" in claim:
        return {"label": "not_supported", "score": 0.1}
    return {"label": "supported", "score": 0.9}


@pytest.fixture
def srv():
    with JudgeServer(answer) as s:
        yield s


def configure(demo: Path, url: str, **extra) -> None:
    settings = {"model": "test-model", "timeout": 5, "retries": 1, **extra}
    lines = ['provider = "openai"', f'url = "{url}"'] + [f"{k} = {json.dumps(v)}" for k, v in settings.items()]
    with (demo / "cairn.toml").open("a", encoding="utf-8") as f:
        f.write("\n[judge]\n" + "\n".join(lines) + "\n")


def new_draft(demo: Path) -> Path:
    path = demo / "drafts/new-answer.md"
    path.write_text("# New answer\n", encoding="utf-8")
    return path


async def hover(client: LanguageClient, u: str, line: int = LINE) -> str:
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=u),
                          position=types.Position(line=line, character=3))
    )
    return h.contents.value if h is not None else ""


def save(client: LanguageClient, u: str) -> None:
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=u)))


def coded(client: LanguageClient, u: str, code: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics.get(u, []) if d.code == code]


def judge_runs_ended(client: LanguageClient) -> int:
    return sum(
        1 for token, reports in client.progress_reports.items()
        if str(token).startswith("cairn-judge-") and reports and isinstance(reports[-1], types.WorkDoneProgressEnd)
    )


async def test_judged_on_save_never_while_typing(client: LanguageClient, demo: Path, srv: JudgeServer):
    configure(demo, srv.url)
    await start(client, demo)
    assert srv.count == 0  # the drafts checked at start, not open, are not judged
    u = open_doc(client, new_draft(demo))
    assert await hover(client, u, 0) == ""  # checked (no claim: nothing to judge)
    # typing: each version is checked lexically; the judge is not asked
    versions = [
        draft("A customer has 14 days to request a credit."),
        draft(),
        draft(tail="\nA paragraph without a citation.\n"),
    ]
    for v, text in enumerate(versions, start=2):
        change_all(client, u, text, v)
        md = await hover(client, u)
        assert "✅ **Supported**" in md and "· lexical" in md
        assert not coded(client, u, "unsupported-claim")
    await asyncio.sleep(0.3)
    assert srv.count == 0
    checked = len(client.checked)
    # saving asks the judge in the background; its "no" replaces the lexical "yes"
    save(client, u)
    diags = await until(lambda: coded(client, u, "unsupported-claim"), what="the judge's verdict")
    assert diags[0].range.start.line == LINE and "openai judge" in diags[0].message and "0.1" in diags[0].message
    assert srv.count == 1 and srv.requests[0].claim == CLAIM
    md = await hover(client, u)
    assert "❌ **Not supported**" in md and "· openai" in md
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=u))
    )
    assert [lens.command.title for lens in lenses] == ["unsupported 0.10 < 0.5 · sources/policy.md"]
    await until(lambda: len(client.checked) > checked, what="cairn/checked after the verdicts")
    assert judge_runs_ended(client) == 1  # reported as $/progress
    # an edit elsewhere keeps the verdict; saving again asks nothing (the answer is cached)
    change_all(client, u, versions[-1] + "\nOne more paragraph.\n", 5)
    md = await hover(client, u)
    assert "· openai" in md and coded(client, u, "unsupported-claim")
    save(client, u)
    await asyncio.sleep(0.3)
    assert srv.count == 1


async def test_a_slow_judge_blocks_no_request(client: LanguageClient, demo: Path, srv: JudgeServer):
    srv.answer = lambda claim, quotes: Reply(content=json.dumps(answer(claim, quotes)), delay=2.0)
    configure(demo, srv.url)
    await start(client, demo)
    u = open_doc(client, new_draft(demo), draft())  # opened with a claim: judged after its first check
    await until(lambda: srv.count == 1, what="the judge being asked")
    t0 = time.monotonic()
    md = await hover(client, u)
    assert time.monotonic() - t0 < 0.5
    assert "✅ **Supported**" in md and "· lexical" in md
    # typing meanwhile is checked at once; the verdicts of the older text are not shown
    change_all(client, u, draft(tail="\nA paragraph without a citation.\n"), 2)
    t0 = time.monotonic()
    md = await hover(client, u)
    assert time.monotonic() - t0 < 0.5 and "· lexical" in md
    await until(lambda: judge_runs_ended(client) == 1, what="the judge's answer")
    md = await hover(client, u)
    assert "· lexical" in md and not coded(client, u, "unsupported-claim")
    # saving applies the answer, which is cached: nothing is asked again
    save(client, u)
    diags = await until(lambda: coded(client, u, "unsupported-claim"), what="the cached verdict")
    assert "openai judge" in diags[0].message
    assert srv.count == 1


async def test_a_newer_save_cancels_the_run_before_it(client: LanguageClient, demo: Path, srv: JudgeServer):
    srv.answer = lambda claim, quotes: Reply(content=json.dumps(answer(claim, quotes)), delay=0.8)
    configure(demo, srv.url, concurrency=1)  # one claim at a time: the second waits for the first
    other = "Customers can ask for a credit when a delivery arrives damaged."
    newer = "A damaged delivery can be credited when the customer asks."
    await start(client, demo)
    u = open_doc(client, new_draft(demo), draft(tail=f"\n{other}\n\n{CITE_OK}"))
    await until(lambda: srv.count == 1, what="the judge being asked")
    text = draft(tail=f"\n{newer}\n\n{CITE_OK}")
    change_all(client, u, text, 2)
    save(client, u)
    diags = await until(lambda: coded(client, u, "unsupported-claim"), what="the newer run's verdicts")
    assert [d.range.start.line for d in diags] == [LINE]
    asked = [r.claim for r in srv.requests]
    assert other not in asked  # the older run stopped before asking about it
    assert asked[0] == CLAIM and newer in asked
    md = await hover(client, u, line_of(text, newer))
    assert "✅ **Supported**" in md and "· openai" in md


@pytest.mark.parametrize(
    "reply, reason",
    [
        (Reply(status=500, body=b'{"error": {"message": "model crashed"}}'), "HTTP 500"),
        (Reply(content="I think it is fine."), "malformed answer"),
    ],
    ids=["500", "malformed"],
)
async def test_a_failing_judge_falls_back(client: LanguageClient, demo: Path, srv: JudgeServer, reply, reason):
    srv.answer = lambda claim, quotes: reply
    configure(demo, srv.url, retries=0)
    await start(client, demo)
    u = open_doc(client, new_draft(demo))
    assert await hover(client, u, 0) == ""  # checked once opened: nothing to judge
    change_all(client, u, draft(), 2)
    await hover(client, u)
    assert srv.count == 0
    save(client, u)
    diags = await until(lambda: coded(client, u, "judge-fallback"), what="the judge-fallback note")
    d = diags[0]
    assert d.severity == types.DiagnosticSeverity.Information and d.range.start.line == LINE
    assert reason in d.message and "the lexical check decided" in d.message
    assert not coded(client, u, "unsupported-claim")  # the lexical check decided: supported
    md = await hover(client, u)
    assert "✅ **Supported**" in md and "· fallback" in md
    assert srv.count == 1
    # a failure is not cached: the next save asks again
    save(client, u)
    await until(lambda: srv.count == 2, what="the judge being asked again")


@pytest_lsp.fixture(config=SERVER)
async def unstopped(lsp_client: LanguageClient):
    yield  # the test shuts the server down itself


async def test_exit_waits_for_no_judge(unstopped: LanguageClient, demo: Path, srv: JudgeServer):
    client = unstopped
    srv.answer = lambda claim, quotes: Reply(content=json.dumps(answer(claim, quotes)), delay=8.0)
    configure(demo, srv.url, timeout=10)
    await start(client, demo)
    open_doc(client, new_draft(demo), draft())
    await until(lambda: srv.count == 1, what="the judge being asked")
    t0 = time.monotonic()
    await asyncio.wait_for(client.shutdown_session(), 5)
    assert time.monotonic() - t0 < 2.0
    assert client._server.returncode == 0
