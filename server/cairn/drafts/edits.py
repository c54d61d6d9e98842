"""The writer of field edits: a citation's fields rewritten in place in its cite block.

``field_edits`` rewrites only the value text of a field (or adds a line, or a
``, "key": value`` entry in a JSON object), so comments, order, quoting style
and container prefixes of everything else stay byte-identical. ``fix_edits``
refuses an edit whose block would not read back as the same citation with the
new values. The quoting rules are cite_fields.py's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..core.model import Citation, CiteBlock, Pos, Range, TextEdit
from .body_nodes import _N, _BodyError, _short
from .cite_body import _bom, _Ctx, _fill_block, _kind_of, _Layout
from .fields import PLAIN_FIELDS, SAFE_PLAIN, YAML_UNSAFE, dq

_FIELDS = ("chunk_id", "start", "end", "quote", "source", "version", "ignore", "claim")


# --------------------------------------------------------------------------
# Field edits


def _format(name: str, value: Any, json_kind: bool, old: _N | None, flow: bool) -> str:
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


def _wanted(name: str, value: Any) -> Any:
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


def _plain(n: _N) -> tuple[Any, ...]:
    """A node's value, positions left out."""
    if n.kind == "map":
        return ("map", tuple((_plain(k), _plain(v)) for k, v in n.value))
    if n.kind == "seq":
        return ("seq", tuple(_plain(x) for x in n.value))
    return (n.kind, repr(n.value))


def _describe_value(v: Any) -> str:
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


def _insert(ctx: _Ctx, node: _N, missing: list[tuple[str, Any]], json_kind: bool, flow: bool) -> _BodyEdit | None:
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
