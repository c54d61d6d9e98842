"""What the server knows about each draft, and how it is brought up to date.

A `Folder` is one workspace root: its engine `Workspace`, its `Verifier`,
the drafts checked in it and which chunks and sources each draft cites. Its
methods run on the server's single engine thread (the engine's verifier and
history are not thread-safe); the event loop only reads the `DraftState`s
they return, which are never changed afterwards.

A draft is kept as pieces (see segments.py), each with its parse, its
verdicts and its LSP diagnostics, all relative to the piece's first line.
An edit re-parses and re-verifies the piece it touches; inside that piece a
claim whose text, citations and layout did not change keeps its verdict.
"""

from __future__ import annotations

import gc
import logging
import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .. import drafts as drafts_mod
from ..core.config import Settings
from ..core.model import Claim, ClaimResult, Diagnostic, DraftDoc
from ..engine import checks as engine
from ..engine.reuse import SpanIndex
from ..index.workspace import IndexResult, Workspace
from ..sources import is_source_name
from ..store import StoreError
from ..verify.draft_notes import draft_diagnostics
from . import kept_diagnostics, segments
from .config import make_judge_safely
from .definition import cited_location
from .diagnostics import claim_diagnostics
from .json_answers import JsonState, json_state
from .kept_diagnostics import Kept
from .layout import layout_key, moved
from .lens import segment_lenses
from .positions import Codec, SourceTexts
from .state import DraftState, Segment
from .stored import Stored

if TYPE_CHECKING:
    from ..judge.cached import CachingJudge
    from ..verify.verifier import Verifier

log = logging.getLogger(__name__)


def _rebind(hit: ClaimResult, claim: Claim) -> ClaimResult:
    """A cached verdict attached to a new parse of the same claim, its ranges moved to
    where the claim now is (its citations carry the layout quick-fixes edit)."""
    new = {id(o): n for o, n in zip(hit.claim.citations, claim.citations)}
    delta = claim.line - hit.claim.line

    def diag(d: Diagnostic) -> Diagnostic:
        cit = new.get(id(d.citation), d.citation) if d.citation is not None else None
        if not delta:
            return d.copy(citation=cit)
        return d.copy(citation=cit, line=d.line + delta, range=moved(d.range, delta))

    return replace(
        hit,
        claim=claim,
        citations=[replace(r, citation=new.get(id(r.citation), r.citation)) for r in hit.citations],
        diagnostics=[diag(d) for d in hit.diagnostics],
    )


def cited_by(results: list[ClaimResult]) -> tuple[frozenset[str], frozenset[str], bool]:
    """What these claims cite: (chunk ids, sources, whether a citation is unresolved), for
    the drafts a source change makes stale."""
    ids: set[str] = set()
    srcs: set[str] = set()
    unresolved = False
    for cr in results:
        for r in cr.citations:
            c = r.citation
            if c.chunk_id:
                ids.add(c.chunk_id)
            if c.source:
                srcs.add(c.source)
            if r.chunk is not None:
                srcs.add(r.chunk.source)
            if not r.resolved:
                unresolved = True
    return frozenset(ids), frozenset(srcs), unresolved


class Folder:
    """One workspace root (an editor workspace folder, or the folder above it holding cairn.toml)."""

    def __init__(self, root: Path, settings: Settings, codec: Codec, *, store=None, uri: str = "",
                 config_error: str | None = None):
        self.root = root.resolve()
        self.uri = uri
        # why the folder's configuration was refused (lsp/config.py): nothing is checked until it is fixed
        self.config_error = config_error
        self.ws = Workspace(self.root, settings, store=store)
        # the judge the settings ask for, given to the verifier it serves; a judge that cannot
        # start leaves the lexical check, and `judge_problem` says why (the session tells the user)
        judge, self.judge_problem = make_judge_safely(self.ws)
        self.judge: CachingJudge | None = judge
        # made on first use (the `verifier` property): a start whose claims' verdicts are all kept in
        # the index publishes them without loading the verifier and the meaning rules
        self._verifier: Verifier | None = None
        self._verifier_lock = threading.Lock()  # made once, whichever thread asks first
        # each source version's encoding warnings, for the drafts' own diagnostics (verify/draft_notes.py)
        self._source_warnings: dict[tuple[str, str], list[str]] = {}
        self.codec = codec
        self.texts = SourceTexts(self.ws.store)
        self.drafts: dict[Path, DraftState] = {}  # written on the event loop
        self.json_answers: dict[Path, JsonState] = {}  # JSON answer files (json_answers.py); the event loop's
        self.answers: set[Path] = set()  # written on the event loop
        self.indexed = False
        self.epoch = 0
        self.generation = 0
        # (generation, sources, chunk ids) of every source change, for stale verdicts
        self._changes: list[tuple[int, frozenset[str], frozenset[str]]] = []
        # what each checked draft cites: the reverse index of sources and chunks -> drafts
        self._cites: dict[Path, tuple[frozenset[str], frozenset[str], bool]] = {}
        # cited spans -> the claims citing them, over the drafts published (lsp/reuse.py; the event loop's)
        self.reuse = SpanIndex()
        # claims' verdicts kept in the index across starts (stored.py), and the fingerprint of the
        # workspace they are keyed by, with the (epoch, generation) it was taken at
        self.stored = Stored(self.ws, judge)
        self._fp: tuple[tuple[int, int], str | None] | None = None

    @property
    def settings(self) -> Settings:
        return self.ws.settings

    @property
    def verifier(self) -> Verifier:
        """The folder's verifier, made when it is first asked for (a claim to verify)."""
        with self._verifier_lock:
            if self._verifier is None:
                # claims are to be verified: the collector runs, as in any check (a server's start
                # pauses it, cli/process.py: pause_gc_for_server_start)
                gc.enable()
                from ..verify.verifier import Verifier

                verifier = Verifier(self.ws, judge=self.judge)
                # never while typing: the search for contradicting sources (`conflicting-source`) is
                # not run by the checks of an edit
                verifier.conflicts = False
                self._verifier = verifier
            return self._verifier

    def _invalidate(self) -> None:
        """Forget what was read from the store (after re-indexing)."""
        if self._verifier is not None:
            self._verifier.invalidate()
        self._source_warnings.clear()

    @property
    def stamp(self) -> tuple[int, int]:
        return self.epoch, self.generation

    def contains(self, path: Path) -> bool:
        return path == self.root or self.root in path.parents

    def is_source(self, path: Path) -> bool:
        return self.ws.is_under_source_root(path)

    # -- indexing (engine thread) ---------------------------------------------------

    def index_all(self, progress=None) -> IndexResult:
        """Index every source (incremental). A damaged store is rebuilt (engine.index);
        one only locked by another process is left alone: StoreError."""
        res = engine.index(self.ws, progress)
        self._invalidate()
        self.indexed = True
        self._record_change(set(res.indexed) | set(res.removed) | set(res.errors), None)
        return res

    def reindex(self, identities: list[str]) -> tuple[IndexResult, list[Path]]:
        """Index these sources again (a watcher's report); the drafts to re-check."""
        identities = [i for i in identities if is_source_name(i.rsplit("/", 1)[-1])]
        if not identities:
            return IndexResult(), []
        store = self.ws.store
        before = {c.chunk_id for c in store.current_chunks(identities)}
        try:
            res = self.ws.index(only=identities)
        except sqlite3.DatabaseError as exc:
            if engine.is_locked(exc):
                raise StoreError(f"the index {getattr(store, 'path', self.root)} is locked by another process: {exc}") from exc
            log.warning("the index of %s is damaged (%s); rebuilding it", self.root, exc)
            store.recover(exc)
            res = self.ws.index()
        changed = set(res.indexed) | set(res.removed) | set(res.errors)
        if not changed:
            return res, []
        after = {c.chunk_id for c in store.current_chunks(sorted(changed))}
        self._invalidate()
        sources, chunk_ids = self._record_change(changed, before | after)
        affected = [p for p, (ids, srcs, unresolved) in self._cites.items()
                    if unresolved or srcs & sources or ids & chunk_ids]
        return res, affected

    def _record_change(self, sources: set[str], chunk_ids: set[str] | None):
        if not sources:
            return frozenset(), frozenset()
        self.generation += 1
        s = frozenset(sources)
        c = frozenset(chunk_ids) if chunk_ids is not None else None
        if c is None:
            # a full index run: every verdict may have changed
            self.epoch += 1
            c = frozenset()
        self._changes.append((self.generation, s, c))
        return s, c

    def answers_now(self) -> set[Path]:
        """The workspace's answers, as `cairn check` finds them: Markdown drafts and the
        `.json`/`.jsonl` answer files a `drafts` glob matches. None while the configuration is refused."""
        if self.config_error is not None:
            return set()
        return {p.resolve() for p in self.ws.answers(None)}

    # -- checking (engine thread) ---------------------------------------------------

    def _fresh(self, seg: Segment) -> bool:
        if seg.epoch != self.epoch:
            return False
        if seg.generation == self.generation:
            return True
        return not any(g > seg.generation and seg.touched_by(s, c) for g, s, c in self._changes)

    def _claim_fresh(self, cr: ClaimResult, seg: Segment) -> bool:
        """May a claim of a stale piece keep its verdict? Yes when no source change since
        the piece was verified touched what this claim cites."""
        if seg.epoch != self.epoch:
            return False
        ids = {r.citation.chunk_id for r in cr.citations if r.citation.chunk_id}
        srcs = {r.citation.source for r in cr.citations if r.citation.source}
        srcs |= {r.chunk.source for r in cr.citations if r.chunk is not None}
        if any(not r.resolved for r in cr.citations):
            return False
        return not any(g > seg.generation and (srcs & s or ids & c) for g, s, c in self._changes)

    def _fingerprint(self, fresh: bool) -> str | None:
        """The workspace's fingerprint (stored.py), taken again when asked `fresh` or when a source
        changed since; else the one taken last (an edit's check runs no git)."""
        if fresh or self._fp is None or self._fp[0] != self.stamp:
            first = self._fp is None
            self._fp = (self.stamp, self.stored.fingerprint())
            if first:
                self.stored.prune()
        return self._fp[1]

    def check(self, path: Path, uri: str, text: str, version: int | None, *, is_open: bool,
              encoding_problem: bool, previous: DraftState | None) -> DraftState:
        rel = self.ws.relpath(path)
        # the claims verified (not reused) by this check, to be written to the index; a draft's first
        # check since the folder was made (an open, the start) takes the fingerprint afresh
        keep = _Keep(self, rel, fresh=previous is None)
        placed_text = segments.pieces(text)
        old: dict[str, Segment] = {}
        if previous is not None:
            for _, prev in previous.placed:
                old.setdefault(prev.text, prev)
        wanted = {t for _, t in placed_text}
        # verdicts of claims in pieces that changed, for a claim that merely moved
        claim_cache: dict[tuple, ClaimResult] | None = None
        made: dict[str, Segment] = {}
        placed: list[tuple[int, Segment]] = []
        uncited = 0
        # the pieces to verify, parsed first so that their claims are read ahead together (a draft
        # opened whole, or a source change: many claims at once)
        parsed: dict[str, DraftDoc] = {}
        for _, piece in placed_text:
            before = old.get(piece)
            if piece not in parsed and (before is None or not self._fresh(before)):
                parsed[piece] = before.doc if before is not None else drafts_mod.parse_draft(piece)
        # their claims' verdicts kept in the index are read first: only the others are read ahead
        keep.read_back(claim for doc in parsed.values() for claim in doc.claims)
        ahead = [claim for doc in parsed.values() for claim in doc.claims if id(claim) not in keep.found]
        if ahead:
            self.verifier.read_ahead(ahead)
        for line, piece in placed_text:
            seg = made.get(piece)
            if seg is None:
                seg = old.get(piece)
                if seg is None or not self._fresh(seg):
                    if claim_cache is None:
                        claim_cache = {}
                        for t, s in old.items():
                            if t not in wanted and self._fresh(s):
                                for cr in s.claims:
                                    claim_cache.setdefault(layout_key(cr.claim), cr)
                    seg = self._verify(piece, seg, claim_cache, parsed, keep)
                made[piece] = seg
            placed.append((line, seg))
            uncited += seg.doc.uncited_paragraphs
        steady = keep.write()
        final_fp = None
        if keep.fresh and steady and keep.fp is not None and all(
                self.stored.wanted(cr) for _, seg in placed for cr in seg.claims):
            final_fp = keep.fp
        state = DraftState(
            path=path, rel=rel, uri=uri, version=version, text=text, is_open=is_open,
            encoding_problem=encoding_problem, placed=placed,
            draft_diagnostics=self._draft_diagnostics(placed, encoding_problem),
            uncited_paragraphs=uncited, stamp=self.stamp, final_fp=final_fp,
        )
        ids: set[str] = set()
        srcs: set[str] = set()
        unresolved = False
        for seg in made.values():
            ids |= seg.chunk_ids
            srcs |= seg.sources
            unresolved = unresolved or seg.unresolved
        self._cites[path] = (frozenset(ids), frozenset(srcs), unresolved)
        return state

    def kept_first(self, path: Path, uri: str, text: str, encoding_problem: bool) -> Kept | None:
        """The diagnostics kept in the index for this text of the draft (kept_diagnostics.py),
        under the workspace's fingerprint taken afresh; None when there are none."""
        fp = self._fingerprint(True)
        if fp is None:
            return None
        rel = self.ws.relpath(path)
        data = kept_diagnostics.key_data(uri, self.root, self.codec.encoding, encoding_problem, text)
        found = self.stored.entry(fp, rel, data)
        kept = kept_diagnostics.load(found, rel) if found is not None else None
        return replace(kept, where=(fp, data)) if kept is not None else None

    def keep_first(self, state: DraftState, own: list, probes: list, kept: Kept | None) -> None:
        """Keep what a draft's first check published (its own diagnostics and its citations' probes
        of the span index) under the fingerprint its verdicts are of, while it is still the
        workspace's; `kept`: the entry read for the same text, if any (an equal one is not written)."""
        fp = state.final_fp
        if fp is None or self._fingerprint(True) != fp:
            return
        text = kept_diagnostics.dump(own, probes)
        data = kept_diagnostics.key_data(state.uri, self.root, self.codec.encoding, state.encoding_problem, state.text)
        if kept is not None and kept.where == (fp, data) and kept.text == text:
            return  # the entry is there already
        self.stored.put_entry(fp, state.rel, data, text)

    def check_disk(self, path: Path, uri: str, previous: DraftState | None) -> DraftState | None:
        try:
            text, bad = drafts_mod.read_draft(path)
        except OSError:
            self._cites.pop(path, None)
            return None
        return self.check(path, uri, text, None, is_open=False, encoding_problem=bad, previous=previous)

    def check_json(self, path: Path, uri: str, text: str | None = None, version: int | None = None,
                   encoding_problem: bool = False) -> JsonState | None:
        """A JSON answer file checked as `cairn check` checks it: from disk, or the `text` an editor
        holds open (at `version`); None when the file on disk cannot be read."""
        if text is not None:
            checked = engine.check_answer_text(self.ws, self.verifier, path, text, encoding_problem)
        else:
            try:
                checked = engine.check_file(self.ws, self.verifier, path)
            except OSError:
                self._cites.pop(path, None)
                return None
        state = json_state(path, self.ws.relpath(path), uri, checked, self.codec, lambda r: cited_location(self, r),
                           version=version if text is not None else None)
        self._cites[path] = cited_by([cr for r in state.answers for cr in r.claims])
        return state

    def forget(self, path: Path) -> None:
        self._cites.pop(path, None)

    def _verify(self, text: str, stale: Segment | None, cache: dict, parsed: dict | None = None,
                keep: _Keep | None = None) -> Segment:
        """Verify a piece: new, or the same text whose verdicts a source change may have made stale;
        `parsed`: pieces already parsed (text -> draft); `keep`: the verdicts kept in the index
        (read back for a claim not known in memory, written for one verified)."""
        doc = stale.doc if stale is not None else (parsed or {}).get(text) or drafts_mod.parse_draft(text)
        seg = Segment(text=text, doc=doc, lines=stale.lines if stale is not None else drafts_mod.split_lines(text),
                      epoch=self.epoch, generation=self.generation)
        kept = {}
        if stale is not None:
            kept = {id(cr.claim): cr for cr in stale.claims if self._claim_fresh(cr, stale)}
        results = []
        for claim in doc.claims:
            hit = kept.get(id(claim))
            if hit is None:
                hit = cache.get(layout_key(claim)) if cache else None
                if hit is not None:
                    hit = _rebind(hit, claim)
                elif keep is not None:
                    hit = keep.verdict(claim)
                else:
                    hit = self.verifier.verify_claim(claim)
            results.append(hit)
        return self._fill(seg, results)

    def _fill(self, seg: Segment, results: list[ClaimResult]) -> Segment:
        """A piece's verdicts and what is made of them: cited chunks, diagnostics, lenses."""
        seg.claims = results
        seg.chunk_ids, seg.sources, seg.unresolved = cited_by(results)
        for cr in results:
            chunk_sources = tuple(dict.fromkeys(r.chunk.source for r in cr.citations if r.chunk is not None))
            if chunk_sources:
                seg.cited_sources.append((cr, chunk_sources))

        def locate(r):
            return cited_location(self, r)

        lsp = []
        for cr in results:
            lsp += claim_diagnostics(cr, seg.lines, self.codec, locate)
        seg.lsp = lsp
        seg.lenses = segment_lenses(self, seg, self.codec)
        return seg

    def with_verdicts(self, state: DraftState, judged: dict[int, ClaimResult]) -> DraftState:
        """The draft with the judge's verdicts in place of the claims they were asked for.

        `judged` maps id(a ClaimResult of `state`) to its judged result. The pieces
        holding such claims are made again (diagnostics, lenses) from the new results;
        the rest is shared. Their verdicts stay for later checks: a piece whose text
        does not change keeps them, as every verdict it has."""
        made: dict[int, Segment] = {}
        placed: list[tuple[int, Segment]] = []
        for line, seg in state.placed:
            new = made.get(id(seg))
            if new is None:
                new = seg
                if any(id(cr) in judged for cr in seg.claims):
                    new = Segment(text=seg.text, doc=seg.doc, lines=seg.lines,
                                  epoch=seg.epoch, generation=seg.generation)
                    self._fill(new, [judged.get(id(cr), cr) for cr in seg.claims])
                made[id(seg)] = new
            placed.append((line, new))
        if all(new is seg for (_, new), (_, seg) in zip(placed, state.placed)):
            return state
        return replace(state, placed=placed)

    def _draft_diagnostics(self, placed: list[tuple[int, Segment]], encoding_problem: bool) -> list[Diagnostic]:
        """The draft's own diagnostics (encoding of the draft and of the sources it cites), made
        by the engine from the verified claims: one claim per new source is enough, since a
        source's warnings are the same whichever claim cites it."""
        seen: set[str] = set()
        reps: list[ClaimResult] = []
        for _, seg in placed:
            for cr, srcs in seg.cited_sources:
                if any(s not in seen for s in srcs):
                    seen.update(srcs)
                    reps.append(cr)
        return draft_diagnostics(self.ws.store, self._source_warnings, reps, encoding_problem=encoding_problem)


class _Keep:
    """One check's use of the verdicts kept in the index (stored.py): a claim's verdict read back,
    else verified and written when the check ends (when the workspace did not change meanwhile)."""

    def __init__(self, folder: Folder, rel: str, *, fresh: bool) -> None:
        self.folder, self.rel, self.fresh = folder, rel, fresh
        self.fp: str | None = None
        self.asked = False
        self.verified: list[ClaimResult] = []
        self.found: dict[int, ClaimResult] = {}  # id(claim) -> its verdict read from the index
        self.reused = 0

    def read_back(self, claims: Iterable[Claim]) -> None:
        """Read the kept verdicts of these claims (those of the pieces to verify)."""
        for claim in claims:
            if not self.asked:
                self.asked = True
                self.fp = self.folder._fingerprint(self.fresh)
            if self.fp is None:
                return
            got = self.folder.stored.get(self.fp, self.rel, claim)
            if got is not None:
                self.found[id(claim)] = got

    def verdict(self, claim: Claim) -> ClaimResult:
        got = self.found.pop(id(claim), None)
        if got is not None:
            self.reused += 1
            return got
        if not self.asked:
            self.asked = True
            self.fp = self.folder._fingerprint(self.fresh)
        cr = self.folder.verifier.verify_claim(claim)
        self.verified.append(cr)
        return cr

    def write(self) -> bool:
        """Write the verdicts verified; whether the check's verdicts are those of the fingerprint
        `fp` (read back under it, or verified while the workspace stayed as it says)."""
        if not self.asked:
            return True
        folder = self.folder
        if self.fresh or self.reused:
            log.info("%s: %d claim(s) verified, %d verdict(s) read from the index", self.rel,
                     len(self.verified), self.reused)
        if self.fp is None or not self.verified:
            return True
        if self.fresh and folder._fingerprint(True) != self.fp:
            return False  # the workspace changed while its claims were verified: these verdicts are not kept
        folder.stored.put(self.fp, self.rel, self.verified)
        return True
