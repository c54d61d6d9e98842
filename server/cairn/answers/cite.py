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
    """A passage close to a quote that is not in the sources: its similarity to the whole
    quote (0-100) and how much of the quote it covers (0-1, see `coverage`)."""

    place: Place
    score: float
    coverage: float = 1.0


# the least share of a quote a passage must cover to be offered as close to it: a word of the
# quote found alone ("man") or a heading sharing two of its words is no passage the writer meant
MEANINGFUL = 0.4


def coverage(quote: str, span: str) -> float:
    """How much of `quote` the passage `span` covers: the smaller of its share of the quote's
    length and its share of the quote's content words (compared by stem, as relevance compares
    them; a quote of stopwords only is judged by its length)."""
    from .relevance import content_words, term_keys

    wanted = " ".join(quote.split())
    if not wanted:
        return 0.0
    length = min(1.0, len(" ".join(span.split())) / len(wanted))
    words = term_keys(" ".join(content_words(wanted)))
    if not words:
        return length
    return min(length, len(words & term_keys(span)) / len(words))


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
    """The `n` passages most like the quote, among those covering a meaningful part of it
    (MEANINGFUL): each chunk's best partial alignment (rapidfuzz), widened to whole words, then
    ranked by its similarity to the whole quote, which falls with the share of the quote a
    passage lacks, so a fragment equal to one of the quote's words never comes before a passage
    holding most of it."""
    from rapidfuzz import fuzz

    wanted = " ".join(quote.split())
    if not wanted:
        return []
    scored = []
    for ch in _current(ws, sources):
        al = fuzz.partial_ratio_alignment(wanted, ch.text, score_cutoff=40)
        if al is None:
            continue
        s, e = _whole_words(ch.text, al.dest_start, al.dest_end)
        if e <= s:
            continue
        span = ch.text[s:e]
        cov = coverage(wanted, span)
        if cov < MEANINGFUL:
            continue
        scored.append((fuzz.ratio(wanted, " ".join(span.split())), cov, ch, s, e))
    scored.sort(key=lambda x: (-x[0], -x[1], x[2].source, x[2].start, x[3]))
    texts: dict[str, str | None] = {}
    return [Near(_place(ws, ch, s, e, texts), score, cov) for score, cov, ch, s, e in scored[:n]]


def _whole_words(t: str, s: int, e: int) -> tuple[int, int]:
    """The span [s, e) of `t` widened to whole words at both ends, its white space trimmed."""
    while 0 < s < e and t[s - 1].isalnum() and t[s].isalnum():
        s -= 1
    while s < e < len(t) and t[e - 1].isalnum() and t[e].isalnum():
        e += 1
    while s < e and t[s].isspace():
        s += 1
    while e > s and t[e - 1].isspace():
        e -= 1
    return s, e
