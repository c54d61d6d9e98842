"""Where a cite block for a claim goes: the uncited prose paragraph at a line
of a draft (or the claim there whose citations fail), and the edit that
inserts a block after it.

A paragraph is uncited when no claim of the draft takes it, as the coverage
metric counts them: a Markdown paragraph with a letter or digit, not part of
any claim's block. Only the piece of the draft holding the line is parsed
(segments.py: a piece parses alone as in the whole draft), so this costs a
small parse however long the draft is.

The inserted block sits inside the paragraph's containers (a list item's
indentation, a block quote's markers) so the parser gives it that paragraph
as its claim; an insertion that would not read back so is not offered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt

from .. import drafts as drafts_mod
from ..core.model import ClaimResult
from ..drafts.walk import MAX_NESTING

# the block structure only, as the draft parser reads it (inline markup is read by plain_text)
_MD = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table").disable("inline")
_ALNUM = re.compile(r"[^\W_]")
_MARKER = re.compile(r"[-*+]|\d{1,9}[.)]")


@dataclass(frozen=True, slots=True)
class Target:
    """A claim that wants a source: its text and where its new block goes."""

    text: str  # the claim text a block after it binds to
    first_line: int  # the paragraph's first line (draft lines, 0-based)
    last_line: int  # its last line, or its last cite block's closing fence
    insert_line: int  # the block is inserted at the start of this line
    prefix: str  # what each inserted line starts with (container markers, indentation)
    failing: bool  # a claim whose citations fail, rather than an uncited paragraph


def target_at(state, line: int) -> Target | None:
    """The uncited paragraph holding `line`, or the claim there whose citations
    fail; None on a verified claim, inside a cite block, or anywhere else."""
    found = state.piece_at(line)
    if found is None or state.rel.lower().endswith((".json", ".jsonl")):
        return None
    shift, seg = found
    rel = line - shift
    for cr in seg.claims:
        c = cr.claim
        if any(b.open_line <= rel <= b.close_line for b in c.blocks):
            return None  # never inside a cite block
        if c.range.start.line <= rel <= c.range.end.line:
            return _failing(cr, seg.lines, shift)
    para = _paragraph_at(seg.text, rel)
    if para is None:
        return None
    start, end, inline, env = para
    for cr in seg.claims:
        r = cr.claim.range
        if r.start.line <= start <= r.end.line:
            return None  # part of a claim (an earlier item of the list a claim takes whole)
    text = drafts_mod.plain_text(inline, env)
    if not _ALNUM.search(text):
        return None
    prefix = _prefix(seg.lines[start] if start < len(seg.lines) else "", inline)
    return Target(text, start + shift, end - 1 + shift, end + shift, prefix, False)


def _failing(cr: ClaimResult, lines: list[str], shift: int) -> Target | None:
    c = cr.claim
    if cr.supported or not c.blocks or not c.text.strip() or any(b.claim_text is not None for b in c.blocks):
        return None  # verified, a claim object (its citations live in its own JSON), or no claim text
    last = c.blocks[-1]
    fence = lines[last.open_line] if last.open_line < len(lines) else ""
    prefix = fence[: len(fence) - len(fence.lstrip(" \t>"))]
    return Target(c.text, c.range.start.line + shift, last.close_line + shift, last.close_line + 1 + shift,
                  prefix, True)


def _paragraph_at(text: str, rel: int) -> tuple[int, int, str, dict] | None:
    """(first line, end line, inline source, env) of the paragraph holding line `rel`."""
    env: dict = {}
    found = None
    for tok in _MD.parse(text, env):
        if tok.type == "paragraph_open" and tok.map and tok.map[0] <= rel < tok.map[1]:
            found = tok.map
        elif tok.type == "inline" and found is not None:
            return found[0], found[1], tok.content, env
    return None


def _prefix(first: str, inline: str) -> str:
    """The container markers before a paragraph's first line, as each inserted
    line repeats them: block quote markers kept, list markers as spaces."""
    head = inline.split("\n", 1)[0]
    at = first.find(head) if head else -1
    if at < 0:
        return ""
    lead = first[:at]
    return _MARKER.sub(lambda m: " " * len(m.group(0)), lead)


def block_lines(block: str, prefix: str) -> str:
    """A cite block's text with the container prefix on every line (a blank line
    before it keeps the paragraph's last line apart)."""
    bare = prefix.rstrip()
    lines = [bare] + [prefix + line for line in block.rstrip("\n").split("\n")]
    return "\n".join(lines) + "\n"


def insertion(state, target: Target, block: str) -> tuple[int, int, str] | None:
    """(line, column in characters, text to insert there) putting the block after
    `target`, or None when the edited piece would not give the block to that claim."""
    found = state.piece_at(target.first_line)
    if found is None:
        return None
    shift, seg = found
    eol = "\r\n" if "\r\n" in seg.text else "\n"
    new = block_lines(block, target.prefix)
    rel = target.insert_line - shift
    lines = seg.text.split("\n")
    if rel < len(lines):
        at = sum(len(x) + 1 for x in lines[:rel])
        line, col = target.insert_line, 0
    else:  # after the draft's last line, which has no line break
        new = "\n" + new
        at = len(seg.text)
        line, col = target.insert_line - 1, len(lines[-1])
    new = new.replace("\n", eol)
    edited = seg.text[:at] + new + seg.text[at:]
    fence = rel + 1  # the opening fence, after the blank line that parts it from the claim
    for claim in drafts_mod.parse_draft(edited).claims:
        for b in claim.blocks:
            if b.open_line == fence:
                ok = (" ".join(claim.text.split()) == " ".join(target.text.split())
                      and b.citations and not b.problems and not any(c.problems for c in b.citations))
                return (line, col, new) if ok else None
    return None
