"""`cairn fetch [URL...]` (SPEC sections 2 and 7): download the web sources, keep each new
response as a version with its fetch record, and say what changed. The only command that
downloads; `--allow-private` (the user's, never the workspace's) lets a URL reach a
loopback, link-local or private address."""

from __future__ import annotations

import sys

import click

from ..core.terminal import safe
from .common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, _err, _guard, _workspace


@click.command("fetch")
@click.argument("urls", nargs=-1, metavar="[URL...]")
@click.option("--allow-private", is_flag=True,
              help="Let these downloads reach loopback, link-local and private addresses (refused otherwise).")
@_guard
def fetch_cmd(urls: tuple[str, ...], allow_private: bool) -> None:
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
    failed = 0
    for url in wanted:
        got = fetch_one(ws, url, allow_private=allow_private, lineage_for=lineage_for)
        for status, to in got.redirects:
            click.echo(safe(f"{url}: redirected ({status}) to {to}"))
        if got.outcome == "failed":
            failed += 1
            _err(f"{url}: not fetched: {got.message}")
            continue
        resp = got.response
        assert resp is not None and got.version is not None
        what = "new version" if got.outcome == "new" else "unchanged, version"
        seen = "304 not modified" if resp.status == 304 else f"{resp.status} {resp.content_type}, {len(resp.body)} bytes"
        click.echo(safe(f"{url}: {what} {got.version[:12]} ({seen})"))
    sys.exit(EXIT_FAIL if failed else EXIT_OK)
