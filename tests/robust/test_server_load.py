"""The server under load (issue point 6): hundreds of rapid edits to an open
draft, interleaved with hovers, code actions, lenses, completions and
definitions, a share of them cancelled with $/cancelRequest right after
they are sent. Every request gets an answer (a result, or the
RequestCancelled error), the final diagnostics are those of `cairn check`
on the final text, and the server's resident memory stays bounded.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled
from pytest_lsp import ClientServerConfig, LanguageClient

from cairn_testing import assert_diagnostics_match, expected_diagnostics
from robust_util import LONG, check_json, copy_tree, lsp_start, open_doc, server_pid, until, vm_rss_kb

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"])
ROUNDS = 8 if LONG else 4
EDITS_PER_ROUND = 250 if LONG else 150
WORDS = ["credit", "fourteen", "30", "days", "refund", "the", "photo", "damaged", "é", "🥛", "生鮮", "\"", ":", "-"]


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def utf16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


class Editor:
    """The client's copy of the text, edited with LSP ranges (UTF-16 columns)."""

    def __init__(self, text: str, rng: random.Random):
        self.lines = text.split("\n")
        self.rng = rng

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def _col(self, line: int) -> int:
        s = self.lines[line]
        i = self.rng.randrange(len(s) + 1)
        while 0 < i < len(s) and "\udc00" <= s[i] <= "\udfff":  # never inside a pair
            i -= 1
        return i

    def random_edit(self) -> types.TextDocumentContentChangePartial:
        rng = self.rng
        line = rng.randrange(len(self.lines))
        kind = rng.random()
        if kind < 0.45:  # type a word
            col = self._col(line)
            new = rng.choice(WORDS) + rng.choice([" ", ""])
            return self._replace(line, col, line, col, new)
        if kind < 0.75:  # delete a few characters
            s = self.lines[line]
            a = self._col(line)
            b = min(len(s), a + rng.randrange(1, 6))
            return self._replace(line, a, line, b, "")
        if kind < 0.85:  # split a line, or add a paragraph
            col = self._col(line)
            return self._replace(line, col, line, col, rng.choice(["\n", "\n\nA new claim of 14 days.\n"]))
        if kind < 0.95 and line + 1 < len(self.lines):  # join two lines
            return self._replace(line, len(self.lines[line]), line + 1, 0, " ")
        s = self.lines[line]  # retype a cite field's value
        if ":" in s:
            c = s.index(":") + 1
            return self._replace(line, c, line, len(s), " " + rng.choice(["0", "65", "691d71e4b46d8b0d", "\"x\""]))
        return self._replace(line, 0, line, 0, "")

    def _replace(self, l1: int, c1: int, l2: int, c2: int, new: str) -> types.TextDocumentContentChangePartial:
        rng_ = types.Range(start=types.Position(line=l1, character=utf16(self.lines[l1][:c1])),
                           end=types.Position(line=l2, character=utf16(self.lines[l2][:c2])))
        head, tail = self.lines[l1][:c1], self.lines[l2][c2:]
        self.lines[l1:l2 + 1] = (head + new + tail).split("\n")
        return types.TextDocumentContentChangePartial(range=rng_, text=new)

    def position(self) -> types.Position:
        line = self.rng.randrange(len(self.lines))
        return types.Position(line=line, character=utf16(self.lines[line][: self._col(line)]))


class OneWrite:
    """Messages sent inside the block leave in a single write to the server's stdin."""

    def __init__(self, proto):
        self.proto = proto
        self.parts: list[bytes] = []

    def __enter__(self):
        self.real = self.proto.writer
        self.proto.writer = self
        return self

    def write(self, data: bytes) -> None:
        self.parts.append(data)

    def __exit__(self, *exc):
        self.proto.writer = self.real
        res = self.real.write(b"".join(self.parts))
        if asyncio.iscoroutine(res) or isinstance(res, asyncio.Future):
            asyncio.ensure_future(res)


async def test_rapid_edits_requests_and_cancellations(client: LanguageClient, demo: Path, tmp_path: Path):
    rng = random.Random(2024)
    await lsp_start(client, demo, options={"debounce_ms": 30})
    pid = server_pid(client)
    path = demo / "drafts" / "review-notes.md"
    editor = Editor(path.read_text(encoding="utf-8"), rng)
    u = open_doc(client, path, editor.text)
    await until(lambda: client.diagnostics.get(u), what="the first diagnostics")
    doc = types.TextDocumentIdentifier(uri=u)
    proto = client.protocol
    version = 1
    pending: list[tuple[str, asyncio.Future]] = []
    cancelled_ids: set[str] = set()
    rss: list[int] = [vm_rss_kb(pid)]
    cancels = 0
    next_id = [0]

    def send(method: str, params, msg_id: str) -> asyncio.Future:
        # pygls's plain send_request writes at once (pytest-lsp's async one only when awaited)
        return asyncio.wrap_future(proto.send_request(method, params, msg_id=msg_id))

    def request(method: str, params) -> None:
        next_id[0] += 1
        msg_id = f"load-{next_id[0]}"
        if rng.random() < 0.3:
            # the request and its cancellation in one write: the server reads them back to back
            with OneWrite(proto):
                fut = send(method, params, msg_id)
                proto.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
            cancelled_ids.add(msg_id)
        else:
            fut = send(method, params, msg_id)
            if rng.random() < 0.1:  # cancelled a little later, maybe too late
                proto.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
                cancelled_ids.add(msg_id)
        pending.append((msg_id, fut))

    for _ in range(ROUNDS):
        for i in range(EDITS_PER_ROUND):
            version += 1
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=u, version=version),
                content_changes=[editor.random_edit()]))
            r = rng.random()
            pos = editor.position()
            if r < 0.25:
                request(types.TEXT_DOCUMENT_HOVER, types.HoverParams(text_document=doc, position=pos))
            elif r < 0.40:
                request(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionParams(
                    text_document=doc, range=types.Range(start=pos, end=pos),
                    context=types.CodeActionContext(diagnostics=[])))
            elif r < 0.48:
                request(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensParams(text_document=doc))
            elif r < 0.56:
                request(types.TEXT_DOCUMENT_COMPLETION, types.CompletionParams(text_document=doc, position=pos))
            elif r < 0.62:
                request(types.TEXT_DOCUMENT_DEFINITION, types.DefinitionParams(text_document=doc, position=pos))
            elif r < 0.70:  # requests that wait on the engine: a cancellation can still reach them
                request(types.WORKSPACE_EXECUTE_COMMAND, types.ExecuteCommandParams(command="cairn.report"))
            elif r < 0.72:
                request(types.WORKSPACE_EXECUTE_COMMAND, types.ExecuteCommandParams(command="cairn.reindex"))
            if i % 25 == 0:
                await asyncio.sleep(0)  # let the reader run; the writes stay back to back
        # every request of the round is answered
        t0 = time.monotonic()
        outcomes = {"result": 0, "cancelled": 0}
        for msg_id, fut in pending:
            try:
                await asyncio.wait_for(fut, timeout=max(1.0, 120 - (time.monotonic() - t0)))
                outcomes["result"] += 1
            except JsonRpcRequestCancelled:
                assert msg_id in cancelled_ids, f"{msg_id} was cancelled but never asked to be"
                outcomes["cancelled"] += 1
            except JsonRpcException as exc:
                raise AssertionError(f"{msg_id} failed: {exc}") from exc
        assert sum(outcomes.values()) == len(pending)
        cancels += outcomes["cancelled"]
        pending.clear()
        rss.append(vm_rss_kb(pid))

    assert cancels > 0  # some cancellations reached requests still waiting to run
    # the final diagnostics are those of the final text
    final = editor.text
    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc,
                                                                      position=types.Position(line=0, character=0)))
    del hover  # answered once the last edit is checked; its diagnostics are published before it
    copy = copy_tree(demo, tmp_path / "final")
    (copy / "drafts" / "review-notes.md").write_text(final, encoding="utf-8")
    _, report, _ = check_json(copy, "drafts/review-notes.md")
    want = expected_diagnostics(report, "drafts/review-notes.md")
    await until(lambda: len(client.diagnostics.get(u, [])) == len(want), timeout=30,
                what="diagnostics of the final text")
    assert_diagnostics_match(client.diagnostics[u], want)
    # memory: bounded, and not growing round after round
    # the sentence reader's English pipeline (about 120 MB) loads on the first text the server has not read
    # before, which under load may come in any of the first rounds: growth is measured over the last round,
    # by when it has loaded (measured on a clean CI clone: 123, 126, 186, 255, 255 MB), at most 20 MB a round
    assert rss[-1] < 400_000, rss  # kB
    assert rss[-1] - rss[-2] < 20_000, rss
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error], \
        [m.message for m in client.log_messages if m.type == types.MessageType.Error]
