"""Text for a terminal: what a draft, a source or a file name holds is shown,
never obeyed.

A terminal acts on control characters: `ESC [2K` erases the line, `ESC ]0;…BEL`
sets the window title, a bare `CR` returns to the start of the line. A draft
holding them could erase a FAILED line and print a VERIFIED one in its place.
Every human-readable output (the text report, messages on stderr, log lines)
therefore shows them as escapes (`\\x1b`); JSON and SARIF escape them already.
"""

from __future__ import annotations

import re

# C0 controls but tab and line feed, DEL, C1 controls (U+0080-U+009F: a terminal may
# read U+009B as CSI, the same as ESC [)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_OR_NEWLINE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _escape(m: re.Match) -> str:
    return f"\\x{ord(m.group()):02x}"


def safe(text: str, *, newlines: bool = False) -> str:
    """`text` with its control characters written as `\\xNN`; line feeds kept when
    `newlines` (a multi-line block of output), else escaped too (one line)."""
    return (_CONTROL if newlines else _CONTROL_OR_NEWLINE).sub(_escape, text)
