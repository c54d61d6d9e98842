"""Evidence in the editor: the code action "Cite a source for this claim" and
the command `cairn.evidence` (the passages behind VS Code's "Find evidence").

On an uncited prose paragraph, or a claim whose citations fail, the best
passages of the sources (cairn.evidence, as `cairn cite --for` finds them)
are offered as separate actions, each titled with its source, page or line
and support, each inserting its cite block (bound to the claim) after the
paragraph. Only passages that support the claim are offered as actions;
denied sources are never read.

Finding evidence scores many sentences, so the light bulb never waits for
it: the list answers from a cache (per folder and claim text, dropped when
the sources change) and otherwise starts the search in the background and
offers one placeholder action; code action resolve then computes the edit.
A client without resolve support gets the edits with the list, after a
bounded wait.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from .config import plain
from .documents import uri_to_path
from .names import EVIDENCE

if TYPE_CHECKING:
    from ..answers.evidence import Passage
    from .paragraphs import Target

log = logging.getLogger(__name__)

CITE_KIND = "quickfix.cite.cairn"
PLACEHOLDER = "Cite a source for this claim"
OFFERS = 3  # actions at most
CACHED = 64  # claims whose evidence is kept
EAGER_WAIT = 3.0  # seconds a list may wait for evidence when the client cannot resolve
INVOKED_WAIT = 0.5  # seconds an explicitly asked-for list (Ctrl+.) waits, so it shows the titles
RESOLVE_WAIT = 30.0


@dataclass(frozen=True, slots=True)
class Offer:
    """A passage as the editor offers it: its title and its citation (bound to the claim)."""

    passage: Passage
    line: int  # the passage's line in its source (1-based)
    citation: dict

    @property
    def title(self) -> str:
        ch = self.passage.chunk
        where = f"{ch.source} p.{ch.page}" if ch.page else f"{ch.source}:{self.line}"
        return f"Cite {where} \u00b7 support {self.passage.score:.2f}"


def compute(folder, claim: str) -> list[Offer]:
    """The best passages for `claim` among the folder's readable sources (a reader thread)."""
    from ..answers.cite import _place
    from ..answers.evidence import evidence_for
    from ..drafts.binding import claim_field
    from ..index.drafted import drafted_sources
    ws = folder.ws
    drafted = drafted_sources(ws)
    # the same ranking and the same check as `cairn cite --for`; a source holding cite blocks never offered
    passages = evidence_for(ws, claim, k=OFFERS,
                            exclude=(lambda ch: ch.source in drafted) if drafted else None).passages
    texts: dict[str, str | None] = {}
    out = []
    for p in passages:
        place = _place(ws, p.chunk, p.start, p.end, texts)
        out.append(Offer(p, place.line, {**place.citation(), "claim": claim_field(claim)}))
    return out


class CiteAction:
    """The cache of evidence per claim, and the three requests that use it."""

    def __init__(self, session) -> None:
        self.session = session
        self._done: OrderedDict[tuple, tuple[tuple[int, int], list[Offer]]] = OrderedDict()
        self._running: dict[tuple, asyncio.Future] = {}

    # -- the evidence, computed once per claim and sources ---------------------------

    def _key(self, folder, claim: str) -> tuple:
        return (id(folder), " ".join(claim.split()))

    def cached(self, folder, claim: str) -> list[Offer] | None:
        got = self._done.get(self._key(folder, claim))
        if got is None or got[0] != folder.stamp:
            return None
        return got[1]

    def _start(self, folder, claim: str) -> asyncio.Future:
        key = self._key(folder, claim)
        running = self._running.get(key)
        if running is not None:
            return running
        stamp = folder.stamp
        fut = asyncio.ensure_future(self.session.read(compute, folder, claim))
        self._running[key] = fut

        def done(f: asyncio.Future) -> None:
            self._running.pop(key, None)
            if f.cancelled():
                return
            if f.exception() is not None:
                log.error("evidence for a claim failed: %s", f.exception())
                return
            self._done[key] = (stamp, f.result())
            self._done.move_to_end(key)
            while len(self._done) > CACHED:
                self._done.popitem(last=False)

        fut.add_done_callback(done)
        return fut

    async def offers(self, folder, claim: str, patience: float) -> list[Offer] | None:
        """The offers for `claim`, waiting at most `patience` seconds; None when not ready."""
        got = self.cached(folder, claim)
        if got is not None:
            return got
        fut = self._start(folder, claim)
        if patience <= 0:
            return None
        try:
            await asyncio.wait_for(asyncio.shield(fut), patience)
        except TimeoutError:
            return None
        except Exception:  # noqa: BLE001 - logged by the done callback; no evidence to offer
            return []
        return self.cached(folder, claim)

    # -- textDocument/codeAction ---------------------------------------------------

    def _resolves(self) -> bool:
        support = self.session.capability("text_document.code_action.resolve_support")
        return support is not None and "edit" in (getattr(support, "properties", None) or [])

    async def code_actions(self, folder, state, params: types.CodeActionParams) -> list[types.CodeAction]:
        from .actions import wants
        from .paragraphs import target_at
        if folder is None or not wants(params.context.only, CITE_KIND):
            return []
        target = target_at(state, params.range.start.line)
        if target is None:
            return []
        lazy = self._resolves()
        invoked = params.context.trigger_kind == types.CodeActionTriggerKind.Invoked
        wait = (INVOKED_WAIT if invoked else 0.0) if lazy else EAGER_WAIT
        offers = await self.offers(folder, target.text, wait)
        data = {"cairn": "cite", "uri": state.uri, "line": target.first_line, "claim": target.text}
        if offers is None:
            # still searching: one action whose resolve waits for the best passage
            return [types.CodeAction(title=PLACEHOLDER, kind=CITE_KIND, data={**data, "index": 0})] if lazy else []
        out = []
        for i, offer in enumerate([o for o in offers if o.passage.supports][:OFFERS]):
            action = types.CodeAction(title=offer.title, kind=CITE_KIND, data={**data, "index": i})
            if not lazy:
                action.edit = self._edit(state, target, offer)
                if action.edit is None:
                    continue
                action.data = None
            out.append(action)
        return out

    def _edit(self, state, target: Target, offer: Offer) -> types.WorkspaceEdit | None:
        from .actions import _workspace_edit
        from .commands import block_text
        from .paragraphs import insertion
        got = insertion(state, target, block_text([offer.citation]))
        if got is None:
            return None
        line, col, text = got
        if col:
            start = state.text.rfind("\n") + 1  # (only ever at the end of the draft's last line)
            col = self.session.codec.to_client(state.text[start:], col)
        pos = types.Position(line=line, character=col)
        doc_changes = bool(self.session.capability("workspace.workspace_edit.document_changes", False))
        return _workspace_edit(doc_changes, state, [types.TextEdit(range=types.Range(start=pos, end=pos),
                                                                   new_text=text)])

    # -- codeAction/resolve -----------------------------------------------------------

    async def resolve(self, action: types.CodeAction) -> types.CodeAction:
        from ..drafts.binding import claim_field
        from .paragraphs import target_at
        data = plain(action.data) if action.data is not None else None
        if not isinstance(data, dict) or data.get("cairn") != "cite" or action.edit is not None:
            return action
        uri, line, claim, index = data.get("uri"), data.get("line"), data.get("claim"), data.get("index")
        if not isinstance(uri, str) or not isinstance(line, int) or not isinstance(claim, str) \
                or not isinstance(index, int):
            return action
        folder, state = await self.session.current(uri)
        if folder is None or state is None:
            return action
        target = target_at(state, line)
        if target is None or " ".join(target.text.split()) != " ".join(claim.split()):
            return action  # the draft changed under the menu: nothing to insert
        offers = await self.offers(folder, claim, RESOLVE_WAIT) or []
        supporting = [o for o in offers if o.passage.supports]
        if index >= len(supporting):
            self.session.tell("warning", f"nothing in the sources supports \u201c{claim_field(claim)}\u2026\u201d")
            return action
        action.edit = self._edit(state, target, supporting[index])
        return action

    # -- workspace/executeCommand cairn.evidence -------------------------------------

    async def command(self, args) -> dict:
        """[uri, position] -> the claim at that position and its passages, each with
        its support, text, block and the edit inserting it (when it can be inserted)."""
        from .commands import block_text
        from .paragraphs import target_at
        await self.session.wait_ready()
        args = list(args) if isinstance(args, (list, tuple)) else []
        raw = plain(args[1]) if len(args) > 1 else None
        if not args or not isinstance(args[0], str) or not isinstance(raw, dict) or not isinstance(raw.get("line"), int):
            raise JsonRpcInvalidParams(message=f"{EVIDENCE}: expected the arguments [uri, position]")
        uri = args[0]
        if self.session.folder_for(uri_to_path(uri)) is None:
            raise JsonRpcInvalidParams(message=f"{EVIDENCE}: {uri} is not in a workspace folder")
        folder, state = await self.session.current(uri)
        if folder is None or state is None:
            raise JsonRpcInvalidParams(message=f"{EVIDENCE}: {uri} is not a draft Cairn checks")
        target = target_at(state, raw["line"])
        if target is None:
            return {"claim": None, "passages": [],
                    "message": "put the cursor in an uncited paragraph or a claim whose citations fail"}
        offers = await self.offers(folder, target.text, RESOLVE_WAIT) or []
        passages = []
        for o in offers:
            p = o.passage
            edit = self._edit(state, target, o)
            passages.append({
                "title": o.title, "source": p.chunk.source, "page": p.chunk.page, "line": o.line,
                "supports": p.supports, "support_score": round(p.score, 4), "why": p.why or None,
                "quote": p.quote, "citation": o.citation, "block": block_text([o.citation]),
                "edit": None if edit is None else _unstructure(edit),
            })
        return {"claim": target.text, "supported": any(p["supports"] for p in passages), "passages": passages}


def _unstructure(edit: types.WorkspaceEdit) -> dict:
    from lsprotocol.converters import get_converter

    return get_converter().unstructure(edit)
