"""The engine's entry points shared by the CLI and the language server:
index, verify the answers, apply safe fixes."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import drafts as drafts_mod
from .model import Citation, DraftResult
from .verify import Verifier
from .workspace import IndexResult, ProgressFn, Workspace


@dataclass(slots=True)
class CheckedDraft:
    path: Path
    text: str
    encoding_problem: bool
    result: DraftResult


def index(ws: Workspace, progress: ProgressFn | None = None) -> IndexResult:
    """Index; a store found damaged on the way is rebuilt and indexing starts over."""
    try:
        return ws.index(progress)
    except sqlite3.DatabaseError as exc:
        ws.store.recover(exc)
        return ws.index(progress)


def check_draft(ws: Workspace, verifier: Verifier, path: Path) -> CheckedDraft:
    text, bad = drafts_mod.read_draft(path)
    doc = drafts_mod.parse_draft(text)
    result = verifier.verify_draft(ws.relpath(path), doc, encoding_problem=bad)
    return CheckedDraft(path, text, bad, result)


def check(ws: Workspace, paths: list[Path] | None, verifier: Verifier | None = None,
          progress: ProgressFn | None = None) -> list[CheckedDraft]:
    verifier = verifier or Verifier(ws)
    answers = ws.answers(paths)
    out = []
    for i, p in enumerate(answers):
        if progress:
            progress(i, len(answers), ws.relpath(p))
        out.append(check_draft(ws, verifier, p))
    if progress:
        progress(len(answers), len(answers), "")
    return out


def safe_fix_values(result: DraftResult) -> list[tuple[Citation, dict]]:
    """The fixes `--fix` may apply: single-target ones, merged per citation."""
    merged: dict[int, tuple[Citation, dict]] = {}
    for cr in result.claims:
        for d in cr.diagnostics:
            if d.citation is None:
                continue
            safe = [f for f in d.fixes if f.safe]
            if len(safe) != 1:
                continue
            cit, values = merged.setdefault(id(d.citation), (d.citation, {}))
            values.update(safe[0].values)
    return list(merged.values())


def fixed_text(checked: CheckedDraft) -> str | None:
    """The draft's text after the safe fixes, or None when nothing applies."""
    if checked.encoding_problem:
        return None
    edits = []
    for cit, values in safe_fix_values(checked.result):
        edits += drafts_mod.field_edits(cit, values)
    if not edits:
        return None
    new = drafts_mod.apply_edits(checked.text, edits)
    return new if new != checked.text else None


def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and a rename; keeps a BOM the file had."""
    raw = path.read_bytes()
    data = text.encode("utf-8")
    if raw.startswith(b"\xef\xbb\xbf"):
        data = b"\xef\xbb\xbf" + data
    mode = path.stat().st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".cairn-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
