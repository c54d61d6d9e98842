"""The names the server registers with the client: its commands, its code action kind and its
request for cited texts. The features that serve them import them from here, and so does
`server`, which registers every feature before any of them is loaded (a fast start)."""

from __future__ import annotations

# workspace/executeCommand (SPEC section 8)
REPORT = "cairn.report"
REPORT_HTML = "cairn.reportHtml"
REINDEX = "cairn.reindex"
CITE_SELECTION = "cairn.citeSelection"
BIND_PASTED = "cairn.bindPasted"
ASK = "cairn.ask"
EVIDENCE = "cairn.evidence"
# the code action kind of "fix all" (source.fixAll.cairn)
FIX_ALL = "source.fixAll.cairn"
# the request for the text of a cairn-source: document
REQUEST = "cairn/sourceText"
