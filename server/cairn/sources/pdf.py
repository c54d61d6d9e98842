"""`.pdf`: the text of each page, pages joined by a form feed, each page's
start offset recorded. pypdf extracts the text; the furniture repeated on every
page (running headers and footers, bare page numbers) is left out (see
strip_furniture), so it is never glued to the first or last paragraph of a page,
and a word hyphenated across a line break is joined (join_hyphenated)."""

from __future__ import annotations

import io
import logging
import re
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..core.model import ParsedDocument
from .base import SourceError

PARSER = "pdf-pypdf"
VERSION = "3"  # 2: running headers, footers and page numbers left out; 3: words hyphenated at a line end joined

# a word cut at the end of a line by a hyphen (`manip-` then `ulation`): a letter, the hyphen,
# the line break, and a lower-case letter going on. A capital after the break (`Anglo-` then
# `Saxon`), a digit, or a hyphen after a space (a dash) is left alone.
_LINE_END_HYPHEN = re.compile(r"(?<=[^\W\d_])-[ \t]*(?:\r\n|\r|\n)[ \t]*(?=[^\W\d_])(?=[^\W\d_A-Z\u00c0-\u00de])")


def join_hyphenated(text: str) -> str:
    """A page's text with the words hyphenated across a line break joined, as people read
    them (`manip-\nulation` reads `manipulation`); the offsets of the parsed text are
    those of the joined text."""
    return _LINE_END_HYPHEN.sub("", text)

# an edge line seen on at least this many pages (digits aside) is furniture
MIN_REPEATS = 3
MAX_FURNITURE_CHARS = 100
_BARE_NUMBER = re.compile(r"(?i)(?:page\s+)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:/|of)\s*\d{1,4})?")
_DIGITS = re.compile(r"\d+")
_TRAILING_NUMBER = re.compile(r"(?<![\d.,:/-])(\d{1,4})\s*$")

# The work pypdf does is in the operators it runs, not in the file's size: one content stream
# of 300,000 no-ops shared by 20 pages is a 6 KB file that took a minute. Operators are
# counted (an estimate that errs high: a short word in a text string counts too) in each
# page's content and the forms it draws, before its text is extracted.
MAX_PAGE_OPERATORS = 300_000
MAX_OPERATORS = 1_000_000  # in the whole document
MAX_SECONDS = 30.0  # extracting one document's text
_OPERATOR = re.compile(rb"(?<![/\w.#])[A-Za-z'\"*]{1,3}(?![\w])")


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


def _stream_bytes(obj: object) -> bytes:
    """The decoded bytes of a stream, or of an array of streams (a page's /Contents)."""
    get_object = getattr(obj, "get_object", None)
    obj = get_object() if get_object is not None else obj
    if isinstance(obj, list):
        return b"\n".join(_stream_bytes(item) for item in obj)
    get_data = getattr(obj, "get_data", None)
    return get_data() if get_data is not None else b""


def _operators(page: object) -> int:
    """An estimate (high, never low) of the operators extracting `page`'s text runs: those
    of its content and of the form XObjects its resources name (each drawn once at least)."""
    get = getattr(page, "get", None)
    if get is None:
        return 0
    content = _stream_bytes(get("/Contents"))
    count = len(_OPERATOR.findall(content))
    resources: Any = get("/Resources")
    resources = resources.get_object() if resources is not None else None
    forms: Any = resources.get("/XObject") if isinstance(resources, dict) else None
    forms = forms.get_object() if forms is not None else None
    if isinstance(forms, dict):
        for name, form in forms.items():
            form = form.get_object()
            if hasattr(form, "get") and form.get("/Subtype") == "/Form":
                # a form is run each time the page draws it (`/Name Do`)
                drawn = len(re.findall(re.escape(str(name).encode("latin-1", "replace")) + rb"\s*Do\b", content))
                count += max(1, drawn) * len(_OPERATOR.findall(_stream_bytes(form)))
    return count


def _check_operators(pages: Iterable[object]) -> None:
    """SourceError when a page, or the pages together, run more operators than the bounds."""
    operators = 0
    for number, page in enumerate(pages, 1):
        count = _operators(page)
        if count > MAX_PAGE_OPERATORS:
            raise SourceError(f"PDF page {number} runs about {count:,} content operators, over the"
                              f" bound of {MAX_PAGE_OPERATORS:,} for a page: not read")
        operators += count
        if operators > MAX_OPERATORS:
            raise SourceError(f"PDF pages 1 to {number} run about {operators:,} content operators, over the"
                              f" bound of {MAX_OPERATORS:,} for a document: not read")


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
        _check_operators(reader.pages)  # every page counted before any is run
        deadline = time.monotonic() + MAX_SECONDS
        for number, page in enumerate(reader.pages, 1):
            if time.monotonic() > deadline:
                raise SourceError(f"PDF text extraction took over {MAX_SECONDS:g} s by page {number}: not read")
            text = page.extract_text() or ""
            # a form feed inside a page would fake a page break
            text = join_hyphenated(text.replace("\f", " "))
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
