"""The judge on labelled rows, for `cairn calibrate`: every row asked at once (the endpoint in
parallel, the local model in batches), timed, and the verdicts handed to the calibration as a
lookup. Rows the cache answers cost nothing and are counted apart, so the time per claim is
that of claims the judge really ran on."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..verify.calibrate import JudgeRun, Row
from .cached import CachingJudge, Progress

if TYPE_CHECKING:
    from ..verify.verdicts import JudgeVerdict


def ask_rows(provider: CachingJudge, rows: Sequence[Row], progress: Progress | None = None
             ) -> tuple[dict[tuple[str, tuple[str, ...]], JudgeVerdict], JudgeRun]:
    """The judge's verdict for every row with quotes (by claim and quotes), and what it cost."""
    pairs = list(dict.fromkeys((r.claim, tuple(r.quotes)) for r in rows if r.quotes))
    cached = 0
    if not provider.problem:
        for claim, quotes in pairs:
            hit = provider.cached(claim, quotes)
            cached += hit is not None and hit.judge != "fallback"
    start = time.perf_counter()
    verdicts = provider.judge_many(pairs, progress=progress)
    seconds = time.perf_counter() - start
    ran = len(pairs) - cached
    run = JudgeRun(asked=len(pairs), cached=cached, fallbacks=sum(v.judge == "fallback" for v in verdicts),
                   seconds=seconds, seconds_per_claim=seconds / ran if ran else None)
    return dict(zip(pairs, verdicts)), run
