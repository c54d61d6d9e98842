"""workspace/executeCommand: `cairn.report`, `cairn.reindex`, `cairn.citeSelection`."""

from __future__ import annotations

import logging

from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.exceptions import JsonRpcInvalidParams

from .. import chunking, reuse
from ..binding import claim_field
from ..report import build_report
from ..store import StoreError
from .completion import VERSION_DIGITS, dq, yaml_value
from .documents import uri_to_path

log = logging.getLogger(__name__)

REPORT = "cairn.report"
REINDEX = "cairn.reindex"
CITE_SELECTION = "cairn.citeSelection"
CITABLE = (".md", ".txt")


async def report(session) -> dict:
    """The JSON report of SPEC section 6 over the workspace's answers; open drafts as the editor has them."""
    await session.wait_ready()
    results = []
    strict = False
    for folder in list(session.folders):
        strict = strict or folder.settings.config.strict_sentences
        for path in sorted(folder.answers):
            state = await session.current_path(path, patience=120.0)
            if state is not None:
                results.append(state.absolute_result())
    reuse.annotate_results(results)  # as `cairn check` does: one span backing unrelated claims
    return build_report(results, strict_sentences=strict).model_dump()


async def reindex(session) -> dict:
    return await session.reindex_all()


def _bad(message: str) -> JsonRpcInvalidParams:
    return JsonRpcInvalidParams(message=f"{CITE_SELECTION}: {message}")


async def cite_selection(session, args) -> dict:
    """[uri, range] in a .md/.txt source -> a ready cite block, one citation per chunk the range touches."""
    await session.wait_ready()
    if not isinstance(args, (list, tuple)) or len(args) < 2 or not isinstance(args[0], str):
        raise _bad("expected the arguments [uri, range]")
    uri, raw_range = args[0], args[1]
    # an optional third argument: the text of the claim the block is copied for (it binds the block)
    claim = args[2] if len(args) > 2 and isinstance(args[2], str) and args[2].strip() else None
    try:
        rng = raw_range if isinstance(raw_range, types.Range) else get_converter().structure(raw_range, types.Range)
    except Exception as exc:  # noqa: BLE001
        raise _bad(f"not a range: {exc}") from None
    path = uri_to_path(uri)
    folder = session.folder_for(path)
    if path is None or folder is None:
        raise _bad(f"{uri} is not in a workspace folder")
    if path.suffix.lower() not in CITABLE:
        raise _bad("citations can be made from .md and .txt sources only")
    ident = folder.ws.identity(path)
    if ident is None or not folder.ws.allowed(ident):
        raise _bad(f"{path.name} is not under a source root ({', '.join(folder.ws.roots)})")
    # the citation names the indexed text: bring the index up to date with the file first
    try:
        _, affected = await session.run(folder.reindex, [ident])
    except StoreError:
        affected = []  # the index is locked by another process: cite what it holds
    for p in affected:
        session.request_check(p, 0)
    return await session.run(_cite, folder, ident, rng, session.codec, claim)


def _cite(folder, ident: str, rng: types.Range, codec, claim: str | None = None) -> dict:
    info = folder.ws.store.current_version(ident)
    if info is None:
        raise _bad(f"{ident} could not be indexed")
    index = folder.texts.get(info.id)
    if index is None:
        raise _bad(f"{ident}: its text is not in the index")
    text = index.text
    a = index.from_lsp(codec, rng.start)
    b = index.from_lsp(codec, rng.end)
    if b < a:
        a, b = b, a
    citations = []
    for span in chunking.chunk_spans(text, folder.settings.config.chunk_chars):
        if span.end <= a or span.start >= b:
            continue
        piece = text[span.start:span.end]
        s = max(a, span.start) - span.start
        e = min(b, span.end) - span.start
        while s < e and piece[s].isspace():
            s += 1
        while e > s and piece[e - 1].isspace():
            e -= 1
        if e <= s:
            continue
        citations.append(
            {
                "chunk_id": chunking.chunk_id(ident, piece),
                "start": s,
                "end": e,
                "quote": piece[s:e],
                "source": ident,
                "version": info.version[:VERSION_DIGITS],
            }
        )
    if not citations:
        raise _bad("the selection holds no source text (only white space, or nothing)")
    if claim is not None:
        for c in citations:
            c["claim"] = claim_field(claim)
    return {"text": block_text(citations), "citations": citations}


def block_text(citations: list[dict]) -> str:
    """A YAML cite block of `citations` (each with `claim` when it has one)."""
    lines = ["```cite"]
    for c in citations:
        fields = ("chunk_id", "start", "end", "quote", "source", "version") + (("claim",) if c.get("claim") else ())
        for i, name in enumerate(fields):
            value = dq(c[name]) if name in ("quote", "claim") else yaml_value(name, c[name])
            if len(citations) > 1:
                lines.append(("- " if i == 0 else "  ") + f"{name}: {value}")
            else:
                lines.append(f"{name}: {value}")
    lines.append("```")
    return "\n".join(lines) + "\n"
