"""What the command line tells a user besides the report: set-up mistakes that stop
a run (a folder that is no workspace, a missing or empty source root, a `drafts`
glob matching nothing), fences meant as citations that are not read as one, and
what `cairn check --fix` changed. Each function returns the lines to print; the
CLI prints them and decides the exit code."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.files import read_regular

if TYPE_CHECKING:
    from ..index.workspace import Workspace


def missing_roots(root: Path, roots: list[str]) -> str | None:
    """A source root that does not exist is a configuration error, never a quiet empty
    run; without a cairn.toml either, the folder is not a workspace at all, and the
    message says how to start one."""
    from ..core.config import CONFIG_FILE

    missing = [r for r in roots if not (root / r).is_dir()]
    if not missing:
        return None
    if not (root / CONFIG_FILE).is_file():
        below = workspaces_below(root)
        hint = ""
        if below:
            names = ", ".join(f"`cd {b}`" for b in below[:3]) + (f" (and {len(below) - 3} more)" if len(below) > 3 else "")
            hint = f" A workspace is below: did you mean {names}?"
        return (f"{root} is not a Cairn workspace: no {CONFIG_FILE} here or in a folder above, and no"
                f" {', '.join(r + '/' for r in missing)} folder.{hint} Run `cairn init` to start one here.")
    return (f"source root {', '.join(repr(r) for r in missing)} does not exist in {root}: create it, or set"
            " `sources` in cairn.toml to the folders that hold your sources")


def workspaces_below(root: Path, depth: int = 2, limit: int = 200) -> list[str]:
    """Folders at most `depth` levels below `root` holding a cairn.toml (hidden folders and links
    not entered; at most `limit` folders looked at, so a huge tree costs nothing), nearest first."""
    from ..core.config import CONFIG_FILE

    found: list[str] = []
    level = [root]
    seen = 0
    for _ in range(depth):
        nxt: list[Path] = []
        for folder in level:
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                if seen >= limit:
                    return found
                if entry.name.startswith(".") or not entry.is_dir(follow_symlinks=False):
                    continue
                seen += 1
                path = Path(entry.path)
                if (path / CONFIG_FILE).is_file():
                    found.append(path.relative_to(root).as_posix())
                else:
                    nxt.append(path)
        level = nxt
    return found


def holds_a_file(folder: Path) -> bool:
    """Whether a folder holds a file that is not hidden, at any depth."""
    for _, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        if any(not n.startswith(".") for n in filenames):
            return True
    return False


def unusable_setup(ws: Workspace, paths_given: bool) -> str | None:
    """A `drafts` glob that matches no answer, or drafts to check while a source root
    holds no file (every citation would fail for a reason the output does not show)."""
    empty = [r for r in ws.roots if not holds_a_file(ws.root / r)]
    if empty and not ws.web_sources and ws.answers():
        return (f"source root {', '.join(repr(r) for r in empty)} holds no file, so no citation can resolve: put"
                " the documents your drafts cite there (.md .txt .html .pdf), or set `sources` in cairn.toml to"
                " the folders that hold them")
    globs = ws.settings.config.drafts
    if paths_given or not globs:
        return None
    found = set(ws.answers())
    for pat in globs:
        if not any(p in found and not empty_answer_file(p) for p in ws.drafts_glob(pat)):
            return (f"drafts glob {pat!r} in cairn.toml matches no answer (a Markdown file, or a .json/.jsonl answer"
                    " file, outside the source roots)")
    return None


def empty_answer_file(p: Path) -> bool:
    """A .json/.jsonl file that holds no answer at all."""
    from ..answers.json_answers import is_answer_file, parse_answers
    from ..drafts import read_draft

    if not is_answer_file(p):
        return False
    text, _ = read_draft(p)
    return not parse_answers(text, jsonl=p.name.lower().endswith(".jsonl"))


def special_answers(ws: Workspace) -> list[str]:
    """An answer's name given to a pipe, a device or a socket: never read (reading would wait
    for a writer, or never end), and the writer is told so instead of seeing it left out."""
    return [f"warning: {ws.relpath(p)}: not a regular file ({kind}): not read, not checked"
            for p, kind in sorted(ws.special_answers.items())]


def near_misses(ws: Workspace) -> list[str]:
    """A fence meant as a citation but not read as one (```Cite, ```citation), in the
    answers the last check read and in the Markdown files discovery passed over."""
    from ..drafts import might_have_near_miss, near_miss_fences

    out = []
    for path in sorted(set(ws.last_answers) | set(ws.near_misses)):
        try:
            text = read_regular(path).decode("utf-8", errors="replace")
        except OSError:
            continue
        if not might_have_near_miss(text):
            continue
        for line, word in near_miss_fences(text):
            out.append(f"warning: {ws.relpath(path)}:{line + 1}: a fence with the info string {word!r} is not a"
                       " citation block and is not checked: only `cite`, in lower case, opens one")
    return out


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + '..."'


def fixes_done(done: list, results: dict) -> list[str]:
    """Each citation `--fix` changed: where, what, old -> new, and what the check
    still finds on its claim afterwards (a re-anchor can reveal a new error).
    `done` holds (draft path, engine.PlannedFix); `results` the new DraftResults by path."""
    out = []
    for path, plan in done:
        what = "; ".join(f"{name} {_shown(old) if old is not None else '(none)'} -> {_shown(new)}"
                         for name, old, new in plan.changes())
        out.append(f"{path}:{plan.line}: fixed [{', '.join(dict.fromkeys(plan.codes))}] {'; '.join(plan.titles)}:"
                   f" {what}")
        result = results.get(path)
        if result is None or plan.claim >= len(result.claims):
            continue
        for d in result.claims[plan.claim].diagnostics:
            if d.severity in ("error", "warning"):
                out.append(f"  still on this claim: {d.severity} [{d.code}] {d.message}")
    return out
