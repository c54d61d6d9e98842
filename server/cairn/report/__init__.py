"""Reports: the JSON, text and SARIF report (`base`), the HTML report (`html`) and its charts (`svg`).

May import: `core`, `drafts`, `index`, and the floors below them.
"""
