"""How a citation's fields are spelled in a cite block: the quoting rules every writer shares
(the field edits of `drafts`, completion in the editor, the new blocks of `cairn cite` and
`cairn ask`), the values a chunk span gives, and the text of a whole new block."""

from __future__ import annotations

import json
import re
from typing import Any

from ..core.model import Chunk

# a plain YAML scalar safe for an identifier-like value (ids, versions, paths)
SAFE_PLAIN = re.compile(r"[A-Za-z0-9_./][A-Za-z0-9_./-]*")
# characters a YAML reader refuses or changes: written as \u escapes inside double quotes
YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
PLAIN_FIELDS = frozenset({"chunk_id", "version", "source"})  # the fields that may be written plain
VERSION_DIGITS = 12  # a new citation's version is written with this many hex digits


def dq(s: str) -> str:
    """A double-quoted string, valid JSON and valid YAML."""
    return YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", json.dumps(s, ensure_ascii=False))


def yaml_value(name: str, value: str | int) -> str:
    """A field's value for a new YAML line: a number as is, an identifier-like id, version or
    source plain, anything else double-quoted."""
    if isinstance(value, int):
        return str(value)
    if name in PLAIN_FIELDS and SAFE_PLAIN.fullmatch(value):
        return value
    return dq(value)


def citation_values(ch: Chunk, start: int, end: int) -> dict[str, Any]:
    """The fields of a citation of `ch.text[start:end]`."""
    return {
        "chunk_id": ch.chunk_id,
        "start": start,
        "end": end,
        "quote": ch.text[start:end],
        "source": ch.source,
        "version": ch.version[:VERSION_DIGITS],
    }


def block_text(citations: list[dict[str, Any]]) -> str:
    """A YAML cite block of `citations` (each with `claim` when it has one)."""
    lines = ["```cite"]
    for c in citations:
        fields = ("chunk_id", "start", "end", "quote", "source", "version") + (("claim",) if c.get("claim") else ())
        for i, name in enumerate(fields):
            value = dq(c[name]) if name in ("quote", "claim") else yaml_value(name, c[name])
            if len(citations) > 1:
                lines.append(("- " if i == 0 else "  ") + f"{name}: {value}")
            else:
                lines.append(f"{name}: {value}")
    lines.append("```")
    return "\n".join(lines) + "\n"
