"""Cutting a draft into pieces that parse the same alone as in the whole.

Re-parsing a draft of a thousand claims on every keystroke costs more than
the whole latency budget, so the server parses a draft piece by piece and
keeps each piece's parse (and verdicts) keyed by its text: an edit re-parses
only the piece it touches, and a piece that merely moved (lines added above
it) is reused as it is, its positions being relative to its first line.

A piece starts at a line that begins, at column 0, with a letter and follows
a blank line, outside any fenced code block. Such a line always starts a new
top-level block in CommonMark (a blank line ends paragraphs, block quotes and
HTML blocks of kinds 6 and 7; an unindented line that is no list marker ends
a list), and a claim's cite blocks never follow a letter-led paragraph of
another piece, so every claim lies in one piece. What could make a piece's
parse depend on the text before it makes the whole draft one piece: link
reference definitions (they are global), HTML blocks that may run across
blank lines, lone carriage returns, and a fence opened inside a container
whose end is ambiguous.
"""

from __future__ import annotations

import re
from typing import Any

# Each pattern starts with a literal or a short character class, so the regex
# engine skips ahead instead of trying every position (a draft of 1,000 claims
# is cut in about a millisecond).
_BLANK = re.compile(r"\n[ \t]*\r?\n(?=[^\W\d_])")  # a blank line, then a line starting with a letter
_FENCES = (re.compile(r"(```+)([^\r\n]*)"), re.compile(r"(~~~+)([^\r\n]*)"))
_HTML = re.compile(r"\n[ \t>]*<")
_LONE_CR = re.compile(r"\r(?!\n)")

_OPEN_OR_CLOSE, _CUT, _HTML_LINE = 0, 1, 2


def _events(text: str) -> list[tuple[int, int, Any]]:
    events: list[tuple[int, int, object]] = []
    for pattern in _FENCES:
        for m in pattern.finditer(text):
            p = m.start()
            line_start = text.rfind("\n", 0, p) + 1
            indent = p - line_start
            if indent <= 3 and text[line_start:p] == " " * indent:
                events.append((p, _OPEN_OR_CLOSE, (m.group(1), m.group(2), indent)))
    for m in _BLANK.finditer(text):
        events.append((m.start(), _CUT, m.end()))
    if re.match(r"[ \t>]*<", text):
        events.append((0, _HTML_LINE, None))
    for m in _HTML.finditer(text):
        events.append((m.start(), _HTML_LINE, None))
    events.sort(key=lambda e: e[0])
    return events


def split(text: str) -> list[tuple[int, int]]:
    """Where each piece starts: (0-based line, offset), the first always (0, 0)."""
    whole = [(0, 0)]
    if "]:" in text or ("\r" in text and _LONE_CR.search(text)):
        return whole
    starts = [(0, 0)]
    fence: tuple[str, int, int] | None = None  # (mark character, length, indentation)
    line = 0
    counted = 0  # offset up to which newlines were counted into `line`
    for _, kind, data in _events(text):
        if kind == _CUT:
            if fence is not None:
                if fence[2] > 0:
                    # a fence inside a list item ends with the item; which one holds is
                    # the parser's call, so do not cut this draft at all
                    return whole
                continue
            at = data
            line += text.count("\n", counted, at)
            counted = at
            starts.append((line, at))
        elif kind == _HTML_LINE:
            if fence is None:
                return whole
        else:
            mark, info, indent = data
            if fence is None:
                if mark[0] == "`" and "`" in info:
                    continue  # not a fence: a backtick fence's info string has no backtick
                fence = (mark[0], len(mark), indent)
            elif mark[0] == fence[0] and len(mark) >= fence[1] and not info.strip():
                fence = None
    return starts


def pieces(text: str) -> list[tuple[int, str]]:
    """The pieces themselves: (first line, text), in order; they concatenate to `text`."""
    starts = split(text)
    out = []
    for i, (line, off) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(text)
        out.append((line, text[off:end]))
    return out
