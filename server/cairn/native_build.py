"""`python -m cairn.native_build build|status`: the compiled build of the support check's rules.

Compiles the modules cairn.native names with mypyc (shipped with mypy) into
this interpreter's environment (``<sys.prefix>/cairn-native``), with a
manifest of the hashes of every source they were built from; cairn.native
loads the build only while those hashes hold. `make` runs this when it sets
up the venv (lenient: without a C compiler the rules run as pure Python).
"""

from __future__ import annotations

import ast
import importlib.machinery
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .native import FORMAT, MANIFEST, PACKAGE, _hash, _module_name, build_dir, compiled_sources, current, library


def _imports(package: Path, rel: Path) -> set[Path]:
    """The package's source files that `rel` imports (relative imports and `cairn.`)."""
    tree = ast.parse((package / rel).read_text(encoding="utf-8"))
    here = rel.parent.parts
    found: set[Path] = set()
    for node in ast.walk(tree):
        names: list[tuple[str, ...]] = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - node.level + 1] if node.level > 1 else here
                mod = tuple(node.module.split(".")) if node.module else ()
                names = [(*base, *mod), *((*base, *mod, a.name) for a in node.names)]
            elif node.module and node.module.split(".")[0] == "cairn":
                mod = tuple(node.module.split(".")[1:])
                names = [mod, *((*mod, a.name) for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [tuple(a.name.split(".")[1:]) for a in node.names if a.name.split(".")[0] == "cairn"]
        for parts in names:
            for candidate in (Path(*parts).with_suffix(".py") if parts else None, Path(*parts, "__init__.py")):
                if candidate is not None and (package / candidate).is_file():
                    found.add(candidate)
    return found


def depended_on(package: Path = PACKAGE) -> list[Path]:
    """The compiled sources and every source of the package they import, directly or not:
    the files whose hashes a build records (a change in any of them can change what the
    compiled code assumes)."""
    todo = list(compiled_sources(package))
    seen: set[Path] = set()
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        todo.extend(_imports(package, rel) - seen)
    return sorted(seen)


class BuildError(RuntimeError):
    """The compiled build could not be made (no C compiler, mypyc refused the code, ...)."""


def build(dest: Path | None = None, *, package: Path = PACKAGE, quiet: bool = False) -> Path:
    """Compile the rules into `dest` (build_dir() by default), replacing what is there
    only once the new build is whole. Raises BuildError with the compiler's last words."""
    dest = dest or build_dir()
    sources = compiled_sources(package)
    with tempfile.TemporaryDirectory(prefix="cairn-native-") as tmp:
        work = Path(tmp)
        shutil.copytree(package, work / "cairn", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
        # the hashes of the very files compiled (the copy), not of the package, which may change meanwhile
        hashes = {str(rel): _hash(work / "cairn" / rel) for rel in depended_on(work / "cairn")}
        (work / "mypy.ini").write_text(
            "[mypy]\npython_version = {}.{}\nignore_missing_imports = True\n"
            "disable_error_code = annotation-unchecked\n".format(*sys.version_info[:2]), encoding="utf-8")
        cmd = [sys.executable, "-m", "mypyc", "--config-file", "mypy.ini", *(str(Path("cairn") / s) for s in sources)]
        if not quiet:
            print(f"cairn: compiling {len(sources)} modules of the support check with mypyc "
                  "(about a minute) ...", file=sys.stderr, flush=True)
        try:
            done = subprocess.run(cmd, cwd=work, capture_output=True, text=True, check=False)
        except OSError as e:
            raise BuildError(f"could not run mypyc: {e}") from e
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise BuildError(f"mypyc failed (exit {done.returncode}):\n{tail}")
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        groups = [p for p in work.glob(f"*__mypyc{suffix}")]
        modules = {_module_name(rel): library(rel) for rel in sources}
        missing = [f for f in modules.values() if not (work / f).is_file()]
        if len(groups) != 1 or missing:
            raise BuildError(f"mypyc left no complete build (shared library: {len(groups)}, missing: {missing})")
        new = dest.with_name(dest.name + ".new")
        shutil.rmtree(new, ignore_errors=True)
        for f in modules.values():
            (new / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(work / f, new / f)
        shutil.copy2(groups[0], new / groups[0].name)
    manifest = {
        "format": FORMAT,
        "cache_tag": sys.implementation.cache_tag,
        "suffix": suffix,
        "group": groups[0].name[:-len(suffix)],
        "modules": modules,
        "sources": hashes,
    }
    (new / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    old = dest.with_name(dest.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if dest.exists():
        dest.rename(old)
    new.rename(dest)
    shutil.rmtree(old, ignore_errors=True)
    return dest


def main(argv: list[str] | None = None) -> int:
    """`python -m cairn.native_build build [--lenient]` and `python -m cairn.native_build status`."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["status"]:
        manifest, why = current()
        print(f"cairn: support check rules: {'compiled' if manifest else 'pure Python (' + why + ')'}"
              f" [{build_dir()}]")
        return 0
    if args[:1] != ["build"] or any(a not in ("--lenient", "--quiet") for a in args[1:]):
        print("usage: python -m cairn.native_build build [--lenient] [--quiet] | status", file=sys.stderr)
        return 2
    manifest, why = current()
    if manifest is not None:
        print(f"cairn: the compiled build is current [{build_dir()}]", file=sys.stderr)
        return 0
    try:
        where = build(quiet="--quiet" in args)
    except BuildError as e:
        print(f"cairn: {e}", file=sys.stderr)
        if "--lenient" in args:
            print("cairn: the support check runs as pure Python: the same verdicts, slower "
                  "(bench/support_speed.py)", file=sys.stderr)
            return 0
        return 1
    print(f"cairn: compiled build written to {where}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
