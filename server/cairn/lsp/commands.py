"""workspace/executeCommand: `cairn.report`, `cairn.reportHtml`, `cairn.reindex`, `cairn.citeSelection`,
`cairn.bindPasted`, `cairn.ask`."""

from __future__ import annotations

import logging

from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.exceptions import JsonRpcInvalidParams

from ..answers.json_answers import is_answer_file
from ..core import chunking
from ..drafts.binding import claim_field
from ..drafts.fields import VERSION_DIGITS, block_text
from ..engine import reuse
from ..report.base import build_report
from ..store import StoreError
from . import binding as lsp_binding
from .documents import uri_to_path
from .names import ASK, BIND_PASTED, CITE_SELECTION

log = logging.getLogger(__name__)

CITABLE = (".md", ".txt")


async def _results(session) -> list:
    await session.wait_ready()
    results = []
    for folder in list(session.folders):
        for path in sorted(folder.answers):
            if is_answer_file(path):  # a JSON answer file: each of its answers (SPEC section 3)
                found = await session.current_json(path, patience=120.0)
                if found is not None:
                    results += found.results()
                continue
            state = await session.current_path(path, patience=120.0)
            if state is not None:
                results.append(state.absolute_result())
    reuse.annotate_results(results)  # as `cairn check` does: one span backing unrelated claims
    return results


async def report(session) -> dict:
    """The JSON report of SPEC section 6 over the workspace's answers; open drafts as the editor has them."""
    return build_report(await _results(session), session.tiers()).model_dump()


async def report_html(session) -> dict:
    """`{"html": page}`: the page `cairn check --format html` writes, over the same
    report as `cairn.report` (the editor shows it in a webview)."""
    from ..report.html import render_html, store_lookup

    rep = build_report(await _results(session), session.tiers())
    folders = list(session.folders)

    def build() -> str:
        lookups = [store_lookup(f.ws, rep) for f in folders]

        def lookup(chunk_id, version):
            return next((got for look in lookups if (got := look(chunk_id, version)) is not None), None)

        threshold = folders[0].settings.config.threshold if folders else None
        return render_html(rep, lookup=lookup, threshold=threshold, title="Cairn citation report")

    return {"html": await session.read(build)}


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
    except Exception as exc:  # noqa: BLE001 - cattrs raises many kinds; each is a bad argument
        raise _bad(f"not a range: {exc}") from None
    path = uri_to_path(uri)
    folder = session.folder_for(path)
    if path is None or folder is None:
        raise _bad(f"{uri} is not in a workspace folder")
    if path.suffix.lower() not in CITABLE:
        raise _bad("citations can be made from .md and .txt sources only")
    ident = folder.ws.identity(path)
    if ident is None or not folder.ws.in_roots(ident):
        raise _bad(f"{path.name} is not under a source root ({', '.join(folder.ws.roots)})")
    if not folder.ws.permitted(ident):
        raise _bad(f"{path.name} is not readable by principal {folder.ws.settings.policy.principal!r}")
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




async def bind_pasted(session, args) -> dict:
    """[uri, range, text] -> {"text", "bound"}: `text` as it is to be pasted over `range` of an
    open draft, each citation of the cite blocks it holds getting the `claim` field of the claim
    it will follow when it has none (`bound` counts them). Outside a draft, `text` unchanged."""
    if not isinstance(args, (list, tuple)) or len(args) < 3 or not isinstance(args[0], str) or not isinstance(args[2], str):
        raise JsonRpcInvalidParams(message=f"{BIND_PASTED}: expected the arguments [uri, range, text]")
    uri, raw_range, pasted = args[0], args[1], args[2]
    try:
        rng = raw_range if isinstance(raw_range, types.Range) else get_converter().structure(raw_range, types.Range)
    except Exception as exc:  # noqa: BLE001 - any malformed range is the caller's error, reported as such
        raise JsonRpcInvalidParams(message=f"{BIND_PASTED}: not a range: {exc}") from None
    doc = session.documents.get(uri)
    if doc is None or not session.is_draft(doc) or doc.encoding_problem:
        return {"text": pasted, "bound": 0}
    a, b = doc.index.from_lsp(session.codec, rng.start), doc.index.from_lsp(session.codec, rng.end)
    text, bound = lsp_binding.bind_pasted(doc.text, min(a, b), max(a, b), pasted)
    return {"text": text, "bound": bound}




async def ask(session, args) -> dict:
    """[question, uri?] -> the answer as a Markdown draft with cite blocks (as `cairn ask --format markdown`),
    with its label and report. The uri (a document or folder) picks the workspace folder."""
    import asyncio

    from ..answers import ask as ask_mod
    from ..core.config import ConfigError

    await session.wait_ready()
    args = list(args) if isinstance(args, (list, tuple)) else []
    question = args[0] if args and isinstance(args[0], str) else ""
    if not question.split():
        raise JsonRpcInvalidParams(message=f"{ASK}: expected the arguments [question, uri?] with a question")
    folder = None
    if len(args) > 1 and isinstance(args[1], str) and args[1]:
        folder = session.folder_for(uri_to_path(args[1]))
    if folder is None:
        folder = session.folders[0] if session.folders else None
    if folder is None:
        raise JsonRpcInvalidParams(message=f"{ASK}: no workspace folder is open")
    try:
        model = ask_mod.make_model(folder.ws)
    except ConfigError as exc:
        raise JsonRpcInvalidParams(message=f"{ASK}: configuration error: {exc}") from None
    if model is not None and model.problem:
        raise JsonRpcInvalidParams(message=f"{ASK}: {model.problem}")
    ws = folder.ws
    terms, passages, about = await session.run(ask_mod.ranked, ws, question, ws.settings.config.ask.k)
    problem = None
    if not about:  # nothing in the sources answers it: no model is asked (as `cairn ask`)
        asked = await session.run(ask_mod.verify_answer, ws, question, passages, ask_mod.nothing_answer(question),
                                  model=model)
        asked.answered = False
    else:
        # the model may take long: asked off the engine thread, which keeps checking drafts
        answer, problem = await asyncio.to_thread(ask_mod.write_answer, question, about, model, terms=terms)
        asked = await session.run(ask_mod.verify_answer, ws, question, passages, answer, model=model,
                                  problem=problem)
    report = build_report([asked.result])
    return {
        "markdown": ask_mod.to_markdown(asked, report.drafts[0]),
        "label": ask_mod.label(asked),
        "extractive": asked.extractive,
        "answered": asked.answered,
        "problem": problem,
        "report": report.model_dump(),
    }
