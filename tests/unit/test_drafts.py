"""cairn.drafts: citation blocks, claims, positions and in-place field edits (SPEC section 3)."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from cairn.core.model import Pos, Range, TextEdit
from cairn.drafts import (
    NO_CLAIM,
    apply_edits,
    field_edits,
    has_cite_block,
    line_range,
    parse_draft,
    plain_text,
    read_draft,
    split_lines,
)

CID = "0123456789abcdef"

YAML_BLOCK = f"""```cite
chunk_id: {CID}
start: 3
end: 9
quote: "some text"
```
"""


def only_citation(text: str):
    doc = parse_draft(text)
    assert len(doc.claims) == 1, doc.claims
    cits = doc.claims[0].citations
    assert len(cits) == 1, cits
    return cits[0]


def messages(problems) -> list[str]:
    return [p.message for p in problems]


def all_problems(doc):
    out = []
    for claim in doc.claims:
        out += claim.problems
        for block in claim.blocks:
            out += block.problems
            for c in block.citations:
                out += c.problems
    return out


# --------------------------------------------------------------------------
# Text helpers


def test_split_lines_only_at_line_breaks():
    assert split_lines("a\nb\r\nc\rd") == ["a", "b", "c", "d"]
    assert split_lines("a\x0bb\x0cc\u2028d\x85e") == ["a\x0bb\x0cc\u2028d\x85e"]
    assert split_lines("") == [""]
    assert split_lines("a\n") == ["a", ""]


def test_line_range_covers_content():
    lines = ["  > text  ", "", "x"]
    assert line_range(lines, 0) == Range(Pos(0, 2), Pos(0, 8))
    assert line_range(lines, 1) == Range(Pos(1, 0), Pos(1, 0))
    assert line_range(lines, 9) == Range(Pos(9, 0), Pos(9, 0))


def test_apply_edits_keeps_line_endings_and_orders_edits():
    text = "ab\r\ncd\ref\n"
    edits = [
        TextEdit(Range(Pos(1, 1), Pos(1, 2)), "X"),
        TextEdit(Range(Pos(0, 0), Pos(0, 0)), "1"),
        TextEdit(Range(Pos(0, 0), Pos(0, 0)), "2"),
        TextEdit(Range(Pos(2, 2), Pos(2, 2)), "!"),
    ]
    assert apply_edits(text, edits) == "12ab\r\ncX\ref!\n"
    # columns past the end of a line clamp to it, never eat the line break
    assert apply_edits("ab\ncd", [TextEdit(Range(Pos(0, 1), Pos(0, 99)), "Z")]) == "aZ\ncd"
    # code-point columns
    assert apply_edits("😀a\n", [TextEdit(Range(Pos(0, 1), Pos(0, 2)), "b")]) == "😀b\n"
    with pytest.raises(ValueError):
        apply_edits("abcdef", [TextEdit(Range(Pos(0, 0), Pos(0, 3)), ""), TextEdit(Range(Pos(0, 2), Pos(0, 4)), "")])


def test_read_draft(tmp_path):
    p = tmp_path / "d.md"
    p.write_bytes(b"\xef\xbb\xbfHello\r\n")
    assert read_draft(p) == ("Hello\r\n", False)
    p.write_bytes(b"ok \xff\xfe end")
    text, replaced = read_draft(p)
    assert replaced and text == "ok \ufffd\ufffd end"
    p.write_bytes("already \ufffd".encode())
    assert read_draft(p) == ("already \ufffd", False)


# --------------------------------------------------------------------------
# Finding blocks


@pytest.mark.parametrize("fence", ["```", "~~~", "````", "~~~~~"])
@pytest.mark.parametrize("info", ["cite", " cite", "cite extra words", "cite\t{x}"])
def test_fences_with_backticks_and_tildes(fence, info):
    text = f"A claim.\n\n{fence}{info}\nchunk_id: {CID}\nstart: 0\nend: 4\nquote: abcd\n{fence}\n"
    c = only_citation(text)
    assert (c.chunk_id, c.start, c.end, c.quote) == (CID, 0, 4, "abcd")
    assert c.valid
    block = c.block
    assert (block.open_line, block.close_line, block.kind) == (2, 7, "yaml")
    assert block.fence_range.start == Pos(2, 0)


@pytest.mark.parametrize("info", ["cited", "cite-x", "citex", "Cite", "yaml cite", "", "json"])
def test_other_info_strings_are_not_citation_blocks(info):
    text = f"A claim.\n\n```{info}\nchunk_id: {CID}\n```\n"
    doc = parse_draft(text)
    assert doc.claims == []
    assert doc.uncited_paragraphs == 1


def test_indented_code_is_not_a_fence():
    doc = parse_draft("A claim.\n\n    ```cite\n    chunk_id: x\n    ```\n")
    assert doc.claims == []


def test_unterminated_fence_runs_to_the_end():
    text = f"A claim.\n\n```cite\nchunk_id: {CID}\nstart: 1\nend: 2\nquote: q\n"
    c = only_citation(text)
    assert c.valid
    assert c.block.close_line == 6  # the last line of the draft (the final "" line is not counted)


def test_block_inside_a_block_quote_positions():
    text = (
        "> The quoted claim.\n"
        ">\n"
        "> ```cite\n"
        f">   chunk_id: {CID}\n"
        "> start: 5\n"
        ">  end: 9\n"
    )
    # the fence strips "> " only; field lines keep their own indentation (invalid YAML here)
    doc = parse_draft(text)
    assert doc.claims[0].blocks[0].problems
    text = f"> The quoted claim.\n>\n> ```cite\n> chunk_id: {CID}\n> start: 5\n> end: 9\n> quote: abcd\n> ```\n"
    c = only_citation(text)
    claim = parse_draft(text).claims[0]
    assert claim.text == "The quoted claim."
    assert claim.line == 0
    assert claim.range == Range(Pos(0, 2), Pos(0, 19))
    assert c.block.fence_range == Range(Pos(2, 2), Pos(2, 9))
    assert c.field_ranges["chunk_id"] == Range(Pos(3, 2), Pos(3, 28))
    assert c.field_ranges["start"] == Range(Pos(4, 2), Pos(4, 10))
    assert c.field_ranges["quote"] == Range(Pos(6, 2), Pos(6, 13))


def test_block_inside_a_list_item_positions():
    text = (
        "- First item.\n"
        "- The item claim\n"
        "  goes on.\n"
        "\n"
        "  ```cite\n"
        f"  chunk_id: {CID}\n"
        "  start: nope\n"
        "  end: 9\n"
        "  quote: abcd\n"
        "  ```\n"
    )
    doc = parse_draft(text)
    (claim,) = doc.claims
    assert claim.text == "The item claim goes on."
    assert claim.line == 1
    assert claim.range == Range(Pos(1, 2), Pos(2, 10))
    (c,) = claim.citations
    assert c.field_ranges["chunk_id"] == Range(Pos(5, 2), Pos(5, 28))
    assert c.field_ranges["start"] == Range(Pos(6, 2), Pos(6, 13))
    (p,) = c.problems
    assert p.code == "block-syntax" and p.line == 6 and p.range == c.field_ranges["start"]
    assert p.message == "start: expected a non-negative integer, got 'nope'"
    assert doc.uncited_paragraphs == 1  # "First item."


def test_nested_list_in_block_quote():
    text = (
        "> - outer\n"
        ">   - Inner claim.\n"
        ">\n"
        ">     ~~~cite\n"
        f">     {{\"chunk_id\": \"{CID}\", \"start\": 1, \"end\": 2, \"quote\": \"q\"}}\n"
        ">     ~~~\n"
    )
    doc = parse_draft(text)
    (claim,) = doc.claims
    assert claim.text == "Inner claim."
    assert claim.range.start == Pos(1, 6)
    (c,) = claim.citations
    assert c.valid
    assert c.field_ranges["chunk_id"].start == Pos(4, 7)
    assert c.field_ranges["start"].start == Pos(4, 39)
    assert doc.uncited_paragraphs == 1


def test_fence_on_a_list_marker_line_has_no_claim():
    text = f"- ```cite\n  chunk_id: {CID}\n  start: 1\n  end: 2\n  quote: q\n  ```\n"
    doc = parse_draft(text)
    (claim,) = doc.claims
    assert claim.text == ""
    assert messages(claim.problems) == [NO_CLAIM]
    assert claim.citations[0].field_ranges["start"].start == Pos(2, 2)


# --------------------------------------------------------------------------
# Bodies


def test_json_single_citation():
    text = f'Claim.\n\n```cite\n{{"chunk_id": "{CID.upper()}", "start": 3, "end": 9, "quote": "x", "version": "ABCDEF12"}}\n```\n'
    c = only_citation(text)
    assert c.block.kind == "json"
    assert (c.chunk_id, c.start, c.end, c.quote, c.version) == (CID, 3, 9, "x", "abcdef12")
    line = text.split("\n")[3]
    assert c.field_ranges["start"] == Range(Pos(3, line.index('"start"')), Pos(3, len(line)))


def test_json_list_of_citations_pretty_printed():
    text = (
        "Claim.\n\n```cite\n[\n"
        f'  {{"chunk_id": "{CID}", "start": 0, "end": 1, "quote": "a"}},\n'
        "  {\n"
        f'    "chunk_id": "{CID}",\n'
        '    "start": "1",\n'
        '    "end": 2,\n'
        '    "quote": "b"\n'
        "  }\n]\n```\n"
    )
    doc = parse_draft(text)
    (claim,) = doc.claims
    a, b = claim.citations
    assert a.valid and a.index == 0 and b.index == 1
    assert b.field_ranges["start"] == Range(Pos(7, 4), Pos(7, 17))
    (p,) = b.problems
    assert p.line == 7
    assert p.message == "citation 2: start: expected a non-negative integer, got '1'"


def test_json_claim_object():
    text = (
        "Not the claim.\n\n```cite\n"
        f'{{"text": "The  real\\nclaim", "citations": [{{"chunk_id": "{CID}", "start": 0, "end": 1, "quote": "a"}}]}}\n'
        "```\n"
    )
    doc = parse_draft(text)
    (claim,) = doc.claims
    assert claim.text == "The real claim"
    assert claim.line == 2 and claim.range == claim.blocks[0].fence_range
    assert claim.blocks[0].claim_text == "The real claim"
    assert claim.citations[0].valid
    assert doc.uncited_paragraphs == 1  # a claim object never takes the paragraph before it


def test_json_positions_with_escapes_yaml_cannot_read():
    # surrogate-pair escapes are valid JSON that libyaml refuses; positions still work
    text = f'Claim.\n\n```cite\n{{"quote": "\\ud83d\\ude00 smile", "chunk_id": "{CID}", "start": 0, "end": 1}}\n```\n'
    c = only_citation(text)
    assert c.quote == "😀 smile"
    assert c.field_ranges["chunk_id"].start == Pos(3, text.split("\n")[3].index('"chunk_id"'))
    new = apply_edits(text, field_edits(c, {"start": 5, "end": 7}))
    c2 = only_citation(new)
    assert (c2.start, c2.end, c2.quote) == (5, 7, "😀 smile")


def test_json_types_are_strict():
    text = (
        "Claim.\n\n```cite\n"
        f'{{"chunk_id": "{CID}", "start": true, "end": 2.0, "quote": 5, "version": 12345678, "source": null}}\n'
        "```\n"
    )
    c = only_citation(text)
    assert messages(c.problems) == [
        "start: expected a non-negative integer, got true",
        "end: expected a non-negative integer, got 2.0",
        "quote: expected text, got 5",
        "source: expected a source path, got null",
        "version: expected at least 8 hex digits, got 12345678",
    ]
    assert c.start is None and c.end is None and c.quote is None and c.chunk_id == CID


def test_yaml_scalars_stay_strings():
    text = (
        "Claim.\n\n```cite\n"
        "chunk_id: 0123456789abcdef\n"
        "start: 0012\n"
        "end: +20\n"
        "quote: no\n"
        "source: 2024-03-01\n"
        "version: 12345678\n"
        "extra: {a: [1, 2]}\n"
        "```\n"
    )
    c = only_citation(text)
    assert c.valid, c.problems
    assert c.chunk_id == "0123456789abcdef"
    assert (c.start, c.end) == (12, 20)
    assert c.quote == "no"
    assert c.source == "2024-03-01"
    assert c.version == "12345678"
    for value in ("yes", "null", "~", "1e3", "0x1F", "true", "1_000", ".inf"):
        c = only_citation(f"Claim.\n\n```cite\nchunk_id: {CID}\nstart: 1\nend: 2\nquote: {value}\n```\n")
        assert c.quote == value


def test_yaml_quote_styles():
    text = (
        "Claim.\n\n```cite\n"
        f"- {{chunk_id: {CID}, start: 1, end: 2, quote: 'it''s'}}\n"
        f"- chunk_id: {CID}\n  start: 1\n  end: 2\n  quote: |\n    two\n    lines\n"
        f"- chunk_id: {CID}\n  start: 1\n  end: 2\n  quote: folded\n    plain\n"
        "```\n"
    )
    a, b, c = parse_draft(text).claims[0].citations
    assert a.quote == "it's"
    assert b.quote == "two\nlines\n"
    assert c.quote == "folded plain"


def test_ignore_field():
    base = f"Claim.\n\n```cite\nchunk_id: {CID}\nstart: 1\nend: 2\nquote: q\n"
    c = only_citation(base + "ignore: [span-shifted, version-mismatch]\n```\n")
    assert c.ignore == ("span-shifted", "version-mismatch") and c.valid
    c = only_citation(base + "ignore: span-shifted\n```\n")
    assert c.ignore == ("span-shifted",)
    c = only_citation(base + "ignore:\n  - no-such-code\n  - number-mismatch\n```\n")
    assert c.ignore == ("number-mismatch",)
    (p,) = c.problems
    assert p.line == 7 and p.message == "ignore: unknown code 'no-such-code'"
    assert parse_draft(base + "ignore: [number-mismatch]\n```\n").claims[0].ignored == {"number-mismatch"}


FIELD_DEFECTS = [
    ("chunk_id: 0123", 3, "chunk_id: expected 16 hex digits, got '0123'"),
    ("chunk_id: 0123456789abcdeg", 3, "chunk_id: expected 16 hex digits, got '0123456789abcdeg'"),
    ("chunk_id: [a]", 3, "chunk_id: expected 16 hex digits, got a list"),
    ("start: abc", 4, "start: expected a non-negative integer, got 'abc'"),
    ("start: -1", 4, "start: expected a non-negative integer, got '-1'"),
    ("start: 1.5", 4, "start: expected a non-negative integer, got '1.5'"),
    ("start: ''", 4, "start: expected a non-negative integer, got ''"),
    ("end: {a: 1}", 5, "end: expected a non-negative integer, got a mapping"),
    ("end: 3", 5, "end: must be greater than start (start 3, end 3)"),
    ("quote: ''", 6, "quote: expected non-empty text"),
    ("quote: '   '", 6, "quote: expected non-empty text"),
    ("quote:", 6, "quote: expected non-empty text"),
    ("source: ''", 7, "source: expected a source path, got ''"),
    ("version: abc", 7, "version: expected at least 8 hex digits, got 'abc'"),
    ("version: 1234567", 7, "version: expected at least 8 hex digits, got '1234567'"),
    ("ignore: {a: b}", 7, "ignore: expected a list of codes, got a mapping"),
]


@pytest.mark.parametrize("line,lineno,message", FIELD_DEFECTS)
def test_field_defects_are_block_syntax_on_their_line(line, lineno, message):
    fields = {"chunk_id": f"chunk_id: {CID}", "start": "start: 3", "end": "end: 9", "quote": "quote: abc"}
    key = line.split(":", 1)[0]
    if key in fields:
        fields[key] = line
        extra = ""
    else:
        extra = line + "\n"
    text = "Claim.\n\n```cite\n" + "\n".join(fields.values()) + "\n" + extra + "```\n"
    c = only_citation(text)
    assert [(p.code, p.line, p.message) for p in c.problems] == [("block-syntax", lineno, message)]
    assert c.problems[0].range == c.field_ranges[key]
    assert not c.valid
    # the other fields are still read
    if key != "chunk_id":
        assert c.chunk_id == CID
    if key != "quote":
        assert c.quote == "abc"


@pytest.mark.parametrize("missing", ["chunk_id", "start", "end", "quote"])
def test_missing_required_field_is_reported_at_the_fence(missing):
    fields = {"chunk_id": CID, "start": 1, "end": 2, "quote": "q"}
    del fields[missing]
    body = "".join(f"{k}: {v}\n" for k, v in fields.items())
    c = only_citation(f"Claim.\n\n```cite\n{body}```\n")
    (p,) = c.problems
    assert (p.code, p.line, p.message) == ("block-syntax", 2, f"missing required field '{missing}'")
    assert p.range == c.block.fence_range


def test_duplicate_field():
    c = only_citation(f"Claim.\n\n```cite\nchunk_id: {CID}\nstart: 1\nstart: 2\nend: 3\nquote: q\n```\n")
    assert [(p.line, p.message) for p in c.problems] == [(5, "duplicate field 'start'")]
    assert c.start == 2


@pytest.mark.parametrize(
    "body,line,fragment",
    [
        ("chunk_id: [unclosed\n", 3, "invalid YAML"),  # the field's line (SPEC: "the field's line, else the fence")
        ("a: 1\nb: 2\n  c: 3\n", 5, "invalid YAML"),
        ("a: \x01\n", 3, "invalid YAML"),
        ("a: 1\n---\nb: 2\n", 4, "expected a single YAML document"),
        ("a: &x 1\n", 3, "anchors and aliases are not allowed"),
        ("a: &x 1\nb: *x\n", 3, "anchors and aliases are not allowed"),
        ('{"a": 1,\n "b": }\n', 4, "invalid JSON"),
        ("[1, 2,]\n", 3, "invalid JSON"),
        ("just words\n", 2, "expected a citation (a mapping), a list of citations or a claim object"),
        ("\n  \n", 2, "empty cite block"),
        ("# only a comment\n", 2, "empty cite block"),
        ("[]\n", 2, "expected at least one citation, got an empty list"),
        ("- 5\n", 3, "citation mapping, got '5'"),
        ("{citations: []}\n", 3, "invalid JSON"),
        ("citations: {a: 1}\ntext: t\n", 3, "citations: expected a list of citations, got a mapping"),
        (f"citations:\n- {{chunk_id: {CID}, start: 1, end: 2, quote: q}}\n", 2, "text: missing"),
        (f"text: [x]\ncitations:\n- {{chunk_id: {CID}, start: 1, end: 2, quote: q}}\n", 3, "text: expected"),
        ("[" * 50 + "]" * 50 + "\n", 3, "expected a citation mapping, got a list"),
        ("- " * 60 + "x\n", 3, "nesting too deep"),
    ],
)
def test_body_problems(body, line, fragment):
    doc = parse_draft(f"Claim.\n\n```cite\n{body}```\n")
    (claim,) = doc.claims
    (block,) = claim.blocks
    problems = all_problems(doc)
    assert problems, body
    assert all(p.code == "block-syntax" for p in problems)
    assert any(fragment in p.message and p.line == line for p in problems), [(p.line, p.message) for p in problems]


def test_yaml_bomb_is_refused_quickly():
    bomb = (
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
        "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
        "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
        "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
        "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
        "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
        "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
    )
    t = time.perf_counter()
    doc = parse_draft(f"Claim.\n\n```cite\n{bomb}```\n")
    assert time.perf_counter() - t < 1.0
    (block,) = doc.claims[0].blocks
    assert messages(block.problems) == ["anchors and aliases are not allowed"]
    assert block.problems[0].line == 3
    assert block.citations == []


def test_recursive_alias_is_refused():
    doc = parse_draft("Claim.\n\n```cite\n&a [*a]\n```\n")
    assert messages(doc.claims[0].blocks[0].problems) == ["anchors and aliases are not allowed"]


def test_huge_integers():
    t = time.perf_counter()
    digits = "9" * 200_000
    c = only_citation(f"Claim.\n\n```cite\nchunk_id: {CID}\nstart: {digits}\nend: 1{'0' * 30}\nquote: q\n```\n")
    assert messages(c.problems) == ["start: integer too large", "end: integer too large"]
    c = only_citation(f"Claim.\n\n```cite\nchunk_id: {CID}\nstart: 000000000000000000000000000001\nend: 2\nquote: q\n```\n")
    assert c.valid and c.start == 1
    doc = parse_draft(f'Claim.\n\n```cite\n{{"chunk_id": "{CID}", "start": {"1" * 5000}, "end": 2, "quote": "q"}}\n```\n')
    assert messages(doc.claims[0].blocks[0].problems)[0].startswith("invalid JSON")
    c = only_citation(f'Claim.\n\n```cite\n{{"chunk_id": "{CID}", "start": 1, "end": {"1" * 40}, "quote": "q"}}\n```\n')
    assert messages(c.problems) == ["end: integer too large"]
    doc = parse_draft(f"Claim.\n\n```cite\nchunk_id: {CID}\nstart: {'1' * 1_000_000}\nend: 2\nquote: q\n```\n")
    assert messages(doc.claims[0].blocks[0].problems) == ["block too large (over 262144 characters)"]
    assert time.perf_counter() - t < 2.0


def test_deep_json_nesting_is_a_problem_not_a_crash():
    doc = parse_draft("Claim.\n\n```cite\n" + "[" * 100_000 + "]" * 100_000 + "\n```\n")
    assert doc.claims[0].blocks[0].problems


# --------------------------------------------------------------------------
# Claims


def test_no_claim_cases():
    cases = [
        YAML_BLOCK,
        "# Heading\n\n" + YAML_BLOCK,
        "| a | b |\n| - | - |\n| 1 | 2 |\n\n" + YAML_BLOCK,
        "Para.\n\n---\n\n" + YAML_BLOCK,
        "Para.\n\n```python\nx = 1\n```\n" + YAML_BLOCK,
        "    code\n\n" + YAML_BLOCK,
        "<div>\nhtml\n</div>\n\n" + YAML_BLOCK,
    ]
    for text in cases:
        doc = parse_draft(text)
        (claim,) = doc.claims
        assert claim.text == ""
        assert [(p.code, p.message) for p in claim.problems] == [("block-syntax", NO_CLAIM)], text
        open_line = claim.blocks[0].open_line
        assert claim.line == open_line and claim.problems[0].line == open_line
        assert claim.citations[0].valid  # the citation itself is fine


def test_no_citations():
    doc = parse_draft('Para.\n\n```cite\n{"text": "Claim.", "citations": []}\n```\n')
    (claim,) = doc.claims
    assert claim.text == "Claim."
    assert [(p.code, p.line) for p in claim.problems] == [("no-citations", 2)]
    doc = parse_draft("```cite\ntext: Claim.\ncitations: []\n```\n")
    assert [p.code for p in doc.claims[0].problems] == ["no-citations"]


def test_consecutive_blocks_join_one_claim():
    text = (
        "The claim.\n\n"
        + YAML_BLOCK
        + "\n"
        + f'~~~cite\n[{{"chunk_id": "{CID}", "start": 1, "end": 2, "quote": "q"}}]\n~~~\n'
        + "```cite\nnot: [valid\n```\n"
        + "Second claim.\n"
        + YAML_BLOCK
    )
    doc = parse_draft(text)
    first, second = doc.claims
    assert first.text == "The claim."
    assert len(first.blocks) == 3
    assert len(first.citations) == 2
    assert first.blocks[2].problems  # a broken block still belongs to the claim
    assert second.text == "Second claim." and len(second.blocks) == 1
    assert doc.uncited_paragraphs == 0


def test_other_code_between_blocks_breaks_the_chain():
    text = "The claim.\n\n" + YAML_BLOCK + "```text\nx\n```\n" + YAML_BLOCK
    first, second = parse_draft(text).claims
    assert first.text == "The claim." and second.text == ""
    assert messages(second.problems) == [NO_CLAIM]


def test_claim_object_followed_by_plain_blocks():
    text = (
        "Before.\n\n"
        f"```cite\ntext: Object claim\ncitations:\n  - {{chunk_id: {CID}, start: 1, end: 2, quote: q}}\n```\n"
        + YAML_BLOCK
        + YAML_BLOCK
        + f"```cite\ntext: Another\ncitations:\n  - {{chunk_id: {CID}, start: 1, end: 2, quote: q}}\n```\n"
    )
    doc = parse_draft(text)
    a, b = doc.claims
    assert a.text == "Object claim" and len(a.blocks) == 3 and len(a.citations) == 3
    assert b.text == "Another" and len(b.blocks) == 1
    assert doc.uncited_paragraphs == 1


def test_list_before_block_takes_its_last_item():
    text = "1. one\n2. *two* [2](http://x)\n   > nested quote\n\n" + YAML_BLOCK
    doc = parse_draft(text)
    (claim,) = doc.claims
    assert claim.text == "two 2 nested quote"
    assert claim.line == 1
    assert claim.range == Range(Pos(1, 3), Pos(2, 17))
    assert doc.uncited_paragraphs == 1


def test_block_quote_claim_joins_paragraphs():
    text = "> First paragraph\n> still first.\n>\n> Second **one**.\n\n" + YAML_BLOCK
    doc = parse_draft(text)
    (claim,) = doc.claims
    assert claim.text == "First paragraph still first. Second one."
    assert claim.range == Range(Pos(0, 2), Pos(3, 17))
    assert doc.uncited_paragraphs == 0


def test_block_quote_with_its_own_cite_block():
    text = (
        "> Inner claim.\n>\n> ```cite\n"
        + "".join(f"> {line}\n" for line in YAML_BLOCK.splitlines()[1:-1])
        + "> ```\n>\n> Closing words.\n\n"
        + YAML_BLOCK
    )
    doc = parse_draft(text)
    inner, outer = doc.claims
    assert inner.text == "Inner claim."
    assert outer.text == "Inner claim. Closing words."
    assert outer.range.end == Pos(9, 16)
    assert inner.citations[0].valid and outer.citations[0].valid


def test_claim_text_strips_markup():
    text = (
        "A *claim* with __strong__, a [link](https://example.com \"t\"), ![alt *text*](img.png),\n"
        "`code  span`, <span>html</span>, &amp; entities, an autolink <https://a.b/c>,\n"
        "escaped \\*stars\\* and a hard  \n"
        "break and a [reference][r].\n\n"
        "[r]: https://example.com\n\n" + YAML_BLOCK
    )
    (claim,) = parse_draft(text).claims
    assert claim.text == (
        "A claim with strong, a link, alt text, code  span, html, & entities, an autolink "
        "https://a.b/c, escaped *stars* and a hard break and a reference."
    )


def test_uncited_paragraph_counting():
    text = (
        "# Heading is not prose\n\n"
        "Uncited one.\n\n"
        "- uncited item\n- \n\n"
        "> uncited quote\n\n"
        "| table | cells |\n| --- | --- |\n| 1 | 2 |\n\n"
        "```python\ncode = 1\n```\n\n"
        "<p>html block</p>\n\n"
        "***\n\n"
        "[](http://only-a-url)\n\n"
        "-- ... !!\n\n"
        "Cited claim.\n\n" + YAML_BLOCK
    )
    doc = parse_draft(text)
    assert len(doc.claims) == 1
    assert doc.uncited_paragraphs == 3
    assert doc.line_count == len(text.split("\n"))


def test_crlf_draft_lines_and_edits():
    lf = f"Intro.\n\nThe claim.\n\n```cite\nchunk_id: {CID}\nstart: 1\nend: 2\nquote: q\n```\n"
    for eol in ("\r\n", "\r"):
        text = lf.replace("\n", eol)
        doc = parse_draft(text)
        (claim,) = doc.claims
        assert claim.line == 2 and claim.range == Range(Pos(2, 0), Pos(2, 10))
        (c,) = claim.citations
        assert c.field_ranges["start"] == Range(Pos(6, 0), Pos(6, 8))
        assert doc.line_count == 11
        new = apply_edits(text, field_edits(c, {"start": 0, "source": "sources/a.md", "version": "abcdef12"}))
        assert new == lf.replace("start: 1", "start: 0").replace(
            "quote: q\n", "quote: q\nsource: sources/a.md\nversion: abcdef12\n"
        ).replace("\n", eol)


def test_nul_and_odd_line_breaks():
    text = f"Claim \x00 here.\n\n```cite\nchunk_id: {CID}\nstart: 1\nend: 2\nquote: \"a\u2028b\x85c\"\nsource: x\n```\n"
    c = only_citation(text)
    assert c.quote == "a\u2028b c"  # YAML folds (some of) its own line breaks; what matters is the position
    assert c.field_ranges["source"] == Range(Pos(7, 0), Pos(7, 9))
    new = apply_edits(text, field_edits(c, {"source": "y"}))
    assert new == text.replace("source: x", "source: y")


# --------------------------------------------------------------------------
# field_edits


def roundtrip(text: str, values: dict, claim: int = 0, index: int = 0):
    doc = parse_draft(text)
    c = doc.claims[claim].citations[index]
    new = apply_edits(text, field_edits(c, values))
    c2 = parse_draft(new).claims[claim].citations[index]
    for key, value in values.items():
        assert getattr(c2, key) == value, (key, new)
    return new, c2


def test_field_edits_yaml_plain_and_quoted():
    text = (
        "Claim.\n\n```cite\n"
        f"chunk_id: {CID}   # the chunk\n"
        "start: 1\n"
        "end: 5\n"
        'quote: "old quote"\n'
        "# a comment line\n"
        "```\n"
    )
    new, c = roundtrip(
        text,
        {
            "chunk_id": "fedcba9876543210",
            "start": 10,
            "end": 42,
            "quote": 'She said: "yes" # not a comment',
            "source": "sources/policy.md",
            "version": "0123abcd",
        },
    )
    assert c.valid
    assert new == (
        "Claim.\n\n```cite\n"
        "chunk_id: fedcba9876543210   # the chunk\n"
        "start: 10\n"
        "end: 42\n"
        'quote: "She said: \\"yes\\" # not a comment"\n'
        "source: sources/policy.md\n"
        "version: 0123abcd\n"
        "# a comment line\n"
        "```\n"
    )


def test_field_edits_keeps_single_quotes_and_replaces_block_scalars():
    text = (
        "Claim.\n\n```cite\n"
        f"chunk_id: {CID}\nstart: 1\nend: 5\n"
        "quote: |\n  line one\n  line two\n\n"
        "source: 'sources/a b.md'\n"
        "```\n"
    )
    new, c = roundtrip(text, {"quote": "new\nquote", "source": "sources/it's.md"})
    # the blank line after the block scalar was there before and stays
    assert new.endswith("end: 5\nquote: \"new\\nquote\"\n\nsource: 'sources/it''s.md'\n```\n")


def test_field_edits_empty_value_and_list_items():
    text = (
        "- Claim.\n\n  ```cite\n"
        f"  - chunk_id: {CID}\n    start: 1\n    end: 5\n    quote: q\n    source:\n"
        f"  - {{chunk_id: {CID}, start: 1, end: 5, quote: x}}\n"
        "  ```\n"
    )
    new, _ = roundtrip(text, {"source": "sources/a.md", "version": "abcdef12"})
    assert "    source: sources/a.md\n    version: abcdef12\n  - {chunk_id" in new
    new2, _ = roundtrip(new, {"source": "sources/b.md", "version": "abcdef13", "quote": "y"}, index=1)
    assert f'  - {{chunk_id: {CID}, start: 1, end: 5, quote: "y", "source": "sources/b.md", "version": "abcdef13"}}\n' in new2
    # the first citation is untouched
    assert new2.split("  - {")[0] == new.split("  - {")[0]


def test_field_edits_json():
    text = (
        "Claim.\n\n```cite\n"
        f'{{"chunk_id": "{CID}", "start": 1, "end": 5, "quote": "q"}}\n'
        "```\n"
    )
    new, _ = roundtrip(text, {"start": 2, "quote": "é \u2028 \x7f", "source": "s.md", "version": "abcdef12"})
    assert new.splitlines()[3] == (
        f'{{"chunk_id": "{CID}", "start": 2, "end": 5, "quote": "é \\u2028 \\u007f", "source": "s.md", "version": "abcdef12"}}'
    )
    pretty = (
        "Claim.\n\n```cite\n"
        '{\n  "text": "Claim",\n  "citations": [\n    {\n'
        f'      "chunk_id": "{CID}",\n      "start": 1,\n      "end": 5,\n      "quote": "q"\n'
        "    }\n  ]\n}\n```\n"
    )
    new, _ = roundtrip(pretty, {"source": "s.md", "version": "abcdef12"})
    assert '      "quote": "q",\n      "source": "s.md",\n      "version": "abcdef12"\n    }' in new


def test_field_edits_inside_block_quote():
    text = (
        "> Claim.\n>\n> ```cite\n"
        f"> chunk_id: {CID}\n> start: 1\n> end: 5\n> quote: >-\n>   folded\n>   quote\n>\n> ```\n"
        "\nAfter.\n"
    )
    new, c = roundtrip(text, {"quote": "plain", "start": 0, "source": "sources/a.md", "version": "abcdef12"})
    assert new == (
        "> Claim.\n>\n> ```cite\n"
        f'> chunk_id: {CID}\n> start: 0\n> end: 5\n> quote: "plain"\n> source: sources/a.md\n> version: abcdef12\n>\n> ```\n'
        "\nAfter.\n"
    )
    assert c.field_ranges["version"] == Range(Pos(8, 2), Pos(8, 19))


def test_field_edits_plain_only_for_safe_strings():
    text = f"Claim.\n\n```cite\nchunk_id: {CID}\nstart: 1\nend: 5\nquote: plain\nsource: a.md\n```\n"
    new, _ = roundtrip(text, {"source": "sources/with space.md", "quote": "also plain?"})
    assert 'source: "sources/with space.md"' in new and 'quote: "also plain?"' in new
    new, _ = roundtrip(text, {"source": "-dash.md"})
    assert 'source: "-dash.md"' in new


def test_field_edits_without_layout_is_empty():
    doc = parse_draft("Claim.\n\n```cite\n- 5\n```\n")
    assert field_edits(doc.claims[0].citations[0], {"start": 1}) == []


# --------------------------------------------------------------------------
# Properties


_quote_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), min_size=1, max_size=40
).filter(lambda s: s.strip())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(quote=_quote_text, source=st.from_regex(r"[A-Za-z0-9_./ -]{1,20}", fullmatch=True).filter(str.strip))
def test_field_edits_roundtrip_property(quote, source):
    templates = [
        f"Claim.\n\n```cite\nchunk_id: {CID}\nstart: 1\nend: 5\nquote: x\n```\n",
        f"> Claim.\n>\n> ~~~cite\n> - chunk_id: {CID}\n>   start: 1\n>   end: 5\n>   quote: 'x'\n> ~~~\n",
        f'- Claim.\r\n\r\n  ```cite\r\n  {{"chunk_id": "{CID}",\r\n   "start": 1, "end": 5, "quote": "x"}}\r\n  ```\r\n',
    ]
    for text in templates:
        new, c = roundtrip(text, {"quote": quote, "source": source, "version": "abcdef12", "end": 7})
        assert c.valid, c.problems
        assert c.start == 1 and c.chunk_id == CID
        # everything before the block is unchanged
        assert new.split("cite")[0] == text.split("cite")[0]


_full_inline = MarkdownIt("commonmark")


def _reference_plain(source: str) -> str:
    out = []

    def walk(tokens):
        for t in tokens or ():
            if t.type in ("text", "code_inline"):
                out.append(t.content)
            elif t.type in ("softbreak", "hardbreak") or (t.type == "html_inline" and t.content.lower() == "<br>"):
                out.append(" ")
            elif t.type == "image":
                walk(t.children)

    for tok in _full_inline.parseInline(source):
        walk(tok.children)
    return "".join(out).strip()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b ", " ", "  ", "\t", "\n", "é", "1", ".", "*", "[x](y)", "\\", "&amp;", "<b>", "<br>", "`"]), max_size=20))
def test_plain_text_fast_path_matches_markdown_it(parts):
    source = "".join(parts).strip("\n")
    assert plain_text(source) == _reference_plain(source)


FRAGMENTS = [
    "```cite\n", "~~~cite\n", "```\n", "~~~\n", "````cite json\n", "```cited\n",
    "> ", ">", "- ", "1. ", "  ", "    ", "\t", "\n", "\r\n", "\r", "\x00", "\ud800", "\udfff",
    "chunk_id: 0123456789abcdef\n", "start: 1\n", "end: 2\n", "quote: q\n", "quote: |\n  a\n",
    "source: s\n", "version: 12345678\n", "ignore: [x]\n", "text: t\n", "citations:\n", "citations: []\n",
    "- chunk_id: x\n", "{", "}", "[", "]", '{"chunk_id": "0123456789abcdef", "start": 1}', '"', "'", ":",
    "&a ", "*a ", "!!str ", "---\n", "...\n", "# h\n", "Some prose.\n", "*em* [l](u)\n", "| a | b |\n|---|---|\n",
    "<div>\n", "    code\n", "***\n", "\u2028", "\x85", "\ufeff", "😀",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
def test_parse_draft_never_raises_on_fragments(parts):
    text = "".join(parts)
    doc = parse_draft(text)
    lines = split_lines(text)
    assert doc.line_count == len(lines)
    for claim in doc.claims:
        assert claim.blocks
        assert 0 <= claim.line < len(lines)
        for block in claim.blocks:
            assert 0 <= block.open_line <= block.close_line < len(lines)
            for c in block.citations:
                for r in c.field_ranges.values():
                    assert block.open_line <= r.start.line <= block.close_line
                    assert 0 <= r.start.col <= r.end.col <= len(lines[r.start.line])
                field_edits(c, {"quote": "new", "source": "sources/a.md", "version": "abcdef12"})


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_parse_draft_never_raises_on_any_text(text):
    doc = parse_draft(text)
    assert doc.line_count == len(split_lines(text))
    assert doc.uncited_paragraphs >= 0


def test_ten_thousand_citations_parse():
    # the speed is measured in bench/engine_bench.py (draft parsing), not here: a shared machine makes a
    # time limit flaky
    parts = [
        f"Claim number {i} about the delivery.\n\n```cite\nchunk_id: {i:016x}\nstart: {i}\nend: {i + 10}\n"
        f'quote: "quoted text {i}"\nsource: sources/a.md\nversion: 9f2c41d0\n```\n'
        for i in range(10_000)
    ]
    text = "\n".join(parts)
    doc = parse_draft(text)
    assert len(doc.claims) == 10_000 and all(c.citations[0].valid for c in doc.claims)
    assert doc.claims[-1].citations[0].start == 9_999


def test_tab_expanded_by_markdown_it_gives_clamped_ranges_and_no_edits():
    # markdown-it turns " \t" into spaces here, so the body line is not a suffix of the draft line
    text = f"- Claim.\n\n  ```cite\n \tchunk_id: {CID}\n \tstart: 1\n \tend: 2\n \tquote: q\n  ```\n"
    c = only_citation(text)
    assert c.valid
    lines = split_lines(text)
    for r in c.field_ranges.values():
        assert 0 <= r.start.col <= r.end.col <= len(lines[r.start.line])
    assert field_edits(c, {"start": 0}) == []  # better no edit than an edit in the wrong columns



# --------------------------------------------------------------------------
# Dense drafts: blocks are walked as markdown-it writes them


@pytest.mark.parametrize(
    "text",
    [
        "Claim.\n\n```cite\n- 5\n```\n",
        "- item\n\n  ~~~ cite extra\n  x: 1\n  ~~~\n",
        "> ```cite\n> {}\n> ```\n",
        "    ```cite\n    indented code, no fence\n",
        "<div>\n```cite\n</div>\n",
        "```citation\nx\n```\n",
        "```\n```cite\n```\n",
        "| a | b |\n| - | - |\n| ```cite | x |\n",
        "text about cite blocks\n",
    ],
)
def test_has_cite_block_agrees_with_the_parse(text):
    assert has_cite_block(text) == bool(parse_draft(text).claims)


def test_a_top_level_list_claim_takes_its_last_item_and_references_defined_later():
    """The walk keeps only what a claim may take; claim texts wait for every link
    reference definition, and the uncited count is the same as over the whole tree."""
    items = "".join(f"- item {i}\n" for i in range(2000))
    text = (
        f"{items}\n```cite\nchunk_id: {CID}\nstart: 1\nend: 2\nquote: q\n```\n\n"
        f"See [the policy] here.\n\n```cite\nchunk_id: {CID}\nstart: 1\nend: 2\nquote: q\n```\n\n"
        "An uncited [x] paragraph.\n\nAnother one.\n\n[the policy]: https://example.com\n[x]: /y\n"
    )
    doc = parse_draft(text)
    assert [c.text for c in doc.claims] == ["item 1999", "See the policy here."]
    assert doc.claims[0].line == 1999
    assert doc.uncited_paragraphs == 1999 + 2


def test_a_br_tag_parts_the_words_of_a_claim():
    """`<br>` breaks a line inside a paragraph: the claim's words on either side stay two words."""
    doc = parse_draft("A customer has 14 days<br>to request a credit.<BR/>It is free.\n\n```cite\nchunk_id: "
                      + CID + "\nstart: 0\nend: 5\nquote: x\n```\n")
    assert doc.claims[0].text == "A customer has 14 days to request a credit. It is free."


@pytest.mark.parametrize("body,line", [
    ('chunk_id: 0123456789abcdef\nstart: 0\nend: 5\nquote: "unterminated\n', 6),  # the quote's line, not the fence
    ("chunk_id: 0123456789abcdef\nstart: [0\nend: 5\nquote: x\n", 4),  # the start's line, not the next one
    ("chunk_id: 0123456789abcdef\n  bad: indent\nend: 5\n", 4),  # the line the problem is on
])
def test_a_yaml_error_is_reported_on_the_line_of_its_field(body, line):
    doc = parse_draft("Claim.\n\n```cite\n" + body + "```\n")
    (problem,) = [p for c in doc.claims for b in c.blocks for p in b.problems]
    assert problem.code == "block-syntax" and problem.line == line, problem
