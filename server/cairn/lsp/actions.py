"""Quick-fixes (one code action per Fix of each diagnostic) and
`source.fixAll.cairn` (the safe fixes, as `cairn check --fix` applies them).

Each action carries its WorkspaceEdit, made of `drafts.field_edits`: only the
fields a fix sets are rewritten, the block's formatting is kept. A fix whose
edited block would not read back as intended has no edits, so no action.
"""

from __future__ import annotations

from bisect import bisect_right

from lsprotocol import types

from .. import drafts as drafts_mod
from ..core.model import DraftResult
from ..engine.checks import safe_fix_values
from . import binding
from .names import FIX_ALL


def wants(only, kind: str) -> bool:
    """Is `kind` among the kinds the client asked for (or below one of them)?"""
    if not only:
        return True
    asked = [str(getattr(o, "value", o)) for o in only]
    return any(kind == o or kind.startswith(o + ".") for o in asked)


def _edits(seg, shift, codec, edits) -> list[types.TextEdit]:
    return [types.TextEdit(range=codec.range(seg.lines, e.range, shift), new_text=e.new_text) for e in edits]


def _workspace_edit(session_caps_doc_changes: bool, state, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    if session_caps_doc_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=state.uri, version=state.version),
                    edits=edits,
                )
            ]
        )
    return types.WorkspaceEdit(changes={state.uri: edits})


def code_actions(state, codec, params: types.CodeActionParams, doc_changes: bool,
                 store=None) -> list[types.CodeAction]:
    """The quick-fixes in range and, when asked for, fix-all; `store` writes versions short as --fix does."""
    only = params.context.only
    out: list[types.CodeAction] = []
    lo, hi = params.range.start.line, params.range.end.line
    if wants(only, types.CodeActionKind.QuickFix.value):
        starts = [line for line, _ in state.placed]
        first = max(bisect_right(starts, lo) - 1, 0)
        for shift, seg in state.placed[first:]:
            if shift > hi:
                break
            k = 0  # seg.lsp holds the claims' diagnostics in this same order
            for cr in seg.claims:
                for d in cr.diagnostics:
                    lsp = seg.lsp[k] if k < len(seg.lsp) else None
                    k += 1
                    if not d.fixes or d.citation is None or lsp is None:
                        continue
                    a, b = lsp.range.start.line + shift, lsp.range.end.line + shift
                    if b < lo or a > hi:
                        continue
                    shown = types.Diagnostic(
                        range=types.Range(
                            start=types.Position(line=a, character=lsp.range.start.character),
                            end=types.Position(line=b, character=lsp.range.end.character),
                        ),
                        severity=lsp.severity, code=lsp.code, source=lsp.source, message=lsp.message,
                        related_information=lsp.related_information,
                    )
                    if d.code == "claim-moved":
                        moved = binding.move_fix_edits(state, codec, d, shift)
                        if moved is not None:
                            out.append(types.CodeAction(
                                title=moved[0], kind=types.CodeActionKind.QuickFix, diagnostics=[shown],
                                is_preferred=True, edit=_workspace_edit(doc_changes, state, moved[1])))
                    bind = binding.binding_values(cr, d.citation)
                    for fix in d.fixes:
                        edits = _edits(seg, shift, codec, drafts_mod.field_edits(d.citation, bind | fix.values))
                        if not edits:
                            continue
                        out.append(
                            types.CodeAction(
                                title=fix.title,
                                kind=types.CodeActionKind.QuickFix,
                                diagnostics=[shown],
                                is_preferred=True if fix.safe else None,
                                edit=_workspace_edit(doc_changes, state, edits),
                            )
                        )
    # a source action is given when asked for (on save, the Source Action menu), not with every lightbulb
    if only and wants(only, FIX_ALL):
        fix_all = fix_all_action(state, codec, doc_changes, store)
        if fix_all is not None:
            out.append(fix_all)
    if only and wants(only, binding.BIND_ALL):
        edits = binding.bind_all_edits(state, codec)
        if edits:
            out.append(types.CodeAction(title="Cairn: bind every cite block to its claim", kind=binding.BIND_ALL,
                                        edit=_workspace_edit(doc_changes, state, edits)))
    return out


def fix_all_edits(state, codec, store=None) -> list[types.TextEdit]:
    if state.encoding_problem:
        return []  # like --fix: never rewrite a draft whose bytes were not all UTF-8
    edits: list[types.TextEdit] = []
    for shift, seg in state.placed:
        if not any(d.fixes for cr in seg.claims for d in cr.diagnostics):
            continue
        result = DraftResult(path=state.rel, claims=seg.claims, diagnostics=[], uncited_paragraphs=0)
        for cit, values in safe_fix_values(result, store):
            edits += _edits(seg, shift, codec, drafts_mod.field_edits(cit, values))
    return edits


def fix_all_action(state, codec, doc_changes: bool, store=None) -> types.CodeAction | None:
    edits = fix_all_edits(state, codec, store)
    if not edits:
        return None
    return types.CodeAction(
        title="Cairn: apply every safe fix",
        kind=FIX_ALL,
        edit=_workspace_edit(doc_changes, state, edits),
    )
