"""Judges: who decides whether the quotes support a claim.

`stub` is the lexical check itself (no judge object at all)."""

from __future__ import annotations


def make_judge(ws, *, progress: bool = False):
    """The configured judge for `cairn check`, or None for the lexical check."""
    if ws.settings.config.judge.provider == "stub":
        return None
    raise NotImplementedError("judge providers other than 'stub' are not available yet")


def make_calibration_judge(root, settings):
    if settings.config.judge.provider == "stub":
        return None
    raise NotImplementedError("judge providers other than 'stub' are not available yet")
