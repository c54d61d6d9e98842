"""Sources that disagree with a verified claim (`conflicting-source`, SPEC sections 4 and 7).

A claim's citations may all resolve and back it while another source of the
workspace says otherwise: an internal draft says refunds take 5 days, the
authoritative policy 14. For each verified claim:

1. the passages about the same thing are those `cairn cite --for` would
   retrieve for it (`answers.evidence.retrieve`: the store's full-text
   ranking, among the sources the current principal may read only, so a
   denied source is never a candidate, never read and never named);
2. the claim's own cited sources are left out; so are sources of a lower
   authority tier than the best tier backing the claim (any source counts
   when no tiers are set);
3. each sentence of a candidate chunk that backs one of the claim's parts
   by the support check (it is about the same thing) is checked against that
   part with the meaning rules: another number, amount or date
   (`number-mismatch`, the passage stating one), an opposite polarity or
   direction (`contradiction`), another pairing (`relation-mismatch`).

The first contradicting passage (in ranking order) gives the warning,
quoting it with its source, tier and date, and saying which the policy
prefers: the higher tier, else the newer date. `[authority] conflicts =
"fail"` makes it fail the claim; `"off"` does not look.

Cost: one ranked search per verified claim (CANDIDATES chunks), and the
sentence scores of the few chunks whose whole text backs a part; the
verdict cache of a warm `cairn check` keeps the findings (the store's state
is in its key). In the editor it runs in the background, never while typing
(lsp/conflicts.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import meaning
from ..core.model import Chunk, CitationResult, Claim, Diagnostic, Part
from ..support import check_support
from .parts import backing

if TYPE_CHECKING:
    from .base import VerifierView

CODE = "conflicting-source"
CANDIDATES = 12  # chunks the ranking hands over per claim
_NUMBER_KINDS = ("number", "range", "date")
READABLE = "conflicts:readable"  # the key of the readable sources in the verifier's caches


@dataclass(frozen=True, slots=True)
class Conflict:
    chunk: Chunk
    sentence: str
    finding: str  # the meaning rule's message ("claim says 5 days; quotes say 14 days")
    tier: str | None
    date: str | None


def find(verifier: VerifierView, claim: Claim, results: list[CitationResult], parts: Sequence[Part],
         ) -> list[Conflict]:
    """The passages of other readable sources that contradict the claim, best ranked first."""
    from ..index.retrieval import retrieve

    ws = verifier.ws
    cfg = ws.settings.config
    policy = ws.settings.policy
    cited = {r.chunk.source for r in results if r.chunk is not None}
    best = _best_rank(verifier, results, parts)
    texts = [p.text for p in parts] or [" ".join(claim.text.split())]
    try:
        candidates = retrieve(verifier.store, claim.text, CANDIDATES, readable=_readable(verifier))
    except Exception:  # noqa: BLE001 - a search that fails finds no conflict; the claim's verdict stands
        return []
    out: list[Conflict] = []
    seen: set[str] = set()
    for chunk in candidates:
        source = chunk.source
        if source in cited or chunk.text in seen or not ws.allowed(source):
            continue
        seen.add(chunk.text)
        sp = policy.of(source)
        if best is not None and sp.rank is not None and sp.rank > best:
            continue  # a lower tier than the claim rests on
        found = _contradicts(texts, chunk, threshold=cfg.threshold)
        if found is not None:
            sentence, finding = found
            date = _date(verifier, chunk)
            out.append(Conflict(chunk, sentence, finding, sp.authority, date))
    return out


def diagnostics(verifier: VerifierView, claim: Claim, results: list[CitationResult], parts: Sequence[Part],
                ) -> list[Diagnostic]:
    """The claim's `conflicting-source` warning (none when `[authority] conflicts = "off"`)."""
    mode = verifier.ws.settings.config.authority.conflicts
    if mode == "off":
        return []
    found = find(verifier, claim, results, parts)
    if not found:
        return []
    first = found[0]
    more = f" (and {len(found) - 1} more source{'s' if len(found) > 2 else ''})" if len(found) > 1 else ""
    where = first.chunk.source + (f" p.{first.chunk.page}" if first.chunk.page else "")
    said = " ".join(first.sentence.split())
    tier = first.tier or "no tier"
    dated = first.date or "undated"
    msg = (f"{where} ({tier}, {dated}) says \u201c{_short(said)}\u201d: {first.finding}; "
           f"{_preference(verifier, results, parts, first)}{more}")
    return [Diagnostic(CODE, msg, claim.line, claim.range, strict=mode == "fail")]


def _preference(verifier: VerifierView, results: list[CitationResult], parts: Sequence[Part], c: Conflict) -> str:
    """Which side the policy prefers: the higher tier, else the newer date."""
    policy = verifier.ws.settings.policy
    backed = [results[i] for i in backing(list(parts), len(results)) if i < len(results)]
    mine = [r for r in backed if r.chunk is not None]
    other = policy.of(c.chunk.source)
    best = _best_rank(verifier, results, parts)
    if best is not None and other.rank is not None and other.rank < best:
        return f"the policy prefers {c.chunk.source}: its tier {other.authority!r} is above the claim's sources"
    dates = [r.date for r in mine if r.date]
    if c.date and dates:
        newest = max(dates)
        if c.date > newest:
            return f"the policy prefers {c.chunk.source}: it is newer ({c.date}) than the claim's sources ({newest})"
        if c.date < newest:
            return f"the policy prefers the claim's sources: they are newer ({newest}) than {c.date}"
    return "the policy prefers neither (the same tier, and no dates that order them): check which is current"


def _best_rank(verifier: VerifierView, results: list[CitationResult], parts: Sequence[Part]) -> int | None:
    """The highest tier (lowest rank) among the citations backing the claim; None without tiers."""
    policy = verifier.ws.settings.policy
    chunks = [results[i].chunk for i in backing(list(parts), len(results)) if i < len(results)]
    ranks = [policy.of(ch.source).rank for ch in chunks if ch is not None]
    known = [r for r in ranks if r is not None]
    return min(known) if known else None


def _contradicts(parts: list[str], chunk: Chunk, *, threshold: float) -> tuple[str, str] | None:
    """(the sentence, the meaning rule's message) of the first sentence of `chunk` that is about one
    of the claim's parts and contradicts it; None when none does. "About" is the seed rule's share of
    the part's words (SPEC section 4): the calibrated mode reads names and headings a passage
    found by search has no use for, at ten times the cost."""
    text = chunk.text
    mode = "seed"
    about = [p for p in parts if (check_support(p, [text], threshold=threshold, mode=mode).score or 0.0) >= threshold]
    if not about:
        return None  # a sentence's words are a subset of its chunk's: none can back a part
    for s, e in meaning.sentence_spans(text):
        sentence = text[s:e]
        for part in about:
            if (check_support(part, [sentence], threshold=threshold, mode=mode).score or 0.0) < threshold:
                continue
            if _other_group(part, sentence):
                continue
            found = meaning.check(part, [meaning.Evidence(sentence, text, s, e)])
            numbers = [n for n in found.numbers
                       if n.kind in _NUMBER_KINDS and n.where == "quotes" and not n.quotes.startswith("no ")]
            if numbers:
                return sentence, numbers[0].message.replace("quotes say", "it says")
            if found.contradictions:
                return sentence, found.contradictions[0].message.replace("quote says", "it says")
            if found.relations:
                return sentence, found.relations[0].message
    return None


_PRIVATIVE = re.compile(r"(?<![\w-])(?:non|un)-?([^\W\d_]{3,})", re.IGNORECASE)


def _other_group(part: str, sentence: str) -> bool:
    """Whether the sentence speaks of the complement of a group the part names: "non-perishable goods"
    against "perishable goods" (the figures of one group say nothing against the other's)."""
    mine = {w.lower() for w in re.findall(r"[^\W\d_]+", part)}
    low = part.lower()
    for m in _PRIVATIVE.finditer(sentence):
        if m.group(1).lower() in mine and m.group(0).lower() not in low:
            return True
    return False


def _readable(verifier: VerifierView) -> list[str] | None:
    """The current sources the principal may read (None: all), once per verifier (Verifier.invalidate
    forgets it when the index changes)."""
    got = verifier.caches.get(READABLE)
    if isinstance(got, tuple):
        return got[0]
    readable = verifier.ws.readable_sources()
    verifier.caches[READABLE] = (readable,)
    return readable


def _date(verifier: VerifierView, chunk: Chunk) -> str | None:
    from .dates import book_for

    return book_for(verifier).date(chunk.source, chunk.version)


def _short(text: str, n: int = 200) -> str:
    return text if len(text) <= n else text[: n - 1] + "\u2026"
