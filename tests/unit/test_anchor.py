"""anchor.loose_find against a plain reference: fold every character, keep its index."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cairn.verify import anchor


def _reference(quote: str, text: str) -> list[tuple[int, int]]:
    def fold_with_index(s: str) -> tuple[str, list[int]]:
        out, index = [], []
        for m in re.finditer(r"\s+|\S", s):
            out.append(" " if m.group().isspace() else anchor._FOLD.get(m.group(), m.group()))
            index.append(m.start())
        return "".join(out), index

    fq, _ = fold_with_index(quote.strip())
    if not fq.strip():
        return []
    ft, idx = fold_with_index(text)
    spans, pos = [], ft.find(fq)
    while pos >= 0:
        spans.append((idx[pos], idx[pos + len(fq) - 1] + 1))
        pos = ft.find(fq, pos + 1)
    return spans


PIECES = st.sampled_from(["a", "b", "ab", " ", "  ", "\n", "\t \n", "\u00a0", "\u2014", "-", "\u201c", '"', "’", "'", "é", "東"])


@settings(max_examples=600, deadline=None)
@given(text=st.lists(PIECES, max_size=40).map("".join), cut=st.data())
def test_loose_find_matches_the_reference(text: str, cut):
    if text and cut.draw(st.booleans()):
        s = cut.draw(st.integers(0, len(text) - 1))
        e = cut.draw(st.integers(s + 1, len(text)))
        quote = anchor.fold(text[s:e]).replace(" ", cut.draw(st.sampled_from([" ", "  ", "\n"])))
    else:
        quote = cut.draw(st.lists(PIECES, min_size=1, max_size=6).map("".join))
    assert anchor.loose_find(quote, text) == _reference(quote, text)


def test_loose_find_maps_back_across_white_space_runs():
    text = "Refunds  are\n\n issued — within   14 days."
    (span,) = anchor.loose_find("are issued - within 14", text)
    assert text[span[0]:span[1]] == "are\n\n issued — within   14"
