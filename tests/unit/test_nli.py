"""The nli provider in process, with the tiny classifier of tests/nli_model.py: how quotes are cut
into pieces, how pairs are batched, and that a cached verdict never loads the model."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from cairn.core.config import ConfigError
from cairn.judge import nli
from cairn.judge.nli import NLIJudge, supported_index
from cairn.verify.verdicts import JudgeVerdict

import nli_model

FILLER = "The office stated more words in this sentence here."  # ten tokens, no keyword


def judge_of(folder: Path, store=None) -> NLIJudge:
    return NLIJudge(str(folder), folder, trusted=True, store=store)


def test_a_long_quote_is_cut_by_sentence_and_the_best_piece_decides(tmp_path: Path):
    folder = nli_model.build(tmp_path / "m", max_length=32)
    judge = judge_of(folder)
    model = judge.model()
    claim = "The ferries stopped."
    quote = " ".join([FILLER] * 6 + ["The report confirmed it."])
    pieces = model.pieces(claim, [quote])
    assert len(pieces) > 2
    # every piece fits beside the claim, and none cuts a sentence
    budget = model.max_length - model.lengths([claim])[0] - model.specials
    assert all(n <= budget for n in model.lengths(pieces))
    assert " ".join(pieces) == quote
    assert all(p.endswith(".") for p in pieces)
    # the keyword is only in the last piece: it alone makes the claim supported
    (v,) = judge.judge_many([(claim, [quote])])
    assert v.judge == "nli" and v.supported and v.score > 0.9
    (w,) = judge.judge_many([(claim, [" ".join([FILLER] * 6)])])
    assert w.judge == "nli" and not w.supported


def test_a_sentence_longer_than_the_model_reads_is_cut_by_tokens(tmp_path: Path):
    folder = nli_model.build(tmp_path / "m", max_length=16)
    model = judge_of(folder).model()
    long = " ".join(["word"] * 40) + " confirmed."
    pieces = model.pieces("Claim text.", [long])
    assert len(pieces) >= 3 and "confirmed" in pieces[-1]
    budget = model.max_length - model.lengths(["Claim text."])[0] - model.specials
    assert all(n <= budget for n in model.lengths(pieces))


def test_the_pairs_of_many_claims_run_in_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    judge = judge_of(nli_model.build(tmp_path / "m"))
    model = judge.model()
    runs: list[int] = []
    real = model.session.run

    def counted(names, feed):  # the real session, its runs counted
        runs.append(len(feed["input_ids"]))
        return real(names, feed)

    monkeypatch.setattr(model.session, "run", counted)
    items = [(f"Claim {i} here.", [f"The text {'confirmed ' if i % 2 else ''}here number {i}."]) for i in range(20)]
    verdicts = judge.judge_many(items)
    assert [v.supported for v in verdicts] == [bool(i % 2) for i in range(20)]
    assert sum(runs) == 20 and max(runs) <= nli.BATCH_PAIRS
    assert len(runs) >= math.ceil(20 / nli.BATCH_PAIRS) and len(runs) < 20


def test_a_cached_verdict_never_loads_the_model(tmp_path: Path):
    from cairn.store import Store

    root = tmp_path / "ws"
    root.mkdir()
    (root / "cairn.toml").write_text("", encoding="utf-8")
    folder = nli_model.build(tmp_path / "m")
    items = [("The ferries stopped.", ["It was confirmed that the ferries stopped."]),
             ("The bridge opened.", ["The bridge opened in spring."])]
    first = judge_of(folder, Store(root)).judge_many(items)
    assert [v.supported for v in first] == [True, False]
    # another process, the same store (a re-check, CI on a shared index): nothing is run
    again = judge_of(folder, Store(root))
    assert again.judge_many(items) == first
    assert again._model is None
    # the same claim with other quotes is asked
    (other,) = again.judge_many([("The bridge opened.", ["It was confirmed."])])
    assert other.supported and again._model is not None


@pytest.mark.parametrize("labels, index", [
    ({"0": "contradiction", "1": "neutral", "2": "entailment"}, 2),
    ({"0": "Supported", "1": "not supported"}, 0),
    ({"0": "LABEL_0", "1": "LABEL_1"}, 1),
    ({0: "neutral", 1: "ENTAILMENT"}, 1),
])
def test_supported_index(labels, index):
    assert supported_index(labels) == index


@pytest.mark.parametrize("labels, words", [
    (None, "no id2label"),
    ({}, "no id2label"),
    ({"a": "entailment"}, "not a number"),
    ({"0": "x", "2": "entailment"}, "must be 0 to 1"),
    ({"0": "yes", "1": "no"}, "0: yes, 1: no"),
    ({"0": "LABEL_0", "1": "LABEL_1", "2": "LABEL_2"}, "LABEL_2"),
])
def test_labels_that_cannot_be_mapped(labels, words):
    with pytest.raises(ConfigError, match=words):
        supported_index(labels)


def test_a_failed_model_gives_fallbacks_not_errors(tmp_path: Path):
    folder = nli_model.build(tmp_path / "m")
    (folder / "model.onnx").write_bytes(b"junk")
    judge = judge_of(folder)
    verdicts = judge.judge_many([("A claim.", ["A quote."]), ("B claim.", ["B quote."])])
    assert all(isinstance(v, JudgeVerdict) and v.judge == "fallback" for v in verdicts)
    assert "model.onnx cannot be loaded" in verdicts[0].note
    assert judge.problem and "model.onnx" in judge.problem
