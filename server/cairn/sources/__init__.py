"""Source parsers: one module a format. Each returns a ParsedDocument whose
text is what chunk offsets index (SPEC section 2)."""

from __future__ import annotations

from pathlib import Path

from ..core.files import read_regular
from ..core.model import ParsedDocument
from .base import SourceError

SOURCE_SUFFIXES = (".md", ".txt", ".html", ".htm", ".pdf")

# Parsed-text lineage is bumped whenever a parser's output could change.
MAX_SOURCE_BYTES = 256 * 1024 * 1024
# A source whose parsed text is longer is skipped (reported, never indexed). Fixed, not
# configurable: a workspace's cairn.toml must not be able to raise what Cairn holds in memory.
MAX_PARSED_CHARS = 64 * 1024 * 1024
_CONTINUATION = bytes(range(0x80, 0xC0))


def has_extension(name: str) -> bool:
    """Whether the file name (its last path part) has an extension: `LICENSE` has none."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].lstrip(".")
    # a last dot followed by digits only is a version, not a type: `MPL-2.0`, `LGPL-2.1`
    return "." in base and not base.rsplit(".", 1)[1].isdigit()


def is_source_name(name: str) -> bool:
    """A name Cairn may read as a source: a known suffix, or no extension at all
    (read as text when its bytes are text, SPEC section 2)."""
    return name.lower().endswith(SOURCE_SUFFIXES) or not has_extension(name)


def skip_reason(name: str) -> str:
    """Why a file under a source root is not a source, by its name."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    suffix = base[base.rfind("."):] if has_extension(base) else ""
    return f"unsupported type ({suffix or 'no extension'}): sources are {' '.join(SOURCE_SUFFIXES)} and text files without an extension"


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
        from .text import refuse_binary

        refuse_binary(data)  # the bytes decide, whatever the extension (SPEC section 2)
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
    elif not has_extension(name):
        from .text import parse_text_without_extension

        if len(data) > MAX_PARSED_CHARS and utf8_chars_at_least(data) > MAX_PARSED_CHARS:
            raise _too_long(utf8_chars_at_least(data))
        doc = parse_text_without_extension(data)
    else:
        raise SourceError(f"unsupported source type: {name}")
    if len(doc.text) > MAX_PARSED_CHARS:
        raise _too_long(len(doc.text))
    if doc.parser == "text" and doc.warnings and "\ufffd" in doc.text:
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        doc.warnings.append(f"{base} looks like Latin-1 (or another 8-bit encoding): convert it to UTF-8,"
                            f" e.g. iconv -f latin1 -t utf-8 {base} > {base}.utf8, and put that in its place")
    return doc


def parse_file(path: Path) -> ParsedDocument:
    try:
        data = read_regular(path)
    except OSError as exc:
        raise SourceError(f"cannot read {path.name}: {exc.strerror or exc}") from exc
    return parse_bytes(path.name, data)
