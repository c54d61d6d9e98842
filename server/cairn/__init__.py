"""Cairn: span-level citation checking for Markdown drafts."""

__version__ = "0.1.0"
