"""The `cairn` command's door (the console script and `python -m cairn`).

`cairn --version` and a bare `cairn serve` are answered here without loading the command line
(click and every command's module, main.py): the version is printed from the package alone and
the language server answers `initialize` sooner. Anything else, `--help` and a `serve` with
arguments included, goes to main.py, which prints the same version text.
"""

from __future__ import annotations

import sys

from .process import pause_gc_for_server_start, tune_gc, version_text


def main() -> None:
    args = sys.argv[1:]
    if args == ["--version"]:
        sys.stdout.write(version_text() + "\n")
        sys.stdout.flush()
        return
    if args == ["serve"]:
        tune_gc()
        pause_gc_for_server_start()
        from ..lsp.server import serve

        serve()
        return
    from .main import main as command_line

    command_line()
