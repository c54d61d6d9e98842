"""The verifier's policy rules (SPEC section 4): `source-denied` for a source
the current principal may not read, `low-authority` for a claim that rests
only on sources below `authority.minimum`, and `derived-source` for a
citation of a summary or extract (derived.py follows its lineage)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.model import CitationResult, Claim, Diagnostic

if TYPE_CHECKING:
    from ..index.workspace import Workspace
    from .base import VerifierView


def denied_message(ws: Workspace, source: str, chunk_id: str | None = None) -> str:
    """Why a source is denied to the current principal; never any of its text."""
    policy = ws.settings.policy
    labels = ", ".join(policy.of(source).access)
    who = f"principal {policy.principal!r}"
    head = f"chunk {chunk_id} belongs to {source}, which" if chunk_id else f"source {source!r}"
    links = ws.link_paths(source)
    via = f"; it is a link to {links[-1]}, whose policy applies too" if links else ""
    return f"{head} is not readable by {who} (access: {labels}{via}): it is not read"


def tier_of(ws: Workspace, source: str | None) -> str | None:
    """The authority tier of a source, or None without `authority.tiers`."""
    if source is None:
        return None
    return ws.settings.policy.of(source).authority


def policy_diagnostics(verifier: VerifierView, claim: Claim, results: list[CitationResult],
                       backing: list[int] | None = None) -> list[Diagnostic]:
    """The claim-level policy findings over its citations' sources; `backing`: the indices of the
    citations whose quotes back some part of the claim (verify/parts.py), the only ones whose
    tier counts for `low-authority` (all of them when None)."""
    ws = verifier.ws
    policy = ws.settings.policy
    out: list[Diagnostic] = []
    counted = results if backing is None else [results[i] for i in backing if i < len(results)]
    sources = [r.chunk.source for r in counted if r.chunk is not None]
    if sources and policy.minimum and all(policy.below_minimum(s) for s in sources):
        named = ", ".join(f"{s} ({policy.of(s).authority})" for s in dict.fromkeys(sources))
        others = ("; the other citations' quotes back no part of the claim, so their tiers do not count"
                  if len(counted) < len([r for r in results if r.chunk is not None]) else "")
        out.append(Diagnostic(
            "low-authority",
            f"every citation {'backing the claim ' if others else ''}rests on a source below the minimum tier"
            f" {policy.minimum!r}: {named}{others}",
            claim.line, claim.range))
    from .derived import derived_diagnostics

    out += derived_diagnostics(verifier, claim, results)
    return out
