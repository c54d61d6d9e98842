"""A source's date from its own metadata: Markdown front matter `date`, an HTML
`<meta>` date or the first `<time datetime>`, a PDF's creation date. Every
date is kept as `YYYY-MM-DD`; a value that is no date is no date (None).

(A source policy's `date` takes precedence over all of these: see
cairn.dates.source_date, where it is read.)
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

_ISO = re.compile(r"\s*(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\s*$")
_PDF = re.compile(r"\s*(?:D:)?(\d{4})(\d{2})?(\d{2})?")
_FRONT = re.compile(r"---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)", re.S)
_META_NAMES = ("date", "dc.date", "dcterms.date", "dc.date.issued", "dcterms.issued", "dcterms.created",
               "article:published_time", "citation_publication_date", "citation_date", "pubdate",
               "publication_date", "og:published_time")


def normalise(value: str | None) -> str | None:
    """`YYYY-MM-DD` for an ISO date or date-time (its calendar date), else None."""
    if not isinstance(value, str):
        return None
    m = _ISO.match(value)
    if m is None:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
    except ValueError:
        return None


def markdown_date(text: str) -> str | None:
    """The `date` of a Markdown file's front matter (a YAML block between `---` lines at its start)."""
    m = _FRONT.match(text)
    if m is None:
        return None
    import yaml

    try:
        data = yaml.load(m.group(1), Loader=yaml.BaseLoader)  # scalars stay strings
    except yaml.YAMLError:
        return None
    return normalise(data.get("date")) if isinstance(data, dict) else None


def html_date(root: Any) -> str | None:  # an lxml element
    """A date `<meta>` (name or property among the usual ones), else the first `<time datetime>`."""
    for el in root.iter("meta"):
        key = (el.get("name") or el.get("property") or el.get("itemprop") or "").strip().lower()
        if key in _META_NAMES:
            got = normalise(el.get("content"))
            if got:
                return got
    for el in root.iter("time"):
        got = normalise(el.get("datetime"))
        if got:
            return got
    return None


def pdf_date(reader: Any) -> str | None:  # a pypdf PdfReader
    """A PDF's creation date from its document information (`D:YYYYMMDD…`)."""
    try:
        info = reader.metadata
        raw = info.get("/CreationDate") if info is not None else None
    except Exception:  # noqa: BLE001 - a damaged info dictionary is no date, not a failed parse
        return None
    if raw is None:
        return None
    m = _PDF.match(str(raw))
    if m is None or m.group(2) is None or m.group(3) is None:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
    except ValueError:
        return None
