"""`cairn calibrate`: reading labelled data and measuring the support check against it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cairn.support import DEFAULT_MODE, check_support
from cairn.verify import calibrate as cal
from cairn.verify.calibrate import THRESHOLDS, CalibrationDataError, calibrate, load_rows, render_text

WICE_DEV = Path(__file__).parents[2].parent / "shared/data/wice/dev.jsonl"
DEMO = Path(__file__).parents[2] / "fixtures/demo"

# Balanced accuracy of the SPEC's seed rule on WiCE dev at threshold 0.5, as
# measured (docs/support.md). Everything is deterministic, so it is pinned.
# the seed score with the meaning rules, as `cairn check` decides (0.6764... with the old number rule;
# 0.6808 before the rules over the sentence reader, which fail one more partially supported row and no
# supported one; the same with meaning-38; meaning-39 failed one more unsupported row, which meaning-40 passes again: `since` no frame;
# 0.6834 with meaning-43; meaning-44 fails two more unsupported rows and no supported one)
SEED_WICE_DEV_BA = 0.6886727688787185


def write(tmp_path: Path, rows: list, name: str = "data.jsonl") -> Path:
    p = tmp_path / name
    p.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return p


PLAIN = [
    # passes, labelled supported: TP
    {"claim": "Refunds within 30 days.", "quote": "Refunds are accepted within 30 days.", "label": "supported"},
    # fails on the number, labelled supported: FN
    {"claim": "Refunds within 14 days.", "quote": "Refunds are accepted within 30 days.", "label": "supported"},
    # passes, labelled unsupported: FP
    {"claim": "The shop opens early.", "quote": "The shop opens early daily.", "label": "unsupported"},
    # fails, labelled unsupported: TN (score 1/3, below every threshold of the sweep)
    {"claim": "Parcels ship overseas weekly.", "quote": "Parcels are heavy.", "label": "unsupported"},
    # two quotes taken together: TP
    {"claim": "The bridge opened in 1932 and cost 6 million.",
     "quote": ["The bridge opened in 1932.", "It cost 6 million."], "label": "supported"},
]  # fmt: skip


# --------------------------------------------------------------------------
# Reading


def test_plain_rows(tmp_path):
    rows = load_rows(write(tmp_path, PLAIN + [""]))  # a blank line is ignored
    assert [r.supported for r in rows] == [True, True, False, False, True]
    assert rows[0].quotes == ["Refunds are accepted within 30 days."]
    assert rows[4].quotes == ["The bridge opened in 1932.", "It cost 6 million."]
    assert [r.line for r in rows] == [1, 2, 3, 4, 5]
    assert {r.format for r in rows} == {"plain"}
    assert rows.skipped == {}


def wice_row(label, sets, evidence=None, claim="Emotive was released on November 2, 2004."):
    evidence = evidence or [
        "(meta data) TITLE: Emotive",
        "eMOTIVe hits stores on Election Day, November 2.",
        "The album came out in 2004.",
        "Unrelated sentence.",
    ]
    return {"label": label, "supporting_sentences": sets, "claim": claim, "evidence": evidence, "meta": {}}


def test_wice_rows(tmp_path):
    p = write(
        tmp_path,
        [
            wice_row("supported", [[0], [2, 0, 1], [3]]),  # first set with a sentence other than 0
            wice_row("partially_supported", [[1]]),
            wice_row("not_supported", []),  # skipped
            wice_row("supported", [[0]]),  # no usable set: skipped
            wice_row("partially_supported", []),  # no usable set: skipped
        ],
    )
    rows = load_rows(p)
    assert len(rows) == 2
    assert rows[0].supported is True and rows[1].supported is False
    assert rows[0].quotes == ["The album came out in 2004. eMOTIVe hits stores on Election Day, November 2."]
    assert rows[1].quotes == ["eMOTIVe hits stores on Election Day, November 2."]
    assert {r.format for r in rows} == {"wice"}
    assert rows.skipped == {"not_supported": 1, "no_gold_sentences": 2}


def test_formats_mix_per_row(tmp_path):
    rows = load_rows(write(tmp_path, [PLAIN[0], wice_row("supported", [[1]])]))
    assert [r.format for r in rows] == ["plain", "wice"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"claim": "x", "label": "supported"}', "expected {claim, quote, label}"),
        ('{"claim": "x", "quote": "y", "label": "maybe"}', "label must be supported or unsupported"),
        ('{"claim": 3, "quote": "y", "label": "supported"}', "'claim' must be a string"),
        ('{"claim": "x", "quote": [], "label": "supported"}', "'quote' must be a string"),
        (json.dumps(wice_row("refuted", [[1]])), "WiCE label"),
        (json.dumps(wice_row("supported", [[9]])), "outside 'evidence'"),
        (json.dumps(wice_row("supported", "1")), "'supporting_sentences'"),
    ],
)
def test_bad_line_names_its_number(tmp_path, line, message):
    p = write(tmp_path, [PLAIN[0], "", line])
    with pytest.raises(CalibrationDataError, match=rf"data\.jsonl:3: .*{message}"):
        load_rows(p)
    assert cal.DataError is CalibrationDataError


def test_unreadable_file(tmp_path):
    with pytest.raises(CalibrationDataError, match="cannot read"):
        load_rows(tmp_path / "missing.jsonl")
    (tmp_path / "bad.jsonl").write_bytes(b'{"claim": "\xff"}\n')
    with pytest.raises(CalibrationDataError, match="cannot read"):
        load_rows(tmp_path / "bad.jsonl")


# --------------------------------------------------------------------------
# Measuring


def test_report_on_plain_rows(tmp_path):
    rows = load_rows(write(tmp_path, PLAIN))
    r = calibrate(rows, mode="seed", threshold=0.5)
    assert (r.confusion.tp, r.confusion.fn, r.confusion.fp, r.confusion.tn) == (2, 1, 1, 1)
    assert (r.rows, r.supported, r.unsupported) == (5, 3, 2)
    assert r.precision == pytest.approx(2 / 3)
    assert r.recall == pytest.approx(2 / 3)
    assert r.balanced_accuracy == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert r.number_rule_failures == 1
    assert [p.threshold for p in r.thresholds] == list(THRESHOLDS)
    assert THRESHOLDS[0] == 0.3 and THRESHOLDS[-1] == 0.8 and len(THRESHOLDS) == 11
    assert r.best_balanced_accuracy == max(p.balanced_accuracy for p in r.thresholds)
    assert r.seconds_per_claim > 0
    assert r.judge == "lexical" and r.mode == "seed"


def test_best_threshold_prefers_the_configured_one_among_equals(tmp_path):
    rows = load_rows(write(tmp_path, PLAIN[:2] + PLAIN[3:]))  # every threshold gives the same figure
    assert len({p.balanced_accuracy for p in calibrate(rows, mode="seed").thresholds}) == 1
    assert calibrate(rows, mode="seed", threshold=0.5).best_threshold == 0.5
    assert calibrate(rows, mode="seed", threshold=0.42).best_threshold == 0.3


def test_verdicts_are_those_of_check_support(tmp_path):
    rows = load_rows(write(tmp_path, PLAIN))
    for t in (0.3, 0.5, 0.8):
        r = calibrate(rows, mode=DEFAULT_MODE, threshold=t)
        passes = [check_support(x.claim, x.quotes, threshold=t).passed for x in rows]
        assert r.confusion.tp + r.confusion.fp == sum(passes)


def test_one_class_only_gives_no_balanced_accuracy(tmp_path):
    r = calibrate(load_rows(write(tmp_path, PLAIN[:2])), mode="seed")
    assert r.balanced_accuracy is None and r.precision == 1.0 and r.recall == 0.5
    assert r.best_threshold is None
    assert "n/a" in render_text(r)


def test_empty_data(tmp_path):
    r = calibrate(load_rows(write(tmp_path, [""])), mode="seed")
    assert r.rows == 0 and r.balanced_accuracy is None and r.seconds_per_claim == 0.0


def test_judge_replaces_the_score_test_but_not_the_number_rule(tmp_path):
    rows = load_rows(write(tmp_path, PLAIN))
    calls = []

    def always_yes(claim, quotes):
        calls.append((claim, list(quotes)))
        return True, 0.9

    r = calibrate(rows, mode="seed", judge=always_yes)
    assert len(calls) == 5 and calls[4][1] == PLAIN[4]["quote"]
    # Everything passes except the row the number rule fails.
    assert (r.confusion.tp, r.confusion.fn, r.confusion.fp, r.confusion.tn) == (2, 1, 2, 0)
    assert r.judge == "always_yes" and r.judge_fallbacks == 0


def test_failing_judge_falls_back_to_the_lexical_check(tmp_path):
    rows = load_rows(write(tmp_path, PLAIN))

    class Verdict:
        def __init__(self, supported, judge="openai"):
            self.supported, self.judge, self.score = supported, judge, None

    def flaky(claim, quotes):
        if "bridge" in claim:
            raise TimeoutError("judge down")
        if "shop" in claim:
            return Verdict(True, judge="fallback")
        return Verdict(False)

    lexical = calibrate(rows, mode="seed")
    r = calibrate(rows, mode="seed", judge=flaky, judge_name="openai")
    assert r.judge == "openai" and r.judge_fallbacks == 2
    # The judge says no to rows 1, 2 and 4; rows 3 and 5 are the lexical check's.
    assert (r.confusion.tp, r.confusion.fp) == (1, lexical.confusion.fp)
    assert "judge fallbacks:       2" in render_text(r)


def test_json_and_text_output(tmp_path):
    r = calibrate(load_rows(write(tmp_path, PLAIN)), mode="seed", threshold=0.5, data="data.jsonl")
    obj = json.loads(r.model_dump_json())
    assert obj["balanced_accuracy"] == r.balanced_accuracy
    assert {"confusion", "precision", "recall", "thresholds", "best_threshold", "seconds_per_claim"} <= obj.keys()
    text = render_text(r)
    for needle in ["support.mode = 'seed'", "balanced accuracy:", "precision (supported):", "recall (supported):",
                   "best threshold:", "time per claim:", "<- ", "0.30", "0.80"]:  # fmt: skip
        assert needle in text, needle


# --------------------------------------------------------------------------
# WiCE dev, read in place (never copied into the repository)

needs_wice = pytest.mark.skipif(not WICE_DEV.is_file(), reason=f"{WICE_DEV} not present")


@pytest.fixture(scope="module")
def wice_rows():
    return load_rows(WICE_DEV)


@needs_wice
def test_wice_dev_rows(wice_rows):
    assert len(wice_rows) == 305
    assert sum(r.supported for r in wice_rows) == 115
    assert wice_rows.skipped == {"not_supported": 43, "no_gold_sentences": 1}


@needs_wice
def test_wice_dev_seed_figure_is_pinned(wice_rows):
    r = calibrate(wice_rows, mode="seed", threshold=0.5)
    assert r.balanced_accuracy == pytest.approx(SEED_WICE_DEV_BA, abs=1e-9)
    assert (r.confusion.tp, r.confusion.fn, r.confusion.fp, r.confusion.tn) == (67, 48, 39, 151)


@needs_wice
def test_wice_dev_default_mode_reaches_target(wice_rows):
    r = calibrate(wice_rows, mode=DEFAULT_MODE, threshold=0.5)
    assert r.balanced_accuracy >= 0.70
    assert r.balanced_accuracy > SEED_WICE_DEV_BA


# --------------------------------------------------------------------------
# The demo workspace gives the same verdicts in both modes


def test_demo_verdicts_do_not_depend_on_the_mode(tmp_path, monkeypatch):
    cli = pytest.importorskip("cairn.cli.main")
    from click.testing import CliRunner

    if not (DEMO / "drafts").is_dir() or not any((DEMO / "drafts").glob("*.md")):
        pytest.skip("no demo drafts")
    verdicts = {}
    for mode in ("seed", DEFAULT_MODE):
        ws = tmp_path / mode
        shutil.copytree(DEMO, ws)
        toml = ws / "cairn.toml"
        text = toml.read_text(encoding="utf-8") if toml.exists() else ""
        assert "[support]" not in text
        toml.write_text(text + f'\n[support]\nmode = "{mode}"\n', encoding="utf-8")
        monkeypatch.chdir(ws)
        result = CliRunner().invoke(cli.main, ["check", "--format", "json"])
        assert result.exit_code in (0, 1), result.output
        report = json.loads(result.stdout)
        verdicts[mode] = (
            [
                (d["path"], c["line"], c["supported"], sorted(x["code"] for x in c["diagnostics"]))
                for d in report["drafts"]
                for c in d["claims"]
            ],
            {k: v for k, v in report["metrics"].items()},
        )
    assert verdicts["seed"] == verdicts[DEFAULT_MODE]
