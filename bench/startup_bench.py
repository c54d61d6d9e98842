"""Start-up benchmark: `cairn serve` side by side with the VS Code Markdown language server.

    python bench/startup_bench.py [--runs 7] [--claims 1000] [--no-peer]

Both servers are spawned N times, alternating, over stdio JSON-RPC (bench/lsp_bench.py's
client, which parses messages with json.loads only). Per run, from the spawn:

- the `initialize` result;
- the first diagnostics of a generated draft of N claims (200 sources, ~1 MB, as in
  lsp_bench.py), opened as soon as `initialized` is sent. Cairn pushes them: the first
  `textDocument/publishDiagnostics` of the draft at version 1. The Markdown server is pulled
  (it advertises `diagnosticProvider`, LSP 3.17): its answer to `textDocument/diagnostic`, sent
  right after the draft is opened, with `markdown.validate.enabled` pushed by
  `workspace/didChangeConfiguration` first (else it answers an empty list without looking).
  It asks its client to parse the Markdown (`markdown/parse`, as VS Code's extension does with
  markdown-it); this client answers with markdown-it-py's tokens, and that time is counted in
  the peer's figure, as the editor's parse is in VS Code (it is printed apart too).

And `cairn --version` (the console script), wall time of N runs.

Cairn's own modules are read from their bytecode caches (`__pycache__`) when they are there; with
PYTHONDONTWRITEBYTECODE set and no cache (an editable install in such an environment), every
start compiles them from source, about 0.2 s of a start here. A wheel installed by pip has them
compiled. The figures say which was measured; `--compile` writes the caches first (`compileall`,
as pip does), `--no-bytecode` removes them and keeps them from being written for the runs. The workspace is indexed once
by `cairn index` before the runs (an editor reopening a workspace); each run starts from that
index. Medians, min and max; the ratios against the targets of issue 43 ("a fast start"):
initialize at most 2x the peer's, first diagnostics at most 1.5x, `--version` under 0.15 s.

The peer is installed with npm into ~/.cache/cairn-bench/peer (outside the repository) when
missing; without node or npm its rows are skipped with a note. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lsp_bench import CAPABILITIES, RawClient, make_draft, make_workspace

PEER_DIR = Path(os.environ.get("CAIRN_BENCH_PEER", Path.home() / ".cache" / "cairn-bench" / "peer"))
PEER_PACKAGE = "vscode-langservers-extracted"
PEER_BIN = PEER_DIR / "node_modules" / ".bin" / "vscode-markdown-language-server"

# VS Code's defaults for the settings the Markdown server reads, with validation on
MARKDOWN_SETTINGS = {"markdown": {
    "server": {"log": "off"},
    "preferredMdPathExtensionStyle": "auto",
    "suggest": {"paths": {"enabled": True, "includeWorkspaceHeaderCompletions": "never"}},
    "occurrencesHighlight": {"enabled": False},
    "validate": {
        "enabled": True,
        "referenceLinks": {"enabled": "warning"},
        "fragmentLinks": {"enabled": "warning"},
        "fileLinks": {"enabled": "warning", "markdownFragmentLinks": "inherit"},
        "ignoredLinks": [],
        "unusedLinkDefinitions": {"enabled": "hint"},
        "duplicateLinkDefinitions": {"enabled": "warning"},
    },
}}


def find_peer() -> tuple[list[str] | None, str]:
    """The peer's command line, installing it when missing; or None and why not."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return None, "node or npm is not on PATH: the peer's rows are skipped"
    if not PEER_BIN.exists():
        print(f"installing the peer ({PEER_PACKAGE}, from npm) into {PEER_DIR} ...", flush=True)
        PEER_DIR.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(PEER_DIR),
                               PEER_PACKAGE], capture_output=True, text=True)
        if done.returncode != 0 or not PEER_BIN.exists():
            return None, f"npm install {PEER_PACKAGE} failed: {done.stderr.strip()[-300:]}; the peer's rows are skipped"
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    return [node, str(PEER_BIN.resolve()), "--stdio"], f"node {version}, {PEER_PACKAGE} in {PEER_DIR}"


def peer_version() -> str:
    try:
        import json

        return json.loads((PEER_DIR / "node_modules" / PEER_PACKAGE / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return "?"


class Parser:
    """The client's side of `markdown/parse`: markdown-it tokens as plain objects, timed."""

    def __init__(self, texts: dict[str, str]) -> None:
        from markdown_it import MarkdownIt

        self.md = MarkdownIt("commonmark")
        self.texts = texts
        self.seconds = 0.0

    def __call__(self, params: dict) -> list[dict]:
        t = time.perf_counter()
        text = params.get("text") or self.texts.get(params["uri"], "")
        tokens = [tok.as_dict() for tok in self.md.parse(text)]
        self.seconds += time.perf_counter() - t
        return tokens


async def run_cairn(root: Path, uri: str, text: str) -> dict[str, float]:
    client = RawClient()
    seen: dict[str, float] = {}
    got = asyncio.Event()

    def on_publish(params: dict) -> None:
        if params["uri"] == uri and params.get("version") == 1 and "diagnostics" not in seen:
            seen["diagnostics"] = time.perf_counter()
            seen["count"] = len(params["diagnostics"])
            got.set()

    client.handlers["textDocument/publishDiagnostics"] = on_publish
    t0 = time.perf_counter()
    await client.start(sys.executable, "-m", "cairn", "serve")
    try:
        await client.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": CAPABILITIES,
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "initializationOptions": {"debounce_ms": 0},
        })
        t_init = time.perf_counter()
        client.notify("initialized", {})
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "markdown", "version": 1, "text": text}})
        await asyncio.wait_for(got.wait(), 600)
        return {"initialize": t_init - t0, "diagnostics": seen["diagnostics"] - t0, "count": seen["count"]}
    finally:
        await stop(client)


async def run_peer(cmd: list[str], root: Path, uri: str, text: str) -> dict[str, float]:
    client = RawClient()
    parser = Parser({uri: text})
    files = [p.as_uri() for p in sorted(root.rglob("*.md")) if ".cairn" not in p.parts]
    client.answers["markdown/parse"] = parser
    client.answers["markdown/findMarkdownFilesInWorkspace"] = lambda _params: files
    client.answers["markdown/fs/stat"] = _stat
    client.answers["markdown/fs/readDirectory"] = _read_directory
    client.answers["markdown/fs/readFile"] = _read_file
    t0 = time.perf_counter()
    await client.start(*cmd)
    try:
        caps = dict(CAPABILITIES)
        caps["textDocument"] = {**CAPABILITIES["textDocument"], "diagnostic": {"dynamicRegistration": False}}
        await client.request("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": caps,
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
        })
        t_init = time.perf_counter()
        client.notify("initialized", {})
        client.notify("workspace/didChangeConfiguration", {"settings": MARKDOWN_SETTINGS})
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "markdown", "version": 1, "text": text}})
        result = await asyncio.wait_for(client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}), 600)
        t_diag = time.perf_counter()
        items = result.get("items", []) if isinstance(result, dict) else []
        return {"initialize": t_init - t0, "diagnostics": t_diag - t0, "count": len(items), "parse": parser.seconds}
    finally:
        await stop(client)


def _path(params: dict) -> Path:
    from urllib.parse import unquote, urlparse

    return Path(unquote(urlparse(params["uri"]).path))


def _stat(params: dict) -> dict | None:
    p = _path(params)
    return {"isDirectory": p.is_dir()} if p.exists() else None


def _read_directory(params: dict) -> list:
    p = _path(params)
    return [[c.name, {"isDirectory": c.is_dir()}] for c in sorted(p.iterdir())] if p.is_dir() else []


def _read_file(params: dict) -> list[int]:
    return list(_path(params).read_bytes())


async def stop(client: RawClient) -> None:
    try:
        await asyncio.wait_for(client.request("shutdown", None), 30)
        client.notify("exit", None)
        await asyncio.wait_for(client.proc.wait(), 30)
    except Exception:  # noqa: BLE001 - a server that will not stop is killed
        client.proc.kill()
        await client.proc.wait()
    if client.reader is not None:
        client.reader.cancel()


def prepare_bytecode(*, compile_first: bool, none: bool) -> str:
    """Set up, and say, whether Cairn's modules start from bytecode caches or from source."""
    import cairn

    package = Path(cairn.__file__).resolve().parent
    if none:
        for cache in package.rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # the servers and `cairn --version` inherit it
    elif compile_first:
        import compileall

        compileall.compile_dir(str(package), quiet=1)
    sources = list(package.rglob("*.py"))
    cached = sum(1 for p in sources if Path(importlib.util.cache_from_source(str(p))).exists())
    if cached == len(sources):
        return f"all {len(sources)} read from their bytecode caches"
    writes = "not written (PYTHONDONTWRITEBYTECODE)" if sys.dont_write_bytecode or os.environ.get(
        "PYTHONDONTWRITEBYTECODE") else "written by the first start"
    return f"{cached} of {len(sources)} with a bytecode cache, the others compiled from source; caches {writes}"


def version_seconds() -> float:
    cairn = Path(sys.executable).with_name("cairn")
    cmd = [str(cairn)] if cairn.exists() else [sys.executable, "-m", "cairn"]
    t = time.perf_counter()
    subprocess.run([*cmd, "--version"], check=True, capture_output=True)
    return time.perf_counter() - t


def spread(values: list[float], unit: Callable[[float], str]) -> str:
    return f"{unit(statistics.median(values))} (min {unit(min(values))}, max {unit(max(values))})"


def ms(v: float) -> str:
    return f"{v * 1000:.0f} ms"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--claims", type=int, default=1000)
    ap.add_argument("--no-peer", action="store_true", help="measure Cairn alone")
    ap.add_argument("--compile", action="store_true", help="write Cairn's bytecode caches before the runs")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="remove Cairn's bytecode caches and write none: each start compiles from source")
    args = ap.parse_args()
    bytecode = prepare_bytecode(compile_first=args.compile, none=args.no_bytecode)
    peer_cmd, peer_note = (None, "skipped (--no-peer)") if args.no_peer else find_peer()
    tmp = Path(tempfile.mkdtemp(prefix="cairn-startup-bench-"))
    try:
        root = make_workspace(tmp / "ws", n_sources=200, paras_per_source=5, para_chars=1000)
        text = make_draft(root, args.claims)
        draft = root / "drafts" / "answer.md"
        draft.write_text(text, encoding="utf-8")
        uri = draft.as_uri()
        claims = text.count("```cite")
        subprocess.run([sys.executable, "-m", "cairn", "index"], cwd=root, check=True, capture_output=True)
        cairn: list[dict[str, float]] = []
        peer: list[dict[str, float]] = []
        versions: list[float] = []
        for i in range(args.runs):
            order = ["cairn", "peer"] if i % 2 == 0 else ["peer", "cairn"]
            for who in order:
                if who == "cairn":
                    cairn.append(await run_cairn(root, uri, text))
                elif peer_cmd is not None:
                    peer.append(await run_peer(peer_cmd, root, uri, text))
            versions.append(version_seconds())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    load = os.getloadavg()
    print(f"\nStart-up: {args.runs} runs each, alternating; a draft of {claims} claims, 200 sources (~1 MB), "
          f"indexed beforehand")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1 / 5 / 15 min)")
    print(f"peer: {peer_note}" + (f", version {peer_version()}" if peer_cmd else ""))
    print(f"cairn's modules: {bytecode}")
    print("measured: cairn = first textDocument/publishDiagnostics of the draft (version 1), pushed;")
    print("          peer  = its answer to textDocument/diagnostic (pull) sent right after didOpen,")
    print("                  including the client's markdown/parse answers (markdown-it-py)\n")
    rows: list[tuple[str, str, str, str, str]] = []
    for key, label, target in (("initialize", "spawn -> initialize result", 2.0),
                               ("diagnostics", f"spawn -> first diagnostics ({claims} claims)", 1.5)):
        c = [r[key] for r in cairn]
        p = [r[key] for r in peer]
        if p:
            ratio = statistics.median(c) / statistics.median(p)
            rows.append((label, spread(c, ms), spread(p, ms), f"{ratio:.2f}x (<= {target}x)", verdict(ratio <= target)))
        else:
            rows.append((label, spread(c, ms), "skipped", f"(<= {target}x)", "-"))
    v = statistics.median(versions)
    rows.append(("cairn --version (wall)", spread(versions, lambda x: f"{x:.3f} s"), "", "(< 0.15 s)",
                 verdict(v < 0.15)))
    head = ("figure", "cairn: median (min, max)", "peer: median (min, max)", "ratio (target)", "")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(5)]
    for r in [head, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
    print(f"\ndiagnostics in the first answer: cairn {statistics.median([r['count'] for r in cairn]):.0f}"
          + (f", peer {statistics.median([r['count'] for r in peer]):.0f}; peer's markdown/parse in the client: "
             f"median {ms(statistics.median([r['parse'] for r in peer]))}" if peer else ""))
    if peer:
        # VS Code parses with markdown-it in JavaScript, faster than markdown-it-py here: the peer's
        # figure without the client's parse is the stricter reference
        bare = statistics.median([r["diagnostics"] - r["parse"] for r in peer])
        ratio = statistics.median([r["diagnostics"] for r in cairn]) / bare
        print(f"peer's first diagnostics without the client's parse: median {ms(bare)}; cairn's ratio to it "
              f"{ratio:.2f}x (<= 1.5x: {verdict(ratio <= 1.5)})")


if __name__ == "__main__":
    asyncio.run(main())
