"""The `cairn` command's door (the console script and `python -m cairn`).

`cairn --version` and a bare `cairn serve` are answered here without loading the command line
(click and every command's module, main.py): the version is printed from the package alone and
the language server answers `initialize` sooner. Anything else, `--help` and a `serve` with
arguments included, goes to main.py, which prints the same version text.
"""

from __future__ import annotations

import gc
import sys


def version_text() -> str:
    """`cairn --version`: the version, and whether the support check's rules run compiled
    (cairn/native.py) or as pure Python, and why."""
    from .. import __version__, native

    native.load()  # the compiled build's library, loaded (or failing to) so the status says which
    return f"cairn, version {__version__}\nsupport check rules: {native.status()}"


def tune_gc() -> None:
    """Collect young objects less often. A check builds hundreds of thousands
    of small objects that live until it ends; at Python's default threshold
    the collector walks them again and again (about a tenth of a large check)."""
    gc.set_threshold(50_000, 20, 100)


def main() -> None:
    args = sys.argv[1:]
    if args == ["--version"]:
        sys.stdout.write(version_text() + "\n")
        sys.stdout.flush()
        return
    if args == ["serve"]:
        tune_gc()
        from ..lsp.server import serve

        serve()
        return
    from .main import main as command_line

    command_line()
