"""The HTML report's pieces: the quote in its sentence, the data's escaping, the charts."""

from __future__ import annotations

import json
import re

from cairn.report.base import CitationOut
from cairn.report.html import ChunkText, _json_for_script, lab_preset, quote_in_context
from cairn.report.svg import MAX_BARS, score_chart, validity_chart

CHUNK = ChunkText("First sentence here. A customer has 14 days to ask. Then a third one! And more")


def cit(quote: str, start: int | None, end: int | None) -> CitationOut:
    return CitationOut(chunk_id="0" * 16, start=start, end=end, quote=quote, resolved=True, source="s.md",
                       page=None, version=None)


def test_quote_at_its_offsets_inside_its_sentence():
    s = CHUNK.text.index("14 days")
    q = quote_in_context(cit("14 days", s, s + 7), CHUNK)
    assert (q.before, q.quote, q.after, q.found) == ("A customer has ", "14 days", " to ask.", True)
    assert q.at == (s, s + 7)


def test_quote_with_wrong_offsets_is_found_by_its_text():
    q = quote_in_context(cit("a third one", 0, 11), CHUNK)
    assert (q.before, q.quote, q.after) == ("Then ", "a third one", "!")


def test_quote_spanning_two_sentences_gets_both_and_the_last_has_no_end():
    q = quote_in_context(cit("ask. Then", None, None), CHUNK)
    assert q.before + q.quote + q.after == "A customer has 14 days to ask. Then a third one!"
    q = quote_in_context(cit("more", None, None), CHUNK)
    assert (q.before, q.after) == ("And ", "")


def test_quote_not_in_the_chunk_or_no_chunk():
    assert quote_in_context(cit("nowhere", 0, 7), CHUNK).found is False
    q = quote_in_context(cit("alone", 0, 5), None)
    assert (q.before, q.quote, q.after, q.found) == ("", "alone", "", False)


def test_json_for_script_cannot_end_the_element():
    hostile = {"q": "</script><script>alert(1)</script><!-- & \u2028"}
    text = _json_for_script(hostile)
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == hostile


def test_charts_escape_paths_and_switch_to_a_histogram():
    svg = validity_chart([("<script>x</script>.md", 0.5, False)])
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    many = [(f"a{i}.md", i / 100, i == 99) for i in range(MAX_BARS + 40)]
    hist = validity_chart(many)
    assert "Answers by citation validity" in hist and "a5.md" not in hist
    assert len(re.findall(r"<rect", validity_chart(many[:MAX_BARS]))) == MAX_BARS
    scores = score_chart([0.1, 0.2, 0.9], 0.5)
    assert "threshold 0.50" in scores and "2 score below the threshold" in scores


def test_lab_preset_from_a_report_or_the_issue_defaults():
    from cairn.report.base import report_of

    assert lab_preset(None) == {"p": 0.8, "n": 10, "observed": None, "from_report": False}
    assert lab_preset(report_of([]))["from_report"] is False
