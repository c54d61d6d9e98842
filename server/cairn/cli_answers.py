"""The `cairn cite` and `cairn ask` commands (SPEC section 6): a passage to a
ready cite block, and a question to a verified answer. They sit on the group
of cli.py, which imports this module."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .cli import EXIT_FAIL, EXIT_OK, EXIT_USAGE, _err, _guard, _Progress, _report_index, _workspace, main
from .terminal import safe


def _source_names(ws, sources: tuple[str, ...]) -> list[str] | None:
    names = []
    for s in sources:
        ident = ws.identity(Path(s)) if Path(s).exists() else s.replace("\\", "/")
        if ident is None or not ws.allowed(ident):
            _err(f"{s}: not a source: it is outside the source roots ({', '.join(ws.roots)})")
            sys.exit(EXIT_USAGE)
        names.append(ident)
    return names or None


def _where(place) -> str:
    page = f" p.{place.chunk.page}" if place.chunk.page else ""
    return f"{place.chunk.source}:{place.line}{page}"


@main.command("cite")
@click.argument("quote")
@click.option("--source", "sources", multiple=True, help="Look only in this source (may be repeated).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout, for scripts.")
@_guard
def cite_cmd(quote: str, sources: tuple[str, ...], as_json: bool) -> None:
    """Print a ready `cite` block for a passage of the sources.

    White space in QUOTE is loose: a line break or indentation in the source
    matches a space. Exit 2 when the passage is in several places (each is
    listed; narrow it with --source or a longer quote), 1 when it is nowhere
    (the closest passages are listed)."""
    from . import engine
    from .cite import closest, find_places
    from .lsp.commands import block_text

    ws = _workspace()
    if not quote.split():
        _err("the quote is empty: give the passage to cite")
        sys.exit(EXIT_USAGE)
    names = _source_names(ws, sources)
    res = engine.index(ws, _Progress("indexing", "file"))
    _report_index(res, quiet=True)
    places, seen = [], set()
    for p in find_places(ws, quote, names):
        key = tuple(p.citation().items())
        if key not in seen:  # identical paragraphs of one source share their chunk id: one citation
            seen.add(key)
            places.append(p)
    if len(places) == 1:
        (p,) = places
        cit = p.citation()
        if as_json:
            click.echo(json.dumps({"found": 1, "citation": cit, "page": p.chunk.page, "line": p.line,
                                   "block": block_text([cit])}, ensure_ascii=False))
        else:
            click.echo(block_text([cit]), nl=False)
            _err(f"found in {_where(p)}")
        sys.exit(EXIT_OK)
    if places:
        if as_json:
            click.echo(json.dumps({"found": len(places), "places": [
                {"citation": p.citation(), "page": p.chunk.page, "line": p.line, "sentence": p.sentence}
                for p in places]}, ensure_ascii=False))
        else:
            _err(f"the quote is in {len(places)} places; narrow it with --source or a longer quote:")
            for p in places:
                click.echo(safe(f"{_where(p)}: {p.sentence}"), err=True)
        sys.exit(EXIT_USAGE)
    near = closest(ws, quote, names)
    if as_json:
        click.echo(json.dumps({"found": 0, "closest": [
            {"citation": n.place.citation(), "similarity": round(n.score / 100, 4), "page": n.place.chunk.page,
             "line": n.place.line, "sentence": n.place.sentence} for n in near]}, ensure_ascii=False))
    else:
        _err("the quote is not in the sources" + ("; the closest passages:" if near else ""))
        for n in near:
            click.echo(safe(f"{_where(n.place)} ({n.score:.0f}% similar): {' '.join(n.place.quote.split())}"),
                       err=True)
    sys.exit(EXIT_FAIL)
