"""How the SQLite store keeps a version's parsed text (versions.text).

Nearly all of a version's text is already in its chunk rows (every paragraph
is a chunk, SPEC section 2), so from schema 4 versions.text holds only the rest:
the text between the chunks (white space, a repeated paragraph whose chunk id
the version already has), compressed, after the SHA-256 of the whole text.
The whole text is put together again from the chunk rows and that rest, and
counts only when its hash is the one stored. Compressing the whole text cost
about 0.016 CPU seconds a MB on the thread that writes the index, a fifth of
that thread's work, and the index kept the text twice (docs/team.md, "Measured").

Versions written before schema 4 keep the whole text compressed (zlib: their
first byte is 0x78); they are read as they are.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable, Sequence

from ..core.chunking import RawChunk

REST = b"R"  # the first byte of a versions.text holding the text outside the chunks
_SHA = hashlib.sha256().digest_size


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def stored_text(text: str, chunks: Sequence[RawChunk]) -> bytes:
    """versions.text for a version of this text whose chunk rows are `chunks`."""
    rest: list[str] = []
    pos = 0
    for ch in sorted(chunks, key=lambda c: c.start):
        rest.append(text[pos:ch.start])
        pos = ch.end
    rest.append(text[pos:])
    return REST + hashlib.sha256(_utf8(text)).digest() + zlib.compress(_utf8("".join(rest)), 1)


def whole_text(blob: bytes, chunks: Iterable[tuple[int, int, str]]) -> str | None:
    """The text versions.text and the version's chunk rows (start, end, text) stand
    for; None when they do not make the text whose hash is stored."""
    if blob[:1] != REST:
        return zlib.decompress(blob).decode("utf-8", "surrogatepass")  # a whole text (before schema 4)
    sha = blob[1:1 + _SHA]
    rest = zlib.decompress(blob[1 + _SHA:]).decode("utf-8", "surrogatepass")
    parts: list[str] = []
    pos = taken = 0  # in the text, in the rest
    for start, end, piece in sorted(chunks):
        if start < pos or end - start != len(piece):
            return None
        parts.append(rest[taken:taken + start - pos])
        taken += start - pos
        parts.append(piece)
        pos = end
    parts.append(rest[taken:])
    text = "".join(parts)
    return text if hashlib.sha256(_utf8(text)).digest() == sha else None
