"""`.md`, `.txt` and text files without an extension: UTF-8, leading BOM removed,
nothing else changed."""

from __future__ import annotations

from ..core.model import ParsedDocument
from .base import SourceError

PARSER = "text"
VERSION = "1"


def decode_utf8(data: bytes) -> tuple[str, int]:
    """Decode as UTF-8 without a leading BOM; returns the text and how many
    invalid byte sequences were replaced by U+FFFD."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), 0
    except UnicodeDecodeError:
        pass
    bad = 0

    def count(err: UnicodeError) -> tuple[str, int]:
        assert isinstance(err, UnicodeDecodeError)  # registered for this decode only
        nonlocal bad
        bad += 1
        return "\ufffd", err.end

    import codecs

    codecs.register_error("cairn-count", count)
    return data.decode("utf-8", errors="cairn-count"), bad


def looks_binary(data: bytes) -> bool:
    """A NUL byte in the first 8 KiB: what tells a file without an extension that is
    not text (a `.md` or `.txt` is read as text whatever its bytes, SPEC section 2)."""
    return b"\x00" in data[:8192]


def parse_text(data: bytes) -> ParsedDocument:
    """`.md` and `.txt`: always decoded (a NUL is valid UTF-8; UTF-16 text decodes to
    replacement characters and NULs), with the invalid sequences reported."""
    text, bad = decode_utf8(data)
    warnings = []
    if bad:
        warnings.append(f"not valid UTF-8: {bad} invalid byte sequence(s) replaced by U+FFFD")
    nul = text.count("\x00")
    if nul:
        warnings.append(f"holds {nul} NUL character(s), kept as they are (UTF-16 text, or not a text file?)")
    return ParsedDocument(text=text, pages=None, parser=PARSER, parser_version=VERSION, warnings=warnings)


# a file without an extension is a source only when its bytes are text: at most
# this share of invalid UTF-8 sequences (a stray Latin-1 byte in a licence is text)
MAX_INVALID_SHARE = 0.01


def refuse_binary(data: bytes) -> None:
    """A file whose bytes are not text (NUL bytes, or mostly invalid UTF-8) is no source,
    whatever its name says (a program copied as `fake.txt`)."""
    if looks_binary(data):
        raise SourceError("binary (NUL bytes): its bytes are not text, whatever its extension")
    head = data[:65536]
    text, bad = decode_utf8(head)
    if bad > 0.3 * max(len(text), 1):
        raise SourceError("binary (mostly not UTF-8): its bytes are not text, whatever its extension")


def parse_text_without_extension(data: bytes) -> ParsedDocument:
    """A file such as LICENSE: read as `.txt` when its bytes are text, else a SourceError."""
    if looks_binary(data):
        raise SourceError("binary (NUL bytes): a file without an extension is read only when it is text")
    doc = parse_text(data)
    bad = doc.text.count("\ufffd")
    if doc.warnings and bad > MAX_INVALID_SHARE * max(len(doc.text), 1):
        raise SourceError("binary (mostly not UTF-8): a file without an extension is read only when it is text")
    return doc
