"""Reading drafts: citation blocks, their claims, and in-place field edits (SPEC section 3).

A citation block is a fenced code block whose info string's first word is
exactly ``cite``, found by walking markdown-it's block structure (also inside
list items and block quotes). Its body is JSON when it starts with ``{`` or
``[``, else YAML in which every scalar stays a string. Anything wrong with a
block becomes a ``block-syntax`` Problem; ``parse_draft`` never raises.

Positions are 0-based lines and code-point columns on ``split_lines`` lines.
YAML positions come from PyYAML's event marks (``mark.index`` is a code-point
offset in the body, with libyaml and with the pure-Python parser alike), JSON
positions from a small scanner run over the text json.loads accepted. A body
line is a draft line whose container prefix (``> ``, list indentation, the
fence's own indentation) markdown-it stripped, so the column offset of a body
line is ``len(draft_line) - len(body_line)``.

``field_edits`` rewrites only the value text of a field (or adds a line, or a
``, "key": value`` entry in a JSON object), so comments, order, quoting style
and container prefixes of everything else stay byte-identical.
"""

from __future__ import annotations

import difflib
import gc
import json
import re
from array import array
from bisect import bisect_right
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.normalize import normalize as _normalize

from .cite_fields import PLAIN_FIELDS, SAFE_PLAIN, YAML_UNSAFE, dq
from .model import CODES, Citation, CiteBlock, Claim, DraftDoc, Pos, Problem, Range, TextEdit

__all__ = [
    "read_draft",
    "parse_draft",
    "has_cite_block",
    "near_miss_fences",
    "might_have_near_miss",
    "field_edits",
    "fix_edits",
    "apply_edits",
    "split_lines",
    "line_range",
    "plain_text",
    "MAX_BODY_CHARS",
    "NO_CLAIM",
]

MAX_BODY_CHARS = 256 * 1024
_MAX_DEPTH = 32  # YAML nesting; citations need 4
_MAX_INT = 2**63 - 1  # what SQLite can store

_YAML_LOADER: Any = getattr(yaml, "CBaseLoader", None) if getattr(yaml, "__with_libyaml__", False) else None
if _YAML_LOADER is None:  # pragma: no cover - depends on the PyYAML build
    _YAML_LOADER = yaml.BaseLoader

# inline parsing is done lazily, only for the paragraphs whose text is needed
_MD = MarkdownIt("commonmark").enable("table").disable("inline")

_EOL = re.compile(r"\r\n|\r|\n")
_ALNUM = re.compile(r"[^\W_]")  # a character for which str.isalnum() is true
_HEX16 = re.compile(r"[0-9a-fA-F]{16}")
_HEX8 = re.compile(r"[0-9a-fA-F]{8,}")
_INT = re.compile(r"[+-]?[0-9]+")
# JSON's \uXXXX escapes can spell a lone surrogate, which is no character (YAML refuses it)
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"
)

_FIELDS = ("chunk_id", "start", "end", "quote", "source", "version", "ignore", "claim")
_CONTAINERS = frozenset({"root", "blockquote", "bullet_list", "ordered_list", "list_item"})

NO_CLAIM = (
    "no claim: a cite block must follow the paragraph, list item or block quote it supports, "
    "or be a claim object with text"
)


# --------------------------------------------------------------------------
# Text helpers


def read_draft(path: Path) -> tuple[str, bool]:
    """The draft decoded as UTF-8 (leading BOM removed); True when invalid bytes were replaced."""
    data = Path(path).read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), True


def split_lines(text: str) -> list[str]:
    """Lines split only at \\n, \\r\\n and \\r (unlike str.splitlines)."""
    return _EOL.split(text)


def line_range(text_lines: list[str], line: int) -> Range:
    """From the first non-blank character of `line` to the end of its content."""
    if not 0 <= line < len(text_lines):
        return Range(Pos(line, 0), Pos(line, 0))
    s = text_lines[line]
    end = len(s.rstrip())
    start = len(s) - len(s.lstrip())
    return Range(Pos(line, min(start, end)), Pos(line, end))


def _eol_of(text: str) -> str:
    m = _EOL.search(text)
    return m.group(0) if m else "\n"


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """Apply non-overlapping edits (split_lines positions), keeping the text's line endings.

    Insertions at the same position are applied in the order given.
    """
    if not edits:
        return text
    starts = [0]
    ends = []
    for m in _EOL.finditer(text):
        ends.append(m.start())
        starts.append(m.end())
    ends.append(len(text))
    n = len(starts)

    def offset(p: Pos) -> int:
        if p.line < 0:
            return 0
        if p.line >= n:
            return len(text)
        return min(starts[p.line] + max(p.col, 0), ends[p.line])

    spans = []
    for i, e in enumerate(edits):
        a, b = offset(e.range.start), offset(e.range.end)
        if b < a:
            raise ValueError(f"edit {i} ends before it starts")
        spans.append((a, b, i, e.new_text))
    spans.sort()
    out = []
    last = 0
    for a, b, _, new in spans:
        if a < last:
            raise ValueError("overlapping edits")
        out.append(text[last:a])
        out.append(new)
        last = b
    out.append(text[last:])
    return "".join(out)


# --------------------------------------------------------------------------
# Body nodes (built from YAML events, or from JSON values with YAML marks)


class _N:
    """A body node. kind: "map" (value: list of (key, value) nodes), "seq" (list of nodes),
    "str" (a YAML scalar, value str) or "json" (any JSON value not walked further).
    si/ei: code-point offsets in the body (None when unknown); ci: offset of a flow
    mapping's closing brace."""

    __slots__ = ("kind", "value", "si", "ei", "style", "flow", "ci")

    def __init__(self, kind, value, si=None, ei=None, style="", flow=False, ci=None):
        self.kind = kind
        self.value = value
        self.si = si
        self.ei = ei
        self.style = style
        self.flow = flow
        self.ci = ci


def _attach(parent: _N, pending: list, node: _N) -> None:
    """Add a finished node to its open parent: an item of a sequence, or a
    mapping's key (kept pending) or the value that completes the pair."""
    if parent.kind == "seq":
        parent.value.append(node)
    elif pending[-1] is None:
        pending[-1] = node
    else:
        parent.value.append((pending[-1], node))
        pending[-1] = None


class _BodyError(Exception):
    def __init__(self, message: str, index: int | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.index = index  # body offset
        self.line = line  # body line


_Scalar = yaml.ScalarEvent
_MapStart = yaml.MappingStartEvent
_SeqStart = yaml.SequenceStartEvent
_CollEnd = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _compose(body: str, loader=None) -> _N | None:
    """Build the node tree from parser events (no recursion, no aliases, one document)."""
    root = None
    stack: list[_N] = []
    pending: list[_N | None] = []  # per open mapping: its key waiting for a value
    docs = 0
    parser = (loader or _YAML_LOADER)(body)
    try:
        while True:
            ev = parser.get_event()
            if ev is None:
                break
            cls = type(ev)
            if cls is _Scalar:
                if ev.anchor is not None:
                    raise _BodyError("anchors and aliases are not allowed", ev.start_mark.index)
                node = _N("str", ev.value, ev.start_mark.index, ev.end_mark.index, ev.style or "")
            elif cls is _MapStart or cls is _SeqStart:
                if ev.anchor is not None:
                    raise _BodyError("anchors and aliases are not allowed", ev.start_mark.index)
                if len(stack) >= _MAX_DEPTH:
                    raise _BodyError("nesting too deep", ev.start_mark.index)
                stack.append(_N("map" if cls is _MapStart else "seq", [], ev.start_mark.index, None, "", bool(ev.flow_style)))
                pending.append(None)
                continue
            elif cls in _CollEnd:
                node = stack.pop()
                pending.pop()
                node.ei = ev.end_mark.index
                node.ci = ev.start_mark.index
            elif cls is yaml.AliasEvent:
                raise _BodyError("anchors and aliases are not allowed", ev.start_mark.index)
            elif cls is yaml.DocumentStartEvent:
                docs += 1
                if docs > 1:
                    raise _BodyError("expected a single YAML document", ev.start_mark.index)
                continue
            else:
                continue
            # attach the finished node to its parent
            if not stack:
                root = node
            else:
                _attach(stack[-1], pending, node)
    finally:
        parser.dispose()
    return root


# one JSON token after optional white space: a string, a punctuation mark, or a bare word
# (number, true, false, null, NaN, Infinity)
_JSON_TOKEN = re.compile(r'[ \t\n\r]*(?:("[^"\\]*(?:\\.[^"\\]*)*")|([][{}:,])|([^ \t\n\r{}\[\],:"]+))', re.S)


def _json_marks(body: str) -> _N | None:
    """Positions of a body json.loads accepted: the same tree shape, scalars with offsets
    (only mapping keys carry their decoded value)."""
    root = None
    stack: list[_N] = []
    pending: list[_N | None] = []
    pos = 0
    match = _JSON_TOKEN.match
    while True:
        m = match(body, pos)
        if m is None:
            break
        pos = m.end()
        punct = m.group(2)
        if punct is None:
            string = m.group(1)
            if string is not None:
                is_key = bool(stack) and stack[-1].kind == "map" and pending[-1] is None
                node = _N("str", json.loads(string) if is_key else "", m.start(1), pos, '"')
            else:
                node = _N("str", "", m.start(3), pos, "")
        elif punct == "{" or punct == "[":
            stack.append(_N("map" if punct == "{" else "seq", [], m.start(2), None, "", True))
            pending.append(None)
            continue
        elif punct == "}" or punct == "]":
            node = stack.pop()
            pending.pop()
            node.ci = m.start(2)
            node.ei = pos
        else:
            continue
        if not stack:
            root = node
        else:
            _attach(stack[-1], pending, node)
    return root


class _Pairs(list):
    """A JSON object as its (key, value) pairs, duplicates kept."""


def _has_lone_surrogate(value) -> bool:
    """Does any string (key or value) of a decoded JSON body hold a lone surrogate?"""
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is str:
            if _SURROGATE.search(v):
                return True
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return False


def _json_node(v, yn: _N | None, depth: int) -> _N:
    """A JSON value as nodes (walked 5 levels deep), with positions from _json_marks."""
    si = ei = ci = None
    style = ""
    if yn is not None:
        si, ei, ci, style = yn.si, yn.ei, yn.ci, yn.style
    if depth < 5 and type(v) is _Pairs:
        ok = yn is not None and yn.kind == "map" and len(yn.value) == len(v)
        pairs = []
        for i, (k, val) in enumerate(v):
            yk = yv = None
            if ok and yn is not None:
                yk, yv = yn.value[i]
                if yk.kind != "str" or yk.value != k:
                    yk = yv = None
            kn = _N("json", k, yk.si if yk else None, yk.ei if yk else None, yk.style if yk else "")
            pairs.append((kn, _json_node(val, yv, depth + 1)))
        return _N("map", pairs, si, ei, style, True, ci)
    if depth < 5 and type(v) is list:
        ok = yn is not None and yn.kind == "seq" and len(yn.value) == len(v)
        items = [_json_node(x, yn.value[i] if ok and yn is not None else None, depth + 1) for i, x in enumerate(v)]
        return _N("seq", items, si, ei, style, True, ci)
    return _N("json", v, si, ei, style)


def _describe(n: _N) -> str:
    if n.kind == "map":
        return "a mapping"
    if n.kind == "seq":
        return "a list"
    v = n.value
    if n.kind == "str":
        return _short(v)
    if type(v) is _Pairs:
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    if v is None:
        return "null"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, str):
        return _short(v)
    try:
        s = repr(v)
    except ValueError:
        return "a number"
    return s if len(s) <= 40 else s[:37] + "..."


def _short(s: str) -> str:
    r = repr(s[:60])
    return r if len(s) <= 60 else r[:-1] + "...'"


def _text(n: _N) -> str | None:
    if n.kind == "str" or (n.kind == "json" and type(n.value) is str):
        return n.value
    return None


# --------------------------------------------------------------------------
# One block


class _Ctx:
    """Where a block's body sits in the draft."""

    __slots__ = ("lines", "base", "body", "body_lines", "starts", "offs", "fence_range", "open_line", "kind", "eol")

    def __init__(self, lines, open_line, body, fence_range, kind, eol):
        self.lines = lines
        self.open_line = open_line
        self.base = open_line + 1
        self.body = body
        self.body_lines = body.split("\n")
        self.starts = None
        self.offs: dict[int, int] = {}
        self.fence_range = fence_range
        self.kind = kind
        self.eol = eol

    def lc(self, index: int) -> tuple[int, int]:
        """Body offset -> (body line, column)."""
        if self.starts is None:
            starts = [0]
            pos = self.body.find("\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = self.body.find("\n", pos + 1)
            self.starts = starts
        bl = bisect_right(self.starts, index) - 1
        return bl, index - self.starts[bl]

    def offset(self, bl: int, col: int) -> int:
        """(body line, column) -> body offset."""
        self.lc(0)
        return self.starts[bl] + col

    def off(self, bl: int) -> int:
        """Column of body line `bl` in its draft line (0 when it is not a plain suffix)."""
        o = self.offs.get(bl)
        if o is None:
            o = -1
            dl_i = self.base + bl
            if 0 <= bl < len(self.body_lines) and dl_i < len(self.lines):
                dl, b = self.lines[dl_i], self.body_lines[bl]
                if dl.endswith(b):
                    o = len(dl) - len(b)
            self.offs[bl] = o
        return o if o >= 0 else 0

    def exact(self, bl: int) -> bool:
        """Body line `bl` is its draft line minus a prefix (markdown-it expanded no tab in it)."""
        self.off(bl)
        return self.offs[bl] >= 0

    def pos(self, bl: int, col: int) -> Pos:
        return Pos(self.base + bl, self.off(bl) + col)

    def draft_line(self, bl: int) -> str:
        i = self.base + bl
        return self.lines[i] if 0 <= i < len(self.lines) else ""

    def key_range(self, k: _N) -> Range:
        """From the key to the end of its line's content."""
        if k.si is None:
            return self.fence_range
        bl, col = self.lc(k.si)
        line = self.base + bl
        text = self.lines[line] if line < len(self.lines) else ""
        col = min(col + self.off(bl), len(text))
        end = len(text.rstrip())
        return Range(Pos(line, col), Pos(line, end if end > col else col))

    def problem(self, message: str, rng: Range | None = None) -> Problem:
        rng = rng or self.fence_range
        return Problem("block-syntax", message, rng.start.line, rng)

    def problem_at_body_line(self, message: str, bl: int) -> Problem:
        if 0 <= bl < len(self.body_lines):
            line = self.base + bl
            return self.problem(message, line_range(self.lines, line))
        return self.problem(message)


class _Layout:
    """What field_edits needs to rewrite one citation's fields in place."""

    __slots__ = ("ctx", "node", "entries")

    def __init__(self, ctx: _Ctx, node: _N, entries: dict[str, tuple[_N, _N]]):
        self.ctx = ctx
        self.node = node
        self.entries = entries

    def __repr__(self) -> str:
        return f"<layout of a {self.ctx.kind} citation at line {self.ctx.lc(self.node.si)[0] + self.ctx.base}>"


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


def _kind_of(body: str) -> tuple[Literal["json", "yaml"], str]:
    """("json" or "yaml", the body without its BOM and leading white space)."""
    stripped = body[_bom(body):].lstrip()
    return ("json" if stripped[:1] in ("{", "[") else "yaml"), stripped


def _bom(body: str) -> int:
    """1 when the body starts with U+FEFF. It is read as nothing (as YAML and a UTF-8
    reader do), and every position is counted from the body's real start: libyaml
    counts marks after the BOM, PyYAML's own parser before it."""
    return 1 if body.startswith("\ufeff") else 0


def _shift(root: _N | None, by: int) -> None:
    """Add `by` to every position of a node tree."""
    stack = [root] if root is not None and by else []
    while stack:
        n = stack.pop()
        if n.si is not None:
            n.si += by
        if n.ei is not None:
            n.ei += by
        if n.ci is not None:
            n.ci += by
        if n.kind == "map":
            for k, v in n.value:
                stack.append(k)
                stack.append(v)
        elif n.kind == "seq":
            stack.extend(n.value)


def _body_problem(ctx: _Ctx, e: _BodyError) -> Problem:
    bl = e.line
    if bl is None and e.index is not None:
        bl = ctx.lc(min(max(e.index, 0), len(ctx.body)))[0]
    if bl is None:
        return ctx.problem(e.message)
    return ctx.problem_at_body_line(e.message, bl)


def _fill_block(block: CiteBlock, ctx: _Ctx, stripped: str) -> tuple[CiteBlock, bool, bool]:
    lead = _bom(ctx.body)
    body = ctx.body[lead:]
    if not stripped:
        block.problems.append(ctx.problem("empty cite block"))
        return block, False, False
    if len(body) > MAX_BODY_CHARS:
        block.problems.append(ctx.problem(f"block too large (over {MAX_BODY_CHARS} characters)"))
        return block, False, False
    if ctx.kind == "json":
        try:
            value = json.loads(body, object_pairs_hook=_Pairs)
        except json.JSONDecodeError as e:
            raise _BodyError(f"invalid JSON: {e.msg}", line=e.lineno - 1) from None
        except (ValueError, RecursionError) as e:
            raise _BodyError(f"invalid JSON: {e}"[:200]) from None
        if _has_lone_surrogate(value):
            lone = next((m for m in _SURROGATE_ESCAPE.finditer(body) if len(m.group(0)) == 6), None)
            raise _BodyError(
                f"invalid JSON: {lone.group(0) if lone else 'a string'} is a lone surrogate, not a character",
                lone.start() + lead if lone else None,
            )
        try:
            marks = _json_marks(body)
            _shift(marks, lead)
        except Exception:  # noqa: BLE001 - positions are a nicety; the values come from json
            marks = None
        root: _N | None = _json_node(value, marks, 0)
    else:
        try:
            root = _compose(body)
            _shift(root, lead)
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            what = e.problem or e.context or "syntax error"
            if e.context and e.problem:
                what = f"{e.problem} ({e.context})"
            raise _BodyError(f"invalid YAML: {what}", mark.index + lead if mark else None) from None
        except yaml.reader.ReaderError as e:
            raise _BodyError(f"invalid YAML: {e.reason} (character {e.character!r})", e.position + lead) from None
        except UnicodeError:
            raise _BodyError("invalid YAML: the block holds characters that cannot be encoded") from None
        except yaml.YAMLError as e:
            raise _BodyError(f"invalid YAML: {e}"[:200]) from None
        if root is None:
            block.problems.append(ctx.problem("empty cite block"))
            return block, False, False
    assert root is not None  # a JSON value always makes a node
    return _fill_root(block, ctx, root)


def _fill_root(block: CiteBlock, ctx: _Ctx, root: _N) -> tuple[CiteBlock, bool, bool]:
    """A block's decoded body -> its citations (and claim text, for a claim object)."""
    is_claim = False
    empty_claim = False
    if root.kind == "map" and any(_text(k) == "citations" for k, _ in root.value):
        is_claim = True
        text_node: tuple[_N, _N] | None = None
        cits_node: tuple[_N, _N] | None = None
        for k, v in root.value:
            name = _text(k)
            if name == "text":
                text_node = (k, v)
            elif name == "citations":
                cits_node = (k, v)
        text = _text(text_node[1]) if text_node else None
        if text_node is None:
            block.problems.append(ctx.problem("text: missing; a claim object needs the claim's text"))
            block.claim_text = ""
        elif text is None or not text.strip():
            got = _describe(text_node[1])
            block.problems.append(ctx.problem(f"text: expected the claim's text, got {got}", ctx.key_range(text_node[0])))
            block.claim_text = ""
        else:
            block.claim_text = " ".join(text.split())
        assert cits_node is not None  # the block was taken for a claim object because it has one
        ck, cv = cits_node
        if cv.kind != "seq":
            block.problems.append(
                ctx.problem(f"citations: expected a list of citations, got {_describe(cv)}", ctx.key_range(ck))
            )
            items = []
        else:
            items = cv.value
            empty_claim = not items
    elif root.kind == "map":
        items = [root]
    elif root.kind == "seq":
        items = root.value
        if not items:
            block.problems.append(ctx.problem("expected at least one citation, got an empty list"))
    else:
        block.problems.append(
            ctx.problem(
                "expected a citation (a mapping), a list of citations or a claim object {text, citations}, "
                f"got {_describe(root)}"
            )
        )
        items = []
    multi = len(items) > 1
    for i, item in enumerate(items):
        c = _citation(item, ctx, f"citation {i + 1}: " if multi else "")
        c.block = block
        c.index = i
        block.citations.append(c)
    return block, is_claim, empty_claim


def _citation(node: _N, ctx: _Ctx, prefix: str) -> Citation:
    c = Citation()
    if node.kind != "map":
        rng = ctx.fence_range
        if node.si is not None:
            bl, _ = ctx.lc(node.si)
            rng = line_range(ctx.lines, ctx.base + bl)
        c.problems.append(ctx.problem(f"{prefix}expected a citation mapping, got {_describe(node)}", rng))
        return c
    entries: dict[str, tuple[_N, _N]] = {}
    for k, v in node.value:
        name = _text(k)
        if name is None:
            continue
        if name in entries and name in _FIELDS:
            c.problems.append(ctx.problem(f"{prefix}duplicate field '{name}'", ctx.key_range(k)))
        entries[name] = (k, v)
    fr = c.field_ranges
    for name in _FIELDS:
        if name in entries:
            fr[name] = ctx.key_range(entries[name][0])

    def bad(name: str, what: str) -> None:
        c.problems.append(ctx.problem(f"{prefix}{name}: {what}", fr.get(name)))

    unknown = [k for k in entries if k not in _FIELDS]
    for name in ("chunk_id", "start", "end", "quote"):
        if name not in entries:
            # a misspelt key is the usual cause: name it, on its own line
            near = difflib.get_close_matches(name, unknown, n=1, cutoff=0.7)
            if near:
                c.problems.append(ctx.problem(
                    f"{prefix}missing required field '{name}': unknown field '{near[0]}' (did you mean '{name}'?)",
                    ctx.key_range(entries[near[0]][0])))
            else:
                c.problems.append(ctx.problem(f"{prefix}missing required field '{name}'"))

    if "chunk_id" in entries:
        v = entries["chunk_id"][1]
        s = _text(v)
        if s is not None and _HEX16.fullmatch(s):
            c.chunk_id = s.lower()
        else:
            bad("chunk_id", f"expected 16 hex digits, got {_describe(v)}")
    for name in ("start", "end"):
        if name in entries:
            v = entries[name][1]
            n = _int(v)
            if n is None:
                bad(name, f"expected a non-negative integer, got {_describe(v)}")
            elif n > _MAX_INT:
                bad(name, "integer too large")
            else:
                setattr(c, name, n)
    if c.start is not None and c.end is not None and c.start >= c.end:
        bad("end", f"must be greater than start (start {c.start}, end {c.end})")
    if "quote" in entries:
        v = entries["quote"][1]
        s = _text(v)
        if s is None:
            bad("quote", f"expected text, got {_describe(v)}")
        elif not s.strip():
            bad("quote", "expected non-empty text")
        else:
            c.quote = s
    if "source" in entries:
        v = entries["source"][1]
        s = _text(v)
        if s is None or not s.strip():
            bad("source", f"expected a source path, got {_describe(v)}")
        else:
            c.source = s
    if "version" in entries:
        v = entries["version"][1]
        s = _text(v)
        if s is not None and _HEX8.fullmatch(s):
            c.version = s.lower()
        else:
            bad("version", f"expected at least 8 hex digits, got {_describe(v)}")
    if "claim" in entries:
        v = entries["claim"][1]
        s = _text(v)
        if s is None or not s.strip():
            bad("claim", f"expected the first words of the claim or sha256:<12 hex digits>, got {_describe(v)}")
        else:
            c.claim = " ".join(s.split())
    if "ignore" in entries:
        v = entries["ignore"][1]
        codes: list[str] = []
        s = _text(v)
        if s is not None:
            codes = [s]
        elif v.kind == "seq":
            for item in v.value:
                t = _text(item)
                if t is None:
                    bad("ignore", f"expected a code, got {_describe(item)}")
                else:
                    codes.append(t)
        else:
            bad("ignore", f"expected a list of codes, got {_describe(v)}")
        good = []
        for code in codes:
            code = code.strip()
            if code in CODES:
                if code not in good:
                    good.append(code)
            else:
                bad("ignore", f"unknown code {_short(code)}")
        c.ignore = tuple(good)
    c.layout = _Layout(ctx, node, entries) if node.si is not None else None
    return c


def _int(n: _N) -> int | None:
    """A non-negative integer (or _MAX_INT + 1 when too large), else None."""
    if n.kind == "str":
        s = n.value
        if not _INT.fullmatch(s):
            return None
        digits = s.lstrip("+-").lstrip("0")
        if not digits:
            return 0
        if s[0] == "-":
            return None
        if len(digits) > 19:  # never call int() on a huge string
            return _MAX_INT + 1
        return int(digits)
    if n.kind == "json" and type(n.value) is int:
        return n.value if n.value >= 0 else None
    return None


# --------------------------------------------------------------------------
# Claims


class _B:
    """A block of the Markdown tree (markdown-it's SyntaxTreeNode is slower on big drafts).

    Built while markdown-it tokenizes, and walked as each block is complete, so a draft
    is never held as a whole token stream or tree (see _Sink)."""

    __slots__ = ("type", "map", "info", "markup", "content", "children", "inline",
                 "cur", "prev", "text", "counted", "covered", "keep")

    def __init__(self, type_: str, map_, info: str = "", markup: str = "", content: str = ""):
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


class _Sink(list):
    """markdown-it's token list, consumed as it is written.

    A token is turned into a _B when the next one is pushed (block rules set a
    token's fields just after pushing it; the line maps they finish later are the
    same list objects), and never kept: a draft of 2 MB of list items made about
    400,000 tokens of ~330 bytes each. The list rule reads earlier tokens back only to
    mark tight lists' paragraphs hidden, which nothing here reads: it gets a stand-in."""

    def __init__(self, consume):
        super().__init__()
        self.pushed = 0
        self.pending = None
        self.consume = consume

    def append(self, token) -> None:
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

    def __getitem__(self, i):
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

    def __init__(self, src: str, md, env, tokens) -> None:
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

    def __setattr__(self, name, value) -> None:
        pass


_STAND_IN = _StandIn()


def _is_cite(node: _B) -> bool:
    return node.type == "fence" and node.info.split()[:1] == ["cite"]


# inline markup in CommonMark: escapes, code spans, emphasis, entities, autolinks/html, links/images
_INLINE_MARKUP = re.compile(r"[\\`*_&<\[\]]")
MAX_INLINE_CHARS = 20_000  # longer paragraphs are not parsed inline (plain_text)
_ROUGH_LINK = re.compile(r"\]\([^()\s]*\)|!\[")
_ROUGH_MARKUP = re.compile(r"[\\`*_<>\[\]]")


def _inline_text(tokens, out: list[str]) -> None:
    for t in tokens or ():
        tt = t.type
        if tt == "text" or tt == "code_inline" or tt == "text_special":  # text_special: escapes, entities
            out.append(t.content)
        elif tt == "softbreak" or tt == "hardbreak":
            out.append(" ")
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
        self.root = _B("root", None)
        self.stack = [self.root]
        self.skip = 0  # depth inside a table, whose inner tokens are not needed

    # -- building -----------------------------------------------------------

    def token(self, tok) -> None:
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
                self.uncited += 1
        for claim, paras in self.claim_paras:
            claim.text = " ".join(t for t in (self.ptext(p) for p in paras) if t)

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
        if not _ALNUM.search(inline):
            return
        if "[" in inline:  # a link reference defined further down may change its text
            self.deferred.append(node)
        elif not _INLINE_MARKUP.search(inline) or _ALNUM.search(self.ptext(node)):
            # (without markup, the plain text is the source's words: no need to make it)
            node.counted = True
            self.uncited += 1

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


def _as_pairs(v, depth: int = 0):
    """Decoded JSON with its objects as _Pairs, as the block reader takes them (5 levels, as _json_node walks)."""
    if depth >= 6:
        return v
    if isinstance(v, dict):
        return _Pairs((k, _as_pairs(x, depth + 1)) for k, x in v.items())
    if isinstance(v, list):
        return [_as_pairs(x, depth + 1) for x in v]
    return v


def _walk_values(v, depth: int = 0):
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


def _stop_at_cite(tok) -> None:
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

    def look(tok) -> None:
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
    return DraftDoc(text, w.claims, w.uncited, line_count)


# --------------------------------------------------------------------------
# Field edits


def _format(name: str, value, json_kind: bool, old: _N | None, flow: bool) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return str(value)
    if json_kind or flow:
        return dq(value)
    plain_ok = old is None or (old.kind == "str" and old.style == "")
    if plain_ok and name in PLAIN_FIELDS and SAFE_PLAIN.fullmatch(value):
        return value
    if (
        old is not None
        and old.style == "'"
        and "\n" not in value
        and "\r" not in value
        and not YAML_UNSAFE.search(value)
        and all(ch >= " " or ch == "\t" for ch in value)
    ):
        return "'" + value.replace("'", "''") + "'"
    return dq(value)


def _value_end(ctx: _Ctx, n: _N) -> tuple[int, int]:
    """(body line, col) where a value's text ends (block scalars: before the next line)."""
    sl, _ = ctx.lc(n.si)
    el, ec = ctx.lc(n.ei)
    if el > sl and ec == 0:
        el -= 1
        while el > sl and not ctx.body_lines[el].strip():
            el -= 1
        ec = len(ctx.body_lines[el].rstrip())
    return el, ec


class _BodyEdit:
    """An edit of a block's body: body offsets [a, b) get `text`, whose line breaks are
    written in the draft with its line ending and the container prefix of body line `pl`."""

    __slots__ = ("a", "b", "text", "pl")

    def __init__(self, a: int, b: int, text: str, pl: int = 0):
        self.a, self.b, self.text, self.pl = a, b, text, pl


def field_edits(citation: Citation, values: dict[str, str | int]) -> list[TextEdit]:
    """Edits that set these fields of the citation in the draft, leaving everything else
    as it is; none when the edited block would not read back as intended."""
    return fix_edits(citation, values)[0]


def fix_edits(citation: Citation, values: Mapping[str, str | int | None]) -> tuple[list[TextEdit], str | None]:
    """(edits, None), or ([], why no edit is given).

    The edited body is parsed again before any edit is given: the citation must read
    back with exactly the values set and its other fields, and the block's other
    citations, unchanged. A layout the writer cannot handle is refused, never written."""
    lay = citation.layout
    if not isinstance(lay, _Layout) or not values:
        return [], None
    ctx = lay.ctx
    body_edits = _body_edits(lay, values)
    if not body_edits:
        return [], None
    # never edit a line whose columns are uncertain (a tab markdown-it expanded in a container prefix)
    for e in body_edits:
        for bl in range(ctx.lc(e.a)[0], ctx.lc(e.b)[0] + 1):
            if not ctx.exact(bl):
                return [], "a line of the block has a tab in its indentation"
    why = _reads_back(citation, values, _apply_body(ctx.body, body_edits))
    if why is not None:
        return [], why
    edits = []
    for e in body_edits:
        start, end = ctx.pos(*ctx.lc(e.a)), ctx.pos(*ctx.lc(e.b))
        prefix = ctx.draft_line(e.pl)[: ctx.off(e.pl)]
        edits.append(TextEdit(Range(start, end), e.text.replace("\n", ctx.eol + prefix)))
    return edits, None


def _apply_body(body: str, edits: list[_BodyEdit]) -> str:
    out, last = [], 0
    for e in sorted(edits, key=lambda e: (e.a, e.b)):
        out.append(body[last:e.a])
        out.append(e.text)
        last = max(last, e.b)
    out.append(body[last:])
    return "".join(out)


def _wanted(name: str, value):
    return value.lower() if name in ("chunk_id", "version") and isinstance(value, str) else value


def _reads_back(citation: Citation, values: Mapping, new_body: str) -> str | None:
    """None when `new_body`, parsed as a cite body, holds the citation with `values` set
    and nothing else changed; else what went wrong."""
    old_block = citation.block
    kind, stripped = _kind_of(new_body)
    if old_block is not None and kind != old_block.kind:
        return f"the edited block would read as {kind.upper()}, not {old_block.kind.upper()}"
    empty = Range(Pos(0, 0), Pos(0, 0))
    block = CiteBlock(0, 0, empty, new_body, kind)
    ctx = _Ctx(new_body.split("\n"), -1, new_body, empty, kind, "\n")
    try:
        block, is_claim, _ = _fill_block(block, ctx, stripped)
    except _BodyError as e:
        return f"the edited block would not parse ({e.message})"
    except Exception as e:  # noqa: BLE001 - any failure to parse the edit refuses the edit
        return f"the edited block would not parse ({type(e).__name__})"
    if block.problems:
        return f"the edited block would not parse ({block.problems[0].message})"
    old = old_block.citations if old_block is not None else [citation]
    if len(block.citations) != len(old) or (old_block is not None and block.claim_text != old_block.claim_text):
        return "the edited block would hold other citations"
    for was, now in zip(old, block.citations):
        for name in _FIELDS:
            want = _wanted(name, values[name]) if was is citation and name in values else getattr(was, name)
            got = getattr(now, name)
            if got != want:
                return f"{name} would read back as {_describe_value(got)}, not {_describe_value(want)}"
        if len(now.problems) > len(was.problems):
            return f"the edited citation would not be valid ({now.problems[0].message})"
        # the writer's own keys (notes and the like) keep their values too
        before = was.layout.entries if isinstance(was.layout, _Layout) else {}
        after = now.layout.entries if isinstance(now.layout, _Layout) else {}
        for name, (_, v) in before.items():
            if name in _FIELDS:
                continue
            if name not in after or _plain(after[name][1]) != _plain(v):
                return f"the field {_short(name)} would change"
    return None


def _plain(n: _N):
    """A node's value, positions left out."""
    if n.kind == "map":
        return ("map", tuple((_plain(k), _plain(v)) for k, v in n.value))
    if n.kind == "seq":
        return ("seq", tuple(_plain(x) for x in n.value))
    return (n.kind, repr(n.value))


def _describe_value(v) -> str:
    if v is None:
        return "nothing"
    return _short(v) if isinstance(v, str) else str(v)


def _body_edits(lay: _Layout, values: Mapping) -> list[_BodyEdit]:
    ctx, node = lay.ctx, lay.node
    json_kind = ctx.kind == "json"
    flow = node.flow
    edits: list[_BodyEdit] = []
    missing: list[tuple[str, object]] = []
    for name, value in values.items():
        entry = lay.entries.get(name)
        if entry is None:
            missing.append((name, value))
            continue
        k, v = entry
        if v.si is None or v.ei is None or k.ei is None:
            continue  # position unknown: never write a second key
        new = _format(name, value, json_kind, v, flow)
        if v.kind == "str" and v.value == "" and v.style == "" and v.si == v.ei:
            # an empty value ("source:"): write it just after the colon
            kl, kc = ctx.lc(k.ei)
            line = ctx.body_lines[kl]
            colon = line.find(":", kc)
            at = ctx.offset(kl, colon + 1 if colon >= 0 else len(line))
            edits.append(_BodyEdit(at, at, " " + new))
            continue
        el, ec = _value_end(ctx, v)
        edits.append(_BodyEdit(v.si, ctx.offset(el, ec), new))
    if missing:
        edit = _insert(ctx, node, missing, json_kind, flow)
        if edit is not None:
            edits.append(edit)
    return edits


def _insert(ctx: _Ctx, node: _N, missing, json_kind: bool, flow: bool) -> _BodyEdit | None:
    pairs = [(k, v) for k, v in node.value if k.si is not None and v.si is not None]
    if flow:
        entries = [f"{dq(name)}: {_format(name, value, True, None, True)}" for name, value in missing]
        if not pairs:
            if node.ci is None:
                return None
            return _BodyEdit(node.ci, node.ci, ", ".join(entries))
        k, v = pairs[-1]
        vl, vc = _value_end(ctx, v)
        closing_line = ctx.lc(node.ci)[0] if node.ci is not None else vl
        at = ctx.offset(vl, vc)
        if closing_line > vl:
            kl, kc = ctx.lc(k.si)
            indent = " " * kc
            return _BodyEdit(at, at, "".join(f",\n{indent}{e}" for e in entries), kl)
        return _BodyEdit(at, at, "".join(f", {e}" for e in entries))
    if not pairs:
        return None
    first_key = pairs[0][0]
    fl, kc = ctx.lc(first_key.si)
    # an explicit key ("? start" then ": 12"): the mapping's column is the indicator's
    head = ctx.body_lines[fl][:kc].rstrip()
    if head.endswith("?"):
        kc = len(head) - 1
    if fl == 0:
        kc -= _bom(ctx.body)  # a BOM before the first key is no indentation
    k, v = pairs[-1]
    if v.kind == "str" and v.value == "" and v.si == v.ei:
        vl = ctx.lc(k.ei)[0]
    else:
        vl = _value_end(ctx, v)[0]
    indent = " " * kc
    lines = [f"{indent}{name}: {_format(name, value, json_kind, None, False)}" for name, value in missing]
    at = ctx.offset(vl, len(ctx.body_lines[vl]))
    return _BodyEdit(at, at, "".join("\n" + line for line in lines), vl)
