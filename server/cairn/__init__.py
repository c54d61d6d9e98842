"""Cairn: span-level citation checking for Markdown drafts."""

__version__ = "0.1.0"

# The support check's rules, compiled, when a current build of them is there (cairn/native.py):
# before any module of them is imported. Pure Python otherwise, with the same verdicts.
from . import native as _native

_native.install()

# The meaning rules' version (cairn.meaning exports it): changed whenever a rule changes what it
# decides, so that cached verdicts made under other rules are not reused (engine.fingerprint). Kept
# here, not in cairn/meaning, so that a fingerprint is taken without loading the rules.
RULES_VERSION = "meaning-45"
