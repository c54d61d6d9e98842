"""`cairn serve`: the language server (LSP 3.17 over stdio, pygls 2).

All the wiring is here: which LSP method goes to which feature module. The
features convert between engine and protocol types; the verdicts are the
engine's (verify.py), the timing is the session's (session.py).

A fast start: this module loads only pygls, lsprotocol and the server's own glue, so
`initialize` is answered from the features registered here before the session (and with it
the configuration, the store and the drafts' reader) is loaded; the session is made on first
use, which is the `initialized` notification that follows the answer
(tests/unit/test_fast_start.py).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import FeatureRequestError, JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from .. import __version__
from ..core.terminal import safe
from . import log as log_mod
from . import names
from .framing import FramedStdin

if TYPE_CHECKING:
    from .cite_action import CiteAction
    from .session import Session

log = logging.getLogger(__name__)


class _Answered:
    """A request whose message could not be read, already answered with its error."""


_ANSWERED = _Answered()


class CairnProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]):
        # pygls logs a request it cannot read (params of the wrong shape) and drops it, and the
        # client waits for an answer forever: JSON-RPC answers every request, here with its error
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            msg_id = data.get("id")
            if "method" in data and isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool):
                self._send_response(msg_id, error=exc.to_response_error())
                return _ANSWERED
            raise

    def handle_message(self, message):
        if message is _ANSWERED:
            return
        super().handle_message(message)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        # UTF-8 when the client offers it (SPEC section 8), else its own preference order
        general = params.capabilities.general
        if general is not None and general.position_encodings:
            encs = list(general.position_encodings)
            if types.PositionEncodingKind.Utf8 in encs:
                encs.remove(types.PositionEncodingKind.Utf8)
                general.position_encodings = [types.PositionEncodingKind.Utf8, *encs]
        return (yield from super().lsp_initialize(params))

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        # The session keeps the text itself (documents.py explains why); pygls's copy is not updated.
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None


class CairnServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "cairn",
            __version__,
            protocol_cls=CairnProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self._session: Session | None = None
        self._cite: CiteAction | None = None
        self._initialize_params: types.InitializeParams | None = None

    @property
    def session(self) -> Session:
        """The session, made on first use (after `initialize` is answered, in order), with the
        `initialize` parameters the client sent."""
        if self._session is None:
            from .session import Session

            self._session = Session(self)
            if self._initialize_params is not None:
                self._session.initialize(self._initialize_params)
        return self._session

    @property
    def cite(self) -> CiteAction:
        """"Cite a source for this claim" (cite_action.py), made on first use."""
        if self._cite is None:
            from .cite_action import CiteAction

            self._cite = CiteAction(self.session)
        return self._cite

    def initialize_later(self, params: types.InitializeParams) -> None:
        """Keep the `initialize` parameters for the session; applied at once when it exists."""
        self._initialize_params = params
        if self._session is not None:
            self._session.initialize(params)

    def report_server_error(self, error: Exception, source) -> None:
        # logged, not shown: a failing handler must not flood the writer with pop-ups;
        # a failed request is answered with its error (and pygls logs it) already
        if source is FeatureRequestError:
            return
        log.error("server error (%s): %s", getattr(source, "__name__", source), error)


def guarded(default=None):
    """A handler that fails logs the error and answers `default`; the server goes on."""

    def wrap(fn):
        if asyncio.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def run_async(params):
                try:
                    return await fn(params)
                except Exception:
                    log.exception("%s failed", fn.__name__)
                    return default

            return run_async

        @functools.wraps(fn)
        def run(params):
            try:
                return fn(params)
            except Exception:
                log.exception("%s failed", fn.__name__)
                return default

        return run

    return wrap


def create_server() -> CairnServer:
    server = CairnServer()
    handler = log_mod.setup(server)

    # -- lifecycle --------------------------------------------------------------------

    @server.feature(types.INITIALIZE)
    @guarded()
    def initialize(params: types.InitializeParams):
        log_mod.bind_loop(handler, asyncio.get_running_loop())
        # nothing the answer holds comes from the session: it is made after the answer is sent
        server.initialize_later(params)

    @server.feature(types.INITIALIZED)
    @guarded()
    def initialized(params: types.InitializedParams):
        asyncio.ensure_future(server.session.start())

    @server.feature(types.SHUTDOWN)
    @guarded()
    def shutdown(params):
        if server._session is not None:  # a session never made has nothing to stop
            server._session.shutdown()

    # -- documents ---------------------------------------------------------------------

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(params: types.DidOpenTextDocumentParams):
        server.session.did_open(params)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(params: types.DidChangeTextDocumentParams):
        server.session.did_change(params)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @guarded()
    def did_save(params: types.DidSaveTextDocumentParams):
        server.session.did_save(params)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(params: types.DidCloseTextDocumentParams):
        server.session.did_close(params)

    # -- workspace ---------------------------------------------------------------------

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded()
    async def watched_files(params: types.DidChangeWatchedFilesParams):
        await server.session.watched_files(params)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded()
    async def did_change_configuration(params: types.DidChangeConfigurationParams):
        await server.session.did_change_configuration(params)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded()
    async def did_change_folders(params: types.DidChangeWorkspaceFoldersParams):
        await server.session.did_change_workspace_folders(params)

    # -- features ------------------------------------------------------------------------

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded()
    async def on_hover(params: types.HoverParams):
        from . import cited_text, hover
        session = server.session
        folder, state = await session.current(params.text_document.uri)
        if folder is None or state is None:
            return None
        virtual = cited_text.client_supports(session.capability("experimental"))
        return hover.hover(folder, state, session.codec, params.position.line, virtual=virtual)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded()
    async def on_definition(params: types.DefinitionParams):
        from . import cited_text, definition
        session = server.session
        folder, state = await session.current(params.text_document.uri)
        if folder is None or state is None:
            return None
        virtual = cited_text.client_supports(session.capability("experimental"))
        # a client without cairn-source: documents gets the cited text as a read-only file
        return await session.read(definition.definition, folder, state, params.position.line, virtual=virtual,
                                  files=not virtual)

    @server.feature(names.REQUEST)
    async def on_source_text(params):  # not guarded: a refusal is the request's error
        return await server.session.read(cited_text_request, server.session, params)

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    @guarded(default=[])
    async def on_code_lens(params: types.CodeLensParams):
        from . import lens
        folder, state = await server.session.current(params.text_document.uri)
        if folder is None or state is None:
            return []
        return lens.code_lenses(state)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, names.FIX_ALL],
                                resolve_provider=True),
    )
    @guarded(default=[])
    async def on_code_action(params: types.CodeActionParams):
        from . import actions
        session = server.session
        folder, state = await session.current(params.text_document.uri)
        if folder is None or state is None:
            return []
        doc_changes = bool(session.capability("workspace.workspace_edit.document_changes", False))
        store = folder.ws.store if folder is not None else None
        found = actions.code_actions(state, session.codec, params, doc_changes, store)
        return found + await server.cite.code_actions(folder, state, params)

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def on_code_action_resolve(params: types.CodeAction):
        try:
            return await server.cite.resolve(params)
        except Exception:
            log.exception("codeAction/resolve failed")
            return params

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[":", " ", '"'], resolve_provider=False),
    )
    @guarded()
    async def on_completion(params: types.CompletionParams):
        from . import completion
        session = server.session
        doc = session.documents.get(params.text_document.uri)
        if doc is None or not session.is_draft(doc):
            return None
        folder = session.folder_for(doc.path)
        if folder is None or not session.is_ready:
            return None
        return await completion.complete(session, folder, doc, params.position)

    # -- commands --------------------------------------------------------------------------

    @server.command(names.REPORT)
    async def report_command(*args):
        from . import commands
        return await commands.report(server.session)

    @server.command(names.REPORT_HTML)
    async def report_html_command(*args):
        from . import commands
        return await commands.report_html(server.session)

    @server.command(names.REINDEX)
    async def reindex_command(*args):
        from . import commands
        return await commands.reindex(server.session)

    @server.command(names.CITE_SELECTION)
    async def cite_selection_command(*args):
        from . import commands
        return await commands.cite_selection(server.session, list(args))

    @server.command(names.BIND_PASTED)
    async def bind_pasted_command(*args):
        from . import commands
        return await commands.bind_pasted(server.session, list(args))

    @server.command(names.ASK)
    async def ask_command(*args):
        from . import commands
        return await commands.ask(server.session, list(args))

    @server.command(names.EVIDENCE)
    async def evidence_command(*args):
        return await server.cite.command(list(args))

    return server


def cited_text_request(session: Session, params) -> dict:
    """`cairn/sourceText`: the text of a cairn-source: document, or a request error
    saying why it cannot be served."""
    from pygls.exceptions import JsonRpcInvalidParams

    from . import cited_text
    from .config import plain

    raw = plain(params)
    uri = raw.get("uri") if isinstance(raw, dict) else None
    if not isinstance(uri, str):
        raise JsonRpcInvalidParams("cairn/sourceText: expected {\"uri\": \"cairn-source:...\"}")
    try:
        target = cited_text.parse_uri(uri)
        folder = cited_text.folder_by_root(session.folders, target.root)
        if folder is None:
            raise cited_text.CitedTextError("not a workspace folder of this server")
        text, _ = cited_text.served_text(folder, target)
    except cited_text.CitedTextError as exc:
        raise JsonRpcInvalidParams(f"cairn/sourceText: {exc}") from exc
    return {"text": text}


def serve() -> None:
    """Run the server on stdin/stdout."""
    stdout = sys.stdout.buffer
    # stdout carries the protocol: anything printed by mistake goes to stderr instead
    sys.stdout = sys.stderr
    server = create_server()
    stdin = FramedStdin(sys.stdin.buffer)
    try:
        server.start_io(stdin, stdout)  # type: ignore[arg-type]
        if stdin.error is not None:
            # out of step with the editor: no later message can be read, so stop and be restarted
            sys.stderr.write(f"cairn serve: protocol framing error: {safe(stdin.error)}; stopping\n")
            logging.shutdown()
            sys.stderr.flush()
            os._exit(1)
    finally:
        if server._session is not None and server._session.judging_now:
            # exiting would wait for the judge's requests still in flight (up to their timeout,
            # each retry included): nothing needs their answers any more
            log.info("exiting without waiting for the judge")
            logging.shutdown()
            sys.stderr.flush()
            os._exit(0 if getattr(server.protocol, "_shutdown", False) else 1)
