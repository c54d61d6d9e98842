"""A cite block's body read with positions: the YAML/JSON reader that keeps where every key and
value sits, and the citations (or claim object) made from it, each problem a ``block-syntax``
Problem on the range it is about.

Positions are 0-based lines and code-point columns on ``split_lines`` lines.
YAML positions come from PyYAML's event marks (``mark.index`` is a code-point
offset in the body, with libyaml and with the pure-Python parser alike), JSON
positions from a small scanner run over the text json.loads accepted. A body
line is a draft line whose container prefix (``> ``, list indentation, the
fence's own indentation) markdown-it stripped, so the column offset of a body
line is ``len(draft_line) - len(body_line)``.
"""

from __future__ import annotations

import difflib
import json
import re
from bisect import bisect_right
from typing import Literal

import yaml

from ..core.model import CODES, Citation, CiteBlock, Pos, Problem, Range
from .body_nodes import (
    _N,
    _BodyError,
    _compose,
    _describe,
    _has_lone_surrogate,
    _json_marks,
    _json_node,
    _Pairs,
    _short,
    _text,
)
from .text import line_range

MAX_BODY_CHARS = 256 * 1024
_MAX_INT = 2**63 - 1  # what SQLite can store
_HEX16 = re.compile(r"[0-9a-fA-F]{16}")
_HEX8 = re.compile(r"[0-9a-fA-F]{8,}")
_INT = re.compile(r"[+-]?[0-9]+")
_SURROGATE_ESCAPE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"
)
_FIELDS = ("chunk_id", "start", "end", "quote", "source", "version", "ignore", "claim")
_OPENED_AT = ("while scanning a quoted scalar", "while parsing a flow", "while scanning a block scalar")



# --------------------------------------------------------------------------
# One block


class _Ctx:
    """Where a block's body sits in the draft."""

    __slots__ = ("lines", "base", "body", "body_lines", "starts", "offs", "fence_range", "open_line", "kind", "eol")

    def __init__(self, lines: list[str], open_line: int, body: str, fence_range: Range, kind: str, eol: str) -> None:
        self.lines = lines
        self.open_line = open_line
        self.base = open_line + 1
        self.body = body
        self.body_lines = body.split("\n")
        self.starts: list[int] | None = None
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
        else:
            starts = self.starts
        bl = bisect_right(starts, index) - 1
        return bl, index - starts[bl]

    def offset(self, bl: int, col: int) -> int:
        """(body line, column) -> body offset."""
        self.lc(0)
        assert self.starts is not None  # made by lc
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
            if e.context_mark is not None and e.context and e.context.startswith(_OPENED_AT):
                # an unclosed quote or bracket is found wanting where the next line starts (or the
                # block ends): the field's line is where it was opened
                mark = e.context_mark
            what = e.problem or e.context or "syntax error"
            if e.context and e.problem:
                what = f"{e.problem} ({e.context})"
            if mark is not None and (e.problem or "").startswith("mapping values are not allowed"):
                what += _colon_hint(body, mark.index)
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


_PLAIN_WITH_COLON = re.compile(r"^(\s*(?:-\s+)?)([A-Za-z_][\w-]*):[ \t]+([^\"'\s].*:(?:\s.*)?)$")


def _colon_hint(body: str, index: int) -> str:
    """The hint for YAML's "mapping values are not allowed": an unquoted value holding
    `: ` (`quote: Note: the fee ...`) reads as a second key; quoting it fixes that."""
    start = body.rfind("\n", 0, index) + 1
    end = body.find("\n", index)
    m = _PLAIN_WITH_COLON.match(body[start:end if end >= 0 else len(body)].rstrip())
    if not m:
        return ""
    key, value = m.group(2), m.group(3)
    quoted = json.dumps(value, ensure_ascii=False)
    shown = quoted if len(quoted) <= 60 else quoted[:56] + '..."'
    return f"; the value of '{key}' holds ': ', which YAML reads as a new key: put it in quotes, {key}: {shown}"


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
