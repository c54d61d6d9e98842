"""Turning a passage into a citation (`cairn cite QUOTE`, SPEC section 6).

A quote is looked for in the current chunks with loose white space: any run
of white space in the quote matches any run in the source (line breaks and
indentation of plain-text sources), and the citation's quote is the source's
own text at that span, so it verifies exactly. When the quote is nowhere, the
closest passages are offered instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.model import Chunk
from ..index.workspace import Workspace


@dataclass(frozen=True, slots=True)
class Place:
    """Where a quote sits: its chunk, its offsets in the chunk, and for a person
    the source line (1-based) and the sentence that holds it."""

    chunk: Chunk
    start: int
    end: int
    line: int
    sentence: str

    @property
    def quote(self) -> str:
        return self.chunk.text[self.start:self.end]

    def citation(self) -> dict:
        """The citation's fields, as the editor's quick-fixes and completion write them."""
        from ..drafts.fields import citation_values

        return citation_values(self.chunk, self.start, self.end)


@dataclass(frozen=True, slots=True)
class Near:
    """A passage close to a quote that is not in the sources: its similarity (0-100)."""

    place: Place
    score: float


def loose_pattern(quote: str) -> re.Pattern[str] | None:
    """The quote with each run of white space matching any run of white space."""
    words = quote.split()
    if not words:
        return None
    return re.compile(r"\s+".join(re.escape(w) for w in words))


def _current(ws: Workspace, sources: list[str] | None) -> list[Chunk]:
    return [c for c in ws.store.current_chunks(sources) if ws.allowed(c.source)]


def find_places(ws: Workspace, quote: str, sources: list[str] | None = None, limit: int = 50) -> list[Place]:
    """Every place of the current sources (of `sources` only, when given) holding the quote."""
    pat = loose_pattern(quote)
    if pat is None:
        return []
    words = re.findall(r"[^\W_]+", quote)
    candidates: list[Chunk] = []
    if words:
        only = set(sources) if sources is not None else None
        readable = ws.readable_sources(None if only is None else only.__contains__)
        candidates = [c for c in ws.store.search_words(words[:8], limit=2000, readable=readable)
                      if ws.allowed(c.source) and (only is None or c.source in only)]
    places = _scan(ws, pat, candidates, limit)
    if not places:  # the full-text search may tokenise differently: every chunk decides
        places = _scan(ws, pat, _current(ws, sources), limit)
    return places


def _scan(ws: Workspace, pat: re.Pattern[str], chunks: list[Chunk], limit: int) -> list[Place]:
    out: list[Place] = []
    seen: set[tuple[str, int]] = set()
    texts: dict[str, str | None] = {}
    for ch in sorted(chunks, key=lambda c: (c.source, c.start)):
        for m in pat.finditer(ch.text):
            key = (ch.source, ch.start + m.start())
            if key in seen:
                continue
            seen.add(key)
            out.append(_place(ws, ch, m.start(), m.end(), texts))
            if len(out) >= limit:
                return out
    return out


def _place(ws: Workspace, ch: Chunk, s: int, e: int, texts: dict[str, str | None]) -> Place:
    if ch.source not in texts:
        info = ws.store.current_version(ch.source)
        texts[ch.source] = ws.store.version_text(info.id) if info is not None else None
    doc = texts[ch.source]
    line = doc.count("\n", 0, ch.start + s) + 1 if doc is not None else 0
    try:
        from ..meaning import sentence_around

        a, b = sentence_around(ch.text, s, e)
        sentence = ch.text[a:b]
    except Exception:  # noqa: BLE001 - the sentence is a hint for a person; the chunk text does as well
        sentence = ch.text
    return Place(ch, s, e, line, " ".join(sentence.split()))


def closest(ws: Workspace, quote: str, sources: list[str] | None = None, n: int = 3) -> list[Near]:
    """The `n` passages most like the quote (rapidfuzz's best partial alignment)."""
    from rapidfuzz import fuzz

    wanted = " ".join(quote.split())
    if not wanted:
        return []
    scored = []
    for ch in _current(ws, sources):
        al = fuzz.partial_ratio_alignment(wanted, ch.text, score_cutoff=40)
        if al is not None:
            scored.append((al.score, ch, al.dest_start, al.dest_end))
    scored.sort(key=lambda x: (-x[0], x[1].source, x[1].start))
    texts: dict[str, str | None] = {}
    out = []
    for score, ch, s, e in scored[:n]:
        t = ch.text
        while 0 < s < e and t[s - 1].isalnum() and t[s].isalnum():  # whole words at both ends
            s -= 1
        while s < e < len(t) and t[e - 1].isalnum() and t[e].isalnum():
            e += 1
        while s < e and ch.text[s].isspace():
            s += 1
        while e > s and ch.text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append(Near(_place(ws, ch, s, e, texts), score))
    return out
