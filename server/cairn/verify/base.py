"""What the verifier's policy rules (`policy`, `derived`, `dates`) see of the verifier.

They are called by the verifier and call back into it; the protocol here is the floor both stand
on, so neither module imports the other (the verifier imports them, they import this).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..core.model import Citation, CitationResult, Claim, Diagnostic
    from ..index.workspace import Workspace
    from ..meaning import NumberMismatch
    from ..store import IndexStore


class VerifierView(Protocol):
    """The verifier as its policy rules use it."""

    ws: Workspace
    store: IndexStore
    caches: dict[str, object]  # per-verifier state a rule keeps (the date book), by rule

    def verify_citation(self, cit: Citation) -> tuple[CitationResult, list[Diagnostic]]: ...

    def _meaning(self, claim: Claim, results: list[CitationResult], *, polarity: bool = True,
                 titles: bool = False) -> tuple[list[Diagnostic], list[NumberMismatch]]: ...
