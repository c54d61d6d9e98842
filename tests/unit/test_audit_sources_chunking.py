"""The cut of a long paragraph (SPEC section 2), against a plain reading of the SPEC's words:
"cut, within the limit, just after the last sentence end (`.`, `!` or `?` followed by white
space), else just before the last white space, else hard at the limit; the white space at a
cut belongs to no chunk; the rest is cut again the same way"."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from cairn.core.chunking import chunk_spans, paragraphs


def _cut_reference(text: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """The paragraph text[start:end] cut as the SPEC says, one character at a time."""
    out: list[tuple[int, int]] = []
    while end - start > limit:
        cut = None
        # the last sentence end within the limit: its punctuation is one of the first
        # `limit` characters (the chunk [start, i + 1) fits), white space right after it
        for i in range(start + limit - 1, start - 1, -1):
            if text[i] in ".!?" and i + 1 < end and text[i + 1].isspace():
                cut = i + 1
                break
        if cut is None:
            # the last white space within the limit: the chunk [start, j) fits, so j <= start + limit;
            # the whole run of white space there belongs to no chunk
            for j in range(start + limit, start, -1):
                if text[j].isspace():
                    k = j
                    while k > start and text[k - 1].isspace():
                        k -= 1
                    if k > start:  # a cut that leaves nothing before it is no cut
                        cut = k
                    break
        if cut is None:
            out.append((start, start + limit))
            start += limit
            continue
        out.append((start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if end > start:
        out.append((start, end))
    return out


def _chunks_reference(text: str, limit: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for p in paragraphs(text):
        out += _cut_reference(text, p.start, p.end, limit)
    return out


# short words, sentence ends and white space of several kinds, so that with a short limit
# every rule (and a sentence end or white space exactly at the limit) comes up often
PIECES = st.sampled_from(["a", "bb", "ccc", "Dddd", ".", "!", "?", " ", "  ", "\t", "\n", "\u3000", "\u2028",
                          "\n\n", "\f", "x.", "y. ", "z! ", "?\n", "é", "東"])
TEXT = st.lists(PIECES, max_size=80).map("".join)


@given(TEXT, st.integers(min_value=1, max_value=40))
@example("Aaa. " + "B" * 34 + ". ccc ddd eee fff ggg.", 40)  # the audit's repro
@example("aaa. bbb", 4)  # the sentence end is the window's last character
@settings(max_examples=3000, deadline=None)
def test_long_paragraphs_are_cut_as_the_spec_says(text: str, limit: int):
    assert [(s.start, s.end) for s in chunk_spans(text, limit)] == _chunks_reference(text, limit)


def test_a_sentence_end_on_the_limit_counts():
    """The punctuation is the window's last character; the white space after it lies just past
    the limit (the audit's repro: the cut had fallen back to the sentence end before)."""
    text = "Aaa. " + "B" * 34 + ". ccc ddd eee fff ggg."
    pieces = [(s.start, s.end, text[s.start:s.end]) for s in chunk_spans(text, 40)]
    assert pieces == [(0, 40, "Aaa. " + "B" * 34 + "."), (41, 61, "ccc ddd eee fff ggg.")]
