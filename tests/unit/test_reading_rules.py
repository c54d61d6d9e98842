"""The meaning rules over the reader's structure (cairn.meaning.parsed), each
a rule of English, each with the case it catches and the cases it must leave."""

from __future__ import annotations

import pytest

from cairn.meaning.parsed.limits import limits
from cairn.meaning.parsed.relation import relation_mismatches
from cairn.meaning.parsed.retraction import retraction
from cairn.meaning.parsed.scope import negation_scope
from cairn.reading.read import available, read

pytestmark = pytest.mark.skipif(not available()[0], reason=f"the sentence reader is off: {available()[1]}")

BENEFIT = "Child Benefit is paid at £25.60 a week for the eldest or only child and £16.95 for each additional child."


def _relations(claim: str, quote: str) -> list[str]:
    return [x.message for x in relation_mismatches(read(claim), read(quote))]


def _limits(claim: str, quote: str) -> list[str]:
    return [x.message for x in limits(read(claim), read(quote))]


def test_a_quantity_bound_to_another_argument():
    assert _relations("Child Benefit is £25.60 a week for each additional child.", BENEFIT) == [
        "claim pairs £25.60 with \u201ceach additional child\u201d; the quote pairs it with \u201cthe eldest or only"
        " child\u201d (and £16.95 with \u201ceach additional child\u201d)"]
    assert _relations("Child Benefit is £16.95 a week for each additional child.", BENEFIT) == []
    assert _relations("Child Benefit is £25.60 a week for the eldest child.", BENEFIT) == []
    # a quote that binds the claim's phrase to no other figure says nothing against it
    assert _relations("The fee is £5 for each child.", "The fee is £5 for every family.") == []


def test_an_entity_paired_with_another():
    quote = "Basel lies on the Rhine, and Vienna lies on the Danube."
    assert _relations("Basel lies on the Danube.", quote) == [
        "claim pairs Basel with Danube; the quote pairs Basel with Rhine and Vienna with Danube"]
    assert _relations("Vienna lies on the Danube.", quote) == []


def test_roles_swapped():
    quote = "In the final, Arsenal beat Chelsea by two goals."
    assert _relations("Chelsea beat Arsenal in the final.", quote) == [
        "claim has Chelsea as the subject and Arsenal as the object of \u201cbeat\u201d; the quote has them the"
        " other way round"]
    assert _relations("Arsenal beat Chelsea in the final.", quote) == []


def test_required_against_optional():
    quote = "Most people are paid every four weeks, but you can choose to be paid weekly."
    assert _limits("Benefit must be paid weekly.", quote) == [
        "claim says \u201cmust be paid\u201d (required); quote says \u201ccan choose to be paid\u201d (optional)"]
    assert _limits("You can choose to be paid weekly.", quote) == []
    assert _limits("Visitors may park here.", "Visitors must park here.") == [
        "claim says \u201cmay park\u201d (optional); quote says \u201cmust park\u201d (required)"]
    # a modal on another predicate is not compared
    assert _limits("You must register first.", "You can choose to be paid weekly.") == []


def test_a_universal_claim_from_a_restricted_quote():
    quote = "Pupils with 100% attendance over the year receive a certificate."
    assert _limits("Every pupil receives a certificate.", quote) == [
        "claim says \u201cEvery pupil\u201d without restriction; the quote's sentence restricts it: \u201cPupils"
        " with 100% attendance over the year\u201d"]
    assert _limits("Pupils with 100% attendance receive a certificate.", quote) == []
    assert _limits("All users get a discount.", "Users who registered before May get a discount.") != []
    assert _limits("All users get a discount.", "All users get a discount.") == []
    # the claim names the restriction itself: nothing dropped
    assert _limits("Every pupil with full attendance receives a certificate.", quote) == []


def test_negation_read_by_clause():
    quote = "libffi is not completely thread-safe. However, closures may be created from several threads."
    assert [x.message for x in negation_scope(read("libffi is completely thread-safe, so no special rules are needed."),
                                              read(quote))] == [
        "claim says is completely thread-safe; quote says is not completely thread-safe"]
    assert negation_scope(read("libffi is not completely thread-safe."), read(quote)) == []
    # another subject: not the same clause
    assert negation_scope(read("glibc is completely thread-safe."), read(quote)) == []


def test_the_two_sides_of_a_message_differ():
    # the rule never prints two identical strings: a difference it cannot show is not reported
    for found in negation_scope(read("Dogs are allowed in the park."), read("Dogs are not allowed in the park.")):
        assert found.claim.casefold() != found.quote.casefold()


@pytest.mark.parametrize("after,expected", [
    ("; this is not the case.", "this is not the case"),
    ("This is false.", "This is false"),
    ("That turned out to be a myth.", "That turned out to be a myth"),
    ("This is not the case for children under five.", None),  # a limit, not a retraction
    ("It is sold in most shops.", None),
    ("However, the cache is kept on disk.", None),
])
def test_a_retraction_after_the_quote(after: str, expected: str | None):
    assert retraction(read(after.lstrip("; "))) == expected


def test_a_word_rule_finding_never_names_the_same_words_twice():
    from cairn import meaning

    def said(claim: str, quote: str) -> list[str]:
        return [c.message for c in meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))]).contradictions]

    # the word rules alone would print "claim says allowed; quote says allowed"
    got = said("Dogs are allowed in the park.", "Dogs are not allowed in the park.")
    assert got and all(m != "claim says allowed; quote says allowed" for m in got)
    got = said("The vaccine causes autism.", "Researchers found no evidence that the vaccine causes autism.")
    assert got == ["claim says \u201cThe vaccine causes autism.\u201d; quote says \u201cResearchers found no evidence that"
                   " the vaccine causes autism.\u201d"]
