"""The walk of a draft's Markdown from block to claim to citation (SPEC section 3).

A citation block is a fenced code block whose info string's first word is
exactly ``cite``, found by walking markdown-it's block structure (also inside
list items and block quotes); the paragraph, list item or block quote before it
is its claim. The walk keeps no token (a lean block state and a token sink keep
memory flat on huge drafts). ``parse_draft`` never raises: anything wrong
becomes a ``block-syntax`` Problem.
"""

from __future__ import annotations

import gc
import re
from array import array
from collections.abc import Callable, Iterator
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.normalize import normalize as _normalize

from ..core.model import CiteBlock, Claim, DraftDoc, Pos, Problem, Range
from .body_nodes import _BodyError, _has_lone_surrogate, _json_node, _Pairs
from .cite_body import _body_problem, _Ctx, _fill_block, _fill_root, _kind_of
from .text import _eol_of, line_range, split_lines

# How deep block quotes and lists may nest before markdown-it stops reading what is inside them
# (CommonMark's preset says 20, which a list ten deep reaches: the cite blocks after it were dropped
# and a claim twenty quotes deep lost its text). Deeper than this, a claim left without text is a
# block-syntax problem, never verified. markdown-it itself reads some 400 levels before Python's
# recursion limit.
MAX_NESTING = 200

# inline parsing is done lazily, only for the paragraphs whose text is needed
_MD = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).enable("table").disable("inline")

_ALNUM = re.compile(r"[^\W_]")  # a character for which str.isalnum() is true

# the line before a paragraph that is not a claim (SPEC section 5), in a block quote too
_NO_CLAIM_MARK = re.compile(r"[ \t>]*<!--[ \t]*cairn:[ \t]*no-claim[ \t]*-->[ \t]*\Z")
_CONTAINERS = frozenset({"root", "blockquote", "bullet_list", "ordered_list", "list_item"})

NO_CLAIM = (
    "no claim: a cite block must follow the paragraph, list item or block quote it supports, "
    "or be a claim object with text"
)


# --------------------------------------------------------------------------
# Claims


def _parse_block(node: _B, lines: list[str], eol: str) -> tuple[CiteBlock, bool, bool]:
    """A cite fence -> (block, is a claim object, the claim object's citation list is empty)."""
    open_line = node.map[0]
    close_line = max(node.map[1] - 1, open_line)
    dl = lines[open_line] if open_line < len(lines) else ""
    col = dl.find(node.markup) if node.markup else -1
    if col < 0:
        fence_range = line_range(lines, open_line)
    else:
        fence_range = Range(Pos(open_line, col), Pos(open_line, max(col, len(dl.rstrip()))))
    body = node.content
    kind, stripped = _kind_of(body)
    block = CiteBlock(open_line, close_line, fence_range, body, kind)
    ctx = _Ctx(lines, open_line, body, fence_range, kind, eol)
    try:
        return _fill_block(block, ctx, stripped)
    except _BodyError as e:
        block.citations = []
        block.problems.append(_body_problem(ctx, e))
    except Exception as e:  # noqa: BLE001 - a draft must never crash the engine
        block.citations = []
        block.problems.append(ctx.problem(f"cannot read the block: {type(e).__name__}: {e}"[:300]))
    return block, False, False


class _B:
    """A block of the Markdown tree (markdown-it's SyntaxTreeNode is slower on big drafts).

    Built while markdown-it tokenizes, and walked as each block is complete, so a draft
    is never held as a whole token stream or tree (see _Sink)."""

    __slots__ = ("type", "map", "info", "markup", "content", "children", "inline",
                 "cur", "prev", "text", "counted", "covered", "keep", "slot")

    def __init__(self, type_: str, map_: Any, info: str = "", markup: str = "", content: str = ""):
        self.type = type_
        self.map = map_
        self.info = info
        self.markup = markup
        self.content = content
        self.children: list[_B] = []
        self.inline = None  # a paragraph's or heading's raw inline source
        self.cur: Claim | None = None  # as a parent: the claim its last cite blocks joined
        self.prev: _B | None = None  # as a parent: its last complete child
        self.text: str | None = None  # a paragraph's plain text, once computed
        self.counted = False  # a paragraph counted as uncited (until a claim covers it)
        self.covered = False  # a paragraph that is (part of) a claim
        self.keep = False  # as a parent: keeps every child (a claim may take them all)
        self.slot = -1  # a paragraph counted as uncited: its place in the walk's `listed`


class _Sink(list):
    """markdown-it's token list, consumed as it is written.

    A token is turned into a _B when the next one is pushed (block rules set a
    token's fields just after pushing it; the line maps they finish later are the
    same list objects), and never kept: a draft of 2 MB of list items made about
    400,000 tokens of ~330 bytes each. The list rule reads earlier tokens back only to
    mark tight lists' paragraphs hidden, which nothing here reads: it gets a stand-in."""

    def __init__(self, consume: Callable[[Any], None]) -> None:
        super().__init__()
        self.pushed = 0
        self.pending = None
        self.consume = consume

    def append(self, token: Any) -> None:
        if self.pending is not None:
            self.consume(self.pending)
        self.pending = token
        self.pushed += 1

    def flush(self) -> None:
        if self.pending is not None:
            self.consume(self.pending)
            self.pending = None

    def __len__(self) -> int:
        return self.pushed

    def __bool__(self) -> bool:
        return True

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return []
        return _STAND_IN


class _LeanState(StateBlock):
    """markdown-it's block state with its five tables of one entry a line as typed
    arrays: as lists of ints they took about 100 bytes a line (a draft of blank lines
    grew by 128 bytes a character), as arrays 28. The tables are made here as
    StateBlock.__init__ makes them (the same markers, line for line). A value too large
    for its array (an indentation over 2^31 columns) raises OverflowError: _tokenize's
    caller then runs the plain state."""

    def __init__(self, src: str, md: MarkdownIt, env: dict, tokens: Any) -> None:
        super().__init__("", md, env, tokens)  # every other field, with no lines
        self.src = src
        b_marks: Any = array("q")  # arrays where StateBlock has lists: the same reads, a quarter of the memory
        e_marks: Any = array("q")
        t_shift: Any = array("i")
        s_count: Any = array("i")
        start, length, find = 0, len(src), src.find
        while start < length:
            end = find("\n", start)
            if end < 0:
                end = length
            indent = offset = 0
            pos = start
            while pos < end:
                ch = src[pos]
                if ch == " ":
                    offset += 1
                elif ch == "\t":
                    offset += 4 - offset % 4
                else:
                    break
                indent += 1
                pos += 1
            if pos == end == length:
                break  # a last line of only spaces and tabs without "\n" gets no marker
            b_marks.append(start)
            e_marks.append(end)
            t_shift.append(indent)
            s_count.append(offset)
            start = end + 1 if end < length else length
        b_marks.append(length)  # the fake last entry StateBlock adds
        e_marks.append(length)
        t_shift.append(0)
        s_count.append(0)
        self.bMarks, self.eMarks, self.tShift, self.sCount = b_marks, e_marks, t_shift, s_count
        bs_count: Any = array("i", bytes(4 * len(b_marks)))
        self.bsCount = bs_count
        self.lineMax = len(b_marks) - 1


def _tokenize(text: str, env: dict, sink: _Sink, lean: bool = True) -> None:
    """What _MD.parse does for this parser, writing into `sink`: normalize, then the
    block rules (inline parsing is off, and text_join only joins inline tokens)."""
    core = StateCore(text, _MD, env)
    _normalize(core)
    if core.src:
        state = (_LeanState if lean else StateBlock)(core.src, _MD, env, sink)
        _MD.block.tokenize(state, state.line, state.lineMax)
    sink.flush()


class _StandIn:
    type = ""
    level = -1
    hidden = False
    meta: dict = {}

    def __setattr__(self, name: str, value: Any) -> None:
        pass


_STAND_IN = _StandIn()


def _is_cite(node: _B) -> bool:
    return node.type == "fence" and node.info.split()[:1] == ["cite"]


# inline markup in CommonMark: escapes, code spans, emphasis, entities, autolinks/html, links/images
_INLINE_MARKUP = re.compile(r"[\\`*_&<\[\]]")
MAX_INLINE_CHARS = 20_000  # longer paragraphs are not parsed inline (plain_text)
_ROUGH_LINK = re.compile(r"\]\([^()\s]*\)|!\[")
_ROUGH_MARKUP = re.compile(r"[\\`*_<>\[\]]")


_BREAK_TAG = re.compile(r"<br\s*/?>\Z", re.IGNORECASE)


def _inline_text(tokens: list[Any], out: list[str]) -> None:
    for t in tokens or ():
        tt = t.type
        if tt == "text" or tt == "code_inline" or tt == "text_special":  # text_special: escapes, entities
            out.append(t.content)
        elif tt == "softbreak" or tt == "hardbreak" or (tt == "html_inline" and _BREAK_TAG.match(t.content)):
            out.append(" ")  # (`<br>` breaks a line as a hard break does: the words around it stay apart)
        elif tt == "image":
            _inline_text(t.children, out)


def plain_text(source: str, env: dict | None = None) -> str:
    """The plain text of a paragraph's inline source: markup and link URLs removed,
    line breaks as a single space."""
    if not _INLINE_MARKUP.search(source):
        # no inline markup: what markdown-it's text and newline rules would give
        lines = source.split("\n")
        last = len(lines) - 1
        parts = [
            (line if i == 0 else line.lstrip(" \t")) if i == last else (line if i == 0 else line.lstrip(" \t")).rstrip(" ")
            for i, line in enumerate(lines)
        ]
        return " ".join(parts).strip()
    if len(source) > MAX_INLINE_CHARS:
        # markdown-it's link and emphasis rules take seconds on a paragraph of hundreds of
        # kilobytes of brackets; no claim is that long: drop link URLs and markup characters
        return " ".join(_ROUGH_MARKUP.sub(" ", _ROUGH_LINK.sub(" ", source)).split())
    out: list[str] = []
    _inline_text(_MD.inline.parse(source, _MD, {} if env is None else env, []), out)
    return "".join(out).strip()


class _Walk:
    """Claims from the blocks, each block taken as soon as it is complete.

    A parent keeps its complete children only where a claim may later take them all:
    a block quote's or list item's (and every list inside one of those); a top-level
    list keeps its last item (the one a following block takes), and the top level
    keeps nothing but its last block. Claim texts are made at the end, when every
    link reference definition of the draft is known."""

    def __init__(self, text: str):
        self.text = text
        norm = text.replace("\x00", "\ufffd")  # markdown-it does the same; lengths are unchanged
        self.lines = split_lines(norm)
        self.eol = _eol_of(text)
        self.env: dict = {}
        self.claims: list[Claim] = []
        self.claim_paras: list[tuple[Claim, list[_B]]] = []
        self.deferred: list[_B] = []  # paragraphs whose text may depend on later link references
        self.uncited = 0
        # each paragraph counted as uncited, (first line, text), None once a claim covers it
        self.listed: list[tuple[int, str] | None] = []
        self.root = _B("root", None)
        self.stack = [self.root]
        self.skip = 0  # depth inside a table, whose inner tokens are not needed

    # -- building -----------------------------------------------------------

    def token(self, tok: Any) -> None:
        n = tok.nesting
        if self.skip:
            self.skip += n
            if self.skip == 0:
                self.close()
            return
        if n == 1:
            t = tok.type
            node = _B(t[:-5] if t.endswith("_open") else t, tok.map, tok.info, tok.markup)
            parent = self.stack[-1]
            node.keep = node.type in ("blockquote", "list_item") or (
                node.type in ("bullet_list", "ordered_list") and parent.keep
            )
            self.stack.append(node)
            if node.type == "table":
                self.skip = 1
        elif n == -1:
            if len(self.stack) > 1:
                self.close()
        elif tok.type == "inline":
            self.stack[-1].inline = tok.content
        else:
            self.add(_B(tok.type, tok.map, tok.info, tok.markup, tok.content))

    def close(self) -> None:
        self.add(self.stack.pop())

    def finish(self) -> None:
        while len(self.stack) > 1:
            self.close()
        for p in self.deferred:
            if not p.covered and _ALNUM.search(self.ptext(p)):
                self.count(p, self.ptext(p))
        for claim, paras in self.claim_paras:
            claim.text = " ".join(t for t in (self.ptext(p) for p in paras) if t)
            if not claim.text.strip():
                # a block quote or list item with no text (or none markdown-it would read): no claim
                block = claim.blocks[0]
                claim.problems.append(Problem("block-syntax", NO_CLAIM, block.open_line, block.fence_range))

    # -- walking ------------------------------------------------------------

    def ptext(self, node: _B) -> str:
        if node.text is None:
            node.text = plain_text(node.inline or "", self.env)
        return node.text

    def add(self, node: _B) -> None:
        """A complete block, taken in its parent's sequence of blocks."""
        parent = self.stack[-1]
        t = node.type
        if t == "fence" and node.map and _is_cite(node):
            block, is_claim, empty = _parse_block(node, self.lines, self.eol)
            current = parent.cur
            if is_claim:
                current = Claim(block.claim_text or "", block.open_line, block.fence_range, [block])
                if empty:
                    current.problems.append(
                        Problem("no-citations", "the claim object has no citations", block.open_line, block.fence_range)
                    )
                self.claims.append(current)
            elif current is not None:
                current.blocks.append(block)
            else:
                current = self.claim_for(parent.prev, block)
                self.claims.append(current)
            parent.cur = current
        else:
            parent.cur = None
            if t == "paragraph":
                self.paragraph(node)
        parent.prev = node
        if parent.keep:
            parent.children.append(node)
        elif t == "list_item":
            parent.children = [node]  # a top-level list: only its last item can become a claim

    def paragraph(self, node: _B) -> None:
        inline = node.inline or ""
        if not _ALNUM.search(inline) or self.marked_no_claim(node):
            return
        if "[" in inline:  # a link reference defined further down may change its text
            self.deferred.append(node)
        elif not _INLINE_MARKUP.search(inline):
            # (without markup, the plain text is the source's words: no need to make it)
            self.count(node, inline)
        elif _ALNUM.search(self.ptext(node)):
            self.count(node, self.ptext(node))

    def count(self, node: _B, text: str) -> None:
        """An uncited prose paragraph (until a claim covers it): counted and listed."""
        node.counted = True
        node.slot = len(self.listed)
        self.listed.append((node.map[0] if node.map else 0, " ".join(text.split())))
        self.uncited += 1

    def marked_no_claim(self, node: _B) -> bool:
        """Is the line just before the paragraph `<!-- cairn: no-claim -->` (SPEC section 5)?"""
        first = node.map[0] if node.map else 0
        return first > 0 and first - 1 < len(self.lines) and _NO_CLAIM_MARK.match(self.lines[first - 1]) is not None

    def claim_for(self, prev: _B | None, block: CiteBlock) -> Claim:
        target = None
        if prev is not None:
            if prev.type in ("bullet_list", "ordered_list"):
                items = [c for c in prev.children if c.type == "list_item"]
                target = items[-1] if items else None
            elif prev.type in ("paragraph", "blockquote"):
                target = prev
        if target is None or not target.map:
            claim = Claim("", block.open_line, block.fence_range, [block])
            claim.problems.append(Problem("block-syntax", NO_CLAIM, block.open_line, block.fence_range))
            return claim
        if target.type == "paragraph":
            paras = [target]
        else:
            paras = []
            self.collect(target, paras)
        for p in paras:
            if p.counted and not p.covered:
                self.uncited -= 1
                self.listed[p.slot] = None
            p.covered = True
        claim = Claim("", target.map[0], self.block_range(target), [block])
        self.claim_paras.append((claim, paras))
        return claim

    def collect(self, node: _B, out: list) -> None:
        for c in node.children:
            if c.type == "paragraph":
                out.append(c)
            elif c.type in _CONTAINERS:
                self.collect(c, out)

    def block_range(self, node: _B) -> Range:
        lines = self.lines
        # start: the first content character of the first leaf block
        leaf = node
        while leaf.type in _CONTAINERS and leaf.children:
            leaf = leaf.children[0]
        first = (leaf.map or node.map)[0]
        start = line_range(lines, first).start
        if leaf.inline:
            content = leaf.inline.split("\n", 1)[0].rstrip()
            dl = lines[first].rstrip() if first < len(lines) else ""
            if content and dl.endswith(content):
                start = Pos(first, len(dl) - len(content))
        # end: the end of the last content line, nested cite fences excluded
        last_node = node
        while last_node.type in _CONTAINERS:
            kids = [c for c in last_node.children if c.map and not _is_cite(c)]
            if not kids:
                break
            last_node = kids[-1]
        last = max((last_node.map or node.map)[1] - 1, start.line)
        while last > start.line and last < len(lines) and not lines[last].strip(" \t>"):
            last -= 1
        end_col = len(lines[last].rstrip()) if last < len(lines) else 0
        if last == start.line:
            end_col = max(end_col, start.col)
        return Range(start, Pos(last, end_col))


def parse_draft(text: str) -> DraftDoc:
    """Claims and their citation blocks; every defect is a Problem, never an exception."""
    # A big draft makes hundreds of thousands of small objects; the cyclic GC would
    # otherwise scan them again and again (it roughly doubles the parse time).
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _parse_draft(text)
    finally:
        if paused:
            gc.enable()


def json_claim(value: dict, where: Range) -> Claim:
    """A claim object `{text, citations}` already decoded from JSON (a model's answer,
    SPEC section 3), read by the rules of a cite block's claim object. Every position
    is `where`, and no citation keeps a layout: nothing can be edited through it."""
    line = where.start.line
    block = CiteBlock(line, line, where, "", "json")
    ctx = _Ctx([], line, "", where, "json", "\n")
    empty = False
    try:
        if _has_lone_surrogate(list(_walk_values(value))):
            raise _BodyError("invalid JSON: a string holds a lone surrogate, not a character")
        block, _, empty = _fill_root(block, ctx, _json_node(_as_pairs(value), None, 0))
    except _BodyError as e:
        block.citations = []
        block.problems.append(ctx.problem(e.message))
    except Exception as e:  # noqa: BLE001 - an answer must never crash the engine
        block.citations = []
        block.problems.append(ctx.problem(f"cannot read the claim: {type(e).__name__}: {e}"[:300]))
    claim = Claim(block.claim_text or "", line, where, [block])
    if empty:
        claim.problems.append(Problem("no-citations", "the claim object has no citations", line, where))
    return claim


def _as_pairs(v: Any, depth: int = 0) -> Any:
    """Decoded JSON with its objects as _Pairs, as the block reader takes them (5 levels, as _json_node walks)."""
    if depth >= 6:
        return v
    if isinstance(v, dict):
        return _Pairs((k, _as_pairs(x, depth + 1)) for k, x in v.items())
    if isinstance(v, list):
        return [_as_pairs(x, depth + 1) for x in v]
    return v


def _walk_values(v: Any, depth: int = 0) -> Iterator[str]:
    """Every string key and value of decoded JSON, a few levels deep."""
    if isinstance(v, str):
        yield v
    elif depth < 6 and isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from _walk_values(x, depth + 1)
    elif depth < 6 and isinstance(v, list):
        for x in v:
            yield from _walk_values(x, depth + 1)


class _CiteFound(Exception):
    pass


def _stop_at_cite(tok: Any) -> None:
    if tok.type == "fence" and tok.map and tok.info.split()[:1] == ["cite"]:
        raise _CiteFound


def has_cite_block(text: str) -> bool:
    """Does the draft hold a cite block (and so a claim)? The blocks are only
    tokenized, up to the first cite fence: draft discovery asks this of every
    Markdown file, and a full parse_draft made `cairn check` parse each draft twice."""
    for lean in (True, False):
        try:
            _tokenize(text, {}, _Sink(_stop_at_cite), lean)
        except _CiteFound:
            return True
        except OverflowError:
            continue
        except Exception:  # noqa: BLE001 - as parse_draft: a draft never crashes discovery
            return False
        return False
    return False


# a fence whose info string is almost `cite`: another case, or `citation(s)`
_NEAR_MISS_WORDS = ("cite", "citation", "citations")
_NEAR_MISS = re.compile(r"(?:`{3,}|~{3,})[ \t]*(?i:cite|citations?)(?![\w-])")


def might_have_near_miss(text: str) -> bool:
    """A cheap look for a fence whose info string is almost `cite` (a regular
    expression: only a draft that passes it is tokenized by near_miss_fences)."""
    return any(m.group(0).lstrip("`~ \t") != "cite" for m in _NEAR_MISS.finditer(text))


def near_miss_fences(text: str) -> list[tuple[int, str]]:
    """(0-based line, info word) of each fence that is not a citation block but looks
    meant as one: ```` ```Cite ````, ```` ```CITE ````, ```` ```citation ````. Only the
    exact word `cite` opens a citation block (SPEC section 3); these are told, not read."""
    if not might_have_near_miss(text):
        return []
    found: list[tuple[int, str]] = []

    def look(tok: Any) -> None:
        if tok.type == "fence" and tok.map:
            word = (tok.info.split() or [""])[0]
            if word != "cite" and word.lower() in _NEAR_MISS_WORDS:
                found.append((tok.map[0], word))

    for lean in (True, False):
        found.clear()
        try:
            _tokenize(text, {}, _Sink(look), lean)
        except OverflowError:
            continue
        except Exception:  # noqa: BLE001 - as parse_draft: a draft never crashes a check
            return []
        return found
    return []


def _line_count(text: str) -> int:
    """len(split_lines(text)), without making the lines."""
    return text.count("\n") + text.count("\r") - text.count("\r\n") + 1


def _parse_draft(text: str) -> DraftDoc:
    line_count = _line_count(text)
    for lean in (True, False):
        w = _Walk(text)
        try:
            _tokenize(text, w.env, _Sink(w.token), lean)
            break
        except OverflowError:
            continue  # a line table value too large for the lean state's arrays
        except Exception:  # noqa: BLE001 - markdown-it is robust; this is a last resort
            return DraftDoc(text, [], 0, line_count)
    else:
        return DraftDoc(text, [], 0, line_count)
    w.finish()
    listed = sorted(x for x in w.listed if x is not None)
    return DraftDoc(text, w.claims, w.uncited, line_count, listed)
