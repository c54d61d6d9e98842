"""The line starts a citation's line:column is read from (cairn.lineage)."""

from __future__ import annotations

from array import array

from hypothesis import given, settings
from hypothesis import strategies as st

from cairn.verify import lineage


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "é", " ", "\n", "\r", "\r\n", "\n\n"]), max_size=40).map("".join))
def test_line_starts_are_where_each_line_break_ends(text):
    expected = array("q", [0])
    expected.extend(m.end() for m in lineage._LINE_BREAK.finditer(text))
    assert lineage._starts_of(text) == expected


def test_line_starts_of_plain_lines():
    assert list(lineage._starts_of("ab\ncd\n\nx")) == [0, 3, 6, 7]
    assert list(lineage._starts_of("")) == [0]
    assert list(lineage._starts_of("a\r\nb\rc")) == [0, 3, 5]
