"""The CLI's demo checks run against both stores: the workspace's SQLite file
and a shared PostgreSQL index (a fresh database on the test run's throw-away
server, named by CAIRN_STORE_URL as a user would). A test about the SQLite
file itself is marked `sqlite_only`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from web_server import Site

import make_demo


@pytest.fixture(params=["sqlite", "postgres"])
def demo(request, tmp_path: Path, monkeypatch) -> Path:
    """A fresh runnable copy of fixtures/demo, indexed in the store of this run."""
    monkeypatch.delenv("CAIRN_STORE_URL", raising=False)
    if request.param == "postgres":
        monkeypatch.setenv("CAIRN_STORE_URL", request.getfixturevalue("pg_url"))
    return make_demo.build(tmp_path / "demo")


@pytest.fixture
def site() -> Iterator[Site]:
    """A loopback web server for one test (tests/web_server.py), closed after it."""
    s = Site()
    yield s
    s.close()


def pytest_collection_modifyitems(config, items):
    keep = []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if params.get("demo") == "postgres" and item.get_closest_marker("sqlite_only"):
            continue
        keep.append(item)
    items[:] = keep
