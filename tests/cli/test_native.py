"""The support check's rules compiled (cairn/native.py): the compiled build gives the same
verdicts as the sources, is loaded only while it is the build of the sources beside it,
and `cairn --version` says which runs. `make` builds it into the venv; CI must run on it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from cairn import native, native_build

from cairn_testing import run_cairn

REPO = Path(__file__).resolve().parents[2]
BUILT, WHY = native.current()


def _env(extra: dict | None = None) -> dict:
    """This environment without a CAIRN_NATIVE of the developer's, with `extra`."""
    return {k: v for k, v in os.environ.items() if k != "CAIRN_NATIVE"} | (extra or {})


def _python(code: str, *, env: dict | None = None, path: Path | None = None) -> list[str]:
    """Lines printed by `code` in a fresh interpreter of the venv (with `path` first on sys.path)."""
    full = _env(env)
    if path is not None:
        full["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


WHERE = "import cairn.meaning.polarity as p, cairn.support.names as n, cairn.native as c; " \
        "print(p.__file__); print(n.__file__); print(c.status())"


def test_ci_runs_on_the_compiled_build():
    """The suite's speed figures and its verdicts are those of the build `make` sets up."""
    if os.environ.get("CI") == "true":
        assert BUILT is not None, f"make set up no compiled build of the rules: {WHY}"


def test_version_says_how_the_rules_run(tmp_path: Path):
    proc = run_cairn(tmp_path, "--version")
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert first == "cairn, version 0.1.0"
    assert second == ("support check rules: compiled" if BUILT else f"support check rules: pure Python ({WHY})")
    off = run_cairn(tmp_path, "--version", env={"CAIRN_NATIVE": "0"})
    assert off.stdout.splitlines()[1] == "support check rules: pure Python (CAIRN_NATIVE=0)"


def test_the_compiled_modules_load_in_place_of_the_sources():
    polarity, names, status = _python(WHERE)
    if BUILT is None:
        assert status == f"pure Python ({WHY})"
        assert polarity.endswith("polarity.py") and names.endswith("names.py")
        return
    assert status == "compiled"
    build = str(native.build_dir())
    assert polarity.startswith(build) and polarity.endswith(".so"), polarity
    assert names.startswith(build) and names.endswith(".so"), names
    polarity, names, status = _python(WHERE, env={"CAIRN_NATIVE": "0"})
    assert status == "pure Python (CAIRN_NATIVE=0)"
    assert polarity == str(REPO / "server/cairn/meaning/polarity.py")


@pytest.mark.skipif(BUILT is None and os.environ.get("CI") != "true",
                    reason="no compiled build here (make builds one; CI must have it)")
def test_an_edited_source_is_run_as_python_not_from_a_stale_build(tmp_path: Path):
    """A copy of the sources, first as built, then with one module edited: the build is
    the first one's and not the second's, whatever module was edited (even one that is not
    compiled but that compiled code imports)."""
    server = tmp_path / "server"
    shutil.copytree(REPO / "server" / "cairn", server / "cairn", ignore=shutil.ignore_patterns("__pycache__"))
    polarity, _, status = _python(WHERE, path=server)
    assert status == "compiled" and polarity.endswith(".so")

    units = server / "cairn" / "meaning" / "units.py"
    units.write_text(units.read_text(encoding="utf-8") + "\n# edited after the build\n", encoding="utf-8")
    polarity, names, status = _python(WHERE, path=server)
    assert status == "pure Python (stale: meaning/units.py changed since the build)"
    assert polarity == str(server / "cairn/meaning/polarity.py") and names == str(server / "cairn/support/names.py")

    shutil.copy2(REPO / "server/cairn/meaning/units.py", units)
    words = server / "cairn" / "support" / "words.py"  # not compiled; the compiled modules import it
    words.write_text(words.read_text(encoding="utf-8") + "\n# edited after the build\n", encoding="utf-8")
    *_, status = _python(WHERE, path=server)
    assert status == "pure Python (stale: support/words.py changed since the build)"


def _fake_build(package: Path, dest: Path) -> dict:
    """A build folder for `package` as native_build writes one, its modules empty files."""
    suffix = native.importlib.machinery.EXTENSION_SUFFIXES[0]
    modules = {native._module_name(rel): native.library(rel) for rel in native.compiled_sources(package)}
    for f in [*modules.values(), "g__mypyc" + suffix]:
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        (dest / f).write_bytes(b"")
    manifest = {"format": native.FORMAT, "cache_tag": sys.implementation.cache_tag, "suffix": suffix,
                "group": "g__mypyc", "modules": modules,
                "sources": {str(rel): native._hash(package / rel) for rel in native_build.depended_on(package)}}
    (dest / native.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return manifest


def test_a_build_is_current_only_when_whole_and_made_from_these_sources(tmp_path: Path):
    package = tmp_path / "cairn"
    shutil.copytree(REPO / "server" / "cairn", package, ignore=shutil.ignore_patterns("__pycache__"))
    dest = tmp_path / "build"
    manifest = _fake_build(package, dest)
    assert native.current(dest, package) == (manifest, "compiled")
    assert {"meaning/polarity.py", "support/names.py", "support/words.py"} <= set(manifest["sources"])

    (dest / manifest["modules"]["cairn.meaning.scan"]).unlink()
    assert native.current(dest, package)[1].startswith("incomplete build: cairn/meaning/scan.")
    _fake_build(package, dest)

    (package / "meaning" / "backing.py").write_text("# another rule\n", encoding="utf-8")
    assert native.current(dest, package) == (None, "stale: meaning/backing.py changed since the build")
    _fake_build(package, dest)

    for change, why in ((lambda m: m | {"cache_tag": "cpython-399"}, "built for another Python"),
                        (lambda m: m | {"format": 0}, "a build of another format"),
                        (lambda m: m | {"sources": {}}, "built from other modules"),
                        # a module compiled now that the build does not hold, or the other way round
                        (lambda m: m | {"modules": {k: v for k, v in m["modules"].items() if k != "cairn.meaning.units"}},
                         "built from other modules"),
                        (lambda m: m | {"modules": m["modules"] | {"cairn.engine": "cairn/engine.so"}},
                         "built from other modules"),
                        # a manifest cannot make Cairn read or load a file outside the package or the build
                        (lambda m: m | {"sources": m["sources"] | {"../../../etc/passwd": "0"}},
                         "a manifest naming files outside the build"),
                        (lambda m: m | {"sources": m["sources"] | {"/etc/passwd": "0"}},
                         "a manifest naming files outside the build"),
                        (lambda m: m | {"modules": m["modules"] | {"cairn.meaning.scan": "../../evil.so"}},
                         "a manifest naming files outside the build"),
                        (lambda m: m | {"group": "../g__mypyc"}, "a manifest naming files outside the build")):
        (dest / native.MANIFEST).write_text(json.dumps(change(manifest)), encoding="utf-8")
        assert native.current(dest, package) == (None, why)
    (dest / native.MANIFEST).write_text("{not json", encoding="utf-8")
    assert native.current(dest, package) == (None, "unreadable build manifest (JSONDecodeError)")
    shutil.rmtree(dest)
    assert native.current(dest, package) == (None, "not built")


@pytest.mark.skipif(BUILT is None and os.environ.get("CI") != "true",
                    reason="no compiled build here (make builds one; CI must have it)")
def test_compiled_and_pure_python_give_the_same_verdicts():
    """Every pair of the meaning set, of the probe rounds and of WiCE dev (when ../shared is
    there), 1,900 and more: the score, what it misses, every rule's findings and messages, the
    verdict; compiled and as pure Python."""
    def verdicts(env: dict) -> dict:
        full = _env(env)
        done = subprocess.run([sys.executable, str(REPO / "tests" / "native_verdicts.py")], capture_output=True,
                              text=True, env=full, timeout=600)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    compiled, plain = verdicts({}), verdicts({"CAIRN_NATIVE": "0"})
    assert compiled["status"] == "compiled" and plain["status"] == "pure Python (CAIRN_NATIVE=0)"
    assert len(compiled["verdicts"]) >= 1900
    differ = [i for i, (a, b) in enumerate(zip(compiled["verdicts"], plain["verdicts"], strict=True)) if a != b]
    assert not differ, [(compiled["verdicts"][i], plain["verdicts"][i]) for i in differ[:3]]
    assert sum(v[-1] for v in plain["verdicts"]) not in (0, len(plain["verdicts"]))  # verdicts of both kinds


def test_the_demo_reads_the_same_compiled_and_as_python(tmp_path: Path):
    """`cairn check --format json` on the demo workspace and on the meaning workspace, through
    the real CLI, both ways: the same report."""
    sys.path.insert(0, str(REPO / "fixtures" / "meaning"))
    import make_demo
    import make_meaning

    for name, make in (("demo", make_demo.build), ("meaning", make_meaning.build)):
        reports = []
        for env in ({}, {"CAIRN_NATIVE": "0"}):
            ws = make(tmp_path / f"{name}-{len(reports)}")
            proc = run_cairn(ws, "check", "--format", "json", env=env)
            assert proc.returncode in (0, 1), proc.stderr
            report = json.loads(proc.stdout)
            codes = {d["code"] for draft in report["drafts"] for c in draft["claims"] for d in c["diagnostics"]}
            reports.append(json.dumps(report, sort_keys=True).replace(str(ws), "<ws>"))
        assert reports[0] == reports[1]
        if name == "meaning":  # the rules ran, and found what the workspace holds
            assert {"number-mismatch", "contradiction", "context-negates"} <= codes, codes


def test_a_build_that_does_not_load_leaves_the_rules_to_their_sources(tmp_path: Path):
    """A build whose manifest is right but whose libraries do not load (damaged, copied from
    another system): an interpreter of its own, with that build in its environment, checks a
    draft with the sources and says why; nothing crashes."""
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    site = Path(subprocess.run([env / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # this checkout's sources and the test environment's packages (a .pth runs no .pth of its own)
    (site / "deps.pth").write_text(f"{REPO / 'server'}\n{sysconfig.get_paths()['purelib']}\n")
    _fake_build(REPO / "server" / "cairn", env / "cairn-native")
    full = {k: v for k, v in os.environ.items() if not k.startswith(("CAIRN_", "PYTHON"))}
    done = subprocess.run([env / "bin" / "python", "-c", WHERE], capture_output=True, text=True, env=full, timeout=120)
    assert done.returncode == 0, done.stderr
    polarity, names, status = done.stdout.splitlines()
    assert status.startswith("pure Python (the compiled build did not load: "), status
    assert polarity == str(REPO / "server/cairn/meaning/polarity.py") and names == str(REPO / "server/cairn/support/names.py")

    sys.path.insert(0, str(REPO / "fixtures" / "meaning"))
    import make_meaning

    ws = make_meaning.build(tmp_path / "ws")
    check = subprocess.run([env / "bin" / "python", "-m", "cairn", "check", "--format", "json"], cwd=ws,
                           capture_output=True, text=True, env=full, timeout=300)
    assert check.returncode == 1, check.stderr
    codes = {d["code"] for draft in json.loads(check.stdout)["drafts"] for c in draft["claims"] for d in c["diagnostics"]}
    assert {"number-mismatch", "contradiction", "context-negates"} <= codes


GARBAGE = """
import gc, json, sys
sys.path.insert(0, sys.argv[1])
import meaning_eval
from cairn import meaning, native, support
pairs = meaning_eval.load_pairs("all")
def check_all(ending):
    for p in pairs:
        evidence = meaning_eval.pair_evidence(p)
        claim = p["claim"].rstrip(".") + ending
        support.check_support(claim, [e.quote for e in evidence], mode="calibrated")
        meaning.check(claim, evidence, polarity=True)
check_all(".")  # what is made once (a class built on first use) is made here
# the sentence reader's parser (spaCy) keeps cycles of its own while it parses a new text: the
# next claims are parsed here, before the count, so the count is of what Cairn's rules leave
from cairn.reading.read import read
for p in pairs:
    read(p["claim"].rstrip(".") + ", as said.")
gc.collect()
gc.set_debug(gc.DEBUG_SAVEALL)
check_all(", as said.")  # new claims, as a writer's next edit makes them
gc.collect()
kinds = sorted({type(o).__module__ + "." + type(o).__qualname__ for o in gc.garbage})
print(json.dumps({"status": native.status(), "garbage": len(gc.garbage), "kinds": kinds[:10]}))
"""


@pytest.mark.parametrize("env", [{}, {"CAIRN_NATIVE": "0"}], ids=["as run", "pure Python"])
def test_checking_claims_leaves_nothing_for_the_cycle_collector(env: dict):
    """Every object a check makes is freed when the last reference to it goes: compiled, a
    closure and its environment hold each other (and everything they hold), so each claim read
    left hundreds of objects that only the cycle collector frees, which made a long check pay
    for collections (the polarity reader's steps were closures until 4 December)."""
    full = _env(env)
    done = subprocess.run([sys.executable, "-c", GARBAGE, str(REPO / "bench")], capture_output=True, text=True,
                          env=full, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["status"] == ("pure Python (CAIRN_NATIVE=0)" if env else "compiled" if BUILT else f"pure Python ({WHY})")
    assert out["garbage"] == 0, out["kinds"]
