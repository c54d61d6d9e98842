"""Core types shared by every part of the engine.

Positions inside drafts are 0-based lines and code-point columns; the JSON
report turns lines 1-based and the language server converts columns to the
client's position encoding. Offsets inside sources are code points of the
parsed text (SPEC section 2).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

log = logging.getLogger(__name__)

Severity = Literal["error", "warning", "information", "hint"]

# code -> (severity, fails the claim), SPEC section 4.
CODES: dict[str, tuple[Severity, bool]] = {
    "block-syntax": ("error", True),
    "no-citations": ("error", True),
    "source-denied": ("error", True),
    "unknown-chunk": ("error", True),
    "version-mismatch": ("warning", False),
    "quote-not-found": ("error", True),
    "span-shifted": ("warning", False),
    "source-changed": ("error", True),
    "number-mismatch": ("error", True),
    "contradiction": ("error", True),
    "context-negates": ("error", True),
    "low-authority": ("warning", True),
    "derived-source": ("warning", True),  # unless its lineage resolves (Diagnostic.fails_claim)
    "unsupported-claim": ("warning", True),
    "encoding": ("warning", False),
    "judge-fallback": ("information", False),
    # a prose paragraph no claim takes (SPEC section 5, coverage): listed, never a failure
    "uncited-prose": ("information", False),
    # binding, reuse, dates and sentences (binding.py, reuse.py, dates.py, sentences_check.py)
    "claim-moved": ("warning", True),
    "mixed-dates": ("warning", False),
    "citation-reuse": ("warning", False),
    "unsupported-sentence": ("warning", False),  # fails the claim under strict_sentences
    # the rules over the sentence reader's structure (meaning/parsed)
    "relation-mismatch": ("error", True),
    "context-limits": ("error", True),
    # a passage of another readable source contradicting a verified claim (verify/conflicts.py);
    # fails the claim under `[authority] conflicts = "fail"`
    "conflicting-source": ("warning", False),
}


@dataclass(frozen=True, slots=True)
class Pos:
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class Range:
    start: Pos
    end: Pos

    @staticmethod
    def lines(first: int, last: int, last_len: int, first_col: int = 0) -> Range:
        return Range(Pos(first, first_col), Pos(last, last_len))


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace `range` of a draft with `new_text` (code-point columns)."""

    range: Range
    new_text: str


# --------------------------------------------------------------------------
# Sources


@dataclass(slots=True)
class ParsedDocument:
    """A source file's parsed text, as SPEC section 2 defines it."""

    text: str
    pages: list[int] | None  # start offset of each page, or None
    parser: str
    parser_version: str
    warnings: list[str] = field(default_factory=list)
    date: str | None = None  # YYYY-MM-DD from the source's own metadata (sources/dates.py)

    @property
    def lineage(self) -> str:
        return f"{self.parser}/{self.parser_version}"


@dataclass(frozen=True, slots=True)
class Chunk:
    chunk_id: str
    source: str
    version: str
    start: int
    end: int
    page: int | None
    text: str
    current: bool = True


# --------------------------------------------------------------------------
# Drafts


@dataclass(slots=True)
class Problem:
    """A defect found while reading a draft (block-syntax, no-citations)."""

    code: str
    message: str
    line: int  # 0-based line for the JSON report
    range: Range  # LSP range


@dataclass(slots=True)
class Citation:
    chunk_id: str | None = None
    start: int | None = None
    end: int | None = None
    quote: str | None = None
    source: str | None = None
    version: str | None = None
    ignore: tuple[str, ...] = ()
    claim: str | None = None  # the claim the block was written for: its first words or "sha256:<12 hex>"
    # field name -> range of its line in the draft ("key: value"), for diagnostics
    field_ranges: dict[str, Range] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)  # block-syntax for this citation
    block: CiteBlock | None = field(default=None, compare=False, repr=False)
    index: int = 0  # position inside its block
    # private layout data used by drafts.field_edits to rewrite fields in place
    layout: object = field(default=None, compare=False, repr=False)

    @property
    def valid(self) -> bool:
        return not self.problems

    def line_of(self, *names: str) -> Range | None:
        for name in names:
            if name in self.field_ranges:
                return self.field_ranges[name]
        return None


@dataclass(slots=True)
class CiteBlock:
    open_line: int  # 0-based line of the opening fence
    close_line: int  # 0-based line of the closing fence (last line when unterminated)
    fence_range: Range  # the opening fence line
    body: str
    kind: Literal["json", "yaml"]
    citations: list[Citation] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # whole-block problems
    claim_text: str | None = None  # set when the body is a claim object {text, citations}


@dataclass(slots=True)
class Claim:
    text: str
    line: int  # 0-based first line (the claim's block, or the fence of a claim object)
    range: Range  # the claim's Markdown block (or the fence line of a claim object)
    blocks: list[CiteBlock] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def citations(self) -> list[Citation]:
        return [c for b in self.blocks for c in b.citations]

    @property
    def ignored(self) -> set[str]:
        return {code for c in self.citations for code in c.ignore}

    @property
    def key(self) -> tuple:
        """A cache key: equal keys verify the same way against the same store."""
        return (
            self.text,
            tuple(
                (c.chunk_id, c.start, c.end, c.quote, c.source, c.version, c.ignore, c.claim, bool(c.problems))
                for c in self.citations
            ),
            tuple(p.message for p in self.problems),
        )


@dataclass(slots=True)
class DraftDoc:
    text: str
    claims: list[Claim]
    uncited_paragraphs: int
    line_count: int
    # each uncited prose paragraph: (its first line, 0-based; its text), in draft order
    uncited: list[tuple[int, str]] = field(default_factory=list)


# --------------------------------------------------------------------------
# Verdicts


@dataclass(slots=True)
class Fix:
    """New values for a citation's fields; `safe` fixes are applied by --fix."""

    title: str
    values: dict[str, str | int | None]
    safe: bool = False
    # edits of the whole draft instead of field values (moving a block: editor only, never safe)
    edits: list[TextEdit] | None = None


@dataclass(slots=True)
class SpanRef:
    source: str
    start: int
    end: int


class Pending(Protocol):
    """Work that completes a diagnostic when it is first read (its owner's)."""

    def complete(self, d: Diagnostic) -> None: ...


class Diagnostic:
    """One finding on a draft.

    `pending`, when given, is work its maker does to add to the message and
    the fixes (the verifier's search for where an unknown chunk's quote went,
    cairn.verify.QuoteSearch). It runs once, when the message or the fixes are
    first read, so verification does not pay for a suggestion nobody looks
    at; a report, a published diagnostic or `--fix` reads them and so sees
    the same values as if it had run at once. A reader in another thread
    waits for it on this diagnostic's own lock.
    """

    __slots__ = ("code", "_message", "line", "range", "ignored", "citation", "_fixes", "related", "_pending",
                 "_lock", "fails_claim", "strict")

    def __init__(
        self,
        code: str,
        message: str,
        line: int,  # 0-based; the JSON report adds 1
        range: Range,
        ignored: bool = False,
        citation: Citation | None = None,
        fixes: list[Fix] | None = None,
        related: SpanRef | None = None,
        pending: Pending | None = None,
        strict: bool = False,
        fails_claim: bool | None = None,  # for a code whose effect depends on the case (derived-source)
    ):
        self.code = code
        self._message = message
        self.line = line
        self.range = range
        self.ignored = ignored
        self.citation = citation
        self._fixes = [] if fixes is None else fixes
        self.related = related
        self._pending: Pending | None = pending
        # re-entrant: the pending work itself reads and sets the message and the fixes
        self._lock = threading.RLock() if pending is not None else None
        self.strict = strict  # fails the claim although its code does not by default (strict_sentences)
        self.fails_claim = fails_claim

    def _complete(self) -> None:
        if self._pending is None or self._lock is None:
            return
        with self._lock:  # a reader in another thread waits here for the finished message
            pending = self._pending
            if pending is None or pending is _RUNNING:  # done, or this thread is completing it
                return
            self._pending = _RUNNING
            try:
                pending.complete(self)
            except Exception:  # a suggestion that fails leaves the finding as it is
                log.warning("could not complete the %s diagnostic on line %d", self.code, self.line + 1, exc_info=True)
            finally:
                self._pending = None

    @property
    def message(self) -> str:
        self._complete()
        return self._message

    @message.setter
    def message(self, value: str) -> None:
        self._complete()
        self._message = value

    @property
    def fixes(self) -> list[Fix]:
        self._complete()
        return self._fixes

    @fixes.setter
    def fixes(self, value: list[Fix]) -> None:
        self._complete()
        self._fixes = value

    def copy(self, **changes: Any) -> Diagnostic:
        """A completed copy with some fields changed (dataclasses.replace for this class)."""
        self._complete()
        fields = {name: getattr(self, name) for name in _DIAGNOSTIC_FIELDS}
        fields["fixes"] = list(self._fixes)
        fields.update(changes)
        return Diagnostic(**fields)

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in _DIAGNOSTIC_FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Diagnostic:
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclasses around it

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in _DIAGNOSTIC_FIELDS)
        return f"Diagnostic({inner})"

    @property
    def auto_fix(self) -> Fix | None:
        """The fix `cairn check --fix` applies: the only safe one, on a citation."""
        if self.citation is None:
            return None
        safe = [f for f in self.fixes if f.safe]
        return safe[0] if len(safe) == 1 else None

    @property
    def severity(self) -> Severity:
        return "hint" if self.ignored else CODES[self.code][0]

    @property
    def fails(self) -> bool:
        if self.fails_claim is not None:
            return self.fails_claim and not self.ignored
        return (CODES[self.code][1] or self.strict) and not self.ignored


class _Running:
    """Diagnostic._pending while its completion runs."""

    def complete(self, d: Diagnostic) -> None:
        pass


_RUNNING = _Running()


_DIAGNOSTIC_FIELDS = ("code", "message", "line", "range", "ignored", "citation", "fixes", "related", "fails_claim",
                      "strict")


@dataclass(slots=True)
class CitationResult:
    citation: Citation
    resolved: bool = False
    chunk: Chunk | None = None  # the chunk the citation names (possibly superseded)
    current_span: SpanRef | None = None  # where the quote sits in the current source, when known
    # the current chunk text holding the quote and the quote's offsets in it (the meaning rules read it)
    evidence: tuple[Chunk, int, int] | None = None
    date: str | None = None  # the cited source's date (YYYY-MM-DD), when it has one (dates.py)
    authority: str | None = None  # the tier of the chunk's source (policy), None without tiers
    lineage: str | None = None  # the parser lineage of the cited version
    source_line: int | None = None  # 1-based line and column of source_start in a text source
    source_column: int | None = None


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a claim (verify/parts.py): its text (white space collapsed), its offsets in the
    claim's text, the indices of the claim's citations whose quotes back it, whether the quotes
    together back it, and its support score against them."""

    text: str
    start: int
    end: int
    citations: tuple[int, ...]
    supported: bool
    score: float | None


@dataclass(slots=True)
class ClaimResult:
    claim: Claim
    supported: bool
    support_score: float | None
    judge: str
    missing: list[str]
    citations: list[CitationResult]
    diagnostics: list[Diagnostic]
    # the lexical check's score, kept when a judge's verdict replaces it (verify.apply_verdict)
    lexical_score: float | None = None
    # each sentence of a multi-sentence claim with its support alone (sentences_check.py)
    sentences: list[tuple[str, float | None]] = field(default_factory=list)
    # the claim's name and the quote's name it stands in place of (the calibrated mode's rule
    # "names", support/names.py): the lexical check fails whatever the score
    displaced: tuple[str, str] | None = None
    # the claim's words the meaning rules report as unbacked (number-mismatch: a number, a date, an
    # identifier, an option or a file), each as the claim writes it
    mismatched: tuple[str, ...] = ()
    # the claim's parts and the citations backing each (verify/parts.py); `joint`: no single quote
    # backs every part, the quotes together do
    parts: list[Part] = field(default_factory=list)
    joint: bool = False


@dataclass(slots=True)
class DraftResult:
    path: str
    claims: list[ClaimResult]
    diagnostics: list[Diagnostic]  # draft-level (encoding)
    uncited_paragraphs: int
    encoding_problem: bool = False  # the draft itself is not valid UTF-8: `--fix` never writes it
    uncited: list[tuple[int, str]] = field(default_factory=list)  # (0-based first line, text) of each
    # a JSON answer (SPEC section 3): its id and question; None for a Markdown draft
    answer_id: str | int | None = None
    question: str | None = None

    @property
    def editable(self) -> bool:
        """May `--fix` write this answer? Never a JSON answer, never a draft that is not UTF-8."""
        return self.answer_id is None and not self.encoding_problem

    @property
    def faithful(self) -> bool:
        return bool(self.claims) and all(c.supported for c in self.claims)

    @property
    def all_diagnostics(self) -> list[Diagnostic]:
        return self.diagnostics + [d for c in self.claims for d in c.diagnostics]
