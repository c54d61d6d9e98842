"""The engine entry points that the command line, the server and the API share: index and check
a workspace (`checks`), `citation-reuse` across the answers of a run (`reuse`), and what `cairn gc`
removes (`retention`).

May import: `answers` and every floor below it; never `cli` or `lsp`.
"""
