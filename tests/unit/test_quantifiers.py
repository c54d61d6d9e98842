"""Quantifiers as bounds (cairn/meaning/quantifiers.py): `all` is not `one of`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cairn import meaning
from cairn.meaning import quantifiers as Q
from cairn.meaning.quantifiers import quantifier_conflicts


@pytest.mark.parametrize("claim,quote,message", [
    ("You may distribute it provided you do all of the following.",
     "provided that you do at least ONE of the following:", "claim says all of the following; quote says ONE of the following"),
    ("join stopped reporting disorder when both of its input files are empty.",
     "join no longer reports disorder when one of the files is empty.",
     "claim says both of its input; quote says one of the files"),
    ("Either of the keys opens the door.", "Both keys are needed to open the door.",
     "claim says Either of the keys; quote says Both keys"),
])
def test_a_universal_against_an_existential(claim, quote, message):
    got = quantifier_conflicts(claim, [quote])
    assert got and got[0].message == message


@pytest.mark.parametrize("claim,quote", [
    ("You must do one of the following.", "you also do one of the following:"),
    ("Each contributor grants a licence.", "every contributor grants a licence"),  # both universal
    ("Not all of the files are empty.", "one of the files is empty"),  # a negated quantifier: the polarity rule's
    ("It is one of the greatest changes.", "All releases are listed."),  # not the same thing
    ("All files are copied.", "The files are copied."),  # the quote says no quantifier on them
])
def test_no_conflict(claim, quote):
    assert quantifier_conflicts(claim, [quote]) == []


def test_check_reports_it_as_a_contradiction():
    quote = "provided that you do at least ONE of the following:"
    ev = [meaning.Evidence(quote, quote, 0, len(quote))]
    found = meaning.check("You may distribute it provided you do all of the following.", ev)
    assert [c.kind for c in found.contradictions] == ["quantifier"]
    assert meaning.check("You may distribute it provided you do all of the following.", ev,
                         polarity=False).contradictions == []


_WORDS = st.sampled_from(["all", "All", "ALL", "both", "every", "each", "one", "one's", "either", "some", "someone",
                          "of", "the", "files", "not", "no", "isn't", "rules", "é", "x", "-", ",", ".", "'", "2"])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(_WORDS, max_size=12).map(" ".join), st.lists(_WORDS, max_size=12).map("".join),
                 st.text(max_size=40)))
def test_the_test_before_reading_quantifiers_hides_none(text):
    assert Q._quantifiers.__wrapped__(text) == Q._quantifiers_plain(text)


@pytest.mark.parametrize("claim,quote,message", [
    ("The drug is approved for adults only.", "The drug is approved for adults and children.",
     "claim says adults only; quote says adults and children"),
    ("Only members can vote.", "Members and guests can vote.", "claim says Only members; quote says Members and guests"),
    ("The species is found only in Madagascar.", "The species is found in Madagascar and Mozambique.",
     "claim says only in Madagascar; quote says Madagascar and Mozambique"),
    ("The tool only reads files.", "The tool reads and writes files.", "claim says only reads; quote says reads and writes"),
])
def test_only_against_a_list(claim, quote, message):
    got = Q.only_conflicts(claim, [quote])
    assert [c.message for c in got] == [message]


@pytest.mark.parametrize("claim,quote", [
    ("Only members can vote.", "Only members can vote."),
    ("Not only members can vote.", "Members and guests can vote."),  # says more than members
    ("Refunds are paid only if the item is unused.", "Refunds are paid if the item is unused and unopened."),
    ("Only members and guests can vote.", "Members and guests can vote."),  # the claim names the other too
    ("Only members can vote.", "Members vote, and guests watch."),  # no list of the two
])
def test_only_left_alone(claim, quote):
    assert Q.only_conflicts(claim, [quote]) == []
