"""`cairn show CHUNK_ID[@VERSION] [--context]` (SPEC section 6): the stored text of a chunk at
a version, with where it comes from: source, version, fetch record (a web source) or the
commit that holds it (git), page and span. The principal's access rules apply as for
every other output: a source the principal may not read shows none of its text."""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import click

from ..core.terminal import safe
from .common import EXIT_FAIL, EXIT_USAGE, _err, _guard, _report_index, _workspace

if TYPE_CHECKING:
    from ..core.model import Chunk, Citation
    from ..index.workspace import Workspace

CHUNK_REF = re.compile(r"^([0-9a-fA-F]{16})(?:@([0-9a-fA-F]{4,64}))?$")


def all_citations(ws: Workspace) -> Iterator[Citation]:
    """Every citation of the workspace's answers (drafts and JSON answers), in order met."""
    from .. import drafts as drafts_mod
    from ..answers.json_answers import is_answer_file, parse_answers

    for p in ws.answers(None):
        text, _ = drafts_mod.read_draft(p)
        if is_answer_file(p):
            claims = [c for a in parse_answers(text, jsonl=p.name.lower().endswith(".jsonl")) for c in a.doc.claims]
        else:
            claims = drafts_mod.parse_draft(text).claims
        for claim in claims:
            yield from claim.citations


def cited_versions(ws: Workspace, chunk_id: str) -> list[str]:
    """The version prefixes the workspace's answers name for this chunk id, in order met."""
    out: list[str] = []
    for c in all_citations(ws):
        if c.chunk_id == chunk_id and c.version and c.version not in out:
            out.append(c.version)
    return out


def commit_of(ws: Workspace, data: bytes) -> str | None:
    """The first commit of the workspace's own repository that holds these bytes, or None."""
    from ..core.gitsafe import run_git
    from ..index.history import own_repository

    top, _ = own_repository(ws.root)
    if top is None:
        return None
    blob = hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()
    out = run_git(top, "log", "--format=%H %cs", f"--find-object={blob}", timeout=20)
    lines = out.decode("utf-8", "replace").split("\n") if out else []
    lines = [ln for ln in lines if ln.strip()]
    return lines[-1] if lines else None


def _fetch_line(record: dict[str, Any], here: bool) -> str:
    from ..index.snapshots import REPOSITORY_RECORD
    parts = [str(record.get("time") or "?"), str(record.get("status") or "?"), str(record.get("content_type") or "?")]
    final = record.get("final_url")
    line = " ".join(parts) + (f" from {final}" if final else "")
    extra = [f"{k} {record[k]}" for k in ("etag", "last_modified") if record.get(k)]
    if record.get("redirects"):
        extra.append(f"{len(record['redirects'])} redirect(s)")
    if extra:
        line += f" ({', '.join(extra)})"
    return line + ("; fetched on this machine" if here else f"; {REPOSITORY_RECORD}")


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each paragraph: a maximal run of non-blank lines, `\\f` ending one too."""
    out: list[tuple[int, int]] = []
    for m in re.finditer(r"[^\f]+", text):
        pos = m.start()
        for line in re.finditer(r"[^\n]*\n?", m.group()):
            body = line.group().rstrip("\n")
            a, b = pos + line.start(), pos + line.start() + len(body)
            if not body.strip():
                continue
            if out and out[-1][1] == a - 1 and text[a - 1] == "\n" and out[-1][0] >= m.start():
                out[-1] = (out[-1][0], b)
            else:
                out.append((a, b))
    return out


def _paragraphs_around(text: str, start: int, end: int) -> str:
    """The paragraph(s) holding [start, end) with the one before and the one after; the chunk
    between ⟦ and ⟧."""
    paras = _paragraphs(text)
    first = next((i for i, (a, b) in enumerate(paras) if b > start), 0)
    last = next((i for i, (a, b) in enumerate(paras) if b >= end), len(paras) - 1)
    lo = paras[max(first - 1, 0)][0] if paras else 0
    hi = paras[min(last + 1, len(paras) - 1)][1] if paras else len(text)
    lo, hi = min(lo, start), max(hi, end)
    return text[lo:start] + "⟦" + text[start:end] + "⟧" + text[end:hi]


@click.command("show")
@click.argument("ref", metavar="CHUNK_ID[@VERSION]")
@click.option("--context", is_flag=True, help="Also print the paragraphs around the chunk.")
@click.option("--as", "principal", help="Show as this principal (else CAIRN_PRINCIPAL, the editor setting,"
              " cairn.toml's `principal`).")
@_guard
def show_cmd(ref: str, context: bool, principal: str | None) -> None:
    """The stored text of a chunk at a version (default: the one a citation names, else the latest)."""
    from ..engine import checks as engine
    from ..index.history import History

    m = CHUNK_REF.match(ref.strip())
    if not m:
        _err(f"{ref}: not a chunk id (16 hex digits), optionally followed by @VERSION (4 to 64 hex digits)")
        sys.exit(EXIT_USAGE)
    chunk_id, want = m.group(1).lower(), (m.group(2) or "").lower() or None
    ws = _workspace(principal=principal)
    res = engine.index(ws)
    _report_index(res, quiet=True)
    found = ws.store.lookup(chunk_id)
    if not found and History(ws).find(chunk_id):
        found = ws.store.lookup(chunk_id)
    if not found:
        _err(f"{chunk_id}: no such chunk: it is in no indexed version of any source, in no snapshot"
             f" ({ws.snapshots.where}) and in no committed version of the sources")
        sys.exit(EXIT_FAIL)
    pick: Chunk | None = None
    how = "the latest version holding it"
    if want:
        pick = next((c for c in found if c.version.startswith(want)), None)
        if pick is None:
            _err(f"{chunk_id}: not in version {want}; it is in version(s) "
                 + ", ".join(dict.fromkeys(c.version[:12] for c in found)))
            sys.exit(EXIT_FAIL)
        how = "the version asked for"
    else:
        for v in cited_versions(ws, chunk_id):
            pick = next((c for c in found if c.version.startswith(v)), None)
            if pick is not None:
                how = "the version a citation names"
                break
        pick = pick or found[0]
    if not ws.in_roots(pick.source):
        _err(f"chunk {chunk_id} belongs to {pick.source}, which is outside the source roots: it is not shown")
        sys.exit(EXIT_FAIL)
    if not ws.permitted(pick.source):
        from ..verify.policy import denied_message

        _err(denied_message(ws, pick.source, chunk_id).replace("it is not read", "it is not shown"))
        sys.exit(EXIT_FAIL)
    _print(ws, pick, how, found, context)


def _print(ws: Workspace, ch: Chunk, how: str, found: list[Chunk], context: bool) -> None:
    cur = ws.store.current_version(ch.source)
    state = "current" if cur is not None and cur.version == ch.version else (
        f"superseded; the current version is {cur.version[:12]}" if cur is not None else "superseded; the source is"
        " gone from the workspace")
    info = ws.store.version_info(ch.source, ch.version)
    rows = [("chunk", ch.chunk_id), ("source", ch.source), ("version", f"{ch.version} ({state}; {how})"),
            ("page", str(ch.page) if ch.page else "none (a source without pages)"),
            ("span", f"[{ch.start}, {ch.end}) of the version's parsed text")]
    if info is not None:
        rows.append(("lineage", info.lineage))
    snaps = ws.snapshots
    data = snaps.read(ch.version) if snaps.has(ch.version) else None
    here = snaps.written_here(ch.version, ch.source)
    if data is not None:
        rows.append(("snapshot", f"{snaps.shelf.label(ch.version + '.gz')}, "
                     + ("written on this machine" if here else "recorded by the repository, not written here")))
    elif name := next((n for n in snaps.bad if n.startswith(ch.version)), None):
        rows.append(("snapshot", f"{snaps.shelf.label(name)} is ignored: {snaps.bad[name]}"))
    else:
        rows.append(("snapshot", "none (only the index holds this version)"))
    if ch.source in ws.web_sources:
        rec = next((r for r in snaps.records(ch.version) if r.source == ch.source), None) if data is not None else None
        if rec is not None and rec.fetches:
            for f in rec.fetches[-3:]:
                rows.append(("fetched", _fetch_line(f, snaps.fetched_here(ch.version, ch.source, f))))
        else:
            rows.append(("fetched", "no fetch record for this version"))
    elif data is not None and (commit := commit_of(ws, data)):
        rows.append(("commit", f"{commit} (the first commit holding this version)"))
    others = [c.version[:12] for c in found if c.version != ch.version]
    if others:
        rows.append(("also in", ", ".join(dict.fromkeys(others))))
    for k, v in rows:
        click.echo(safe(f"{k + ':':<10}{v}"))
    click.echo("")
    if context and info is not None:
        text = ws.store.version_text(info.id)
        if text[ch.start:ch.end] == ch.text:
            click.echo(safe(_paragraphs_around(text, ch.start, ch.end), newlines=True))
            return
    click.echo(safe(ch.text, newlines=True))
