"""A loopback HTTP server for the web-source tests (`cairn fetch`): it serves the pages a test
sets, redirects, slow and huge bodies, and records every request it gets (importable: tests/
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


class Site:
    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []  # (path, headers)
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
                self.send_response(page.status)
                self.send_header("Content-Type", page.content_type)
                for k, v in page.headers.items():
                    self.send_header(k, v)
                if page.location:
                    self.send_header("Location", page.location)
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
        self.server.shutdown()
        self.server.server_close()
