"""A cite block bound to the claim it was written for (`claim` field, `claim-moved`).

A block that carries `claim` (the first words of its claim, or `sha256:` and
12 hex digits of the claim's text) keeps that binding when the draft is
edited: when the text the block now follows is not its claim (a paragraph was
put between them), the block gets `claim-moved`, which fails the claim it now
follows. Where the claim went is found by the field among the draft's
paragraphs; the fix moving the block back under it is an editor fix (a whole
draft edit, never applied by `--fix`). A block without the field is read as
before: it belongs to the text above it.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

from markdown_it import MarkdownIt

from ..core.model import Claim, Diagnostic, DraftResult, Fix, Pos, Range, TextEdit
from .walk import MAX_NESTING

CODE = "claim-moved"
WORDS = 8  # how many words of its claim a block records
_HASH = re.compile(r"sha256:([0-9a-fA-F]{12})")
_WORD = re.compile(r"\w+")
_MD = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING})


def claim_field(text: str, words: int = WORDS) -> str:
    """The `claim` value Cairn writes for a claim's text: its first words."""
    return " ".join(text.split()[:words])


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def claim_hash(text: str) -> str:
    return "sha256:" + hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:12]


def binds(field: str, claim_text: str) -> bool:
    """Does a block's `claim` field name this claim text? (first words, case,
    punctuation and white space aside; or the hash of the text)."""
    m = _HASH.fullmatch(field.strip())
    if m:
        return claim_hash(claim_text)[7:] == m.group(1).lower()
    want = _words(field)
    if not want:
        return True  # a field of punctuation alone binds nothing
    return _words(claim_text)[: len(want)] == want


def _shown(field: str) -> str:
    return field if _HASH.fullmatch(field.strip()) else f"\u201c{field}\u2026\u201d"


def check_binding(claim: Claim) -> list[Diagnostic]:
    """`claim-moved` for every block of `claim` whose `claim` field names another text."""
    out = []
    for block in claim.blocks:
        if block.claim_text is not None:
            continue  # a claim object carries its text itself
        bound = next((c for c in block.citations if c.claim), None)
        if bound is None or binds(bound.claim or "", claim.text):
            continue
        fixes = []
        if claim.text:
            fixes.append(Fix("Bind this block to the text above it", {"claim": claim_field(claim.text)}, safe=False))
        out.append(Diagnostic(
            CODE,
            f"this block was written for the claim {_shown(bound.claim or '')}, not for the text it now follows",
            block.open_line, block.fence_range, citation=bound, fixes=fixes))
    return out


# -- where the claim is now, and moving the block back -------------------------------


@lru_cache(maxsize=4)  # one draft's moved blocks are all located in the same text
def paragraphs(text: str) -> tuple[tuple[int, int, str], ...]:
    """The draft's paragraphs (also inside lists and quotes): (first line, last line, plain text)."""
    from . import plain_text

    out = []
    tokens = _MD.parse(text)
    for i, tok in enumerate(tokens):
        if tok.type == "paragraph_open" and tok.map and i + 1 < len(tokens):
            out.append((tok.map[0], tok.map[1] - 1, plain_text(tokens[i + 1].content)))
    return tuple(out)


def find_claim(text: str, field: str, block_line: int) -> tuple[int, int] | None:
    """The paragraph `field` names (the one nearest the block when several do):
    its (first line, last line), or None."""
    hits = [(a, b) for a, b, t in paragraphs(text) if t.strip() and binds(field, t)]
    if not hits:
        return None
    return min(hits, key=lambda h: abs(h[1] - block_line))


def move_edits(text: str, open_line: int, close_line: int, field: str) -> tuple[list[TextEdit], int] | None:
    """Edits moving the block on lines [open_line, close_line] to just after the
    paragraph its `claim` field names, and that paragraph's first line; None when
    no paragraph of the draft is that claim."""
    from . import split_lines

    lines = split_lines(text)
    found = find_claim(text, field, open_line)
    if found is None or close_line >= len(lines):
        return None
    first, last = found
    if open_line <= last <= close_line or open_line <= first <= close_line:
        return None
    eol = "\r\n" if "\r\n" in text else "\n"
    k = open_line
    while k - 1 > 0 and not lines[k - 1].strip():
        k -= 1
    if k - 1 < 0 or k - 1 == last:
        return None  # nothing stands between the block and its claim
    block = eol.join(lines[open_line:close_line + 1])
    cut = TextEdit(Range(Pos(k - 1, len(lines[k - 1])), Pos(close_line, len(lines[close_line]))), "")
    put = TextEdit(Range(Pos(last, len(lines[last])), Pos(last, len(lines[last]))), eol + eol + block)
    return [put, cut] if last < k - 1 else [cut, put], first


def complete(text: str, result: DraftResult) -> None:
    """The `claim-moved` diagnostics of a verified draft told where their claim is
    now, with the fix moving the block back (the whole draft is known here)."""
    for cr in result.claims:
        for i, d in enumerate(cr.diagnostics):
            if d.code == CODE and d.citation is not None and d.citation.block is not None:
                cr.diagnostics[i] = located(text, d)


def located(text: str, d: Diagnostic, shift: int = 0) -> Diagnostic:
    """A copy of a `claim-moved` diagnostic naming where its claim is in `text`
    (the block's lines are `shift` lines down), with the fix moving the block."""
    cit = d.citation
    b = cit.block if cit is not None else None
    if cit is None or b is None:
        return d
    moved = move_edits(text, b.open_line + shift, b.close_line + shift, cit.claim or "")
    if moved is None:
        return d.copy(message=d.message + "; no paragraph of the draft begins with it now")
    edits, line = moved
    fix = Fix(f"Move this block back under its claim (line {line + 1})", {}, safe=False, edits=edits)
    return d.copy(message=d.message + f"; that claim is now on line {line + 1}", fixes=[fix, *d.fixes])
