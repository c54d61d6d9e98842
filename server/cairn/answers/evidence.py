"""Evidence for a claim: the passages of the sources that are about it and support it.

The reverse of verification. Verification takes a claim and its citations
and says whether they back it; this takes a claim alone and finds what in
the sources would back it, so a writer can cite it (`cairn cite --for`, the
editor's "Cite a source for this claim"; SPEC section 6).

1. Candidates: the current chunks a full-text search ranks best for the
   claim's words (numbers and names first), from the store; denied sources
   are never candidates.
2. Relevance before support: a chunk is read only when it is about the claim,
   when it holds enough of the claim's key terms weighted by their rarity in
   the sources (answers.relevance). A chunk that is not is only a near miss,
   labelled as not answering.
3. A relevant chunk is read sentence by sentence, its page chrome left out
   (answers.quality). A span of one to three whole sentences is scored with
   the support check that verifies citations, and a span that scores enough
   is also put through the meaning rules; the shortest span that passes is
   the chunk's offer (the best scoring among spans of that size).
4. Ranking: the passages that support the claim first, by their support, then
   by relevance (a long passage that backs every word before a short one that
   backs half); then the others, by relevance, then support.
5. The same check as `cairn check` (`confirm`, made by `check_confirm`):
   each passage offered as support is written as a cite block under the claim
   and verified as a draft is; one that `check` would fail is demoted with
   check's reason. What is offered as support, check verifies.

A span's words are a subset of its chunk's, so a chunk whose whole text
scores below the threshold cannot hold a supporting span: only its best
sentence is scored, to show as a near miss.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .. import meaning
from ..core.model import Chunk
from ..index.retrieval import query_words, retrieve
from ..support import check_support
from .quality import prose_sentences
from .relevance import RELEVANT, Terms, key_terms

if TYPE_CHECKING:
    from ..index.workspace import Workspace

__all__ = ["Found", "Passage", "check_confirm", "evidence_for", "find_evidence", "query_words", "retrieve"]

MAX_SENTENCES = 3  # the longest span offered, in sentences
# a chunk holding fewer of the key terms than RELEVANT, but at least this share and every name the claim
# gives, is still about a claim whose words the support check finds in it ("Credits go back to …" for "Credits are issued to …": the
# claim's own phrasing, "go back", is no term the passage could be expected to hold)
PARAPHRASED = 0.4
NOTHING = "nothing in the sources answers this"
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")


@dataclass(frozen=True, slots=True)
class Passage:
    """A span of a chunk offered as evidence for a claim."""

    chunk: Chunk
    start: int  # offsets in the chunk's text, as a cite block writes them
    end: int
    score: float  # the support check's score of the claim against this span
    supports: bool  # about the claim, the score reaches the threshold, no meaning rule fails, check verifies it
    why: str = ""  # when it does not support: what falls short ("support 0.31 < 0.5", a meaning rule's message)
    relevance: float = 1.0  # the weighted share of the claim's key terms its chunk holds (answers.relevance)

    @property
    def quote(self) -> str:
        return self.chunk.text[self.start:self.end]

    @property
    def relevant(self) -> bool:
        return self.relevance >= RELEVANT


Confirm = Callable[[str, Passage], str]  # (claim, passage) -> "" when check verifies it, else why not


def find_evidence(
    claim: str,
    candidates: Iterable[Chunk],
    *,
    threshold: float = 0.5,
    mode: str = "calibrated",
    allowed: Callable[[str], bool] = lambda source: True,
    k: int = 3,
    title: Callable[[Chunk], str] = lambda chunk: "",
    terms: Terms | None = None,
    confirm: Confirm | None = None,
) -> list[Passage]:
    """The `k` best passages for `claim` among `candidates`, best first: every
    passage that supports the claim (by support, then relevance) before any that
    does not (by relevance, then support). `allowed` decides which sources may be
    read; `title` gives a chunk's source title for the identifier rule; `terms`,
    the claim's weighted key terms (without them every candidate is about it);
    `confirm`, the check a supporting passage must also pass."""
    found: list[Passage] = []
    seen: set[tuple[str, str]] = set()
    off: list[tuple[float, int, Chunk]] = []  # the chunks not about the claim: near misses at most
    for i, chunk in enumerate(candidates):
        if not allowed(chunk.source):
            continue
        key = (chunk.source, chunk.text)
        if key in seen:
            continue  # the same paragraph in another version or chunk id: offered once
        seen.add(key)
        relevance = terms.about(chunk.text, chunk.source) if terms is not None else 1.0
        if relevance < RELEVANT and terms is not None and not (
                relevance >= PARAPHRASED and terms.names_held(chunk.text, chunk.source) and (check_support(claim, [chunk.text], threshold=threshold,
                                                            mode=mode).score or 0.0) >= threshold):
            off.append((relevance, i, chunk))
            continue
        best = _best_span(claim, chunk, threshold=threshold, mode=mode, title=title)
        if best is not None and best.score > 0:  # a passage sharing no word with the claim is no near miss
            found.append(replace(best, relevance=relevance))
    if terms is not None and len(found) < k:
        # only as many as are shown, the most relevant, and only their sentence holding most of the terms
        off.sort(key=lambda x: (-x[0], x[1]))
        for relevance, _, chunk in off[:k - len(found)]:
            near = _near_miss(claim, chunk, terms, threshold=threshold, mode=mode)
            if near is not None:
                lacks = ", ".join(f"\u201c{t}\u201d" for t in terms.missing(chunk.text, chunk.source)[:3])
                found.append(replace(near, relevance=relevance,
                                     why=f"not about the claim ({relevance:.0%} of its key terms; lacks {lacks})"))
    found.sort(key=_rank)
    if confirm is not None:
        found = _confirmed(claim, found, confirm, k)
    return found[:k]


def _confirmed(claim: str, found: list[Passage], confirm: Confirm, k: int) -> list[Passage]:
    """The supporting passages, best first, put through `confirm` until k pass; the ones
    it fails lose their "supports" with its reason."""
    out: list[Passage] = []
    passed = 0
    for p in found:
        if p.supports and passed < k:
            why = confirm(claim, p)
            if why:
                p = replace(p, supports=False, why=why)
            else:
                passed += 1
        elif p.supports:
            continue  # beyond the k offered: never shown unconfirmed
        out.append(p)
    out.sort(key=_rank)
    return out


def _rank(p: Passage) -> tuple:
    if p.supports:
        return (0, -round(p.score, 6), -p.relevance, p.chunk.source, p.chunk.start, p.start)
    return (1, -p.relevant, -round(p.relevance, 6), -p.score, p.chunk.source, p.chunk.start, p.start)


def _near_miss(claim: str, chunk: Chunk, terms: Terms, *, threshold: float, mode: str) -> Passage | None:
    """A chunk not about the claim, shown as the closest: its sentence holding most of the terms."""
    spans = [sp for g in prose_sentences(chunk.text) for sp in g]
    if not spans:
        return None
    s, e = max(spans, key=lambda sp: terms.about(chunk.text[sp[0]:sp[1]]))
    score = check_support(claim, [chunk.text[s:e]], threshold=threshold, mode=mode).score or 0.0
    return Passage(chunk, s, e, score, False)


def _best_span(claim: str, chunk: Chunk, *, threshold: float, mode: str,
               title: Callable[[Chunk], str], relevant: bool = True) -> Passage | None:
    text = chunk.text
    groups = prose_sentences(text)
    if not groups:
        return None
    whole = check_support(claim, [text], threshold=threshold, mode=mode).score or 0.0
    longest = max(len(g) for g in groups)
    sizes = range(1, min(MAX_SENTENCES, longest) + 1) if whole >= threshold and relevant else range(1, 2)
    near: Passage | None = None
    refuted: Passage | None = None  # a span the meaning rules fail: the chunk says otherwise
    for size in sizes:
        passing: list[Passage] = []
        for group in groups:
            for i in range(len(group) - size + 1):
                s, e = group[i][0], group[i + size - 1][1]
                score = check_support(claim, [text[s:e]], threshold=threshold, mode=mode).score or 0.0
                if score >= threshold and relevant:
                    why = _meaning(claim, chunk, s, e, title)
                    p = Passage(chunk, s, e, score, not why, why)
                    if p.supports:
                        passing.append(p)
                        continue
                    if refuted is None or p.score > refuted.score:
                        refuted = p
                else:
                    p = Passage(chunk, s, e, score, False, f"support {score:.2f} < {threshold:g}")
                if near is None or p.score > near.score:
                    near = p
        if passing:
            best = max(passing, key=lambda p: p.score)
            # a passage saying the opposite of the claim as strongly as it backs it is never support
            # ("libffi is not completely thread-safe. However, many parts are, ...")
            return refuted if refuted is not None and refuted.score >= best.score else best
    return refuted or near


def _meaning(claim: str, chunk: Chunk, s: int, e: int, title: Callable[[Chunk], str]) -> str:
    """The first meaning rule the span fails for this claim, as its message; "" when none."""
    found = meaning.check(claim, [meaning.Evidence(chunk.text[s:e], chunk.text, s, e, title(chunk))])
    if found.numbers:
        return found.numbers[0].message
    if found.contradictions:
        return found.contradictions[0].message
    if found.relations:
        return found.relations[0].message
    if found.context:
        return found.context[0][1].message
    return ""


# -- the workspace's evidence, as the CLI and the editor ask for it ---------------------------


@dataclass(slots=True)
class Found:
    """The passages for a claim, best first, and whether any is about it at all."""

    claim: str
    passages: list[Passage] = field(default_factory=list)

    @property
    def supported(self) -> bool:
        return any(p.supports for p in self.passages)

    @property
    def answered(self) -> bool:
        """Some passage is about the claim (else: nothing in the sources answers it)."""
        return any(p.relevant for p in self.passages)


def check_confirm(ws: Workspace) -> Confirm:
    """`confirm` for find_evidence: the passage written as a cite block under the claim,
    verified as `cairn check` verifies a draft (every rule, the sentence reader's
    included); "" when the claim is verified, else check's first reason."""
    from ..drafts.binding import claim_field
    from ..drafts.fields import block_text, citation_values
    from ..drafts.walk import parse_draft
    from ..verify.verifier import Verifier

    verifier = Verifier(ws)

    def confirm(claim: str, p: Passage) -> str:
        cit = {**citation_values(p.chunk, p.start, p.end), "claim": claim_field(claim)}
        doc = parse_draft(f"{' '.join(claim.split())}\n\n{block_text([cit])}")
        result = verifier.verify_draft("<evidence>", doc)
        if len(result.claims) != 1:
            return "cairn check does not read it as one claim with its block"
        (cr,) = result.claims
        if cr.supported:
            return ""
        reasons = [d.message for d in cr.diagnostics if d.fails] or [d.message for d in cr.diagnostics]
        return "cairn check fails it: " + (reasons[0] if reasons else f"support {cr.support_score or 0:.2f}")

    return confirm


def evidence_for(ws: Workspace, claim: str, *, k: int = 3, named: Callable[[str], bool] | None = None,
                 exclude: Callable[[Chunk], bool] | None = None) -> Found:
    """`cairn cite --for` and the editor's "Cite a source for this claim": the `k` best
    passages of the readable (and `named`) sources for `claim`, each offered as support
    only when check verifies it. `exclude`: chunks never offered (a copy of the draft)."""
    cfg = ws.settings.config
    readable = ws.readable_sources(named)

    def allowed(source: str) -> bool:
        return ws.allowed(source) and (named is None or named(source))

    candidates = retrieve(ws.store, claim, readable=readable)
    if exclude is not None:
        candidates = [c for c in candidates if not exclude(c)]
    terms = key_terms(claim, ws.store, readable)
    passages = find_evidence(claim, candidates, threshold=cfg.threshold, mode=cfg.support.mode, allowed=allowed,
                             k=k, terms=terms, confirm=check_confirm(ws))
    return Found(claim, passages)
