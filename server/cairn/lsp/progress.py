"""Progress shown in the editor ($/progress) for long work: indexing and judging.

A run gets a token when the client can show progress (window.workDoneProgress), begins and ends
on the event loop, and is reported from the worker thread doing the work, one report a percent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from lsprotocol import types

log = logging.getLogger(__name__)

ProgressFn = Callable[[int, int, str], None]  # done, total, the item at hand (from a worker thread)


class Progress:
    """The $/progress tokens and reports of one server."""

    def __init__(self, ls: Any, can_show: Callable[[], bool]) -> None:
        self.ls = ls
        self._can_show = can_show
        self._count = 0

    async def token(self, kind: str) -> str | None:
        """A new $/progress token, or None when the client cannot show progress."""
        if not self._can_show():
            return None
        self._count += 1
        token = f"cairn-{kind}-{self._count}"
        try:
            await asyncio.wait_for(self.ls.work_done_progress.create_async(token), 10)
        except Exception as exc:  # noqa: BLE001 - progress is a nicety; any refusal means none
            log.info("no progress shown (%s)", exc)
            return None
        return token

    def reporter(self, token: str) -> ProgressFn:
        """progress(done, total, name) for a worker thread: $/progress reports of `token`."""
        wp = self.ls.work_done_progress
        loop = asyncio.get_running_loop()
        last = [-1]

        def progress(done: int, total: int, name: str) -> None:  # a worker thread
            pct = int(done * 100 / total) if total else 100
            if pct == last[0]:
                return
            last[0] = pct
            msg = f"{done}/{total}" + (f" {name}" if name else "")
            loop.call_soon_threadsafe(
                wp.report, token, types.WorkDoneProgressReport(message=msg, percentage=pct, cancellable=False)
            )

        return progress

    async def around(self, token: str | None, title: str, work: Callable[[ProgressFn | None], Any],
                     run: Callable[..., Awaitable[Any]]) -> Any:
        """`run(work, progress)` between a begin and an end of `token` (without a token: no reports)."""
        wp = self.ls.work_done_progress
        if token is None:
            return await run(work, None)
        wp.begin(token, types.WorkDoneProgressBegin(title=title, percentage=0, cancellable=False))
        res = None
        try:
            res = await run(work, self.reporter(token))
            return res
        finally:
            end = f"{res.total} source(s)" if res is not None and hasattr(res, "total") else "stopped"
            wp.end(token, types.WorkDoneProgressEnd(message=end))
