"""The download rules of a web source (sources/web.py, SPEC section 7), on their decisions and
against a loopback server the test starts: nothing here leaves the machine."""

from __future__ import annotations

import time

import pytest

from cairn.sources import web
from web_server import Page, Site


@pytest.mark.parametrize("address", [
    "127.0.0.1", "127.8.9.10", "::1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
    "fe80::1", "fc00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "100.64.0.1", "0.0.0.0", "::", "224.0.0.1",
    "fe80::1%eth0",
])
def test_internal_addresses_are_refused(address: str) -> None:
    assert web.address_refusal(address) is not None


@pytest.mark.parametrize("address", ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111", "1.1.1.1"])
def test_addresses_on_the_internet_are_not(address: str) -> None:
    assert web.address_refusal(address) is None


@pytest.mark.parametrize("url, words", [
    ("ftp://example.com/x", "only http"),
    ("file:///etc/passwd", "only http"),
    ("https://user:secret@example.com/", "user name or password"),
    ("https://user@example.com/", "user name or password"),
    ("https:///nohost", "no host"),
    ("https://example.com/a b", "white space"),
    ("http://[::1/", "not a valid URL"),
])
def test_urls_refused_by_their_form(url: str, words: str) -> None:
    problem = web.url_problem(url)
    assert problem is not None and words in problem


def test_a_name_is_decided_on_what_it_resolves_to() -> None:
    with pytest.raises(web.FetchError, match="localhost resolves to .* loopback"):
        web.decide("http://localhost:9/", allow_private=False)
    assert web.decide("http://localhost:9/", allow_private=True)[2] in ("127.0.0.1", "::1")


@pytest.fixture
def site():
    s = Site()
    yield s
    s.close()


def test_every_redirect_is_decided_anew(site: Site) -> None:
    port = site.server.server_address[1]
    site.pages["/start"] = Page(status=302, location=f"http://127.0.0.2:{port}/inside")
    # 127.0.0.1 stands for an outside address here, 127.0.0.2 for an inside one
    refuse = lambda a: f"{a} is an inside address" if a == "127.0.0.2" else None  # noqa: E731 - the test's own rule
    with pytest.raises(web.FetchError, match="127.0.0.2 is an inside address: refused"):
        web.fetch(site.url("/start"), refuse=refuse)
    assert [p for p, _ in site.requests] == ["/start"]  # the redirect's target was never contacted


def test_the_time_limit_stops_a_slow_body(site: Site) -> None:
    site.pages["/slow"] = Page(content_type="text/plain", stream=40 * 1024 * 1024, delay=0.5)
    started = time.monotonic()
    with pytest.raises(web.FetchError, match="not downloaded within 1 s"):
        web.fetch(site.url("/slow"), allow_private=True, time_limit=1.0)
    assert time.monotonic() - started < 3


@pytest.mark.parametrize("page, words", [
    (Page(drip=0.05), "stopped at the time limit: not downloaded within 1 s"),  # each byte well inside a timeout
    (Page(drip_headers=0.05), "stopped at the time limit: no complete answer within 1 s"),
    (Page(stall=True), "stopped at the time limit: no complete answer within 1 s"),
])
def test_the_time_limit_is_one_deadline_whatever_the_server_drips(site: Site, page: Page, words: str) -> None:
    site.pages["/p"] = page
    started = time.monotonic()
    with pytest.raises(web.FetchError, match=words):
        web.fetch(site.url("/p"), allow_private=True, time_limit=1.0)
    assert 0.9 < time.monotonic() - started < 2.5


def test_a_redirect_does_not_restart_the_time_limit(site: Site) -> None:
    site.pages["/start"] = Page(status=302, location="/drip")
    site.pages["/drip"] = Page(drip=0.05)
    started = time.monotonic()
    with pytest.raises(web.FetchError, match="within 1 s"):
        web.fetch(site.url("/start"), allow_private=True, time_limit=1.0)
    assert time.monotonic() - started < 2.5


def test_the_size_limit_stops_a_body_without_a_length(site: Site) -> None:
    site.pages["/big"] = Page(content_type="text/plain", stream=3 * 1024 * 1024)
    with pytest.raises(web.FetchError, match="larger than 2 MB"):
        web.fetch(site.url("/big"), allow_private=True, max_bytes=2 * 1024 * 1024)
    got = web.fetch(site.url("/big"), allow_private=True, max_bytes=4 * 1024 * 1024)
    assert len(got.body) == 3 * 1024 * 1024 and got.status == 200 and got.final_url == site.url("/big")


def test_nothing_but_the_request_is_sent(site: Site) -> None:
    site.pages["/p"] = Page(b"hello", content_type="text/plain")
    web.fetch(site.url("/p"), allow_private=True)
    headers = site.requests[0][1]
    assert set(headers) <= {"host", "user-agent", "accept", "accept-encoding", "connection"}, headers
