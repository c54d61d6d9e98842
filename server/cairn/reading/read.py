"""`read(text)`: a text's reading, parsed once and kept (in memory, by text,
and between runs in the user's cache: `kept`); `prime(texts)` reads many at
once, in batches (the parser is about twice as fast on a batch)."""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable

from . import kept, pipeline
from .build import build
from .model import Reading

CACHE_SIZE = 20000
_cache: OrderedDict[str, Reading] = OrderedDict()
_lock = threading.Lock()
_LONGEST = 20000  # characters: a longer text is not read (a whole file is not a sentence)


def available() -> tuple[bool, str]:
    """Whether the reader can run (loading the pipeline if it was not yet), and if not, why."""
    nlp = pipeline.load()
    return nlp is not None, pipeline.reason() or ""


def normal(text: str) -> str:
    """The form both sides are read in: NFKC (so MICRO SIGN and GREEK MU are one letter)."""
    return unicodedata.normalize("NFKC", text)


def read(text: str) -> Reading | None:
    """The reading of `text` (NFKC-normalised), or None when the reader is unavailable or the text too long."""
    text = normal(text)
    with _lock:
        got = _cache.get(text)
        if got is not None:
            _cache.move_to_end(text)
            return got
    if len(text) > _LONGEST:
        return None
    reading = kept.get(text)
    if reading is not None:
        _remember(text, reading)
        return reading
    nlp = pipeline.load()
    if nlp is None:
        return None
    with _lock:  # spaCy's pipeline is not safe to call from two threads at once
        reading = build(nlp(text))
    _remember(text, reading)
    kept.put(text, reading)
    return reading


def _remember(text: str, reading: Reading) -> None:
    with _lock:
        _cache[text] = reading
        _cache.move_to_end(text)
        if len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


BATCH = 64


def prime(texts: Iterable[str]) -> int:
    """Read these texts ahead, in batches, so that `read` finds them made; the
    number parsed (texts kept in memory or between runs are not parsed again)."""
    todo: dict[str, None] = {}
    for t in texts:
        t = normal(t)
        if len(t) > _LONGEST or t in todo:
            continue
        with _lock:
            if t in _cache:
                continue
        got = kept.get(t)
        if got is not None:
            _remember(t, got)
        else:
            todo[t] = None
        if len(todo) >= CACHE_SIZE // 2:
            break  # what would not stay in memory until it is read is left to `read`
    if not todo:
        return 0
    nlp = pipeline.load()
    if nlp is None:
        return 0
    pending = list(todo)
    with _lock:
        docs = list(nlp.pipe(pending, batch_size=BATCH))
    for t, doc in zip(pending, docs):
        reading = build(doc)
        _remember(t, reading)
        kept.put(t, reading)
    return len(pending)
