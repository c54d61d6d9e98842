"""The passages of the current sources about a claim: the store's full-text ranking over the
claim's words, among the sources the principal may read. The evidence search of `cairn cite
--for` (answers/evidence.py) and the search for contradicting sources (verify/conflicts.py)
both start here."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.model import Chunk
from ..meaning.quantities import extract
from ..support import STOPWORDS

if TYPE_CHECKING:
    from ..store import IndexStore

_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")


def query_words(claim: str) -> list[str]:
    """The words to search the sources for: the claim's numbers and names first
    (they say most about which passage is meant), then its other content words."""
    numbers = [q.text for q in extract(claim) if q.kind in ("number", "identifier", "date")]
    words = _WORD.findall(claim)
    names = [w for i, w in enumerate(words) if i > 0 and w[:1].isupper()]
    rest = [w for w in words if w.lower() not in STOPWORDS]
    out: list[str] = []
    seen: set[str] = set()
    for w in [t for n in numbers for t in _WORD.findall(n)] + names + rest:
        key = w.lower()
        if key not in seen:
            seen.add(key)
            out.append(w)
    return out


SPELLING = {"licence": "license", "licences": "licenses", "licenced": "licensed", "licencing": "licensing"}


def variants(word: str) -> list[str]:
    """The word and its regular inflections, as the full-text index (which does not stem)
    must be asked for them: "stand" also finds "stands", "grants" also "grant"."""
    w = SPELLING.get(word.lower(), word.lower())
    out = [w]
    if w.isdigit() or len(w) < 3:
        return out
    if w.endswith("ies"):
        out.append(w[:-3] + "y")
    elif w.endswith("es") and len(w) > 4:
        out += [w[:-2], w[:-1]]
    elif w.endswith("s") and not w.endswith("ss"):
        out.append(w[:-1])
    else:
        out.append(w + ("es" if w.endswith(("s", "x", "z", "ch", "sh")) else "s"))
    if w.endswith("ed") and len(w) > 4:
        out += [w[:-2], w[:-1]]
    if w != word.lower():
        out.append(word.lower())
    return list(dict.fromkeys(out))


CANDIDATES = 30  # chunks the full-text ranking hands to the support check


def retrieve(store: IndexStore, claim: str, n: int = CANDIDATES, *,
             readable: Sequence[str] | None = None) -> list[Chunk]:
    """The `n` current chunks the store's full-text ranking finds best for the
    claim's words (each word once; numbers and names first), among the `readable`
    sources only when given (Workspace.readable_sources: the principal's)."""
    words = list(dict.fromkeys(v for w in query_words(claim) for v in variants(w)))
    ranked = store.rank(words, n, readable=readable) if words else []
    return ranked + holding_versions(store, claim, {c.chunk_id for c in ranked}, readable=readable)


_DOTTED = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![^\W_]|\.\d)")
VERSION_HITS = 10  # chunks holding one of the text's dotted numbers, beside the ranking's


def as_written(dotted: str) -> re.Pattern[str]:
    """A dotted number as written, not as part of a longer one (`1.2.13`, not in 1.2.13.1 or 11.2.13)."""
    return re.compile(r"(?<![\d.])" + re.escape(dotted) + r"(?!\d|\.\d)")


def holding_versions(store: IndexStore, text: str, seen: frozenset[str] | set[str] = frozenset(),
                     n: int = VERSION_HITS, *, readable: Sequence[str] | None = None) -> list[Chunk]:
    """Up to `n` current chunks (none of `seen`) holding a dotted number of `text` as written
    (`1.2.13`, not 1.2.13.1): the full-text index cuts `1.2.13` into 1, 2 and 13, numbers that
    half a changelog holds, so its ranking alone crowds out the entry of that release."""
    out: list[Chunk] = []
    for dotted in dict.fromkeys(_DOTTED.findall(text)):
        exact = as_written(dotted)
        for ch in store.search_words(dotted.split("."), limit=200, readable=readable):
            if len(out) >= n:
                return out
            if ch.chunk_id not in seen and exact.search(ch.text):
                seen = seen | {ch.chunk_id}
                out.append(ch)
    return out
