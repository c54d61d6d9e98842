"""A draft's text as the parser counts it: read as UTF-8 (BOM dropped, bad bytes noted), cut into
lines (at \\r\\n, \\r or \\n, like markdown-it), a line's range, and text edits applied."""

from __future__ import annotations

import re
from pathlib import Path

from ..core.files import read_regular
from ..core.model import Pos, Range, TextEdit

_EOL = re.compile(r"\r\n|\r|\n")


# --------------------------------------------------------------------------
# Text helpers


def read_draft(path: Path) -> tuple[str, bool]:
    """The draft decoded as UTF-8 (leading BOM removed); True when invalid bytes were replaced."""
    data = read_regular(path)  # a pipe or a device is refused, never waited on
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), True


def split_lines(text: str) -> list[str]:
    """Lines split only at \\n, \\r\\n and \\r (unlike str.splitlines)."""
    return _EOL.split(text)


def line_range(text_lines: list[str], line: int) -> Range:
    """From the first non-blank character of `line` to the end of its content."""
    if not 0 <= line < len(text_lines):
        return Range(Pos(line, 0), Pos(line, 0))
    s = text_lines[line]
    end = len(s.rstrip())
    start = len(s) - len(s.lstrip())
    return Range(Pos(line, min(start, end)), Pos(line, end))


def _eol_of(text: str) -> str:
    m = _EOL.search(text)
    return m.group(0) if m else "\n"


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """Apply non-overlapping edits (split_lines positions), keeping the text's line endings.

    Insertions at the same position are applied in the order given.
    """
    if not edits:
        return text
    starts = [0]
    ends = []
    for m in _EOL.finditer(text):
        ends.append(m.start())
        starts.append(m.end())
    ends.append(len(text))
    n = len(starts)

    def offset(p: Pos) -> int:
        if p.line < 0:
            return 0
        if p.line >= n:
            return len(text)
        return min(starts[p.line] + max(p.col, 0), ends[p.line])

    spans = []
    for i, e in enumerate(edits):
        a, b = offset(e.range.start), offset(e.range.end)
        if b < a:
            raise ValueError(f"edit {i} ends before it starts")
        spans.append((a, b, i, e.new_text))
    spans.sort()
    out = []
    last = 0
    for a, b, _, new in spans:
        if a < last:
            raise ValueError("overlapping edits")
        out.append(text[last:a])
        out.append(new)
        last = b
    out.append(text[last:])
    return "".join(out)
