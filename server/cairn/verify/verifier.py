"""The verifier (SPEC section 4): every citation resolved against the store,
then each claim's support judged over its resolved quotes.

Checks run in the SPEC's order and the first failing step gives the code. A
superseded chunk is never presented as current evidence: it is judged against
the current version of its source (span-shifted or source-changed).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..core.model import (
    Chunk,
    Citation,
    CitationResult,
    Diagnostic,
    Fix,
    Range,
    SpanRef,
)
from ..index.history import History
from . import anchor, conflicts
from .across import runs_across
from .claims import ClaimChecks, _fence
from .policy import denied_message
from .verdicts import Judge, _collapse, _sentence

if TYPE_CHECKING:
    from ..index.workspace import Workspace
    from ..store import VersionInfo

log = logging.getLogger(__name__)




def _span(*ranges: Range | None) -> Range | None:
    rs = [r for r in ranges if r is not None]
    if not rs:
        return None
    start = min((r.start for r in rs), key=lambda p: (p.line, p.col))
    end = max((r.end for r in rs), key=lambda p: (p.line, p.col))
    return Range(start, end)


def _keep_readings() -> None:
    """The sentence reader keeps its readings in the user's cache folder, each under this machine's MAC."""
    from ..reading import kept
    from ..store import provenance

    kept.use(provenance.user_folder("XDG_CACHE_HOME", ".cache", "cache"),
             lambda message: provenance.mac(provenance.machine_key(), message))


def short(version: str) -> str:
    return version[:8]


# a cite block's problem that is about its offsets alone: `start`/`end` missing or not a number
_OFFSET_PROBLEM = re.compile(r"missing required field '(?:start|end)'|(?:^|: )(?:start|end): ")


class QuoteSearch:
    """The search an unknown chunk's diagnostic waits for until it is read: where its
    quote went (Verifier.quote_elsewhere), done once, on first reading."""

    __slots__ = ("verifier", "quote")

    def __init__(self, verifier: Verifier, quote: str) -> None:
        self.verifier = verifier
        self.quote = quote

    def complete(self, d: Diagnostic) -> None:
        self.verifier.quote_elsewhere(self.quote, d)


class Verifier(ClaimChecks):
    def __init__(self, workspace: Workspace, *, judge: Judge | None = None) -> None:
        _keep_readings()
        self.ws = workspace
        self.store = workspace.store
        self.history = History(workspace)
        self.judge = judge
        self._lookups: dict[str, list[Chunk]] = {}
        self._searched: set[tuple[str, str | None]] = set()
        self._seen_generation = 0
        self._current: dict[str, VersionInfo] = {}
        self.caches: dict[str, object] = {}  # what a policy rule keeps per verifier (dates.book_for: its date book)
        self._current_loaded = False
        self._quotes: dict[tuple, list] = {}
        self._terms: dict[str, int] = {}  # word -> in how many chunks, capped (store.find_quote)
        self._warnings: dict[tuple[str, str], list[str]] = {}
        self._current_ids: set[int] | None = None
        self._titles: dict[tuple[str, str], tuple[str, str]] = {}
        # look for sources contradicting each verified claim (`conflicting-source`); the editor
        # turns it off and looks in the background (lsp/conflicts.py)
        self.conflicts = True

    def invalidate(self) -> None:
        """Forget what was read from the store (after re-indexing)."""
        self._lookups.clear()
        self._searched.clear()
        self._seen_generation = 0
        self._current.clear()
        self._current_loaded = False
        self._quotes.clear()
        self._terms.clear()
        self._warnings.clear()
        self._current_ids = None
        self._titles.clear()
        self.caches.pop(conflicts.READABLE, None)
        self.history = History(self.ws)

    # -- lookups --------------------------------------------------------------------

    def lookup(self, chunk_id: str, source_hint: str | None) -> list[Chunk]:
        if self._seen_generation != self.history.generation:
            # history added versions: every earlier miss may be a hit now
            self._seen_generation = self.history.generation
            self._current_ids = None
            self._lookups = {k: v for k, v in self._lookups.items() if v}
        got = self._lookups.get(chunk_id)
        if got is None:
            got = self._lookup_store([chunk_id]).get(chunk_id, [])
            self._lookups[chunk_id] = got
        if not got and (chunk_id, source_hint) not in self._searched:
            # not in the store: the git history may hold the version it names
            self._searched.add((chunk_id, source_hint))
            if self.history.find(chunk_id, source_hint):
                self._current_ids = None
                got = self._lookups[chunk_id] = self._lookup_store([chunk_id]).get(chunk_id, [])
        return got

    def _lookup_store(self, ids: Iterable[str]) -> dict[str, list[Chunk]]:
        if self._current_ids is None:
            self._current_ids = self.store.current_version_ids()
        return self.store.lookup_many(ids, self._current_ids)

    def prefetch(self, chunk_ids: Iterable[str | None]) -> None:
        """Load many chunk ids in a few queries (before verifying many drafts)."""
        wanted = [c for c in chunk_ids if c and c not in self._lookups]
        if not wanted:
            return
        got = self._lookup_store(wanted)
        for cid in wanted:
            self._lookups[cid] = got.get(cid, [])

    def find_quote(self, quote: str, sources: tuple[str, ...] | None = None) -> list:
        key = (quote, sources)
        hit = self._quotes.get(key)
        if hit is None:
            if len(self._terms) > 200_000:  # a long editing session: start again rather than grow
                self._terms.clear()
            hit = self._quotes[key] = self.store.find_quote(quote, sources=sources, terms=self._terms)
        return hit

    def current_version(self, source: str) -> VersionInfo | None:
        if not self._current_loaded:
            # one query for every source beats one per source on a big corpus
            self._current.update(self.store.current_versions())
            self._current_loaded = True
        return self._current.get(source)

    # -- one citation ---------------------------------------------------------------

    def verify_citation(self, cit: Citation) -> tuple[CitationResult, list[Diagnostic]]:
        res = CitationResult(citation=cit)
        diags: list[Diagnostic] = []

        def diag(code: str, message: str, line_range: Range | None, lsp_range: Range | None = None, **kw: Any) -> Diagnostic:
            line_range = line_range or _fence(cit)
            d = Diagnostic(code, message, line_range.start.line, lsp_range or line_range, citation=cit, **kw)
            diags.append(d)
            return d

        # 1. body and fields
        if cit.problems:
            offsets = self._offsets_fix(cit)
            for p in cit.problems:
                d = Diagnostic(p.code, p.message, p.line, p.range, citation=cit)
                if offsets is not None and _OFFSET_PROBLEM.search(p.message):
                    d.fixes.append(offsets)
                    offsets = None  # one fix sets both fields: offered once
                diags.append(d)
            return res, diags
        assert cit.chunk_id is not None and cit.quote is not None and cit.start is not None and cit.end is not None

        # 2. a named source outside the roots: nothing is read
        if cit.source is not None and not self.ws.in_roots(cit.source):
            diag(
                "source-denied",
                f"source {cit.source!r} is outside the source roots ({', '.join(self.ws.roots)}): it is not read",
                cit.line_of("source"),
            )
            return res, diags

        # 2b. a named source the current principal may not read: nothing is read either
        if cit.source is not None and not self.ws.permitted(cit.source):
            diag("source-denied", denied_message(self.ws, cit.source), cit.line_of("source"))
            return res, diags

        # 3. the chunk id, in the store or the git history
        chunks = self.lookup(cit.chunk_id, cit.source)
        if not chunks:
            # where the quote went is searched across the corpus only when the
            # message or fixes are read (see Diagnostic)
            cut = self.history.stopped
            diag(
                "unknown-chunk",
                f"chunk {cit.chunk_id} is in no indexed version of any source"
                + (f" (the git history search was cut short: {cut}; an older commit may hold it)" if cut else ""),
                cit.line_of("chunk_id"),
                pending=QuoteSearch(self, cit.quote),
            )
            return res, diags

        chunk = self._pick(chunks, cit)

        # 4. the chunk's source must still be allowed (a denied chunk is never handed on:
        # its text would show in hovers and reports)
        if not self.ws.in_roots(chunk.source):
            diag(
                "source-denied",
                f"chunk {cit.chunk_id} belongs to {chunk.source}, which is outside the source roots",
                cit.line_of("source", "chunk_id"),
            )
            return res, diags
        if not self.ws.permitted(chunk.source):
            # any version of it, from the store or from history: no text of it goes further
            diag("source-denied", denied_message(self.ws, chunk.source, cit.chunk_id), cit.line_of("source", "chunk_id"))
            return res, diags
        res.chunk = chunk

        # 5. source and version
        best_version = self._best_version(chunk)
        mismatch_fix = Fix(
            f"Set source and version ({chunk.source} @ {short(best_version)})",
            {"source": chunk.source, "version": best_version},
            safe=True,
        )
        if cit.source is not None and cit.source != chunk.source:
            diag(
                "version-mismatch",
                f"source says {cit.source} but chunk {cit.chunk_id} belongs to {chunk.source}",
                cit.line_of("source"),
                fixes=[mismatch_fix],
            )
        elif cit.version is not None and not any(c.version.startswith(cit.version) for c in chunks):
            diag(
                "version-mismatch",
                f"version {cit.version} matches no stored version of {chunk.source} holding chunk {cit.chunk_id}"
                f" (it is in {short(best_version)})",
                cit.line_of("version"),
                fixes=[mismatch_fix],
            )

        # 6. the quote
        quote = cit.quote
        text = chunk.text
        if quote not in text:
            d = diag("quote-not-found", f"the quote is not in chunk {cit.chunk_id} of {chunk.source}", cit.line_of("quote"))
            loose = anchor.loose_find(quote, text)
            if loose:
                s, e = loose[0]
                d.message += "; it differs from the source only in white space, quote marks or dashes"
                d.fixes.append(
                    Fix(
                        "Replace the quote with the source's exact text",
                        {"quote": text[s:e], "start": s, "end": e},
                        safe=len(loose) == 1,
                    )
                )
            elif chunk.current and (over := runs_across(self.store, quote, [chunk.source])) is not None:
                d.message += "; " + over.message()
            else:
                near = anchor.fuzzy_find(quote, text)
                if near:
                    s, e, score = near
                    # the source's sentence around the closest text, so the writer sees the difference
                    nearest = _collapse(_sentence(text, s, e))
                    nearest = nearest if len(nearest) <= 300 else nearest[:299] + "\u2026"
                    d.message += f"; closest source text is {score:.0f}% similar: \u201c{nearest}\u201d"
                    d.fixes.append(
                        Fix(
                            f"Replace the quote with the closest source text ({score:.0f}% similar)",
                            {"quote": text[s:e], "start": s, "end": e},
                            safe=False,
                        )
                    )
            return res, diags

        if chunk.current:
            res.resolved = True
            if text[cit.start:cit.end] == quote:
                res.current_span = SpanRef(chunk.source, chunk.start + cit.start, chunk.start + cit.end)
                res.evidence = (chunk, cit.start, cit.end)
                return res, diags
            occ = anchor.all_occurrences(text, quote)
            pos = anchor.nearest(occ, cit.start)
            res.current_span = SpanRef(chunk.source, chunk.start + pos, chunk.start + pos + len(quote))
            res.evidence = (chunk, pos, pos + len(quote))
            fix = Fix(
                f"Re-anchor to [{pos}, {pos + len(quote)})",
                {"start": pos, "end": pos + len(quote), "version": chunk.version},
                safe=len(occ) == 1,
            )
            diag(
                "span-shifted",
                f"the quote is at [{pos}, {pos + len(quote)}) of chunk {cit.chunk_id}, not at [{cit.start}, {cit.end})",
                cit.line_of("start", "chunk_id"),
                _span(cit.line_of("chunk_id"), cit.line_of("start"), cit.line_of("end")),
                fixes=[fix],
            )
            return res, diags

        # a superseded chunk: judged against the current version of its source
        note = self.store.provenance_note(chunk)  # from an index Cairn did not write on this machine
        unproven = f"; {note}" if note else ""
        # the quote may sit re-wrapped in the current version (white space aside)
        spans: list[tuple[Chunk, int, int]] = []
        if self.current_version(chunk.source):
            spans = [(ch, pos, pos + len(quote)) for ch, pos in self.find_quote(quote, (chunk.source,))]
            if not spans:
                spans = self._find_rewrapped(quote, chunk.source)
        if spans:
            res.resolved = True
            was = chunk.start + cit.start
            ch, s, e = min(spans, key=lambda h: (abs(h[0].start + h[1] - was), h[0].start))
            now = ch.text[s:e]
            res.current_span = SpanRef(ch.source, ch.start + s, ch.start + e)
            res.evidence = (ch, s, e)
            fix = self._reanchor_fix(ch, s, now, f"Re-anchor to the current version of {ch.source}")
            if now != quote:
                fix.values["quote"] = now  # re-wrapped: the new exact text
            fix.safe = len(spans) == 1
            message = (f"{self._why_superseded(chunk)}; the quote is still there"
                       + (" (re-wrapped)" if now != quote else "") + f", now in chunk {ch.chunk_id} at [{s}, {e})")
            old_at = anchor.all_occurrences(text, quote)
            old_pos = anchor.nearest(old_at, cit.start) if old_at else 0
            after = _collapse(_sentence(ch.text, s, e))
            if _collapse(_sentence(text, old_pos, old_pos + len(quote))) != after:
                # the words around the quote changed: whether it still says what it said is the
                # writer's call, so the re-anchor is offered in the editor only
                message += f"; its sentence now reads \u201c{after}\u201d"
                fix.safe = False
                fix.title += " (its sentence changed: read it first)"
            diag(
                "span-shifted",
                message + unproven,
                cit.line_of("start", "chunk_id"),
                _span(cit.line_of("chunk_id"), cit.line_of("start"), cit.line_of("end")),
                fixes=[fix],
            )
            return res, diags

        cur = self.current_version(chunk.source)
        gone = cur is None
        if cur is None:
            why = f"{chunk.source} was deleted"
        elif cur.version == chunk.version and _collapse(quote) in _collapse(self._version_text(cur.id)):
            # the same file, cut again: the quote is there but no longer inside one chunk
            why = (f"{self._why_superseded(chunk)}, and the quote now runs across a chunk boundary;"
                   " cite it as two citations, one in each chunk")
        else:
            why = f"{self._why_superseded(chunk)}; the quote is not in its current version"
        d = diag("source-changed", why + unproven, cit.line_of("chunk_id"))
        elsewhere = [
            (ch, pos) for ch, pos in self.find_quote(quote) if self.ws.allowed(ch.source) and ch.source != chunk.source
        ]
        if len(elsewhere) == 1:
            ch, pos = elsewhere[0]
            d.message += f"; it is found in {ch.source}"
            d.fixes.append(self._reanchor_fix(ch, pos, quote, f"Re-anchor to {ch.source} (quote found there)"))
        if not gone:
            closest = self._closest_current(chunk.source, quote)
            if closest:
                ch, s, e, score = closest
                now = _collapse(_sentence(ch.text, s, e))
                now = now if len(now) <= 300 else now[:299] + "\u2026"
                d.message += f"; where it was, {chunk.source} now says \u201c{now}\u201d ({score:.0f}% similar)"
                d.fixes.append(
                    Fix(
                        f"Cite the closest current text ({score:.0f}% similar)",
                        {
                            "chunk_id": ch.chunk_id,
                            "start": s,
                            "end": e,
                            "quote": ch.text[s:e],
                            "source": ch.source,
                            "version": ch.version,
                        },
                        safe=False,
                    )
                )
            elif not elsewhere:
                d.message += f"; nothing like it is left in {chunk.source}"
        return res, diags

    def _offsets_fix(self, cit: Citation) -> Fix | None:
        """A block whose `start` or `end` is missing or unreadable, while its chunk id and quote
        are fine: where the quote sits in that chunk, as a fix, when it sits there once (and the
        chunk's source may be read). Every other problem of the block must be about the offsets."""
        if cit.chunk_id is None or not cit.quote:
            return None
        if not all(_OFFSET_PROBLEM.search(p.message) for p in cit.problems):
            return None
        chunks = [c for c in self.lookup(cit.chunk_id, cit.source) if self.ws.allowed(c.source)]
        if not chunks:
            return None
        chunk = self._pick(chunks, cit)
        found = anchor.all_occurrences(chunk.text, cit.quote)
        if len(found) != 1:
            return None
        s, e = found[0], found[0] + len(cit.quote)
        return Fix(f"Set start and end to where the quote is in chunk {cit.chunk_id} ([{s}, {e}))",
                   {"start": s, "end": e}, safe=True)

    def _version_text(self, version_id: int) -> str:
        try:
            return self.store.version_text(version_id)
        except KeyError:  # a version whose text this machine cannot vouch for
            return ""

    def _why_superseded(self, chunk: Chunk) -> str:
        """Why a cited chunk is no longer current: its file changed, or only the way it was cut."""
        cur = self.current_version(chunk.source)
        if cur is not None and cur.version == chunk.version:
            return (f"{chunk.source} has not changed since version {short(chunk.version)}, but it was cut into"
                    " chunks again (chunk_chars or its parser changed)")
        return f"{chunk.source} changed since version {short(chunk.version)}"

    def _find_rewrapped(self, quote: str, source: str) -> list[tuple[Chunk, int, int]]:
        """Where the quote is in the current version of `source` with only its white space changed."""
        want = _collapse(quote)
        first = want.split(" ", 1)[0]
        out = []
        for ch in self.store.current_chunks([source]):
            if first not in ch.text:
                continue
            for s, e in anchor.loose_find(quote, ch.text):
                if _collapse(ch.text[s:e]) == want:
                    out.append((ch, s, e))
        return out

    def quote_elsewhere(self, quote: str, d: Diagnostic) -> None:
        """Complete an unknown chunk's diagnostic `d`: where its quote is now in the allowed
        sources, with a re-anchor fix when it is in one place (run by QuoteSearch when `d` is read)."""
        hits = [(ch, pos) for ch, pos in self.find_quote(quote) if self.ws.allowed(ch.source)]
        if len(hits) == 1:
            ch, pos = hits[0]
            d.message += f"; the quote is found in {ch.source}"
            d.fixes.append(self._reanchor_fix(ch, pos, quote, f"Re-anchor to {ch.source} (quote found there)"))
        elif len(hits) > 1:
            d.message += f"; the quote is found in {len(hits)} places"

    def _pick(self, chunks: list[Chunk], cit: Citation) -> Chunk:
        """The occurrence a citation names: its version if it gives one, else current, else newest."""
        if cit.version:
            for ch in chunks:
                if ch.version.startswith(cit.version):
                    if ch.current or not any(c.current for c in chunks):
                        return ch
        return chunks[0]  # lookup() orders current first, then newest

    def _best_version(self, chunk: Chunk) -> str:
        if chunk.current:
            return chunk.version
        cur = self.current_version(chunk.source)
        return chunk.version if cur is None else chunk.version

    @staticmethod
    def _reanchor_fix(ch: Chunk, pos: int, quote: str, title: str) -> Fix:
        return Fix(
            title,
            {
                "chunk_id": ch.chunk_id,
                "start": pos,
                "end": pos + len(quote),
                "source": ch.source,
                "version": ch.version,
            },
            safe=True,
        )

    def _closest_current(self, source: str, quote: str) -> tuple[Chunk, int, int, float] | None:
        best = None
        for ch in self.store.current_chunks([source]):
            got = anchor.fuzzy_find(quote, ch.text, anchor.CLOSEST_MIN_SIMILARITY)
            if got and (best is None or got[2] > best[3]):
                best = (ch, got[0], got[1], got[2])
        return best

    # -- one claim --------------------------------------------------------------------

