"""Hover on a claim or any line of its cite blocks: the verdict, the support
score against the threshold, the missing tokens, and for each citation its
source, page, version and the quote shown inside the source's text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ..core.chunking import page_of
from ..core.model import CitationResult, ClaimResult, Pos, Range
from ..verify.verifier import short
from .markdown import escape, in_context
from .reuse import hover_text as reuse_hover
from .state import citation_index_at

if TYPE_CHECKING:
    from .checking import Folder
    from .positions import Codec
    from .state import DraftState

def _context(folder: Folder, r: CitationResult) -> tuple[str, str | None]:
    """(Markdown of the quote in its source, a note) for one citation."""
    ch = r.chunk
    cit = r.citation
    span = r.current_span
    if ch is None:
        quote = escape(cit.quote or "")
        return (f"*{quote}*" if quote else ""), None
    if span is not None:
        if ch.current and span.source == ch.source and ch.start <= span.start and span.end <= ch.end:
            return in_context(ch.text, span.start - ch.start, span.end - ch.start), None
        info = folder.ws.store.current_version(span.source)
        index = folder.texts.get(info.id) if info is not None else None
        if index is not None:
            return in_context(index.text, span.start, span.end), None
        return f"*{escape(cit.quote or '')}*", None
    # not resolved: show what the cited chunk says where the citation points
    s = min(max(cit.start or 0, 0), len(ch.text))
    e = min(max(cit.end or s, s), len(ch.text))
    note = "the quote is not in this chunk; it reads here:" if ch.current else \
        f"chunk of an earlier version ({short(ch.version)}); it read:"
    return in_context(ch.text, s, e), note


def _page(folder: Folder, r: CitationResult) -> int | None:
    span, ch = r.current_span, r.chunk
    if span is not None and ch is not None and span.source == ch.source and ch.current:
        if ch.start <= span.start < ch.end:
            return ch.page
    if span is not None:
        info = folder.ws.store.current_version(span.source)
        return page_of(info.pages, span.start) if info is not None else None
    return ch.page if ch is not None else None


def verdict_line(cr: ClaimResult, threshold: float) -> str:
    head = "✅ **Supported**" if cr.supported else "❌ **Not supported**"
    if cr.support_score is None:
        score = "support n/a (no resolved quote)"
    else:
        cmp = "≥" if cr.support_score >= threshold else "<"
        score = f"support {cr.support_score:.2f} {cmp} threshold {threshold:g}"
    return f"{head} · {score} · {cr.judge}"


def hover_markdown(folder: Folder, cr: ClaimResult, only: int | None = None, *, virtual: bool = False) -> str:
    threshold = folder.settings.config.threshold
    parts = [verdict_line(cr, threshold)]
    if cr.missing:
        shown = ", ".join(escape(m) for m in cr.missing[:20]) + (" …" if len(cr.missing) > 20 else "")
        parts.append(f"Missing from the quotes: {shown}")
    if len(cr.parts) > 1 or cr.joint:
        rows = []
        for p in cr.parts:
            by = ", ".join(str(i + 1) for i in p.citations) or "none"
            sc = "n/a" if p.score is None else f"{p.score:.2f}"
            rows.append(f"- {'✅' if p.supported else '⚠️'} {sc} · {escape(p.text)} · citation {by}")
        joint = " (joint: no single quote backs the whole claim)" if cr.joint and cr.supported else ""
        parts.append(f"Each part alone{joint}:\n" + "\n".join(rows))
    failing = [d for d in cr.diagnostics if d.citation is None and d.code not in ("block-syntax",)]
    for d in failing:
        parts.append(f"`{d.code}`{' (ignored)' if d.ignored else ''}: {escape(d.message)}")
    for i in range(len(cr.citations)):
        if only is not None and i != only:
            continue
        parts.append("---")
        parts.append(citation_markdown(folder, cr, i, virtual=virtual))
    for d in cr.diagnostics:
        if d.code == "block-syntax" and d.citation is None:
            parts.append(f"`block-syntax`: {escape(d.message)}")
    return "\n\n".join(parts)


def citation_markdown(folder: Folder, cr: ClaimResult, i: int, *, virtual: bool = False) -> str:
    r = cr.citations[i]
    cit = r.citation
    ch = r.chunk
    source = (r.current_span.source if r.current_span else None) or (ch.source if ch else None) or cit.source or "?"
    bits = [f"`{source}`"]
    page = _page(folder, r)
    if page:
        bits.append(f"p.{page}")
    version = None
    if r.current_span is not None and ch is not None and not ch.current:
        info = folder.ws.store.current_version(source)
        version = info.version if info is not None else None
    elif ch is not None:
        version = ch.version
    elif cit.version:
        version = cit.version
    if version:
        bits.append(f"version `{short(version)}`")
    if r.date:
        bits.append(f"dated {r.date}")
    codes = [d.code + (" (ignored)" if d.ignored else "") for d in cr.diagnostics if d.citation is cit]
    state = "resolved" if r.resolved else "unresolved"
    if codes:
        state += " · " + ", ".join(f"`{c}`" for c in codes)
    n = f"**{i + 1}.** " if len(cr.citations) > 1 else ""
    lines = [n + " · ".join(bits) + f" · {state}"]
    denied = any(d.code == "source-denied" and d.citation is cit for d in cr.diagnostics)
    # a source the current principal may not read: not even the draft's quote of it is repeated
    text, note = ("", None) if denied else _context(folder, r)
    if r.authority:
        lines[0] += f" · authority `{r.authority}`"
    if note:
        lines.append(f"*{note}*")
    if text:
        lines.append("> " + text)
    for d in cr.diagnostics:
        if d.citation is cit:
            lines.append(f"`{d.code}`: {escape(d.message)}")
    link = cited_text_link(folder, r) if virtual else None
    if link:
        lines.append(link)
    return "\n\n".join(lines)


def cited_text_link(folder: Folder, r: CitationResult) -> str | None:
    """A link to the exact cited text (a superseded version, a PDF page) as a
    cairn-source: document, at the span (`#L<line>,<column>`, 1-based)."""
    from pygls.uris import from_fs_path

    from . import cited_text
    from .definition import EXACT_SUFFIXES

    if r.chunk is None or not cited_text.needs_virtual(r.chunk, EXACT_SUFFIXES):
        return None
    loc = cited_text.virtual_location(folder, r, from_fs_path(str(folder.root)) or folder.root.as_uri())
    if loc is None:
        return None
    start = loc.range.start
    paged = r.chunk.page and r.chunk.source.lower().endswith(cited_text.PAGED)
    what = f"page {r.chunk.page} of " if paged else ""
    return f"[Open the cited text ({what}version {short(r.chunk.version)})]({loc.uri}#L{start.line + 1},{start.character + 1})"


def hover(folder: Folder, state: DraftState, codec: Codec, line: int, *, virtual: bool = False) -> types.Hover | None:
    found = state.claim_at(line)
    if found is None:
        return None
    shift, cr, seg = found
    rel = line - shift
    c = cr.claim
    only = None
    rng = c.range
    for b in c.blocks:
        if b.open_line <= rel <= b.close_line:
            i = citation_index_at(cr, rel)
            # on one citation of a block holding several: that citation only
            if i is not None and len(b.citations) > 1 and rel not in (b.open_line, b.close_line):
                only = i
            end_line = b.close_line
            end_col = len(seg.lines[end_line]) if end_line < len(seg.lines) else 0
            rng = Range(Pos(b.open_line, 0), Pos(end_line, end_col))
            break
    value = hover_markdown(folder, cr, only, virtual=virtual)
    index = getattr(folder, "reuse", None)
    if index is not None:
        also = reuse_hover(index, state, cr, shift, only)  # every claim citing the same span
        if also:
            value += "\n\n---\n\n" + also
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value),
        range=codec.range(seg.lines, rng, shift),
    )
