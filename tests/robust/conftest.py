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
    # the template is never checked in place: an index left in it would travel with every copy
    # (signed by this machine's key, with cached reports), and later tests would read it
    assert not (demo_template / ".cairn").exists(), "a test ran cairn in the shared template; copy it first"
    return copy_tree(demo_template, tmp_path / "demo")

