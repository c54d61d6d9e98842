"""A warm `cairn check` reads only the sources whose file changed (cairn.statcache),
through the real CLI on both stores: an edit that keeps the file's size and puts its
modification time back is still seen."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from cairn_testing import run_cairn

QUOTE = "A customer has 14 days to request a credit for a damaged delivery"


def _claim(report: dict) -> dict:
    (draft,) = [d for d in report["drafts"] if d["path"] == "drafts/credits-answer.md"]
    return next(c for c in draft["claims"] if c["text"].startswith("A customer has 14 days"))


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_a_same_size_edit_with_its_time_put_back_is_seen(demo: Path, request, store: str):
    env = {"CAIRN_STORE_URL": request.getfixturevalue("pg_url") if store == "postgresql" else ""}
    time.sleep(2.2)  # the demo's files settle: a file changed a moment ago is always read
    first = run_cairn(demo, "check", "--format", "json", env=env)
    assert first.returncode == 1, first.stderr
    assert _claim(json.loads(first.stdout))["supported"] is True
    if store == "postgresql":
        assert not (demo / ".cairn").exists()  # the record is not kept in the workspace

    policy = demo / "sources" / "policy.md"
    before = policy.stat()
    text = policy.read_text(encoding="utf-8")
    assert QUOTE in text
    policy.write_text(text.replace("has 14 days", "has 30 days"), encoding="utf-8")
    os.utime(policy, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert policy.stat().st_size == before.st_size and policy.stat().st_mtime_ns == before.st_mtime_ns

    second = run_cairn(demo, "check", "--format", "json", env=env)
    claim = _claim(json.loads(second.stdout))
    assert claim["supported"] is False
    assert claim["diagnostics"], claim
