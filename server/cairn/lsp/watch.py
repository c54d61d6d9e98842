"""Files changed on disk (workspace/didChangeWatchedFiles): what to watch, and
what a batch of changes means (a source to re-index, a draft to re-read,
cairn.toml to reload)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from lsprotocol import types

from ..answers.json_answers import JSON_SUFFIXES, is_answer_file
from ..core.config import CONFIG_FILE
from ..sources import is_source_name
from .documents import uri_to_path


def watchers(folders, relative: bool) -> list[types.FileSystemWatcher]:
    """Every file under each source root, every Markdown file (drafts), every JSON answer
    file a `drafts` glob may match and cairn.toml."""
    out = []
    for f in folders:
        base = f.uri or f.root.as_uri()
        patterns = [("**/*" if r == "." else f"{r}/**/*") for r in f.ws.roots]
        patterns += ["**/*.md", *(f"**/*{s}" for s in JSON_SUFFIXES), f"**/{CONFIG_FILE}"]
        for pat in patterns:
            glob: str | types.RelativePattern
            if relative:
                glob = types.RelativePattern(base_uri=base, pattern=pat)
            else:
                glob = f"{f.root.as_posix()}/{pat}"
            out.append(types.FileSystemWatcher(glob_pattern=glob))
    return out


@dataclass
class Plan:
    config: list = field(default_factory=list)  # folders whose cairn.toml changed
    sources: dict = field(default_factory=lambda: defaultdict(set))  # folder -> source identities
    rescan: list = field(default_factory=list)  # folders where a whole folder of sources came or went
    drafts: dict = field(default_factory=lambda: defaultdict(list))  # folder -> [(path, change type)]


def classify(session, changes: Sequence[types.FileEvent]) -> Plan:
    plan = Plan()
    for ch in changes:
        path = uri_to_path(ch.uri)
        folder = session.folder_for(path)
        if folder is None or path is None:
            continue
        if path.name == CONFIG_FILE and path.parent == folder.root:
            if folder not in plan.config:
                plan.config.append(folder)
        elif folder.is_source(path):
            ident = folder.ws.identity(path)
            if ident is not None and is_source_name(path.name):
                plan.sources[folder].add(ident)
            elif ch.type != types.FileChangeType.Changed and not path.suffix and folder not in plan.rescan:
                plan.rescan.append(folder)  # probably a folder: let the full (incremental) index sort it out
        elif _may_be_answer(folder, path) and not any(part.startswith(".") for part in path.relative_to(folder.root).parts):
            plan.drafts[folder].append((path, ch.type))
    return plan


def _may_be_answer(folder, path) -> bool:
    """A Markdown file, or a JSON answer file where `drafts` globs name the answers (only
    they make a .json/.jsonl file an answer: any other JSON file's change is no draft's)."""
    if path.suffix.lower() == ".md":
        return True
    return is_answer_file(path) and bool(folder.settings.config.drafts)
