"""Source policy (SPEC sections 2 and 7): each source's authority tier, whether
it is derived, its date and its access labels, from `[authority]`,
`[[policy]]`, `[principals]` and `principal` in cairn.toml; and who the
current principal is.

A policy never widens what is read: its globs name paths inside the
workspace only, and access labels only ever hide sources. The principal
comes from the user (`--as`, CAIRN_PRINCIPAL, the editor's user setting)
before the workspace's own file.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

PRINCIPAL_ENV = "CAIRN_PRINCIPAL"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}$")


class PolicyError(ValueError):
    """A policy the user must fix (the configuration loader turns it into a ConfigError)."""


def check_name(value: str, what: str) -> str:
    """A principal name or an access label: letters, digits and `_.@+-`, at most 64,
    so it can be printed, logged and compared without surprises."""
    if not isinstance(value, str) or not _NAME.match(value):
        raise PolicyError(
            f"{what} {value!r} is not a valid name: use 1 to 64 letters, digits or _ . @ + -,"
            " starting with a letter or digit"
        )
    return value


def check_glob(pattern: str) -> str:
    """A policy glob names files inside the workspace: relative, with `/`, no `..`."""
    p = pattern.replace("\\", "/").strip() if isinstance(pattern, str) else ""
    if not p:
        raise PolicyError("policy.path: each policy needs a non-empty glob")
    if p.startswith("/") or (len(p) > 1 and p[1] == ":") or p.startswith("~"):
        raise PolicyError(f"policy.path: {pattern!r} is an absolute path; globs are relative to the workspace root")
    if ".." in p.split("/"):
        raise PolicyError(f"policy.path: {pattern!r} leaves the workspace; globs must stay inside it")
    return p


@lru_cache(maxsize=512)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """`**` any number of folders, `*` and `?` within one name, `[...]` a class."""
    out = []
    i = 0
    parts = pattern.split("/")
    for n, part in enumerate(parts):
        last = n == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]*/)*")
            continue
        i = 0
        piece = ""
        while i < len(part):
            c = part[i]
            if c == "*":
                piece += "[^/]*"
            elif c == "?":
                piece += "[^/]"
            elif c == "[":
                j = part.find("]", i + 2)
                if j < 0:
                    piece += re.escape(c)
                else:
                    body = part[i + 1:j]
                    neg = body.startswith("!")
                    body = body[1:] if neg else body
                    piece += "[" + ("^" if neg else "") + body.replace("\\", "\\\\") + "]"
                    i = j
            else:
                piece += re.escape(c)
            i += 1
        out.append(piece + ("" if last else "/"))
    return re.compile("".join(out) + r"\Z")


class AuthorityConfig(BaseModel):
    # a value of the wrong type is an error, never coerced (`threshold = true` is not 1.0)
    model_config = ConfigDict(extra="forbid", strict=True)
    tiers: list[str] = Field(default_factory=list)
    default: str = ""
    minimum: str = ""
    # `conflicting-source` (verify/conflicts.py): a warning, a failure of the claim, or not looked for
    conflicts: Literal["warn", "fail", "off"] = "warn"


class PolicyEntry(BaseModel):
    """One `[[policy]]` table; a key left out leaves earlier entries' value."""

    # a value of the wrong type is an error, never coerced (`threshold = true` is not 1.0)
    model_config = ConfigDict(extra="forbid", strict=True)
    path: str
    authority: str | None = None
    date: str | None = None
    derived: bool | None = None
    access: list[str] | None = None

    @field_validator("path")
    @classmethod
    def _inside(cls, v: str) -> str:
        return check_glob(v)

    @field_validator("date")
    @classmethod
    def _iso_date(cls, v: str | None) -> str | None:
        if v is None or v == "":
            return v
        try:
            dt.date.fromisoformat(v)
        except ValueError:
            raise PolicyError(f"date {v!r} is not a date in the form YYYY-MM-DD") from None
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
            raise PolicyError(f"date {v!r} is not a date in the form YYYY-MM-DD")
        return v

    @field_validator("access")
    @classmethod
    def _labels(cls, v: list[str] | None) -> list[str] | None:
        for label in v or []:
            check_name(label, "access label")
        return v


class RetentionConfig(BaseModel):
    # a value of the wrong type is an error, never coerced (`threshold = true` is not 1.0)
    model_config = ConfigDict(extra="forbid", strict=True)
    # superseded versions older than this many days are dropped by `cairn gc`, cited or not; 0 = kept
    superseded_days: int = Field(default=0, ge=0, le=100_000)


def principals_table(raw: Any) -> tuple[dict[str, list[str]], str | None]:
    """`[principals]` as name -> labels; a string `principal` key inside it (where
    TOML puts a `principal = ...` line written after the table) is the current one."""
    if raw is None:
        return {}, None
    if not isinstance(raw, dict):
        raise PolicyError("principals must be a table of principal name -> list of labels")
    out: dict[str, list[str]] = {}
    current = None
    for name, labels in raw.items():
        if name == "principal" and isinstance(labels, str):
            current = labels
            continue
        check_name(name, "principal")
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise PolicyError(f"principals.{name} must be a list of access labels")
        for label in labels:
            check_name(label, "access label")
        out[name] = list(labels)
    return out, current


@dataclass(frozen=True, slots=True)
class SourcePolicy:
    """What the policy says of one source."""

    authority: str | None  # the tier; None when no tiers are configured
    rank: int | None  # index in `tiers` (0 = highest)
    derived: bool
    date: str | None
    access: tuple[str, ...]  # every label that names it (for messages)
    # each group must be met (one of its labels among the principal's): one group per path
    # the source goes by (a link's own and its real path's), so a link never widens access
    gates: tuple[tuple[str, ...], ...] = ()


def stricter(a: SourcePolicy, b: SourcePolicy) -> SourcePolicy:
    """Two policies of one file (a link's path and its real path): the stricter wins,
    key by key. The lower tier, derived if either says so, both access groups to meet;
    the date of the real path's policy (`b`) when it sets one."""
    lower = a.rank is not None and b.rank is not None and b.rank > a.rank
    authority, rank = (b.authority, b.rank) if lower else (a.authority, a.rank)
    gates = tuple(dict.fromkeys(a.gates + b.gates))
    access = tuple(dict.fromkeys(a.access + b.access))
    return SourcePolicy(authority, rank, a.derived or b.derived, b.date or a.date, access, gates)


@dataclass(slots=True)
class Policy:
    """The workspace's policy, with the current principal."""

    tiers: list[str] = field(default_factory=list)
    default: str = ""
    minimum: str = ""
    entries: list[PolicyEntry] = field(default_factory=list)
    principals: dict[str, list[str]] = field(default_factory=dict)
    principal: str = ""  # "" = the workspace owner: reads everything
    # the other paths a source identity goes by inside the workspace (a link's target, each
    # hop of a chain of links), set by the workspace: every rule keyed by a path applies to
    # each of them too, the stricter winning (a link never launders a denied source)
    aliases: Callable[[str], list[str]] | None = None
    _cache: dict[str, SourcePolicy] = field(default_factory=dict)

    @classmethod
    def build(cls, authority: AuthorityConfig, entries: list[PolicyEntry], principals: dict[str, list[str]],
              principal: str) -> Policy:
        tiers = list(authority.tiers)
        for t in tiers:
            if not isinstance(t, str) or not t.strip():
                raise PolicyError("authority.tiers: each tier must be a non-empty name")
        if len(set(tiers)) != len(tiers):
            raise PolicyError("authority.tiers: a tier is named twice")
        for key in ("default", "minimum"):
            value = getattr(authority, key)
            if value and value not in tiers:
                raise PolicyError(f"authority.{key}: {value!r} is not one of authority.tiers ({', '.join(tiers) or 'none set'})")
        for e in entries:
            if e.authority is not None and e.authority not in tiers:
                raise PolicyError(f"policy for {e.path!r}: authority {e.authority!r} is not one of authority.tiers"
                                  f" ({', '.join(tiers) or 'none set'})")
        if principal:
            check_name(principal, "principal")
        return cls(tiers, authority.default or (tiers[-1] if tiers else ""), authority.minimum, list(entries),
                   dict(principals), principal)

    def forget(self) -> None:
        """Forget what was decided per source (files, links or settings changed)."""
        self._cache.clear()

    def of(self, source: str) -> SourcePolicy:
        """The policy of a source identity: the last matching entry wins per key; for a
        link, the stricter of its own path's policy and each path it leads to."""
        got = self._cache.get(source)
        if got is not None:
            return got
        got = self._by_path(source)
        for other in (self.aliases(source) if self.aliases is not None else ()):
            if other != source:
                got = stricter(got, self._by_path(other))
        self._cache[source] = got
        return got

    def _by_path(self, source: str) -> SourcePolicy:
        """What the entries say of this one path."""
        authority: str | None = None
        derived = False
        date: str | None = None
        access: list[str] = []
        for e in self.entries:
            if not glob_regex(e.path).match(source):
                continue
            if e.authority is not None:
                authority = e.authority
            if e.derived is not None:
                derived = e.derived
            if e.date is not None:
                date = e.date or None
            if e.access is not None:
                access = e.access
        if self.tiers:
            authority = authority or self.default
            rank: int | None = self.tiers.index(authority)
        else:
            authority, rank = None, None
        return SourcePolicy(authority, rank, derived, date, tuple(access), (tuple(access),) if access else ())

    def readable(self, source: str) -> bool:
        """May the current principal read this source? Unlabelled sources are
        readable by every principal; the owner ("") reads everything; a labelled
        source needs one of its labels among the principal's (a link: one of each
        path's labels, its own and its target's)."""
        if not self.principal:
            return True
        mine = set(self.principals.get(self.principal, ()))
        return all(any(label in mine for label in gate) for gate in self.of(source).gates)

    def below_minimum(self, source: str) -> bool:
        if not (self.tiers and self.minimum):
            return False
        rank = self.of(source).rank
        return rank is not None and rank > self.tiers.index(self.minimum)

    def date_of(self, source: str) -> dt.date | None:
        """The date a policy gives the source (`[[policy]] date`), or None."""
        d = self.of(source).date
        return dt.date.fromisoformat(d) if d else None

    def weakest(self, tiers: list[str | None]) -> str | None:
        """The lowest of these tiers (None entries skipped)."""
        ranked = [t for t in tiers if t is not None and t in self.tiers]
        return max(ranked, key=self.tiers.index) if ranked else None


def policy_date(ws: Any, source: str) -> dt.date | None:
    """The date a workspace's policy gives a source (for `mixed-dates`), or None
    when no `[[policy]]` entry matching it sets `date`."""
    return ws.settings.policy.date_of(source)


def current_principal(flag: str | None, editor: str | None, file_value: str | None) -> tuple[str, str]:
    """(principal, where it came from): `--as`, then CAIRN_PRINCIPAL, then the
    editor's setting, then the workspace's own file; the user's choice wins."""
    for value, origin in ((flag, "--as"), (os.environ.get(PRINCIPAL_ENV), PRINCIPAL_ENV),
                          (editor, "the editor setting cairn.principal")):
        if value is not None and value.strip():
            return check_name(value.strip(), f"principal (from {origin})"), origin
    if file_value:
        return check_name(file_value.strip(), "principal (from cairn.toml)"), "cairn.toml"
    return "", "default"


def weakest_tier(tiers: list[str], names: list[str | None]) -> str | None:
    """The lowest tier among `names` in the order `tiers` (highest first)."""
    ranked = [t for t in names if t is not None and t in tiers]
    return max(ranked, key=tiers.index) if ranked else None
