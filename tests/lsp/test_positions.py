"""Code points <-> the client's position encoding, and incremental text sync
with LSP's line breaks (\\n, \\r\\n, \\r only)."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types

from cairn.lsp.documents import Document
from cairn.lsp.positions import Codec, LineIndex

LINE = "a😀b漢c"  # 😀 is 2 UTF-16 units and 4 UTF-8 bytes; 漢 is 1 and 3


@pytest.mark.parametrize(
    "encoding, expected",
    [("utf-16", [0, 1, 3, 4, 5, 6]), ("utf-8", [0, 1, 5, 6, 9, 10]), ("utf-32", [0, 1, 2, 3, 4, 5])],
)
def test_columns_round_trip(encoding, expected):
    codec = Codec(encoding)
    assert [codec.to_client(LINE, col) for col in range(len(LINE) + 1)] == expected
    assert [codec.from_client(LINE, u) for u in expected] == list(range(len(LINE) + 1))


def test_unknown_encoding_is_utf16():
    assert Codec("utf-7").encoding == "utf-16"
    assert Codec(None).encoding == "utf-16"
    assert Codec(types.PositionEncodingKind.Utf8).encoding == "utf-8"


def test_line_index_places_offsets():
    text = "ab\r\n😀x\rz\n"
    idx = LineIndex(text)
    assert idx.line_text(0) == "ab" and idx.line_text(1) == "😀x" and idx.line_text(2) == "z"
    assert idx.pos(text.index("x")).line == 1 and idx.pos(text.index("x")).col == 1
    r = idx.lsp_range(Codec("utf-16"), text.index("x"), text.index("x") + 1)
    assert (r.start.line, r.start.character, r.end.character) == (1, 2, 3)


def _change(sl, sc, el, ec, text):
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)),
        text=text,
    )


def test_incremental_edits_after_characters_python_splits_on():
    # \x0c and \u2028 are line breaks for str.splitlines but not for LSP
    doc = Document("file:///d.md", "one\x0ctwo\u2028three\nfour\n", 1)
    doc.apply(_change(0, 8, 0, 13, "3"), Codec("utf-16"))
    assert doc.text == "one\x0ctwo\u20283\nfour\n"
    doc.apply(_change(1, 0, 1, 4, "4"), Codec("utf-16"))
    assert doc.text == "one\x0ctwo\u20283\n4\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_random_edits_match_a_reference(encoding):
    codec = Codec(encoding)
    rng = random.Random(7)
    alphabet = ["a", "b", " ", "\n", "\r\n", "😀", "漢", "é"]
    text = "".join(rng.choice(alphabet) for _ in range(200))
    doc = Document("file:///d.md", text, 1)
    for _ in range(300):
        idx = LineIndex(text)
        a = rng.randrange(len(text) + 1)
        b = min(len(text), a + rng.randrange(6))
        # never split a \r\n pair: an editor cannot place a position inside it
        if 0 < a < len(text) and text[a - 1] == "\r" and text[a] == "\n":
            a -= 1
        if 0 < b < len(text) and text[b - 1] == "\r" and text[b] == "\n":
            b += 1
        new = "".join(rng.choice(alphabet) for _ in range(rng.randrange(4)))
        pa, pb = idx.pos(a), idx.pos(b)
        change = _change(pa.line, codec.to_client(idx.line_text(pa.line), pa.col),
                         pb.line, codec.to_client(idx.line_text(pb.line), pb.col), new)
        doc.apply(change, codec)
        text = text[:a] + new + text[b:]
        assert doc.text == text
