"""The sentence reader (cairn.reading): what it reads of a sentence, that the
pipeline is the pinned one, and that nothing loads it before it is needed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.reading import pipeline
from cairn.reading.read import available, normal, read

pytestmark = pytest.mark.skipif(not available()[0], reason=f"the sentence reader is off: {available()[1]}")


def _words(r, ids) -> list[str]:
    return [r.tokens[i].text for i in ids]


def test_a_quantity_is_bound_to_what_it_is_for():
    r = read("Child Benefit is paid at £25.60 a week for the eldest or only child and £16.95 for each additional child.")
    bound = {q.shown: r.shown(q.bound) for q in r.quantities}
    assert bound == {"£25.60": "the eldest or only child", "£16.95": "each additional child"}


def test_a_quantity_measures_its_noun():
    r = read("Most people are paid every four weeks.")
    (q,) = r.quantities
    assert q.value == "four" and r.tokens[q.measures].text == "weeks"


def test_modality_required_and_optional():
    must = read("Benefit must be paid weekly.")
    assert [(c.lemma, c.modality, c.modal) for c in must.clauses] == [("pay", "required", "must be paid")]
    can = read("You can choose to be paid weekly.")
    pay = next(c for c in can.clauses if c.lemma == "pay")
    assert (pay.modality, pay.modal) == ("optional", "can choose to be paid")
    plain = read("People are paid every four weeks.")
    assert [c.modality for c in plain.clauses] == [""]


def test_negation_sits_on_its_clause():
    r = read("libffi is completely thread-safe, so no special rules are needed.")
    by = {c.lemma: c.negation for c in r.clauses}
    assert by["safe"] == ""  # the copula's complement is the predicate; "no" belongs to the other clause
    assert by["need"] == "no"
    neg = read("libffi is not completely thread-safe.")
    assert [c.negation for c in neg.clauses] == ["not"]


def test_roles_of_a_clause():
    r = read("Chelsea beat Arsenal in the final.")
    (c,) = r.clauses
    assert _words(r, c.subjects) == ["Chelsea"] and _words(r, c.objects) == ["Arsenal", "final"]


def test_restrictions_and_quantifiers():
    r = read("Pupils with 100% attendance over the year receive a certificate.")
    assert [(x.kind, x.shown) for x in r.restrictions if r.tokens[x.target].text == "Pupils"] == [
        ("with", "Pupils with 100% attendance over the year")]
    every = read("Every pupil receives a certificate.")
    assert [(every.tokens[u.word].text, every.tokens[u.noun].text, u.universal) for u in every.quantifiers] == [
        ("Every", "pupil", True)]
    cond = read("A refund is paid if the item is returned unused.")
    assert [x.kind for x in cond.restrictions] == ["condition"]
    rel = read("Users who registered before May get a discount.")
    assert any(x.kind == "relative" and x.shown.startswith("Users who registered") for x in rel.restrictions)


def test_both_sides_read_in_one_unicode_form():
    assert normal("5 \u00b5L") == normal("5 \u03bcL") == "5 \u03bcL"
    assert read("Add 5 \u00b5L.") is read("Add 5 \u03bcL.")  # one reading, cached by its normal form


def test_a_text_is_parsed_once():
    text = "The depot opens at nine on weekdays and at ten on Sundays."
    assert read(text) is read(text)


def test_the_pinned_weights_are_checked(tmp_path: Path):
    folder, found = pipeline.find()
    assert folder is not None, found
    assert pipeline.check(folder) is None
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy)
    (copy / "parser" / "model").write_bytes(b"other weights")
    why = pipeline.check(copy)
    assert why is not None and "parser/model" in why and "not the pinned" in why
    (copy / "meta.json").write_text('{"lang": "en", "version": "3.7.1"}', encoding="utf-8")
    assert "not en 3.8.0" in (pipeline.check(copy) or "")


def test_spacy_is_not_imported_until_a_sentence_is_read():
    code = ("import sys, cairn.verify, cairn.cli, cairn.lsp.server, cairn.meaning; "
            "print('spacy' in sys.modules)")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert got.stdout.strip() == "False"


def test_the_reader_is_not_compiled():
    from cairn.native import compiled_sources

    assert not [p for p in compiled_sources() if p.parts[0] == "reading" or "parsed" in p.parts]
