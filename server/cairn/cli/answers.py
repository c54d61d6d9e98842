"""The `cairn cite` and `cairn ask` commands (SPEC section 6): a passage to a
ready cite block, and a question to a verified answer. They sit on the group
of cli.py, which imports this module."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..core.terminal import safe
from .common import (
    EXIT_FAIL,
    EXIT_OK,
    EXIT_USAGE,
    _err,
    _guard,
    _Progress,
    _report_index,
    _source_name,
    _workspace,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..core.model import Chunk
    from ..index.workspace import Workspace


def _source_names(ws: Workspace, sources: tuple[str, ...]) -> list[str] | None:
    names = []
    for s in sources:
        ident = _source_name(ws, s)
        if not ws.allowed(ident):
            _err(f"{s}: not a source: it is outside the source roots ({', '.join(ws.roots)})")
            sys.exit(EXIT_USAGE)
        names.append(ident)
    return names or None


def _where(place: Any) -> str:  # an evidence.Place
    page = f" p.{place.chunk.page}" if place.chunk.page else ""
    return f"{place.chunk.source}:{place.line}{page}"


@click.command("cite")
@click.argument("quote", required=False)
@click.option("--for", "claim", metavar="CLAIM",
              help="Find evidence for this claim instead: the passages that best support it.")
@click.option("-k", "k", type=click.IntRange(1, 50), default=3, show_default=True,
              help="With --for: how many passages to show.")
@click.option("--source", "sources", multiple=True,
              help="Look only in this source (may be repeated; with --for also a glob such as 'sources/*.md').")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout, for scripts.")
@_guard
def cite_cmd(quote: str | None, claim: str | None, k: int, sources: tuple[str, ...], as_json: bool) -> None:
    """Print a ready `cite` block for a passage of the sources, or with
    --for CLAIM the passages that best support a claim.

    White space in QUOTE is loose: a line break or indentation in the source
    matches a space. Exit 1 when the passage is in several places (each is
    listed; narrow it with --source or a longer quote) or when it is nowhere
    (the closest passages are listed). With --for: exit 0 when a passage
    about the claim supports it (as `cairn check` verifies it), 1 when none
    does (the closest are still shown; "nothing in the sources answers this"
    when none is about it)."""
    from ..answers.cite import closest, find_places
    from ..drafts.fields import block_text
    from ..engine import checks as engine

    if (quote is None) == (claim is None):
        _err("give either a QUOTE to cite or --for CLAIM to find evidence for, not both" if quote is not None
             else "give a QUOTE to cite, or --for CLAIM to find evidence for a claim")
        sys.exit(EXIT_USAGE)
    ws = _workspace()
    if claim is not None:
        _evidence_for(ws, claim, k, sources, as_json)
        return
    assert quote is not None
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
        sys.exit(EXIT_FAIL)  # an answer of the sources, not a usage error (SPEC section 6)
    from ..verify.across import runs_across

    over = runs_across(ws.store, quote, [s for s in (names or ws.store.current_versions()) if ws.allowed(s)])
    if over is not None:
        if as_json:
            click.echo(json.dumps({"found": 0, "across": {"source": over.source, "start": over.start, "end": over.end,
                                                         "chunks": [c.chunk_id for c in over.chunks]}},
                                  ensure_ascii=False))
        else:
            _err(over.message())
        sys.exit(EXIT_FAIL)
    near = closest(ws, quote, names)
    if as_json:
        click.echo(json.dumps({"found": 0, "closest": [
            {"citation": n.place.citation(), "similarity": round(n.score / 100, 4), "coverage": round(n.coverage, 4),
             "page": n.place.chunk.page, "line": n.place.line, "sentence": n.place.sentence} for n in near]}, ensure_ascii=False))
    else:
        _err("the quote is not in the sources" + ("; the closest passages:" if near else
                                                  "; no passage holds much of it"))
        for n in near:
            click.echo(safe(f"{_where(n.place)} ({n.score:.0f}% similar): {' '.join(n.place.quote.split())}"),
                       err=True)
    sys.exit(EXIT_FAIL)


@click.command("ask")
@click.argument("question")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@click.option("-k", "k", type=click.IntRange(1, 100), help="Passages to retrieve (default: [ask] k, 8).")
@click.option("--ask-url", help="Allow this model URL (overrides the workspace's).")
@_guard
def ask_cmd(question: str, fmt: str, k: int | None, ask_url: str | None) -> None:
    """Answer QUESTION from the sources, with span citations, verified.

    The k best passages about the question are retrieved; the model of [ask]
    answers from them (without one, the sentences that answer the question's
    terms are quoted, labelled as an extractive answer). Exit codes as `cairn
    check`; when no passage is about the question, "nothing in the sources
    answers this" and exit 1."""
    from ..answers.ask import ask, label, make_model, to_json, to_markdown
    from ..core.config import find_root, load_settings
    from ..engine import checks as engine
    from ..index.workspace import Workspace
    from ..judge.providers import make_judge
    from ..report.base import build_report, render_text

    if not question.split():
        _err("the question is empty")
        sys.exit(EXIT_USAGE)
    root = find_root(Path.cwd())
    settings = load_settings(root, ask_url_override=ask_url)
    ws = Workspace(root, settings)
    missing = [r for r in ws.roots if not (ws.root / r).is_dir()]
    if missing:
        _err(f"source root {', '.join(repr(r) for r in missing)} does not exist in {ws.root}: nothing to ask")
        sys.exit(EXIT_USAGE)
    model = make_model(ws)  # a configuration error exits 2 before anything is read
    if model is not None and model.problem:
        _err(model.problem)
        sys.exit(EXIT_USAGE)
    judge = make_judge(ws)
    res = engine.index(ws, _Progress("indexing", "file"))
    _report_index(res, quiet=True)
    asked = ask(ws, question, k=k, model=model, judge=judge)
    if asked.problem:
        _err(f"warning: {asked.problem}")
    if not asked.passages:
        _err("warning: no passage of the sources matches the question")
    report = build_report([asked.result])
    if not asked.answered:
        _nothing_answers(asked, fmt, report)
    if fmt == "json":
        click.echo(json.dumps(to_json(asked, report), indent=2, ensure_ascii=False))
    elif fmt == "markdown":
        click.echo(to_markdown(asked, report.drafts[0]), nl=False)
    else:
        click.echo(safe(f"{label(asked)}; {len(asked.passages)} passage(s) retrieved"))
        for i, where in enumerate(asked.where, 1):
            if where:
                click.echo(safe(f"  claim {i}: {where}"))
        click.echo(render_text(report, color=sys.stdout.isatty()))
    d = report.drafts[0]
    sys.exit(EXIT_OK if d.claims and d.faithful and all(c.supported for c in d.claims) else EXIT_FAIL)


def _nothing_answers(asked: Any, fmt: str, report: Any) -> None:
    """No passage is about the question: say so, list the closest as not answering, exit 1."""
    from ..answers.ask import NOTHING, to_json

    if fmt == "json":
        click.echo(json.dumps(to_json(asked, report), indent=2, ensure_ascii=False))
        sys.exit(EXIT_FAIL)
    if fmt == "markdown":
        from ..answers.ask import to_markdown

        click.echo(to_markdown(asked, report.drafts[0]), nl=False)
    else:
        click.echo(NOTHING + ("; the closest passages, which do not answer it:" if asked.passages else ""))
        for ch in asked.passages[:3]:
            page = f" p.{ch.page}" if ch.page else ""
            text = " ".join(ch.text.split())
            click.echo(safe(f"  {ch.source}{page} (does not answer it): {text[:160]}"
                            + ("\u2026" if len(text) > 160 else "")))
    sys.exit(EXIT_FAIL)


def _evidence_for(ws: Workspace, claim: str, k: int, sources: tuple[str, ...], as_json: bool) -> None:
    """`cairn cite --for CLAIM`: the passages of the sources that are about the claim and
    support it; "nothing in the sources answers this" (exit 1) when none is about it."""
    from fnmatch import fnmatchcase

    from ..answers.cite import _place
    from ..answers.evidence import NOTHING, evidence_for
    from ..drafts.binding import claim_field
    from ..drafts.fields import block_text
    from ..engine import checks as engine

    if not claim.split():
        _err("the claim is empty: give the sentence to find evidence for")
        sys.exit(EXIT_USAGE)
    patterns = [s.replace("\\", "/") for s in sources]
    res = engine.index(ws, _Progress("indexing", "file"))
    _report_index(res, quiet=True)
    cfg = ws.settings.config

    def named(source: str) -> bool:
        return not patterns or any(fnmatchcase(source, p) or source == p for p in patterns)

    # ranked among the readable (and named) sources only: the others never take a candidate's place
    found = evidence_for(ws, claim, k=k, named=named if patterns else None, exclude=_copies(ws))
    texts: dict[str, str | None] = {}
    shown = []
    for p in found.passages:
        place = _place(ws, p.chunk, p.start, p.end, texts)
        cit = {**place.citation(), "claim": claim_field(claim)}  # the block stays bound to its claim
        shown.append((p, place, cit))
    supported, answered = found.supported, found.answered
    code = EXIT_OK if supported else EXIT_FAIL
    if as_json:
        click.echo(json.dumps({
            "claim": claim, "supported": supported, "answered": answered,
            "message": None if answered else NOTHING, "threshold": cfg.threshold, "passages": [
                {"supports": p.supports, "answers": p.relevant, "support_score": round(p.score, 4),
                 "relevance": round(p.relevance, 4), "why": p.why or None,
                 "source": p.chunk.source, "page": p.chunk.page, "line": place.line, "citation": cit,
                 "block": block_text([cit])} for p, place, cit in shown]}, ensure_ascii=False))
        sys.exit(code)
    if not answered:
        _err(NOTHING + ("; the closest passages, which do not answer it:" if shown else ""))
    elif not supported:
        _err("nothing in the sources supports this" + ("; the closest passages:" if shown else ""))
    for p, place, cit in shown:
        if p.supports:
            verdict = f"supports it, support {p.score:.2f}"
        elif not p.relevant:
            verdict = f"does not answer it: {p.why}"
        else:
            verdict = f"does not support it: {p.why}"
        click.echo(safe(f"# {_where(place)} \u00b7 {verdict}"))
        click.echo(block_text([cit]), nl=False)
    sys.exit(code)


def _copies(ws: Workspace) -> Callable[[Chunk], bool] | None:
    """The chunks never offered as evidence: those of sources that hold cite blocks (a
    draft copied under a source root), which `cairn index` warns about."""
    from ..index.drafted import drafted_sources

    drafted = drafted_sources(ws)
    if not drafted:
        return None
    return lambda chunk: chunk.source in drafted
