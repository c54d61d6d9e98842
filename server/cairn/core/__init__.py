"""The floor every other package stands on: the core types (`model`), the chunker whose ids are
part of the contract (`chunking`), the configuration (`config`) and source policy (`policy`), running
git safely (`gitsafe`) and text made safe for a terminal (`terminal`).

May import: `support` (the support modes `config` names). Never a package above it.
"""
