"""The engine's entry points shared by the CLI and the language server:
index, verify the answers, apply safe fixes."""

from __future__ import annotations

import logging
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import drafts as drafts_mod
from .model import Citation, DraftResult
from .verify import Verifier
from .workspace import IndexResult, ProgressFn, Workspace

log = logging.getLogger(__name__)


@dataclass(slots=True)
class CheckedDraft:
    path: Path
    text: str
    encoding_problem: bool
    result: DraftResult


def index(ws: Workspace, progress: ProgressFn | None = None) -> IndexResult:
    """Index; a store found damaged on the way is moved aside, made anew, and
    indexing starts over (Store.recover).

    Anything else the index meets (read-only, a full disk, an I/O error, a
    lock another process holds past the busy timeout) is a StoreError and the
    index is left as it is: rebuilding would delete it under that process, or
    lose the superseded versions it alone holds."""
    try:
        return ws.index(progress)
    except sqlite3.DatabaseError as exc:
        ws.store.recover(exc)
        return ws.index(progress)


def is_locked(exc: Exception) -> bool:
    """SQLite's "database is locked" / "busy": another connection holds the lock."""
    msg = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in msg or "busy" in msg)


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
            fix = d.auto_fix
            if fix is None:
                continue
            cit, values = merged.setdefault(id(d.citation), (d.citation, {}))
            values.update(fix.values)
    return list(merged.values())


def fixed_text(checked: CheckedDraft) -> str | None:
    """The draft's text after the safe fixes, or None when nothing applies."""
    if checked.encoding_problem:
        return None
    edits = []
    for cit, values in safe_fix_values(checked.result):
        done, why = drafts_mod.fix_edits(cit, values)
        if why is not None:  # the edited block would not read back as intended: never written
            line = cit.block.open_line + 1 if cit.block is not None else 0
            log.warning("%s:%d: fix not written (%s): %s", checked.result.path, line, ", ".join(values), why)
        edits += done
    if not edits:
        return None
    new = drafts_mod.apply_edits(checked.text, edits)
    return new if new != checked.text else None


def write_atomic(path: Path, text: str, *, expected: str | None = None) -> bool:
    """Write via a temporary file and a rename; keeps a BOM the file had, and a
    symbolic link (the file it points to is written, the link stays).

    With `expected` (the text that was checked), a draft whose text on disk is
    no longer that (the user saved it meanwhile) is left alone: returns False."""
    path = path.resolve()
    raw = path.read_bytes()
    if expected is not None:
        try:
            current = (raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw).decode("utf-8")
        except UnicodeDecodeError:
            return False
        if current != expected:
            return False
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
    return True


# -- the verdict cache -------------------------------------------------------------
#
# A warm `cairn check` reuses each draft's verdicts when nothing they depend
# on changed: the draft's bytes, the store (every version and which are
# current), the git HEAD (history lookups), the configuration and Cairn's own
# version. Any change to one of these makes a new key.

_CACHE_PREFIX = "draft-report:"
REPORT_FORMAT = "5"  # 2: a diagnostic's `fix`; 3: the meaning rules; 4: no fix that would not read back; 5: binding, sentences, dates; cached reports of another format are not reused
_CACHE_MAX_AGE = 30 * 24 * 3600


def _git_head(root: Path) -> str:
    from .gitsafe import run_git

    out = run_git(root, "rev-parse", "-q", "HEAD", timeout=10)
    return out.decode().strip() if out is not None else ""


def fingerprint(ws: Workspace) -> str:
    import hashlib

    from . import __version__
    from .meaning import RULES_VERSION

    h = hashlib.sha256()
    for part in (
        __version__,
        REPORT_FORMAT,
        RULES_VERSION,
        ws.settings.config.model_dump_json(),
        str(ws.settings.judge_url_trusted),
        ws.store.state_token(),
        _git_head(ws.root),
    ):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def check_reports(ws: Workspace, paths: list[Path] | None, verifier: Verifier | None = None,
                  progress: ProgressFn | None = None, *, use_cache: bool = True):
    """The JSON-report view of each answer, reusing cached verdicts where the
    inputs are unchanged. Returns (list of report.DraftOut, how many were cached)."""
    import hashlib

    from .report import DraftOut, draft_out

    verifier = verifier or Verifier(ws)
    fp = fingerprint(ws) if use_cache else ""
    answers = ws.answers(paths)
    outs: list[DraftOut] = []
    hits = 0
    for i, p in enumerate(answers):
        if progress:
            progress(i, len(answers), ws.relpath(p))
        key = ""
        if use_cache:
            try:
                data = p.read_bytes()
            except OSError:
                data = b""
            key = _CACHE_PREFIX + hashlib.sha256(fp.encode() + b"\0" + ws.relpath(p).encode() + b"\0" + data).hexdigest()
            cached = ws.store.cache_get(key)
            if cached is not None:
                try:
                    outs.append(DraftOut.model_validate_json(cached))
                    hits += 1
                    continue
                except ValueError:
                    pass  # a cache entry from another schema: recompute
        out = draft_out(check_draft(ws, verifier, p).result)
        outs.append(out)
        if use_cache:
            ws.store.cache_put(key, out.model_dump_json())
    if progress:
        progress(len(answers), len(answers), "")
    if use_cache:
        ws.store.cache_prune(_CACHE_PREFIX, _CACHE_MAX_AGE)
    return outs, hits
