"""Configuration (SPEC section 7): `cairn.toml` wins, editor settings fill the
keys it does not set, `chunk_chars` comes from the file only."""

from __future__ import annotations

import ipaddress
import os
import tomllib
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

CONFIG_FILE = "cairn.toml"


class ConfigError(Exception):
    """A configuration the user must fix; the CLI exits 2 on it."""


def _default_mode() -> str:
    try:
        from .support import DEFAULT_MODE
    except ImportError:  # pragma: no cover - during bootstrap
        return "seed"
    return DEFAULT_MODE


class SupportConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: str = Field(default_factory=_default_mode)

    @field_validator("mode")
    @classmethod
    def _known_mode(cls, v: str) -> str:
        try:
            from .support import MODES
        except ImportError:  # pragma: no cover
            return v
        if v not in MODES:
            raise ValueError(f"unknown support mode {v!r}; known: {', '.join(MODES)}")
        return v


class JudgeConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    provider: Literal["stub", "openai"] = "stub"
    url: str = ""
    model: str = ""
    api_key_env: str = ""
    timeout: float = Field(default=30.0, gt=0, le=600)
    retries: int = Field(default=2, ge=0, le=10)
    concurrency: int = Field(default=4, ge=1, le=64)

    @field_validator("api_key_env")
    @classmethod
    def _cairn_prefix(cls, v: str) -> str:
        if v and not v.startswith("CAIRN_"):
            raise ValueError("api_key_env must name an environment variable starting with CAIRN_")
        return v


class Config(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sources: list[str] = Field(default_factory=lambda: ["sources"])
    drafts: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)
    threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    chunk_chars: int = Field(default=1200, ge=32, le=1_000_000)
    strict_sentences: bool = False
    date_window_days: int = Field(default=365, ge=0, le=1_000_000)
    support: SupportConfig = Field(default_factory=SupportConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)


class Settings:
    """A workspace's effective configuration."""

    def __init__(self, root: Path, config: Config, *, judge_url_trusted: bool, warnings: list[str]):
        self.root = root
        self.config = config
        self.judge_url_trusted = judge_url_trusted
        self.warnings = warnings

    def __getattr__(self, name: str) -> Any:
        return getattr(self.config, name)

    def source_roots(self) -> list[str]:
        """The source roots as normalised relative paths with `/`."""
        return [normalise_root(r) for r in self.config.sources]


def find_root(start: Path) -> Path:
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / CONFIG_FILE).is_file():
            return folder
    return start


def normalise_root(root: str) -> str:
    if not isinstance(root, str) or not root.strip():
        raise ConfigError("sources: each source root must be a non-empty folder name")
    r = root.replace("\\", "/").strip()
    if r.startswith("/") or (len(r) > 1 and r[1] == ":"):
        raise ConfigError(f"sources: {root!r} is an absolute path; source roots must be folders inside the workspace")
    parts = [p for p in r.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise ConfigError(f"sources: {root!r} leaves the workspace; source roots must be folders inside it")
    return "/".join(parts) or "."


def check_drafts_glob(pattern: str) -> None:
    """A `drafts` glob names files inside the workspace: relative, without `..`."""
    p = pattern.replace("\\", "/").strip()
    if not p:
        raise ConfigError("drafts: each pattern must be a non-empty glob")
    if p.startswith("/") or (len(p) > 1 and p[1] == ":"):
        raise ConfigError(f"drafts: {pattern!r} is an absolute path; patterns are relative to the workspace root")
    if ".." in p.split("/"):
        raise ConfigError(f"drafts: {pattern!r} leaves the workspace; patterns must stay inside it")


def read_toml(root: Path) -> dict[str, Any]:
    path = root / CONFIG_FILE
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{CONFIG_FILE}: {exc}") from exc
    except RecursionError:
        raise ConfigError(f"{CONFIG_FILE}: arrays or tables nested too deeply") from None
    except OSError as exc:
        raise ConfigError(f"{CONFIG_FILE}: cannot read: {exc.strerror or exc}") from exc


def is_loopback_url(url: str) -> bool:
    try:
        host = urlparse(url).hostname
    except ValueError:
        return False
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """`base` wins; `extra` fills missing keys, one level of tables deep."""
    out = dict(extra)
    for k, v in base.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = {**out[k], **v}
        else:
            out[k] = v
    return out


def _describe(err: ValidationError, origin: str) -> str:
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"])
        parts.append(f"{loc}: {e['msg']}")
    return f"{origin}: " + "; ".join(parts)


def load_settings(
    root: Path,
    editor: dict[str, Any] | None = None,
    *,
    judge_url_override: str | None = None,
) -> Settings:
    """Read the workspace's configuration.

    `editor` holds the client's `cairn.*` settings (user-level ones: they may
    also allow a judge URL). An invalid configuration raises ConfigError: it
    is never replaced by the defaults, which may read more than it would.
    """
    file_cfg = read_toml(root)
    editor = {k: v for k, v in (editor or {}).items() if v is not None and k not in ("server", "trace")}
    if "chunk_chars" in editor:
        editor.pop("chunk_chars")
    if isinstance(editor.get("judge"), dict):
        editor["judge"] = {k: v for k, v in editor["judge"].items() if v not in (None, "")}
    # a judge URL the workspace names is trusted only on loopback or when the
    # user (editor settings, environment, command line) names one too
    user_url = judge_url_override or os.environ.get("CAIRN_JUDGE_URL") or (editor.get("judge") or {}).get("url")
    merged = _merge(file_cfg, editor)
    if user_url:
        merged.setdefault("judge", {})
        merged["judge"] = {**merged["judge"], "url": user_url}
    try:
        config = Config.model_validate(merged)
    except ValidationError as exc:
        # try the file alone to tell which side is wrong
        msg = _describe(exc, CONFIG_FILE if _file_is_bad(file_cfg) else "editor settings")
        raise ConfigError(msg) from exc
    for r in config.sources:
        normalise_root(r)
    for pattern in config.drafts:
        check_drafts_glob(pattern)
    if root.exists():
        real_root = root.resolve()
        for r in config.sources:
            try:
                target = (root / normalise_root(r)).resolve()
            except (OSError, RuntimeError) as exc:  # a loop of links
                raise ConfigError(f"sources: {r!r} cannot be resolved ({exc})") from None
            if target != real_root and real_root not in target.parents:
                raise ConfigError(f"sources: {r!r} resolves outside the workspace ({target})")
    trusted = bool(user_url) or is_loopback_url(config.judge.url)
    return Settings(root, config, judge_url_trusted=trusted, warnings=[])


def _file_is_bad(file_cfg: dict[str, Any]) -> bool:
    try:
        Config.model_validate(file_cfg)
    except ValidationError:
        return True
    return False
