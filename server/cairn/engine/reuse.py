"""One passage backing unrelated claims (`citation-reuse`).

An index from cited spans to the claims citing them, across the workspace's
answers. A span is the cited chunk and the offsets in it (`chunk_id`,
`start`, `end`: the chunk id names its text, so the same span in any
version). When a span also backs another claim that shares less than half of
this claim's content words, this claim's citation gets a warning naming the
other claims: the passage may have been attached to a claim it is not about.
It never fails the claim. A span cited by very many claims is compared with
its first `EXAMINED` citing claims only, so a draft of thousands of claims on
one passage stays linear (bench/binding_bench.py).

The CLI builds the index once over every checked answer (`annotate_results`,
`annotate_outs`); the language server keeps one per workspace folder and
replaces a draft's entries whenever that draft is checked (`SpanIndex.replace`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.model import CitationResult, Claim, ClaimResult, Diagnostic, DraftResult
from ..support import STOPWORDS, stem

if TYPE_CHECKING:
    from ..report.base import CitationOut, DraftOut

CODE = "citation-reuse"
SHARED_MIN = 0.5  # a claim sharing at least this share of the other's content words is related
SHOWN = 5  # other claims a message names
EXAMINED = 30  # claims citing one span compared with a claim, at most (keeps a huge draft linear)
_WORD = re.compile(r"[^\W\d_]+")  # words are runs of letters (numbers are no words)

Span = tuple[str, int, int]  # (chunk_id, start, end)


@dataclass(frozen=True, slots=True)
class Use:
    """A claim citing a span: its draft (workspace-relative), its 1-based line and its text."""

    path: str
    line: int
    text: str


@lru_cache(maxsize=65536)
def content_words(text: str) -> frozenset[str]:
    words = _WORD.findall(unicodedata.normalize("NFKC", text).casefold())
    return frozenset(stem(w) for w in words if w not in STOPWORDS)


def unrelated(mine: str, other: str) -> bool:
    """Does `other` share less than half of `mine`'s content words?"""
    a = content_words(mine)
    if not a:
        return False
    return len(a & content_words(other)) / len(a) < SHARED_MIN


def span_of(r: CitationResult | CitationOut) -> Span | None:
    """The span a resolved citation cites (a CitationResult or its report form)."""
    c: Any = getattr(r, "citation", r)  # a Citation or the report's CitationOut
    if not getattr(r, "resolved", False) or not c.chunk_id or c.start is None or c.end is None:
        return None
    return (c.chunk_id, c.start, c.end)


class SpanIndex:
    """Spans -> the claims citing them, kept per draft so one draft's entries can be replaced."""

    def __init__(self) -> None:
        self._by_path: dict[str, list[tuple[Span, Use]]] = {}
        self._by_span: dict[Span, list[Use]] = {}
        self._words: dict[str, frozenset[str]] = {}  # claim text -> its content words, while indexed
        self._uses = 0  # entries in _by_span (the same as in _by_path), kept as they change

    def replace(self, path: str, uses: list[tuple[Span, Use]]) -> set[str]:
        """Put `path`'s entries in place of its old ones; returns the other drafts
        citing a span whose claims changed (their warnings may change too)."""
        old = self._by_path.pop(path, [])
        if old == uses:
            self._by_path[path] = uses
            return set()
        touched: set[Span] = set()
        self._uses += len(uses) - len(old)
        for span in {span for span, _ in old}:
            kept = [u for u in self._by_span.get(span, ()) if u.path != path]
            if kept:
                self._by_span[span] = kept
            else:
                self._by_span.pop(span, None)
            touched.add(span)
        for span, use in uses:
            self._by_span.setdefault(span, []).append(use)
            touched.add(span)
            if use.text not in self._words:
                self._words[use.text] = content_words(use.text)
        if len(self._words) > 4 * self._uses + 1024:
            live = {u.text for v in self._by_span.values() for u in v}  # forget texts no longer cited
            self._words = {t: w for t, w in self._words.items() if t in live}
        if uses:
            self._by_path[path] = uses
        return {u.path for s in touched for u in self._by_span.get(s, ()) if u.path != path}

    def remove(self, path: str) -> set[str]:
        return self.replace(path, [])

    def users(self, span: Span) -> list[Use]:
        return list(self._by_span.get(span, ()))

    def unrelated_to(self, span: Span, me: Use) -> list[Use]:
        """The other claims citing `span` that share less than half of `me`'s content words."""
        mine = content_words(me.text)
        if not mine:
            return []
        need = len(mine) * SHARED_MIN
        words = self._words
        mp, ml, mt = me.path, me.line, me.text
        seen: set[tuple[str, int]] = set()
        out = []
        for u in self._by_span.get(span, ())[:EXAMINED]:
            if (u.line == ml and u.path == mp) or u.text == mt:
                continue
            theirs = words.get(u.text)
            if theirs is None:
                theirs = content_words(u.text)
            if len(mine & theirs) < need:
                key = (u.path, u.line)
                if key in seen:
                    continue  # one claim citing the span twice
                seen.add(key)
                out.append(u)
                if len(out) > SHOWN:
                    break  # enough to name: a span behind that many claims is worth a look either way
        return out


def message(others: list[Use]) -> str:
    shown = "; ".join(f"\u201c{_short(u.text)}\u201d ({u.path}:{u.line})" for u in others[:SHOWN])
    more = " and more" if len(others) > SHOWN else ""
    return f"the same span also backs {shown}{more}, which shares less than half of this claim's words"


def _short(text: str, n: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= n else flat[: n - 1] + "\u2026"


def backed_text(text: str, parts: Sequence[Any], i: int) -> str:
    """What citation `i` of a claim backs: the parts its quote backs (verify/parts.py), or the whole
    claim when it has one part or the citation backs none. A span backing one part of a joint claim
    is compared with that part, not with the parts other quotes back."""
    if len(parts) < 2:
        return text
    mine = [p.text for p in parts if i in p.citations]
    return " ".join(mine) if mine else text


def claim_uses(path: str, claims: list[ClaimResult], shift: int = 0) -> list[tuple[Span, Use]]:
    """The entries of one draft's (or draft piece's) verified claims, lines moved by `shift`."""
    out = []
    for cr in claims:
        for i, r in enumerate(cr.citations):
            span = span_of(r)
            if span is not None:
                out.append((span, Use(path, cr.claim.line + shift + 1, backed_text(cr.claim.text, cr.parts, i))))
    return out


# -- the command line ------------------------------------------------------------------


def out_uses(d: DraftOut) -> list[tuple[Span, Use]]:
    """The entries of one answer's report entry."""
    uses = []
    for c in d.claims:
        for i, x in enumerate(c.citations):
            s = span_of(x)
            if s is not None:
                uses.append((s, Use(d.path, c.line, backed_text(c.text, c.parts, i))))
    return uses


def _fill(index: SpanIndex, entries: Iterable[tuple[str, list[tuple[Span, Use]]]]) -> None:
    """Put each answer's entries in the index, those of one file together (a .jsonl file's answers
    share its path, and `replace` puts a path's entries in place of the ones before)."""
    by_path: dict[str, list[tuple[Span, Use]]] = {}
    for path, uses in entries:
        by_path.setdefault(path, []).extend(uses)
    for path, uses in by_path.items():
        index.replace(path, uses)


def _elsewhere_index(elsewhere: Sequence[DraftOut], checked: set[str]) -> SpanIndex:
    """An index holding the workspace's other answers (those not checked in this run): a span backing
    a claim of the workspace is found whichever answers the command line names."""
    index = SpanIndex()
    _fill(index, ((d.path, out_uses(d)) for d in elsewhere if d.path not in checked))
    return index


def annotate_results(results: list[DraftResult], elsewhere: Sequence[DraftOut] = ()) -> None:
    """Add `citation-reuse` to the claims of verified drafts (all of one run); `elsewhere`: the report
    entries of the workspace's other answers, whose claims count but get no warning here."""
    index = _elsewhere_index(elsewhere, {d.path for d in results})
    _fill(index, ((d.path, claim_uses(d.path, d.claims)) for d in results))
    for d in results:
        for i, cr in enumerate(d.claims):
            found = []
            for k, r in enumerate(cr.citations):
                me = Use(d.path, cr.claim.line + 1, backed_text(cr.claim.text, cr.parts, k))
                span = span_of(r)
                others = index.unrelated_to(span, me) if span is not None else []
                if not others:
                    continue
                cit = r.citation
                where = cit.line_of("quote") or (cit.block.fence_range if cit.block is not None else cr.claim.range)
                # (a claim line moved by the caller: the quote line moves with it)
                line = where.start.line + (cr.claim.line - cr.claim.range.start.line
                                           if cr.claim.range.start.line != cr.claim.line else 0)
                found.append(Diagnostic(CODE, message(others), line, where, citation=cit,
                                        ignored=CODE in cr.claim.ignored))
            if found:  # a new result: the caller's (the server's cached) results are never changed
                d.claims[i] = replace(cr, diagnostics=[*cr.diagnostics, *found])


def annotate_outs(outs: list[DraftOut], root: Path, elsewhere: Sequence[DraftOut] = ()) -> None:
    """The same over report entries (cached verdicts): the `quote:` lines are read
    again from the drafts that have a warning."""
    from ..report.base import DiagnosticOut

    index = _elsewhere_index(elsewhere, {d.path for d in outs})
    _fill(index, ((d.path, out_uses(d)) for d in outs))
    for d in outs:
        parsed = None
        for ci, c in enumerate(d.claims):
            for ri, x in enumerate(c.citations):
                me = Use(d.path, c.line, backed_text(c.text, c.parts, ri))
                span = span_of(x)
                others = index.unrelated_to(span, me) if span is not None else []
                if not others:
                    continue
                if parsed is None:
                    parsed = _parse(root, d.path)
                line, ignored = _quote_line(parsed, ci, ri, c.line - 1)
                c.diagnostics.append(DiagnosticOut(code=CODE, severity="hint" if ignored else "warning",
                                                   message=message(others), line=line + 1))
                c.diagnostics.sort(key=lambda x: x.line)  # in line order, as claim_out gives them


def _parse(root: Path, path: str) -> list[Claim]:
    if not path.lower().endswith(".md"):
        return []
    from ..drafts import parse_draft, read_draft

    try:
        return parse_draft(read_draft(root / path)[0]).claims
    except OSError:
        return []


def _quote_line(claims: list[Claim], ci: int, ri: int, fallback: int) -> tuple[int, bool]:
    if ci < len(claims):
        cits = claims[ci].citations
        ignored = CODE in claims[ci].ignored
        if ri < len(cits):
            rng = cits[ri].line_of("quote")
            if rng is not None:
                return rng.start.line, ignored
        return fallback, ignored
    return fallback, False

