"""The base protocol's framing, checked (LSP: `Content-Length: N` headers, a
blank line, N bytes of JSON).

pygls skips a header it does not understand and reads on: after
`Content-Length: abc`, or a length shorter than the body, every later
message is read out of step and the server answers nothing more, `shutdown`
included, while the editor waits for it. A stream out of step cannot be put
back in step, so the server stops instead (exit 1, the reason on stderr and
in the log): the editor sees it end and starts it again.

`FramedStdin` stands in for stdin under pygls's reader: it sees every header
line and every body read, and on a framing error answers end-of-stream,
which ends pygls's loop.
"""

from __future__ import annotations

import logging
import re
from typing import BinaryIO

log = logging.getLogger(__name__)

# what pygls itself accepts (io_.run_async); anything it would skip is an error here
_CONTENT_LENGTH = re.compile(rb"Content-Length: (\d+)\r\n")
# any other header is passed over, as pygls does, when it is one: a token, a colon, a value.
# The rest of a body read too short always holds its closing `}` or `]` before the next
# header's colon, which no header name holds.
_OTHER_HEADER = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\r\n]*\r\n")
MAX_HEADER_LINE = 8 * 1024
MAX_BODY = 256 * 1024 * 1024  # a body is read whole; a larger length is taken for garbage


class FramedStdin:
    def __init__(self, raw: BinaryIO):
        self.raw = raw
        self.error: str | None = None
        self._length: int | None = None  # Content-Length of the message being read
        self._in_body = False  # the blank line was read: pygls reads the body next

    def _fail(self, why: str) -> bytes:
        self.error = why
        log.error("protocol framing error: %s; the server stops so that the editor restarts it", why)
        return b""

    def readline(self) -> bytes:
        if self.error is not None:
            return b""
        line = self.raw.readline(MAX_HEADER_LINE + 1)
        if not line:
            return line  # end of stream: pygls stops
        if self._in_body:
            return self._fail("a header line came where a message body was expected")
        if len(line) > MAX_HEADER_LINE:
            return self._fail(f"a header line longer than {MAX_HEADER_LINE} bytes")
        if not line.strip():
            if self._length is None:
                return self._fail("a message without a Content-Length header")
            self._in_body = True
            return line
        m = _CONTENT_LENGTH.fullmatch(line)
        if m is not None:
            if self._length is not None:
                return self._fail("two Content-Length headers in one message")
            length = int(m.group(1))
            if not 0 < length <= MAX_BODY:
                return self._fail(f"Content-Length {length} is not between 1 and {MAX_BODY}")
            self._length = length
            return line
        if line.lower().startswith(b"content-length:"):
            return self._fail(f"a Content-Length header pygls cannot read: {_show(line)}")
        if _OTHER_HEADER.fullmatch(line):
            return line
        return self._fail(f"not a header line: {_show(line)}")

    def read(self, n: int) -> bytes:
        if self.error is not None:
            return b""
        if not self._in_body or n != self._length:
            return self._fail("a body read out of step with its header")
        self._in_body = False
        self._length = None
        data = self.raw.read(n)
        return data


def _show(line: bytes) -> str:
    text = line[:80].decode("utf-8", "replace")
    return repr(text) + (" ..." if len(line) > 80 else "")
