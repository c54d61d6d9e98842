"""Where a citation sits in its source (SPEC section 6): the tier of its
source, the parser lineage of the cited version, and for a text source the
line and column of the quote's start in the parsed text."""

from __future__ import annotations

import bisect
import re
import threading
from array import array
from collections import OrderedDict
from typing import Any

from .model import CitationResult
from .policy_checks import tier_of

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CACHE_MAX = 256  # versions whose lineage is kept per verifier
_STARTS_MAX = 128  # versions whose line starts are kept in the process (versions never change)
_starts: OrderedDict[tuple, array] = OrderedDict()
_starts_lock = threading.Lock()


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
            starts = _line_starts(verifier.store, info)
        got = cache[key] = (info, starts)
    return got


def _line_starts(store: Any, info: Any) -> array | None:
    """The offset where each line of a stored version's text starts (shared by
    every verifier of the process: a version's text never changes)."""
    key = (store.where, info.id, info.source, info.version, info.lineage)
    with _starts_lock:
        got = _starts.get(key)
        if got is not None:
            _starts.move_to_end(key)
            return got
    try:
        text = store.version_text(info.id)
    except KeyError:  # not proven to be Cairn's own: no line numbers from it
        return None
    got = array("q", [0])
    got.extend(m.end() for m in _LINE_BREAK.finditer(text))
    with _starts_lock:
        _starts[key] = got
        while len(_starts) > _STARTS_MAX:
            _starts.popitem(last=False)
    return got


def _is_text(lineage: str) -> bool:
    from .sources import text

    return lineage.startswith(text.PARSER + "/")
