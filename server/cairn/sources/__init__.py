"""Source parsers: one module a format. Each returns a ParsedDocument whose
text is what chunk offsets index (SPEC section 2)."""

from __future__ import annotations

from pathlib import Path

from ..model import ParsedDocument

SOURCE_SUFFIXES = (".md", ".txt", ".html", ".htm", ".pdf")

# Parsed-text lineage is bumped whenever a parser's output could change.
MAX_SOURCE_BYTES = 256 * 1024 * 1024
# A source whose parsed text is longer is skipped (reported, never indexed). Fixed, not
# configurable: a workspace's cairn.toml must not be able to raise what Cairn holds in memory.
MAX_PARSED_CHARS = 64 * 1024 * 1024
_CONTINUATION = bytes(range(0x80, 0xC0))


class SourceError(Exception):
    """A source that cannot be read or parsed; the message says why."""


def is_source_name(name: str) -> bool:
    return name.lower().endswith(SOURCE_SUFFIXES)


def _too_long(chars: int) -> SourceError:
    return SourceError(
        f"its text is {chars / 2**20:.1f} MB, over the {MAX_PARSED_CHARS // 2**20} MB limit for a source"
    )


def utf8_chars_at_least(data: bytes) -> int:
    """A lower bound of the characters `data` decodes to (every byte that is not a
    UTF-8 continuation byte starts one), counted 8 MB at a time."""
    step = 8 * 1024 * 1024
    return sum(len(data[i:i + step].translate(None, _CONTINUATION)) for i in range(0, len(data), step))


def parse_bytes(name: str, data: bytes) -> ParsedDocument:
    """Parse a source's bytes by its file name's suffix; a source whose text would be
    over MAX_PARSED_CHARS is a SourceError."""
    lower = name.lower()
    if lower.endswith((".md", ".txt")):
        from .text import parse_text

        if len(data) > MAX_PARSED_CHARS:  # refused before it is decoded
            at_least = utf8_chars_at_least(data)
            if at_least > MAX_PARSED_CHARS:
                raise _too_long(at_least)
        doc = parse_text(data)
        if lower.endswith(".md"):
            from .dates import markdown_date

            doc.date = markdown_date(doc.text)
    elif lower.endswith((".html", ".htm")):
        from .html import parse_html

        doc = parse_html(data)
    elif lower.endswith(".pdf"):
        from .pdf import parse_pdf

        doc = parse_pdf(data)
    else:
        raise SourceError(f"unsupported source type: {name}")
    if len(doc.text) > MAX_PARSED_CHARS:
        raise _too_long(len(doc.text))
    return doc


def parse_file(path: Path) -> ParsedDocument:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read {path.name}: {exc.strerror or exc}") from exc
    return parse_bytes(path.name, data)
