"""Source parsers: one module a format. Each returns a ParsedDocument whose
text is what chunk offsets index (SPEC section 2)."""

from __future__ import annotations

from pathlib import Path

from ..model import ParsedDocument

SOURCE_SUFFIXES = (".md", ".txt", ".html", ".htm", ".pdf")

# Parsed-text lineage is bumped whenever a parser's output could change.
MAX_SOURCE_BYTES = 256 * 1024 * 1024


class SourceError(Exception):
    """A source that cannot be read or parsed; the message says why."""


def is_source_name(name: str) -> bool:
    return name.lower().endswith(SOURCE_SUFFIXES)


def parse_bytes(name: str, data: bytes) -> ParsedDocument:
    """Parse a source's bytes by its file name's suffix."""
    lower = name.lower()
    if lower.endswith((".md", ".txt")):
        from .text import parse_text

        return parse_text(data)
    if lower.endswith((".html", ".htm")):
        from .html import parse_html

        return parse_html(data)
    if lower.endswith(".pdf"):
        from .pdf import parse_pdf

        return parse_pdf(data)
    raise SourceError(f"unsupported source type: {name}")


def parse_file(path: Path) -> ParsedDocument:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {path.name}: {exc.strerror or exc}") from exc
    return parse_bytes(path.name, data)
