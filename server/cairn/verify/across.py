"""A quote that is in a source's text but in no one chunk of it: it runs across a chunk
boundary (two paragraphs, or a paragraph cut at `chunk_chars`). Such a quote cannot be cited
as one span; the writer is told to cite each part, not that the quote is nowhere."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import anchor

if TYPE_CHECKING:
    from ..core.model import Chunk
    from ..store.base import IndexStore

# the longest source text searched for such a quote, so a huge source costs a bounded scan
MAX_TEXT = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Across:
    """Where a quote sits in a source's current text, and the chunks it runs over (two or more)."""

    source: str
    start: int  # in the source's parsed text
    end: int
    chunks: tuple[Chunk, ...]

    def message(self) -> str:
        n = len(self.chunks)
        ids = ", ".join(c.chunk_id for c in self.chunks)
        return (f"the quote runs across {'two' if n == 2 else n} paragraphs of {self.source} (chunks {ids}):"
                " cite each part in its own citation")


def runs_across(store: IndexStore, quote: str, sources: Iterable[str]) -> Across | None:
    """The first current source (of `sources`) whose parsed text holds `quote` (up to white space,
    quote marks and dashes) over a chunk boundary; None when none does."""
    words = quote.split()
    if len(words) < 2:
        return None
    current = store.current_versions()
    plain = [w for w in words if w.isalnum()]  # a word folding leaves as it is: a safe first filter
    first = max(plain, key=len) if plain else ""
    for source in sources:
        info = current.get(source)
        if info is None:
            continue
        try:
            text = store.version_text(info.id)
        except KeyError:
            continue
        if len(text) > MAX_TEXT or first not in text:
            continue
        for s, e in anchor.loose_find(quote, text):
            over = tuple(c for c in store.current_chunks([source]) if c.start < e and c.end > s)
            if len(over) >= 2:
                return Across(source, s, e, over)
    return None
