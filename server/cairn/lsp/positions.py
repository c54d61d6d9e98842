"""Positions at the protocol edge.

The engine speaks 0-based lines and code-point columns (Python `str`
indices), lines split only at \\n, \\r\\n and \\r exactly as LSP splits them.
The client speaks the position encoding negotiated at `initialize` (UTF-16
unless it offered UTF-8 or UTF-32). Every conversion happens here, once.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections import OrderedDict

from lsprotocol import types

from ..core.model import Pos, Range

_EOL = re.compile(r"\r\n|\r|\n")


class Codec:
    """Code-point columns <-> the client's code units, one line at a time."""

    def __init__(self, encoding: str | None):
        enc = getattr(encoding, "value", encoding) or types.PositionEncodingKind.Utf16.value
        if enc not in ("utf-8", "utf-16", "utf-32"):
            enc = "utf-16"
        self.encoding = enc

    def __repr__(self) -> str:
        return f"Codec({self.encoding})"

    def to_client(self, line: str, col: int) -> int:
        """Code points of `line` before `col` -> client units."""
        if col <= 0:
            return 0
        if self.encoding == "utf-32" or line.isascii():
            return col
        prefix = line[:col]
        extra = col - len(prefix)  # a column past the line's end stays past it
        if self.encoding == "utf-16":
            return len(prefix.encode("utf-16-le", "surrogatepass")) // 2 + extra
        return len(prefix.encode("utf-8", "surrogatepass")) + extra

    def from_client(self, line: str, units: int) -> int:
        """Client units into `line` -> a code-point column (clamped to the line)."""
        if units <= 0:
            return 0
        if self.encoding == "utf-32" or line.isascii():
            return min(units, len(line))
        wide = self.encoding == "utf-16"
        seen = 0
        for i, ch in enumerate(line):
            if seen >= units:
                return i
            o = ord(ch)
            if wide:
                seen += 2 if o > 0xFFFF else 1
            else:
                seen += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
        return len(line)

    def position(self, lines: list[str], pos: Pos, shift: int = 0) -> types.Position:
        line = lines[pos.line] if 0 <= pos.line < len(lines) else ""
        return types.Position(line=pos.line + shift, character=self.to_client(line, pos.col))

    def range(self, lines: list[str], rng: Range, shift: int = 0) -> types.Range:
        """An engine range on `lines` (relative lines) -> an LSP range, lines moved by `shift`."""
        return types.Range(start=self.position(lines, rng.start, shift), end=self.position(lines, rng.end, shift))


class LineIndex:
    """Offsets <-> (line, code-point column) in one text."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in _EOL.finditer(text)]

    def line_text(self, line: int) -> str:
        if not 0 <= line < len(self.starts):
            return ""
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        s = self.text[start:end]
        if s.endswith("\n"):
            s = s[:-2] if s.endswith("\r\n") else s[:-1]
        elif s.endswith("\r"):
            s = s[:-1]
        return s

    def pos(self, offset: int) -> Pos:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        col = min(offset - self.starts[line], len(self.line_text(line)))
        return Pos(line, col)

    def offset(self, line: int, col: int) -> int:
        if line < 0:
            return 0
        if line >= len(self.starts):
            return len(self.text)
        return self.starts[line] + min(max(col, 0), len(self.line_text(line)))

    def lsp_range(self, codec: Codec, start: int, end: int) -> types.Range:
        a, b = self.pos(start), self.pos(end)
        return types.Range(
            start=types.Position(line=a.line, character=codec.to_client(self.line_text(a.line), a.col)),
            end=types.Position(line=b.line, character=codec.to_client(self.line_text(b.line), b.col)),
        )

    def from_lsp(self, codec: Codec, pos: types.Position) -> int:
        """A client position -> an offset in the text."""
        line = pos.line
        if line >= len(self.starts):
            return len(self.text)
        return self.offset(line, codec.from_client(self.line_text(line), pos.character))


class SourceTexts:
    """The parsed text of source versions, kept while they are in use.

    Diagnostics (related information), hover and go-to-definition need a
    cited source's text to place a span; a small LRU keyed by the store's
    version id avoids decompressing the same version again and again.
    Shared by the engine thread and the event loop, hence the lock.
    """

    def __init__(self, store, max_chars: int = 16_000_000):
        self.store = store
        self.max_chars = max_chars
        self._lock = threading.Lock()
        self._items: OrderedDict[int, LineIndex] = OrderedDict()
        self._chars = 0

    def get(self, version_id: int) -> LineIndex | None:
        with self._lock:
            hit = self._items.get(version_id)
            if hit is not None:
                self._items.move_to_end(version_id)
                return hit
        try:
            text = self.store.version_text(version_id)
        except Exception:  # noqa: BLE001 - a missing version is "no position", not an error
            return None
        index = LineIndex(text)
        with self._lock:
            self._items[version_id] = index
            self._chars += len(text)
            while self._chars > self.max_chars and len(self._items) > 1:
                _, old = self._items.popitem(last=False)
                self._chars -= len(old.text)
        return index

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._chars = 0
