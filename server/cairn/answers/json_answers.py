"""Answers written as JSON by a retrieval pipeline's model (SPEC section 3).

A `.json` file holds one answer, a list of answers, or a bare claim or list of
claims (one answer); a `.jsonl` file holds one answer a line. Each answer is
turned into a DraftDoc whose claims are read by the same citation reader as a
Markdown cite block (drafts.json_claim), so a JSON claim and a Markdown claim
get the same checks and the same messages. What a model says about its own
answer (`supported`, `support_score`) is dropped here, never read, and so is
every field that would change a verdict (`ignore`): that is a writer's word in a
Markdown draft, never a model's about its own claims.

Every position of an answer is the line where the answer starts: a JSON
answer has no lines of its own for each field, and `--fix` never edits it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.model import Claim, DraftDoc, Pos, Problem, Range
from ..drafts import json_claim, split_lines

JSON_SUFFIXES = (".json", ".jsonl")

_LIST_HINT = (
    "expected an answer {\"claims\": [...]}, a list of answers, a claim {\"text\", \"citations\"}"
    " or a list of claims"
)


@dataclass(slots=True)
class JsonAnswer:
    """One answer of a JSON file: its id (given, else its line or list position),
    its question, the 0-based line where it starts and its claims as a DraftDoc."""

    id: str | int
    question: str | None
    line: int
    doc: DraftDoc


def is_answer_file(path: Path | str) -> bool:
    return str(path).lower().endswith(JSON_SUFFIXES)


# -- reading files -------------------------------------------------------------------


def parse_answers(text: str, *, jsonl: bool) -> list[JsonAnswer]:
    """Every answer of a file's text; a malformed answer is an answer whose only
    claim carries a `block-syntax` problem. Never raises."""
    lines = split_lines(text)
    if jsonl:
        return _parse_jsonl(text, lines)
    return _parse_json(text, lines)


def _parse_jsonl(text: str, lines: list[str]) -> list[JsonAnswer]:
    out: list[JsonAnswer] = []
    for i, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw.lstrip("\ufeff") if i == 0 else raw)
        except (ValueError, RecursionError) as exc:
            out.append(_broken(i + 1, i, lines, f"line {i + 1}: invalid JSON: {_json_msg(exc)}"))
            continue
        if isinstance(value, list):  # a line holding a bare list of claims: one answer
            out.append(answer_from_claims(value, i + 1, None, i, lines))
        else:
            out.append(answer_from_object(value, i + 1, i, lines))
    return out


def _parse_json(text: str, lines: list[str]) -> list[JsonAnswer]:
    body = text.lstrip("\ufeff")
    if not body.strip():
        return []
    try:
        value = json.loads(body)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", 1) - 1
        return [_broken(1, max(line, 0), lines, f"invalid JSON: {_json_msg(exc)}")]
    if isinstance(value, list):
        if any(isinstance(v, dict) and "claims" in v for v in value):
            starts = _element_lines(body, len(value))
            return [answer_from_object(v, i + 1, starts[i], lines) for i, v in enumerate(value)]
        if not value:
            return []
        return [answer_from_claims(value, 1, None, _first_line(body), lines)]
    return [answer_from_object(value, 1, _first_line(body), lines)]


def _json_msg(exc: BaseException) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} (line {exc.lineno}, column {exc.colno})"
    return str(exc)[:200]


def _first_line(body: str) -> int:
    stripped = body.lstrip()
    return body[: len(body) - len(stripped)].count("\n")


def _element_lines(body: str, n: int) -> list[int]:
    """The 0-based line where each element of a top-level JSON array starts."""
    decoder = json.JSONDecoder()
    starts: list[int] = []
    i = body.index("[") + 1
    try:
        for _ in range(n):
            while body[i] in " \t\r\n,":
                i += 1
            starts.append(body.count("\n", 0, i))
            _, i = decoder.raw_decode(body, i)
    except (ValueError, IndexError):
        pass
    starts += [starts[-1] if starts else 0] * (n - len(starts))
    return starts


# -- answers and claims ----------------------------------------------------------------


def _line_range(lines: list[str], line: int) -> Range:
    text = lines[line] if 0 <= line < len(lines) else ""
    return Range(Pos(line, 0), Pos(line, len(text.rstrip())))


def _broken(answer_id: str | int, line: int, lines: list[str], message: str) -> JsonAnswer:
    rng = _line_range(lines, line)
    claim = Claim("", line, rng, [], [Problem("block-syntax", message, line, rng)])
    return JsonAnswer(answer_id, None, line, DraftDoc("", [claim], 0, len(lines)))


def answer_from_object(value: Any, default_id: str | int, line: int = 0,
                       lines: list[str] | None = None) -> JsonAnswer:
    """An answer object `{id?, question?, claims}` (or a bare claim) as a JsonAnswer."""
    lines = lines if lines is not None else [""]
    if not isinstance(value, dict):
        return _broken(default_id, line, lines, f"{_LIST_HINT}, got {_kind(value)}")
    if "claims" not in value:
        if "citations" in value or "text" in value:  # the seed's bare claim
            return answer_from_claims([value], default_id, None, line, lines)
        return _broken(default_id, line, lines, f"{_LIST_HINT}, got an object without 'claims'")
    aid = value.get("id", default_id)
    if not isinstance(aid, (str, int)) or isinstance(aid, bool):
        aid = default_id
    question = value.get("question")
    question = question if isinstance(question, str) else None
    claims = value["claims"]
    if not isinstance(claims, list):
        ans = _broken(aid, line, lines, f"claims: expected a list of claims, got {_kind(claims)}")
        ans.question = question
        return ans
    return answer_from_claims(claims, aid, question, line, lines)


def answer_from_claims(claims: list[Any], answer_id: str | int, question: str | None, line: int,
                       lines: list[str]) -> JsonAnswer:
    """An answer made of these claim objects, each read as a cite block holding a claim object."""
    rng = _line_range(lines, line)
    out: list[Claim] = []
    for i, c in enumerate(claims):
        where = f"claim {i + 1}: "
        if not isinstance(c, dict):
            claim = _bad_claim(f"{where}expected a claim {{\"text\", \"citations\"}}, got {_kind(c)}", line, rng)
        elif "citations" not in c:
            text = c["text"] if isinstance(c.get("text"), str) else ""
            claim = _bad_claim(f"{where}citations: missing; a claim needs its citations", line, rng, text)
        else:
            # `supported`, `support_score` and the like are not read
            claim = json_claim({"text": c.get("text"), "citations": _unread(c["citations"])}, rng)
            _unsilence(claim)
        _place(claim, line, rng, where)
        out.append(claim)
    return JsonAnswer(answer_id, question, line, DraftDoc("", out, 0, len(lines)))


_MODEL_UNREAD = ("ignore",)  # fields of a cite block that only a writer's Markdown draft may set


def _unread(citations: Any) -> Any:
    """The citations with the fields a model may not set left out, unread (a malformed one too)."""
    if isinstance(citations, dict):
        return {k: v for k, v in citations.items() if k not in _MODEL_UNREAD}
    if isinstance(citations, list):
        return [_unread(c) if isinstance(c, dict) else c for c in citations]
    return citations


def _unsilence(claim: Claim) -> None:
    """An answer's citations silence nothing: a model's `ignore` is dropped, so it cannot
    pass its own wrong claim (issue 45, finding 2)."""
    for c in claim.citations:
        c.ignore = ()


def _bad_claim(message: str, line: int, rng: Range, text: str = "") -> Claim:
    return Claim(" ".join(text.split()), line, rng, [], [Problem("block-syntax", message, line, rng)])


def _place(claim: Claim, line: int, rng: Range, prefix: str) -> None:
    """Every position of a claim read from JSON becomes its answer's line; nothing
    keeps a layout `--fix` could write through."""
    claim.line, claim.range = line, rng
    for p in claim.problems:
        p.line, p.range = line, rng
        if not p.message.startswith(prefix):
            p.message = prefix + p.message
    for b in claim.blocks:
        b.open_line = b.close_line = line
        b.fence_range = rng
        for p in b.problems:
            p.line, p.range = line, rng
            p.message = prefix + p.message
        for c in b.citations:
            c.layout = None
            c.field_ranges = {k: rng for k in c.field_ranges}
            for p in c.problems:
                p.line, p.range = line, rng
                p.message = prefix + p.message


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    return "an object"
