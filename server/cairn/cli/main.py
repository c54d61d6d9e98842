"""The `cairn` command line (SPEC section 6)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..core.terminal import safe
from . import answers as cli_answers
from . import notices
from .common import (
    EXIT_BASELINE,
    EXIT_FAIL,
    EXIT_OK,
    EXIT_USAGE,
    _err,
    _guard,
    _os_error,
    _Progress,
    _report_index,
    _source_name,
    _workspace,
)
from .fetch import fetch_cmd
from .process import tune_gc, version_text
from .show import show_cmd

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..engine.checks import CheckedDraft, ProgressFn
    from ..index.workspace import Workspace
    from ..report.base import DraftOut
    from ..verify.verdicts import JudgeVerdict
    from ..verify.verifier import Verifier


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """`cairn --version`: the version, and whether the support check's rules run compiled
    (cairn/native.py) or as pure Python, and why."""
    if not value or ctx.resilient_parsing:
        return
    click.echo(version_text())
    ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Show the version and how the support check's rules run, and exit.")
def main() -> None:
    """Cairn checks span-level citations in Markdown drafts."""
    tune_gc()


@main.command("init")
@_guard
def init_cmd() -> None:
    """Start a workspace here: a commented cairn.toml, sources/, drafts/ and a first draft."""
    from .init import InitRefused, init_workspace

    try:
        res = init_workspace(Path.cwd())
    except InitRefused as exc:
        _err(str(exc))
        sys.exit(EXIT_USAGE)
    for rel in res.written:
        click.echo(f"created {rel}")
    for rel, why in res.kept:
        click.echo(f"kept {rel} ({why})")
    if not res.written:
        click.echo("nothing was missing; nothing was changed")
    click.echo("next: put your documents in your source folders, then run `cairn check`")


def _other_answers(ws: Workspace, paths: tuple[Path, ...], verifier: Verifier) -> list[DraftOut]:
    """The report entries of the workspace's answers when the command line names some (their cached
    verdicts where their inputs are unchanged): `citation-reuse` looks at every claim of the workspace
    (SPEC section 4), whichever answers are checked. [] when none are named (all are checked)."""
    from ..engine import checks as engine

    if not paths:
        return []
    named, misses, special = ws.last_answers, ws.near_misses, ws.special_answers
    try:
        outs, _ = engine.check_reports(ws, None, verifier, _Progress("reading the other answers", "draft"))
    finally:
        ws.last_answers, ws.near_misses, ws.special_answers = named, misses, special
    checked = {ws.relpath(p) for p in named}
    return [d for d in outs if d.path not in checked]


# characters a reader of JSON Lines may take for a line break (Python's str.splitlines does): escaped
_LINE_BREAKS_ESCAPED = {ord(c): f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"}


@main.command("index")
@_guard
def index_cmd() -> None:
    """Parse, chunk and store every source (incremental)."""
    from ..engine import checks as engine

    ws = _workspace()
    res = engine.index(ws, _Progress("indexing", "file"))
    _report_index(res)
    from .snapshots_out import report_snapshots

    report_snapshots(ws)


_AS_HELP = "Check as this principal (else CAIRN_PRINCIPAL, the editor setting, cairn.toml's `principal`)."


@main.command("chunks")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
@click.option("--as", "principal", help=_AS_HELP)
@click.argument("sources", nargs=-1)
@_guard
def chunks_cmd(as_json: bool, principal: str | None, sources: tuple[str, ...]) -> None:
    """List the current chunks (of the named sources)."""
    from ..engine import checks as engine

    ws = _workspace(principal=principal)
    names = []
    for s in sources:
        ident = _source_name(ws, s)
        if not ws.permitted(ident):
            _err(f"{s}: not readable by principal {ws.settings.policy.principal!r}")
            sys.exit(EXIT_USAGE)
        names.append(ident)
    res = engine.index(ws, _Progress("indexing", "file"))
    _report_index(res, quiet=True)
    current = ws.store.current_versions()
    for given, ident in zip(sources, names):
        if ident in current:
            continue
        if ident in res.errors or ident in res.skipped:
            why = res.errors.get(ident) or res.skipped[ident]
            _err(f"{given}: not a source: skipped ({why})")
        elif (ws.root / ident).is_dir():
            _err(f"{given}: is a folder; name the source files in it, or give no name for every source")
        else:
            _err(f"{given}: no such source under {', '.join(ws.roots)} (`cairn chunks` with no name lists them all)")
        sys.exit(EXIT_USAGE)
    rows = ws.store.current_chunks(names or None)
    lineages = {s: v.lineage for s, v in ws.store.current_versions().items()}
    if not as_json and rows:
        click.echo("# [start, end) = where the chunk lies in its source's parsed text; a cite block's"
                   " start and end count from the chunk's own first character", err=True)
    for ch in rows:
        if not ws.allowed(ch.source):
            continue
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "chunk_id": ch.chunk_id,
                        "source": ch.source,
                        "version": ch.version,
                        "start": ch.start,
                        "end": ch.end,
                        "page": ch.page,
                        "text": ch.text,
                        "lineage": lineages.get(ch.source),
                    },
                    ensure_ascii=False,
                ).translate(_LINE_BREAKS_ESCAPED)
            )
        else:
            page = f" p.{ch.page}" if ch.page else ""
            preview = ch.text.replace("\n", " ")
            preview = preview if len(preview) <= 80 else preview[:77] + "..."
            click.echo(safe(f"{ch.chunk_id}  {ch.source}{page} source[{ch.start}, {ch.end})  {preview}"))


def _git_root(path: Path) -> Path | None:
    from ..core.gitsafe import run_git

    out = run_git(path, "rev-parse", "--show-toplevel", timeout=10)
    return Path(out.decode().strip()) if out is not None else None


@main.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "html"]), default="text",
              show_default=True)
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the report to this file instead of stdout.")
@click.option("--baseline", type=click.Path(path_type=Path, dir_okay=False), help="A JSON report of an earlier run.")
@click.option("--strict", is_flag=True, help="Also fail on any warning.")
@click.option("--fix", is_flag=True, help="Apply the safe fixes to the drafts.")
@click.option("--only-failures", "-q", "only_failures", is_flag=True,
              help="Text output: print only the failing claims and the summary.")
@click.option("--judge-url", help="Allow this judge URL (overrides the workspace's).")
@click.option("--as", "principal", help=_AS_HELP)
@_guard
def check_cmd(paths: tuple[Path, ...], fmt: str, output: Path | None, baseline: Path | None, strict: bool,
              fix: bool, judge_url: str | None, principal: str | None = None, only_failures: bool = False) -> None:
    """Index, then verify the answers."""
    from ..engine import checks as engine
    from ..engine import reuse
    from ..report.base import (
        BaselineError,
        build_report,
        compare_baseline,
        load_baseline,
        render_sarif,
        render_text,
        report_of,
    )

    ws = _workspace(judge_url, principal)
    tiers = ws.settings.config.authority.tiers
    for p in paths:
        if not p.exists():
            _err(f"{p}: no such file or folder")
            sys.exit(EXIT_USAGE)
        if ws.is_under_source_root(p):
            _err(f"{p}: is under a source root ({', '.join(ws.roots)}); sources are never drafts")
            sys.exit(EXIT_USAGE)
        if not p.is_dir() and not ws.answers([p]):
            if ws.special_answers:
                _err(f"{p}: not a regular file ({next(iter(ws.special_answers.values()))}): not read, not checked")
                sys.exit(EXIT_USAGE)
            _err(f"{p}: not a draft of this workspace: a draft is a regular file whose real path is inside"
                 f" {ws.root} (not a link leaving it, a device or a pipe)")
            sys.exit(EXIT_USAGE)
        if p.is_dir() and not ws.answers([p]):
            _err(f"{p}: holds no draft (a Markdown file, or a .json/.jsonl answer file, outside the source roots);"
                 " nothing to check there")
            sys.exit(EXIT_USAGE)
        if not p.is_dir() and notices.empty_answer_file(p):
            _err(f"{p}: holds no answer (an empty file or an empty list); nothing to check there")
            sys.exit(EXIT_USAGE)
    problem = notices.unusable_setup(ws, bool(paths))
    if problem:
        _err(problem)
        sys.exit(EXIT_USAGE)
    if output is not None:
        _check_output(ws, output)
    old = None
    if baseline is not None:
        try:
            old = load_baseline(baseline)
        except BaselineError as exc:
            _err(str(exc))
            sys.exit(EXIT_USAGE)
    from ..judge.providers import judge_results, make_judge

    judge = make_judge(ws)  # before indexing: a judge configuration error exits 2 at once
    if judge is not None and judge.problem:
        _err(f"warning: {judge.problem}; the lexical check decides")
    res = engine.index(ws, _Progress("indexing", "file"))
    _report_index(res, quiet=True)
    if ws.store.rebuilt_reason:
        _err(f"warning: the index was damaged ({ws.store.rebuilt_reason}) and has been rebuilt")
    from ..verify.verifier import Verifier

    threshold = ws.settings.config.threshold

    def run_check(progress: ProgressFn | None = None) -> list[CheckedDraft]:
        # two phases: the lexical verification of every draft (the judge hook
        # only looks cached verdicts up), then the judge asked about every
        # claim at once, in parallel
        checked = engine.check(ws, list(paths) or None, verifier, progress)
        if judge is not None:
            judge_results([cd.result for cd in checked], judge, threshold, _Progress("judging", "claim"))
        return checked

    verifier = Verifier(ws, judge=judge)
    # a plain check reuses the verdicts of drafts whose inputs are unchanged;
    # --fix and SARIF need the full results, a judge has its own cache
    if judge is None and not fix and fmt != "sarif":
        outs, _ = engine.check_reports(ws, list(paths) or None, verifier, _Progress("checking", "draft"))
        # one span backing unrelated claims, across the workspace's answers (also those not named)
        reuse.annotate_outs(outs, ws.root, _other_answers(ws, paths, verifier))
        report = report_of(outs, tiers)
        results = None
    else:
        checked = run_check(_Progress("checking", "draft"))
        if fix:
            changed = 0
            done: list[tuple[str, engine.PlannedFix]] = []
            for cd in checked:
                plans = engine.fix_plan(cd.result, ws.store)
                new = engine.fixed_text(cd, ws.store, plans)
                if new is None:
                    continue
                try:
                    written = engine.write_atomic(cd.path, new, expected=cd.text)
                except OSError as exc:
                    # write_atomic renames a complete file over the draft or leaves it alone
                    if changed:
                        _err(f"fixed {len(done)} citation(s) in {changed} draft(s)")
                    _err(f"{cd.result.path}: --fix could not write it ({_os_error(exc)}); that draft was not changed")
                    sys.exit(EXIT_USAGE)
                if written:
                    changed += 1
                    done += [(cd.result.path, plan) for plan in plans]
                else:
                    _err(f"warning: {cd.result.path} changed while it was checked; not fixed")
            if changed:
                verifier.invalidate()
                checked = run_check()
                for line in notices.fixes_done(done, {cd.result.path: cd.result for cd in checked}):
                    _err(line)
                _err(f"fixed {len(done)} citation(s) in {changed} draft(s)")
        results = [cd.result for cd in checked]
        # one span backing unrelated claims, across the workspace's answers (also those not named)
        reuse.annotate_results(results, _other_answers(ws, paths, verifier))
        report = build_report(results, tiers)
        if judge is not None:
            from ..report.base import JudgeMetrics

            fallbacks = sum(cr.judge == "fallback" for r in results for cr in r.claims)
            report.metrics.judge = JudgeMetrics(**judge.usage(), fallbacks=fallbacks)
    for line in notices.special_answers(ws) + notices.near_misses(ws):
        _err(line)
    if fmt == "json":
        text = report.model_dump_json(indent=2)
    elif fmt == "sarif":
        base = _git_root(ws.root) or ws.root
        text = render_sarif(report, results or [], base=base, root=ws.root)
    elif fmt == "html":
        from ..report.html import render_html, store_lookup

        text = render_html(report, lookup=store_lookup(ws, report), threshold=threshold)
    else:
        text = render_text(report, color=output is None and sys.stdout.isatty(), only_failures=only_failures,
                           strict=strict)
    _emit(text, output)
    failed = any(not c.supported for d in report.drafts for c in d.claims) or any(not d.faithful for d in report.drafts)
    warned = any(x.severity == "warning" for d in report.drafts for x in d.diagnostics) or any(
        x.severity == "warning" for d in report.drafts for c in d.claims for x in c.diagnostics
    )
    if strict and warned:
        failed = True
    if old is not None:
        reasons, warnings = compare_baseline(old, report)
        for w in warnings:
            _err(f"warning: {w}")
        for r in reasons:
            _err(f"regression against the baseline: {r}")
        if reasons:
            sys.exit(EXIT_BASELINE)
    sys.exit(EXIT_FAIL if failed else EXIT_OK)


def _check_output(ws: Workspace, output: Path) -> None:
    """`--output` never overwrites a source or an answer, and its folder must exist
    (exit 2, before any work is done)."""
    if not output.resolve().parent.is_dir():
        _err(f"{output}: cannot write it: the folder {output.resolve().parent} does not exist")
        sys.exit(EXIT_USAGE)
    if ws.is_under_source_root(output):
        _err(f"{output}: is under a source root ({', '.join(ws.roots)}); --output never writes a source")
        sys.exit(EXIT_USAGE)
    if output.exists() and output.resolve() in {p.resolve() for p in ws.answers()}:
        _err(f"{output}: is an answer of this workspace; --output never overwrites a draft")
        sys.exit(EXIT_USAGE)


def _emit(text: str, output: Path | None) -> None:
    """Print the report, or write it (UTF-8, through a temporary file and a rename)."""
    if output is None:
        click.echo(text)
        return
    from ..engine.checks import replace_file

    target = output.resolve()
    if not target.parent.is_dir():
        _err(f"{output}: cannot write it: the folder {target.parent} does not exist")
        sys.exit(EXIT_USAGE)
    replace_file(target, (text + "\n").encode("utf-8"))
    click.echo(f"cairn: wrote {safe(str(output))}", err=True)


@main.command("lab")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the page to this file instead of opening it.")
@click.option("-p", "p", type=click.FloatRange(0, 1), default=0.8, show_default=True,
              help="The probability that one claim checks out.")
@click.option("-n", "n", type=click.IntRange(1, 200), default=10, show_default=True, help="Claims per answer.")
@_guard
def lab_cmd(output: Path | None, p: float, n: int) -> None:
    """The faithfulness lab: why every claim verified falls faster than the average."""
    from ..report.html import render_lab

    page = render_lab(p, n)
    if output is not None:
        _emit(page, output)
        return
    import tempfile
    import webbrowser

    fd, name = tempfile.mkstemp(prefix="cairn-lab-", suffix=".html")
    with open(fd, "w", encoding="utf-8") as f:
        f.write(page)
    opened = False
    try:
        opened = webbrowser.open(Path(name).as_uri())
    except webbrowser.Error:
        pass
    click.echo(f"cairn: {'opened' if opened else 'no browser found; open'} {name}", err=True)


@main.command("calibrate")
@click.argument("data", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--judge-url", help="Allow this judge URL (overrides the workspace's).")
@click.option("--limit", type=click.IntRange(min=1), metavar="N", help="Only the first N rows of the data.")
@click.option("--fit", is_flag=True, help="Fit the threshold on these labels, held out by document, and say "
                                          "whether it beats the configured one.")
@_guard
def calibrate_cmd(data: tuple[Path, ...], fmt: str, judge_url: str | None, limit: int | None, fit: bool) -> None:
    """Agreement of the support check, and of the configured judge beside it, with human labels."""
    from ..core.config import find_root, load_settings
    from ..verify import calibrate as cal

    for path in data:
        if not path.is_file():
            _err(f"{path}: no such file")
            sys.exit(EXIT_USAGE)
    root = find_root(Path.cwd())
    settings = load_settings(root, judge_url_override=judge_url)
    rows = cal.Rows()
    try:
        for path in data:
            got = cal.load_rows(path)
            rows.extend(got)
            for why, n in got.skipped.items():
                rows.skipped[why] = rows.skipped.get(why, 0) + n
    except cal.DataError as exc:
        _err(str(exc))
        sys.exit(EXIT_USAGE)
    if limit is not None:
        rows = cal.Rows(rows[:limit], rows.skipped)
    judge = judge_name = run = None
    if settings.config.judge.provider != "stub":
        from ..judge.measure import ask_rows
        from ..judge.providers import make_calibration_judge

        provider = make_calibration_judge(root, settings)
        if provider is not None:
            if provider.problem:
                _err(f"warning: {provider.problem}; the lexical check decides")
            # every row asked at once (in parallel, or in batches); calibrate then reads the verdicts
            verdicts, run = ask_rows(provider, rows, progress=_Progress("judging", "row"))
            if run.fallbacks:
                _err(f"warning: the judge failed on {run.fallbacks} of {run.asked} rows; the lexical check decided them")

            def judge(claim: str, quotes: Sequence[str]) -> JudgeVerdict | None:
                return verdicts[(claim, tuple(quotes))]

            judge_name = provider.name
    report = cal.calibrate(rows, mode=settings.config.support.mode, threshold=settings.config.threshold,
                           judge=judge, judge_name=judge_name, data=", ".join(str(p) for p in data))
    report.limit, report.judge_run = limit, run
    if fit:
        # the lexical check's threshold (with the meaning rules), whatever judge is configured
        report.fit = cal.fit_threshold(rows, mode=settings.config.support.mode, threshold=settings.config.threshold)
    if fmt == "json":
        click.echo(report.model_dump_json(indent=2))
    else:
        click.echo(safe(cal.render_text(report), newlines=True))


@main.command("gc")
@click.option("--purge", "purge", multiple=True, metavar="SOURCE",
              help="Remove every stored version of this source, cited or not (repeatable).")
@click.option("--lift-purge", "lift", multiple=True, metavar="SOURCE",
              help="Let the git history bring a purged source's versions back (repeatable).")
@click.argument("more", nargs=-1, metavar="[SOURCE...]")
@_guard
def gc_cmd(purge: tuple[str, ...], lift: tuple[str, ...], more: tuple[str, ...]) -> None:
    """Drop stored versions that no draft cites; `--purge SOURCE...`: every version of those sources."""
    from ..engine import retention

    ws = _workspace()
    if more and not (purge or lift):
        _err("source names are taken only with --purge or --lift-purge")
        sys.exit(EXIT_USAGE)
    names = list(purge or lift) + list(more)
    if purge or lift:
        try:
            idents = retention.source_names(ws, names)
        except ValueError as exc:
            _err(str(exc))
            sys.exit(EXIT_USAGE)
        if lift:
            n = ws.store.lift_purge(idents)
            click.echo(f"lifted {n} purge record(s): history may bring those versions back", err=True)
            return
        from ..index.rebuild import forget_sources

        n = ws.store.purge(idents)
        snaps = forget_sources(ws, idents)
        click.echo(f"purged {n} stored version(s) of {len(idents)} source(s), and {snaps} snapshot(s)"
                   f" from {safe(ws.snapshots.where)}", err=True)
        for ident in idents:
            if (ws.root / ident).exists():
                _err(f"warning: {ident} is still on disk: the next run indexes it again (delete it first)")
        return
    from ..index.rebuild import held, sweep

    before = held(ws)
    dropped, expired = retention.collect(ws)
    gone = sweep(ws, before)
    click.echo(f"dropped {dropped} stored version(s) no draft cites", err=True)
    if expired:
        click.echo(f"dropped {expired} superseded version(s) older than the retention period", err=True)
    if gone:
        click.echo(f"removed {gone} snapshot(s) of those versions from {safe(ws.snapshots.where)}", err=True)


@main.group("store")
def store_group() -> None:
    """The index itself: where it is and its schema."""


@store_group.command("migrate")
@_guard
def store_migrate_cmd() -> None:
    """Bring the index's schema up to date (also done on first use)."""
    from ..core.config import find_root, load_settings
    from ..store import open_store

    root = find_root(Path.cwd())
    settings = load_settings(root)
    store = open_store(root, settings)  # opening applies the migrations a store lacks
    try:
        click.echo(f"the index {safe(store.where)} is at schema {store.schema()}", err=True)
    finally:
        store.close()


@main.command("serve")
def serve_cmd() -> None:
    """The language server on stdin/stdout."""
    from .process import pause_gc_for_server_start

    pause_gc_for_server_start()
    from ..lsp.server import serve

    serve()


main.add_command(cli_answers.cite_cmd)
main.add_command(cli_answers.ask_cmd)
main.add_command(show_cmd)
main.add_command(fetch_cmd)
