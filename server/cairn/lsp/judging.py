"""The judge in the editor: a saved or opened draft's claims asked of the judge in the background,
one run a draft (a newer save cancels the older run), with progress, and the verdicts applied to
the draft when its text is still the one judged. The judge is asked on its own threads, never
on the engine thread, so checking goes on meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

if TYPE_CHECKING:
    from .state import DraftState
    from .views import FolderView, SessionView

log = logging.getLogger(__name__)


class Judging:
    """The judge runs of one server."""

    def __init__(self, session: SessionView) -> None:
        self.session = session
        # judge runs (network; each asks `concurrency` claims at a time), never on the engine thread
        self.pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="cairn-judging")
        self._runs: dict[Path, threading.Event] = {}  # the cancel event of each draft's run
        self._now = 0  # runs on the pool's threads (written there, under _lock)
        self._lock = threading.Lock()

    def soon(self, path: Path) -> None:
        """Judge an open draft that asked for it (opened, saved) once its check is done;
        while a check is pending, the check's end calls this again."""
        doc = self.session.documents.by_path(path)
        if doc is None or not doc.judge_wanted or self.session._pending(path):
            return
        folder = self.session.folder_for(path)
        state = folder.drafts.get(path) if folder is not None else None
        if folder is None or state is None or not self.session._fits(state, doc):
            return  # not checked yet (still starting)
        doc.judge_wanted = False
        try:
            self._start(folder, state)
        except Exception:
            log.exception("judging %s failed", path)

    def _start(self, folder: FolderView, state: DraftState) -> None:
        from ..verify.verdicts import resolved_quotes
        judge: Any = folder.judge  # one that can be asked in bulk has judge_many and name (cairn.judge)
        if judge is None or getattr(judge, "problem", None) or not hasattr(judge, "judge_many"):
            return  # no judge, or one that cannot be asked (its fallbacks are shown already)
        todo, seen = [], set()
        for _, cr, _ in state.claims():
            if id(cr) not in seen and cr.judge != judge.name and resolved_quotes(cr):
                seen.add(id(cr))
                todo.append(cr)
        if not todo:
            return  # every claim is decided by a verdict already known
        previous = self._runs.pop(state.path, None)
        if previous is not None:
            previous.set()  # a newer save: the older run stops asking
        cancel = threading.Event()
        self._runs[state.path] = cancel
        asyncio.ensure_future(self._run(folder, state, todo, cancel))

    async def _run(self, folder: FolderView, state: DraftState, todo: list, cancel: threading.Event) -> None:
        path = state.path
        n = len(todo)
        title = f"Cairn: judging {n} claim{'s' if n != 1 else ''}"
        token = await self.session.progress.token("judge")
        wp = self.session.ls.work_done_progress
        if token is not None:
            wp.begin(token, types.WorkDoneProgressBegin(title=title, percentage=0, cancellable=False))
        judged = None
        try:
            log.info("%s: judging %d claim(s)", state.rel, n)
            judged = await self.session.loop.run_in_executor(
                self.pool,
                functools.partial(
                    self._judge_claims, todo, folder.judge, folder.settings.config.threshold,
                    progress=self.session.progress.reporter(token) if token is not None else None, cancel=cancel,
                ),
            )
        except Exception:
            log.exception("judging %s failed", path)
        finally:
            if self._runs.get(path) is cancel:
                del self._runs[path]
            if token is not None:
                wp.end(token, types.WorkDoneProgressEnd(message="stopped" if judged is None or cancel.is_set()
                                                        else f"{n} judged"))
        if judged is None or cancel.is_set():
            return  # a newer run (or shutdown): the answers are cached for it
        await self._apply(folder, state, {id(a): b for a, b in zip(todo, judged) if a is not b})

    def _judge_claims(self, *args, **kwargs):  # a `judging` thread
        from ..judge.providers import judge_claims

        with self._lock:
            self._now += 1
        try:
            return judge_claims(*args, **kwargs)
        finally:
            with self._lock:
                self._now -= 1

    @property
    def now(self) -> bool:
        """Is the judge being asked (requests in flight finish only within its timeout)?"""
        with self._lock:
            return self._now > 0

    async def _apply(self, folder: FolderView, state: DraftState, judged: dict) -> None:
        """The judge's verdicts replace the lexical ones, when the draft's text is still the one judged."""
        current = self._target(folder, state)
        if current is None or not judged:
            return
        new = await self.session.run(folder.with_verdicts, current, judged)
        if self._target(folder, state, current) is None or new is current:
            return
        folder.drafts[state.path] = new
        self.session._publish(new)
        self.session._refresh_lenses = True  # the lenses shown are the lexical ones
        self.session._notify_soon()

    def _target(self, folder: FolderView, state: DraftState, expected: DraftState | None = None):
        """The draft's verdicts now, when its text is still the one judged (else None)."""
        path = state.path
        doc = self.session.documents.by_path(path)
        if doc is None or self.session.folder_for(path) is not folder:
            return None
        if doc.version != state.version or doc.text != state.text:
            # edited meanwhile: the verdicts are cached; the checks of the pieces edited apply them
            log.info("%s: edited while it was judged; its verdicts wait for the next check", state.rel)
            return None
        current = folder.drafts.get(path)
        if self.session._pending(path) or not self.session._fits(current, doc) or (expected is not None and current is not expected):
            # checked again meanwhile, same text: judge after that check (the answers are cached)
            doc.judge_wanted = True
            self.soon(path)
            return None
        return current

    def shutdown(self) -> None:
        for cancel in self._runs.values():
            cancel.set()
        self._runs.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)
