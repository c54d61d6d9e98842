"""`cairn fetch --verify` and what a workspace citing local files and web pages keeps, through
the real CLI (SPEC sections 1, 2, 6 and 7): every cited web version downloaded again and
reported when the site no longer serves it (exit 1); a repository's fetch record shown as such
until this machine's own download sees the same bytes; verdicts and old text kept through a
changed page, a deleted index and a fresh `git clone`. Every page comes from a loopback server
the test starts; the refusal of an internal address is asserted on its decision (no request)."""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from web_server import Page, Site
from web_ws import LOCAL_NEW, LOCAL_OLD, MOVED, NEW, OLD, html, make

from cairn_testing import run_cairn
from policy_ws import chunk_id, cite


def verdicts(ws: Path, env: dict | None = None) -> list[list[tuple[str, str]]]:
    proc = run_cairn(ws, "check", "--format", "json", env=env)
    assert proc.returncode in (0, 1), proc.stderr
    return [[(d["code"], d["message"]) for d in c["diagnostics"]]
            for d in json.loads(proc.stdout)["drafts"] for c in d["claims"]]


def fetched_lines(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith("fetched:")]


def test_verify_reports_a_cited_version_the_site_no_longer_serves(site: Site, tmp_path: Path) -> None:
    url = site.url("/notes.html")
    site.pages["/notes.html"] = Page(html(OLD, MOVED), headers={"ETag": '"v1"'})
    ws = make(tmp_path / "ws", url, moved=True)
    # the first citation names the version it was written against, the second names none
    version = hashlib.sha256(html(OLD, MOVED)).hexdigest()
    draft = ws / "drafts" / "d.md"
    draft.write_text(draft.read_text().replace("end: 34\n", f"end: 34\nversion: {version[:12]}\n", 1))
    assert run_cairn(ws, "fetch", "--allow-private").returncode == 0
    first = verdicts(ws)
    assert first == [[], [], []]

    proc = run_cairn(ws, "fetch", "--verify", "--allow-private")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{url}: cited version {version[:12]} is still served" in proc.stdout
    assert f"{url}: chunk {chunk_id(url, MOVED)} (cited with no version) is still served" in proc.stdout
    assert "sources/local.md" not in proc.stdout  # a local source is no web version
    assert "verified 2 cited version(s) or chunk(s) of 1 web source(s): 2 still served, 0 no longer" in proc.stdout
    # the whole page asked for: a 304 would prove nothing about the bytes
    assert "if-none-match" not in site.requests[-1][1]

    site.pages["/notes.html"] = Page(html(NEW, "Zeta. " + MOVED), headers={"ETag": '"v2"'})
    proc = run_cairn(ws, "fetch", "--verify", "--allow-private")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    new = hashlib.sha256(html(NEW, "Zeta. " + MOVED)).hexdigest()[:12]
    assert (f"{url}: cited version {version[:12]} is no longer served: the site serves {new} now"
            f" (cited by {chunk_id(url, OLD)})") in proc.stdout
    assert f"{url}: chunk {chunk_id(url, MOVED)} (cited with no version) is no longer served" in proc.stdout
    assert "0 still served, 2 no longer served" in proc.stdout
    # what it downloaded is kept as `cairn fetch` keeps it: the check now sees the new page
    after = verdicts(ws)
    assert [[c for c, _ in claim] for claim in after] == [["source-changed"], ["span-shifted"], []]
    assert NEW in after[0][0][1]
    shown = run_cairn(ws, "show", chunk_id(url, OLD))
    assert shown.returncode == 0 and shown.stdout.rstrip().endswith(OLD) and "(superseded" in shown.stdout

    # the site gone: every cited version is reported as not verified, exit 1
    site.pages.clear()
    proc = run_cairn(ws, "fetch", "--verify", "--allow-private")
    assert proc.returncode == 1 and "answered 404" in proc.stderr
    assert proc.stderr.count("not verified: the page was not fetched") == 2 and "2 not fetched" in proc.stdout


def test_verify_keeps_the_download_rules(site: Site, tmp_path: Path) -> None:
    url = site.url("/notes.html")
    site.pages["/notes.html"] = Page(html(OLD, MOVED))
    ws = make(tmp_path / "ws", url, moved=True)
    assert run_cairn(ws, "fetch", "--allow-private").returncode == 0
    asked = len(site.requests)
    proc = run_cairn(ws, "fetch", "--verify")  # no --allow-private: loopback refused before connecting
    assert proc.returncode == 1
    assert "127.0.0.1 is a loopback address: refused" in proc.stderr and "not verified" in proc.stderr
    assert len(site.requests) == asked
    # a URL that is not the workspace's: a usage error, nothing fetched
    proc = run_cairn(ws, "fetch", "--verify", "--allow-private", site.url("/other"))
    assert proc.returncode == 2 and len(site.requests) == asked


def test_verify_with_nothing_cited_fetches_nothing(site: Site, tmp_path: Path) -> None:
    url = site.url("/notes.html")
    site.pages["/notes.html"] = Page(html(OLD))
    ws = make(tmp_path / "ws", url, moved=True)
    (ws / "drafts" / "d.md").write_text(cite("The build takes ten minutes.", "sources/local.md", LOCAL_OLD),
                                        encoding="utf-8")
    proc = run_cairn(ws, "fetch", "--verify", "--allow-private", url)
    assert proc.returncode == 0, proc.stderr
    assert f"{url}: no citation names a version of it: nothing to verify" in proc.stdout
    assert site.requests == []


def test_local_and_web_citations_keep_their_verdicts_through_a_deleted_index_and_a_clone(
        site: Site, tmp_path: Path) -> None:
    url = site.url("/notes.html")
    site.pages["/notes.html"] = Page(html(OLD, MOVED), headers={"ETag": '"v1"'})
    ws = make(tmp_path / "ws", url, moved=True)
    assert run_cairn(ws, "fetch", "--allow-private").returncode == 0
    assert verdicts(ws) == [[], [], []]
    site.pages["/notes.html"] = Page(html(NEW, "Zeta. " + MOVED), headers={"ETag": '"v2"'})
    assert run_cairn(ws, "fetch", "--allow-private").returncode == 0
    (ws / "sources" / "local.md").write_text(LOCAL_NEW + "\n", encoding="utf-8")
    before = verdicts(ws)
    assert [[c for c, _ in claim] for claim in before] == [["source-changed"], ["span-shifted"], ["source-changed"]]
    assert NEW in before[0][0][1] and LOCAL_NEW in before[2][0][1]

    # the index deleted (the workspace is no git repository yet: only the snapshots hold the old versions)
    for p in (ws / ".cairn").glob("index.db*"):
        p.unlink()
    asked = len(site.requests)
    assert verdicts(ws) == before
    assert len(site.requests) == asked  # check never downloads

    # committed and cloned: what git ships of .cairn is the snapshots (its .gitignore says so)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    subprocess.run([*git, "add", "-A"], cwd=ws, check=True)
    subprocess.run([*git, "commit", "-qm", "draft"], cwd=ws, check=True)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ws), str(clone)], check=True)
    assert not (clone / ".cairn" / "index.db").exists() and not (clone / ".cairn" / "snapshots.local").exists()
    other = {"XDG_DATA_HOME": str(tmp_path / "other-machine")}
    assert verdicts(clone, other) == before
    assert len(site.requests) == asked

    # the old web text, shown in the clone as the repository's record
    proc = run_cairn(clone, "show", chunk_id(url, OLD), env=other)
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith(OLD), proc.stderr
    lines = fetched_lines(proc.stdout)
    assert lines and all(ln.endswith("recorded by the repository, not fetched here") for ln in lines)
    proc = run_cairn(clone, "show", chunk_id("sources/local.md", LOCAL_OLD), env=other)
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith(LOCAL_OLD)


def test_a_repository_s_record_becomes_this_machine_s_when_the_site_serves_its_bytes(
        site: Site, tmp_path: Path) -> None:
    url = site.url("/notes.html")
    site.pages["/notes.html"] = Page(html(OLD, MOVED))
    ws = make(tmp_path / "ws", url, moved=True)
    assert run_cairn(ws, "fetch", "--allow-private").returncode == 0
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    subprocess.run([*git, "add", "-A"], cwd=ws, check=True)
    subprocess.run([*git, "commit", "-qm", "draft"], cwd=ws, check=True)
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ws), str(clone)], check=True)
    other = {"XDG_DATA_HOME": str(tmp_path / "other-machine")}
    cid = chunk_id(url, OLD)

    # the site serves other bytes than the repository recorded: not confirmed, exit 1
    site.pages["/notes.html"] = Page(html(OLD + " Changed.", MOVED))
    proc = run_cairn(clone, "fetch", "--verify", "--allow-private", env=other)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"chunk {cid} (cited with no version) is no longer served" in proc.stdout
    assert f"chunk {chunk_id(url, MOVED)} (cited with no version) is still served" in proc.stdout
    shown = run_cairn(clone, "show", cid, env=other)
    assert all(ln.endswith("recorded by the repository, not fetched here") for ln in fetched_lines(shown.stdout))

    # the same bytes again: this machine has now seen them; the earlier record stays the repository's
    site.pages["/notes.html"] = Page(html(OLD, MOVED))
    proc = run_cairn(clone, "fetch", "--verify", "--allow-private", env=other)
    assert proc.returncode == 0 and "is still served" in proc.stdout, proc.stdout + proc.stderr
    shown = run_cairn(clone, "show", cid, env=other)
    lines = fetched_lines(shown.stdout)
    assert len(lines) == 2, shown.stdout
    assert lines[0].endswith("recorded by the repository, not fetched here")
    assert lines[1].endswith("fetched on this machine")



def test_a_pdf_page_is_parsed_as_a_local_pdf_with_its_fetch_record(site: Site, tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for line in ("The first page says little.", "The valve is rated for ten bar."):
        pdf.add_page()
        pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    body = bytes(pdf.output())
    url = site.url("/spec.pdf")
    site.pages["/spec.pdf"] = Page(body, content_type="application/pdf",
                                   headers={"Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT", "ETag": '"p1"'})
    ws = make(tmp_path / "ws", url, moved=True)
    (ws / "drafts" / "d.md").write_text(cite("The valve is rated for ten bar.", url,
                                             "The valve is rated for ten bar."), encoding="utf-8")
    proc = run_cairn(ws, "fetch", "--allow-private")
    assert proc.returncode == 0 and "200 application/pdf" in proc.stdout, proc.stdout + proc.stderr
    rows = [json.loads(r) for r in run_cairn(ws, "chunks", "--json", url).stdout.splitlines()]
    assert [(r["text"], r["page"]) for r in rows] == [("The first page says little.", 1),
                                                      ("The valve is rated for ten bar.", 2)]
    assert all(r["lineage"].startswith("pdf-") for r in rows)
    assert verdicts(ws) == [[]]
    shown = run_cairn(ws, "show", chunk_id(url, "The valve is rated for ten bar."))
    assert "page:     2" in shown.stdout and "last_modified Tue, 01 Dec 2026 10:00:00 GMT" in shown.stdout
    assert 'etag "p1"' in shown.stdout and "200 application/pdf from " + url in shown.stdout
