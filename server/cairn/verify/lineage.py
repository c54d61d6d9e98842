"""Where a citation sits in its source (SPEC section 6): the tier of its
source, the parser lineage of the cited version, and for a text source the
line and column of the quote's start in the parsed text."""

from __future__ import annotations

import bisect
import re
import threading
from array import array
from collections import OrderedDict
from itertools import accumulate, repeat
from operator import add
from typing import Any

from ..core.model import CitationResult
from .policy import tier_of

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CACHE_MAX = 8192  # versions whose lineage is kept per verifier (least recently used go first)
_STARTS_BUDGET = 4_000_000  # line starts kept in the process, all versions together (8 bytes each)
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


def _version(verifier: Any, cache: dict, source: str, version: str) -> Any:
    key = (source, version)
    got = cache.get(key)
    if got is None:
        while len(cache) >= _CACHE_MAX:
            del cache[next(iter(cache))]  # the oldest entry (dicts keep insertion order)
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
    got = _starts_of(text)
    global _starts_size
    with _starts_lock:
        _starts[key] = got
        _starts_size += len(got)
        while _starts_size > _STARTS_BUDGET and len(_starts) > 1:
            _, dropped = _starts.popitem(last=False)
            _starts_size -= len(dropped)
    return got


_starts_size = 0


def _starts_of(text: str) -> array:
    """Where each line starts: after every \\n, \\r\\n or lone \\r. Without a \\r the
    lines' lengths are summed in C (a loop over the matches costs ten times more)."""
    if "\r" in text:
        got = array("q", [0])
        got.extend(m.end() for m in _LINE_BREAK.finditer(text))
        return got
    lines = text.split("\n")
    return array("q", accumulate(map(add, map(len, lines[:-1]), repeat(1)), initial=0))


def _is_text(lineage: str) -> bool:
    from ..sources import text

    return lineage.startswith(text.PARSER + "/")
