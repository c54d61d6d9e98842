"""JSON answers in the editor (SPEC sections 3 and 8).

A `.json`/`.jsonl` file among the workspace's answers (a `drafts` glob matches
it) is checked as `cairn check` checks it: each of its answers is verified
with the folder's verifier, from the text the editor holds while the file is
open (as typed, like a Markdown draft) and from the file on disk otherwise.
Its diagnostics are published on the file, at the line where each answer
starts (the JSON report's `line`); a file-level one (its encoding, a
source's) once for the file, not once per answer. The file is checked again
when it is edited, saved, changes on disk or is closed (back to what is on
disk), and when a source it cites changes.

No hover, lens, code action or fix on a JSON answer: `cairn check --fix` never
edits one either.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from ..core.model import ClaimResult, DraftResult
from .diagnostics import claim_diagnostics, to_lsp
from .positions import Codec

if TYPE_CHECKING:
    from ..engine.checks import CheckedDraft


@dataclass(frozen=True, slots=True)
class FileLines:
    """What lsp/reuse.py reads of a piece: the lines positions are on (here the whole file's)."""

    lines: list[str]


@dataclass(eq=False)
class JsonState:
    """The verdicts of one JSON answer file; never changed once made."""

    path: Path
    rel: str
    uri: str
    answers: list[DraftResult]  # one per answer, in the file's order (the engine's results)
    lines: list[str]
    diagnostics: list[types.Diagnostic] = field(default_factory=list)
    version: int | None = None  # the open text's version; None: the verdicts of the file on disk
    is_open: bool = False

    def lsp_diagnostics(self) -> list[types.Diagnostic]:
        return list(self.diagnostics)

    def claims(self) -> Iterator[tuple[int, ClaimResult, FileLines]]:
        """(0, claim result, the file's lines) for every claim of every answer (lsp/reuse.py)."""
        piece = FileLines(self.lines)
        for r in self.answers:
            for cr in r.claims:
                yield 0, cr, piece

    def results(self) -> list[DraftResult]:
        """The answers for a report: copies whose claim lists a caller may replace items of
        (reuse.annotate_results does), so the published verdicts stay as they are."""
        return [replace(r, claims=list(r.claims), diagnostics=list(r.diagnostics)) for r in self.answers]


def json_state(path: Path, rel: str, uri: str, checked: list[CheckedDraft], codec: Codec, locate, *,
               version: int | None = None) -> JsonState:
    """The state of a file from `engine.check_file`'s answers; `locate(citation_result)` gives
    a cited span's Location (for the diagnostics' related information). `version`: the editor's
    version of the open text checked (None: the file as saved)."""
    from ..drafts import split_lines
    text = checked[0].text if checked else ""
    lines = split_lines(text)
    diags: list[types.Diagnostic] = []
    seen: set[tuple] = set()
    for cd in checked:
        for d in cd.result.diagnostics:
            key = (d.code, d.line, d.message)
            if key not in seen:  # the file's own encoding, a source's: the same for every answer
                seen.add(key)
                diags.append(to_lsp(d, [], Codec("utf-32")))
        for cr in cd.result.claims:
            diags += claim_diagnostics(cr, lines, codec, locate)
    return JsonState(path=path, rel=rel, uri=uri, answers=[cd.result for cd in checked], lines=lines,
                     diagnostics=diags, version=version, is_open=version is not None)
