"""Cairn: span-level citation checking for Markdown drafts."""

__version__ = "0.1.0"

# The support check's rules, compiled, when a current build of them is there (cairn/native.py):
# before any module of them is imported. Pure Python otherwise, with the same verdicts.
from . import native as _native

_native.install()
