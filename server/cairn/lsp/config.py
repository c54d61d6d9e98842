"""Configuration at the server: SPEC section 7 (cairn.toml wins, the client's
`cairn.*` settings fill the keys it does not set, `chunk_chars` only from the
file) plus the server's own options from `initializationOptions`.

Nothing here is fatal: an invalid value becomes a message for the client
and the default.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.config import Settings
    from ..index.workspace import Workspace
    from ..judge.cached import CachingJudge

log = logging.getLogger(__name__)

DEFAULT_DEBOUNCE_MS = 200


@dataclass
class ServerOptions:
    """`initializationOptions`: {"debounce_ms": 200, "settings": {...}}.

    `settings` stands in for the `cairn` section when the client cannot
    answer workspace/configuration.
    """

    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def debounce(self) -> float:
        return self.debounce_ms / 1000.0


def server_options(raw: Any) -> tuple[ServerOptions, list[str]]:
    opts = ServerOptions()
    problems: list[str] = []
    raw = plain(raw)
    if raw is None:
        return opts, problems
    if not isinstance(raw, dict):
        return opts, [f"initializationOptions: expected an object, got {type(raw).__name__}; using defaults"]
    if "debounce_ms" in raw or "debounceMs" in raw:
        v = raw.get("debounce_ms", raw.get("debounceMs"))
        if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 60_000:
            opts.debounce_ms = int(v)
        else:
            problems.append(f"initializationOptions.debounce_ms: expected 0 to 60000, got {v!r}; using {DEFAULT_DEBOUNCE_MS}")
    s = plain(raw.get("settings"))
    if isinstance(s, dict):
        opts.settings = s
    elif s is not None:
        problems.append("initializationOptions.settings: expected an object; ignored")
    return opts, problems


def plain(value: Any) -> Any:
    """JSON the client sent, as dicts and lists (pygls gives untyped objects as named tuples)."""
    if hasattr(value, "_asdict"):
        value = value._asdict()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def editor_section(value: Any) -> dict[str, Any]:
    """The client's `cairn` section as load_settings wants it: nested tables,
    dotted keys ("support.mode") unfolded, empty values dropped."""
    value = plain(value)
    if not isinstance(value, dict):
        return {}
    out: dict[str, Any] = {}
    for key, v in value.items():
        if not isinstance(key, str) or v is None or v == "":
            continue
        parts = key.split(".")
        if parts[0] == "cairn" and len(parts) > 1:
            parts = parts[1:]
        target = out
        for p in parts[:-1]:
            nxt = target.get(p)
            if not isinstance(nxt, dict):
                nxt = target[p] = {}
            target = nxt
        if isinstance(v, dict):
            inner = editor_section(v)
            if inner:
                existing = target.get(parts[-1])
                target[parts[-1]] = {**existing, **inner} if isinstance(existing, dict) else inner
        else:
            target[parts[-1]] = v
    return out


def folder_settings(root: Path, editor: dict[str, Any]) -> tuple[Settings, list[tuple[str, str]], str | None]:
    """The effective settings of one workspace root, what to tell the user:
    [(level, message)], level "error" or "warning", and the configuration error
    when the configuration was refused (else None).

    A configuration the CLI would refuse (exit 2) never falls back to the
    defaults here: the defaults name `sources`, which may be the very link out
    of the workspace that was refused. The folder runs with no source root and
    checks nothing (each open draft shows the error instead) until it is fixed."""
    # loaded here, not when the server starts: the configuration's models are not needed to
    # answer `initialize` (tests/unit/test_fast_start.py)
    from ..core.config import ConfigError, load_settings

    messages: list[tuple[str, str]] = []
    error: str | None = None
    try:
        settings = load_settings(root, editor)
    except ConfigError as exc:
        # first see whether the file alone is fine (the editor settings were wrong)
        try:
            if "principal" in str(exc):
                # the user's principal is refused: the workspace's own file must not pick one instead
                raise exc
            # the other editor settings are dropped, never the user's principal
            kept = {"principal": editor["principal"]} if isinstance(editor.get("principal"), str) else None
            settings = load_settings(root, kept)
            said = str(exc).removeprefix("editor settings: ")  # the loader may already say where
            messages.append(("warning", f"editor settings: {said}; they are ignored"))
        except ConfigError as exc2:
            error = str(exc2)
            messages.append(("error", f"configuration error: {exc2}; no source is read until it is fixed"))
            settings = no_sources(root)
    for w in settings.warnings:
        messages.append(("warning", w))
    return settings, messages, error


def no_sources(root: Path) -> Settings:
    """The settings of a folder whose configuration was refused: no source root."""
    from ..core.config import Config, Settings

    return Settings(root, Config(sources=[]), judge_url_trusted=False, warnings=[])


def make_judge_safely(ws: Workspace) -> tuple[CachingJudge | None, str | None]:
    try:
        from ..judge.providers import make_judge

        judge = make_judge(ws)
    except Exception as exc:  # noqa: BLE001 - a judge that cannot start leaves the lexical check
        return None, f"judge {ws.settings.config.judge.provider!r} is not available ({exc}); the lexical check decides"
    problem = getattr(judge, "problem", None)
    if problem:
        # the judge exists but every claim will fall back (URL refused, key missing): say why once
        return judge, f"judge: {problem}; the lexical check decides"
    return judge, None
