"""Shared test helpers: the demo workspace and the real `cairn` process."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "fixtures"))
sys.path.insert(0, str(REPO / "tests"))

import make_demo  # noqa: E402 - found through the paths set above
from cairn_testing import run_cairn  # noqa: E402 - found through the paths set above

SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session", autouse=True)
def _own_cache_folder(tmp_path_factory: pytest.TempPathFactory):
    """Cairn's per-user cache (cairn.statcache's records) in a folder of the run's own,
    for this process and every `cairn` it starts: the user's own cache is left alone."""
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """A fresh runnable copy of fixtures/demo (a git repo with its history)."""
    return make_demo.build(tmp_path / "demo")


@pytest.fixture
def cairn():
    return run_cairn


@pytest.fixture(scope="session")
def postgres_server():
    """A throw-away PostgreSQL for the whole run (tests/pg_server.py), stopped at its end."""
    import pg_server

    try:
        server = pg_server.PostgresServer()
    except pg_server.Unavailable as exc:
        pytest.skip(f"PostgreSQL cannot be run here: {exc}")
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres_server) -> str:
    """The URL of a fresh, empty database on that server."""
    return postgres_server.new_database()
