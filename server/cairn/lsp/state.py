"""The draft state the server's features read: a draft cut into pieces, each with its parse,
verdicts and LSP diagnostics, and the lookups the features share (the claim or citation at a
line, a diagnostic moved down to its piece's place).

checking.py makes these states (on the engine thread); hover, definition, lenses, actions and
completion only read them. A state is never changed once made.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from lsprotocol import types

from ..core.model import ClaimResult, Diagnostic, DraftDoc, DraftResult, Pos, Range
from .binding import publishable as moved_messages
from .diagnostics import to_lsp
from .positions import Codec


@dataclass(eq=False)
class Segment:
    """One piece of a draft: parse, verdicts and diagnostics, lines relative to its start."""

    text: str
    doc: DraftDoc
    lines: list[str]
    claims: list[ClaimResult] = field(default_factory=list)
    lsp: list[types.Diagnostic] = field(default_factory=list)
    epoch: int = 0
    generation: int = 0
    chunk_ids: frozenset[str] = frozenset()
    sources: frozenset[str] = frozenset()
    unresolved: bool = False
    lenses: list[tuple[int, int, str]] = field(default_factory=list)  # see lens.segment_lenses
    # claims citing chunks, with their chunks' sources in order (for draft-level diagnostics)
    cited_sources: list[tuple[ClaimResult, tuple[str, ...]]] = field(default_factory=list)

    def touched_by(self, sources: frozenset[str], chunk_ids: frozenset[str]) -> bool:
        return self.unresolved or bool(self.sources & sources) or bool(self.chunk_ids & chunk_ids)


UNCITED_SHOWN = 100  # uncited paragraphs of a draft shown one by one in the editor; one finding for the rest


@dataclass(eq=False)
class DraftState:
    path: Path
    rel: str
    uri: str
    version: int | None  # the editor's version; None when read from disk
    text: str
    is_open: bool
    encoding_problem: bool
    placed: list[tuple[int, Segment]]  # (first line, piece), in order
    draft_diagnostics: list[Diagnostic]  # encoding problems of the draft and its sources
    uncited_paragraphs: int = 0
    stamp: tuple[int, int] = (0, 0)  # the folder's (epoch, generation) the verdicts were made at
    # the workspace's fingerprint (stored.py) when every verdict is final and a function of it (a draft's
    # first check since its folder was made): what its diagnostics may be kept in the index under
    # (kept_diagnostics.py); else None
    final_fp: str | None = None
    _starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._starts = [line for line, _ in self.placed]

    # -- reading ------------------------------------------------------------------

    def uncited(self) -> list[tuple[int, str]]:
        """Each uncited prose paragraph: (its first line in the draft, 0-based; its text)."""
        return [(shift + line, text) for shift, seg in self.placed for line, text in seg.doc.uncited]

    def lsp_diagnostics(self) -> list[types.Diagnostic]:
        from ..report.base import uncited_message

        out = [to_lsp(d, [], Codec("utf-32")) for d in self.draft_diagnostics]
        # an information finding on the first line of each uncited paragraph (its whole line), the
        # first UNCITED_SHOWN of them: a draft of 40,000 list items does not send 40,000 findings
        listed = self.uncited()
        one_by_one = len(listed) if len(listed) <= UNCITED_SHOWN + 1 else UNCITED_SHOWN
        for i, (line, text) in enumerate(listed[:one_by_one + 1]):
            message = uncited_message(text) if i < one_by_one else (
                f"uncited prose: this paragraph and {len(listed) - one_by_one - 1} more below have no cite"
                " block (`cairn check --format json` lists them all)")
            out.append(to_lsp(Diagnostic("uncited-prose", message, line, Range(Pos(line, 0), Pos(line + 1, 0))),
                              [], Codec("utf-32")))
        for line, seg in self.placed:
            lsp = moved_messages(self, seg, line, seg.lsp)  # where a moved block's claim is now
            if not line:
                out.extend(lsp)
                continue
            for d in lsp:
                out.append(shifted(d, line))
        return out

    def claims(self) -> Iterator[tuple[int, ClaimResult, Segment]]:
        """(first line of the piece, claim result, piece) for every claim, in order."""
        for line, seg in self.placed:
            for cr in seg.claims:
                yield line, cr, seg

    def piece_at(self, line: int) -> tuple[int, Segment] | None:
        i = bisect_right(self._starts, line) - 1
        return self.placed[i] if i >= 0 else None

    def claim_at(self, line: int) -> tuple[int, ClaimResult, Segment] | None:
        """The claim whose text or one of whose cite blocks holds `line`."""
        found = self.piece_at(line)
        if found is None:
            return None
        shift, seg = found
        rel = line - shift
        for cr in seg.claims:
            c = cr.claim
            if c.range.start.line <= rel <= c.range.end.line or any(
                b.open_line <= rel <= b.close_line for b in c.blocks
            ):
                return shift, cr, seg
        return None

    def result(self) -> DraftResult:
        """The verdicts, lines relative to each piece (for metrics, not for lines)."""
        return DraftResult(
            path=self.rel,
            claims=[cr for _, cr, _ in self.claims()],
            diagnostics=list(self.draft_diagnostics),
            uncited_paragraphs=self.uncited_paragraphs,
            encoding_problem=self.encoding_problem, uncited=self.uncited(),
        )

    def absolute_result(self) -> DraftResult:
        """The verdicts with the draft's own line numbers (for the JSON report)."""
        claims = []
        for shift, cr, _ in self.claims():
            if shift:
                cr = replace(
                    cr,
                    claim=replace(cr.claim, line=cr.claim.line + shift),
                    diagnostics=[d.copy(line=d.line + shift) for d in cr.diagnostics],
                )
            claims.append(cr)
        return DraftResult(
            path=self.rel, claims=claims, diagnostics=list(self.draft_diagnostics),
            uncited_paragraphs=self.uncited_paragraphs, encoding_problem=self.encoding_problem,
            uncited=self.uncited(),
        )


def citation_index_at(cr: ClaimResult, rel_line: int) -> int | None:
    """Which of a claim's citations a line of its cite blocks (or its text) stands for."""
    cits = cr.claim.citations
    if not cits:
        return None
    for i, c in enumerate(cits):
        if c.field_ranges:
            lo = min(r.start.line for r in c.field_ranges.values())
            hi = max(r.end.line for r in c.field_ranges.values())
            if lo <= rel_line <= hi:
                return i
    for i, c in enumerate(cits):
        b = c.block
        if b is not None and b.open_line <= rel_line <= b.close_line:
            return i
    return 0


def shifted(d: types.Diagnostic, shift: int) -> types.Diagnostic:
    r = d.range
    return types.Diagnostic(
        range=types.Range(
            start=types.Position(line=r.start.line + shift, character=r.start.character),
            end=types.Position(line=r.end.line + shift, character=r.end.character),
        ),
        severity=d.severity,
        code=d.code,
        source=d.source,
        message=d.message,
        related_information=d.related_information,
    )
