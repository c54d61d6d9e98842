"""What changes under a running server: source and draft files on disk (the watchers), the editor's
settings, and the workspace folders."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from .config import editor_section, folder_settings, plain
from .documents import uri_to_path
from .watch import classify

if TYPE_CHECKING:
    from .checking import Folder

log = logging.getLogger(__name__)


class Changes:
    """The session's answers to changes on disk, in settings and in the folders."""

    if TYPE_CHECKING:
        # a part of session.Session: the rest of the session (its state and the other parts'
        # methods) is seen as Any here, as the server's feature modules see the session
        def __getattr__(self, name: str) -> Any: ...

    _refresh_lenses: bool

    async def watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        from ..store import StoreError
        await self._ready().wait()
        plan = classify(self, params.changes)
        for folder in plan.config:
            await self.reload_folder(folder)
        for folder, idents in plan.sources.items():
            if folder not in self.folders:
                continue
            try:
                res, affected = await self.run(folder.reindex, sorted(idents))
            except StoreError as exc:
                log.warning("%s: not re-indexed now: %s", ", ".join(sorted(idents)), exc)
                continue
            for src, msg in sorted(res.errors.items()):
                log.warning("%s: skipped: %s", src, msg)
            if res.indexed or res.removed:
                log.info("re-indexed %s; re-checking %d draft(s)", ", ".join(res.indexed + res.removed), len(affected))
            for p in affected:
                self.request_check(p, 0)
            self._refresh_lenses = self._refresh_lenses or bool(affected)
        for folder in plan.rescan:
            if folder in self.folders:
                await self._index_folder(folder)
                await self._recheck_folder(folder)
        for folder, changes in plan.drafts.items():
            if folder not in self.folders:
                continue
            if any(kind != types.FileChangeType.Changed or p not in folder.answers for p, kind in changes):
                await self._refresh_answers(folder)
            for p, _ in changes:
                doc = self.documents.by_path(p)
                if doc is not None:
                    doc.disk_checked = False
                    self.request_check(p, 0)
                elif p in folder.answers or p in folder.drafts or p in folder.json_answers:
                    self.request_check(p, 0)

    async def _refresh_answers(self, folder: Folder) -> None:
        old = set(folder.answers)
        try:
            folder.answers = await self.run(folder.answers_now)
        except Exception:
            log.exception("finding the drafts of %s failed", folder.root)
            return
        for p in folder.answers - old:
            self.request_check(p, 0)
        for p in old - folder.answers:
            if self.documents.by_path(p) is None:
                self._drop(folder, p)
        self._notify_soon()

    async def _recheck_folder(self, folder: Folder) -> None:
        self._refresh_lenses = True
        for p in set(folder.drafts) | set(folder.json_answers) | folder.answers:
            self.request_check(p, 0)
        for doc in self.documents:
            if self.is_draft(doc) and self.folder_for(doc.path) is folder:
                self.request_check(doc.path, 0)

    async def reindex_all(self) -> dict:
        await self._ready().wait()
        total = 0
        for folder in list(self.folders):
            res = await self._index_folder(folder)
            total += res.total
            await self._recheck_folder(folder)
        return {"sources": total}

    async def did_change_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        await self._ready().wait()
        if self.capability("workspace.configuration", False):
            await self._fetch_settings()
        else:
            s = plain(params.settings)
            section = s.get("cairn") if isinstance(s, dict) and "cairn" in s else s
            section = editor_section(section)
            self._editor = {"": section, **{u: section for u in self.folder_uris}}
        for folder in list(self.folders):
            await self.reload_folder(folder)

    async def reload_folder(self, folder: Folder) -> None:
        """Settings may have changed (cairn.toml or the client's): rebuild the folder when they did."""
        uri = folder.uri
        settings, messages, error = folder_settings(folder.root, self._editor.get(uri) or self._editor.get("", {}))
        if (settings.config == folder.settings.config and settings.judge_url_trusted == folder.settings.judge_url_trusted
                and settings.store_url_trusted == folder.settings.store_url_trusted and error == folder.config_error):
            for level, msg in messages:
                self.tell(level, f"{folder.root.name}: {msg}")
            return
        log.info("%s: the configuration changed; re-indexing and re-checking", folder.root.name)
        await self.run(lambda: None)  # let the engine finish what it is doing with the old folder
        new = self._make_folder(folder.root, uri, replacing=folder)
        for p in list(self._published):
            if folder.contains(p):
                self._drop(folder, p)
        for doc in self.documents:
            if doc.path is not None and new.contains(doc.path):
                doc.judge_wanted = True  # a new judge, perhaps: judge the open drafts once again
        await self._index_folder(new)
        await self._recheck_folder(new)

    async def did_change_workspace_folders(self, params: types.DidChangeWorkspaceFoldersParams) -> None:
        await self._ready().wait()
        for removed in params.event.removed or []:
            path = uri_to_path(removed.uri)
            for f in list(self.folders):
                if path is not None and f.uri == removed.uri:
                    for p in list(self._published):
                        if f.contains(p):
                            self._drop(f, p)
                    self.folders.remove(f)
            if removed.uri in self.folder_uris:
                self.folder_uris.remove(removed.uri)
        added = []
        for a in params.event.added or []:
            self.folder_uris.append(a.uri)
            await self._fetch_settings()
            new = self._add_folder(a.uri)
            if new is not None:
                added.append(new)
        if added:
            await self._register()
        for f in added:
            await self._index_folder(f)
            await self._recheck_folder(f)
