"""The chunker of SPEC section 2: invariants over arbitrary text, pinned ids."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cairn.core.chunking import chunk_document, chunk_id, chunk_spans, page_of, paragraphs

TEXT = st.lists(
    st.one_of(
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30),
        st.sampled_from(["\n", "\r\n", "\r", "\f", " ", "\t", ".", "!", "?", "\u3000", "\u2028", "\n\n"]),
    ),
    max_size=60,
).map("".join)


@given(TEXT, st.integers(min_value=32, max_value=200))
@settings(max_examples=400, deadline=None)
def test_chunks_are_exact_slices_within_the_limit(text: str, limit: int):
    spans = chunk_spans(text, limit)
    prev_end = 0
    for s in spans:
        piece = text[s.start:s.end]
        assert piece  # never empty
        assert s.end - s.start <= limit
        assert s.start >= prev_end  # in order, never overlapping
        assert "\f" not in piece
        assert piece.strip()  # holds something besides white space
        prev_end = s.end
    for ch in chunk_document("sources/x.md", text, None, limit):
        assert text[ch.start:ch.end] == ch.text
        assert ch.chunk_id == chunk_id("sources/x.md", ch.text)


@given(TEXT)
@settings(max_examples=300, deadline=None)
def test_every_non_blank_character_is_in_a_paragraph(text: str):
    covered = set()
    for p in paragraphs(text):
        covered.update(range(p.start, p.end))
        assert text[p.start] not in "\r\n\f" and text[p.end - 1] not in "\r\n\f"
    lines_text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\f", "\n")
    # a non-space character outside every paragraph cannot exist
    for i, c in enumerate(text):
        if not c.isspace() and c not in "\r\n\f":
            assert i in covered, (i, c)
    assert isinstance(lines_text, str)


def test_paragraph_rules():
    text = "First line\nsecond line\n  \t\nNext para.\fPage two\r\nstill\r\rthird  "
    got = [text[p.start:p.end] for p in paragraphs(text)]
    assert got == ["First line\nsecond line", "Next para.", "Page two\r\nstill", "third  "]


def test_long_paragraphs_cut_at_sentences_then_spaces_then_hard():
    text = "One two three. Four five six! Seven eight nine? Ten eleven twelve"
    assert [text[s.start:s.end] for s in chunk_spans(text, 32)] == [
        "One two three. Four five six!",
        "Seven eight nine?",
        "Ten eleven twelve",
    ]
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    assert [text[s.start:s.end] for s in chunk_spans(text, 32)] == [
        "alpha beta gamma delta epsilon",
        "zeta eta theta iota kappa",
    ]
    text = "x" * 70
    assert [s.end - s.start for s in chunk_spans(text, 32)] == [32, 32, 6]
    # white space at a cut belongs to no chunk, the whole run of it
    text = "a" * 20 + ".   \n  " + "b" * 20
    spans = chunk_spans(text, 32)
    assert [text[s.start:s.end] for s in spans] == ["a" * 20 + ".", "b" * 20]


def test_chunk_ids_are_pinned():
    """Ids must never change between Cairn versions."""
    text = (
        "# Customer Credit Policy\n\n"
        "A customer has 14 days to request a credit for a damaged delivery.\n\n"
        "Perishable goods 🥛 (生鮮食品) must be reported within 48 hours.\n\n"
        "# Customer Credit Policy\n"
    )
    chunks = chunk_document("sources/policy.md", text)
    assert [(c.chunk_id, c.start, c.end) for c in chunks] == [
        ("073d345fc05eefb4", 0, 24),
        ("a2c56b983f130391", 26, 92),
        ("220d99e013aaf0eb", 94, 153),
    ]  # the repeated heading shares its id and keeps its first position
    assert chunk_id("sources/policy.md", "A customer has 14 days to request a credit for a damaged delivery.") == "a2c56b983f130391"


def test_offsets_are_code_points():
    text = "Perishable 🥛🥩 (生鮮食品) goods must be reported within 48 hours."
    (c,) = chunk_document("s.md", text)
    i = c.text.index("must")
    assert i == 27  # code points: each emoji and CJK character counts one
    assert len(text[:i].encode("utf-16-le")) // 2 == 29  # UTF-16 would say 29


def test_pages():
    assert page_of(None, 5) is None
    assert page_of([0, 100, 250], 0) == 1
    assert page_of([0, 100, 250], 99) == 1
    assert page_of([0, 100, 250], 100) == 2
    assert page_of([0, 100, 250], 999) == 3


def _paragraphs_line_by_line(text: str) -> list[tuple[int, int]]:
    """SPEC section 2's paragraphs, line by line: the reference the one-pattern
    paragraphs() must equal (it replaced this loop; chunk ids depend on it)."""
    import re

    spans, start, end, pos = [], -1, 0, 0
    for m in re.finditer(r"[^\r\n\f]*(?:\r\n|\r|\n|\f|$)", text):
        if m.start() != pos or (m.end() == pos and pos < len(text)):
            continue
        line_end = m.end()
        brk = text[line_end - 1] if line_end > pos else ""
        content_end = line_end - (2 if text.endswith("\r\n", pos, line_end) else 1 if brk in "\r\n\f" and brk else 0)
        line = text[pos:content_end]
        if line and not line.isspace():
            start = pos if start < 0 else start
            end = content_end
        elif start >= 0:
            spans.append((start, end))
            start = -1
        if brk == "\f" and start >= 0:
            spans.append((start, end))
            start = -1
        if line_end == pos:
            break
        pos = line_end
    if start >= 0:
        spans.append((start, end))
    return spans


LINE_PIECES = st.sampled_from(
    ["a", "b.", " ", "\t", "\n", "\r", "\r\n", "\f", "\v", "\x1c", "\x85", "\u2028", "\u3000", "é", "\x00", "東", "\ud800"]
)


@settings(max_examples=3000, deadline=None)
@given(st.lists(LINE_PIECES, max_size=40).map("".join))
def test_paragraphs_equal_the_line_by_line_reference(text: str):
    assert [(p.start, p.end) for p in paragraphs(text)] == _paragraphs_line_by_line(text)


def test_many_short_lines_take_memory_independent_of_their_count():
    """One paragraph of a million short lines: the pattern keeps no state per line
    (a greedy repeat kept a backtracking point a line: 120 bytes a character)."""
    import tracemalloc

    text = "a\n" * 500_000
    tracemalloc.start()
    try:
        spans = chunk_spans(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert spans[0].start == 0 and spans[-1].end == len(text) - 1
    assert peak < 4 * 1024 * 1024, f"{peak / len(text):.1f} bytes a character"
