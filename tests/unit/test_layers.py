"""The package's layers: packages import only the floors below them, the engine never imports the
server, and no two modules import each other (type-only imports counted).

The graph is read from the source by tools/import_graph.py (the command docs/architecture.md
shows); these tests also feed it small made-up packages to prove it sees what it must.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import import_graph  # noqa: E402 - found through the path set above

SERVER_ENTRY = import_graph.SERVER_ENTRY


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
    assert "cairn.verify.verifier" in graph and "cairn.lsp.server" in graph  # the real package was read
    assert set(_engine_imports_of_the_server(graph)) <= SERVER_ENTRY


def test_no_import_cycle():
    assert import_graph.cycles(import_graph.edges()) == []


def test_packages_import_only_the_floors_below_them():
    graph = import_graph.edges()
    assert import_graph.upward(graph) == []
    # every package of the source tree has a floor, and every floor is a package there
    packages = {p.name for p in import_graph.PACKAGE_DIR.iterdir() if (p / "__init__.py").is_file()}
    assert packages <= set(import_graph.FLOORS), packages - set(import_graph.FLOORS)


def test_top_level_holds_only_packages_and_entry_points():
    top = {p.stem for p in import_graph.PACKAGE_DIR.glob("*.py")}
    assert top == {"__init__", "__main__", "api", "native", "native_build"}


def test_an_upward_import_is_seen(tmp_path: Path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/model.py": "def f():\n    from ..verify.verifier import Verifier\n",
        "verify/__init__.py": "",
        "verify/verifier.py": "from ..core.model import f\nclass Verifier: ...\n",
    })
    graph = import_graph.edges(root)
    assert import_graph.upward(graph) == [("cairn.core.model", "cairn.verify.verifier")]
    assert import_graph.package_edges(graph) == {"core": {"verify"}, "verify": {"core"}}
    assert '"verify" -> "core";' in import_graph.dot(graph)


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


def test_a_cycle_hidden_in_a_function_or_a_type_checking_import_is_found(tmp_path: Path):
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
        ["cairn.lsp.hover", "cairn.lsp.lens"],
        ["cairn.sources", "cairn.sources.text"],
    ]


MAX_LINES = 600


def test_no_module_is_over_600_lines():
    over = {}
    for path in sorted(import_graph.PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(import_graph.PACKAGE_DIR).as_posix()
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            over[rel] = n
    assert over == {}


def test_the_architecture_page_draws_the_floors_the_code_has():
    """docs/architecture.md opens with the floors; their names and order are the ones the
    layer test enforces."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("<!-- floors", 1)[1].split("```", 2)[1]
    drawn = []
    for line in block.splitlines():
        if line.strip():
            drawn += re.split(r"\s{4,}", line.strip(), maxsplit=1)[0].split()  # the names, then what each does
    assert drawn == list(reversed(import_graph.FLOORS))
    for name in import_graph.FLOORS:
        if (import_graph.PACKAGE_DIR / name).is_dir():
            assert f"- **{name}**:" in text, f"no paragraph for {name}"
