"""How the server starts: the client's capabilities and folders, the settings fetched, the file
watchers registered, each folder indexed and its drafts checked."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.uris import from_fs_path

from .config import editor_section, folder_settings, server_options
from .documents import uri_to_path
from .positions import Codec
from .watch import watchers

if TYPE_CHECKING:
    from .checking import Folder

log = logging.getLogger(__name__)


class Startup:
    """The session's start: folders, settings, watchers, the first index and check."""

    if TYPE_CHECKING:
        # a part of session.Session: the rest of the session (its state and the other parts'
        # methods) is seen as Any here, as the server's feature modules see the session
        def __getattr__(self, name: str) -> Any: ...

    _indexing: int

    def initialize(self, params: types.InitializeParams) -> None:
        self.codec = Codec(self.ls.workspace.position_encoding)
        self.options, problems = server_options(params.initialization_options)
        for p in problems:
            log.warning("%s", p)
        uris = [f.uri for f in params.workspace_folders or []]
        if not uris:
            root = params.root_uri or (from_fs_path(params.root_path) if params.root_path else None)
            if root:
                uris = [root]
        self.folder_uris = uris

    async def start(self) -> None:
        """After `initialized`: settings, watchers, indexing (with progress), then the drafts."""
        ready = self._ready()
        try:
            await self._fetch_settings()
            for uri in self.folder_uris:
                self._add_folder(uri)
            await self._register()
            for folder in list(self.folders):
                await self._index_folder(folder)
        except Exception:
            log.exception("starting failed; drafts are checked without a fresh index")
        finally:
            ready.set()
        await self.check_everything()

    def _add_folder(self, uri: str) -> Folder | None:
        from ..core.config import ConfigError, find_root
        from ..store import StoreError
        path = uri_to_path(uri)
        if path is None or not path.is_dir():
            log.warning("workspace folder %s is not a local folder; skipped", uri)
            return None
        root = find_root(path)
        for f in self.folders:
            if f.root == root.resolve():
                return f
        try:
            return self._make_folder(root, uri)
        except (StoreError, ConfigError) as exc:  # the index cannot be used, or its URL is not allowed
            self.tell("error", f"{root.name}: {exc}; this folder is not checked")
            return None

    def _make_folder(self, root: Path, uri: str, replacing: Folder | None = None) -> Folder:
        from .checking import Folder
        settings, messages, error = folder_settings(root, self._editor.get(uri) or self._editor.get("", {}))
        for level, msg in messages:
            self.tell(level, f"{root.name}: {msg}")
        # the index is kept unless the settings now name another one
        keep = replacing is not None and replacing.settings.config.store == settings.config.store
        folder = Folder(root, settings, self.codec, store=replacing.ws.store if keep and replacing is not None else None,
                        uri=uri, config_error=error)
        if folder.judge_problem:
            self.tell("warning", folder.judge_problem)
        if folder.ws.store.rebuilt_reason:
            self.tell("warning", f"the index was damaged ({folder.ws.store.rebuilt_reason}) and is being rebuilt")
        if replacing is not None:
            self.folders[self.folders.index(replacing)] = folder
        else:
            self.folders.append(folder)
        return folder

    async def _fetch_settings(self) -> None:
        """The `cairn` section of each folder: workspace/configuration, else initializationOptions."""
        fallback = editor_section(self.options.settings)
        self._editor = {"": fallback}
        if not self.capability("workspace.configuration", False):
            for uri in self.folder_uris:
                self._editor[uri] = fallback
            return
        items = [types.ConfigurationItem(section="cairn")] + [
            types.ConfigurationItem(scope_uri=uri, section="cairn") for uri in self.folder_uris
        ]
        try:
            got = await asyncio.wait_for(
                self.ls.workspace_configuration_async(types.ConfigurationParams(items=items)), 10
            )
        except Exception as exc:  # noqa: BLE001 - any failure of the client falls back to its initializationOptions
            log.warning("workspace/configuration failed (%s); using initializationOptions", exc)
            got = None
        got = list(got) if isinstance(got, (list, tuple)) else []
        self._editor[""] = editor_section(got[0]) if got else fallback
        for i, uri in enumerate(self.folder_uris):
            v = got[i + 1] if i + 1 < len(got) else None
            self._editor[uri] = editor_section(v) if v is not None else self._editor[""]

    async def _register(self) -> None:
        regs = []
        if self.capability("workspace.did_change_watched_files.dynamic_registration", False):
            relative = bool(self.capability("workspace.did_change_watched_files.relative_pattern_support", False))
            regs.append(
                types.Registration(
                    id="cairn-watch",
                    method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                    register_options=types.DidChangeWatchedFilesRegistrationOptions(
                        watchers=watchers(self.folders, relative)
                    ),
                )
            )
        if self.capability("workspace.did_change_configuration.dynamic_registration", False):
            regs.append(
                types.Registration(id="cairn-config", method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
                                   register_options=types.DidChangeConfigurationRegistrationOptions(section="cairn"))
            )
        if not regs:
            return
        try:
            await asyncio.wait_for(
                self.ls.client_register_capability_async(types.RegistrationParams(registrations=regs)), 10
            )
        except Exception as exc:  # noqa: BLE001 - a client without watchers still gets cairn.reindex
            log.warning("the client did not accept the file watchers (%s); sources are re-read on cairn.reindex", exc)

    async def _index_folder(self, folder: Folder):
        from ..index.workspace import IndexResult
        from ..store import StoreError
        if folder.config_error is not None:
            # a refused configuration reads no source (and leaves the index as it was) until it is fixed
            folder.answers = set()
            return IndexResult()
        try:
            res = await self.with_progress(f"Cairn: indexing {folder.root.name}", folder.index_all)
        except StoreError as exc:
            # another process holds the index: what it holds is still read; the next change re-indexes
            self.tell("warning", f"{folder.root.name}: not indexed now: {exc}")
            return IndexResult()
        for src, msg in sorted(res.errors.items()):
            log.warning("%s: skipped: %s", src, msg)
        for src, msgs in sorted(res.warnings.items()):
            for m in msgs:
                log.warning("%s: %s", src, m)
        for src in res.denied:
            log.warning("%s: not read: it leaves the source roots", src)
        log.info("%s: indexed %d source(s), %d unchanged, %d removed, %d skipped", folder.root.name,
                 len(res.indexed), res.unchanged, len(res.removed), len(res.errors))
        try:
            folder.answers = await self.run(folder.answers_now)
        except Exception:
            log.exception("finding the drafts of %s failed", folder.root)
        return res

    async def with_progress(self, title: str, work):
        """Run `work(progress)` on the engine thread, reporting $/progress when the client can show it."""
        token = await self.progress.token("index")
        self._indexing += 1
        try:
            return await self.progress.around(token, title, work, self.run)
        finally:
            self._indexing -= 1

    async def check_everything(self) -> None:
        await self._ready().wait()
        paths: list[Path] = []
        for folder in self.folders:
            paths += sorted(folder.answers)
        for doc in self.documents:
            if self.is_draft(doc) and doc.path not in paths:
                paths.append(doc.path)
        for p in paths:
            self.request_check(p, 0)
        self._notify_soon()  # the cycle's notification, even when there is nothing to check
