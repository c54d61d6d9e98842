"""Language server benchmark: latencies through JSON-RPC against a real
`cairn serve`, and the server's memory.

    python bench/lsp_bench.py [--claims 1000] [--rounds 40] [--big-mb 100] [--skip-big]

1. A generated workspace (200 sources, ~1 MB) and a draft of N claims (most
   verified, some failing): edit -> publishDiagnostics latency (debounce 0)
   for three kinds of edit, hover, code action, code lens and completion
   latency, the server's RSS.
2. The same with ~100 MB of .md/.txt sources (~100,000 chunks): time to
   index them in the server, RSS after indexing and its peak, and the same
   latencies over a draft citing them.

Workspaces are generated in a temporary folder; medians are printed as a
table. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cairn.core.chunking import chunk_document

WORDS = (
    "customer credit delivery refund order policy warehouse request photo damaged item days hours store "
    "payment method approval supervisor ticket reason code quality team shipping return goods fresh "
    "produce dairy meat member holiday window agent ledger audit review case report missing shortage "
    "driver address rebooked charge notice invoice balance account region manager contract supplier "
    "batch label package carrier route schedule morning evening weekly monthly quarterly annual"
).split()
NUMBERS = ["2", "3", "5", "7", "10", "14", "30", "48", "90", "200"]


# --------------------------------------------------------------------------
# Generated workspaces


def sentence(rng: random.Random) -> str:
    n = rng.randint(8, 18)
    words = [rng.choice(WORDS) for _ in range(n)]
    if rng.random() < 0.4:
        words.insert(rng.randrange(n), rng.choice(NUMBERS))
    return " ".join(words).capitalize() + "."


def paragraph(rng: random.Random, pool: list[str], target: int, tag: int) -> str:
    parts = [f"Section {tag}."]
    size = len(parts[0])
    while size < target:
        s = rng.choice(pool)
        parts.append(s)
        size += len(s) + 1
    # a line break every ~80 characters, as prose in a text file has
    text = " ".join(parts)
    out, line = [], []
    width = 0
    for w in text.split(" "):
        if width + len(w) > 78 and line:
            out.append(" ".join(line))
            line, width = [], 0
        line.append(w)
        width += len(w) + 1
    out.append(" ".join(line))
    return "\n".join(out)


def make_workspace(root: Path, n_sources: int, paras_per_source: int, para_chars: int, seed: int = 1) -> Path:
    rng = random.Random(seed)
    pool = [sentence(rng) for _ in range(4000)]
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n', encoding="utf-8")
    tag = 0
    for i in range(n_sources):
        paras = []
        for _ in range(paras_per_source):
            tag += 1
            paras.append(paragraph(rng, pool, para_chars, tag))
        ext = ".md" if i % 2 == 0 else ".txt"
        head = f"# Source {i}\n\n" if ext == ".md" else f"SOURCE {i}\n\n"
        (root / "sources" / f"s{i:04d}{ext}").write_text(head + "\n\n".join(paras) + "\n", encoding="utf-8")
    return root


def make_draft(root: Path, n_claims: int, seed: int = 2, sample_sources: int = 200) -> str:
    """A draft citing sentences of the sources: ~85% verified, the rest failing in various ways."""
    rng = random.Random(seed)
    files = sorted((root / "sources").iterdir())
    files = rng.sample(files, min(sample_sources, len(files)))
    chunks = []
    for f in files:
        ident = f"sources/{f.name}"
        chunks += [(ident, c) for c in chunk_document(ident, f.read_text(encoding="utf-8")) if len(c.text) > 60]
    out = ["# Generated answer\n"]
    sentence_re = re.compile(r"[A-Z][^.]{30,}\.")
    for _ in range(n_claims):
        ident, ch = rng.choice(chunks)
        found = list(sentence_re.finditer(ch.text))
        if not found:
            continue
        m = rng.choice(found)
        start, quote = m.start(), m.group(0)
        claim = " ".join(quote.split())
        r = rng.random()
        if r < 0.05:
            claim = claim + " within 999 days"  # number-mismatch
        elif r < 0.10:
            quote = quote + " and more"  # quote-not-found
        elif r < 0.15:
            claim = "Unrelated words about zebras and violins entirely"  # unsupported
        cit = (
            "```cite\n"
            f"chunk_id: {ch.chunk_id}\nstart: {start}\nend: {start + len(quote)}\n"
            f"quote: {json_str(quote)}\nsource: {ident}\n```\n"
        )
        out.append(f"{claim.rstrip('.')}.\n\n{cit}")
    return "\n".join(out)


def json_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


# --------------------------------------------------------------------------
# The client


class RawClient:
    """A minimal JSON-RPC client over the server's stdio: it parses messages with
    json.loads only (as an editor's client does), so the figures are the server's."""

    def __init__(self) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self.next_id = 0
        self.pending: dict[int, asyncio.Future] = {}
        self.handlers: dict[str, object] = {}
        # answers to the server's own requests by method (params -> result); the rest get null
        self.answers: dict[str, object] = {}
        self.reader: asyncio.Task | None = None

    async def start(self, *cmd: str) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            limit=2**26,
        )
        self.reader = asyncio.create_task(self._read())

    def _write(self, msg: dict) -> None:
        body = json.dumps(msg).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = 0
            while True:
                line = await out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            msg = json.loads(await out.readexactly(length))
            if "method" in msg and "id" in msg:  # a request from the server
                result = None
                answer = self.answers.get(msg["method"])
                if answer is not None:
                    result = answer(msg.get("params"))
                elif msg["method"] == "workspace/configuration":
                    result = [None for _ in msg["params"]["items"]]
                self._write({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            elif "id" in msg:
                fut = self.pending.pop(msg["id"], None)
                if fut is not None and not fut.done():
                    if "error" in msg:
                        fut.set_exception(RuntimeError(msg["error"]))
                    else:
                        fut.set_result(msg.get("result"))
            else:
                h = self.handlers.get(msg.get("method"))
                if h is not None:
                    h(msg.get("params"))

    async def request(self, method: str, params) -> object:
        self.next_id += 1
        fut = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = fut
        self._write({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await fut

    def notify(self, method: str, params) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})


CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "window": {"workDoneProgress": True},
    "workspace": {"configuration": True, "didChangeWatchedFiles": {"dynamicRegistration": True},
                  "workspaceEdit": {"documentChanges": True}, "codeLens": {"refreshSupport": True}},
    "textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]},
                     "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
                     "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source"]}},
                                    "isPreferredSupport": True, "dataSupport": True,
                                    "resolveSupport": {"properties": ["edit"]}}},
}


class Bench:
    def __init__(self) -> None:
        self.client = RawClient()
        self.published: dict[str, tuple[int | None, float, int]] = {}
        self.event = asyncio.Event()
        self.checked = 0

        def on_publish(params):
            self.published[params["uri"]] = (params.get("version"), time.perf_counter(), len(params["diagnostics"]))
            self.event.set()

        def on_checked(params):
            self.checked += 1
            self.event.set()

        self.client.handlers["textDocument/publishDiagnostics"] = on_publish
        self.client.handlers["cairn/checked"] = on_checked

    async def start(self, root: Path) -> float:
        await self.client.start(sys.executable, "-m", "cairn", "serve")
        t0 = time.perf_counter()
        await self.client.request("initialize", {
            "processId": None, "rootUri": root.as_uri(), "capabilities": CAPABILITIES,
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "initializationOptions": {"debounce_ms": 0},
        })
        self.client.notify("initialized", {})
        await self.wait(lambda: self.checked > 0, 3600)
        return time.perf_counter() - t0

    async def wait(self, cond, timeout=120.0) -> None:
        end = time.perf_counter() + timeout
        while not cond():
            self.event.clear()
            left = end - time.perf_counter()
            if left <= 0:
                raise TimeoutError
            try:
                await asyncio.wait_for(self.event.wait(), left)
            except TimeoutError:
                raise TimeoutError from None

    def memory(self) -> tuple[float, float]:
        """(VmRSS, VmHWM) of the server in MB."""
        rss = hwm = 0.0
        for line in Path(f"/proc/{self.client.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                hwm = int(line.split()[1]) / 1024
        return rss, hwm

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.client.request("shutdown", None), 30)
            self.client.notify("exit", None)
            await asyncio.wait_for(self.client.proc.wait(), 30)
        except Exception:  # noqa: BLE001 - a server that will not stop is killed
            self.client.proc.kill()


async def latencies(b: Bench, root: Path, text: str, rounds: int) -> dict[str, list[float]]:
    c = b.client
    uri = (root / "drafts/answer.md").as_uri()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
    t0 = time.perf_counter()
    await b.wait(lambda: b.published.get(uri, (None,))[0] == 1, 600)
    first = time.perf_counter() - t0
    lines = text.split("\n")
    claim_lines = [i for i, ln in enumerate(lines) if ln and lines[i + 1:i + 3] == ["", "```cite"]]
    quote_lines = [i for i, ln in enumerate(lines) if ln.startswith("quote: ")]
    rng = random.Random(5)
    out: dict[str, list[float]] = {"open (first check)": [first]}
    version = 1

    def rng_(sl, sc, el, ec):
        return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}

    async def edit(kind: str, rng_value: dict, new: str) -> None:
        nonlocal version
        version += 1
        v = version
        t = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v},
                                            "contentChanges": [{"range": rng_value, "text": new}]})
        await b.wait(lambda: b.published.get(uri, (None,))[0] == v)
        out.setdefault(kind, []).append((b.published[uri][1] - t) * 1000)

    # warm-up: the first edits pay for imports and caches
    for _ in range(3):
        await edit("warm-up", rng_(0, 0, 0, 0), "x")
        await edit("warm-up", rng_(0, 0, 0, 1), "")
    for _ in range(rounds):
        ln = rng.choice(claim_lines)
        # a word typed in a claim (that claim is re-verified) and taken back
        await edit("edit -> diagnostics: a word in a claim", rng_(ln, 0, ln, 0), "Moreover ")
        await edit("edit -> diagnostics: a word in a claim", rng_(ln, 0, ln, 9), "")
        ql = rng.choice(quote_lines)
        await edit("edit -> diagnostics: a letter in a quote", rng_(ql, 8, ql, 8), "x")
        await edit("edit -> diagnostics: a letter in a quote", rng_(ql, 8, ql, 9), "")
        # a paragraph above everything (every claim moves; verdicts are reused)
        await edit("edit -> diagnostics: lines added at the top", rng_(1, 0, 1, 0), "New first paragraph.\n\n")
        await edit("edit -> diagnostics: lines added at the top", rng_(1, 0, 3, 0), "")
    out.pop("warm-up", None)

    async def timed(kind, method, make_params):
        for _ in range(rounds):
            params = make_params()
            t = time.perf_counter()
            await c.request(method, params)
            out.setdefault(kind, []).append((time.perf_counter() - t) * 1000)

    doc = {"uri": uri}
    await timed("hover", "textDocument/hover", lambda: {
        "textDocument": doc, "position": {"line": rng.choice(claim_lines + quote_lines), "character": 2}})
    await timed("code action (quick-fixes at a line)", "textDocument/codeAction", lambda: {
        "textDocument": doc, "range": rng_(ql := rng.choice(quote_lines), 0, ql, 0), "context": {"diagnostics": []}})
    await timed("code lens (whole draft)", "textDocument/codeLens", lambda: {"textDocument": doc})
    await timed("definition", "textDocument/definition", lambda: {
        "textDocument": doc, "position": {"line": rng.choice(quote_lines), "character": 2}})
    await timed("completion (quote words)", "textDocument/completion", lambda: {
        "textDocument": doc, "position": {"line": (ql := rng.choice(quote_lines)), "character": len(lines[ql][:14])}})
    # "Cite a source for this claim": a new uncited paragraph at the top each round (so its
    # evidence is not cached), the light bulb's list at once, again once the search is done,
    # and resolve (which waits for the search, then makes the edit)
    for _ in range(rounds):
        words = " ".join(rng.choice(WORDS) for _ in range(10))
        checked = b.checked
        await edit("warm-up", rng_(1, 0, 1, 0), f"The {words} {rng.choice(NUMBERS)} days.\n\n")
        await b.wait(lambda: b.checked > checked)  # the check cycle's metrics are sent: the server is idle
        params = {"textDocument": doc, "range": rng_(1, 2, 1, 2), "context": {"diagnostics": [], "triggerKind": 2}}
        t = time.perf_counter()
        got = await c.request("textDocument/codeAction", params) or []
        out.setdefault("code action list, uncited paragraph (search starts)", []).append((time.perf_counter() - t) * 1000)
        cite = [a for a in got if a.get("kind") == "quickfix.cite.cairn"]
        if cite:
            t = time.perf_counter()
            await c.request("codeAction/resolve", cite[0])
            out.setdefault("code action resolve (evidence + edit)", []).append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            await c.request("textDocument/codeAction", params)
            out.setdefault("code action list, uncited paragraph (evidence found)", []).append(
                (time.perf_counter() - t) * 1000)
        await edit("warm-up", rng_(1, 0, 3, 0), "")
    out.pop("warm-up", None)
    c.notify("textDocument/didClose", {"textDocument": doc})
    return out


def store_chunks(root: Path) -> str:
    from cairn.store import Store

    store = Store(root)
    try:
        return f"{store.current_chunk_count():,}"
    finally:
        store.close()


def table(title: str, rows: list[tuple[str, str]]) -> str:
    w = max(len(r[0]) for r in rows)
    lines = [f"\n{title}", "-" * (w + 16)]
    lines += [f"{name.ljust(w)}  {value}" for name, value in rows]
    return "\n".join(lines)


def fmt(values: list[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.2f} s" if values[0] < 1000 else f"{values[0]:.0f}"
    return f"{statistics.median(values):7.1f} ms median  (p90 {sorted(values)[int(len(values) * 0.9) - 1]:.1f}, n={len(values)})"


async def run_case(title: str, root: Path, claims: int, rounds: int, sample_sources: int) -> list[tuple[str, str]]:
    text = make_draft(root, claims, sample_sources=sample_sources)
    n_claims = text.count("```cite")
    b = Bench()
    rows = []
    try:
        started = await b.start(root)
        rows.append(("start + index + check the workspace", f"{started:.1f} s"))
        rss, hwm = b.memory()
        rows.append(("RSS after indexing (peak so far)", f"{rss:.0f} MB ({hwm:.0f} MB)"))
        res = await latencies(b, root, text, rounds)
        for k, v in res.items():
            rows.append((k if k != "open (first check)" else f"open a draft of {n_claims} claims (first check)",
                         fmt(v) if k != "open (first check)" else f"{v[0]:.2f} s"))
        rss, hwm = b.memory()
        rows.append(("RSS at the end (peak)", f"{rss:.0f} MB ({hwm:.0f} MB)"))
    finally:
        await b.stop()
    from cairn.store import Store

    store = Store(root)
    stats = store.stats()
    store.close()
    rows.insert(0, ("sources / chunks indexed", f"{stats['current_sources']} / {store_chunks(root)}"))
    print(table(title, rows), flush=True)
    return rows


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--claims", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--big-mb", type=int, default=100)
    ap.add_argument("--skip-big", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="cairn-lsp-bench-"))
    try:
        small = make_workspace(tmp / "small", n_sources=200, paras_per_source=5, para_chars=1000)
        await run_case(f"Generated workspace: 200 sources (~1 MB), a draft of {args.claims} claims", small,
                       args.claims, args.rounds, 200)
        shutil.rmtree(small)
        if not args.skip_big:
            t = time.perf_counter()
            n_sources = max(1, args.big_mb)  # 1 MB each: 1000 paragraphs of ~1 KB
            big = make_workspace(tmp / "big", n_sources=n_sources, paras_per_source=1000, para_chars=1000)
            size = sum(f.stat().st_size for f in (big / "sources").iterdir()) / 1e6
            print(f"\n(generated {size:.0f} MB of sources in {time.perf_counter() - t:.0f} s)", flush=True)
            await run_case(f"~{size:.0f} MB of .md/.txt sources (~{n_sources * 1000:,} chunks), "
                           f"a draft of {args.claims} claims", big, args.claims, args.rounds, 20)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
