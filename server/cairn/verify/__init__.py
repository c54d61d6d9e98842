"""Verifying citations (SPEC section 4): resolution and support (`verifier`), re-anchoring (`anchor`),
multi-sentence claims (`sentences`), the policy checks applied to a citation (`policy`, `derived`,
`lineage`, `dates`), and agreement with human labels (`calibrate`).

May import: `support`, `meaning`, `core`, `sources`, `drafts`, `store`, `index`.
"""
