"""The import graph of the `cairn` package, read from its source with `ast` (nothing is imported).

    python tools/import_graph.py            # every edge: importer -> imported, one a line
    python tools/import_graph.py --cycles   # only the import cycles (exit 1 when there is one)
    python tools/import_graph.py --layers   # imports that go up the package floors (exit 1 when any)
    python tools/import_graph.py --dot      # the package diagram, in Graphviz's dot language
    python tools/import_graph.py --floors   # the package floors, top first

An edge is any import a module runs or names: at the top, inside a function (a deferred import
still ties the two modules together) or under `if TYPE_CHECKING:` (a type-only import ties them
too: neither can be read or changed alone). Edges go to modules of the package; the standard
library and other packages are left out. tests/unit/test_layers.py checks the graph has no cycle,
that packages import only the floors below them (FLOORS), and that the engine never imports the
server.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "server" / "cairn"


def modules(root: Path = PACKAGE_DIR) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    base = root.parent
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, those under `if TYPE_CHECKING:` and in functions included."""
    return [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]


def edges(root: Path = PACKAGE_DIR) -> dict[str, set[str]]:
    """importer -> the package's modules it imports."""
    mods = modules(root)
    graph: dict[str, set[str]] = {name: set() for name in mods}
    for name, path in mods.items():
        is_package = path.name == "__init__.py"
        here = name.split(".") if is_package else name.split(".")[:-1]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    anchor = here[: len(here) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                # `from pkg import mod` imports the module; `from mod import name`, the module
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            for t in targets:
                while t and t not in mods:  # `import cairn.x.y` where y is a name: its module
                    t = t.rpartition(".")[0]
                if t and t != name:
                    graph[name].add(t)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


# The package floors, lowest first: a package may import only the packages before it in this list
# (and the root `cairn`, which holds the version). `cli` and `lsp` are the two tops; the command
# line starts the server (`cairn serve`) through `cairn.lsp.server` alone (SERVER_ENTRY): from the
# command (main) or, for a bare `cairn serve`, from the console script's door (entry).
FLOORS = ["support", "reading", "meaning", "core", "sources", "drafts", "store", "index", "verify",
          "judge", "report", "answers", "engine", "lsp", "cli"]
SERVER_ENTRY = {("cairn.cli.main", "cairn.lsp.server"), ("cairn.cli.entry", "cairn.lsp.server")}
# the root: the version and the loader of the compiled rules, which every floor may import
ROOT = {"cairn", "cairn.native"}
# entry points at the top level: they may import anything
ENTRY_POINTS = {"cairn.__main__", "cairn.api", "cairn.native_build"}


def package_of(module: str) -> str | None:
    """The floor a module stands on (its package under cairn), None for a top-level module."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in FLOORS:
        return parts[1]
    return None


def upward(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports that go to a package on a higher floor than the importer's, or from a floor to a
    top-level module other than the root."""
    out = []
    for importer, targets in graph.items():
        here = package_of(importer)
        if importer in ENTRY_POINTS or (here is None and importer not in ROOT):
            continue
        for imported in targets:
            if (importer, imported) in SERVER_ENTRY or imported in ROOT:
                continue
            there = package_of(imported)
            if here is None or there is None or FLOORS.index(there) > FLOORS.index(here):
                if there != here:
                    out.append((importer, imported))
    return sorted(out)


def package_edges(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph between packages (floors) of the package."""
    out: dict[str, set[str]] = {}
    for importer, targets in graph.items():
        a = package_of(importer)
        for imported in targets:
            b = package_of(imported)
            if a and b and a != b:
                out.setdefault(a, set()).add(b)
    return out


def dot(graph: dict[str, set[str]]) -> str:
    """The package diagram: one node a floor, an arrow for each package another imports."""
    pkgs = package_edges(graph)
    lines = ["digraph cairn {", "  rankdir=BT;", "  node [shape=box];"]
    for name in FLOORS:
        lines.append(f'  "{name}";')
    for a in FLOORS:
        for b in sorted(pkgs.get(a, ()), key=FLOORS.index):
            lines.append(f'  "{a}" -> "{b}";')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    graph = edges()
    if "--floors" in argv:
        print("\n".join(reversed(FLOORS)))
        return 0
    if "--dot" in argv:
        sys.stdout.write(dot(graph))
        return 0
    if "--layers" in argv:
        found = upward(graph)
        for importer, imported in found:
            print(f"{importer} -> {imported} (goes up)")
        return 1 if found else 0
    if "--cycles" in argv:
        found = cycles(graph)
        for group in found:
            print(" <-> ".join(group))
        return 1 if found else 0
    for importer in sorted(graph):
        for imported in sorted(graph[importer]):
            print(f"{importer} -> {imported}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
