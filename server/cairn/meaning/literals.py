"""Command-line options and files as identifiers (SPEC section 4,
`number-mismatch`): `-r`, `--norc`, `/etc/passwd`, `README.md`, read from a
text, and a claim's held to the ones its cited text names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .quantities import NumberMismatch

__all__ = ["names_literals"]


# a command-line option as documentation writes it (`-r`, `--norc`, `-maxdepth`, `--preserve-xattr`): one or
# two hyphens and a letter, at the start of a word (after white space, an opening bracket or a quotation mark)
# (the hyphen first, and what may stand before it looked behind from there: the pattern engine then skips
# straight from one hyphen to the next)
_OPTION = re.compile(r"-(?<![^\s(\[\"'`]-)-?[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
# a file's path (`/etc/passwd`, `~/.bashrc`, `./configure`) or name with an extension (`README.md`,
# `debian-archive-keyring.gpg`), at the start of a word: not `and/or`, `km/h`, `e.g.` or `U.S.`
_FILE = re.compile(r"(?<![\w/.~-])(?:(?:~|\.{1,2})?/[\w.+-]+(?:/[\w.+-]+)*|[\w-]{2,}(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,4}\b(?![\w/-]))")


# the test before _FILE (a slow pattern to try at every word): a full stop between word characters
_DOTTED = re.compile(r"[\w-]\.[a-z]")


def _may_name_file(text: str) -> bool:
    """False when `text` surely names no file: no slash, and no full stop but at its very end."""
    return "/" in text or (0 <= text.find(".") < len(text) - 1 and _DOTTED.search(text) is not None)


@lru_cache(maxsize=4096)
def _literals_of(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The options and the files a text names, each once, in order (a sentence's full stop left off)."""
    options = tuple(dict.fromkeys(_OPTION.findall(text))) if "-" in text else ()
    files = tuple(dict.fromkeys(f.rstrip(".") for f in _FILE.findall(text))) if _may_name_file(text) else ()
    return options, tuple(f for f in files if f and f not in ("/", "~/", "./"))


def names_literals(text: str) -> bool:
    """Whether `text` names a command-line option or a file, which are checked
    against the cited chunks and their sources' titles as identifiers are."""
    options, files = _literals_of(text)
    return bool(options or files)


def _literals_unnamed(claim: str, quotes: Sequence[str], context: Sequence[str],
                      titles: Sequence[str] = ()) -> list[NumberMismatch]:
    """The claim's command-line options and files that the cited text does not name where it names
    others of the kind: an option or a file is an identifier, so `grep -R` is not backed by a chunk
    that documents `-r, --recursive`, nor `--noprofile` by a quote about `--norc`, nor
    `/usr/share/keyrings/debian-archive-keyring.gpg` by a chunk about `debian-archive-removed-keys.gpg`.
    Options are told apart by case, as programs read them; a file is the cited text's when the text
    holds it as written (`passwd.5` in `/usr/share/man/man5/passwd.5`). A cited text that names no
    option (no file) leaves the claim's alone: its name may be a heading of its own, outside the chunk.
    The sources' `titles` hold the claim's too (the README of `invoke-rc.d` on `policy-rc.d`), but
    what they name is not what the cited text names."""
    options, files = _literals_of(claim)
    if not options and not files:
        return []
    texts = (*quotes, *context)
    holding = (*texts, *titles)
    out: list[NumberMismatch] = []
    for kind, mine in enumerate((options, files)):  # (0: options, 1: files, as _literals_of gives them)
        if not mine:
            continue
        theirs = dict.fromkeys(x for text in texts for x in _literals_of(text)[kind])
        if not theirs:
            continue
        shown = ", ".join(list(theirs)[:4])
        held = dict.fromkeys(x for text in titles for x in _literals_of(text)[kind]) if titles else {}
        out += [NumberMismatch(x, shown, "identifier", where="source") for x in mine
                if (x not in theirs and x not in held if kind == 0 else not any(x in text for text in holding))]
    return out
