"""Cairn as a library, for retrieval pipelines (docs/api.md).

Open a workspace, hand it a model's answer (a dict in the JSON form of SPEC
section 3, or the pydantic models below) and read back the same verdicts,
scores, diagnostics and metrics as `cairn check --format json`, in process:
no subprocess, nothing printed, nothing written to a draft. The answer's own
`supported` / `support_score` are ignored and recomputed.

One :class:`Workspace` may be shared by threads: its calls are serialised.
"""

from __future__ import annotations

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
    "ClaimOut",
    "CitationOut",
    "DiagnosticOut",
    "Metrics",
    "Report",
    "Workspace",
    "open_workspace",
]

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
