"""Indexing a workspace: its sources found and read (`workspace`), parsed in worker processes
(`parallel`), what each file hashed to (`statcache`), and old versions found in git history
(`history`).

May import: `core`, `sources`, `drafts`, `store`.
"""
