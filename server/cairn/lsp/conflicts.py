"""Sources that disagree with a claim, in the editor (`conflicting-source`, verify/conflicts.py):
never on the typing path. A check of an edit verifies without the search (the folder's verifier has
`conflicts` off); once a draft's check is done and the editor has been quiet for DELAY seconds,
its verified claims are searched one at a time on the engine thread (so an edit's check waits for
one claim at most), and the findings are published when all are in and the draft's text is still
the one searched. Findings are kept per claim and index state (the folder's epoch and generation),
so a later check of an edited draft gets them back at once.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.model import ClaimResult, Diagnostic

# the code of verify/conflicts.py, said here so that loading the server loads no engine (tests/unit/test_fast_start.py)
CODE = "conflicting-source"

if TYPE_CHECKING:
    from .state import DraftState

log = logging.getLogger(__name__)

DELAY = 0.5  # seconds of quiet after a check before the search starts
KEPT = 4096  # claims whose findings are kept


class Conflicts:
    """The background searches of one server."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self._runs: dict[Path, asyncio.Task] = {}
        self._found: dict[tuple, tuple[tuple[str, bool], ...]] = {}  # (stamp, claim key) -> (message, fails)

    def soon(self, path: Path) -> None:
        """Search the draft's verified claims once its check is done (the session calls this then)."""
        s = self.session
        folder = s.folder_for(path)
        state = folder.drafts.get(path) if folder is not None else None
        doc = s.documents.by_path(path)
        if folder is None or state is None or doc is None or s._pending(path) or not s._fits(state, doc):
            return  # (open drafts only: the workspace's others are searched by `cairn check`)
        if folder.settings.config.authority.conflicts == "off":
            return
        old = self._runs.pop(path, None)
        if old is not None and not old.done():
            old.cancel()
        self._runs[path] = asyncio.ensure_future(self._run(folder, state))

    async def _run(self, folder: Any, state: DraftState) -> None:
        try:
            await asyncio.sleep(DELAY)
            changed: dict[int, ClaimResult] = {}
            for _, cr, _ in state.claims():
                if not cr.supported or id(cr) in changed or any(d.code == CODE for d in cr.diagnostics):
                    continue
                key = (folder.stamp, cr.claim.key)
                found = self._found.get(key)
                if found is None:
                    new = await self.session.run(folder.verifier.with_conflicts, cr)
                    found = tuple((d.message, d.strict) for d in new.diagnostics if d.code == CODE)
                    if len(self._found) >= KEPT:
                        self._found.clear()
                    self._found[key] = found
                    if self._stale(folder, state):
                        return  # edited or checked again meanwhile: that check's end searches again
                if found:
                    diags = [*cr.diagnostics, *(Diagnostic(CODE, m, cr.claim.line, cr.claim.range, strict=f)
                                                for m, f in found)]
                    changed[id(cr)] = replace(cr, diagnostics=diags, supported=_settled(cr.claim, diags))
            if not changed or self._stale(folder, state):
                return
            new_state = await self.session.run(folder.with_verdicts, state, changed)
            if self._stale(folder, state) or new_state is state:
                return
            folder.drafts[state.path] = new_state
            self.session._publish(new_state)
            self.session._refresh_lenses = True
            self.session._notify_soon()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("searching %s for conflicting sources failed", state.rel)
        finally:
            if self._runs.get(state.path) is asyncio.current_task():
                del self._runs[state.path]

    def _stale(self, folder: Any, state: DraftState) -> bool:
        s = self.session
        return (s.folder_for(state.path) is not folder or folder.drafts.get(state.path) is not state
                or s._pending(state.path) or not s._fits(state, s.documents.by_path(state.path)))

    def shutdown(self) -> None:
        for task in self._runs.values():
            task.cancel()
        self._runs.clear()


def _settled(claim: Any, diags: list[Diagnostic]) -> bool:
    from ..verify.verdicts import _settle  # the engine, loaded when a conflict is first found

    return _settle(claim, diags)
