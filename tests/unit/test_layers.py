"""The package's layers: the engine never imports the server, and no two modules import each other.

The graph is read from the source by tools/import_graph.py (the command docs/architecture.md
shows); these tests also feed it small made-up packages to prove it sees what it must.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import import_graph  # noqa: E402 - found through the path set above

# The command line starts the server (`cairn serve`): the one engine-side module allowed to.
SERVER_ENTRY = {("cairn.cli", "cairn.lsp.server")}


def _engine_imports_of_the_server(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted(
        (importer, imported)
        for importer, targets in graph.items()
        if not (importer == "cairn.lsp" or importer.startswith("cairn.lsp."))
        for imported in targets
        if imported == "cairn.lsp" or imported.startswith("cairn.lsp.")
    )


def test_the_engine_never_imports_the_server():
    graph = import_graph.edges()
    assert "cairn.verify" in graph and "cairn.lsp.server" in graph  # the real package was read
    assert set(_engine_imports_of_the_server(graph)) <= SERVER_ENTRY


def test_no_import_cycle():
    assert import_graph.cycles(import_graph.edges()) == []


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "cairn"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_deferred_import_of_the_server_is_seen(tmp_path: Path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "verify.py": "def f():\n    from .lsp.hover import escape\n    return escape\n",
        "lsp/__init__.py": "",
        "lsp/hover.py": "def escape(s):\n    return s\n",
    })
    assert _engine_imports_of_the_server(import_graph.edges(root)) == [("cairn.verify", "cairn.lsp.hover")]


def test_a_cycle_hidden_in_a_function_is_found_and_type_checking_imports_are_not(tmp_path: Path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "lsp/__init__.py": "",
        "lsp/checking.py": "from .definition import cited\n",
        "lsp/definition.py": "def cited():\n    from .checking import Folder\n",
        "lsp/hover.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .lens import x\n",
        "lsp/lens.py": "from . import hover\n",
        "sources/__init__.py": "def parse():\n    from .text import parse_text\n",
        "sources/text.py": "from . import SourceError\n",
    })
    assert import_graph.cycles(import_graph.edges(root)) == [
        ["cairn.lsp.checking", "cairn.lsp.definition"],
        ["cairn.sources", "cairn.sources.text"],
    ]
