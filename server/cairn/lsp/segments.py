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

_SCAN = re.compile(
    r"^(?P<indent> {0,3})(?P<mark>`{3,}|~{3,})(?P<info>[^\r\n]*)"
    r"|^(?P<html>[ \t>]*<)"
    r"|(?P<blank>\n[ \t]*\r?\n)(?=[^\W\d_])",
    re.M,
)
_LONE_CR = re.compile(r"\r(?!\n)")


def split(text: str) -> list[tuple[int, int]]:
    """Where each piece starts: (0-based line, offset), the first always (0, 0)."""
    whole = [(0, 0)]
    if "]:" in text or ("\r" in text and _LONE_CR.search(text)):
        return whole
    starts = [(0, 0)]
    fence: tuple[str, int, int] | None = None  # (mark character, length, indentation)
    line = 0
    counted = 0  # offset up to which newlines were counted into `line`
    for m in _SCAN.finditer(text):
        if m.group("blank") is not None:
            if fence is not None:
                if fence[2] > 0:
                    # a fence inside a list item ends with the item; which one holds is
                    # the parser's call, so do not cut this draft at all
                    return whole
                continue
            at = m.end()
            line += text.count("\n", counted, at)
            counted = at
            starts.append((line, at))
        elif m.group("html") is not None:
            if fence is None:
                return whole
        else:
            mark = m.group("mark")
            info = m.group("info")
            if fence is None:
                if mark[0] == "`" and "`" in info:
                    continue  # not a fence: a backtick fence's info string has no backtick
                fence = (mark[0], len(mark), len(m.group("indent")))
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
