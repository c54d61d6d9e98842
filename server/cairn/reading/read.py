"""`read(text)`: a text's reading, parsed once and kept (in memory, by text)."""

from __future__ import annotations

import threading
import unicodedata
from collections import OrderedDict

from . import pipeline
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
    nlp = pipeline.load()
    if nlp is None:
        return None
    with _lock:  # spaCy's pipeline is not safe to call from two threads at once
        reading = build(nlp(text))
        _cache[text] = reading
        if len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return reading
