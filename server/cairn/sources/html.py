"""`.html`: the visible text, block elements separated by a blank line, no
script or style text, nothing of an element a browser does not show (the
`hidden` attribute, an inline style with `display: none` or `visibility:
hidden`). lxml parses; the walk is iterative so deeply nested pages cannot
exhaust the stack."""

from __future__ import annotations

import re

from ..core.model import ParsedDocument
from .base import SourceError

PARSER = "html-lxml"
VERSION = "2"  # 2: elements with `hidden` or an inline style that hides them are left out

BLOCK = frozenset(
    """address article aside blockquote body caption center dd details dialog dir div dl dt
    fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main
    menu nav ol p pre section summary table tbody td tfoot th thead tr ul legend option""".split()
)
HIDDEN = frozenset("script style noscript template head title meta link iframe object svg math".split())
DEEP = 1000
# Bounds read off the bytes before lxml parses: libxml2 compares each attribute of an element
# with the ones before it (150,000 attributes in one tag took half a minute), and it keeps a
# node of a few hundred bytes for every element (32 MB of `<p>x</p>` needed 1.7 GB).
MAX_ATTRIBUTES = 1000  # on one element
MAX_ELEMENTS = 400_000  # in one document
# a start tag: its name, then attributes (a quoted value may hold `>`), up to its `>`
_START_TAG = re.compile(rb"<[A-Za-z][^\s/>]*((?:[^>\"']+|\"[^\"]*\"|'[^']*')*)>?")
_ATTRIBUTE = re.compile(rb"[^\s\"'>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]*))?")
_WS = re.compile(r"[ \t\n\r\f\v]+")
# an inline style that hides the element and what it holds (`aria-hidden` does not: the text is shown)
_HIDING_STYLE = re.compile(r"(?:^|[;\s])(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))\s*(?:!\s*important\s*)?(?:;|$)",
                           re.IGNORECASE)


def _not_shown(el: object, tag: str) -> bool:
    """Does a browser leave this element out, with all it holds?"""
    if tag in HIDDEN:
        return True
    get = getattr(el, "get", None)
    if get is None:
        return False
    if get("hidden") is not None:
        return True
    style = get("style")
    return bool(style) and _HIDING_STYLE.search(style) is not None


def check_bounds(data: bytes) -> None:
    """Refuse (SourceError) a page over MAX_ELEMENTS start tags, or with an element over
    MAX_ATTRIBUTES attributes, before anything is parsed: one pass over the bytes."""
    elements = 0
    for tag in _START_TAG.finditer(data):
        elements += 1
        if elements > MAX_ELEMENTS:
            raise SourceError(f"HTML with over {MAX_ELEMENTS:,} elements: over the bound for one page, not parsed")
        body = tag.group(1)
        # two bytes at least per attribute: a short tag cannot be over
        if len(body) > 2 * MAX_ATTRIBUTES and sum(1 for _ in _ATTRIBUTE.finditer(body)) > MAX_ATTRIBUTES:
            line = data.count(b"\n", 0, tag.start()) + 1
            raise SourceError(f"HTML element with over {MAX_ATTRIBUTES:,} attributes (line {line}):"
                              " over the bound for one element, not parsed")


def _lineage() -> str:
    from lxml import etree

    return f"{VERSION}+lxml{etree.__version__}"


def parse_html(data: bytes) -> ParsedDocument:
    try:
        import lxml.html
        from lxml import etree
    except ImportError as exc:  # pragma: no cover - a dependency
        raise SourceError(f"HTML support is missing: {exc}") from exc
    if not data.strip():
        return ParsedDocument(text="", pages=None, parser=PARSER, parser_version=_lineage())
    check_bounds(data)
    try:
        parser = lxml.html.HTMLParser(encoding=None, remove_comments=True, huge_tree=True)
        root = lxml.html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError, etree.XMLSyntaxError) as exc:
        raise SourceError(f"cannot parse HTML: {exc}") from exc

    blocks: list[str] = []
    current: list[str] = []
    pre_depth = 0

    def flush() -> None:
        if not current:
            return
        raw = "".join(current)
        current.clear()
        if pre_depth:
            text = raw.strip("\n")
            lines = [ln.rstrip() for ln in text.split("\n")]
            text = "\n".join(ln for ln in lines)
        else:
            lines = [_WS.sub(" ", ln).strip() for ln in raw.split("\n")]
            text = "\n".join(ln for ln in lines if ln)
        if text.strip():
            # a blank line inside a block would split a chunk in two: close it
            blocks.append(re.sub(r"\n\s*\n", "\n", text))

    def add_text(s: str | None) -> None:
        if not s:
            return
        if pre_depth:
            current.append(s)
        else:
            current.append(s.replace("\n", " ").replace("\r", " "))

    # iterative walk over ("start", el) / ("end", el) events
    hidden = 0
    depth = max_depth = 0
    for event, el in etree.iterwalk(root, events=("start", "end")):
        tag = el.tag.lower() if isinstance(el.tag, str) else ""
        depth += 1 if event == "start" else -1
        max_depth = max(max_depth, depth)
        shut = _not_shown(el, tag)
        if event == "start":
            if hidden or shut:
                hidden += shut
                continue
            if tag in BLOCK:
                flush()
            if tag == "pre":
                pre_depth += 1
            if tag == "br":
                current.append("\n")
            add_text(el.text)
            continue
        if shut:
            hidden -= 1
        elif hidden:
            continue
        else:
            if tag in BLOCK:
                flush()
            if tag == "pre":
                pre_depth = max(0, pre_depth - 1)
        if not hidden:
            add_text(el.tail)
    flush()
    text = "\n\n".join(blocks)
    warnings = []
    if max_depth >= DEEP:
        warnings.append(
            f"HTML nested {max_depth} levels deep: the parser stops at its depth limit,"
            " so text inside the deepest part and after it may be missing"
        )
    from .dates import html_date

    return ParsedDocument(text=text, pages=None, parser=PARSER, parser_version=_lineage(), warnings=warnings,
                          date=html_date(root))

