"""Verifying citations (SPEC section 4): each citation resolved (`verifier`), each claim's support
and meaning rules (`claims`), a judge's verdict applied (`verdicts`), re-anchoring (`anchor`),
multi-sentence claims (`sentences`), the policy checks applied to a citation (`policy`, `derived`,
`lineage`, `dates`, seeing the verifier through `base`), and agreement with human labels
(`calibrate`).

May import: `support`, `meaning`, `core`, `sources`, `drafts`, `store`, `index`.
"""
