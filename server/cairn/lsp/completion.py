"""Completion inside a cite block.

- After `quote:`: the words typed so far find source passages holding them
  (the store's full-text search); accepting one writes the quote and sets
  `chunk_id`, `start`, `end`, `source` and `version` to match, adding the
  fields the citation lacks.
- After `chunk_id:`: the known chunk ids with that prefix, the chunk's text
  as documentation.

LSP wants the main edit on the cursor's line; the other fields are
`additionalTextEdits` on their own lines, so a YAML citation is read here
line by line (it is often not valid YAML while being typed).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from lsprotocol import types

from .. import drafts as drafts_mod
from ..core.model import Chunk
from ..drafts.binding import claim_field
from ..drafts.fields import VERSION_DIGITS, citation_values, dq, yaml_value
from . import segments
from .markdown import escape, in_context

_WORD = re.compile(r"[^\W_]+")
_YAML_KEY = re.compile(r"^(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?(?P<key>[A-Za-z_][A-Za-z0-9_]*)[ \t]*:(?=\s|$)")
_JSON_KEY = re.compile(r'"(?P<key>quote|chunk_id)"\s*:\s*')
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
FIELDS = ("chunk_id", "start", "end", "source", "version")
MAX_ITEMS = 20


def passage(text: str, words: list[str]) -> tuple[int, int] | None:
    """The sentence of `text` holding the first typed word (the last may be a prefix)."""
    low = text.casefold()
    pos = -1
    for w in words:
        p = low.find(w.casefold())
        if p >= 0:
            pos = p
            break
    if pos < 0:
        return None
    start = 0
    for m in _SENTENCE_END.finditer(text, 0, pos):
        start = m.end()
    after = _SENTENCE_END.search(text, pos)
    end = after.end() if after else len(text)
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


# --------------------------------------------------------------------------
# Where the cursor is


@dataclass
class Spot:
    field: str  # "quote" or "chunk_id"
    kind: str  # "yaml" or "json"
    line: int  # absolute line of the cursor
    value_start: int  # code-point column where the value begins (after the colon)
    value_end: int  # end of the line's content
    typed: str  # the value typed before the cursor
    block_open: int  # absolute lines of the fences
    block_close: int
    prefix_col: int  # columns of container prefix (block quote, list indentation) on body lines
    claim: str = ""  # the text of the claim the block follows (what its `claim` field binds it to)


def find_spot(text: str, line: int, col: int) -> Spot | None:
    for first, piece in segments.pieces(text):
        if first > line:
            break
        last = first + piece.count("\n")
        if line > last:
            continue
        doc = drafts_mod.parse_draft(piece)
        lines = drafts_mod.split_lines(piece)
        rel = line - first
        for claim in doc.claims:
            for b in claim.blocks:
                if b.open_line < rel < b.close_line or (b.open_line < rel and b.close_line == b.open_line):
                    spot = _spot_in(lines, rel, col, b, first)
                    if spot is not None and b.claim_text is None:
                        spot.claim = claim.text
                    return spot
        return None
    return None


def _spot_in(lines: list[str], rel: int, col: int, block, first: int) -> Spot | None:
    line = lines[rel] if rel < len(lines) else ""
    pcol = block.fence_range.start.col
    before = line[:col]
    if block.kind == "json":
        m = None
        for m in _JSON_KEY.finditer(before):  # noqa: B007 - the loop only finds the last match
            pass
        if m is None:
            return None
        vs = m.end()
        typed = before[vs:]
        if typed.startswith('"'):
            typed = typed[1:]
        if '"' in typed.replace('\\"', ""):
            return None  # the cursor is after the value's closing quote
        return Spot(m.group("key"), "json", first + rel, vs, max(len(line.rstrip()), col), typed,
                    first + block.open_line, first + block.close_line, pcol)
    body = line[pcol:] if len(line) >= pcol else ""
    m = _YAML_KEY.match(body)
    if m is None or m.group("key") not in ("quote", "chunk_id"):
        return None
    colon = pcol + m.end()
    if col < colon:
        return None
    typed = line[colon:col].strip()
    if typed[:1] in ('"', "'"):
        typed = typed[1:]
    return Spot(m.group("key"), "yaml", first + rel, colon, max(len(line.rstrip()), col), typed,
                first + block.open_line, first + block.close_line, pcol)


# --------------------------------------------------------------------------
# Edits


def _key_col(m: re.Match | None) -> int:
    assert m is not None  # the key pattern matches every line it is given
    return len(m.group("indent")) + len(m.group("dash") or "")


def yaml_item_fields(lines: list[str], spot: Spot) -> tuple[dict[str, tuple[int, int]], int]:
    """The other fields of the cursor's citation: name -> (line, column after its colon),
    and the first line after the quote's value (an old quote's continuation lines end there)."""
    pcol = spot.prefix_col

    def key(i: int):
        s = lines[i] if 0 <= i < len(lines) else ""
        return _YAML_KEY.match(s[pcol:] if len(s) >= pcol else "")

    me = key(spot.line)
    kc = _key_col(me)
    fields: dict[str, tuple[int, int]] = {}
    if not me.group("dash"):
        for i in range(spot.line - 1, spot.block_open, -1):
            m = key(i)
            if m is None or _key_col(m) > kc:
                continue  # a continuation of some value
            if _key_col(m) < kc:
                break
            fields.setdefault(m.group("key"), (i, pcol + m.end()))
            if m.group("dash"):
                break  # the first line of this citation
    after_value = None
    stop = min(spot.block_close, len(lines))
    i = spot.line + 1
    while i < stop:
        m = key(i)
        if m is not None and _key_col(m) <= kc:
            if after_value is None:
                after_value = i
            if m.group("dash") or _key_col(m) < kc:
                break  # the next citation, or the end of this mapping
            fields.setdefault(m.group("key"), (i, pcol + m.end()))
        i += 1
    if after_value is None:
        after_value = i
    return fields, after_value


def quote_edits(lines: list[str], spot: Spot, values: dict, eol: str):
    """(main edit, additional edits) in code-point positions: (line, start col, end col, text) and
    [(start line, start col, end line, end col, text)]."""
    if spot.kind == "json":
        return _json_edits(lines, spot, values)
    main = (spot.line, spot.value_start, spot.value_end, " " + dq(values["quote"]))
    fields, after_value = yaml_item_fields(lines, spot)
    extra = []
    for name in FIELDS:
        if name in fields:
            ln, c = fields[name]
            end = len(lines[ln].rstrip())
            extra.append((ln, c, ln, end, " " + yaml_value(name, values[name])))
    missing = [n for n in FIELDS if n not in fields]
    if "claim" in values and "claim" not in fields:
        missing.append("claim")  # a block that names no claim yet is bound to the one it follows
    line = lines[spot.line]
    prefix = "".join(ch if ch in " \t>" else " " for ch in line[: spot.prefix_col])
    me = _YAML_KEY.match(line[spot.prefix_col:])
    indent = " " * _key_col(me)
    new_lines = "".join(f"{prefix}{indent}{n}: {yaml_value(n, values[n])}{eol}" for n in missing)
    nxt = spot.line + 1
    if after_value > nxt or new_lines:
        # replace the old quote's continuation lines (if any) by the missing fields
        extra.append((nxt, 0, after_value, 0, new_lines))
    return main, extra


def _json_edits(lines: list[str], spot: Spot, values: dict):
    line = lines[spot.line]
    start = line.rfind("{", 0, spot.value_start)
    if start < 0:
        return (spot.line, spot.value_start, spot.value_end, dq(values["quote"])), []
    end = _object_end(line, start)
    keep = {}
    m = re.search(r'"ignore"\s*:\s*(\[[^\]]*\]|"[^"]*")', line[start:end])
    if m:
        try:
            keep["ignore"] = json.loads(m.group(1))
        except ValueError:
            pass
    obj = {k: values[k] for k in ("chunk_id", "start", "end", "quote", "source", "version")} | keep
    m = re.search(r'"claim"\s*:\s*("(?:[^"\\]|\\.)*")', line[start:end])
    if m:
        try:
            obj["claim"] = json.loads(m.group(1))  # the writer's binding stays
        except ValueError:
            pass
    elif "claim" in values:
        obj["claim"] = values["claim"]
    return (spot.line, start, end, json.dumps(obj, ensure_ascii=False)), []


def _object_end(line: str, start: int) -> int:
    depth = 0
    i = start
    in_str = False
    while i < len(line):
        ch = line[i]
        if in_str:
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(line.rstrip())


# --------------------------------------------------------------------------
# Items


def _to_lsp_edit(lines, codec, e) -> types.TextEdit:
    sl, sc, el, ec, text = e
    ls = lines[sl] if sl < len(lines) else ""
    le = lines[el] if el < len(lines) else ""
    return types.TextEdit(
        range=types.Range(start=types.Position(line=sl, character=codec.to_client(ls, sc)),
                          end=types.Position(line=el, character=codec.to_client(le, ec))),
        new_text=text,
    )


def quote_items(lines, codec, spot: Spot, chunks: list[Chunk], eol: str) -> list[types.CompletionItem]:
    words = _WORD.findall(spot.typed)
    items: list[types.CompletionItem] = []
    seen = set()
    for ch in chunks:
        span = passage(ch.text, words)
        if span is None:
            continue
        s, e = span
        values = citation_values(ch, s, e)
        if spot.claim:
            values["claim"] = claim_field(spot.claim)
        key = (ch.chunk_id, s, e)
        if key in seen:
            continue
        seen.add(key)
        (ml, ms, me_, mtext), extra = quote_edits(lines, spot, values, eol)
        flat = " ".join(values["quote"].split())
        label = flat if len(flat) <= 80 else flat[:77] + "…"
        page = f" p.{ch.page}" if ch.page else ""
        items.append(
            types.CompletionItem(
                label=label,
                kind=types.CompletionItemKind.Reference,
                detail=f"{ch.source}{page} · {ch.chunk_id} [{s}, {e})",
                documentation=types.MarkupContent(
                    kind=types.MarkupKind.Markdown,
                    value=f"`{ch.source}`{page}\n\n> " + in_context(ch.text, s, e, width=len(ch.text)),
                ),
                # what the client compares with the text from the edit's start to the cursor
                filter_text=lines[ml][ms:me_] or label,
                sort_text=f"{len(items):04d}",
                text_edit=_to_lsp_edit(lines, codec, (ml, ms, ml, me_, mtext)),
                additional_text_edits=[_to_lsp_edit(lines, codec, x) for x in extra] or None,
            )
        )
        if len(items) >= MAX_ITEMS:
            break
    return items


def chunk_id_items(lines, codec, spot: Spot, chunks: list[Chunk]) -> list[types.CompletionItem]:
    items = []
    for ch in chunks:
        page = f" p.{ch.page}" if ch.page else ""
        new = f'"{ch.chunk_id}"' if spot.kind == "json" else " " + ch.chunk_id
        extra = []
        if spot.kind == "yaml":
            fields, _ = yaml_item_fields(lines, spot)
            for name, value in (("source", ch.source), ("version", ch.version[:VERSION_DIGITS])):
                if name in fields:
                    ln, c = fields[name]
                    extra.append((ln, c, ln, len(lines[ln].rstrip()), " " + yaml_value(name, value)))
        preview = ch.text if len(ch.text) <= 60 else ch.text[:57] + "…"
        items.append(
            types.CompletionItem(
                label=ch.chunk_id,
                kind=types.CompletionItemKind.Reference,
                detail=f"{ch.source}{page} · {preview}",
                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                  value=f"`{ch.source}`{page}\n\n> {escape(ch.text)}"),
                filter_text=new,
                text_edit=_to_lsp_edit(lines, codec, (spot.line, spot.value_start, spot.line, spot.value_end, new)),
                additional_text_edits=[_to_lsp_edit(lines, codec, x) for x in extra] or None,
            )
        )
    return items


async def complete(session, folder, doc, position: types.Position) -> types.CompletionList | None:
    index = doc.index
    line_text = index.line_text(position.line)
    col = session.codec.from_client(line_text, position.character)
    spot = find_spot(doc.text, position.line, col)
    if spot is None:
        return None
    lines = drafts_mod.split_lines(doc.text)
    eol = "\r\n" if "\r\n" in doc.text[:4096] else "\n"
    store = folder.ws.store
    if spot.field == "chunk_id":
        prefix = "".join(_WORD.findall(spot.typed))[:16]
        if prefix and not re.fullmatch(r"[0-9a-fA-F]+", prefix):
            return types.CompletionList(is_incomplete=True, items=[])
        readable = await session.read(folder.ws.readable_sources)  # chosen in the query, before its limit
        chunks = await session.read(store.chunk_ids_with_prefix, prefix, 50, readable=readable)
        chunks = [c for c in chunks if folder.ws.allowed(c.source)]
        return types.CompletionList(is_incomplete=True, items=chunk_id_items(lines, session.codec, spot, chunks))
    words = _WORD.findall(spot.typed)
    if not words:
        return types.CompletionList(is_incomplete=True, items=[])
    readable = await session.read(folder.ws.readable_sources)
    chunks = await session.read(store.search_words, words, MAX_ITEMS * 2, readable=readable)
    chunks = [c for c in chunks if folder.ws.allowed(c.source)]
    return types.CompletionList(is_incomplete=True, items=quote_items(lines, session.codec, spot, chunks, eol))
