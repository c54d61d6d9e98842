"""Go to definition: from a citation to its span in the source file.

`.md` and `.txt` sources: the parsed text is the file's text (a leading BOM
aside), so the span's code-point offsets are placed exactly. A superseded
citation, or one of a `.html` or `.pdf` source (whose parsed text is not the
file's), opens the exact cited text as a `cairn-source:` document
(cited_text.py) when the client supports it. Otherwise a superseded or PDF
citation opens the same text written read-only to `.cairn/cited/` (SPEC
section 8: the exact cited version's text at the span); an HTML one, or one
whose file may not be written, today's file at its start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import from_fs_path

from ..core.model import CitationResult
from . import cited_text
from .state import DraftState, citation_index_at

if TYPE_CHECKING:
    from .views import FolderView

EXACT_SUFFIXES = (".md", ".txt")
_START = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0))


def cited_location(folder: FolderView, r: CitationResult, *, virtual: bool = False,
                   files: bool = False) -> types.Location | None:
    """Where a citation points in its source: with `virtual`, the cited version's
    own text for a superseded or non-plain-text source; with `files`, that text
    as a read-only file for a superseded or PDF citation; else the span of the
    quote when known, else the cited chunk while it is current, else the file's start."""
    ch = r.chunk
    if ch is None:
        return None
    if virtual and cited_text.needs_virtual(ch, EXACT_SUFFIXES):
        loc = cited_text.virtual_location(folder, r, from_fs_path(str(folder.root)) or folder.root.as_uri())
        if loc is not None:
            return loc
    elif files and cited_text.needs_cited_file(ch):
        loc = cited_text.file_location(folder, r)
        if loc is not None:
            return loc
    span = r.current_span
    source = span.source if span is not None else ch.source
    ws = folder.ws
    if not ws.allowed(source):
        return None
    path = ws.root / source
    if not path.is_file():
        return None
    uri = from_fs_path(str(path)) or path.as_uri()
    if not source.lower().endswith(EXACT_SUFFIXES):
        return types.Location(uri=uri, range=_START)
    if span is not None:
        start, end = span.start, span.end
    elif ch.current:
        start, end = ch.start, ch.end
    else:
        return types.Location(uri=uri, range=_START)
    info = ws.store.current_version(source)
    index = folder.texts.get(info.id) if info is not None else None
    if index is None:
        return types.Location(uri=uri, range=_START)
    return types.Location(uri=uri, range=index.lsp_range(folder.codec, start, end))


def definition(folder: FolderView, state: DraftState, line: int, *, virtual: bool = False,
               files: bool = False) -> list[types.Location] | None:
    found = state.claim_at(line)
    if found is None:
        return None
    shift, cr, _ = found
    rel = line - shift
    # on the claim's own text: every citation; on a cite block: the citation there
    if cr.claim.range.start.line <= rel <= cr.claim.range.end.line and not any(
        b.open_line <= rel <= b.close_line for b in cr.claim.blocks
    ):
        picks: list[int] | range = range(len(cr.citations))
    else:
        i = citation_index_at(cr, rel)
        picks = [] if i is None else [i]
    out = []
    for i in picks:
        loc = cited_location(folder, cr.citations[i], virtual=virtual, files=files)
        if loc is not None:
            out.append(loc)
    return out or None
