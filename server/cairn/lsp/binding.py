"""Claims and their blocks in the editor: where a moved block's claim is now,
the quick-fix moving it back, the source action binding every block of a
draft to its claim (`claim` field), and the same field for a block about to be
pasted (`cairn.bindPasted`). The engine side is cairn.binding.

A draft is checked piece by piece (segments.py) and a moved block's claim may
sit in another piece, so what needs the whole draft is made here, from the
draft's text, when a diagnostic is published or an action asked for.
"""

from __future__ import annotations

from lsprotocol import types

from ..core.model import Diagnostic, TextEdit

BIND_ALL = "source.bindClaims.cairn"


def located(state, d: Diagnostic, shift: int) -> Diagnostic:
    """A `claim-moved` diagnostic completed with where its claim is in the draft."""
    from ..drafts import binding
    return binding.located(state.text, d, shift)


def publishable(state, seg, shift: int, lsp: list[types.Diagnostic]) -> list[types.Diagnostic]:
    """A piece's LSP diagnostics with each `claim-moved` message naming where its claim is now."""
    from ..drafts import binding
    engine = [d for cr in seg.claims for d in cr.diagnostics]
    if not any(d.code == binding.CODE for d in engine):
        return lsp
    out = list(lsp)
    for i, d in enumerate(engine):
        if d.code == binding.CODE and i < len(out):
            out[i] = types.Diagnostic(range=out[i].range, severity=out[i].severity, code=out[i].code,
                                      source=out[i].source, message=located(state, d, shift).message,
                                      related_information=out[i].related_information)
    return out


def move_fix_edits(state, codec, d: Diagnostic, shift: int) -> tuple[str, list[types.TextEdit]] | None:
    """The title and edits of the fix moving a `claim-moved` block back under its claim."""
    from .. import drafts as drafts_mod
    done = located(state, d, shift)
    fix = next((f for f in done.fixes if f.edits), None)
    if fix is None or fix.edits is None:
        return None
    lines = drafts_mod.split_lines(state.text)
    return fix.title, [types.TextEdit(range=codec.range(lines, e.range), new_text=e.new_text) for e in fix.edits]


def binding_values(cr, cit) -> dict[str, str]:
    """What a quick-fix adds to the block it rewrites: its `claim` field, when it has none
    (`cairn check --fix` adds nothing: it writes only what its fixes name)."""
    from ..drafts import binding
    if cit.claim or cit.block is None or cit.block.claim_text is not None or not cr.claim.text:
        return {}
    return {"claim": binding.claim_field(cr.claim.text)}


def _unbound_edits(claim, lines: range | None = None) -> list[list[TextEdit]]:
    """Per citation of `claim` that has no `claim` field (claim objects aside), the engine
    edits adding it; only citations of blocks lying within `lines` when given."""
    from .. import drafts as drafts_mod
    from ..drafts import binding
    text = claim.text
    if not text:
        return []
    out = []
    for cit in claim.citations:
        block = cit.block
        if cit.claim or cit.problems or block is None or block.claim_text is not None:
            continue
        if lines is not None and not (block.open_line in lines and block.close_line in lines):
            continue
        edits = drafts_mod.field_edits(cit, {"claim": binding.claim_field(text)})
        if edits:
            out.append(edits)
    return out


def bind_all_edits(state, codec) -> list[types.TextEdit]:
    """A `claim` field for every citation of the draft that has none (claim objects aside)."""
    if state.encoding_problem:
        return []
    out: list[types.TextEdit] = []
    for shift, seg in state.placed:
        for cr in seg.claims:
            for e in (e for edits in _unbound_edits(cr.claim) for e in edits):
                out.append(types.TextEdit(range=codec.range(seg.lines, e.range, shift), new_text=e.new_text))
    return out


def bind_pasted(text: str, start: int, end: int, pasted: str) -> tuple[str, int]:
    """`pasted` as it would replace text[start:end], with a `claim` field added to each
    citation of the cite blocks it holds whole that has none: the claim each would then
    follow, by the same rule as every other block. Returns (the text to paste, how many
    citations got the field); the text is `pasted` unchanged when none did."""
    from .. import drafts as drafts_mod
    draft = text[:start] + pasted + text[end:]
    first = len(drafts_mod.split_lines(draft[:start])) - 1
    last = len(drafts_mod.split_lines(draft[: start + len(pasted)])) - 1
    per_citation = [
        edits for claim in drafts_mod.parse_draft(draft).claims for edits in _unbound_edits(claim, range(first, last + 1))
    ]
    if not per_citation:
        return pasted, 0
    done = drafts_mod.apply_edits(draft, [e for edits in per_citation for e in edits])
    head, tail = text[:start], text[end:]
    if not (done.startswith(head) and done.endswith(tail)):
        return pasted, 0  # an edit outside the pasted text: never change the draft around it
    return done[len(head): len(done) - len(tail)], len(per_citation)
