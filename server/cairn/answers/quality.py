"""The sentences of a chunk that state something, without its page chrome.

Documentation pages carry lines that are not prose: Texinfo's navigation
("Next: Using libffi, Previous: libffi, Up: libffi   [Index]"), the underline
of a plain-text heading ("2. License Grants\\n--------") and the heading it
underlines, tables of contents ("1. Introduction", dot leaders with a page
number), menus and bare link lists. They are cut out of a chunk's text, the
rest is read sentence by sentence (meaning.sentences), and a sentence that is
a heading, a question or a fragment is left out too. What is left is what an
extractive answer may quote and what evidence for a claim is looked for in.

Offsets stay the chunk's own, as a cite block writes them.
"""

from __future__ import annotations

import re

from ..meaning.sentences import sentence_spans

__all__ = ["chrome_line", "prose_sentences", "states_something"]

_UNDERLINE = re.compile(r"^\s*([-=~*_#+^.])\1{2,}\s*$")
_NAV = re.compile(r"\b(?:Next|Previous|Prev|Up|Top|Contents|Index|Home):", re.IGNORECASE)
_NAV_TAG = re.compile(r"\[(?:Index|Contents|Top|Home)\]")
_LEADERS = re.compile(r"(?:\.\s?){4,}\s*\d+\s*$|\s\d+\s*$")
_TOC_ENTRY = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.)\s+\S.{0,80}$")
_MENU = re.compile(r"^\s*[\u2022*]\s+[^:]{1,80}::?(?:\s|$)")
_LINK = re.compile(r"^\s*<?(?:https?://|ftp://|www\.)\S+>?\s*$|^\s*\S+\.(?:html?|txt|pdf)\s*$", re.IGNORECASE)
_BARE = re.compile(r"^\s*(?:\d+|[ivxlc]+|page \d+)\s*$", re.IGNORECASE)
_CONTENTS = re.compile(r"^\s*(?:table of contents|contents|index)\s*$", re.IGNORECASE)
_WORDS = re.compile(r"[^\W_]+")
_URLISH = re.compile(r"://|\.html?\b|^/|\w/\w")


def chrome_line(line: str) -> bool:
    """Whether a line is page chrome: navigation, an underline, a contents or menu
    entry, a bare link, a bare page number."""
    if not line.strip():
        return False
    if _UNDERLINE.match(line) or _BARE.match(line) or _CONTENTS.match(line) or _LINK.match(line):
        return True
    if _MENU.match(line):
        return True
    navs = len(_NAV.findall(line))
    if navs >= 2 or (navs and _NAV_TAG.search(line)):
        return True
    stripped = line.strip()
    if _TOC_ENTRY.match(stripped) and not stripped.endswith((".", ";", ":")) and len(stripped.split()) <= 10:
        return True  # "1. Introduction", "2.3 Types": a numbered heading, not a list item that says something
    if _LEADERS.search(stripped) and re.search(r"\.{4,}", stripped):
        return True
    return False


def _segments(text: str) -> list[tuple[int, int]]:
    """The runs of the text's lines that are not chrome (a heading a line of `---`
    underlines goes with it), as (start, end) offsets."""
    lines = []
    pos = 0
    for raw in text.splitlines(keepends=True):
        body = raw.rstrip("\r\n")
        lines.append((pos, pos + len(body), body))
        pos += len(raw)
    bad = [chrome_line(body) for _, _, body in lines]
    for i, (_, _, body) in enumerate(lines):
        if i and _UNDERLINE.match(body) and lines[i - 1][2].strip():
            bad[i - 1] = True
    out: list[tuple[int, int]] = []
    start: int | None = None
    end = 0
    for (s, e, _), b in zip(lines, bad):
        if b:
            if start is not None:
                out.append((start, end))
            start = None
            continue
        if start is None:
            start = s
        end = e
    if start is not None:
        out.append((start, end))
    return out


def states_something(sentence: str) -> bool:
    """Whether a sentence can be quoted as a claim: not a heading, a question, a
    fragment or a list of links."""
    s = sentence.strip()
    if not s or s.startswith("#") or s.endswith("?"):
        return False
    words = _WORDS.findall(s)
    if len(words) < 4:
        return False
    if not s.endswith((".", "!", ";", ":", ")", '"', "\u201d")) and len(words) < 8:
        return False  # a heading or a caption: no sentence end, few words
    tokens = s.split()
    if sum(1 for t in tokens if _URLISH.search(t)) * 2 > len(tokens):
        return False  # mostly links or paths
    return True


def prose_sentences(text: str) -> list[list[tuple[int, int]]]:
    """The sentences of a chunk that state something, grouped by the run of prose
    lines they sit in (a span of several sentences never crosses chrome)."""
    out = []
    for a, b in _segments(text):
        group: list[tuple[int, int]] = []
        for s, e in sentence_spans(text[a:b]):
            if states_something(text[a + s:a + e]):
                group.append((a + s, a + e))
            elif group:  # a heading or a question between two sentences parts them
                out.append(group)
                group = []
        if group:
            out.append(group)
    return out
