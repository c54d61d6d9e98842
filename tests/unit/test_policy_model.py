"""The policy model (cairn.policy): globs, the last matching entry per key,
tiers, dates, labels and the principal's order of precedence."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from cairn.core.config import ConfigError, load_settings
from cairn.core.policy import PRINCIPAL_ENV, glob_regex, policy_date


def settings(tmp_path: Path, toml: str, **kw):
    (tmp_path / "cairn.toml").write_text(toml, encoding="utf-8")
    return load_settings(tmp_path, **kw)


@pytest.mark.parametrize("pattern, yes, no", [
    ("sources/**", ["sources/a.md", "sources/x/y/z.pdf"], ["drafts/a.md", "sourcesx/a.md"]),
    ("sources/**/memo.md", ["sources/memo.md", "sources/a/b/memo.md"], ["sources/a/memo.mdx"]),
    ("sources/*.md", ["sources/a.md"], ["sources/x/a.md", "sources/a.txt"]),
    ("sources/q?.md", ["sources/q1.md"], ["sources/q10.md"]),
    ("sources/[ab]*.md", ["sources/a1.md", "sources/b.md"], ["sources/c.md"]),
    ("sources/[!ab]*.md", ["sources/c.md"], ["sources/a.md"]),
    ("sources/a+b (1).md", ["sources/a+b (1).md"], ["sources/aab (1).md"]),
])
def test_globs(pattern: str, yes: list[str], no: list[str]) -> None:
    rx = glob_regex(pattern)
    assert all(rx.match(p) for p in yes)
    assert not any(rx.match(p) for p in no)


def test_last_matching_entry_wins_per_key(tmp_path: Path) -> None:
    s = settings(tmp_path, """
[authority]
tiers = ["top", "mid", "low"]
[[policy]]
path = "sources/**"
authority = "mid"
date = "2024-05-12"
access = ["a"]
[[policy]]
path = "sources/old/**"
authority = "low"
derived = true
[[policy]]
path = "sources/old/keep.md"
access = []
date = ""
""")
    p = s.policy
    assert p.of("sources/new.md").authority == "mid" and p.of("sources/new.md").access == ("a",)
    old = p.of("sources/old/x.md")
    assert (old.authority, old.derived, old.access, old.date) == ("low", True, ("a",), "2024-05-12")
    keep = p.of("sources/old/keep.md")
    assert (keep.authority, keep.access, keep.date) == ("low", (), None)
    assert p.of("elsewhere.md").authority == "low"  # the default: the last tier
    assert p.date_of("sources/new.md") == dt.date(2024, 5, 12) and p.date_of("sources/old/keep.md") is None

    class Ws:  # policy_date reads a workspace's settings only
        settings = s

    assert policy_date(Ws, "sources/old/x.md") == dt.date(2024, 5, 12)


def test_readable_and_below_minimum(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(PRINCIPAL_ENV, raising=False)
    toml = """
[authority]
tiers = ["top", "mid", "low"]
minimum = "mid"
default = "mid"
[[policy]]
path = "sources/secret/**"
access = ["x", "y"]
[[policy]]
path = "sources/weak.md"
authority = "low"
[principals]
ann = ["y"]
bob = ["z"]
"""
    owner = settings(tmp_path, toml).policy
    assert owner.principal == "" and owner.readable("sources/secret/a.md")
    ann = settings(tmp_path, toml, principal_override="ann").policy
    bob = settings(tmp_path, toml, principal_override="bob").policy
    assert ann.readable("sources/secret/a.md") and not bob.readable("sources/secret/a.md")
    assert bob.readable("sources/open.md")
    assert owner.below_minimum("sources/weak.md") and not owner.below_minimum("sources/open.md")
    assert owner.weakest(["top", None, "low", "mid"]) == "low"


def test_principal_order(tmp_path: Path, monkeypatch) -> None:
    toml = 'principal = "filer"\n[principals]\nfiler = []\n'
    monkeypatch.delenv(PRINCIPAL_ENV, raising=False)
    assert settings(tmp_path, toml).policy.principal == "filer"
    assert settings(tmp_path, toml, editor={"principal": "ed"}).policy.principal == "ed"
    monkeypatch.setenv(PRINCIPAL_ENV, "envy")
    assert settings(tmp_path, toml, editor={"principal": "ed"}).policy.principal == "envy"
    assert settings(tmp_path, toml, principal_override="flag").policy.principal == "flag"
    # editor settings never carry a policy of their own
    got = settings(tmp_path, toml, editor={"principals": {"filer": ["all"]}, "policy": [{"path": "x"}]})
    assert got.policy.principals == {"filer": []} and got.policy.entries == []


@pytest.mark.parametrize("toml", [
    '[[policy]]\npath = "../x"\n',
    '[[policy]]\npath = "C:/x"\n',
    '[[policy]]\npath = "~/x"\n',
    '[[policy]]\npath = ""\n',
    '[authority]\ntiers = ["a", "a"]\n',
    '[authority]\ntiers = ["a"]\ndefault = "b"\n',
    '[principals]\nann = "x"\n',
    '[principals]\nann = [1]\n',
    '[retention]\nsuperseded_days = -1\n',
])
def test_bad_policies(tmp_path: Path, toml: str) -> None:
    with pytest.raises(ConfigError):
        settings(tmp_path, toml)
