"""Derived sources (SPEC section 4, `derived-source`): filled in below."""

from __future__ import annotations


def derived_diagnostics(verifier, claim, results) -> list:
    return []
