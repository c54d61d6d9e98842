"""Markdown for hovers and completion documentation: escaping source text, a quote shown in its context."""

from __future__ import annotations

import re

CONTEXT = 48  # characters of source text shown on each side of a quote
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>&])")
_WS = re.compile(r"\s+")


def escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", _WS.sub(" ", text))


def in_context(text: str, start: int, end: int, width: int = CONTEXT) -> str:
    """`…before **quote** after…` as Markdown, cut at word boundaries."""
    start = max(0, min(start, len(text)))
    end = max(start, min(end, len(text)))
    a = max(0, start - width)
    if a > 0:
        sp = text.find(" ", a, start)
        a = sp + 1 if sp >= 0 else a
    b = min(len(text), end + width)
    if b < len(text):
        sp = text.rfind(" ", end, b)
        b = sp if sp > end else b
    before, quote, after = text[a:start], text[start:end], text[end:b]
    out = ("…" if a > 0 else "") + escape(before)
    q = escape(quote).strip()
    out += f"**{q}**" if q else ""
    out += escape(after) + ("…" if b < len(text) else "")
    return out
