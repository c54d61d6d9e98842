"""A loopback HTTP server for the web-source tests (`cairn fetch`): it serves the pages a test
sets, redirects, slow and huge bodies, answers dripped a byte at a time or never sent, and records every request it gets (importable: tests/
is on sys.path). It listens on 127.0.0.1 only; nothing leaves the machine."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Page:
    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    status: int = 200
    location: str | None = None  # a redirect's target
    headers: dict[str, str] = field(default_factory=dict)
    stream: int = 0  # this many bytes of `x`, written without a Content-Length
    delay: float = 0.0  # seconds between pieces of a streamed body
    drip: float = 0.0  # send the headers, then one byte of body every `drip` seconds, without end
    drip_headers: float = 0.0  # send the status line, then one byte of a header every `drip_headers` seconds
    stall: bool = False  # accept the request and send nothing


class Site:
    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []  # (path, headers)
        self.closing = threading.Event()  # ends the stalled and dripping answers
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                site.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                page = site.pages.get(self.path)
                if page is None:
                    self.send_error(404)
                    return
                if page.stall:
                    site.closing.wait()  # until the test's server is closed
                    return
                if page.drip_headers:
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
                    self._drip(page.drip_headers)
                    return
                self.send_response(page.status)
                self.send_header("Content-Type", page.content_type)
                for k, v in page.headers.items():
                    self.send_header(k, v)
                if page.location:
                    self.send_header("Location", page.location)
                if page.drip:
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self._drip(page.drip)
                    return
                if page.stream:
                    self.send_header("Connection", "close")
                    self.end_headers()
                    piece = b"x" * (1024 * 1024)
                    sent = 0
                    try:
                        while sent < page.stream:
                            self.wfile.write(piece[: page.stream - sent])
                            sent += len(piece)
                            if page.delay:
                                time.sleep(page.delay)
                    except OSError:
                        pass
                    return
                self.send_header("Content-Length", str(len(page.body)))
                self.end_headers()
                self.wfile.write(page.body)

            def _drip(self, every: float) -> None:
                """One byte every `every` seconds until the client goes or the server closes."""
                try:
                    while not site.closing.wait(every):
                        self.wfile.write(b"x")
                        self.wfile.flush()
                except OSError:
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def close(self) -> None:
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()
