"""`cairn init`: start a workspace in the current folder.

Writes a commented `cairn.toml` (every key with its default, as comments a user
uncomments to change), `sources/` and `drafts/` where missing, `.cairn/.gitignore`,
and, in folders it made itself, a small example source and a first draft whose
citation block cites it. Nothing that exists is ever overwritten.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from . import chunking
from .config import CONFIG_FILE, Config

EXAMPLE_SOURCE = "sources/example.md"
FIRST_DRAFT = "drafts/first-draft.md"

_EXAMPLE_TEXT = """\
# An example source

Cairn reads every file under the sources folder and cuts it into chunks, one a paragraph.

A citation names a chunk, a range of characters inside it and the quoted text, so a reader can find the exact words a claim rests on.

Delete this file when you add your own sources.
"""


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return str(value)


def config_text() -> str:
    """The commented cairn.toml: each key with the default the code really uses."""
    d = Config()
    v = _toml_value
    return f"""\
# Cairn configuration. Every key is optional: the values shown are the defaults.
# Uncomment a line (and its [table] line) to change it; `cairn check` reads this file from this folder
# (the workspace root) and every folder below it.

# Folders (inside this one) that hold the source documents: .md .txt .html .pdf,
# and text files without an extension such as LICENSE.
# sources = {v(d.sources)}

# Globs of the drafts to check; empty: every Markdown file outside the sources
# that holds a citation block.
# drafts = {v(d.drafts)}

# Globs never read as drafts (notes, templates).
# exclude = {v(d.exclude)}

# Support score a claim needs from its quotes to count as verified (0 to 1).
# threshold = {v(d.threshold)}

# Longest chunk in characters; chunk ids depend on it, so change it before you cite.
# chunk_chars = {v(d.chunk_chars)}

# true: a sentence of a claim that no quote supports fails the claim.
# strict_sentences = false

# Claims whose sources are dated further apart than this get `mixed-dates`.
# date_window_days = 365

# Read files without an extension (LICENSE, COPYING) as text when their bytes are text.
# text_without_extension = {v(d.text_without_extension)}

# The principal checks run as ("" is the owner, who reads everything); --as and
# CAIRN_PRINCIPAL override it.
# principal = ""

# [support]
# How quotes are scored against a claim: "seed" (the plain rule) or "calibrated".
# mode = {v(d.support.mode)}

# [judge]
# "stub" is the built-in lexical check; "openai" asks an OpenAI-compatible chat endpoint.
# provider = {v(d.judge.provider)}
# A URL off this machine is only contacted when you allow it outside this file
# (CAIRN_JUDGE_URL, --judge-url or your editor's user settings).
# url = {v(d.judge.url)}
# model = {v(d.judge.model)}
# Name of the environment variable holding the key (must start with CAIRN_);
# a key is never read from a file.
# api_key_env = {v(d.judge.api_key_env)}

# [ask]
# Who writes `cairn ask` answers: "extractive" (quoted sentences, no model) or "openai".
# provider = "extractive"
# url = ""
# model = ""
# api_key_env = ""
# Passages retrieved for a question.
# k = 8

# [authority]
# Tiers of trust in sources, highest first, e.g. ["official", "internal", "draft"].
# tiers = []
# Tier of a source no [[policy]] names (empty: the last tier).
# default = ""
# Claims resting only on sources below this tier get `low-authority`.
# minimum = ""

# Per-source policy; repeat the block for more paths (the last match wins per key).
# [[policy]]
# path = "sources/policies/**"
# authority = "official"
# date = ""           # YYYY-MM-DD when the source's own metadata has none
# derived = false     # true for summaries and extracts
# access = []         # labels; a source without labels is readable by everyone

# [principals]
# Who may read which labels, e.g. reader = ["public"].

# [store]
# Where the index lives: "" is .cairn/index.db (SQLite); "postgresql://..." shares one.
# url = ""
"""


def first_draft_text() -> str:
    """A first draft whose citation block cites the example source exactly."""
    version = hashlib.sha256(_EXAMPLE_TEXT.encode("utf-8")).hexdigest()
    chunks = chunking.chunk_document(EXAMPLE_SOURCE, _EXAMPLE_TEXT, None, Config().chunk_chars)
    chunk = next(c for c in chunks if c.text.startswith("A citation names"))
    quote = "a reader can find the exact words a claim rests on"
    start = chunk.text.index(quote)
    return f"""\
# My first draft

Each claim is a paragraph; the citation block right after it says which words
of which source back it. Run `cairn check` to verify it and `cairn chunks` to see
the chunks of your sources, with the ids a citation block names.

A citation lets a reader find the exact words a claim rests on.

```cite
chunk_id: {chunk.chunk_id}
start: {start}
end: {start + len(quote)}
quote: "{quote}"
source: {EXAMPLE_SOURCE}
version: {version[:12]}
```
"""


@dataclass
class InitResult:
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


class InitRefused(Exception):
    """The folder already has a cairn.toml: nothing is written."""


def init_workspace(root: Path) -> InitResult:
    """Write what is missing; raise InitRefused when cairn.toml exists."""
    if (root / CONFIG_FILE).exists() or (root / CONFIG_FILE).is_symlink():
        raise InitRefused(f"{root / CONFIG_FILE} already exists; nothing was changed")
    res = InitResult()
    made: set[str] = set()
    for folder in ("sources", "drafts", ".cairn"):
        p = root / folder
        if p.exists() or p.is_symlink():
            res.kept.append(folder + "/")
        else:
            p.mkdir()
            made.add(folder)
            if folder != ".cairn":
                res.written.append(folder + "/")
    files = [(CONFIG_FILE, config_text()), (".cairn/.gitignore", "*\n")]
    if "sources" in made:  # an example only in a folder Cairn made: never among the user's files
        files.append((EXAMPLE_SOURCE, _EXAMPLE_TEXT))
        if "drafts" in made:
            files.append((FIRST_DRAFT, first_draft_text()))
    for rel, text in files:
        p = root / rel
        try:
            with p.open("x", encoding="utf-8", newline="\n") as f:  # "x": never over a file
                f.write(text)
            res.written.append(rel)
        except FileExistsError:
            res.kept.append(rel)
    return res
