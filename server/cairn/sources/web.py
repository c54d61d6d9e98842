"""Downloading a web source (SPEC sections 2 and 7, `cairn fetch`), and nothing else.

The rules a download keeps, whoever asked for it:

- only `http://` and `https://` URLs, never with a user name or password in them; no
  credentials, cookies or proxy settings are ever sent (http.client sends none by itself);
- the host is resolved here and the connection is made to the address that was checked
  (so a name cannot resolve to an allowed address for the check and a private one for
  the connection); a loopback, link-local, private or otherwise internal address is
  refused unless `allow_private` (the user's `--allow-private`, never the workspace's);
- at most MAX_REDIRECTS redirects, each decided like the first URL and reported;
- at most MAX_BYTES of body and TIME_LIMIT seconds a URL, whatever the server does: one
  deadline from the first connection to the body's last byte, over every redirect (a server
  that drips a byte at a time, or sends nothing, is stopped at it).
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urljoin, urlsplit

from .. import __version__

MAX_BYTES = 50 * 1024 * 1024
TIME_LIMIT = 60.0
MAX_REDIRECTS = 5
REDIRECTS = (301, 302, 303, 307, 308)


class FetchError(Exception):
    """A download that was refused or failed; the message says which rule or what went wrong."""


@dataclass(slots=True)
class Response:
    url: str  # requested
    final_url: str
    status: int
    content_type: str | None
    etag: str | None
    last_modified: str | None
    time: str  # when the response came, ISO 8601 UTC
    body: bytes = b""
    redirects: list[tuple[int, str]] = field(default_factory=list)  # (status, the URL it pointed to)

    def record(self) -> dict[str, Any]:
        """The fetch record kept with the version (SPEC section 2)."""
        return {"url": self.url, "final_url": self.final_url, "time": self.time, "status": self.status,
                "content_type": self.content_type, "etag": self.etag, "last_modified": self.last_modified,
                "redirects": [u for _, u in self.redirects]}


def url_problem(url: str) -> str | None:
    """Why a URL is never fetched (its form alone), or None."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return f"not a valid URL ({exc})"
    if parts.scheme.lower() not in ("http", "https"):
        return "only http:// and https:// URLs are fetched"
    if not parts.hostname:
        return "the URL names no host"
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return "the URL holds a user name or password: Cairn never sends credentials"
    if port == 0:
        return "the URL names port 0"
    if any(c in url for c in "\r\n\t ") or any(ord(c) < 32 for c in url):
        return "the URL holds white space or control characters"
    return None


def address_refusal(address: str) -> str | None:
    """Why a download to this IP address is refused without `--allow-private`, or None
    (an address on the public internet)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return f"{address} is not an IP address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return f"{ip} is a loopback address"
    if ip.is_link_local:
        return f"{ip} is a link-local address"
    if ip.is_unspecified or ip.is_multicast or ip.is_reserved:
        return f"{ip} is not an address on the internet"
    if ip.is_private or not ip.is_global:
        return f"{ip} is a private address"
    return None


def resolve(host: str, port: int) -> list[str]:
    """The addresses a host name stands for (an IP address stands for itself)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(f"{host} cannot be resolved ({exc})") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


Refusal = Callable[[str], str | None]


def decide(url: str, allow_private: bool, refuse: Refusal = address_refusal) -> tuple[str, int, str]:
    """(host, port, the address to connect to) for a URL, or FetchError saying why not.
    `refuse`: why an address is refused (address_refusal), unless `allow_private`."""
    problem = url_problem(url)
    if problem:
        raise FetchError(problem)
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    addresses = resolve(host, port)
    if not addresses:
        raise FetchError(f"{host} resolves to no address")
    if not allow_private:
        for a in addresses:
            why = refuse(a)
            if why:
                said = why if a == host else f"{host} resolves to {why}"
                raise FetchError(f"{said}: refused (a workspace's URL is never fetched from an internal"
                                 " address; allow it with --allow-private)")
    return host, port, addresses[0]


class _Pinned(http.client.HTTPConnection):
    """An HTTP connection to the address that was checked, whatever the name resolves to now."""

    def __init__(self, host: str, port: int, address: str, deadline: float) -> None:
        super().__init__(host, port, timeout=max(deadline - time.monotonic(), 0.001))
        self._address = address
        self._deadline = deadline

    def _open(self) -> socket.socket:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the time limit passed")
        return socket.create_connection((self._address, self.port), left)

    def connect(self) -> None:
        self.sock = self._open()
        if time.monotonic() >= self._deadline:  # connected just as the watchdog fired, before it saw a socket
            raise TimeoutError("the time limit passed")


class _PinnedTLS(_Pinned, http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, deadline: float) -> None:
        self._tls = ssl.create_default_context()
        http.client.HTTPSConnection.__init__(self, host, port, timeout=max(deadline - time.monotonic(), 0.001),
                                             context=self._tls)
        self._address = address
        self._deadline = deadline

    def connect(self) -> None:
        # the handshake runs on self.sock, so the watchdog can cut a handshake the server drips too
        self.sock = self._tls.wrap_socket(self._open(), server_hostname=self.host, do_handshake_on_connect=False)
        if time.monotonic() >= self._deadline:
            raise TimeoutError("the time limit passed")
        self.sock.do_handshake()


class _Watchdog:
    """The time limit as a total deadline: a socket timeout bounds each read, and a server
    that sends a byte just before each one (a dripped header or body) would never meet it.
    At the deadline this shuts the connection's socket, which ends any read in progress."""

    def __init__(self, conn: http.client.HTTPConnection, seconds: float) -> None:
        self.fired = False
        self._conn = conn
        self._timer = threading.Timer(max(seconds, 0.0), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        self.fired = True
        sock = self._conn.sock
        if sock is not None:
            try:  # the plain socket's shutdown, also under TLS: the fd is cut, the TLS state left alone
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except OSError:
                pass

    def cancel(self) -> None:
        self._timer.cancel()


def fetch(url: str, *, allow_private: bool = False, etag: str | None = None, last_modified: str | None = None,
          max_bytes: int = MAX_BYTES, time_limit: float = TIME_LIMIT,
          max_redirects: int = MAX_REDIRECTS, refuse: Refusal = address_refusal) -> Response:
    """Download one URL under the rules above; FetchError when a rule refuses it or it fails.
    `etag` / `last_modified` make the request conditional (a 304 has no body)."""
    deadline = time.monotonic() + time_limit
    redirects: list[tuple[int, str]] = []
    current = url
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise FetchError(f"stopped at the time limit: no complete answer within {time_limit:g} s")
        host, port, address = decide(current, allow_private, refuse)  # every hop decided anew
        parts = urlsplit(current)
        tls = parts.scheme.lower() == "https"
        conn: http.client.HTTPConnection = (_PinnedTLS if tls else _Pinned)(host, port, address, deadline)
        dog = _Watchdog(conn, left)
        headers = {"User-Agent": f"cairn/{__version__} (+cairn fetch)", "Accept-Encoding": "identity",
                   "Accept": "text/html, application/pdf, text/plain;q=0.9, */*;q=0.5"}
        if not redirects:
            if etag:
                headers["If-None-Match"] = etag
            if last_modified:
                headers["If-Modified-Since"] = last_modified
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        try:
            try:
                conn.request("GET", path, headers=headers)
                resp = conn.getresponse()
            except (OSError, http.client.HTTPException) as exc:
                if dog.fired or time.monotonic() >= deadline:
                    raise FetchError(f"stopped at the time limit: no complete answer within {time_limit:g} s"
                                     ) from None
                raise FetchError(f"{host}: {type(exc).__name__}: {exc}") from None
            if dog.fired:  # headers the watchdog cut short read as complete
                raise FetchError(f"stopped at the time limit: no complete answer within {time_limit:g} s")
            if resp.status in REDIRECTS:
                location = resp.getheader("Location")
                if not location:
                    raise FetchError(f"{current} answered {resp.status} without a Location")
                nxt = urljoin(current, location.strip())
                redirects.append((resp.status, nxt))
                if len(redirects) > max_redirects:
                    raise FetchError(f"more than {max_redirects} redirects (the last to {nxt})")
                current = nxt
                continue
            now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            out = Response(url, current, resp.status, resp.getheader("Content-Type"), resp.getheader("ETag"),
                           resp.getheader("Last-Modified"), now, redirects=redirects)
            if resp.status == 304:
                return out
            if not 200 <= resp.status < 300:
                raise FetchError(f"{current} answered {resp.status} {resp.reason}")
            length = resp.getheader("Content-Length")
            if length and length.strip().isdigit() and int(length) > max_bytes:
                raise FetchError(f"larger than {max_bytes // (1024 * 1024)} MB ({int(length)} bytes announced)")
            out.body = _read_body(conn, resp, max_bytes, deadline, time_limit, dog)
            return out
        finally:
            dog.cancel()
            conn.close()


def _read_body(conn: http.client.HTTPConnection, resp: http.client.HTTPResponse, max_bytes: int,
               deadline: float, time_limit: float, dog: _Watchdog) -> bytes:
    parts: list[bytes] = []
    got = 0

    def late() -> FetchError:
        return FetchError(f"stopped at the time limit: not downloaded within {time_limit:g} s ({got} bytes came)")

    while True:
        left = deadline - time.monotonic()
        if left <= 0 or dog.fired:
            raise late()
        if conn.sock is not None:
            conn.sock.settimeout(left)
        try:
            piece = resp.read1(64 * 1024)
        except (OSError, http.client.HTTPException) as exc:
            if dog.fired or time.monotonic() >= deadline:
                raise late() from None
            raise FetchError(f"the download broke off ({type(exc).__name__}: {exc})") from None
        if not piece:
            if dog.fired:  # the end of a body the watchdog cut, not the body's own end
                raise late()
            return b"".join(parts)
        got += len(piece)
        if got > max_bytes:
            raise FetchError(f"larger than {max_bytes // (1024 * 1024)} MB: stopped")
        parts.append(piece)
