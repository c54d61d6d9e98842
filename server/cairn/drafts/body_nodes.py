"""A cite block's body read into nodes that keep their positions: PyYAML's events (or the
values json.loads accepted, with marks from a small scanner over the same text) built into a tree
where every key and value knows its range in the body, and what a node is, in a writer's words.

Positions are 0-based lines and code-point columns of the body: ``mark.index`` is a code-point
offset with libyaml and with the pure-Python parser alike.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

_MAX_DEPTH = 32  # YAML nesting; citations need 4

_YAML_LOADER: Any = getattr(yaml, "CBaseLoader", None) if getattr(yaml, "__with_libyaml__", False) else None
if _YAML_LOADER is None:  # pragma: no cover - depends on the PyYAML build
    _YAML_LOADER = yaml.BaseLoader


# JSON's \uXXXX escapes can spell a lone surrogate, which is no character (YAML refuses it)
_SURROGATE = re.compile("[\ud800-\udfff]")


# --------------------------------------------------------------------------
# Body nodes (built from YAML events, or from JSON values with YAML marks)


class _N:
    """A body node. kind: "map" (value: list of (key, value) nodes), "seq" (list of nodes),
    "str" (a YAML scalar, value str) or "json" (any JSON value not walked further).
    si/ei: code-point offsets in the body (None when unknown); ci: offset of a flow
    mapping's closing brace."""

    __slots__ = ("kind", "value", "si", "ei", "style", "flow", "ci")

    def __init__(self, kind: str, value: Any, si: Any = None, ei: Any = None, style: str = "",
                 flow: bool = False, ci: Any = None) -> None:  # si, ei, ci: offsets, None when unknown
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


def _compose(body: str, loader: Any = None) -> _N | None:
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


# PyYAML's contexts of a construct left open (a quoted scalar, a flow sequence or mapping)

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


def _has_lone_surrogate(value: Any) -> bool:
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


def _json_node(v: Any, yn: _N | None, depth: int) -> _N:
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
