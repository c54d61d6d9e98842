"""What every `cairn` process shares, loaded before any command: the version text and the
collector's threshold. Imported by the door (entry.py) and the commands (main.py) alike, so it
imports neither, nor click.
"""

from __future__ import annotations

import gc


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


def pause_gc_for_server_start() -> None:
    """No cycle collection while the language server starts: its imports and the first check of
    its drafts make objects that stay (pygls' protocol classes, the parsed drafts, the verdicts
    read back), and each young collection walks 50,000 of them for no garbage (three, about
    70 ms, before a 1,000-claim draft's first diagnostics). The server collects again once its
    first cycle's diagnostics are out, or as soon as a claim is to be verified
    (lsp/session.py, lsp/checking.py: `gc.enable()`)."""
    gc.disable()
