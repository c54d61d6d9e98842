"""The command line: the console script's door (`entry`: `--version` and a bare `serve` without
click), argument parsing and the commands (`main`), `ask`/`cite` output (`answers`), shared
set-up (`common`), the version text and the collector's threshold (`process`), `cairn init`
(`init`) and set-up notices (`notices`).

May import: every engine package; `lsp.server` only to run `cairn serve`.
"""
