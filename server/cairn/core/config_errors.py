"""Configuration mistakes in plain words (issue 49, item 2).

pydantic says "Extra inputs are not permitted" or "Input should be a valid
number"; a person wants to know which file and line, which key, what they
wrote and what would be accepted. This module turns a ValidationError (and
the loader's own refusals) into that, finding each key's line in the TOML
text itself: tomllib keeps no positions.
"""

from __future__ import annotations

import difflib
import json
import re
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

Loc = tuple[str | int, ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=""")
_PART = re.compile(r""""([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+)""")


def _parts(dotted: str) -> list[str]:
    return [a or b or c for a, b, c in _PART.findall(dotted)]


def key_lines(text: str) -> dict[Loc, int]:
    """Each table and key of a TOML text -> its 1-based line; `[[policy]]`
    tables are numbered from 0 as in the parsed data: ("policy", 1, "path").
    A key inside a multi-line array or inline table keeps its parent's line."""
    where: dict[Loc, int] = {}
    table: Loc = ()
    counts: dict[Loc, int] = {}
    depth = 0  # open brackets of a multi-line value: its lines hold no keys of the table
    for n, line in enumerate(text.splitlines(), start=1):
        if depth <= 0:
            depth = 0
            head = _HEADER.match(line)
            if head:
                path: Loc = tuple(_parts(head.group(2)))
                if head.group(1) == "[[":
                    index = counts.get(path, -1) + 1
                    counts[path] = index
                    where.setdefault(path, n)
                    path = (*path, index)
                table = path
                where.setdefault(table, n)
                continue
            key = _KEY.match(line)
            if key:
                where.setdefault((*table, *_parts(key.group(1))), n)
        depth += _bracket_balance(line)
    return where


def _bracket_balance(line: str) -> int:
    """Opening minus closing brackets outside strings and comments (rough, enough
    to tell the continuation lines of a multi-line array)."""
    balance, quote = 0, ""
    for c in line:
        if quote:
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            break
        elif c in "[{":
            balance += 1
        elif c in "]}":
            balance -= 1
    head = _HEADER.match(line)
    return 0 if head else balance


def line_of(lines: dict[Loc, int], loc: Loc) -> int | None:
    """The line of `loc`, else of the nearest enclosing key or table."""
    for cut in range(len(loc), 0, -1):
        if loc[:cut] in lines:
            return lines[loc[:cut]]
    return None


def key_name(loc: Loc) -> str:
    """("judge", "timeout") -> judge.timeout; ("policy", 0, "derived") -> policy[1].derived;
    ("sources", 2) -> sources[3] (1-based, as a person counts)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        else:
            out += ("." if out else "") + part
    return out


def show_value(value: Any) -> str:
    """A value as it would be written in TOML, cut short."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, dict):
        text = "a table"
    elif isinstance(value, list):
        text = json.dumps(value, ensure_ascii=False, default=str)
    else:
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _unwrap(ann: Any) -> Any:
    """`X | None` -> X."""
    if typing.get_origin(ann) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return ann


def _target(model: type[BaseModel], loc: Loc) -> tuple[Any, Any] | None:
    """(annotation, FieldInfo or None) of the place `loc` names in `model`."""
    ann: Any = model
    info = None
    for part in loc:
        ann = _unwrap(ann)
        if isinstance(part, int):
            args = typing.get_args(ann)
            if typing.get_origin(ann) is not list or not args:
                return None
            ann, info = args[0], None
        elif isinstance(ann, type) and issubclass(ann, BaseModel) and part in ann.model_fields:
            info = ann.model_fields[part]
            ann = info.annotation
        else:
            return None
    return _unwrap(ann), info


def _number_range(info: Any) -> str:
    low = high = None
    lo_strict = hi_strict = False
    for m in getattr(info, "metadata", []) or []:
        for name, strict, is_low in (("ge", False, True), ("gt", True, True), ("le", False, False), ("lt", True, False)):
            value = getattr(m, name, None)
            if value is None:
                continue
            if is_low:
                low, lo_strict = value, strict
            else:
                high, hi_strict = value, strict

    def num(v: Any) -> str:
        return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)

    if low is not None and high is not None and not lo_strict and not hi_strict:
        return f" from {num(low)} to {num(high)}"
    out = ""
    if low is not None:
        out += f" {'above' if lo_strict else 'at least'} {num(low)}"
    if high is not None:
        out += ("," if out else "") + f" {'below' if hi_strict else 'at most'} {num(high)}"
    return out


def allowed(ann: Any, info: Any) -> str:
    """What a key accepts, in words."""
    origin = typing.get_origin(ann)
    if ann is bool:
        return "true or false"
    if ann is int:
        return "a whole number" + _number_range(info)
    if ann is float:
        return "a number" + _number_range(info)
    if ann is str:
        return "a text in quotes"
    if origin is typing.Literal:
        return "one of " + ", ".join(json.dumps(a) for a in typing.get_args(ann))
    if origin is list:
        (item,) = typing.get_args(ann) or (Any,)
        if isinstance(item, type) and issubclass(item, BaseModel):
            return "tables, each with the keys " + ", ".join(item.model_fields)
        return "a list of texts in quotes, such as [\"a\", \"b\"]" if item is str else "a list"
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return "a table with the keys " + ", ".join(ann.model_fields)
    if origin is dict:
        return "a table"
    return "a value of another kind"


def _table_words(loc: Loc, origin: str) -> str:
    if not loc:
        return origin
    if isinstance(loc[-1], int):
        return f"[[{key_name(loc[:-1])}]] number {loc[-1] + 1} of {origin}"
    return f"[{key_name(loc)}] of {origin}"


def one_error(model: type[BaseModel], e: Any, origin: str) -> str:
    """One pydantic error as a sentence (without the file and line)."""
    loc: Loc = tuple(e["loc"])
    kind = e["type"]
    name = key_name(loc)
    if kind == "extra_forbidden":
        parent = _target(model, loc[:-1])
        keys = list(parent[0].model_fields) if parent and isinstance(parent[0], type) \
            and issubclass(parent[0], BaseModel) else []
        bad = str(loc[-1])
        near = difflib.get_close_matches(bad, keys, n=1, cutoff=0.6)
        where = _table_words(loc[:-1], origin)
        if near:
            return f"unknown key '{bad}' in {where} (did you mean '{near[0]}'?)"
        return f"unknown key '{bad}' in {where}; the keys allowed there are: {', '.join(keys)}"
    target = _target(model, loc)
    what = allowed(*target) if target else ""
    if kind == "missing":
        return f"{_table_words(loc[:-1], origin)} has no '{loc[-1]}': it is required ({what or 'a value'})"
    written = f"{name} = {show_value(e.get('input'))}"
    if kind == "value_error":
        reason = str(e.get("ctx", {}).get("error") or e["msg"]).removeprefix("Value error, ")
        # the policy's own messages already start with the key's name
        reason = reason.removeprefix(f"{name}: ").removeprefix(f"{loc[-1]}: ")
        return f"{written}: {reason}"
    return f"{written} is not allowed: {name} takes {what}" if what else f"{written}: {e['msg']}"


def describe(err: ValidationError, model: type[BaseModel], origin: str, text: str | None) -> str:
    """Every error of `err`, each with the file and line when `text` (the file's) is known."""
    lines = key_lines(text) if text is not None else {}
    out = []
    for e in err.errors():
        line = line_of(lines, tuple(e["loc"])) if text is not None else None
        out.append(at(origin, line) + one_error(model, e, origin))
    return "; ".join(out)


def at(origin: str, line: int | None) -> str:
    """The prefix naming where: "cairn.toml, line 4: " (or "editor settings: ")."""
    return f"{origin}, line {line}: " if line else f"{origin}: "


_LEADING_KEY = re.compile(r"^([a-z_]+(?:\.[a-z_]+)?)[:\s]")


def locate(message: str, text: str | None, origin: str) -> str:
    """A refusal of the loader's own ("sources: '/x' is an absolute path") with the file
    and the line of the key it starts with."""
    if text is None:
        return f"{origin}: {message}"
    m = _LEADING_KEY.match(message)
    lines = key_lines(text)
    line = line_of(lines, tuple(m.group(1).split("."))) if m else None
    return at(origin, line) + message


_TOML_AT = re.compile(r"^(.*?) \(at line (\d+), column (\d+)\)$")
_TOML_HINTS = {
    "Cannot overwrite a value": "a key or table is set twice",
    "Cannot declare": "a table is declared twice",
    "Expected '=' after a key": "each line is key = value; a text value needs quotes",
    "Invalid value": "a text value needs quotes; true and false are lower case",
}


def toml_syntax(message: str, origin: str) -> str:
    """tomllib's "Cannot overwrite a value (at line 5, column 17)" as
    "cairn.toml, line 5, column 17: Cannot overwrite a value (a key or table is set twice)"."""
    m = _TOML_AT.match(message)
    hint = next((h for start, h in _TOML_HINTS.items() if message.startswith(start)), "")
    hint = f" ({hint})" if hint else ""
    if m:
        return f"{origin}, line {m.group(2)}, column {m.group(3)}: {m.group(1)}{hint}"
    return f"{origin}: {message}{hint}"
