"""`--fix` and the editor's quick-fixes never corrupt a valid block: an edit is given
only when the edited draft parses back to exactly the intended fields (issue 11,
item 5). Cite bodies starting with U+FEFF, YAML explicit keys (`? start` / `: 12`),
flow mappings, JSON, block quotes and list items, LF and CRLF."""

from __future__ import annotations

import json
import string
import sys
from pathlib import Path

import pytest_lsp
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from cairn.drafts import apply_edits, fix_edits, parse_draft

from robust_util import check_json, examples, lsp_start, open_doc, run_cairn, until

settings.load_profile("cairn-robust")

CID = "0123456789abcdef"
FIELDS = ("chunk_id", "start", "end", "quote", "source", "version")
BOM = "\ufeff"


# --------------------------------------------------------------------------
# Generated valid blocks


def _yaml_scalar(value, style: str) -> str:
    if isinstance(value, int):
        return str(value)
    if style == "plain" and value[:1] not in "-?:,[]{}#&*!|>'\"%@` " and ": " not in value and " #" not in value \
            and value == value.strip() and all(c.isalnum() or c in "._/ " for c in value):
        return value
    if style == "single" and all(c >= " " and c not in "\x7f\ufeff" for c in value):
        return "'" + value.replace("'", "''") + "'"
    return json.dumps(value, ensure_ascii=False)


def _body(fields: dict, layout: str, style: str) -> list[str]:
    items = list(fields.items())
    if layout == "json":
        return ["{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in items) + "}"]
    if layout == "json-pretty":
        inner = [f'  {json.dumps(k)}: {json.dumps(v)}' for k, v in items]
        return ["{"] + [line + ("," if i < len(inner) - 1 else "") for i, line in enumerate(inner)] + ["}"]
    if layout == "flow":  # YAML flow mappings (a body starting with "{" is JSON)
        return ["- {" + ", ".join(f"{k}: {_yaml_scalar(v, style)}" for k, v in items) + "}"]
    if layout == "flow-lines":
        inner = [f"   {k}: {_yaml_scalar(v, style)}" for k, v in items]
        return ["- {"] + [line + ("," if i < len(inner) - 1 else "") for i, line in enumerate(inner)] + ["  }"]
    if layout == "explicit":
        out = []
        for k, v in items:
            out += [f"? {k}", f": {_yaml_scalar(v, style)}"]
        return out
    if layout == "explicit-mixed":
        out = []
        for i, (k, v) in enumerate(items):
            out += [f"? {k}", f": {_yaml_scalar(v, style)}"] if i % 2 == 0 else [f"{k}: {_yaml_scalar(v, style)}"]
        return out
    if layout == "seq":
        lines = [f"{k}: {_yaml_scalar(v, style)}" for k, v in items]
        return ["- " + lines[0]] + ["  " + line for line in lines[1:]]
    if layout == "claim":
        lines = [f"{k}: {_yaml_scalar(v, style)}" for k, v in items]
        return ["text: The claim.", "citations:", "  - " + lines[0]] + ["    " + line for line in lines[1:]]
    return [f"{k}: {_yaml_scalar(v, style)}" for k, v in items]  # block


LAYOUTS = ["block", "flow", "flow-lines", "explicit", "explicit-mixed", "seq", "claim", "json", "json-pretty"]
_text = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Cn", "Co"), blacklist_characters="\u2028\u2029\x85"),
                min_size=1, max_size=24).filter(lambda s: s.strip())
_path = st.text(alphabet=string.ascii_letters + string.digits + "._/ -'", min_size=1, max_size=16).filter(str.strip)


@st.composite
def drafts_and_fixes(draw):
    fields = {"chunk_id": CID, "start": draw(st.integers(0, 50)), "quote": draw(_text)}
    fields["end"] = fields["start"] + draw(st.integers(1, 50))
    if draw(st.booleans()):
        fields["source"] = "sources/" + draw(_path)
    if draw(st.booleans()):
        fields["version"] = draw(st.sampled_from(["abcdef12", "ABCDEF1234"]))
    order = draw(st.permutations(list(fields)))
    fields = {k: fields[k] for k in order}
    layout = draw(st.sampled_from(LAYOUTS))
    body = _body(fields, layout, draw(st.sampled_from(["plain", "single", "double"])))
    if layout == "block" and draw(st.booleans()):
        # the writer's own field last: a note, a comment, a block scalar (a kept
        # trailing blank line is one a new line would take from it: refused)
        body += draw(st.sampled_from([
            ["note: checked"], ["# a comment"], ["note: |", "  two", "  lines"], ["note: |+", "  kept", ""],
            ["note: >-", "  folded", "", "  text"], ["ignore:", "- unsupported-claim"],
        ]))
    if draw(st.booleans()):
        body[0] = BOM + body[0]
    container = draw(st.sampled_from(["", "> ", "  "]))
    head = ["- The claim, in a list." if container == "  " else f"{container}The claim.".rstrip(), container.rstrip()]
    fence = draw(st.sampled_from(["```", "~~~~"]))
    lines = head + [f"{container}{fence}cite"] + [container + b for b in body] + [f"{container}{fence}", ""]
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    text = eol.join(lines)
    values = {}
    for name in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=6, unique=True)):
        if name in ("start", "end"):
            values[name] = draw(st.integers(0, 10**6))
        elif name == "quote":
            values[name] = draw(_text)
        elif name == "source":
            values[name] = "sources/" + draw(_path)
        elif name == "version":
            values[name] = draw(st.sampled_from(["805b1359", "805B1359FFDD"]))
        else:
            values[name] = draw(st.sampled_from(["fedcba9876543210", "FEDCBA9876543210"]))
    if "start" in values or "end" in values:
        values["end"] = values.get("start", 0) + 1 + values.get("end", 0) % 100
        values.setdefault("start", values["end"] - 1)
    return text, values


def _note(text: str):
    import yaml

    body = parse_draft(text).claims[0].blocks[0].body  # the fence's content, container prefixes removed
    return yaml.load(body.lstrip(BOM), Loader=yaml.BaseLoader).get("note")


def _wanted(name, value):
    return value.lower() if name in ("chunk_id", "version") else value


@settings(max_examples=examples(400, 4000))
@given(drafts_and_fixes())
def test_every_fix_reads_back_as_intended_or_is_refused(case):
    text, values = case
    doc = parse_draft(text)
    (claim,) = doc.claims
    (block,) = claim.blocks
    (c,) = block.citations
    assert c.valid, (c.problems, text)  # the generator writes valid blocks only
    edits, why = fix_edits(c, values)
    if not edits:
        assert why, "an edit refused says why"
        return
    new = apply_edits(text, edits)
    (claim2,) = parse_draft(new).claims
    (c2,) = claim2.citations
    assert c2.valid, (c2.problems, new)
    for name in ("chunk_id", "start", "end", "quote", "source", "version", "ignore"):
        want = _wanted(name, values[name]) if name in values else getattr(c, name)
        assert getattr(c2, name) == want, (name, new)
    note = [line for line in text.split("\n") if "note:" in line]
    if note:  # the writer's own field reads back the same
        assert _note(new) == _note(text), new
    # nothing outside the block changed
    old_lines, new_lines = text.split("\n"), new.split("\n")
    assert old_lines[: block.open_line + 1] == new_lines[: block.open_line + 1]
    assert old_lines[block.close_line:] == new_lines[len(new_lines) - (len(old_lines) - block.close_line):]


@settings(max_examples=examples(150, 1500))
@given(drafts_and_fixes())
def test_bom_and_explicit_keys_are_written_not_refused(case):
    """The layouts the issue found broken get a real edit, not just a refusal."""
    text, values = case
    if "|+" in text:
        return  # that layout may be refused (above)
    doc = parse_draft(text)
    (c,) = doc.claims[0].citations
    edits, why = fix_edits(c, values)
    assert edits, (why, text, values)


def test_a_refused_fix_says_why():
    """A layout the writer cannot keep (a kept-trailing-newline block scalar last, where
    a new line would change it) gets no edit, and the reason."""
    text = (
        "The claim.\n\n```cite\n"
        f"chunk_id: {CID}\nstart: 3\nend: 40\nquote: |+\n  A customer\n\n```\n"
    )
    (c,) = parse_draft(text).claims[0].citations
    edits, why = fix_edits(c, {"version": "805b1359"})
    assert edits == []
    assert why == "quote would read back as 'A customer\\n', not 'A customer\\n\\n'"


# --------------------------------------------------------------------------
# Through the real CLI

SOURCE = "Preface line here.\n\nA customer has 14 days to request a credit for a damaged delivery. Other text.\n"
QUOTE = "A customer has 14 days to request a credit"


def _workspace(root: Path) -> tuple[Path, str]:
    (root / "sources").mkdir(parents=True)
    (root / "drafts").mkdir()
    (root / "cairn.toml").write_text("", encoding="utf-8")
    (root / "sources" / "policy.txt").write_text(SOURCE, encoding="utf-8")
    out = run_cairn(root, "chunks", "--json")
    assert out.returncode == 0, out.stderr
    (cid,) = [json.loads(line)["chunk_id"] for line in out.stdout.splitlines() if QUOTE in line]
    return root, cid


def test_fix_through_the_cli_on_a_bom_and_on_explicit_keys(tmp_path: Path):
    ws, cid = _workspace(tmp_path / "ws")
    bodies = {
        "bom-json.md": f'{BOM}{{"chunk_id": "{cid}", "start": 3, "end": 40, "quote": "{QUOTE}"}}\n',
        "bom-yaml.md": f"{BOM}chunk_id: {cid}\nstart: 3\nend: 40\nquote: {QUOTE}\n",
        "explicit.md": f"? chunk_id\n: {cid}\n? start\n: 3\n? end\n: 40\n? quote\n: {QUOTE}\n",
        "bom-list.md": None,
    }
    for name, body in bodies.items():
        if body is None:  # in a list item, the BOM after the container's indentation
            text = f"- {QUOTE}.\n\n  ```cite\n  {BOM}- chunk_id: {cid}\n    start: 3\n    end: 40\n    quote: {QUOTE}\n  ```\n"
        else:
            text = f"{QUOTE}.\n\n```cite\n{body}```\n"
        (ws / "drafts" / name).write_text(text, encoding="utf-8")
    rc, before, _ = check_json(ws)
    shifted = {d["path"] for d in before["drafts"] for c in d["claims"] for x in c["diagnostics"]
               if x["code"] == "span-shifted"}
    assert shifted == {f"drafts/{n}" for n in bodies}
    proc = run_cairn(ws, "check", "--fix")
    assert "citation(s) in 4 draft(s)" in proc.stderr, proc.stderr
    assert "not written" not in proc.stderr
    rc, after, _ = check_json(ws)
    assert rc == 0, after
    for d in after["drafts"]:
        (claim,) = d["claims"]
        assert claim["supported"] and claim["diagnostics"] == [], d
        (cit,) = claim["citations"]
        assert (cit["start"], cit["end"]) == (0, len(QUOTE)), d
    assert (ws / "drafts" / "bom-json.md").read_text(encoding="utf-8").split("\n")[3] == (
        f'{BOM}{{"chunk_id": "{cid}", "start": 0, "end": 42, "quote": "{QUOTE}", "version": '
        f'"{after["drafts"][0]["claims"][0]["citations"][0]["version"][:12]}"}}'  # written at 12 digits
    )
    explicit = (ws / "drafts" / "explicit.md").read_text(encoding="utf-8")
    assert f"? start\n: 0\n? end\n: 42\n? quote\n: {QUOTE}\nversion: " in explicit


def test_a_fix_that_would_change_the_block_is_not_written_and_is_reported(tmp_path: Path):
    """The writer's own field last, a block scalar keeping its trailing blank line: a
    line added after it would take that blank line from it. --fix leaves the draft as
    it is and says which fix was not written and why; the finding stays."""
    ws, cid = _workspace(tmp_path / "ws")
    draft = ws / "drafts" / "note.md"
    text = (
        f"{QUOTE}.\n\n```cite\nchunk_id: {cid}\nstart: 3\nend: 40\nquote: {QUOTE}\n"
        "note: |+\n  checked by hand\n\n```\n"
    )
    draft.write_text(text, encoding="utf-8")
    proc = run_cairn(ws, "check", "--fix")
    assert draft.read_text(encoding="utf-8") == text
    assert "drafts/note.md:3: fix not written (start, end, version): the field 'note' would change" in proc.stderr
    assert "fixed" not in proc.stderr
    rc, report, _ = check_json(ws)
    (claim,) = report["drafts"][0]["claims"]
    assert [d["code"] for d in claim["diagnostics"]] == ["span-shifted"]
    # and the report does not promise the fix --fix refuses
    assert claim["diagnostics"][0].get("fix") is None
    assert "can be applied" not in run_cairn(ws, "check").stdout


# --------------------------------------------------------------------------
# Through the real server: the quick-fixes share the same check


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "cairn", "serve"]))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    """LSP edits (no character outside the BMP here, so UTF-16 columns are code points)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def at(p: types.Position) -> int:
        return starts[p.line] + p.character

    for e in sorted(edits, key=lambda e: (at(e.range.start), at(e.range.end)), reverse=True):
        text = text[: at(e.range.start)] + e.new_text + text[at(e.range.end):]
    return text


async def _quick_fixes(client, u: str) -> list[types.CodeAction]:
    got = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=u),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=100, character=0)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [a for a in got or [] if a.kind == types.CodeActionKind.QuickFix]


def _edits(action: types.CodeAction, u: str) -> list[types.TextEdit]:
    if action.edit.document_changes:
        return [e for dc in action.edit.document_changes for e in dc.edits if dc.text_document.uri == u]
    return action.edit.changes[u]


async def test_the_editor_offers_only_fixes_that_read_back(client: LanguageClient, tmp_path: Path):
    ws, cid = _workspace(tmp_path / "ws")
    bom = ws / "drafts" / "bom.md"
    bom_text = f'{QUOTE}.\n\n```cite\n{BOM}{{"chunk_id": "{cid}", "start": 3, "end": 40, "quote": "{QUOTE}"}}\n```\n'
    bom.write_text(bom_text, encoding="utf-8")
    note = ws / "drafts" / "note.md"
    note_text = (
        f"{QUOTE}.\n\n```cite\nchunk_id: {cid}\nstart: 3\nend: 40\nquote: {QUOTE}\n"
        "note: |+\n  checked by hand\n\n```\n"
    )
    note.write_text(note_text, encoding="utf-8")
    await lsp_start(client, ws)
    ub, un = open_doc(client, bom), open_doc(client, note)
    for u in (ub, un):
        await until(lambda u=u: any(d.code == "span-shifted" for d in client.diagnostics.get(u, [])),
                    what="the span-shifted finding")
    # the BOM draft: the re-anchor edit, applied, reads back as the new span
    (fix,) = await _quick_fixes(client, ub)
    fixed = _apply(bom_text, _edits(fix, ub))
    (c,) = parse_draft(fixed).claims[0].citations
    assert c.valid and (c.start, c.end, c.quote) == (0, len(QUOTE), QUOTE), fixed
    assert fixed.split("\n")[3].startswith(f'{BOM}{{"chunk_id": "{cid}", "start": 0, "end": 42, ')
    # the block the writer cannot keep: no quick-fix at all, and no fix-all
    assert await _quick_fixes(client, un) == []
    got = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=un),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=100, character=0)),
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.cairn"]),
        )
    )
    assert not got
