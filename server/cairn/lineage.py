"""Where a citation sits in its source (SPEC section 6): the tier of its
source, the parser lineage of the cited version, and for a text source the
line and column of the quote's start in the parsed text."""

from __future__ import annotations

import bisect
import re
from typing import Any

from .model import CitationResult
from .policy_checks import tier_of

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CACHE_MAX = 256  # versions whose line starts are kept per verifier


def annotate(verifier: Any, results: list[CitationResult]) -> None:
    """Fill authority, lineage and line:column of each citation whose chunk was found."""
    cache: dict = verifier.__dict__.setdefault("_lineage_cache", {})
    for r in results:
        ch = r.chunk
        if ch is None:
            continue
        r.authority = tier_of(verifier.ws, ch.source)
        span = r.current_span if r.resolved else None
        if span is not None and r.evidence is not None:
            where = r.evidence[0]  # the version that holds the quote now
            start = span.start
        else:
            where = ch
            start = ch.start + (r.citation.start or 0)
        info, starts = _version(verifier, cache, where.source, where.version)
        if info is None:
            continue
        if where is ch:
            r.lineage = info.lineage
        else:
            cited, _ = _version(verifier, cache, ch.source, ch.version)
            r.lineage = cited.lineage if cited is not None else info.lineage
        if starts is not None:
            line = bisect.bisect_right(starts, start) - 1
            r.source_line, r.source_column = line + 1, start - starts[line] + 1


def _version(verifier: Any, cache: dict, source: str, version: str):
    key = (source, version)
    got = cache.get(key)
    if got is None:
        if len(cache) > _CACHE_MAX:
            cache.clear()
        info = verifier.store.version_info(source, version)
        starts = None
        if info is not None and info.pages is None and _is_text(info.lineage):
            try:
                text = verifier.store.version_text(info.id)
                starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
            except KeyError:  # not proven to be Cairn's own: no line numbers from it
                starts = None
        got = cache[key] = (info, starts)
    return got


def _is_text(lineage: str) -> bool:
    from .sources import text

    return lineage.startswith(text.PARSER + "/")
