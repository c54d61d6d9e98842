"""Logs go to the client (window/logMessage), never to stdout, which carries
the protocol. Records from any thread are handed to the event loop.

A request the server refuses on purpose (it raised a JSON-RPC error: bad
arguments, a model URL it may not contact) is answered with that error and
logged as one plain line; a crash keeps its traceback."""

from __future__ import annotations

import asyncio
import logging
import os
import threading

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError

_LEVELS = [
    (logging.ERROR, types.MessageType.Error),
    (logging.WARNING, types.MessageType.Warning),
    (logging.INFO, types.MessageType.Info),
    (0, types.MessageType.Log),
]


class ClientLogHandler(logging.Handler):
    def __init__(self, server, level: int = logging.INFO):
        super().__init__(level)
        self.server = server
        self.loop: asyncio.AbstractEventLoop | None = None
        self._busy = threading.local()
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(self._busy, "on", False):
            return  # sending a log line must not log again
        self._busy.on = True
        try:
            msg = self.format(record)
            kind = next(t for lvl, t in _LEVELS if record.levelno >= lvl)
            params = types.LogMessageParams(type=kind, message=msg)
            loop = self.loop
            if loop is None or loop.is_closed():
                return
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop:
                self.server.window_log_message(params)
            else:
                loop.call_soon_threadsafe(self._send, params)
        except Exception:  # noqa: BLE001 - logging must never break the server
            pass
        finally:
            self._busy.on = False

    def _send(self, params) -> None:
        self._busy.on = True
        try:
            self.server.window_log_message(params)
        except Exception:  # noqa: BLE001 - logging must never break the server
            pass
        finally:
            self._busy.on = False


class Refusals(logging.Filter):
    """pygls logs every request that raised with its traceback, at error level. One the
    server refused on purpose (a JsonRpcException it raised, not an internal error) is
    no crash: one warning line with the refusal's message, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, JsonRpcException) and not isinstance(exc, JsonRpcInternalError):
            record.msg, record.args = "request refused: %s", (exc.message,)
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def setup(server) -> ClientLogHandler:
    """Route the engine's and the server's logging to the client.

    pygls logs every message it sends at INFO; only its warnings are passed on.
    """
    level = getattr(logging, os.environ.get("CAIRN_LOG_LEVEL", "INFO").upper(), logging.INFO)
    handler = ClientLogHandler(server, level)
    cairn = logging.getLogger("cairn")
    cairn.setLevel(level)
    cairn.addHandler(handler)
    cairn.propagate = False
    pygls = logging.getLogger("pygls")
    pygls.setLevel(logging.WARNING)
    pygls_handler = ClientLogHandler(server, logging.WARNING)
    pygls_handler.addFilter(Refusals())
    pygls.addHandler(pygls_handler)
    pygls.propagate = False
    handler.companions = [pygls_handler]  # type: ignore[attr-defined]
    return handler


def bind_loop(handler: ClientLogHandler, loop: asyncio.AbstractEventLoop) -> None:
    handler.loop = loop
    for h in getattr(handler, "companions", []):
        h.loop = loop
