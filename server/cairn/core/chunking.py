"""The chunker of SPEC section 2. Chunk ids depend on it: change nothing here
without a new contract.

A paragraph is a maximal run of non-blank lines (lines end at \\n, \\r\\n or
\\r; a form feed also ends a paragraph). Every paragraph is a chunk; one longer
than `chunk_chars` is cut just after its last sentence end within the limit,
else just before its last white space, else hard at the limit. White space at
a cut belongs to no chunk.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from dataclasses import dataclass

DEFAULT_CHUNK_CHARS = 1200

# a paragraph: a non-blank line starting where a line starts (\s is str.isspace),
# and each non-blank line after it; a form feed or a blank line ends it.
# The repeat over lines is possessive (*+): nothing follows it, so the match is the
# same, but a greedy group keeps a backtracking point per line (about 220 bytes a
# line: "a\n" * 10_000_000 took 2.3 GB), a possessive one keeps none.
_PARAGRAPH = re.compile(
    r"(?<![^\r\n\f])[^\S\r\n\f]*\S[^\r\n\f]*(?:(?:\r\n|\r|\n)[^\S\r\n\f]*\S[^\r\n\f]*)*+"
)
_SENTENCE_END = re.compile(r"[.!?](?=\s)")


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int


def chunk_id(source: str, text: str) -> str:
    digest = hashlib.sha256((source + "\n" + text).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:16]


def paragraphs(text: str) -> list[Span]:
    """Maximal runs of non-blank lines, line breaks at the ends excluded."""
    return [Span(m.start(), m.end()) for m in _PARAGRAPH.finditer(text)]


def _cut(text: str, start: int, end: int, limit: int) -> list[Span]:
    """Cut the paragraph text[start:end] into pieces of at most `limit`."""
    out: list[Span] = []
    while end - start > limit:
        window_end = start + limit
        cut = -1
        # last sentence end within the limit: its punctuation at most the window's last
        # character, so the search runs one past the window for the white space after it
        for m in _SENTENCE_END.finditer(text, start, window_end + 1):
            if m.end() <= window_end:
                cut = m.end()
        if cut < 0:
            # last white space at or before the limit; the whole run is dropped
            k = window_end
            while k > start and not text[k].isspace():
                k -= 1
            if text[k].isspace():
                s = k
                while s > start and text[s - 1].isspace():
                    s -= 1
                if s > start:
                    cut = s
        if cut < 0:
            out.append(Span(start, window_end))
            start = window_end
            continue
        out.append(Span(start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if end > start:
        out.append(Span(start, end))
    return out


def chunk_spans(text: str, chunk_chars: int = DEFAULT_CHUNK_CHARS) -> list[Span]:
    spans: list[Span] = []
    for p in paragraphs(text):
        if p.end - p.start <= chunk_chars:
            spans.append(p)
        else:
            spans.extend(_cut(text, p.start, p.end, chunk_chars))
    return spans


def page_of(pages: list[int] | None, pos: int) -> int | None:
    if not pages:
        return None
    return max(1, bisect_right(pages, pos))


@dataclass(frozen=True, slots=True)
class RawChunk:
    chunk_id: str
    start: int
    end: int
    page: int | None
    text: str


def chunk_document(source: str, text: str, pages: list[int] | None = None,
                   chunk_chars: int = DEFAULT_CHUNK_CHARS) -> list[RawChunk]:
    """The chunks of one document, first occurrence of each id only."""
    seen: set[str] = set()
    out: list[RawChunk] = []
    for span in chunk_spans(text, chunk_chars):
        piece = text[span.start:span.end]
        cid = chunk_id(source, piece)
        if cid in seen:
            continue
        seen.add(cid)
        out.append(RawChunk(cid, span.start, span.end, page_of(pages, span.start), piece))
    return out
