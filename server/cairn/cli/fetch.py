"""`cairn fetch [URL...] [--verify]` (SPEC sections 2 and 7): download the web sources, keep each
new response as a version with its fetch record, and say what changed. The only command that
downloads; `--allow-private` (the user's, never the workspace's) lets a URL reach a
loopback, link-local or private address. `--verify`: download every web source a citation
names a version of, and report each cited version the site no longer serves (exit 1)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ..core.terminal import safe
from .common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, _err, _guard, _report_index, _workspace

if TYPE_CHECKING:
    from ..index.fetch import Fetched
    from ..index.workspace import Workspace


def cited_web_versions(ws: Workspace) -> dict[str, dict[str | None, list[str]]]:
    """URL -> the versions of it the workspace's citations name -> the chunk ids citing each.
    Citations that name no version are under None: what they name is the chunk itself."""
    from .show import all_citations

    web = set(ws.web_sources)
    out: dict[str, dict[str | None, list[str]]] = {}
    for c in all_citations(ws):
        if not c.chunk_id:
            continue
        cid = c.chunk_id.lower()
        found = [ch for ch in ws.store.lookup(cid) if ch.source in web]
        if c.version:
            found = [ch for ch in found if ch.version.startswith(c.version.lower())]
        for ch in found[:1]:
            ids = out.setdefault(ch.source, {}).setdefault(ch.version if c.version else None, [])
            if cid not in ids:
                ids.append(cid)
    return out


def _said(url: str, got: Fetched) -> None:
    for status, to in got.redirects:
        click.echo(safe(f"{url}: redirected ({status}) to {to}"))
    if got.outcome == "failed":
        _err(f"{url}: not fetched: {got.message}")
        return
    resp = got.response
    assert resp is not None and got.version is not None
    what = "new version" if got.outcome == "new" else "unchanged, version"
    seen = "304 not modified" if resp.status == 304 else f"{resp.status} {resp.content_type}, {len(resp.body)} bytes"
    click.echo(safe(f"{url}: {what} {got.version[:12]} ({seen})"))


@click.command("fetch")
@click.argument("urls", nargs=-1, metavar="[URL...]")
@click.option("--allow-private", is_flag=True,
              help="Let these downloads reach loopback, link-local and private addresses (refused otherwise).")
@click.option("--verify", is_flag=True,
              help="Download every web source a citation names a version of and report each cited version the"
                   " site no longer serves (exit 1).")
@_guard
def fetch_cmd(urls: tuple[str, ...], allow_private: bool, verify: bool) -> None:
    """Download the web sources (all, or the named ones) and store new versions."""
    from ..index.fetch import fetch_one
    from ..index.workspace import lineage_for
    from ..sources import web

    ws = _workspace()
    known = ws.web_sources
    for entry, why in sorted(ws.web_problems.items()):
        _err(f"warning: {entry}: not a web source: {why}")
    wanted = list(dict.fromkeys(urls)) if urls else known
    stray = [u for u in wanted if u not in known]
    if stray:
        for u in stray:
            problem = web.url_problem(u)
            _err(f"{u}: " + (f"not fetched: {problem}" if problem else "not a web source of this workspace: list it in"
                                                               " `sources` in cairn.toml or in sources/web.txt"))
        sys.exit(EXIT_USAGE)
    if not wanted:
        _err("no web sources: list http(s) URLs in `sources` in cairn.toml or in sources/web.txt")
        sys.exit(EXIT_USAGE)
    if verify:
        _verify(ws, wanted, bool(urls), allow_private)
        return
    failed = 0
    for url in wanted:
        got = fetch_one(ws, url, allow_private=allow_private, lineage_for=lineage_for)
        _said(url, got)
        failed += got.outcome == "failed"
    sys.exit(EXIT_FAIL if failed else EXIT_OK)


def _verify(ws: Workspace, wanted: list[str], named: bool, allow_private: bool) -> None:
    """`fetch --verify`: every cited version of these web sources, against what the site serves now.
    The response is kept as `cairn fetch` keeps it (a new version when its bytes differ); a
    version a repository recorded becomes this machine's own record once the site serves its bytes."""
    from ..engine import checks as engine
    from ..index.fetch import fetch_one
    from ..index.workspace import lineage_for

    _report_index(engine.index(ws), quiet=True)  # the snapshots' versions in the index, to resolve citations
    cited = cited_web_versions(ws)
    if named:
        for url in wanted:
            if url not in cited:
                click.echo(safe(f"{url}: no citation names a version of it: nothing to verify"))
    targets = [u for u in wanted if u in cited]
    if not targets:
        click.echo("no citation names a version of a web source: nothing to verify")
        sys.exit(EXIT_OK)
    gone = unverified = served = 0
    for url in targets:
        got = fetch_one(ws, url, allow_private=allow_private, lineage_for=lineage_for, conditional=False)
        _said(url, got)
        now = (got.version or "?")[:12]
        for version, ids in cited[url].items():
            # a version is still served when the site serves its very bytes; a chunk cited with no
            # version, when the page the site serves holds it
            units = [(f"cited version {version[:12]}", ids, got.version == version)] if version else [
                (f"chunk {cid} (cited with no version)", [cid],
                 any(ch.version == got.version for ch in ws.store.lookup(cid))) for cid in ids]
            for what, by_ids, ok in units:
                by = ", ".join(by_ids[:3]) + (f" and {len(by_ids) - 3} more" if len(by_ids) > 3 else "")
                if got.outcome == "failed":
                    unverified += 1
                    _err(f"{url}: {what} not verified: the page was not fetched" + (f" (cited by {by})" if version
                                                                                   else ""))
                elif ok:
                    served += 1
                    click.echo(safe(f"{url}: {what} is still served"))
                else:
                    gone += 1
                    click.echo(safe(f"{url}: {what} is no longer served: the site serves {now} now"
                                    + (f" (cited by {by})" if version else "")))
    total = served + gone + unverified
    click.echo(f"verified {total} cited version(s) or chunk(s) of {len(targets)} web source(s): {served} still"
               f" served, {gone} no longer served" + (f", {unverified} not fetched" if unverified else ""))
    sys.exit(EXIT_FAIL if gone or unverified else EXIT_OK)
