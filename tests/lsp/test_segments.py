"""Piecewise parsing (cairn/lsp/segments.py) gives exactly the claims of a
whole-draft parse: same texts, lines, ranges, citations and problems."""

from __future__ import annotations

import random

import pytest

from cairn.core.model import Range
from cairn.drafts import parse_draft
from cairn.lsp import segments

CITE = "```cite\nchunk_id: 691d71e4b46d8b0d\nstart: 0\nend: 65\nquote: \"A customer has 14 days\"\nsource: sources/policy.md\n```\n"
FRAGMENTS = [
    "Plain paragraph with **bold** and a [link](http://x).\n",
    "A claim over\ntwo lines of text.\n",
    "Customers have 30 days to ask.\n\n" + CITE,
    "Customers have 30 days to ask.\n" + CITE + CITE,
    '```cite\n{"text": "A claim object.", "citations": []}\n```\n',
    "- A list item claim.\n\n  " + CITE.replace("\n", "\n  ").rstrip(" "),
    "- item one\n- item two\n\n  Still item two, indented.\n",
    "1. first\n\n   continued\n2. second\n",
    "> A quoted claim.\n>\n> ```cite\n> chunk_id: 691d71e4b46d8b0d\n> start: 0\n> end: 5\n> quote: \"A cus\"\n> ```\n",
    "```python\ncode\n\nAlpha inside a fence\n```\n",
    "~~~\ntilde code\n\nAlpha inside tildes\n~~~\n",
    "````\n```\n\nAlpha in a long fence\n````\n",
    "# Heading\n",
    "Setext heading\n==============\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "```cite\nchunk_id: [not, valid\n\nAlpha after a blank in a cite body\n```\n",
    "    indented code\n\n    more code\n",
    "- item with a fence\n\n  ```\n  code\n\nAlpha ends the item\n",
    "<div>\n\nAlpha inside html\n</div>\n",
    "<!-- a comment\n\nAlpha inside a comment\n-->\n",
    "See [the policy][p] for details.\n",
    "[p]: http://example.com\n",
    "Émile says 😀 漢字 here.\n",
    "```cite\n",  # an unterminated fence
    "Text\n---\n",
    "  Indented paragraph start.\n",
    "\tTabbed line\n",
]


def snapshot(doc, shift: int = 0):
    def rng(r: Range) -> tuple:
        return (r.start.line + shift, r.start.col, r.end.line + shift, r.end.col)

    claims = []
    for c in doc.claims:
        claims.append((
            c.text, c.line + shift, rng(c.range),
            tuple((p.code, p.message, p.line + shift, rng(p.range)) for p in c.problems),
            tuple((b.open_line + shift, b.close_line + shift, rng(b.fence_range), b.body, b.kind, b.claim_text,
                   tuple((p.message, rng(p.range)) for p in b.problems)) for b in c.blocks),
            tuple((x.chunk_id, x.start, x.end, x.quote, x.source, x.version, x.ignore,
                   tuple(sorted((k, rng(v)) for k, v in x.field_ranges.items())),
                   tuple((p.message, rng(p.range)) for p in x.problems)) for x in c.citations),
        ))
    return claims


def piecewise(text: str):
    claims = []
    uncited = 0
    for line, piece in segments.pieces(text):
        doc = parse_draft(piece)
        claims += snapshot(doc, line)
        uncited += doc.uncited_paragraphs
    return claims, uncited


def whole(text: str):
    doc = parse_draft(text)
    return snapshot(doc), doc.uncited_paragraphs


def draft(rng: random.Random, crlf: bool) -> str:
    parts = [rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 14))]
    text = ""
    for p in parts:
        text += p + rng.choice(["", "\n", "\n", "\n\n", " \n"])
    return text.replace("\n", "\r\n") if crlf else text


@pytest.mark.parametrize("seed", range(400))
def test_pieces_parse_like_the_whole(seed):
    rng = random.Random(seed)
    text = draft(rng, crlf=seed % 5 == 0)
    assert "".join(p for _, p in segments.pieces(text)) == text
    assert piecewise(text) == whole(text)


def test_a_plain_draft_is_cut_per_claim():
    text = "# Title\n\n" + "".join(f"Claim {i} holds.\n\n{CITE}\n" for i in range(5))
    starts = segments.split(text)
    assert len(starts) == 6
    assert all(text.splitlines()[line].startswith("Claim") for line, _ in starts[1:])


def test_what_could_depend_on_other_pieces_is_not_cut():
    assert len(segments.split("A.\n\n[x]: http://y\n\nB.\n")) == 1  # reference definitions
    assert len(segments.split("A.\n\n<div>\n\nB.\n")) == 1  # HTML blocks
    assert len(segments.split("A.\r\rB.\r")) == 1  # lone carriage returns
    assert len(segments.split("- a\n\n  ```\n  x\n\nB.\n")) == 1  # a fence in a list item, left open
    assert len(segments.split("```\n\nB.\n```\n\nC.\n")) == 2  # inside a fence: no cut
