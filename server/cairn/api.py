"""Cairn as a library, for retrieval pipelines (docs/api.md).

Open a workspace, hand it a model's answer (a dict in the JSON form of SPEC
section 3, or the pydantic models below) and read back the same verdicts,
scores, diagnostics and metrics as `cairn check --format json`, in process:
no subprocess, nothing printed, nothing written to a draft. The answer's own
`supported` / `support_score` are ignored and recomputed.

One :class:`Workspace` may be shared by threads: its calls are serialised.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .report.base import CitationOut, ClaimOut, DiagnosticOut, DraftOut, Metrics, Report

__all__ = [
    "Answer",
    "AnswerResult",
    "CitationIn",
    "ClaimIn",
    "ChunkOut",
    "ClaimOut",
    "CitationOut",
    "DiagnosticOut",
    "Metrics",
    "Report",
    "Workspace",
    "open_workspace",
]

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # lines split as everywhere in Cairn (SPEC section 6)

AnswerResult = DraftOut  # one answer's verdicts: `faithful`, `claims[i].supported`, `.support_score`, `.diagnostics`


class CitationIn(BaseModel):
    """A span citation as a model writes it."""

    model_config = ConfigDict(extra="ignore")
    chunk_id: str
    start: int
    end: int
    quote: str
    source: str | None = None
    version: str | None = None


class ClaimIn(BaseModel):
    """A claim with its citations; `supported` and `support_score` may be given and are ignored."""

    model_config = ConfigDict(extra="ignore")
    text: str
    citations: list[CitationIn] = Field(default_factory=list)


class Answer(BaseModel):
    """An answer of SPEC section 3: optional id and question, and its claims."""

    model_config = ConfigDict(extra="ignore")
    id: str | int | None = None
    question: str | None = None
    claims: list[ClaimIn] = Field(default_factory=list)


AnswerLike = Answer | Mapping[str, Any] | list[Any]


class ChunkOut(BaseModel):
    """A chunk of a source as `cairn chunks --json` prints it: `start`/`end` are where it lies in
    its source's parsed text, `page` its PDF page (else None), `line` (not for a PDF) the line
    it starts on in the source's parsed text, `current` whether its version is the source's current one."""

    chunk_id: str
    source: str
    version: str
    start: int
    end: int
    page: int | None
    line: int | None
    text: str
    lineage: str | None
    current: bool


class Workspace:
    """A Cairn workspace opened in process. Use :func:`open_workspace`."""

    def __init__(self, root: Path, *, index: bool = True):
        from .core.config import find_root, load_settings
        from .engine import checks as engine
        from .index.workspace import Workspace as _Ws
        from .judge.providers import make_judge
        from .verify.verifier import Verifier

        root = find_root(Path(root))
        self._ws = _Ws(root, load_settings(root))
        self._lock = threading.RLock()
        self._judge = make_judge(self._ws)
        self.index_result = engine.index(self._ws) if index else None
        self._verifier = Verifier(self._ws, judge=self._judge)

    @property
    def root(self) -> Path:
        return self._ws.root

    def reindex(self) -> None:
        """Bring the index up to date with the sources on disk (after they changed)."""
        from .engine import checks as engine

        with self._lock:
            self.index_result = engine.index(self._ws)
            self._verifier.invalidate()

    def verify(self, answer: AnswerLike, *, default_id: str | int = 1) -> AnswerResult:
        """Verify one answer (an answer object, a bare claim, a list of claims, or an :class:`Answer`)."""
        return self.verify_many([answer], first_id=default_id).drafts[0]

    def verify_many(self, answers: Iterable[AnswerLike], *, first_id: int | str = 1) -> Report:
        """Verify many answers; the report holds one entry per answer (ids default to
        their position) and the metrics over them, as `cairn check --format json`."""
        from .answers.json_answers import answer_from_claims, answer_from_object
        from .engine import checks as engine

        results = []
        with self._lock:
            for i, raw in enumerate(answers):
                default: str | int = first_id if i == 0 else (first_id + i if isinstance(first_id, int) else i + 1)
                value = raw.model_dump(exclude_none=True) if isinstance(raw, BaseModel) else raw
                if isinstance(value, list):
                    ans = answer_from_claims(value, default, None, 0, [""])
                else:
                    ans = answer_from_object(dict(value) if isinstance(value, Mapping) else value, default)
                result = self._verifier.verify_draft("<answer>", ans.doc)
                result.answer_id, result.question = ans.id, ans.question
                results.append(result)
            if self._judge is not None:
                from .judge.providers import judge_results

                judge_results(results, self._judge, self._ws.settings.config.threshold)
            return engine.workspace_report(self._ws, results)

    def check(self, paths: Iterable[str | Path] | None = None) -> Report:
        """The workspace's own answers (or these files and folders), as `cairn check --format json`."""
        from .engine import checks as engine

        with self._lock:
            chosen = [self._ws.root / p for p in paths] if paths is not None else None
            checked = engine.check(self._ws, chosen, self._verifier)
            results = [cd.result for cd in checked]
            if self._judge is not None:
                from .judge.providers import judge_results

                judge_results(results, self._judge, self._ws.settings.config.threshold)
            return engine.workspace_report(self._ws, results)

    def chunks(self, source: str | Path | None = None) -> list[ChunkOut]:
        """The current chunks of every source the principal may read (or of one source: a path
        relative to the workspace root, or an absolute one inside it), in source order."""
        with self._lock:
            names = None
            if source is not None:
                ident = self._source_identity(source)
                if ident is None:
                    return []
                names = [ident]
            rows = self._ws.store.current_chunks(names)
            return self._out([c for c in rows if self._ws.allowed(c.source)])

    def chunk(self, chunk_id: str) -> ChunkOut | None:
        """The chunk with this id: its current occurrence when a current source holds it, else the
        newest stored version that does; None when no version the principal may read has it."""
        with self._lock:
            found = [c for c in self._ws.store.lookup(chunk_id) if self._ws.allowed(c.source)]
            return self._out(found[:1])[0] if found else None

    def retrieve(self, question: str, k: int = 8) -> list[ChunkOut]:
        """The `k` current passages that best match a question or claim, best first: the
        retrieval of `cairn ask` and `cairn cite --for`, among the sources the principal may read."""
        from .answers.ask import retrieve

        if k < 1:
            raise ValueError(f"k must be at least 1, not {k}")
        with self._lock:
            return self._out(retrieve(self._ws, question, k))

    def _source_identity(self, source: str | Path) -> str | None:
        path = Path(source)
        if path.is_absolute():
            ident = self._ws.identity(path)
        else:
            ident = path.as_posix()
        return ident if ident is not None and self._ws.allowed(ident) else None

    def _out(self, chunks: list[Any]) -> list[ChunkOut]:
        lineages: dict[tuple[str, str], str | None] = {}
        texts: dict[tuple[str, str], str] = {}
        out = []
        for ch in chunks:
            key = (ch.source, ch.version)
            if key not in lineages:
                info = self._ws.store.version_info(ch.source, ch.version)
                lineages[key] = info.lineage if info is not None else None
                texts[key] = "" if info is None or info.pages is not None else self._ws.store.version_text(info.id)
            line = len(_LINE_BREAK.findall(texts[key], 0, ch.start)) + 1 if texts[key] else None
            out.append(ChunkOut(chunk_id=ch.chunk_id, source=ch.source, version=ch.version, start=ch.start,
                                end=ch.end, page=ch.page, line=line, text=ch.text, lineage=lineages[key],
                                current=ch.current))
        return out

    def close(self) -> None:
        with self._lock:
            self._ws.store.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_workspace(path: str | Path = ".", *, index: bool = True) -> Workspace:
    """Open the workspace at `path` (or the nearest folder above it holding cairn.toml)
    and bring its index up to date (`index=False`: use the index as it is)."""
    return Workspace(Path(path), index=index)
