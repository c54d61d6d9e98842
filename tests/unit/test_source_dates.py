"""A source's date from its own metadata (sources/dates.py), read through the
real parsers: front matter, HTML <meta> and <time>, values that are no date."""

from __future__ import annotations

import pytest

from cairn.sources import parse_bytes


@pytest.mark.parametrize("text,date", [
    ("---\ndate: 2024-05-12\n---\n\nText.\n", "2024-05-12"),
    ("---\ntitle: x\ndate: '2024-05-12T08:30:00Z'\n---\nText.\n", "2024-05-12"),
    ("---\r\ndate: 2026-02-10\r\n...\r\nText.\r\n", "2026-02-10"),
    ("---\ndate: 12 May 2024\n---\nText.\n", None),  # not an ISO date: no date rather than a guess
    ("---\ndate: 2024-02-30\n---\nText.\n", None),
    ("Text first.\n\n---\ndate: 2024-05-12\n---\n", None),  # front matter only at the start
    ("---\n[unclosed\n---\nText.\n", None),
])
def test_markdown_front_matter(text, date):
    doc = parse_bytes("a.md", text.encode())
    assert doc.date == date
    assert doc.text == text  # the parsed text is unchanged: the date is metadata


def test_a_txt_file_has_no_front_matter_date():
    assert parse_bytes("a.txt", b"---\ndate: 2024-05-12\n---\n").date is None


@pytest.mark.parametrize("html,date", [
    ('<html><head><meta name="DC.date" content="2024-05-12"></head><body><p>x</p></body></html>', "2024-05-12"),
    ('<html><head><meta property="article:published_time" content="2023-01-02T10:00:00+01:00"></head>'
     '<body><p>x</p></body></html>', "2023-01-02"),
    ('<html><body><p>Opened <time datetime="2024-05-12">12 May</time>.</p></body></html>', "2024-05-12"),
    ('<html><head><meta name="date" content="soon"></head><body><time datetime="2022-07-01">x</time></body></html>',
     "2022-07-01"),
    ("<html><body><p>No date here.</p></body></html>", None),
])
def test_html_dates(html, date):
    assert parse_bytes("a.html", html.encode()).date == date
