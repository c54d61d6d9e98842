"""Fixtures of the language server tests (the helpers are in lsp_util.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from lsp_util import SERVER, build_demo, cli, cli_report, start


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return build_demo(tmp_path / "demo")


# One server over one copy of the demo for each feature's test module (the tests only read it).


@pytest.fixture(scope="module")
def demo_ws(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, list[dict]]:
    """The demo, the CLI's report of it (made before any server runs) and its chunks."""
    root = build_demo(tmp_path_factory.mktemp("features") / "demo")
    report = cli_report(root)
    chunks = [json.loads(x) for x in cli(root, "chunks", "--json").stdout.splitlines()]
    return root, report, chunks


@pytest_lsp.fixture(scope="module", config=SERVER)
async def demo_server(lsp_client: LanguageClient, demo_ws: tuple[Path, dict, list[dict]]):
    await start(lsp_client, demo_ws[0])
    yield
    await lsp_client.shutdown_session()
