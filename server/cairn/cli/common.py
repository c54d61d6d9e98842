"""What every `cairn` command shares: the exit codes, one-line errors on stderr (never a
traceback), the progress bar, opening the workspace of the current folder and saying what
indexing did. cli.py and cli_answers.py build their commands on these."""

from __future__ import annotations

import logging
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..core.terminal import safe

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..index.workspace import IndexResult, Workspace

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_BASELINE = 0, 1, 2, 3  # 3: a --baseline regression (wins over 1)


def _err(msg: str) -> None:
    # file names, config values and exception texts may hold control characters
    click.echo(f"cairn: {safe(msg)}", err=True)


class _LogLine(logging.Formatter):
    """A log record as one `cairn: warning: ...` line: no traceback, no control character."""

    def format(self, record: logging.LogRecord) -> str:
        msg = record.getMessage()
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            msg += f" ({type(exc).__name__}: {exc})"
        level = "warning" if record.levelno < logging.ERROR else "error"
        return f"cairn: {level}: {safe(msg)}"


def _log_to_stderr() -> None:
    """The engine's warnings on stderr, as one line each (Python's fallback handler
    would print the raw message, and a traceback with it)."""
    logger = logging.getLogger("cairn")
    if any(isinstance(h.formatter, _LogLine) for h in logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_LogLine())
    handler.setLevel(logging.WARNING)
    logger.addHandler(handler)
    logger.propagate = False


class _Progress:
    """A tqdm bar on a terminal; nothing when stderr is piped."""

    def __init__(self, desc: str, unit: str):
        self.bar: Any = None  # a tqdm bar, made on the first report
        self.desc, self.unit = desc, unit

    def __call__(self, done: int, total: int, current: str) -> None:
        if not sys.stderr.isatty():
            return
        if self.bar is None:
            import shutil

            from tqdm import tqdm

            # a terminal that reports no size (some ptys) would get no bar at all
            size = shutil.get_terminal_size((80, 24))
            self.bar = tqdm(total=total, desc=self.desc, unit=self.unit, file=sys.stderr, leave=False,
                            ncols=size.columns or 80, nrows=size.lines or 24)
        self.bar.n = done
        self.bar.set_postfix_str(safe(current)[-40:], refresh=False)
        self.bar.refresh()
        if done >= total:
            self.bar.close()


def _workspace(judge_url: str | None = None, principal: str | None = None) -> Workspace:
    from ..core.config import find_root, load_settings
    from ..index.workspace import Workspace

    root = find_root(Path.cwd())
    settings = load_settings(root, judge_url_override=judge_url, principal_override=principal)
    for w in settings.warnings:
        _err(f"warning: {w}")
    from .notices import missing_roots

    problem = missing_roots(root, settings.source_roots())  # before the store is made: no .cairn/ left behind
    if problem:
        _err(problem)
        sys.exit(EXIT_USAGE)
    return Workspace(root, settings)


def _report_index(res: IndexResult, quiet: bool = False) -> None:
    """What indexing did, on stderr. `cairn index` names every file it skipped and
    why; the other commands name the files that failed and count the others."""
    for src, msg in sorted(res.errors.items()):
        _err(f"warning: {src}: skipped: {msg}")
    # hidden files and folders, node_modules/, __pycache__/: named by `cairn index`, not counted elsewhere
    counted = len(res.skipped.keys() - res.passed_over)
    if not quiet:
        for src, msg in sorted(res.skipped.items()):
            _err(f"{'note' if src in res.passed_over else 'warning'}: {src}: skipped: {msg}")
    elif counted:
        _err(f"note: {counted} file(s) under the source roots are not sources and were skipped;"
             " `cairn index` names them")
    for src, msgs in sorted(res.warnings.items()):
        for m in msgs:
            _err(f"warning: {src}: {m}")
    for src in res.denied:
        _err(f"warning: {src}: not read: it leaves the source roots (symbolic link)")
    if not quiet:
        click.echo(
            f"indexed {len(res.indexed)} source(s), {res.unchanged} unchanged, {len(res.removed)} removed,"
            f" {len(res.errors) + len(res.skipped)} skipped"
            + (f" ({len(res.reused)} of them found in the index already, not parsed again)" if res.reused else ""),
            err=True,
        )


def _guard(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn every error into exit 2 with one line saying what failed: no traceback
    reaches a user (configuration, the index, a file that cannot be read or written,
    and, as a last resort, a bug)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _log_to_stderr()
        # imported here, not with the module: `cairn --version` and `--help` load no engine
        from ..core.config import ConfigError
        from ..store import StoreError

        try:
            return fn(*args, **kwargs)
        except ConfigError as exc:
            _err(f"configuration error: {exc}")
        except StoreError as exc:
            _err(str(exc))
        except sqlite3.Error as exc:
            _err(f"the index .cairn/index.db cannot be used: {exc}")
        except BrokenPipeError:
            _quiet_stdout()
        except OSError as exc:
            _err(_os_error(exc))
        except Exception as exc:  # noqa: BLE001 - a bug: one line, not a traceback
            _err(f"internal error: {type(exc).__name__}: {exc}")
        sys.exit(EXIT_USAGE)

    return wrapper


def _source_name(ws: Workspace, given: str) -> str:
    """The source identity a command-line name stands for (`cairn chunks NAME`, `cairn cite --source NAME`);
    exits 2 with the reason when it names no source: a folder under a source root (the root itself too),
    or a path outside the roots."""
    p = Path(given)
    if p.is_dir() and ws.is_under_source_root(p):
        _err(f"{given}: is a folder; name the source files in it, or give no name for every source")
        sys.exit(EXIT_USAGE)
    ident = ws.identity(p) if p.exists() else given.replace("\\", "/")
    if ident is None or not ws.in_roots(ident):
        _err(f"{given}: not a source: it is outside the source roots ({', '.join(ws.roots)})")
        sys.exit(EXIT_USAGE)
    return ident


def _os_error(exc: OSError) -> str:
    what = exc.strerror or str(exc)
    name = exc.filename if exc.filename is not None else ""
    return f"{name}: {what}" if name else what


def _quiet_stdout() -> None:
    """The reader of stdout went away (`cairn chunks | head`): say nothing more."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
