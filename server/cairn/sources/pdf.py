"""`.pdf`: the text of each page, pages joined by a form feed, each page's
start offset recorded. pypdf extracts the text; the furniture repeated on every
page (running headers and footers, bare page numbers) is left out (see
strip_furniture), so it is never glued to the first or last paragraph of a page."""

from __future__ import annotations

import io
import logging
import re
from collections import Counter

from ..core.model import ParsedDocument
from .base import SourceError

PARSER = "pdf-pypdf"
VERSION = "2"  # 2: running headers, footers and page numbers left out

# an edge line seen on at least this many pages (digits aside) is furniture
MIN_REPEATS = 3
MAX_FURNITURE_CHARS = 100
_BARE_NUMBER = re.compile(r"(?i)(?:page\s+)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:/|of)\s*\d{1,4})?")
_DIGITS = re.compile(r"\d+")
_TRAILING_NUMBER = re.compile(r"(?<![\d.,:/-])(\d{1,4})\s*$")


def _shape(line: str) -> str:
    """A line with its white space collapsed and every number as `#`: "Chapter 4: Functions 10"
    and "Chapter 4: Functions 11" are one running header."""
    return _DIGITS.sub("#", " ".join(line.split()))


def _edges(lines: list[str]) -> tuple[int, int] | None:
    """Indices of the first and last non-blank line, or None for a blank page."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return (filled[0], filled[-1]) if filled else None


def strip_furniture(pages: list[str]) -> tuple[list[str], int]:
    """The pages without their furniture, and how many lines were left out.

    Furniture is a page's first or last non-blank line (up to two at each edge) that
    is a bare page number (`7`, `iv`, `Page 3 of 9`) when at least MIN_REPEATS pages
    have one at an edge, or whose shape (_shape) is at that same edge on at least
    MIN_REPEATS pages. A document of fewer pages is left as it is."""
    if len(pages) < MIN_REPEATS:
        return pages, 0
    split = [page.split("\n") for page in pages]
    top: Counter[str] = Counter()
    bottom: Counter[str] = Counter()
    numbered = 0
    # a running page number: an edge line ending in a number that grows with the page index
    # ("Chapter 2: Parsing 4" on page 6, "Chapter 4: Reference 10" on page 12)
    running: Counter[int] = Counter()
    for i, lines in enumerate(split):
        edges = _edges(lines)
        if edges is None:
            continue
        first, last = lines[edges[0]], lines[edges[1]]
        top[_shape(first)] += 1
        bottom[_shape(last)] += 1
        if _BARE_NUMBER.fullmatch(first.strip()) or _BARE_NUMBER.fullmatch(last.strip()):
            numbered += 1
        for line in {first, last}:
            shift = _page_number_shift(line, i)
            if shift is not None:
                running[shift] += 1
    shift, count = running.most_common(1)[0] if running else (None, 0)
    page_shift = shift if count >= MIN_REPEATS else None

    def furniture(line: str, seen: Counter[str], index: int) -> bool:
        text = line.strip()
        if len(text) > MAX_FURNITURE_CHARS:
            return False
        if numbered >= MIN_REPEATS and _BARE_NUMBER.fullmatch(text):
            return True
        if page_shift is not None and _page_number_shift(line, index) == page_shift:
            return True
        return seen[_shape(line)] >= MIN_REPEATS

    out: list[str] = []
    dropped = 0
    for i, lines in enumerate(split):
        lines = list(lines)
        for _ in range(2):
            edges = _edges(lines)
            if edges is not None and furniture(lines[edges[0]], top, i):
                del lines[: edges[0] + 1]
                dropped += 1
        for _ in range(2):
            edges = _edges(lines)
            if edges is not None and furniture(lines[edges[1]], bottom, i):
                del lines[edges[1]:]
                dropped += 1
        out.append("\n".join(lines))
    return out, dropped


def _page_number_shift(line: str, index: int) -> int | None:
    """The line's trailing number minus the page index, for a short line ending in a number."""
    m = _TRAILING_NUMBER.search(line)
    if m is None or len(line.strip()) > MAX_FURNITURE_CHARS:
        return None
    return int(m.group(1)) - index


def parse_pdf(data: bytes) -> ParsedDocument:
    try:
        import pypdf
        from pypdf.errors import PdfReadError
    except ImportError as exc:  # pragma: no cover - a dependency
        raise SourceError(f"PDF support is missing: {exc}") from exc
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except Exception as exc:  # pypdf raises many kinds
                raise SourceError(f"encrypted PDF that cannot be opened: {exc}") from exc
            if not ok:
                raise SourceError("encrypted PDF: a password is needed")
        pages: list[int] = []
        parts: list[str] = []
        pos = 0
        for page in reader.pages:
            text = page.extract_text() or ""
            # a form feed inside a page would fake a page break
            text = text.replace("\f", " ")
            pages.append(pos)
            parts.append(text)
            pos += len(text) + 1
    except SourceError:
        raise
    except (PdfReadError, Exception) as exc:  # corrupt files raise anything
        raise SourceError(f"cannot read PDF: {exc.__class__.__name__}: {exc}") from exc
    if not parts:
        raise SourceError("PDF has no pages")
    from .dates import pdf_date

    parts, _ = strip_furniture(parts)
    pages = []
    pos = 0
    for text in parts:
        pages.append(pos)
        pos += len(text) + 1
    return ParsedDocument(
        text="\f".join(parts), pages=pages, parser=PARSER, parser_version=f"{VERSION}+pypdf{pypdf.__version__}",
        date=pdf_date(reader),
    )
