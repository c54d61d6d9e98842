"""The command line: argument parsing and the commands (`main`), `ask`/`cite` output (`answers`),
shared set-up (`common`), `cairn init` (`init`) and set-up notices (`notices`).

May import: every engine package; `lsp.server` only to run `cairn serve`.
"""
