"""`.pdf`: the text of each page, pages joined by a form feed, each page's
start offset recorded. pypdf extracts the text."""

from __future__ import annotations

import io
import logging

from ..model import ParsedDocument
from . import SourceError

PARSER = "pdf-pypdf"
VERSION = "1"


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
            except Exception as exc:  # noqa: BLE001 - pypdf raises many kinds
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
    except (PdfReadError, Exception) as exc:  # noqa: BLE001 - corrupt files raise anything
        raise SourceError(f"cannot read PDF: {exc.__class__.__name__}: {exc}") from exc
    if not parts:
        raise SourceError("PDF has no pages")
    from .dates import pdf_date

    return ParsedDocument(
        text="\f".join(parts), pages=pages, parser=PARSER, parser_version=f"{VERSION}+pypdf{pypdf.__version__}",
        date=pdf_date(reader),
    )
