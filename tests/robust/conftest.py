"""Fixtures of the robustness suite: a demo workspace built once per session
and copied for each test (a copy keeps the git history)."""

from __future__ import annotations

from pathlib import Path

import pytest

from robust_util import build_demo, copy_tree


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory) -> Path:
    return build_demo(tmp_path_factory.mktemp("robust-template") / "demo")


@pytest.fixture
def demo(demo_template: Path, tmp_path: Path) -> Path:
    """A fresh copy of the demo workspace (a git repository with its history)."""
    return copy_tree(demo_template, tmp_path / "demo")

