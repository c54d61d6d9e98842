"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for the judge tests.

    with JudgeServer() as srv:
        srv.answer = lambda claim, quotes: {"label": "supported", "score": 0.9}
        ... srv.url ("http://127.0.0.1:PORT/v1"), srv.requests ...

`answer(claim, quotes)` returns what the server does for one request:
- a dict: sent as the assistant message's content, JSON-encoded;
- a str: sent as the content as it is;
- a Reply: full control (status, raw body, delay, headers).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # the assistant message's content
    body: bytes | None = None  # the raw response body (overrides content)
    delay: float = 0.0  # seconds before answering
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    claim: str
    quotes: list[str]


_PROMPT = re.compile(r"Claim:\n(?P<claim>.*?)\n\nQuotes:\n(?P<quotes>.*?)\n\n", re.S)


def parse_prompt(text: str) -> tuple[str, list[str]]:
    m = _PROMPT.search(text)
    if not m:
        return "", []
    quotes = re.split(r"(?m)^\[\d+\] ", m.group("quotes"))
    return m.group("claim"), [q.strip() for q in quotes if q.strip()]


def completion(content: str, usage: dict | None = None) -> bytes:
    return json.dumps(
        {**({"usage": usage} if usage else {}),
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": "test-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        }
    ).encode()


class JudgeServer:
    def __init__(self, answer: Callable[[str, list[str]], Any] | None = None):
        self.answer = answer or (lambda claim, quotes: {"label": "supported", "score": 0.9})
        # when set: the answer from the whole request (a batch of claims has no single claim)
        self.answer_request: Callable[[Request], Any] | None = None
        self.usage: dict | None = None  # when set: sent as each completion's `usage`
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {}
                user = next((m.get("content", "") for m in body.get("messages", []) if m.get("role") == "user"), "")
                claim, quotes = parse_prompt(user)
                req = Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body, claim, quotes)
                with server._lock:
                    server.requests.append(req)
                if not self.path.endswith("/chat/completions"):
                    return self._send(Reply(status=404, body=b'{"error": {"message": "not found"}}'))
                got = server.answer_request(req) if server.answer_request else server.answer(claim, quotes)
                if isinstance(got, Reply):
                    reply = got
                elif isinstance(got, dict):
                    reply = Reply(content=json.dumps(got))
                else:
                    reply = Reply(content=str(got))
                self._send(reply)

            def _send(self, reply: Reply):
                if reply.delay:
                    time.sleep(reply.delay)
                data = reply.body if reply.body is not None else completion(reply.content or "", server.usage)
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> JudgeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.requests)
