"""Web sources through the real CLI (SPEC sections 2, 6 and 7): only `cairn fetch` downloads,
never to a loopback or private address unless --allow-private; at most 5 redirects, each
reported; 50 MB a URL; no credentials or cookies; a new version when the bytes differ, with its
fetch record; a cited web chunk keeps its verdict through a changed page, a deleted index and a
clone. Every page is served by a loopback server the test starts."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from web_server import Page, Site

from cairn_testing import run_cairn
from policy_ws import chunk_id, cite

OLD = "The libffi library is thread-safe."
NEW = "The libffi library is not fully thread-safe."
OTHER = "Other text that stays the same."


def html(*paras: str) -> bytes:
    return ("<html><head><title>Notes</title></head><body>"
            + "".join(f"<p>{p}</p>" for p in paras) + "</body></html>").encode()


def make(tmp_path: Path, *urls: str, listed: bool = False) -> Path:
    ws = tmp_path / "ws"
    (ws / "sources").mkdir(parents=True)
    (ws / "drafts").mkdir()
    (ws / "sources" / "local.md").write_text("A local note.\n", encoding="utf-8")
    if listed:
        (ws / "sources" / "web.txt").write_text("# pages we cite\n" + "\n".join(urls) + "\n", encoding="utf-8")
        (ws / "cairn.toml").write_text("", encoding="utf-8")
    else:
        (ws / "cairn.toml").write_text(f"sources = {json.dumps(['sources', *urls])}\n", encoding="utf-8")
    return ws


def codes(ws: Path, env: dict | None = None) -> list[list[tuple[str, str]]]:
    proc = run_cairn(ws, "check", "--format", "json", env=env)
    assert proc.returncode in (0, 1), proc.stderr
    return [[(d["code"], d["message"]) for d in c["diagnostics"]]
            for d in json.loads(proc.stdout)["drafts"] for c in d["claims"]]


def test_a_cited_page_that_changes_keeps_its_old_text_and_verdict(site: Site, tmp_path: Path) -> None:
    url = site.url("/notes.html")
    site.pages["/notes.html"] = Page(html(OLD, OTHER), headers={"ETag": '"v1"'})
    ws = make(tmp_path, url)
    (ws / "drafts" / "d.md").write_text(cite("libffi is thread-safe.", url, OLD), encoding="utf-8")

    # check and index never download
    proc = run_cairn(ws, "check")
    assert site.requests == [] and "not fetched yet: run `cairn fetch`" in proc.stderr

    proc = run_cairn(ws, "fetch", "--allow-private")
    assert proc.returncode == 0, proc.stderr
    assert f"{url}: new version" in proc.stdout and "(200 text/html" in proc.stdout
    assert codes(ws) == [[]]

    # the same bytes again: no new version (a conditional request the site answers 304 or not)
    proc = run_cairn(ws, "fetch", "--allow-private")
    assert proc.returncode == 0 and f"{url}: unchanged" in proc.stdout, proc.stdout + proc.stderr
    assert site.requests[-1][1].get("if-none-match") == '"v1"'

    site.pages["/notes.html"] = Page(html(NEW, OTHER), headers={"ETag": '"v2"'})
    assert codes(ws) == [[]]  # not fetched again: the latest fetch is still the old page
    proc = run_cairn(ws, "fetch", "--allow-private")
    assert f"{url}: new version" in proc.stdout, proc.stderr
    after = codes(ws)
    assert [c for c, _ in after[0]] == ["source-changed"] and NEW in after[0][0][1]

    # the old text, with its fetch record
    proc = run_cairn(ws, "show", chunk_id(url, OLD))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith(OLD)
    assert f"source:   {url}" in proc.stdout and "(superseded; the current version is" in proc.stdout
    assert "fetched:" in proc.stdout and '200 text/html; charset=utf-8 from ' + url in proc.stdout
    assert 'etag "v1"' in proc.stdout and "fetched on this machine" in proc.stdout

    # a deleted index: the same verdict, from the snapshots, with no download
    asked = len(site.requests)
    for p in (ws / ".cairn").glob("index.db*"):
        p.unlink()
    assert codes(ws) == after
    assert len(site.requests) == asked

    # a clone (another machine's key; the repository's own local record comes along): same
    # verdicts, and its fetch records are the repository's, not this machine's
    clone = tmp_path / "clone"
    shutil.copytree(ws, clone, ignore=shutil.ignore_patterns("index.db*"))
    other = {"XDG_DATA_HOME": str(tmp_path / "elsewhere")}
    assert codes(clone, other) == after
    proc = run_cairn(clone, "show", chunk_id(url, OLD), env=other)
    assert "recorded by the repository, not fetched here" in proc.stdout
    assert "fetched on this machine" not in proc.stdout


def test_a_private_address_is_refused_without_allow_private(site: Site, tmp_path: Path) -> None:
    url = site.url("/p.html")
    site.pages["/p.html"] = Page(html(OLD))
    ws = make(tmp_path, url)
    proc = run_cairn(ws, "fetch")
    assert proc.returncode == 1
    assert "127.0.0.1 is a loopback address: refused" in proc.stderr and "--allow-private" in proc.stderr
    assert site.requests == []  # decided before any connection
    # a name that resolves to loopback is refused the same way
    ws2 = make(tmp_path / "two", url.replace("127.0.0.1", "localhost"))
    proc = run_cairn(ws2, "fetch")
    assert proc.returncode == 1 and "localhost resolves to" in proc.stderr and site.requests == []


def test_redirects_are_followed_up_to_five_and_reported(site: Site, tmp_path: Path) -> None:
    for i in range(7):
        site.pages[f"/r{i}"] = Page(status=302, location=f"/r{i + 1}", headers={"Set-Cookie": "session=1"})
    site.pages["/r7"] = Page(html(OLD))
    five, six = site.url("/r2"), site.url("/r1")  # 5 and 6 redirects to /r7
    ws = make(tmp_path, five, six, listed=True)
    proc = run_cairn(ws, "fetch", "--allow-private")
    assert proc.returncode == 1
    assert f"{five}: redirected (302) to {site.url('/r3')}" in proc.stdout
    assert f"{five}: new version" in proc.stdout
    assert f"{six}: not fetched: more than 5 redirects" in proc.stderr
    # no cookie set on the way, no credentials, are ever sent
    assert all("cookie" not in h and "authorization" not in h for _, h in site.requests)
    shown = run_cairn(ws, "show", chunk_id(five, OLD))
    assert f"from {site.url('/r7')}" in shown.stdout and "5 redirect(s)" in shown.stdout


def test_a_body_over_50_mb_is_not_kept(site: Site, tmp_path: Path) -> None:
    site.pages["/big.txt"] = Page(content_type="text/plain", stream=50 * 1024 * 1024 + 1)
    ws = make(tmp_path, site.url("/big.txt"))
    proc = run_cairn(ws, "fetch", "--allow-private")
    assert proc.returncode == 1 and "larger than 50 MB" in proc.stderr, proc.stderr
    assert not list((ws / ".cairn" / "snapshots").glob("*.gz")) or all(
        p.stat().st_size < 1024 * 1024 for p in (ws / ".cairn" / "snapshots").glob("*.gz"))


def test_credentials_in_a_url_are_never_sent(site: Site, tmp_path: Path) -> None:
    site.pages["/p.html"] = Page(html(OLD))
    secret = site.url("/p.html").replace("http://", "http://user:pw@")
    ws = make(tmp_path, secret, site.url("/p.html"))
    proc = run_cairn(ws, "fetch", "--allow-private")
    assert "holds a user name or password" in proc.stderr
    assert proc.returncode == 0 and site.requests and len(site.requests) == 1
    proc = run_cairn(ws, "fetch", "--allow-private", secret)
    assert proc.returncode == 2 and "holds a user name or password" in proc.stderr


def test_only_the_workspace_s_web_sources_are_fetched(site: Site, tmp_path: Path) -> None:
    site.pages["/p.txt"] = Page(b"Plain text, kept as text.\n", content_type="text/plain")
    ws = make(tmp_path, site.url("/p.txt"), listed=True)
    proc = run_cairn(ws, "fetch", "--allow-private", site.url("/other"))
    assert proc.returncode == 2 and "not a web source of this workspace" in proc.stderr and site.requests == []
    proc = run_cairn(ws, "fetch", "--allow-private", site.url("/p.txt"))
    assert proc.returncode == 0 and "new version" in proc.stdout
    chunks = run_cairn(ws, "chunks", "--json").stdout.splitlines()
    rows = [json.loads(r) for r in chunks]
    assert {r["source"] for r in rows} == {"sources/local.md", site.url("/p.txt")}  # web.txt is no source
    assert any(r["text"] == "Plain text, kept as text." and r["lineage"].startswith("text/") for r in rows)
    site.pages["/p.txt"] = Page(b"\x00\x01", content_type="application/octet-stream")
    proc = run_cairn(ws, "fetch", "--allow-private")
    assert proc.returncode == 1 and "is not parsed" in proc.stderr


def test_the_60_s_limit_stops_a_dripping_or_silent_server_and_the_run_goes_on(site: Site, tmp_path: Path) -> None:
    """SPEC section 7: 60 s a URL, one deadline from the connection to the last byte. This test
    takes about 60 s by nature (the limit is 60 s and not configurable); its three slow servers
    (a body dripped at 1 byte/s, a header dripped at 1 byte/s, a server that accepts and sends
    nothing) run in three `cairn fetch` processes side by side, each before a page served normally."""
    site.pages["/drip-body"] = Page(drip=1.0)
    site.pages["/drip-headers"] = Page(drip_headers=1.0)
    site.pages["/silent"] = Page(stall=True)
    runs = []
    for slow in ("/drip-body", "/drip-headers", "/silent"):
        ok = f"/ok{slow}.html"
        site.pages[ok] = Page(html(OLD))
        ws = make(tmp_path / slow.strip("/"), site.url(slow), site.url(ok))
        proc = subprocess.Popen([sys.executable, "-m", "cairn", "fetch", "--allow-private"], cwd=ws,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        runs.append((ws, site.url(slow), site.url(ok), proc, time.monotonic()))
    try:
        for run in runs:
            _stopped_at_the_limit(*run)
    finally:
        for *_, proc, _started in runs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def _stopped_at_the_limit(ws: Path, slow_url: str, ok_url: str, proc: subprocess.Popen, started: float) -> None:
    """One `cairn fetch` run of the test above: its slow URL stopped at the limit, its other URL fetched."""
    out, err = proc.communicate(timeout=150)
    took = time.monotonic() - started
    # stopped at the limit (not at a socket timeout the drip keeps resetting), naming the URL and the limit
    assert 59 <= took < 100, (slow_url, took)
    assert proc.returncode == 1, out + err  # SPEC: exit 1 when a URL failed
    (line,) = [ln for ln in err.splitlines() if slow_url + ":" in ln]
    assert line.startswith(f"cairn: {slow_url}: not fetched: stopped at the time limit: ") and "within 60 s" in line
    # the next URL of the same run was fetched and kept
    assert f"{ok_url}: new version" in out, out + err
    # nothing kept for the slow one: no fetch record, no snapshot naming it, no chunk
    latest = json.loads((ws / ".cairn" / "snapshots" / "web.json").read_text("utf-8"))
    assert set(latest) == {ok_url}, latest
    sidecars = [p.read_text("utf-8") for p in (ws / ".cairn" / "snapshots").glob("*.json") if p.name != "web.json"]
    assert sidecars and not any(slow_url in s for s in sidecars)
    rows = [json.loads(r) for r in run_cairn(ws, "chunks", "--json").stdout.splitlines()]
    assert slow_url not in {r["source"] for r in rows} and ok_url in {r["source"] for r in rows}
