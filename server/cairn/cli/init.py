"""`cairn init`: start a workspace in the current folder.

Writes a commented `cairn.toml` (every key with its default, as comments a user
uncomments to change), `sources/` and `drafts/` where missing, `.cairn/.gitignore`,
and, in folders it made itself, a small example source and a first draft whose
citation block cites it. Nothing that exists is ever overwritten.
"""

from __future__ import annotations

import hashlib
import typing
from dataclasses import dataclass, field
from pathlib import Path

from ..core import chunking
from ..core.config import CONFIG_FILE, Config
from ..store.base import STORE_GITIGNORE

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


# Every key of the configuration, in the order cairn.toml shows them:
# (table or "", key, default as TOML when the code does not say, why).
KEYS: list[tuple[str, str, str | None, str]] = [
    ("", "sources", None, "folders (inside this one) holding the source documents"),
    ("", "drafts", None, "globs of the drafts to check; empty: every Markdown file outside the sources with a cite block"),
    ("", "exclude", None, "globs never read as drafts (notes, templates)"),
    ("", "threshold", None, "support a claim needs from its quotes to count as verified (0 to 1)"),
    ("", "chunk_chars", None, "longest chunk in characters; chunk ids depend on it, so set it before you cite"),
    ("", "strict_sentences", "false", "true: a sentence of a claim that no quote supports fails the claim"),
    ("", "date_window_days", "365", "claims whose sources are dated further apart than this get `mixed-dates`"),
    ("", "text_without_extension", None, "read files without an extension (LICENSE, COPYING) as text when they are text"),
    ("", "principal", '""', "the principal checks run as; \"\" is the owner, who reads everything"),
    ("support", "mode", None, "how quotes are scored against a claim: \"seed\" (the plain rule) or \"calibrated\""),
    ("judge", "provider", None, "\"stub\" is the built-in lexical check; \"openai\" an OpenAI-compatible chat endpoint"),
    ("judge", "url", None, "contacted off this machine only when you allow it outside this file (--judge-url)"),
    ("judge", "model", None, "the model name the endpoint expects"),
    ("judge", "api_key_env", None, "environment variable holding the key (starts with CAIRN_); never a key itself"),
    ("ask", "provider", '"extractive"', "who writes `cairn ask` answers: \"extractive\" (quoted sentences) or \"openai\""),
    ("ask", "url", '""', "same rule as the judge's url"),
    ("ask", "model", '""', "the model name the endpoint expects"),
    ("ask", "api_key_env", '""', "environment variable holding the key (starts with CAIRN_)"),
    ("ask", "k", "8", "passages retrieved for a question"),
    ("authority", "tiers", "[]", "tiers of trust in sources, highest first, e.g. [\"official\", \"internal\"]"),
    ("authority", "default", '""', "tier of a source no [[policy]] names (\"\": the last tier)"),
    ("authority", "minimum", '""', "claims resting only on sources below this tier get `low-authority`"),
    ("policy", "path", '"sources/policies/**"', "a glob of the sources this entry is about (any number of entries; the last match wins)"),
    ("policy", "authority", '"official"', "the tier of the sources it matches"),
    ("policy", "date", '""', "their date (YYYY-MM-DD) when their own metadata has none"),
    ("policy", "derived", "false", "true for summaries and extracts, not originals"),
    ("policy", "access", "[]", "labels; a source without labels is readable by every principal"),
    ("principals", "reader", '["public"]', "a principal's name and the labels it may read (an example)"),
    ("store", "url", '""', "\"\" is .cairn/index.db (SQLite); \"postgresql://...\" a shared index"),
]


# tables of entries the writer names (a list of [[policy]] tables, [principals] by name): no defaults
_EXAMPLE_TABLES = ("policy", "principals")


def _read_by_this_version(table: str, key: str) -> bool:
    fields = Config.model_fields
    if not table:
        return key in fields
    sub = fields.get(table)
    model = getattr(sub, "annotation", None) if sub is not None else None
    if typing.get_origin(model) is list:  # [[policy]]: a list of tables of one model
        (model,) = typing.get_args(model)
    elif typing.get_origin(model) is dict:  # [principals]: a table of names of the writer's own
        return True
    return bool(model is not None and hasattr(model, "model_fields") and key in model.model_fields)


def _default(table: str, key: str, given: str | None) -> str:
    if given is not None and (not _read_by_this_version(table, key) or table in _EXAMPLE_TABLES):
        return given  # (an example value: a key this version does not read, or an entry of a table of entries)
    value = getattr(getattr(Config(), table), key) if table else getattr(Config(), key)
    return _toml_value(value)


def _block(entries: list[tuple[str, str, str | None, str]]) -> list[str]:
    out: list[str] = []
    table = None
    for t, key, given, why in entries:
        if t != table:
            table = t
            if t:
                out += ["", f"# [[{t}]]" if t == "policy" else f"# [{t}]"]
        out.append(f"# {why}")
        out.append(f"# {key} = {_default(t, key, given)}")
    return out


def config_text() -> str:
    """The commented cairn.toml: every key with the default this version really uses;
    keys it does not read yet are listed apart, since setting one is an error."""
    examples = [e for e in KEYS if e[0] in _EXAMPLE_TABLES]
    read = [e for e in KEYS if _read_by_this_version(e[0], e[1]) and e not in examples]
    later = [e for e in KEYS if not _read_by_this_version(e[0], e[1])]
    lines = [
        "# Cairn configuration. Every key is optional; each is shown, commented out, with",
        "# its default. Uncomment a line (and its [table] line) to change it. This folder",
        "# is the workspace root: `cairn` run here or in any folder below it reads this file.",
        "",
        *_block(read),
    ]
    if examples:
        lines += [
            "",
            "# Tables with no default, each shown with an example: a [[policy]] entry per group of",
            "# sources (as many as you need), a [principals] entry per principal.",
            *_block(examples),
        ]
    if later:
        lines += [
            "",
            "# Keys of the Cairn configuration that this version does not read yet:",
            "# setting one is a configuration error until it does.",
            *_block(later),
        ]
    return "\n".join(lines) + "\n"


def first_draft_text() -> str:
    """A first draft whose citation block cites the example source exactly."""
    version = hashlib.sha256(_EXAMPLE_TEXT.encode("utf-8")).hexdigest()
    chunks = chunking.chunk_document(EXAMPLE_SOURCE, _EXAMPLE_TEXT, None, Config().chunk_chars)
    chunk = next(c for c in chunks if c.text.startswith("A citation names"))
    quote = "a reader can find the exact words a claim rests on"
    start = chunk.text.index(quote)
    return f"""\
# My first draft

<!-- cairn: no-claim -->
Each claim is a paragraph; the citation block right after it says which words
of which source back it. Run `cairn check` to verify it and `cairn chunks` to see
the chunks of your sources, with the ids a citation block names. A paragraph
that is not a claim, like this one, has the comment `cairn: no-claim` on the
line before it, so coverage does not count it as uncited prose.

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
    kept: list[tuple[str, str]] = field(default_factory=list)  # (path, why it was left alone)


class InitRefused(Exception):
    """The folder's cairn.toml cannot be read (or is not a file): nothing is written."""


def init_workspace(root: Path) -> InitResult:
    """Write what is missing. With a cairn.toml already there, it is kept as it is and only the
    folders it names are made where missing (its source roots, and drafts/); InitRefused when that
    file cannot be read."""
    config = root / CONFIG_FILE
    if config.exists() or config.is_symlink():
        return _folders_of_existing(root)
    res = InitResult()
    made: set[str] = set()
    for folder in ("sources", "drafts", ".cairn"):
        p = root / folder
        if p.exists() or p.is_symlink():
            res.kept.append((folder + "/", "it exists"))
        else:
            p.mkdir()
            made.add(folder)
            if folder != ".cairn":
                res.written.append(folder + "/")
    files = [(CONFIG_FILE, config_text()), (".cairn/.gitignore", STORE_GITIGNORE)]
    if "sources" in made:  # an example only in a folder Cairn made: never among the user's files
        files.append((EXAMPLE_SOURCE, _EXAMPLE_TEXT))
        if "drafts" in made:
            files.append((FIRST_DRAFT, first_draft_text()))
    real_root = root.resolve()
    for rel, text in files:
        p = root / rel
        if p.parent != root and (p.parent.is_symlink() or p.parent.resolve().parent != real_root):
            # a folder that is a link (say, to outside the workspace): nothing is written there
            res.kept.append((rel, "not written: its folder is a symbolic link"))
            continue
        try:
            with p.open("x", encoding="utf-8", newline="\n") as f:  # "x": never over a file
                f.write(text)
            res.written.append(rel)
        except FileExistsError:
            res.kept.append((rel, "it exists"))
    return res


def _folders_of_existing(root: Path) -> InitResult:
    """The folders an existing cairn.toml names, made where missing: its source roots (`sources/` by
    default) and `drafts/`. The file itself is never changed, nor is anything written into a folder."""
    from ..core.config import ConfigError, load_settings

    if (root / CONFIG_FILE).is_symlink() or not (root / CONFIG_FILE).is_file():
        raise InitRefused(f"{root / CONFIG_FILE} is not a regular file; nothing was changed")
    try:
        roots = load_settings(root).source_roots()
    except ConfigError as exc:
        raise InitRefused(f"{exc}; nothing was changed") from None
    res = InitResult(kept=[(CONFIG_FILE, "it exists; left as it is")])
    for folder in dict.fromkeys([*roots, "drafts"]):
        if folder == ".":
            continue
        p = root / folder
        if p.exists() or p.is_symlink():
            res.kept.append((folder + "/", "it exists"))
            continue
        # each folder on its way must be a real folder of this workspace: never made through a link
        on_way = [root.joinpath(*folder.split("/")[:i]) for i in range(1, folder.count("/") + 1)]
        if any(q.is_symlink() or (q.exists() and not q.is_dir()) for q in on_way):
            res.kept.append((folder + "/", "not made: a folder on its way is a symbolic link or a file"))
            continue
        p.mkdir(parents=True)
        res.written.append(folder + "/")
    return res
