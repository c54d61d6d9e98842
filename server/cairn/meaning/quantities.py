"""For one commit only: the names importers take from this module, now in
cairn.meaning.phrases (this module's text, renamed so that its history follows
the largest part of the split the next commit makes).
"""

from __future__ import annotations

from .phrases import (
    _NEXT_WORD,
    _REFERENCE_NAMES,
    _SPANS_OF_YEARS,
    DateParts,
    Decimal,
    NumberMismatch,
    Quantity,
    _calendar_year,
    _compounds,
    _date_text,
    _listed_units,
    _month,
    _quantities,
    _ratios,
    _reference_and_start,
    _reference_and_start_plain,
    _share,
    _whole,
    extract,
)

__all__ = ["_NEXT_WORD", "_REFERENCE_NAMES", "_SPANS_OF_YEARS", "DateParts", "Decimal", "NumberMismatch", "Quantity",
           "_calendar_year", "_compounds", "_date_text", "_listed_units", "_month", "_quantities", "_ratios",
           "_reference_and_start", "_reference_and_start_plain", "_share", "_whole", "extract"]
