"""Dates of sources and claims combining them (`mixed-dates`).

A source's date is stored with each indexed version (from its own metadata:
sources/dates.py). A claim whose resolved quotes come from sources dated
further apart than `date_window_days` gets a warning naming each source and
its date: "As of 2026 the depot, which opened in 2024, …" resting on a 2024
press release and a 2026 register is worth a second look. It never fails the
claim.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.model import CitationResult, Claim, Diagnostic

if TYPE_CHECKING:
    from ..index.workspace import Workspace
    from ..store import IndexStore
    from .base import VerifierView

CODE = "mixed-dates"

# A source policy's `date` (SPEC section 7, `[[policy]]`) wins over the source's
# metadata. Policies are not read yet; when they are, this is the one place to
# give their date: a function from a source identity to its policy date or None.
PolicyDate = Callable[[str], str | None]


def _no_policy(source: str) -> str | None:
    return None


class DateBook:
    """The dates of (source, version) pairs, read once from the store (versions are immutable)."""

    def __init__(self, store: IndexStore, policy_date: PolicyDate = _no_policy) -> None:
        self.store = store
        self.policy_date = policy_date
        self._dates: dict[tuple[str, str], str | None] = {}

    def date(self, source: str, version: str) -> str | None:
        """The date of a version of a source: its policy's `date`, else its own metadata."""
        policy = self.policy_date(source)
        if policy:
            return policy
        key = (source, version)
        if key not in self._dates:
            try:
                self._dates[key] = self.store.version_date(source, version)
            except Exception:  # noqa: BLE001 - a date is a hint: a store that cannot give one gives none
                self._dates[key] = None
        return self._dates[key]


def _policy_dates(ws: Workspace) -> PolicyDate:
    """A source's date from the workspace's `[[policy]]` entries (their `date` wins
    over the source's own metadata), as YYYY-MM-DD."""
    from ..core.policy import policy_date

    def date_of(source: str) -> str | None:
        got = policy_date(ws, source)
        return got.isoformat() if got is not None else None

    return date_of


def book_for(verifier: VerifierView) -> DateBook:
    """The verifier's date book (made on first use)."""
    book = verifier.caches.get(CODE)
    if not isinstance(book, DateBook) or book.store is not verifier.store:
        book = verifier.caches[CODE] = DateBook(verifier.store, _policy_dates(verifier.ws))
    return book


def date_results(results: list[CitationResult], book: DateBook) -> None:
    """Set each citation result's source date (the version its quote was found in)."""
    for r in results:
        ch = r.evidence[0] if r.evidence is not None else r.chunk
        if ch is not None:
            r.date = book.date(ch.source, ch.version)


def check_dates(claim: Claim, results: list[CitationResult], window_days: int) -> list[Diagnostic]:
    """`mixed-dates` when the claim's resolved sources are dated more than `window_days` apart."""
    dated: dict[str, str] = {}
    for r in results:
        if r.resolved and r.date:
            ch = r.evidence[0] if r.evidence is not None else r.chunk
            if ch is not None:
                dated.setdefault(ch.source, r.date)
    if len(set(dated.values())) < 2:
        return []
    days = [dt.date.fromisoformat(d) for d in dated.values()]
    gap = (max(days) - min(days)).days
    if gap <= window_days:
        return []
    named = ", ".join(f"{s} ({d})" for s, d in sorted(dated.items(), key=lambda kv: (kv[1], kv[0])))
    return [Diagnostic(CODE, f"the claim combines sources {gap} days apart (more than {window_days}): {named}",
                       claim.line, claim.range)]
