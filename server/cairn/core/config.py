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

from .config_errors import describe, locate, toml_syntax
from .files import not_regular, read_regular
from .policy import (
    AuthorityConfig,
    Policy,
    PolicyEntry,
    PolicyError,
    RetentionConfig,
    current_principal,
    principals_table,
)
from .store_url import ALLOWED, workspace_refusal

CONFIG_FILE = "cairn.toml"


class ConfigError(Exception):
    """A configuration the user must fix; the CLI exits 2 on it."""


def _default_mode() -> str:
    try:
        from ..support.modes import DEFAULT_MODE
    except ImportError:  # pragma: no cover - during bootstrap
        return "seed"
    return DEFAULT_MODE


class SupportConfig(BaseModel):
    # a value of the wrong type is an error, never coerced (`threshold = true` is not 1.0)
    model_config = ConfigDict(extra="forbid", strict=True)
    mode: str = Field(default_factory=_default_mode)

    @field_validator("mode")
    @classmethod
    def _known_mode(cls, v: str) -> str:
        try:
            from ..support.modes import MODES
        except ImportError:  # pragma: no cover
            return v
        if v not in MODES:
            raise ValueError(f"unknown support mode {v!r}; known: {', '.join(MODES)}")
        return v


class EndpointConfig(BaseModel):
    """The keys `[judge]` and `[ask]` share: an OpenAI-compatible endpoint and how it is asked."""

    # a value of the wrong type is an error, never coerced (`threshold = true` is not 1.0)
    model_config = ConfigDict(extra="forbid", strict=True)
    provider: str = ""
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


class JudgeConfig(EndpointConfig):
    """`[judge]`: who decides whether the quotes support a claim."""

    provider: Literal["stub", "openai", "nli"] = "stub"
    # openai: claims asked in one request (1: one request a claim)
    claims_per_request: int = Field(default=1, ge=1, le=50)


class AskConfig(EndpointConfig):
    """`[ask]`: who writes the answer of `cairn ask`; same keys and URL rule as `[judge]`."""

    provider: Literal["extractive", "openai"] = "extractive"
    k: int = Field(default=8, ge=1, le=100)
    timeout: float = Field(default=120.0, gt=0, le=600)  # a whole answer takes longer than a verdict


class StoreConfig(BaseModel):
    # a value of the wrong type is an error, never coerced (`threshold = true` is not 1.0)
    model_config = ConfigDict(extra="forbid", strict=True)
    url: str = ""  # "" = .cairn/index.db (SQLite); "postgresql://..." = a shared index

    @field_validator("url")
    @classmethod
    def _postgres_only(cls, v: str) -> str:
        v = v.strip()
        if v and not v.startswith(("postgresql://", "postgres://")):
            raise ValueError("must be empty (the SQLite file .cairn/index.db) or a postgresql:// URL")
        return v


class Config(BaseModel):
    # a value of the wrong type is an error, never coerced (`threshold = true` is not 1.0)
    model_config = ConfigDict(extra="forbid", strict=True)
    sources: list[str] = Field(default_factory=lambda: ["sources"])
    drafts: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)
    threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    chunk_chars: int = Field(default=1200, ge=32, le=1_000_000)
    strict_sentences: bool = False
    date_window_days: int = Field(default=365, ge=0, le=1_000_000)
    # files without an extension (LICENSE, COPYING) are read as text when their bytes are text
    text_without_extension: bool = True
    support: SupportConfig = Field(default_factory=SupportConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    ask: AskConfig = Field(default_factory=AskConfig)
    store: StoreConfig = Field(default_factory=StoreConfig)
    authority: AuthorityConfig = Field(default_factory=AuthorityConfig)
    policy: list[PolicyEntry] = Field(default_factory=list)
    principals: dict[str, Any] = Field(default_factory=dict)
    principal: str = ""
    retention: RetentionConfig = Field(default_factory=RetentionConfig)


class Settings:
    """A workspace's effective configuration."""

    def __init__(self, root: Path, config: Config, *, judge_url_trusted: bool, warnings: list[str],
                 ask_url_trusted: bool = False, store_url_trusted: bool = True, policy: Policy | None = None,
                 principal_origin: str = "default", source_roots: list[str] | None = None,
                 store_url_from_user: bool = True, judge_model_trusted: bool = False):
        self.root = root
        self._source_roots = source_roots  # normalised once (load_settings does it while checking them)
        self.policy = policy or Policy()
        self.principal_origin = principal_origin  # where the current principal came from
        self.config = config
        self.judge_url_trusted = judge_url_trusted
        self.ask_url_trusted = ask_url_trusted
        # the nli judge's model folder may be loaded: inside the workspace, or named by the user too
        self.judge_model_trusted = judge_model_trusted
        self.store_url_trusted = store_url_trusted
        self.store_url_from_user = store_url_from_user  # False: only the workspace's cairn.toml names it
        self.warnings = warnings

    @property
    def judge_model_folder(self) -> Path:
        """The nli judge's model folder (`judge.model`; relative to the workspace root)."""
        return model_folder(self.root, self.config.judge.model)

    @property
    def store_url(self) -> str:
        """The shared index's URL; "" for the workspace's own SQLite file.

        A URL only the workspace's own cairn.toml names, on another machine,
        is refused (ConfigError) rather than replaced by the SQLite file: the
        user asked for the shared index and must not get an empty one."""
        url = self.config.store.url
        if url and not self.store_url_trusted:
            raise ConfigError(
                f"{CONFIG_FILE} names the shared index {redact_url(url)}, which is not on this machine; a"
                " workspace's own file cannot send its sources to another server: allow it by setting"
                " CAIRN_STORE_URL (or the editor setting cairn.store.url) to that URL"
            )
        refused = workspace_refusal(url) if url and not self.store_url_from_user else None
        if refused is not None:
            raise ConfigError(
                f"{CONFIG_FILE} [store] url sets the connection parameter {refused!r}; a workspace's own file"
                f" may set only {', '.join(sorted(ALLOWED))}: set the other parameters in CAIRN_STORE_URL"
                " (or the editor setting cairn.store.url)"
            )
        return url

    def source_roots(self) -> list[str]:
        """The source roots as normalised relative paths with `/`."""
        if self._source_roots is None:
            self._source_roots = [normalise_root(r) for r in self.config.sources if not is_web_url(r)]
        return list(self._source_roots)

    def web_urls(self) -> list[str]:
        """The `sources` entries that are web sources (http(s) URLs, SPEC section 2)."""
        return [r.strip() for r in self.config.sources if is_web_url(r)]


def is_web_url(entry: str) -> bool:
    """A `sources` entry naming a web source rather than a folder."""
    return isinstance(entry, str) and entry.strip().lower().startswith(("http://", "https://"))


def find_root(start: Path) -> Path:
    start = start.resolve()
    for folder in (start, *start.parents):
        # a cairn.toml that is no regular file (a pipe, a device) still marks the workspace:
        # reading it then says what it is, instead of another folder's being taken
        here = folder / CONFIG_FILE
        if here.is_file() or not_regular(here) not in (None, "a folder"):
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
    return read_toml_text(root)[0]


def read_toml_text(root: Path) -> tuple[dict[str, Any], str | None]:
    """The parsed cairn.toml and its text (None without a file); the text tells
    a configuration error's line."""
    path = root / CONFIG_FILE
    kind = not_regular(path)
    if kind is not None and kind != "a folder":
        raise ConfigError(f"{CONFIG_FILE}: not a regular file ({kind}): not read")
    if not path.is_file():
        return {}, None
    try:
        text = read_regular(path).decode("utf-8")
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(toml_syntax(str(exc), CONFIG_FILE)) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{CONFIG_FILE}: {exc}; save it as UTF-8") from exc
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


def is_local_store_url(url: str) -> bool:
    """Does this PostgreSQL URL reach only this machine? Every host it names
    (the URL's own and libpq's `host`/`hostaddr` parameters, which win over it)
    must be loopback or a Unix socket folder; a `service` entry may name any
    host, so it never counts as local."""
    from urllib.parse import parse_qs

    try:
        parsed = urlparse(url)
        params = parse_qs(parsed.query)
        netloc_hosts = parsed.netloc.rsplit("@", 1)[-1]
    except ValueError:
        return False
    if "service" in params:
        return False
    hosts = [h for h in netloc_hosts.split(",") if h]
    for key in ("host", "hostaddr"):
        for value in params.get(key, []):
            hosts += [h for h in value.split(",") if h]
    for h in hosts:
        if h.startswith("/"):
            continue  # a Unix socket: this machine
        if h.startswith("[") and "]" in h:  # [::1]:5432
            name = h[1:h.index("]")]
        elif h.count(":") == 1:  # host:port
            name = h.split(":")[0]
        else:
            name = h
        if name == "localhost":
            continue
        try:
            if not ipaddress.ip_address(name).is_loopback:
                return False
        except ValueError:
            return False
    return True


def redact_url(url: str) -> str:
    """A URL as it may be shown: without its password (in the user part or as
    libpq's `password` parameter)."""
    import re

    try:
        password = urlparse(url).password
    except ValueError:
        return "(a URL that cannot be parsed)"
    if password is not None:
        url = url.replace(":" + password + "@", ":***@", 1)
    return re.sub(r"([?&])password=[^&#]*", r"\1password=***", url)


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """`base` wins; `extra` fills missing keys, one level of tables deep."""
    out = dict(extra)
    for k, v in base.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = {**out[k], **v}
        else:
            out[k] = v
    return out


def load_settings(
    root: Path,
    editor: dict[str, Any] | None = None,
    *,
    judge_url_override: str | None = None,
    principal_override: str | None = None,
    ask_url_override: str | None = None,
) -> Settings:
    """Read the workspace's configuration.

    `editor` holds the client's `cairn.*` settings (user-level ones: they may
    also allow a judge URL). An invalid configuration raises ConfigError: it
    is never replaced by the defaults, which may read more than it would.
    """
    file_cfg, file_text = read_toml_text(root)
    editor = {k: v for k, v in (editor or {}).items() if v is not None and k not in ("server", "trace")}
    if "chunk_chars" in editor:
        editor.pop("chunk_chars")
    # the policy is the workspace's; the principal is the user's choice, read apart
    editor_principal = editor.pop("principal", None)
    for key in ("authority", "policy", "principals", "retention"):
        editor.pop(key, None)
    for section in ("judge", "ask"):
        if isinstance(editor.get(section), dict):
            editor[section] = {k: v for k, v in editor[section].items() if v not in (None, "")}
    # a judge (or ask) URL the workspace names is trusted only on loopback or when
    # the user (editor settings, environment, command line) names one too
    user_url = judge_url_override or os.environ.get("CAIRN_JUDGE_URL") or (editor.get("judge") or {}).get("url")
    ask_user_url = ask_url_override or os.environ.get("CAIRN_ASK_URL") or (editor.get("ask") or {}).get("url")
    # the same rule for a shared index: the environment and the editor's user settings count
    user_store = os.environ.get("CAIRN_STORE_URL", "").strip() or (editor.get("store") or {}).get("url") or ""
    # the nli judge's model folder: one the user names (environment, editor settings) wins and is trusted
    user_model = os.environ.get("CAIRN_JUDGE_MODEL", "").strip() or (editor.get("judge") or {}).get("model") or ""
    merged = _merge(file_cfg, editor)
    if user_store:
        table = merged.get("store")
        merged["store"] = {**(table if isinstance(table, dict) else {}), "url": user_store}
    for section, url in (("judge", user_url), ("ask", ask_user_url)):
        if url:
            merged.setdefault(section, {})
            merged[section] = {**merged[section], "url": url}
    judge_table = merged.get("judge")
    nli = isinstance(judge_table, dict) and judge_table.get("provider") == "nli"
    if nli and isinstance(judge_table, dict) and isinstance(user_model, str) and user_model:
        merged["judge"] = {**judge_table, "model": user_model}
    try:
        config = Config.model_validate(merged)
    except ValidationError as exc:
        # the file alone tells which side is wrong; its own errors are named with their lines
        try:
            Config.model_validate(file_cfg)
        except ValidationError as file_exc:
            raise ConfigError(describe(file_exc, Config, CONFIG_FILE, file_text)) from exc
        raise ConfigError(describe(exc, Config, "editor settings", None)) from exc
    try:
        roots, folders = _checked_paths(root, config)
        policy, origin = _policy(config, principal_override,
                                 editor_principal if isinstance(editor_principal, str) else None)
    except ConfigError as exc:
        # the loader's own refusals start with their key: name the file and line too
        key = str(exc).split(".", 1)[0].split(":", 1)[0].split(" ", 1)[0]
        if key not in ("sources", "drafts", "authority", "policy", "principals"):
            raise  # a principal from the command line or the environment: no line to name
        if file_text is not None and key in file_cfg:
            raise ConfigError(locate(str(exc), file_text, CONFIG_FILE)) from None
        raise ConfigError(f"editor settings: {exc}") from None
    trusted = bool(user_url) or is_loopback_url(config.judge.url)
    ask_trusted = bool(ask_user_url) or is_loopback_url(config.ask.url)
    store_trusted = bool(user_store) or is_local_store_url(config.store.url)
    model_trusted = bool(nli and user_model) or model_folder_inside(root, config.judge.model)
    return Settings(root, config, judge_url_trusted=trusted, warnings=[], store_url_trusted=store_trusted,
                    ask_url_trusted=ask_trusted, policy=policy, principal_origin=origin, source_roots=roots,
                    store_url_from_user=bool(user_store), judge_model_trusted=model_trusted)


def _checked_paths(root: Path, config: Config) -> tuple[list[str], list[str]]:
    """The normalised source roots (and the folders as written): each inside the workspace;
    each `drafts` glob relative and inside it."""
    folders = [r for r in config.sources if not is_web_url(r)]
    roots = [normalise_root(r) for r in folders]
    for pattern in config.drafts:
        check_drafts_glob(pattern)
    if root.exists():
        real_root = root.resolve()
        for r, normal in zip(folders, roots):
            try:
                target = (root / normal).resolve()
            except (OSError, RuntimeError) as exc:  # a loop of links
                raise ConfigError(f"sources: {r!r} cannot be resolved ({exc})") from None
            if target != real_root and real_root not in target.parents:
                raise ConfigError(f"sources: {r!r} resolves outside the workspace ({target})")
    return roots, folders


def model_folder(root: Path, model: str) -> Path:
    """The nli judge's model folder: `~` expanded, a relative path taken from the workspace root."""
    path = Path(model.strip()).expanduser()
    return path if path.is_absolute() else root / path


def model_folder_inside(root: Path, model: str) -> bool:
    """Whether a model folder is inside the workspace (links followed: a link out of it is outside)."""
    if not model.strip():
        return False
    try:
        target = model_folder(root, model).resolve()
        real_root = root.resolve()
    except (OSError, RuntimeError):
        return False
    return target == real_root or real_root in target.parents


def _policy(config: Config, flag: str | None, editor_principal: str | None) -> tuple[Policy, str]:
    """The source policy and the current principal (policy.current_principal's order)."""
    try:
        principals, in_table = principals_table(config.principals)
        principal, origin = current_principal(flag, editor_principal, config.principal or in_table)
        return Policy.build(config.authority, config.policy, principals, principal), origin
    except PolicyError as exc:
        raise ConfigError(str(exc)) from None
