"""What the server's feature modules see of a workspace folder and of the session.

`checking.Folder` and `session.Session` are the real objects; the modules that take them as
arguments (`cited_text`, `definition`, `lens`, `judging`) see only these protocols, so none of them
imports the module that defines the object (no import loop, type-only imports counted).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..core.config import Settings
    from ..core.model import ClaimResult
    from ..index.workspace import Workspace
    from ..judge.cached import CachingJudge
    from .documents import Document, Documents
    from .json_answers import JsonState
    from .positions import Codec, SourceTexts
    from .progress import Progress
    from .state import DraftState


class FolderView(Protocol):
    """One workspace folder of the server (checking.Folder)."""

    root: Path
    ws: Workspace
    codec: Codec
    texts: SourceTexts
    judge: CachingJudge | None
    drafts: dict[Path, DraftState]

    @property
    def settings(self) -> Settings: ...

    def with_verdicts(self, state: DraftState, judged: dict[int, ClaimResult]) -> DraftState: ...


class SessionView(Protocol):
    """The server's session as the judge runs use it (session.Session)."""

    ls: LanguageServer
    loop: asyncio.AbstractEventLoop
    documents: Documents
    progress: Progress
    _refresh_lenses: bool

    def folder_for(self, path: Path | None) -> Any: ...

    def _pending(self, path: Path) -> bool: ...

    def _fits(self, state: DraftState | None, doc: Document | None) -> bool: ...

    def _publish(self, state: DraftState | JsonState, *, update: bool = True) -> None: ...

    def _notify_soon(self) -> None: ...

    def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Awaitable[Any]: ...
