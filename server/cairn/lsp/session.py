"""The server's state and its timing: which workspace roots there are, which
documents are open, when a draft is checked and when sources are indexed.

Engine work runs on one background thread (`engine`), in the order it was
asked for; the event loop stays free to answer requests meanwhile, from the
last verdicts. Each draft has at most one check running and one waiting: an
edit while a check runs asks for one more run, never a queue of them.

The judge (judge.py) is never asked per keystroke: a check only applies
verdicts already known. When a draft is opened or saved, its claims that no
verdict decided yet are judged in the background, on threads of their own
(`judging`), once its check is done; when the verdicts arrive and the text is
still the one judged, they replace the lexical ones. A newer save of the
draft cancels the run before it.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.uris import from_fs_path

from ..core.files import read_regular
from .changes import Changes
from .config import ServerOptions
from .conflicts import Conflicts
from .diagnostics import SOURCE
from .documents import Document, Documents, uri_to_path
from .json_answers import JsonState
from .judging import Judging
from .positions import Codec
from .progress import Progress
from .startup import Startup
from .state import DraftState

if TYPE_CHECKING:
    from .checking import Folder
    from .kept_diagnostics import Kept

log = logging.getLogger(__name__)

CHECKED = "cairn/checked"
CONFIG_CODE = "configuration"  # the one diagnostic of an open draft while its folder's configuration is refused


class Session(Startup, Changes):
    def __init__(self, ls):
        self.ls = ls
        self.documents = Documents()
        self.folders: list[Folder] = []
        self.options = ServerOptions()
        self.codec = Codec("utf-16")
        self.engine = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cairn-engine")
        # store reads for requests (completion, definition) while the engine thread is busy
        self.readers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cairn-read")
        self.judging = Judging(self)  # the judge asked in the background (lsp/judging.py)
        self.conflicts = Conflicts(self)  # contradicting sources searched in the background (lsp/conflicts.py)
        self.folder_uris: list[str] = []
        self.ready: asyncio.Event | None = None
        self._timers: dict[Path, asyncio.TimerHandle] = {}
        self._tasks: dict[Path, asyncio.Task] = {}
        self._again: set[Path] = set()
        self._published: dict[Path, str] = {}
        # a draft's diagnostics published from the index, until its check publishes: (uri, version, diagnostics)
        self._early: dict[Path, tuple[str, int | None, list[types.Diagnostic]]] = {}
        self._shown: set[str] = set()
        self.progress = Progress(ls, lambda: bool(self.capability("window.work_done_progress", False)))
        self._notify_pending = False
        self._refresh_lenses = False
        self._indexing = 0  # full index runs under way (the engine thread is busy for a while)
        self._editor: dict[str, dict] = {}

    # -- helpers --------------------------------------------------------------------

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    def _ready(self) -> asyncio.Event:
        if self.ready is None:
            self.ready = asyncio.Event()
        return self.ready

    @property
    def is_ready(self) -> bool:
        """Started: settings read, sources indexed once."""
        return self._ready().is_set()

    async def wait_ready(self) -> None:
        await self._ready().wait()

    async def run(self, fn, *args, **kwargs):
        """Run engine work on the engine thread."""
        return await self.loop.run_in_executor(self.engine, functools.partial(fn, *args, **kwargs))

    async def read(self, fn, *args, **kwargs):
        """Run a read-only store query off the event loop, beside the engine thread."""
        return await self.loop.run_in_executor(self.readers, functools.partial(fn, *args, **kwargs))

    def capability(self, dotted: str, default=None):
        try:
            return get_capability(self.ls.client_capabilities, dotted, default)
        except Exception:  # noqa: BLE001 - a malformed capability is an absent one
            return default

    def tell(self, level: str, message: str) -> None:
        """window/showMessage, once per distinct message."""
        if message in self._shown:
            return
        self._shown.add(message)
        kind = types.MessageType.Error if level == "error" else types.MessageType.Warning
        log.warning("%s", message)
        self.ls.window_show_message(types.ShowMessageParams(type=kind, message=f"Cairn: {message}"))

    def folder_for(self, path: Path | None) -> Folder | None:
        if path is None:
            return None
        best = None
        for f in self.folders:
            if f.contains(path) and (best is None or len(str(f.root)) > len(str(best.root))):
                best = f
        return best

    def is_draft(self, doc: Document) -> bool:
        from ..answers.json_answers import is_answer_file
        p = doc.path
        if p is None:
            return False
        if (p.suffix.lower() != ".md" and doc.language_id != "markdown") or is_answer_file(p):
            return False  # (a JSON answer is checked by _check_json)
        f = self.folder_for(p)
        return f is not None and not f.is_source(p)

    def uri_for(self, path: Path) -> str:
        doc = self.documents.by_path(path)
        return doc.uri if doc is not None else (from_fs_path(str(path)) or path.as_uri())

    # -- documents --------------------------------------------------------------------

    def did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        doc = self.documents.open(params.text_document)
        # whatever the document turns out to be: one opened while its folder is still being indexed
        # is known to be a draft only later, and its first check must still read its file's bytes
        # (an `encoding` problem keeps fixes from writing it) and ask the judge
        doc.disk_checked = False
        doc.judge_wanted = True
        if self.is_draft(doc):
            self.request_check(doc.path, 0)
        elif self._json_answer(doc):
            self.request_check(doc.path, 0)  # checked as the editor holds it from now on

    def _json_answer(self, doc: Document) -> bool:
        """Whether an open document is one of the workspace's JSON answer files."""
        from ..answers.json_answers import is_answer_file
        if doc.path is None or not is_answer_file(doc.path):
            return False
        folder = self.folder_for(doc.path)
        return folder is not None and doc.path in folder.answers

    def did_save(self, params: types.DidSaveTextDocumentParams) -> None:
        doc = self.documents.get(params.text_document.uri)
        if doc is not None and self.is_draft(doc):
            doc.judge_wanted = True
            self.judge_soon(doc.path)
        elif doc is not None and self._json_answer(doc):
            self.request_check(doc.path, 0)

    def did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        doc = self.documents.change(params, self.codec)
        if doc is not None and (self.is_draft(doc) or self._json_answer(doc)):
            self.request_check(doc.path)

    def did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        doc = self.documents.close(params.text_document.uri)
        if doc is None or doc.path is None:
            return
        folder = self.folder_for(doc.path)
        if folder is None:
            return
        if doc.path in folder.answers:
            self.request_check(doc.path, 0)  # back to what is on disk
        else:
            self._drop(folder, doc.path)

    def _drop(self, folder: Folder, path: Path) -> None:
        folder.drafts.pop(path, None)
        folder.json_answers.pop(path, None)
        affected = folder.reuse.remove(folder.ws.relpath(path))
        self.engine.submit(folder.forget, path)
        self._early.pop(path, None)
        uri = self._published.pop(path, None)
        if uri is not None:
            self.ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if affected:
            self._republish(folder, affected)
        self._notify_soon()

    # -- checking ---------------------------------------------------------------------

    def request_check(self, path: Path, delay: float | None = None) -> None:
        delay = self.options.debounce if delay is None else delay
        timer = self._timers.pop(path, None)
        if timer is not None:
            timer.cancel()
        if delay <= 0:
            self._start(path)
        else:
            self._timers[path] = self.loop.call_later(delay, self._start, path)

    def _start(self, path: Path) -> None:
        self._timers.pop(path, None)
        task = self._tasks.get(path)
        if task is not None and not task.done():
            self._again.add(path)
            return
        self._tasks[path] = asyncio.ensure_future(self._worker(path))

    async def _worker(self, path: Path) -> None:
        try:
            while True:
                self._again.discard(path)
                try:
                    await self._check(path)
                except Exception:  # one draft's failure never stops the others
                    log.exception("checking %s failed", path)
                if path not in self._again:
                    break
        finally:
            if self._tasks.get(path) is asyncio.current_task():
                self._tasks.pop(path, None)
                self.judge_soon(path)
                self.conflicts.soon(path)
            self._notify_soon()

    async def _check(self, path: Path) -> None:
        from ..answers.json_answers import is_answer_file
        await self._ready().wait()
        folder = self.folder_for(path)
        if folder is None:
            return
        if folder.config_error is not None:
            self._config_problem(folder, path)
            return
        if is_answer_file(path):
            await self._check_json(folder, path)
            return
        doc = self.documents.by_path(path)
        if doc is not None and not self.is_draft(doc):
            return
        previous = folder.drafts.get(path)
        kept: Kept | None = None
        if doc is not None:
            await self._read_disk(doc, path)
            if previous is not None and previous.is_open and previous.version == doc.version \
                    and previous.text == doc.text and previous.encoding_problem == doc.encoding_problem \
                    and previous.stamp == folder.stamp:
                return  # nothing changed since the last check
            text, version = doc.text, doc.version
            if previous is None:
                # the draft's first check since its folder was made: what it published last time, at once
                kept = await self._publish_kept(folder, doc, path)
            state = await self.run(
                folder.check, path, doc.uri, text, version, is_open=True,
                encoding_problem=doc.encoding_problem, previous=previous,
            )
            if self._moved_on(doc, path, version, text):
                # edited or closed meanwhile: another check is on its way; keep these verdicts
                # for it to start from, but do not show them
                if self.folder_for(path) is folder:
                    folder.drafts[path] = state
                return
        else:
            if path not in folder.answers:
                if path in folder.drafts or path in self._published:
                    self._drop(folder, path)
                return
            state = await self.run(folder.check_disk, path, self.uri_for(path), previous)
            if self.documents.by_path(path) is not None:
                return  # opened meanwhile: the editor's text wins
            if state is None:
                self._drop(folder, path)
                return
        if self.folder_for(path) is not folder:
            return  # the folder was rebuilt meanwhile
        folder.drafts[path] = state
        self._publish(state)
        if previous is None and state.is_open and state.final_fp is not None:
            self._keep_first(folder, state, kept)

    async def _publish_kept(self, folder: Folder, doc: Document, path: Path) -> Kept | None:
        """Publish the diagnostics kept in the index for the text the editor opened
        (kept_diagnostics.py), before the draft is parsed; the entry read, or None."""
        from . import reuse as lsp_reuse
        text, version = doc.text, doc.version
        try:
            kept = await self.run(folder.kept_first, path, doc.uri, text, doc.encoding_problem)
        except Exception:
            log.exception("reading the kept diagnostics of %s failed", path)
            return None
        if kept is None or self._moved_on(doc, path, version, text) or self.folder_for(path) is not folder:
            return kept
        rel = folder.ws.relpath(path)
        affected = folder.reuse.replace(rel, kept.uses)
        diags = kept.diagnostics + lsp_reuse.probed(folder.reuse, kept.probes)
        self._early.pop(path, None)
        self._send(path, doc.uri, diags, version)
        self._early[path] = (doc.uri, version, diags)
        log.info("%s: first diagnostics read from the index", rel)
        if affected:
            self._republish(folder, affected)
        return kept

    def _keep_first(self, folder: Folder, state: DraftState, kept: Kept | None) -> None:
        """Keep what a draft's first check published, for the next start (kept_diagnostics.py)."""
        from . import reuse as lsp_reuse
        own = state.lsp_diagnostics()
        probes = lsp_reuse.probes(state, self.codec)

        def keep() -> None:
            try:
                folder.keep_first(state, own, probes, kept)
            except Exception:
                log.exception("keeping the diagnostics of %s failed", state.path)

        self.engine.submit(keep)

    def _config_problem(self, folder: Folder, path: Path) -> None:
        """While a folder's configuration is refused, nothing is checked: each open draft gets one
        diagnostic on its first line naming the error (rather than a refusal on every citation)."""
        doc = self.documents.by_path(path)
        if doc is None or not self.is_draft(doc):
            if path in self._published:
                self._drop(folder, path)
            return
        first = doc.index.line_text(0)
        diag = types.Diagnostic(
            range=types.Range(start=types.Position(line=0, character=0),
                              end=types.Position(line=0, character=self.codec.to_client(first, len(first)))),
            severity=types.DiagnosticSeverity.Error, code=CONFIG_CODE, source=SOURCE,
            message=f"configuration error: {folder.config_error}; no citation is checked until it is fixed",
        )
        self._send(path, doc.uri, [diag], doc.version)

    async def _check_json(self, folder: Folder, path: Path) -> None:
        """A JSON answer file checked as `cairn check` checks it (json_answers.py): as the editor
        holds it while it is open, else from disk."""
        if path not in folder.answers:
            if path in folder.json_answers or path in self._published:
                self._drop(folder, path)
            return
        doc = self.documents.by_path(path)
        if doc is None:
            state = await self.run(folder.check_json, path, self.uri_for(path))
        else:
            await self._read_disk(doc, path)
            text, version = doc.text, doc.version
            state = await self.run(folder.check_json, path, doc.uri, text, version, doc.encoding_problem)
            if self._moved_on(doc, path, version, text):
                return  # edited or closed meanwhile: another check is on its way
        if self.folder_for(path) is not folder or path not in folder.answers:
            return  # the folder was rebuilt, or the file is no answer any more, meanwhile
        if state is None:
            self._drop(folder, path)
            return
        folder.json_answers[path] = state
        self._publish(state)

    # -- the judge ---------------------------------------------------------------------

    def _pending(self, path: Path) -> bool:
        return path in self._timers or (path in self._tasks and not self._tasks[path].done())

    def judge_soon(self, path: Path) -> None:
        self.judging.soon(path)

    @property
    def judging_now(self) -> bool:
        return self.judging.now

    async def _read_disk(self, doc: Document, path: Path) -> None:
        """Reads whether the open document's file on disk holds invalid UTF-8, once after it is opened
        or changes on disk (its `encoding` diagnostic stands while the editor shows U+FFFD)."""
        if not doc.disk_checked:
            doc.disk_invalid_utf8 = await self.run(_invalid_utf8, path)
            doc.disk_checked = True

    def _moved_on(self, doc: Document, path: Path, version: int | None, text: str) -> bool:
        """Whether the document was edited or closed since its text at `version` was taken to check."""
        now = self.documents.by_path(path)
        return now is not doc or now.version != version or now.text != text

    def _send(self, path: Path, uri: str, diags: list[types.Diagnostic], version: int | None) -> None:
        """Publish a file's diagnostics at `uri`, clearing them at the URI it was last published under
        when that differs (the file reopened under another spelling of its path)."""
        if self._early.pop(path, None) == (uri, version, diags):
            return  # published so already, from the index (_publish_kept)
        old = self._published.get(path)
        if old is not None and old != uri:
            self.ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=old, diagnostics=[]))
        self._published[path] = uri
        self.ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=version))

    def _publish(self, state: DraftState | JsonState, *, update: bool = True) -> None:
        from . import reuse as lsp_reuse
        diags = state.lsp_diagnostics()
        folder = self.folder_for(state.path)
        affected: set[str] = set()
        if folder is not None:
            # the span index follows what is published; others citing a span it changed are published again
            if update:
                affected = folder.reuse.replace(state.rel, lsp_reuse.uses_of(state))
            diags += lsp_reuse.diagnostics(folder.reuse, state, self.codec)
        self._send(state.path, state.uri, diags, state.version if state.is_open else None)
        if affected and folder is not None:
            self._republish(folder, affected)

    def _republish(self, folder: Folder, rels: set[str]) -> None:
        """Publish again the drafts whose `citation-reuse` warnings another draft's change may alter."""
        states: list[DraftState | JsonState] = [*folder.drafts.values(), *folder.json_answers.values()]
        for st in states:
            if st.rel in rels and st.path in self._published:
                self._publish(st, update=False)

    def _busy(self) -> bool:
        return bool(self._timers) or any(not t.done() for t in self._tasks.values())

    def _notify_soon(self) -> None:
        if self._notify_pending:
            return
        self._notify_pending = True
        self.loop.call_soon(self._notify)

    def _notify(self) -> None:
        self._notify_pending = False
        if self._busy():
            return  # the last check of the cycle will notify
        gc.enable()  # the start is over: collect as usual (cli/process.py: pause_gc_for_server_start)
        try:
            self.ls.protocol.notify(CHECKED, {"metrics": self.metrics().model_dump()})
        except Exception:
            log.exception("sending %s failed", CHECKED)
        if self._refresh_lenses and self.capability("workspace.code_lens.refresh_support", False):
            # verdicts changed without an edit (a source changed): lenses shown are stale
            self._refresh_lenses = False
            try:
                self.ls.workspace_code_lens_refresh(None)
            except Exception:
                log.exception("workspace/codeLens/refresh failed")

    def metrics(self):
        from ..report.base import metrics_of
        results = []
        for folder in self.folders:
            for p in sorted(folder.answers):
                st = folder.drafts.get(p)
                if st is not None:
                    results.append(st.result())
                elif (js := folder.json_answers.get(p)) is not None:
                    results += js.answers  # each answer of the file counts (SPEC section 5)
        return metrics_of(results, self.tiers())

    def tiers(self) -> list[str]:
        """The authority tiers source_quality counts by: those of the first folder that names any."""
        for folder in self.folders:
            tiers = folder.settings.config.authority.tiers
            if tiers:
                return list(tiers)
        return []

    async def check_now(self, path: Path, patience: float | None = None) -> bool:
        """Check a draft now (skipping the debounce) and wait for it; False when it took
        longer than `patience` seconds (it goes on in the background)."""
        timer = self._timers.pop(path, None)
        if timer is not None:
            timer.cancel()
        task = self._tasks.get(path)
        if task is None or task.done():
            self._start(path)
            task = self._tasks.get(path)
        elif timer is not None:
            self._again.add(path)
        if task is None:
            return True
        try:
            await asyncio.wait_for(asyncio.shield(task), patience)
        except TimeoutError:
            return False
        return True

    async def current(self, uri: str) -> tuple[Folder | None, DraftState | None]:
        """The verdicts of a document as it is now (checking it first if an edit is pending)."""
        if not self._ready().is_set():
            return None, None
        doc = self.documents.get(uri)
        path = doc.path if doc is not None else uri_to_path(uri)
        folder = self.folder_for(path)
        if folder is None or path is None or (doc is not None and not self.is_draft(doc)):
            return folder, None
        return folder, await self.current_path(path)

    @staticmethod
    def _fits(state: DraftState | None, doc: Document | None) -> bool:
        """Are these verdicts of the text the client has?"""
        if state is None:
            return False
        if doc is None:
            return not state.is_open
        return state.is_open and state.version == doc.version and state.text == doc.text

    async def current_path(self, path: Path, patience: float = 5.0) -> DraftState | None:
        """The verdicts of a draft's current text, waiting at most `patience` seconds for a
        pending check (a slow judge must not hang requests): else the last verdicts when
        they are of this very text, else None."""
        folder = self.folder_for(path)
        if folder is None or folder.config_error is not None:
            return None  # nothing is checked until the configuration is fixed
        deadline = self.loop.time() + patience
        for _ in range(4):
            doc = self.documents.by_path(path)
            state = folder.drafts.get(path)
            pending = path in self._timers or (path in self._tasks and not self._tasks[path].done())
            if not pending and self._fits(state, doc):
                return state
            if pending and self._indexing:
                break  # a check now would wait for the whole index run
            if doc is None and path not in folder.answers:
                return None
            left = deadline - self.loop.time()
            if left <= 0 or not await self.check_now(path, left):
                break
            folder = self.folder_for(path) or folder
        state = folder.drafts.get(path)
        return state if self._fits(state, self.documents.by_path(path)) else None

    async def current_json(self, path: Path, patience: float = 5.0) -> JsonState | None:
        """The verdicts of a JSON answer file, after its pending check (waiting at most
        `patience` seconds; else the last verdicts)."""
        folder = self.folder_for(path)
        if folder is None or path not in folder.answers:
            return None
        if (self._pending(path) and not self._indexing) or path not in folder.json_answers:
            await self.check_now(path, patience)
            folder = self.folder_for(path) or folder
        return folder.json_answers.get(path)

    def shutdown(self) -> None:
        for t in self._timers.values():
            t.cancel()
        self._timers.clear()
        self.judging.shutdown()
        self.conflicts.shutdown()
        self.engine.shutdown(wait=False, cancel_futures=True)
        self.readers.shutdown(wait=False, cancel_futures=True)


def _invalid_utf8(path: Path) -> bool:
    try:
        data = read_regular(path)  # a pipe opened in the editor is refused, never waited on
    except OSError:
        return False
    try:
        data.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True
