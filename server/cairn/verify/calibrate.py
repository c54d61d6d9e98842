"""`cairn calibrate`: how the support check agrees with human labels.

Reads JSON Lines in either of two formats, detected row by row:

- plain: ``{"claim": ..., "quote": ..., "label": "supported" | "unsupported"}``
  (``quote`` may also be a list of strings, taken together as several quotes);
- WiCE claim rows (``claim``, ``evidence``, ``supporting_sentences``,
  ``label``): ``supported`` rows are positives, ``partially_supported`` rows
  negatives, ``not_supported`` rows are skipped (their gold sets are empty).
  The quote is the first gold set holding a sentence other than 0 (page
  metadata, left out), its sentences joined with a space; a row without such a
  set is skipped.

Every verdict comes from :func:`cairn.support.check_support`, the function
``cairn check`` calls, so the figures are those of the shipped check.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .. import meaning
from ..meaning.restating import restated_score
from ..support import DEFAULT_MODE, SupportResult, check_support

__all__ = [
    "Fit",
    "fit_threshold",
    "CalibrationDataError",
    "CalibrationReport",
    "Confusion",
    "DataError",
    "Figures",
    "Judge",
    "JudgeRun",
    "Row",
    "Rows",
    "THRESHOLDS",
    "ThresholdPoint",
    "calibrate",
    "load_rows",
    "render_text",
]

# 0.30, 0.35, ..., 0.80
THRESHOLDS: tuple[float, ...] = tuple(round(0.3 + 0.05 * i, 2) for i in range(11))

# A judge takes the claim and its quotes and returns (supported, score or None),
# or a verdict object with a ``supported`` attribute.
Judge = Callable[[str, Sequence[str]], Any]


class CalibrationDataError(ValueError):
    """The data file cannot be read; the message names the line."""


DataError = CalibrationDataError


class Row(BaseModel):
    claim: str
    quotes: list[str]
    supported: bool  # the human label
    line: int  # 1-based line in the data file
    format: str  # "plain" or "wice"
    document: str = ""  # what the row was written from (rows of one document are held out together)


class Rows(list[Row]):
    """The rows of a data file, with the count of rows left out, by reason."""

    skipped: dict[str, int]

    def __init__(self, rows: Sequence[Row] = (), skipped: dict[str, int] | None = None):
        super().__init__(rows)
        self.skipped = dict(skipped or {})


class Confusion(BaseModel):
    tp: int  # labelled supported, check passes
    fn: int  # labelled supported, check fails
    fp: int  # labelled unsupported, check passes
    tn: int  # labelled unsupported, check fails


class ThresholdPoint(BaseModel):
    threshold: float
    balanced_accuracy: float | None


class Figures(BaseModel):
    """How one check agrees with the labels."""

    confusion: Confusion
    precision: float | None  # of "supported"
    recall: float | None  # of "supported"
    balanced_accuracy: float | None


class JudgeRun(BaseModel):
    """What asking the judge cost: the rows asked, those answered from the cache, the time."""

    asked: int  # distinct (claim, quotes) pairs the judge was given
    cached: int  # of those, answered from the verdict cache (nothing run)
    fallbacks: int  # of those, the judge failed and the lexical check decided
    seconds: float  # wall-clock time of asking the judge
    seconds_per_claim: float | None  # per pair not answered from the cache; None when every one was


class CalibrationReport(BaseModel):
    data: str | None = None
    limit: int | None = None  # only the first N rows were read (--limit)
    mode: str
    threshold: float
    judge: str  # "lexical", or the judge's name
    rows: int
    supported: int  # rows labelled supported
    unsupported: int  # rows labelled unsupported (WiCE: partially supported)
    skipped: dict[str, int]
    confusion: Confusion
    precision: float | None  # of "supported"
    recall: float | None  # of "supported"
    balanced_accuracy: float | None  # of the configured settings
    number_rule_failures: int  # rows failed by the number rule
    judge_fallbacks: int  # rows where the judge failed and the lexical check decided
    # the lexical default on the same rows, beside the configured judge (equal to the above without one)
    lexical: Figures
    judge_run: JudgeRun | None = None  # set by `cairn calibrate` when a judge was asked
    fit: Fit | None = None  # set by `cairn calibrate --fit`
    thresholds: list[ThresholdPoint]  # the lexical check at each threshold
    best_threshold: float | None
    best_balanced_accuracy: float | None
    seconds_per_claim: float


# --------------------------------------------------------------------------
# Reading


_PLAIN_LABELS = {"supported": True, "unsupported": False}
_WICE_LABELS = {"supported": True, "partially_supported": False, "not_supported": None}


def load_rows(path: str | Path) -> Rows:
    """Read a JSON Lines data file; raise CalibrationDataError naming the bad line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CalibrationDataError(f"{path}: cannot read: {exc}") from exc
    rows: list[Row] = []
    skipped: Counter[str] = Counter()
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CalibrationDataError(f"{path}:{n}: not valid JSON: {exc.msg}") from None
        except RecursionError:
            raise CalibrationDataError(f"{path}:{n}: nested too deeply to be a row") from None
        if not isinstance(obj, dict):
            raise CalibrationDataError(f"{path}:{n}: expected a JSON object")
        row = _row(obj, n, path, skipped)
        if row is not None:
            rows.append(row)
    return Rows(rows, dict(skipped))


def _row(obj: dict[str, Any], n: int, path: Path, skipped: Counter[str]) -> Row | None:
    where = f"{path}:{n}"
    claim = obj.get("claim")
    if not isinstance(claim, str):
        raise CalibrationDataError(f"{where}: 'claim' must be a string")
    label = obj.get("label")
    if "supporting_sentences" in obj or "evidence" in obj:
        if label not in _WICE_LABELS:
            raise CalibrationDataError(
                f"{where}: WiCE label must be supported, partially_supported or not_supported, not {label!r}"
            )
        supported = _WICE_LABELS[label]
        if supported is None:
            skipped["not_supported"] += 1
            return None
        evidence, sets = obj.get("evidence"), obj.get("supporting_sentences")
        if not isinstance(evidence, list) or not all(isinstance(s, str) for s in evidence):
            raise CalibrationDataError(f"{where}: 'evidence' must be a list of strings")
        if not isinstance(sets, list) or not all(
            isinstance(s, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in s) for s in sets
        ):
            raise CalibrationDataError(f"{where}: 'supporting_sentences' must be a list of lists of integers")
        gold = next((s for s in sets if any(i != 0 for i in s)), None)
        if gold is None:
            skipped["no_gold_sentences"] += 1
            return None
        if any(not 0 <= i < len(evidence) for i in gold):
            raise CalibrationDataError(f"{where}: a supporting sentence index is outside 'evidence'")
        quote = " ".join(evidence[i] for i in gold if i != 0)
        return Row(claim=claim, quotes=[quote], supported=supported, line=n, format="wice",
                   document=f"{path.name}:{_document(obj, n)}")
    if "quote" not in obj:
        raise CalibrationDataError(f"{where}: expected {{claim, quote, label}} or a WiCE claim row")
    quote = obj["quote"]
    if isinstance(quote, str):
        quotes = [quote]
    elif isinstance(quote, list) and quote and all(isinstance(q, str) for q in quote):
        quotes = list(quote)
    else:
        raise CalibrationDataError(f"{where}: 'quote' must be a string or a non-empty list of strings")
    if label not in _PLAIN_LABELS:
        raise CalibrationDataError(f"{where}: label must be supported or unsupported, not {label!r}")
    return Row(claim=claim, quotes=quotes, supported=_PLAIN_LABELS[label], line=n, format="plain",
               document=f"{path.name}:{_document(obj, n)}")


def _document(obj: dict[str, Any], n: int) -> str:
    """A row's document: its `document` field, else its `source_id` up to the last `_` or `:`
    (`blind:tax:guide_3` is of `blind:tax:guide`), else its `id` up to a `-` (a WiCE sub-claim is
    of its claim), else the row alone."""
    doc = obj.get("document")
    if isinstance(doc, str) and doc:
        return doc
    sid = obj.get("source_id")
    if isinstance(sid, str) and sid:
        cut = max(sid.rfind("_"), sid.rfind(":"))
        return sid[:cut] if cut > 0 else sid
    rid = obj.get("id")
    if isinstance(rid, str) and rid:
        return rid.split("-")[0]
    return f"row {n}"


# --------------------------------------------------------------------------
# Measuring


def _confusion(labels: Sequence[bool], verdicts: Sequence[bool]) -> Confusion:
    c = Counter(zip(labels, verdicts))
    return Confusion(tp=c[True, True], fn=c[True, False], fp=c[False, True], tn=c[False, False])


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def _balanced_accuracy(c: Confusion) -> float | None:
    tpr, tnr = _ratio(c.tp, c.tp + c.fn), _ratio(c.tn, c.tn + c.fp)
    return None if tpr is None or tnr is None else (tpr + tnr) / 2


def _ask(judge: Judge, claim: str, quotes: Sequence[str]) -> bool | None:
    """The judge's verdict, or None when it failed (the lexical check then decides).

    Takes a ``(supported, score)`` pair or a verdict object with ``supported``
    (and ``judge == "fallback"`` when the judge gave up), as ``cairn check``'s
    judges return.
    """
    try:
        verdict = judge(claim, quotes)
    except Exception:  # noqa: BLE001 - any judge failure falls back, as in cairn check
        return None
    if verdict is None or getattr(verdict, "judge", None) == "fallback":
        return None
    if hasattr(verdict, "supported"):
        return bool(verdict.supported)
    supported, _score = verdict
    return bool(supported)


def _figures(c: Confusion) -> Figures:
    return Figures(confusion=c, precision=_ratio(c.tp, c.tp + c.fp), recall=_ratio(c.tp, c.tp + c.fn),
                   balanced_accuracy=_balanced_accuracy(c))


def _judge_name(judge: Judge | None, given: str | None) -> str:
    if judge is None:
        return "lexical"
    return given or getattr(judge, "name", None) or getattr(judge, "__name__", None) or "judge"


def calibrate(
    rows: Sequence[Row],
    *,
    mode: str = DEFAULT_MODE,
    threshold: float = 0.5,
    judge: Judge | None = None,
    judge_name: str | None = None,
    data: str | None = None,
) -> CalibrationReport:
    """Run the configured support check on every row and compare with the labels.

    With a judge, its verdict replaces the score test and the number rule
    still applies (SPEC section 4); a judge that raises falls back to the
    lexical check for that row. The threshold sweep is of the lexical check.
    """
    labels = [r.supported for r in rows]
    verdicts: list[bool] = []
    lexical_verdicts: list[bool] = []
    number_failures = fallbacks = 0
    start = time.perf_counter()
    for r in rows:
        result = scored_as_checked(r.claim, r.quotes, threshold=threshold, mode=mode)
        scored = result.score is not None and result.score >= threshold
        numbers, others = _meaning_failures(r.claim, r.quotes, polarity=scored)
        # the mode's rule "names" fails the score test whatever the score (support/names.py)
        passed = scored and result.displaced is None and not numbers and not others
        lexical_verdicts.append(passed)
        if judge is not None and r.quotes:
            supported = _ask(judge, r.claim, r.quotes)
            if supported is None:
                fallbacks += 1
            else:
                passed = supported and not numbers and not others
        number_failures += numbers
        verdicts.append(passed)
    elapsed = time.perf_counter() - start

    confusion = _confusion(labels, verdicts)
    lexical = _figures(_confusion(labels, lexical_verdicts))
    sweep: list[ThresholdPoint] = []  # the word-overlap score alone at each threshold
    for t in THRESHOLDS:
        at_t = [check_support(r.claim, r.quotes, threshold=t, mode=mode).passed for r in rows]
        sweep.append(ThresholdPoint(threshold=t, balanced_accuracy=_balanced_accuracy(_confusion(labels, at_t))))
    points = [p for p in sweep if p.balanced_accuracy is not None]
    # Of equal figures, the configured threshold if it is one of them (nothing to
    # gain by changing it), else the lowest.
    best = max(
        points,
        key=lambda p: (p.balanced_accuracy, abs(p.threshold - threshold) < 1e-9, -p.threshold),
        default=None,
    )

    return CalibrationReport(
        data=data,
        mode=mode,
        threshold=threshold,
        judge=_judge_name(judge, judge_name),
        rows=len(rows),
        supported=sum(labels),
        unsupported=len(labels) - sum(labels),
        skipped=dict(getattr(rows, "skipped", {})),
        confusion=confusion,
        precision=_ratio(confusion.tp, confusion.tp + confusion.fp),
        recall=_ratio(confusion.tp, confusion.tp + confusion.fn),
        balanced_accuracy=_balanced_accuracy(confusion),
        number_rule_failures=number_failures,
        judge_fallbacks=fallbacks,
        lexical=lexical,
        thresholds=sweep,
        best_threshold=best.threshold if best else None,
        best_balanced_accuracy=best.balanced_accuracy if best else None,
        seconds_per_claim=elapsed / len(rows) if rows else 0.0,
    )


class Fit(BaseModel):
    """`cairn calibrate --fit`: the threshold chosen on the labels, measured on documents it was not chosen on."""

    threshold: float  # the best threshold on all rows (what to set in cairn.toml, if it pays)
    folds: int
    documents: int
    held_out_balanced_accuracy: float | None  # each fold's rows under the threshold fitted on the others
    configured_balanced_accuracy: float | None  # the same rows under the configured threshold
    pays: bool  # the fitted threshold beats the configured one on held-out documents


def fit_threshold(rows: Sequence[Row], *, mode: str = DEFAULT_MODE, threshold: float = 0.5, folds: int = 5) -> Fit:
    """Choose the threshold of the configured check (score and meaning rules) on the labels, the
    rows split by document into `folds` parts: each part is decided by the threshold that does best
    on the others, and the pooled result is compared with the configured threshold's."""
    import hashlib

    labels = [r.supported for r in rows]
    scores, displaced, failing = [], [], []
    for r in rows:
        low = check_support(r.claim, r.quotes, threshold=min(THRESHOLDS), mode=mode)
        best = low
        if mode != "seed" and r.quotes:
            quotes = r.quotes

            def again(text: str, quotes: list[str] = quotes) -> SupportResult:
                return check_support(text, quotes, threshold=min(THRESHOLDS), mode=mode)

            best, _ = restated_score(r.claim, quotes, low, 1.01, again)
        scores.append(best.score)
        displaced.append(best.displaced is not None)
        failing.append({pol: any(_meaning_failures(r.claim, r.quotes, polarity=pol)) for pol in (True, False)})

    def verdict(i: int, t: float) -> bool:
        scored = scores[i] is not None and scores[i] >= t  # type: ignore[operator]
        return scored and not displaced[i] and not failing[i][scored]

    def accuracy(ids: Sequence[int], t: float) -> float | None:
        return _balanced_accuracy(_confusion([labels[i] for i in ids], [verdict(i, t) for i in ids]))

    docs = sorted({r.document or f"row {k}" for k, r in enumerate(rows)})
    fold_of = {d: int(hashlib.sha256(d.encode()).hexdigest(), 16) % folds for d in docs}
    part = [fold_of[r.document or f"row {k}"] for k, r in enumerate(rows)]

    def best_on(ids: Sequence[int]) -> float:
        # of equal figures, the configured threshold, else the lowest
        return max(THRESHOLDS, key=lambda t: (accuracy(ids, t) or 0.0, abs(t - threshold) < 1e-9, -t))

    held: list[bool] = [False] * len(rows)
    for f in range(folds):
        train = [i for i in range(len(rows)) if part[i] != f]
        test = [i for i in range(len(rows)) if part[i] == f]
        if not test:
            continue
        t = best_on(train) if train else threshold
        for i in test:
            held[i] = verdict(i, t)
    held_ba = _balanced_accuracy(_confusion(labels, held))
    configured = accuracy(range(len(rows)), threshold)
    return Fit(threshold=best_on(range(len(rows))), folds=folds, documents=len(docs),
               held_out_balanced_accuracy=held_ba, configured_balanced_accuracy=configured,
               pays=held_ba is not None and configured is not None and held_ba > configured + 1e-9)


def scored_as_checked(claim: str, quotes: list[str], *, threshold: float, mode: str) -> SupportResult:
    """The claim's score as `cairn check` gives it for quotes that stand alone: under
    a mode other than the seed rule, an amount the quotes state in another form
    (`four weeks` for `28 days`) is read as they write it (`restated_score`)."""
    lex = check_support(claim, quotes, threshold=threshold, mode=mode)
    if mode == "seed" or not quotes:
        return lex
    again, _ = restated_score(claim, quotes, lex, threshold,
                              lambda text: check_support(text, quotes, threshold=threshold, mode=mode))
    return again


def _meaning_failures(claim: str, quotes: list[str], *, polarity: bool) -> tuple[bool, bool]:
    """(a quantity, date or identifier fails; another meaning rule fails), as
    `cairn check` decides them for quotes that stand alone."""
    if not quotes:
        return False, False
    found = meaning.check(claim, [meaning.Evidence(q, q, 0, len(q)) for q in quotes], polarity=polarity)
    return bool(found.numbers), bool(found.contradictions or found.context or found.relations or found.limits)


# --------------------------------------------------------------------------
# Text output


def _fmt(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def render_text(report: CalibrationReport) -> str:
    c = report.confusion
    lines = []
    if report.data:
        lines.append(f"data: {report.data}" + (f" (the first {report.limit} rows)" if report.limit is not None else ""))
    skipped = ", ".join(f"{n} {why.replace('_', ' ')}" for why, n in sorted(report.skipped.items()))
    lines += [
        f"check: {report.judge}, support.mode = {report.mode!r}, threshold = {report.threshold:g}",
        f"rows: {report.rows} ({report.supported} supported, {report.unsupported} unsupported)"
        + (f"; skipped: {skipped}" if skipped else ""),
        "",
        "                    check passes  check fails",
        f"label supported     {c.tp:>12}  {c.fn:>11}",
        f"label unsupported   {c.fp:>12}  {c.tn:>11}",
        "",
        f"precision (supported): {_fmt(report.precision)}",
        f"recall (supported):    {_fmt(report.recall)}",
        f"balanced accuracy:     {_fmt(report.balanced_accuracy)}",
        f"number rule failures:  {report.number_rule_failures}",
    ]
    if report.judge != "lexical":
        lx = report.lexical
        lines += [
            f"judge fallbacks:       {report.judge_fallbacks} (rows where the judge failed and the lexical check decided)",
            "",
            f"{'on the same rows':<22}{report.judge:>10}{'lexical':>10}",
            f"{'precision':<22}{_fmt(report.precision):>10}{_fmt(lx.precision):>10}",
            f"{'recall':<22}{_fmt(report.recall):>10}{_fmt(lx.recall):>10}",
            f"{'balanced accuracy':<22}{_fmt(report.balanced_accuracy):>10}{_fmt(lx.balanced_accuracy):>10}",
            f"{'passes / fails':<22}{c.tp + c.fp:>4} / {c.fn + c.tn:<3}"
            f"{lx.confusion.tp + lx.confusion.fp:>4} / {lx.confusion.fn + lx.confusion.tn:<3}",
        ]
        run = report.judge_run
        if run is not None:
            per = ("every verdict from the cache" if run.seconds_per_claim is None
                   else f"{run.seconds_per_claim * 1e3:.1f} ms per claim asked")
            lines.append(f"judge time: {run.seconds:.2f} s, {per} ({run.asked} asked, {run.cached} from the cache)")
    lines += ["", "threshold  balanced accuracy (lexical check)"]
    for p in report.thresholds:
        marks = []
        if p.threshold == report.best_threshold:
            marks.append("best")
        if abs(p.threshold - report.threshold) < 1e-9:
            marks.append("configured")
        note = f"  <- {', '.join(marks)}" if marks else ""
        lines.append(f"{p.threshold:>9.2f}  {_fmt(p.balanced_accuracy)}{note}")
    lines += [
        "",
        f"best threshold: {_fmt(report.best_threshold, 2)} (balanced accuracy {_fmt(report.best_balanced_accuracy)})",
        f"time per claim: {report.seconds_per_claim * 1e3:.4f} ms"
        + (" (the lexical check; the judge's time is above)" if report.judge_run is not None else ""),
    ]
    if report.fit is not None:
        f = report.fit
        lines += ["", f"fit (--fit): threshold {f.threshold:.2f} on all rows; held out by document ({f.documents} "
                      f"documents in {f.folds} parts): balanced accuracy {_fmt(f.held_out_balanced_accuracy)} "
                      f"fitted, {_fmt(f.configured_balanced_accuracy)} at the configured {report.threshold:g}",
                  f"  set threshold = {f.threshold:.2f} in cairn.toml" if f.pays else
                  "  keep the configured threshold: the fitted one does no better on documents it was not chosen on"]
    return "\n".join(lines) + "\n"
