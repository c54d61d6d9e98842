"""The text of the documents the client has open.

The server keeps its own copy rather than pygls's: LSP lines end only at
\\n, \\r\\n and \\r, while pygls splits with `str.splitlines` (which also
breaks at form feeds, U+2028 and others), so an incremental edit after such a
character would land in the wrong place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

from .positions import Codec, LineIndex


def uri_to_path(uri: str) -> Path | None:
    if not uri.startswith("file:"):
        return None
    p = to_fs_path(uri)
    if not p:
        return None
    try:
        return Path(p).resolve()
    except (OSError, RuntimeError):
        return Path(p)


@dataclass(eq=False)
class Document:
    uri: str
    text: str
    version: int | None
    language_id: str = ""
    path: Path | None = None
    disk_invalid_utf8: bool = False  # the file on disk had bytes that are not UTF-8
    disk_checked: bool = True  # False until disk_invalid_utf8 was read
    judge_wanted: bool = False  # ask the judge once the next check is done (opened, saved)
    _index: LineIndex | None = field(default=None, repr=False)

    @property
    def index(self) -> LineIndex:
        if self._index is None or self._index.text is not self.text:
            self._index = LineIndex(self.text)
        return self._index

    def apply(self, change, codec: Codec) -> None:
        if isinstance(change, types.TextDocumentContentChangePartial):
            idx = self.index
            start = idx.from_lsp(codec, change.range.start)
            end = idx.from_lsp(codec, change.range.end)
            if end < start:
                start, end = end, start
            self.text = self.text[:start] + change.text + self.text[end:]
        else:
            self.text = change.text
        self._index = None

    @property
    def encoding_problem(self) -> bool:
        # The editor shows the replacement characters the decoder put in; the
        # draft still has invalid bytes on disk while they are there.
        return self.disk_invalid_utf8 and "\ufffd" in self.text


class Documents:
    def __init__(self) -> None:
        self._docs: dict[str, Document] = {}

    def open(self, item: types.TextDocumentItem) -> Document:
        doc = Document(item.uri, item.text, item.version, item.language_id, uri_to_path(item.uri))
        self._docs[item.uri] = doc
        return doc

    def change(self, params: types.DidChangeTextDocumentParams, codec: Codec) -> Document | None:
        doc = self._docs.get(params.text_document.uri)
        if doc is None:
            return None
        for change in params.content_changes:
            doc.apply(change, codec)
        doc.version = params.text_document.version
        return doc

    def close(self, uri: str) -> Document | None:
        return self._docs.pop(uri, None)

    def get(self, uri: str) -> Document | None:
        return self._docs.get(uri)

    def by_path(self, path: Path) -> Document | None:
        for doc in self._docs.values():
            if doc.path is not None and doc.path == path:
                return doc
        return None

    def __iter__(self):
        return iter(list(self._docs.values()))
