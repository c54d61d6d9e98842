"""The verifier (SPEC section 4): every citation resolved against the store,
then each claim's support judged over its resolved quotes.

Checks run in the SPEC's order and the first failing step gives the code. A
superseded chunk is never presented as current evidence: it is judged against
the current version of its source (span-shifted or source-changed).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..core.model import (
    Chunk,
    Citation,
    CitationResult,
    Claim,
    ClaimResult,
    Diagnostic,
    DraftDoc,
    DraftResult,
    Fix,
    Pos,
    Range,
    SpanRef,
)
from ..drafts import binding
from ..index.history import History
from ..meaning import Evidence, NumberMismatch, sentence_around
from ..meaning import check as check_meaning
from ..meaning import plain as plain_text_of
from ..meaning.backing import names_literals, restated_score, without_identifiers
from ..meaning.quantities import extract as extract_quantities
from ..support import check_support
from . import anchor, dates
from . import sentences as sentences_check
from .lineage import annotate
from .policy import denied_message, policy_diagnostics

if TYPE_CHECKING:
    from ..index.workspace import Workspace
    from ..store import VersionInfo

log = logging.getLogger(__name__)


@dataclass(slots=True)
class JudgeVerdict:
    supported: bool
    score: float | None
    judge: str  # "openai", "fallback"
    note: str = ""  # why the judge fell back


# A judge gets the claim text and the resolved quotes; returns None to let
# the lexical check decide. The verifier calls it for every claim it checks,
# so it must be fast: cairn.judge's judges only look verdicts up here.
Judge = Callable[[str, list[str]], JudgeVerdict | None]

# the diagnostics apply_verdict decides; every other one stays as verified
_SUPPORT_CODES = ("unsupported-claim", "judge-fallback")


def resolved_quotes(cr: ClaimResult) -> list[str]:
    """The quotes of a claim's resolved citations: what support is judged over."""
    return [r.citation.quote for r in cr.citations if r.resolved and r.citation.quote]


def judge_quotes(results: list[CitationResult]) -> list[str]:
    """The resolved quotes as the judge reads them: each with the sentence of
    its source that holds it, when that sentence says more than the quote
    (SPEC section 4: the judge receives each quote's sentence as context)."""
    out = []
    for r in results:
        q = r.citation.quote
        if not (r.resolved and q):
            continue
        if r.evidence is not None:
            ch, s, e = r.evidence
            sentence = _collapse(_sentence(ch.text, s, e))
            if sentence.rstrip(".!?;:") != _collapse(q).rstrip(".!?;:"):
                q = f"{q}\n(its sentence in the source: {sentence})"
        out.append(q)
    return out


def apply_verdict(cr: ClaimResult, verdict: JudgeVerdict | None, threshold: float) -> ClaimResult:
    """A claim's result with the support decided by `verdict` (SPEC section 4).

    `cr` comes from the verifier (with or without an earlier verdict; the
    lexical score is kept in it). A judge's verdict replaces the score test;
    a `fallback` verdict (or None) leaves it to the lexical check, a fallback
    adding a `judge-fallback` diagnostic; the number rule always applies.
    Returns a new ClaimResult; `cr` is not modified. A claim without a
    resolved quote is returned as it is: its support is never checked."""
    if not resolved_quotes(cr):
        return cr
    claim = cr.claim
    diags = [d for d in cr.diagnostics if d.code not in _SUPPORT_CODES]
    score = cr.lexical_score
    passed = score is not None and score >= threshold
    judge_name = "lexical"
    if verdict is not None and verdict.judge == "fallback":
        judge_name = "fallback"
        diags.append(
            Diagnostic(
                "judge-fallback",
                f"the judge gave no verdict ({verdict.note or 'no reason given'}); the lexical check decided",
                claim.line,
                claim.range,
            )
        )
    elif verdict is not None and verdict.judge != "lexical":
        judge_name = verdict.judge
        passed = bool(verdict.supported)
        score = verdict.score
    lexical = judge_name in ("lexical", "fallback")
    if passed and lexical and cr.displaced is not None and not _reported(cr.displaced[0], cr.mismatched):
        # (an option in place of the quote's, `-E` for `-P`, is already the identifier rule's number-mismatch,
        # as is a unit in place of the quote's, `C` in `-40 °C` for `-40 °F`)
        mine, theirs = cr.displaced
        diags.append(Diagnostic(
            "unsupported-claim",
            f"the claim says {mine} where its quote says {theirs} (support {_fmt(score)}, threshold {threshold:g}"
            + (f"; missing: {mine})" if " " not in mine else ")"), claim.line, claim.range))
    elif not passed:
        if lexical:
            missing = cr.missing
            shown = ", ".join(missing[:12]) + (" …" if len(missing) > 12 else "")
            msg = f"support {_fmt(score)} is below the threshold {threshold:g}" + (
                f"; missing: {shown}" if missing else ""
            )
        else:
            msg = f"the {judge_name} judge finds that the quotes do not support the claim (score {_fmt(score)})"
        diags.append(Diagnostic("unsupported-claim", msg, claim.line, claim.range))
    supported = _settle(claim, diags)
    return replace(cr, supported=supported, support_score=score, judge=judge_name, diagnostics=diags)


def _reported(word: str, mismatched: tuple[str, ...]) -> bool:
    """Whether the names rule's word is one the number rule reports: one of its words, or a word of one."""
    return word in mismatched or any(word in _WORD.findall(m) for m in mismatched)


_WORD = re.compile(r"\w+")


def _settle(claim: Claim, diags: list[Diagnostic]) -> bool:
    """Mark the diagnostics whose codes the claim's citations `ignore`; True when
    the claim is verified (SPEC section 4: cited, and nothing left that fails it)."""
    ignored = claim.ignored
    if ignored:
        for d in diags:
            if d.code in ignored:
                d.ignored = True
    return bool(claim.citations) and not any(d.fails for d in diags)


def _span(*ranges: Range | None) -> Range | None:
    rs = [r for r in ranges if r is not None]
    if not rs:
        return None
    start = min((r.start for r in rs), key=lambda p: (p.line, p.col))
    end = max((r.end for r in rs), key=lambda p: (p.line, p.col))
    return Range(start, end)


def _fence(cit: Citation) -> Range:
    if cit.block is not None:
        return cit.block.fence_range
    return Range(Pos(0, 0), Pos(0, 0))


def short(version: str) -> str:
    return version[:8]


class QuoteSearch:
    """The search an unknown chunk's diagnostic waits for until it is read: where its
    quote went (Verifier.quote_elsewhere), done once, on first reading."""

    __slots__ = ("verifier", "quote")

    def __init__(self, verifier: Verifier, quote: str) -> None:
        self.verifier = verifier
        self.quote = quote

    def complete(self, d: Diagnostic) -> None:
        self.verifier.quote_elsewhere(self.quote, d)


class Verifier:
    def __init__(self, workspace: Workspace, *, judge: Judge | None = None) -> None:
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
            for p in cit.problems:
                diags.append(Diagnostic(p.code, p.message, p.line, p.range, citation=cit))
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
            diag(
                "unknown-chunk",
                f"chunk {cit.chunk_id} is in no indexed version of any source",
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
            else:
                near = anchor.fuzzy_find(quote, text)
                if near:
                    s, e, score = near
                    d.message += f"; closest source text is {score:.0f}% similar"
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

    def verify_claim(self, claim: Claim) -> ClaimResult:
        cfg = self.ws.settings.config
        diags: list[Diagnostic] = []
        for p in claim.problems:
            diags.append(Diagnostic(p.code, p.message, p.line, p.range))
        for block in claim.blocks:
            for p in block.problems:
                diags.append(Diagnostic(p.code, p.message, p.line, p.range))
        results: list[CitationResult] = []
        for cit in claim.citations:
            r, ds = self.verify_citation(cit)
            results.append(r)
            diags += ds
        annotate(self, results)
        diags += policy_diagnostics(self, claim, results)
        diags += binding.check_binding(claim)
        dates.date_results(results, dates.book_for(self))
        diags += dates.check_dates(claim, results, cfg.date_window_days)
        quotes = [r.citation.quote for r in results if r.resolved and r.citation.quote]
        sentences: list[tuple[str, float | None]] = []
        if quotes:
            # each sentence of the claim alone (sentences_check.py)
            found, sentences = sentences_check.check_sentences(
                claim, quotes, threshold=cfg.threshold, mode=cfg.support.mode, strict=cfg.strict_sentences,
                context=lambda: (self._headings(results), _sentences(results)))
            diags += found
        score: float | None = None
        missing: list[str] = []
        displaced: tuple[str, str] | None = None
        mismatched: tuple[str, ...] = ()
        verdict: JudgeVerdict | None = None
        if quotes:
            # the seed rule is the claim's own words against the quotes' and nothing else (SPEC section 4):
            # what the project's modes read beside them (identifiers naming the sources, the sources'
            # titles and sentences, amounts restated) is theirs
            seed = cfg.support.mode == "seed"
            # whether the claim names an identifier its sources must be read for (once a claim)
            verbatim = _verbatim(claim, results)
            named = not verbatim and any(q.kind == "identifier" for q in extract_quantities(claim.text))
            # an option or a file the claim names may be the one its source is about, named by the
            # title rather than the chunk (a claim on invoke-rc.d cited to its README's paragraph on
            # policy-rc.d): the titles are read for it too, as for an identifier
            titles = named or (not verbatim and names_literals(claim.text))
            support_text = self._support_text(claim, results) if named and not seed else claim.text
            lex = check_support(support_text, quotes, threshold=cfg.threshold, mode=cfg.support.mode)
            if not seed and lex.score is not None and lex.score < cfg.threshold and lex.missing:
                # words the quotes lack may name the cited documents themselves ("Under the
                # Apache License, ..."), and a quoted fragment is read in its sentence: read the
                # sources' headings and the quotes' sentences only for a claim that needs it
                lex = check_support(support_text, quotes, threshold=cfg.threshold, mode=cfg.support.mode,
                                    named=self._headings(results), around=_sentences(results))
                # an amount the quotes state in another form (`1.2 km` for `1,200 metres`) is
                # theirs: read as they write it, its words are found
                lex, support_text = restated_score(
                    support_text, quotes, lex, cfg.threshold,
                    lambda text: check_support(text, quotes, threshold=cfg.threshold, mode=cfg.support.mode,
                                               named=self._headings(results), around=_sentences(results)))
            score = lex.score
            missing = list(lex.missing)
            displaced = lex.displaced
            if displaced is not None:
                # the same words around a different name (support/names.py); but a name the cited
                # sources' headings hold may stand for what the quote calls it ("Under the MPL")
                displaced = check_support(support_text, quotes, threshold=cfg.threshold, mode=cfg.support.mode,
                                          named=self._headings(results)).displaced
            # a polarity difference contradicts only a claim its quotes are about: one whose
            # words they back (else it is unsupported, and a side word's negation says nothing)
            found, numbers = self._meaning(claim, results, polarity=score is not None and score >= cfg.threshold,
                                           titles=titles)
            diags += found
            mismatched = tuple(n.claim for n in numbers)
            verdict = self.judge(claim.text, judge_quotes(results)) if self.judge else None
        result = ClaimResult(
            claim=claim,
            supported=False,  # decided below
            support_score=score,
            judge="lexical",
            missing=missing,
            citations=results,
            diagnostics=diags,
            lexical_score=score,
            sentences=sentences,
            displaced=displaced,
            mismatched=mismatched,
        )
        if quotes:
            # the score test (or the judge's verdict in its place)
            return apply_verdict(result, verdict, cfg.threshold)
        # no citation resolved, so support was never checked and the claim is not verified, even when
        # it ignores the codes that say why (those are reported as hints and fail nothing themselves)
        _settle(claim, diags)
        result.supported = False
        return result

    def _meaning(self, claim: Claim, results: list[CitationResult], *, polarity: bool = True,
                 titles: bool = False) -> tuple[list[Diagnostic], list[NumberMismatch]]:
        """The meaning rules over a claim's resolved quotes (SPEC section 4):
        quantities, polarity and direction, and each quote's sentence; `titles`:
        the claim names an identifier, so its sources' titles are read too.
        With the diagnostics, the number rule's findings, each naming the
        claim's word it reports."""
        evidence: list[Evidence] = []
        cits: list[Citation] = []
        for r in results:
            if not (r.resolved and r.citation.quote):
                continue
            if r.evidence is not None:
                ch, s, e = r.evidence
                evidence.append(Evidence(r.citation.quote, ch.text, s, e, self._title(ch) if titles else ""))
            else:  # resolved without a place (not expected): the quote stands alone
                evidence.append(Evidence(r.citation.quote, r.citation.quote, 0, len(r.citation.quote)))
            cits.append(r.citation)
        found = check_meaning(claim.text, evidence, polarity=polarity)
        out: list[Diagnostic] = []
        if found.numbers:
            first = found.numbers[0]
            more = f" (and {len(found.numbers) - 1} more)" if len(found.numbers) > 1 else ""
            out.append(Diagnostic("number-mismatch", first.message + more, claim.line, claim.range))
        if found.contradictions:
            opposed = found.contradictions[0]
            more = f" (and {len(found.contradictions) - 1} more)" if len(found.contradictions) > 1 else ""
            out.append(Diagnostic("contradiction", opposed.message + more, claim.line, claim.range))
        for i, neg in found.context:
            cit = cits[i]
            line = cit.line_of("quote") or _fence(cit)
            out.append(Diagnostic("context-negates", neg.message, line.start.line, claim.range or line,
                                  citation=cit))
        return out, found.numbers

    def _support_text(self, claim: Claim, results: list[CitationResult]) -> str:
        """The claim, which names an identifier, as the word-overlap score reads it:
        without the identifiers that name its sources (`Under Apache 2.0, …`)."""
        context = []
        for r in results:
            if r.resolved and r.evidence is not None:
                context += [r.evidence[0].text, self._title(r.evidence[0])]
        quotes = [r.citation.quote for r in results if r.resolved and r.citation.quote]
        return without_identifiers(claim.text, context, quotes)

    def _title(self, chunk: Chunk) -> str:
        """A source's file name and the start of its first chunk (up to 300 characters):
        what an identifier in a claim is also checked against."""
        return self._opening(chunk)[1]

    def _headings(self, results: list[CitationResult]) -> str:
        """The cited sources' headings: file name and first line of each."""
        seen = dict.fromkeys(self._opening(r.evidence[0])[0] for r in results
                             if r.resolved and r.evidence is not None)
        return "\n".join(seen)

    def _opening(self, chunk: Chunk) -> tuple[str, str]:
        """(heading, title) of the chunk's source version: its file name with the first
        line of its first chunk (up to 120 characters), and with that chunk's first 300."""
        key = (chunk.source, chunk.version)
        got = self._titles.get(key)
        if got is None:
            first = ""
            try:
                chunks = [c for c in self.store.current_chunks([chunk.source]) if c.version == chunk.version]
                if chunks:
                    first = min(chunks, key=lambda c: c.start).text[:300]
            except Exception:  # a title is a hint: a store that cannot give one leaves it empty
                log.debug("no title for %s", chunk.source, exc_info=True)
            name = chunk.source.rsplit("/", 1)[-1]
            line = next((x.strip() for x in first.splitlines() if x.strip()), "")[:120]
            got = self._titles[key] = (f"{name}\n{line}", f"{name}\n{first}")
        return got

    def verify_draft(self, path: str, doc: DraftDoc, *, encoding_problem: bool = False,
                     cache: dict | None = None) -> DraftResult:
        """Verify every claim; `cache` (claim key -> ClaimResult) skips unchanged claims."""
        self.prefetch(c.chunk_id for claim in doc.claims for c in claim.citations)
        claims = []
        for claim in doc.claims:
            if cache is not None:
                key = claim.key
                hit = cache.get(key)
                if hit is None or hit.claim.line != claim.line:
                    hit = self.verify_claim(claim)
                    cache[key] = hit
                claims.append(hit)
            else:
                claims.append(self.verify_claim(claim))
        diags = self.draft_diagnostics(claims, encoding_problem=encoding_problem)
        result = DraftResult(path=path, claims=claims, diagnostics=diags, uncited_paragraphs=doc.uncited_paragraphs,
                             encoding_problem=encoding_problem)
        if cache is None and doc.text:
            binding.complete(doc.text, result)  # where a moved block's claim is now (the whole draft is known)
        return result

    def draft_diagnostics(self, claims: Iterable[ClaimResult], *, encoding_problem: bool = False) -> list[Diagnostic]:
        """The draft's own diagnostics: its encoding, then the encoding warnings of each source its
        verified claims cite (once a source, in the order the claims cite them)."""
        diags = []
        if encoding_problem:
            diags.append(
                Diagnostic("encoding", "the draft is not valid UTF-8: invalid bytes were replaced by U+FFFD", 0,
                           Range(Pos(0, 0), Pos(0, 0)))
            )
        seen: set[str] = set()
        for cr in claims:
            for r in cr.citations:
                if r.chunk is None or r.chunk.source in seen:
                    continue
                seen.add(r.chunk.source)
                key = (r.chunk.source, r.chunk.version)
                if key not in self._warnings:
                    self._warnings[key] = self.store.warnings_for(*key)
                for w in self._warnings[key]:
                    diags.append(
                        Diagnostic("encoding", f"source {r.chunk.source}: {w}", 0, Range(Pos(0, 0), Pos(0, 0)))
                    )
        return diags


def _verbatim(claim: Claim, results: list[CitationResult]) -> bool:
    """The claim is one of its resolved quotes word for word (meaning.check skips the
    rules that cannot tell a text from itself)."""
    mine = plain_text_of(claim.text)
    return any(r.resolved and r.citation.quote and plain_text_of(r.citation.quote) == mine for r in results)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _sentence(text: str, start: int, end: int) -> str:
    s, e = sentence_around(text, start, end)
    return text[s:e]


# How far the rule `sentence` reads on either side of a quote: a sentence of prose is shorter; a chunk
# with no sentence end (a table, a listing) is not one sentence for it
SENTENCE_REACH = 300


def _sentences(results: list[CitationResult]) -> list[str]:
    """The sentence of its source around each resolved quote (up to SENTENCE_REACH characters on
    either side), where it says more than the quote."""
    out = []
    for r in results:
        if r.resolved and r.citation.quote and r.evidence is not None:
            ch, s, e = r.evidence
            a, b = sentence_around(ch.text, s, e)
            a, b = max(a, s - SENTENCE_REACH), min(b, e + SENTENCE_REACH)
            if b - a > e - s:
                out.append(ch.text[a:b])
    return out


def _fmt(score: float | None) -> str:
    return "n/a" if score is None else f"{score:.2f}"
