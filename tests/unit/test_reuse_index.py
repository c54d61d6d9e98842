"""reuse.SpanIndex against a plain model: whatever drafts are replaced or removed,
in any order, each span's users are the uses the drafts hold now, and the count of
entries it keeps (for forgetting old claim texts) matches them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cairn.engine.reuse import SpanIndex, Use

SPANS = [("c1", 0, 10), ("c1", 5, 20), ("c2", 0, 4)]
paths = st.sampled_from(["a.md", "b.md", "c.md"])
entries = st.lists(st.tuples(st.sampled_from(SPANS), st.integers(1, 4), st.sampled_from(["x y", "refund days", "z"])),
                   max_size=5)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(paths, st.one_of(st.none(), entries)), max_size=12))
def test_span_index_matches_a_plain_model(steps):
    index = SpanIndex()
    model: dict[str, list] = {}
    for path, got in steps:
        if got is None:
            index.remove(path)
            model.pop(path, None)
            continue
        uses = [(span, Use(path, line, text)) for span, line, text in got]
        index.replace(path, uses)
        model[path] = uses
        for span in SPANS:
            want = sorted((u.path, u.line, u.text) for p in model for s, u in model[p] if s == span)
            assert sorted((u.path, u.line, u.text) for u in index.users(span)) == want
        assert index._uses == sum(len(v) for v in model.values())  # the count the forgetting rule reads
