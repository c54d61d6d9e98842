"""bench/support_lodo.py, the leave-one-domain-out measurement: documents as
SOURCE.md cuts them, samples of whole documents, and its figures on the blind
sets the same as `cairn calibrate`'s (the bench reads each row's findings
itself, so this is what holds it to the shipped check)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lodo():
    spec = importlib.util.spec_from_file_location("support_lodo", REPO / "bench" / "support_lodo.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["support_lodo"] = module
    spec.loader.exec_module(module)
    return module


def test_documents_are_cut_at_the_last_underscore_or_colon(lodo):
    assert lodo.doc_of("summedits:ectsum:ectsum_MDC_q3_2020_22") == "summedits:ectsum:ectsum_MDC_q3_2020"
    assert lodo.doc_of("begin:wow:test:3445:t5") == "begin:wow:test:3445"
    assert lodo.doc_of("blind:tax:manual_3") == "blind:tax:manual"
    # a WiCE sub-claim is of its claim, not of the whole train split
    assert lodo.doc_of("wice:subclaim-train:train30689-0") == "wice:subclaim-train:train30689"


def test_a_sample_takes_whole_documents_the_same_each_time(lodo):
    items = [lodo.Item(f"c{i}", ["q"], i % 2 == 0, "d", f"doc{i // 3}") for i in range(30)]
    domain = lodo.Domain("d", items)
    a, b = lodo.sample(domain, 10), lodo.sample(domain, 10)
    assert [i.claim for i in a.items] == [i.claim for i in b.items]
    assert len(a.items) == 9  # three documents of three rows; a fourth would pass 10
    docs = {i.doc for i in a.items}
    assert all(sum(i.doc == d for i in a.items) == 3 for d in docs)
    assert lodo.sample(domain, 0).items == items


def test_the_blind_sets_figures_are_cairn_calibrates(lodo, capsys):
    assert lodo.main(["--domains", "^blind:", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["domains"]) >= 12 and all(d["blind"] for d in out["domains"])
    assert all(out["cross_check"].values())
    blind = out["blind"]["default"]
    assert (blind["supported"], blind["unsupported"]) == (198, 198)
    # every rule the default reports is measured on every domain
    for rule in out["rules"].values():
        assert set(rule["per_domain"]) == {d["name"] for d in out["domains"]}
