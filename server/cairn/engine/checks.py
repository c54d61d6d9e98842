"""The engine's entry points shared by the CLI and the language server:
index, verify the answers, apply safe fixes.

The verifier (and with it the meaning rules) is imported where a claim is verified, not with this
module: the language server indexes and reads kept verdicts through it without loading them."""

from __future__ import annotations

import logging
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import drafts as drafts_mod
from ..core.files import read_regular
from ..core.model import Citation, DraftResult
from ..index.workspace import IndexResult, ProgressFn, Workspace

if TYPE_CHECKING:
    from ..report.base import DraftOut, Report
    from ..store import IndexStore
    from ..verify.verifier import Verifier

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
        res = ws.index(progress)
    except sqlite3.DatabaseError as exc:
        ws.store.recover(exc)
        res = ws.index(progress)
    # a source holding cite blocks is a draft in the wrong place: said on every run (index/drafted.py)
    from ..index.drafted import drafted_warnings

    for source, message in drafted_warnings(ws).items():
        if message not in res.warnings.get(source, []):
            res.warnings.setdefault(source, []).append(message)
    return res


def is_locked(exc: Exception) -> bool:
    """SQLite's "database is locked" / "busy": another connection holds the lock."""
    msg = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in msg or "busy" in msg)


def check_draft(ws: Workspace, verifier: Verifier, path: Path) -> CheckedDraft:
    text, bad = drafts_mod.read_draft(path)
    doc = drafts_mod.parse_draft(text)
    result = verifier.verify_draft(ws.relpath(path), doc, encoding_problem=bad)
    return CheckedDraft(path, text, bad, result)


def check_file(ws: Workspace, verifier: Verifier, path: Path) -> list[CheckedDraft]:
    """The answers of one file: a Markdown draft is one, a `.json`/`.jsonl` file holds any number."""
    from ..answers.json_answers import is_answer_file

    if not is_answer_file(path):
        return [check_draft(ws, verifier, path)]
    text, bad = drafts_mod.read_draft(path)
    return check_answer_text(ws, verifier, path, text, bad)


def check_answer_text(ws: Workspace, verifier: Verifier, path: Path, text: str, bad: bool) -> list[CheckedDraft]:
    """The answers of a `.json`/`.jsonl` file whose text is given (the file on disk, or as an editor
    holds it, unsaved); `bad`: invalid UTF-8 bytes were replaced in it."""
    from ..answers.json_answers import parse_answers

    rel = ws.relpath(path)
    out = []
    for ans in parse_answers(text, jsonl=path.name.lower().endswith(".jsonl")):
        result = verifier.verify_draft(rel, ans.doc, encoding_problem=bad)
        result.answer_id, result.question = ans.id, ans.question
        out.append(CheckedDraft(path, text, bad, result))
    return out


def check(ws: Workspace, paths: list[Path] | None, verifier: Verifier | None = None,
          progress: ProgressFn | None = None) -> list[CheckedDraft]:
    if verifier is None:
        from ..verify.verifier import Verifier

        verifier = Verifier(ws)
    answers = ws.answers(paths)
    out = []
    for i, p in enumerate(answers):
        if progress:
            progress(i, len(answers), ws.relpath(p))
        out += check_file(ws, verifier, p)
    if progress:
        progress(len(answers), len(answers), "")
    return out


VERSION_DIGITS = 12  # a version is written at the length the docs show, longer only when ambiguous


def short_version(version: str, known: list[str]) -> str:
    """`version` cut to VERSION_DIGITS hex digits, or to as many more as it takes
    for no other version in `known` to share the prefix."""
    n = VERSION_DIGITS
    others = [k.lower() for k in known if k.lower() != version.lower()]
    while n < len(version) and any(k.startswith(version[:n].lower()) for k in others):
        n += 4
    return version[:n]


@dataclass(slots=True)
class PlannedFix:
    """The safe fixes of one citation, merged: what `--fix` changes and why."""

    citation: Citation
    claim: int  # index of its claim in the draft
    titles: list[str]
    codes: list[str]
    values: dict

    @property
    def line(self) -> int:
        """1-based line of the block's opening fence (0 when unknown)."""
        return self.citation.block.open_line + 1 if self.citation.block is not None else 0

    def changes(self) -> list[tuple[str, object, object]]:
        """(field, old value, new value) of each field the fix sets to something new."""
        out = []
        for name, new in self.values.items():
            old = getattr(self.citation, name, None)
            if old != new:
                out.append((name, old, new))
        return out


def fix_plan(result: DraftResult, store: IndexStore | None = None) -> list[PlannedFix]:
    """The fixes `--fix` may apply: single-target ones, merged per citation. With the
    store, versions are written short (short_version) among the versions of the chunk."""
    merged: dict[int, PlannedFix] = {}
    for i, cr in enumerate(result.claims):
        for d in cr.diagnostics:
            fix = d.auto_fix
            if fix is None or d.citation is None:  # (auto_fix is None without a citation)
                continue
            plan = merged.setdefault(id(d.citation), PlannedFix(d.citation, i, [], [], {}))
            plan.titles.append(fix.title)
            plan.codes.append(d.code)
            plan.values.update(fix.values)
    plans = list(merged.values())
    if store is not None:
        for plan in plans:
            version = plan.values.get("version")
            chunk = plan.values.get("chunk_id") or plan.citation.chunk_id
            if isinstance(version, str) and chunk:
                plan.values["version"] = short_version(version, store.versions_of(chunk))
                if (plan.citation.version or "").lower() == plan.values["version"].lower():
                    plan.values["version"] = plan.citation.version  # the same version, as written
    return plans


def workspace_report(ws: Workspace, results: list[DraftResult]) -> Report:
    """The JSON report (SPEC section 6) of these results as `cairn check` makes it:
    citation-reuse across them, source_quality by the workspace's tiers."""
    from ..report.base import build_report
    from . import reuse

    reuse.annotate_results(results)
    cfg = ws.settings.config
    return build_report(results, cfg.authority.tiers)


def safe_fix_values(result: DraftResult, store: IndexStore | None = None) -> list[tuple[Citation, dict]]:
    """The fixes `--fix` may apply: single-target ones, merged per citation."""
    return [(p.citation, p.values) for p in fix_plan(result, store)]


def fixed_text(checked: CheckedDraft, store: IndexStore | None = None, plans: list[PlannedFix] | None = None) -> str | None:
    """The draft's text after the safe fixes, or None when nothing applies."""
    if checked.encoding_problem or not checked.result.editable:
        return None
    edits = []
    for plan in plans if plans is not None else fix_plan(checked.result, store):
        cit, values = plan.citation, plan.values
        done, why = drafts_mod.fix_edits(cit, values)
        if why is not None:  # the edited block would not read back as intended: never written
            log.warning("%s:%d: fix not written (%s): %s", checked.result.path, plan.line, ", ".join(values), why)
            if plans is not None:
                plans.remove(plan)
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
    raw = read_regular(path)
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
    replace_file(path, data, path.stat().st_mode & 0o7777)
    return True


def replace_file(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Put `data` at `path` through a temporary file beside it and a rename, so a
    reader never sees half a file; the temporary file is removed on failure."""
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


# -- the verdict cache -------------------------------------------------------------
#
# A warm `cairn check` reuses each draft's verdicts when nothing they depend
# on changed: the draft's bytes, the store (every version and which are
# current), the git HEAD (history lookups), the configuration and Cairn's own
# version and code (code_identity). Any change to one of these makes a new key.

_CACHE_PREFIX = "draft-report:"
REPORT_FORMAT = "9"  # 2: a diagnostic's `fix`; 3: the meaning rules; 4: no fix that would not read back; 5: a file's list of answers (JSON answers); 6: policy (authority, lineage, source offsets); 7: binding, sentences, dates; 8: parts, joint, conflicting-source; 9: each answer's uncited paragraphs; cached reports of another format are not reused
CACHE_MAX_AGE = 30 * 24 * 3600  # seconds an unused cached verdict is kept
_DRAFT_OUTS = None  # a pydantic TypeAdapter(list[DraftOut]), made on first use: a cache entry is a file's answers


def _git_head(root: Path) -> str:
    from ..core.gitsafe import run_git

    out = run_git(root, "rev-parse", "-q", "HEAD", timeout=10)
    return out.decode().strip() if out is not None else ""


_code_identity: str | None = None


def code_identity() -> str:
    """Which code of Cairn runs: every module, template and word list of the package, by name,
    size and modification time (read once per process, about a millisecond). A cached report
    made by other code (an upgrade, an edited rule, a checkout of another commit) is not reused,
    even when the version number and REPORT_FORMAT stayed the same."""
    global _code_identity
    if _code_identity is None:
        import hashlib

        package = Path(__file__).resolve().parents[1]
        h = hashlib.sha256()
        for folder, dirs, files in os.walk(package):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".pyc", ".pyo")):
                    continue
                try:
                    st = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                rel = os.path.relpath(os.path.join(folder, name), package)
                h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8", "surrogatepass"))
        _code_identity = h.hexdigest()
    return _code_identity


def _links_token(ws: Workspace) -> str:
    """Which current sources are links and where they lead, when a policy is keyed by path:
    the policy of a link is also its target's, so a link pointed elsewhere (the bytes the
    same) changes what a principal may read and a cached report must not be served."""
    if not ws.settings.policy.entries:
        return ""
    return "\n".join(f"{s}>{'|'.join(ps)}" for s in sorted(ws.store.current_versions()) if (ps := ws.link_paths(s)))


def fingerprint(ws: Workspace) -> str:
    import hashlib

    from .. import RULES_VERSION, __version__

    h = hashlib.sha256()
    for part in (
        __version__,
        REPORT_FORMAT,
        code_identity(),
        RULES_VERSION,
        ws.settings.config.model_dump_json(),
        str(ws.settings.judge_url_trusted),
        "principal:" + ws.settings.policy.principal,  # what a report may show depends on who reads it
        _links_token(ws),
        ws.store.state_token(),
        _git_head(ws.root),
    ):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def cache_key(fp: str, rel: str, data: bytes, prefix: str = _CACHE_PREFIX) -> str:
    """The cache key of verdicts over `data` (an answer file's bytes; for the language server, one
    claim's parse) at `rel` in the workspace whose state is `fp` (fingerprint): the command line's
    whole-file reports and the server's per-claim verdicts are keyed alike, under their own prefix."""
    import hashlib

    return prefix + hashlib.sha256(fp.encode() + b"\0" + rel.encode("utf-8", "surrogatepass") + b"\0" + data).hexdigest()


def check_reports(ws: Workspace, paths: list[Path] | None, verifier: Verifier | None = None,
                  progress: ProgressFn | None = None, *, use_cache: bool = True) -> tuple[list[DraftOut], int]:
    """The JSON-report view of each answer, reusing cached verdicts where the
    inputs are unchanged. Returns (list of report.DraftOut, how many were cached)."""
    from pydantic import TypeAdapter

    from ..report.base import DraftOut, draft_out

    global _DRAFT_OUTS
    if _DRAFT_OUTS is None:
        _DRAFT_OUTS = TypeAdapter(list[DraftOut])

    if verifier is None:
        from ..verify.verifier import Verifier

        verifier = Verifier(ws)
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
                data = read_regular(p)
            except OSError:
                data = b""
            key = cache_key(fp, ws.relpath(p), data)
            cached = ws.store.cache_get(key)
            if cached is not None:
                try:
                    outs += _DRAFT_OUTS.validate_json(cached)
                    hits += 1
                    continue
                except ValueError:
                    pass  # a cache entry from another schema: recompute
        got = [draft_out(cd.result) for cd in check_file(ws, verifier, p)]
        outs += got
        if use_cache:
            ws.store.cache_put(key, _DRAFT_OUTS.dump_json(got).decode())
    if progress:
        progress(len(answers), len(answers), "")
    if use_cache:
        ws.store.cache_prune(_CACHE_PREFIX, CACHE_MAX_AGE)
    return outs, hits
