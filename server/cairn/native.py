"""The support check's rules compiled to C, when a compiled build is there and current.

The meaning rules (cairn.meaning) and the support modules they lean on most
(COMPILED_FILES) are ordinary typed Python. `python -m cairn.native_build build`
compiles them with mypyc (shipped with mypy) into a folder of the interpreter's
environment, ``<sys.prefix>/cairn-native``; `make` does it when it sets up the
venv. A new claim is then checked in about 0.6 to 0.75 of the time
(bench/support_speed.py), with the same verdicts (tests/cli/test_native.py
compares them).

The source files stay where they are and are what the tests and the tools
read; the compiled modules are only ever loaded in their place when the
build's manifest holds the hash of every source file they were built from,
and those hashes are the files' own now. A source edited since the build
(or a build for another interpreter) is not loaded: the engine runs as pure
Python, the same answers, slower, until the build is made again. Nothing
else changes which code runs: `CAIRN_NATIVE=0` turns the compiled build off;
no setting of a workspace can turn it on or point it elsewhere.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent  # the cairn package's own folder
MANIFEST = "manifest.json"
FORMAT = 1

# the modules compiled: every module of the meaning rules, and the support modules they lean on most
# (typed throughout; support.text and support.scoring keep loosely typed tuples and stay Python)
COMPILED_DIRS = ("meaning",)
COMPILED_FILES = ("support/names.py", "support/name_words.py", "support/unit_names.py", "support/words.py",
                  "support/stemming.py", "support/tokenise.py", "support/numbers.py")


def build_dir() -> Path:
    """Where this interpreter's compiled build lives (its own environment's folder)."""
    return Path(sys.prefix) / "cairn-native"


def compiled_sources(package: Path = PACKAGE) -> list[Path]:
    """The source files compiled, relative to the package folder."""
    out = [p.relative_to(package) for d in COMPILED_DIRS for p in sorted((package / d).glob("*.py"))]
    return out + [Path(f) for f in COMPILED_FILES]


def _module_name(rel: Path) -> str:
    parts = ["cairn", *rel.with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def library(rel: Path) -> str:
    """Where a build holds the compiled module of the source `rel`, relative to the build's folder."""
    return "cairn/" + rel.with_suffix("").as_posix() + importlib.machinery.EXTENSION_SUFFIXES[0]


def _hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def current(dest: Path | None = None, package: Path = PACKAGE) -> tuple[dict | None, str]:
    """The build's manifest when it may be loaded, else None; and why (a short phrase). The
    manifest's `sources` are the files native_build.depended_on found: a change in any of them
    makes the build stale."""
    dest = dest or build_dir()
    try:
        manifest = json.loads((dest / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, "not built"
    except (OSError, ValueError) as e:
        return None, f"unreadable build manifest ({e.__class__.__name__})"
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return None, "a build of another format"
    if manifest.get("cache_tag") != sys.implementation.cache_tag \
            or manifest.get("suffix") != importlib.machinery.EXTENSION_SUFFIXES[0]:
        return None, "built for another Python"
    sources = manifest.get("sources")
    if not isinstance(sources, dict) or not isinstance(manifest.get("modules"), dict) \
            or not isinstance(manifest.get("group"), str):
        return None, "a build of another format"
    # every path the manifest names stays in its folder: the sources' in the package, the libraries' in the build
    if not all(isinstance(f, str) and _inside(f) for f in (*sources, *manifest["modules"].values(), manifest["group"])):
        return None, "a manifest naming files outside the build"
    wanted = compiled_sources(package)
    if set(manifest["modules"]) != {_module_name(rel) for rel in wanted} or not {str(r) for r in wanted} <= set(sources):
        return None, "built from other modules"
    for rel, digest in sources.items():
        try:
            if _hash(package / rel) != digest:
                return None, f"stale: {rel} changed since the build"
        except OSError:
            return None, f"stale: {rel} is gone"
    for f in (*manifest["modules"].values(), manifest["group"] + manifest["suffix"]):
        if not (dest / f).is_file():
            return None, f"incomplete build: {f} missing"
    return manifest, "compiled"


def _inside(rel: str) -> bool:
    """Whether a path a manifest names is relative and stays in its folder."""
    p = Path(rel)
    return bool(rel) and not p.is_absolute() and ".." not in p.parts and "\\" not in rel


class _Finder:
    """Finds the compiled modules of a current build, in place of their sources: a finder of
    sys.meta_path (importlib.abc.MetaPathFinder's protocol; importlib.abc itself is not
    imported: it loads importlib.resources, about 20 ms of `cairn --version` on an idle machine)."""

    def __init__(self, dest: Path, manifest: dict) -> None:
        self.files = {name: dest / f for name, f in manifest["modules"].items()}
        self.group = manifest["group"]
        self.files[self.group] = dest / (self.group + manifest["suffix"])
        self.tried = False  # whether the build's shared library was loaded (or failed to) yet

    def load(self) -> bool:
        """Load the build's shared library (once), before the first compiled module: a library
        that does not load (damaged, another system's) leaves every module to its source, as if
        there were no build. Whether it loaded."""
        if not self.tried:
            self.tried = True
            try:
                importlib.import_module(self.group)
            except ImportError as e:
                _off(self, f"the compiled build did not load: {str(e).splitlines()[0][:160]}")
        return self in sys.meta_path

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            parent, _, _ = fullname.rpartition(".")
            if parent in self.files and self.files[parent].name.startswith("__init__."):
                # a module of a compiled package that is not compiled itself (meaning.parsed): found
                # in the package's source folder, since a compiled package's body runs (and imports
                # it) before its __path__ is set
                return importlib.machinery.PathFinder.find_spec(
                    fullname, [str(PACKAGE.joinpath(*parent.split(".")[1:]))])
            return None
        if not self.tried and not self.load():
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        package = file.name.startswith("__init__.")
        # a compiled package keeps its source folder as its path: its modules are found there
        # (by this finder when compiled), its data files too
        where = [str(PACKAGE.joinpath(*fullname.split(".")[1:]))] if package else None
        return importlib.util.spec_from_file_location(fullname, file, loader=loader,
                                                      submodule_search_locations=where)


_STATUS = "pure Python (not set up)"


def _off(finder: _Finder, why: str) -> None:
    """Take a build that failed out of the import system: the sources serve from now on."""
    global _STATUS
    if finder in sys.meta_path:
        sys.meta_path.remove(finder)
    _STATUS = f"pure Python ({why})"


def install() -> str:
    """Put a current compiled build in front of the sources (once, before any of them is
    imported); returns and keeps how the rules run, for `cairn --version`."""
    global _STATUS
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return _STATUS
    if os.environ.get("CAIRN_NATIVE", "").strip() == "0":
        _STATUS = "pure Python (CAIRN_NATIVE=0)"
        return _STATUS
    if any(_module_name(rel) in sys.modules for rel in compiled_sources()):
        _STATUS = "pure Python (loaded before the compiled build was looked for)"
        return _STATUS
    try:
        manifest, why = current()
    except OSError as e:  # a folder that cannot be read: the sources serve
        manifest, why = None, f"unreadable build ({e.__class__.__name__})"
    if manifest is None:
        _STATUS = f"pure Python ({why})"
        return _STATUS
    sys.meta_path.insert(0, _Finder(build_dir(), manifest))
    _STATUS = "compiled"
    return _STATUS


def load() -> None:
    """Load the compiled build's library now, when one is installed (`cairn --version`): status()
    then says whether it loads, without importing a module of the rules."""
    for f in list(sys.meta_path):
        if isinstance(f, _Finder):
            f.load()


def status() -> str:
    """How the support check's rules run in this process: "compiled" or "pure Python (why)"."""
    if _STATUS == "compiled":
        mod = sys.modules.get("cairn.meaning")
        if mod is not None and not str(getattr(mod, "__file__", "")).endswith(
                tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            return "pure Python (the compiled build did not load)"
    return _STATUS
