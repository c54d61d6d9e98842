"""The meaning rules over the reader's structure (cairn.meaning.parsed), each
a rule of English, each with the case it catches and the cases it must leave."""

from __future__ import annotations

import pytest

from cairn.meaning.parsed.asserted import insignificant, superlative, temporary
from cairn.meaning.parsed.limits import limits
from cairn.meaning.parsed.overstated import association, partial
from cairn.meaning.parsed.pairing import pairing_mismatches
from cairn.meaning.parsed.relation import counted_elsewhere, relation_mismatches
from cairn.meaning.parsed.retraction import retraction
from cairn.meaning.parsed.run import check as parsed_check
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


def test_no_longer_denies_now_and_a_negated_bound_is_the_opposite_bound():
    # "no longer stops" denies the stop now, as "has not stopped" does
    quote = "From 15 Dec 2024, route 12 no longer stops at Mill Lane."
    assert negation_scope(read("Since 15 December 2024, route 12 has not stopped at Mill Lane."), read(quote)) == []
    assert [x.message for x in negation_scope(read("Route 12 still stops at Mill Lane."), read(quote))] == [
        "claim says Route 12 still stops; quote says From 15 Dec 2024, route 12 no longer stops"]
    # "no longer than" bounds a figure; it denies nothing
    assert negation_scope(read("The call lasts at most 30 minutes."), read("The call lasts no longer than 30 minutes.")) == []
    # "no class has more than 30" is "each class has at most thirty": the negation and the opposite bound cancel
    quote = "Each class has a maximum of thirty pupils."
    assert negation_scope(read("No class has more than 30 pupils."), read(quote)) == []
    assert [x.message for x in negation_scope(read("No class has thirty pupils."), read(quote))] == [
        "claim says No class has; quote says Each class has"]


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


# --------------------------------------------------------------------------
# meaning-39: a bound, an association, a narrowed kind, `only`, a converse, each/total, by/to, steps


def _all(claim: str, quote: str) -> list[str]:
    """Every structural finding's message over one quote (the adopted and the measured ones)."""
    got = parsed_check(claim, [(quote, quote, 0, len(quote))])
    return [x.message for _, x in got.limits] + [x.message for _, x in got.amounts] + [
        x.message for x in got.relations]


def test_a_bound_stated_as_exact():
    quote = "The scheme refunds up to £80 of the cost of a bicycle helmet."
    assert _all("The scheme refunds £80 of the cost of a bicycle helmet.", quote) == [
        "claim states \u201c£80\u201d as exact; the quote gives a bound: \u201cup to £80\u201d"]
    assert _all("The scheme refunds at most £80 of the cost of a bicycle helmet.", quote) == []
    assert _all("The scheme refunds £80 or less of the cost of a bicycle helmet.", quote) == []
    # the same amount stated without a bound elsewhere in the quote backs an exact claim
    assert _all("The helmet costs £80.", "The helmet costs £80, and the scheme refunds up to £80.") == []


def test_an_association_stated_as_a_cause():
    quote = "Towns with more cycle lanes had fewer traffic injuries."
    assert _all("More cycle lanes cause fewer traffic injuries in towns.",
                "Towns with more cycle lanes were more likely to report fewer traffic injuries.") == [
        "claim says \u201ccause\u201d; the quote reports only that they go together: \u201cmore likely\u201d"]
    # a quote that states a cause of its own, or a claim that states none, is left alone
    assert _all("More cycle lanes cause fewer traffic injuries in towns.",
                "More cycle lanes were more likely to lead to fewer traffic injuries in towns.") == []
    assert _all("Towns with more cycle lanes had fewer traffic injuries.", quote) == []
    # "due to be" is a time to come, not a cause
    assert _all("The grant is due to be paid after the vote.", "The grant was paid after the vote.") == []


def test_a_kind_the_quote_narrows():
    assert _all("Tenants may keep a cat.", "Ground-floor tenants may keep a cat.") == [
        "claim says it of \u201cTenants\u201d; the quote's sentence says it of \u201cGround-floor tenants\u201d"]
    assert _all("Books may be renewed online.", "Books borrowed from the reference desk may be renewed online.") == [
        "claim says it of \u201cBooks\u201d; the quote's sentence says it of \u201cBooks borrowed from the reference"
        " desk\u201d"]
    # a known thing ("the tenants"), a claim that says the narrowing words, a plain adjective: left alone
    assert _all("The tenants may keep a cat.", "Ground-floor tenants may keep a cat.") == []
    assert _all("Ground-floor tenants may keep a cat.", "Ground-floor tenants may keep a cat.") == []
    assert _all("Tenants may keep a cat.", "Happy tenants may keep a cat.") == []


def test_only_on_another_word():
    quote = "Only members may book the courts at weekends."
    assert _all("Members may book the courts only at weekends.", quote) == [
        "claim puts \u201conly\u201d on \u201cat weekends\u201d; the quote puts it on \u201cmembers\u201d"]
    assert _all("At weekends, only members may book the courts.", quote) == []


def test_a_converse_condition():
    quote = "If the alarm sounds, staff leave the building."
    assert _all("When staff leave the building, the alarm sounds.", quote) == [
        "claim makes \u201cWhen staff leave the building\u201d the condition; the quote's condition is \u201cIf the"
        " alarm sounds\u201d, and the claim states its converse"]
    assert _all("When the alarm sounds, staff leave the building.", quote) == []


def test_each_against_a_total_and_by_against_to():
    assert _all("The four tutors earn a combined £900 for the course.",
                "Each of the four tutors earns £900 for the course.") == [
        "claim gives \u201c£900\u201d to all together; the quote gives it to each"]
    assert _all("Each tutor earns £900 for the course.", "Each of the four tutors earns £900 for the course.") == []
    quote = "The fee fell from £40 to £25 last year."
    assert _all("The fee fell by £25 last year.", quote) == [
        "claim says \u201cby £25\u201d (the change); the quote says \u201cto £25\u201d (the level)"]
    assert _all("The fee fell to £25 last year.", quote) == []


def test_steps_in_another_order():
    quote = "Switch off the power, then remove the panel."
    assert _all("Remove the panel, then switch off the power.", quote) == [
        "claim puts \u201cRemove the panel before switch off the power\u201d; the quote puts \u201cSwitch off the power"
        " before remove the panel\u201d"]
    assert _all("Switch off the power first, then remove the panel.", quote) == []


def test_a_condition_that_asks_leave_or_names_the_text_limits_nothing():
    assert _all("We send the forms by post.", "We send the forms by post, if that suits you.") == []
    assert _all("The model improves recall.", "In this paper, the model improves recall.") == []
    assert _all("The library opens at nine.", "On Sundays, the library opens at nine.") == [
        "claim says \u201cThe library opens at nine\u201d without restriction; the quote's sentence restricts it:"
        " \u201cOn Sundays\u201d"]
    # the quote also states it without the limit
    assert _all("The library opens at nine.", "On Sundays, the library opens at nine. The library opens at nine.") == []


def test_a_name_the_tagger_gives_as_a_common_noun():
    assert _relations("Bordeaux lies on the Rhône.", "Lyon lies on the Rhône; Bordeaux lies on the Garonne.") == [
        "claim pairs Bordeaux with Rhône; the quote pairs Bordeaux with Garonne and Lyon with Rhône"]


def test_a_taste_of_the_hearers_limits_nothing():
    assert _all("You can add a pinch of chilli.", "You can add a pinch of chilli if you like it hot.") == []
    assert _all("You can add a pinch of chilli.", "You can add a pinch of chilli if you like spicy food.") == [
        "claim says \u201cYou can add a pinch of chilli\u201d without restriction; the quote's sentence restricts it:"
        " \u201cif you like spicy food\u201d"]


def test_a_requirement_the_quote_says_may_hold_or_leaves_optional():
    quote = "If you have asthma, you may need to avoid this medicine; ask your doctor."
    assert _limits("People with asthma must avoid this medicine.", quote) == [
        "claim says \u201cmust avoid\u201d (required); quote says \u201cmay need to avoid\u201d (possible)"]
    assert _limits("People with asthma may need to avoid this medicine.", quote) == []
    quote = "You can add a pinch of chilli if you like it hot."
    assert _limits("The recipe requires a pinch of chilli.", quote) == [
        "claim says \u201crequires\u201d (required); quote says \u201ccan add\u201d (optional)"]
    assert _limits("The recipe requires a pinch of salt.", quote) == []
    assert _limits("The recipe does not require chilli.", quote) == []


def test_a_measure_put_on_another_thing():
    quote = "Extra time consists of two periods of 15 minutes, with a 1-minute break between them."
    assert _relations("Extra time has a 15-minute break between its two periods.", quote) == [
        "claim gives \u201c15-minute break\u201d; the quote gives \u201c1-minute break\u201d and puts"
        " \u201c15 minutes\u201d on \u201cperiods\u201d"]
    assert _relations("Extra time has a 1-minute break between its two periods.", quote) == []
    assert _relations("Extra time consists of two periods of 15 minutes.", quote) == []


def _pairings(claim: str, quote: str) -> list[str]:
    return [m for _, _, m in pairing_mismatches(read(claim), read(quote))]


def test_figures_of_a_list_told_apart_by_an_age_or_a_word_the_tagger_misreads():
    leaflet = ("Children aged 7 to 9 years: one tablet every six hours; children aged 10 to 12 years: one tablet"
               " every four hours.")
    assert _pairings("Children aged 7 to 9 years take one tablet every four hours.", leaflet) == [
        "claim gives four hours for \u201c7, 9 years\u201d; the quote gives six hours there (\u201cChildren aged 7 to 9"
        " years: one tablet every six hours\u201d) and four hours for another part (\u201cchildren aged 10 to 12 years:"
        " one tablet every four hours.\u201d)"]
    assert _pairings("Children aged 7 to 9 years take one tablet every six hours.", leaflet) == []
    assert _pairings("Children aged 10 to 12 years take one tablet every four hours.", leaflet) == []
    # the second `income` is tagged a verb: it is still a word both parts write
    rates = ("The higher rate of 40% applies to income over £50,270, and the additional rate of 45% to income over"
             " £125,140.")
    assert _pairings("The rate of 40% applies to income over £125,140.", rates) == [
        "claim gives 40% for \u201crate, £125,140\u201d; the quote gives 45% there (\u201cthe additional rate of 45% to"
        " income over £125,140.\u201d) and 40% for another part (\u201cThe higher rate of 40% applies to income over"
        " £50,270\u201d)"]
    assert _pairings("The rate of 45% applies to income over £125,140.", rates) == []


def test_done_against_still_to_come():
    from cairn.meaning.parsed.scope import tense_mismatches

    def said(claim: str, quote: str) -> list[str]:
        return [x.message for x in tense_mismatches(read(claim), read(quote))]

    assert said("The spa was renovated in 2025.", "The spa will be renovated in 2025.") == [
        "claim says The spa was renovated (past); quote says The spa will be renovated (future)"]
    assert said("The museum will open in May.", "The museum opened in May.") == [
        "claim says The museum will open (future); quote says The museum opened (past)"]
    assert said("The spa will be renovated in 2025.", "The spa will be renovated in 2025.") == []
    # the tagger gives "opened" as a participle; with a subject and no auxiliary it is the simple past
    assert said("The new branch opened in March.", "The new branch will open in March.") == [
        "claim says The new branch opened (past); quote says The new branch will open (future)"]
    # the present states a rule, neither done nor to come; a report of a saying is not compared
    assert said("Refunds are paid within 14 days.", "Refunds will be paid within 14 days.") == []
    assert said("He said the shop opened in May.", "The shop will open in May.") == []


def test_all_from_a_quantifier_of_part():
    assert _limits("All rooms have a balcony.", "Most rooms have a balcony.") == [
        "claim says \u201cAll rooms\u201d; the quote says only \u201cMost rooms\u201d"]
    assert _limits("Every room has a balcony.", "Some rooms have a balcony.") == [
        "claim says \u201cEvery room\u201d; the quote says only \u201cSome rooms\u201d"]
    assert _limits("Most rooms have a balcony.", "Most rooms have a balcony.") == []
    assert _limits("Not all rooms have a balcony.", "Most rooms have a balcony.") == []
    # `most` on an adjective is a superlative, no quantifier; a quote that also says all of them backs the claim
    assert _limits("All rooms have wifi.", "The most popular rooms have wifi.") == []
    assert _limits("All rooms have a balcony.", "All rooms have a balcony; most rooms have a sea view.") == []


def test_roles_of_a_passive_clause():
    quote = "Algal blooms cause the loss of fish."
    assert _pairings("Algal blooms are caused by the loss of fish.", quote) == [
        "claim says \u201cAlgal blooms are caused by the loss of fish\u201d; the quote has the roles the other way"
        " round: \u201cAlgal blooms cause the loss of fish\u201d"]
    assert _pairings("The loss of fish is caused by algal blooms.", quote) == []
    assert _pairings("Coral bleaching is caused by high water temperatures.",
                     "High water temperatures cause coral bleaching.") == []


def test_an_estimate_the_claim_insists_is_exact():
    from cairn.meaning.parsed.overstated import bounds

    def said(claim: str, quote: str) -> list[str]:
        return [x.message for x in bounds(read(claim), read(quote))]

    assert said("Exactly 200 guests attended the opening.", "About 200 guests attended the opening.") == [
        "claim states \u201cExactly 200 guests\u201d; the quote gives an estimate: \u201cAbout 200 guests\u201d"]
    assert said("About 200 guests attended the opening.", "About 200 guests attended the opening.") == []
    assert said("Exactly 200 guests attended the opening.", "200 guests attended the opening.") == []


# --------------------------------------------------------------------------
# meaning-42: a plan stated as done, an option as given, a time limit dropped, a superlative from a group,
# a denial of what was reported, comparatives of price, difficulty and distance


def _limit_of(claim: str, quote: str) -> list[str]:
    from cairn.meaning.parsed.asserted import asserted

    return [x.message for x in asserted(read(claim), read(quote))]


def test_a_plan_stated_as_done():
    quote = "The council is consulting on a proposal to ban diesel vehicles from the zone."
    assert _limit_of("The council has banned diesel vehicles from the zone.", quote) == [
        "claim says \u201cbanned\u201d as done; the quote names it only as intended: \u201cproposal to ban\u201d"]
    # a claim that speaks of the plan, or a quote that also states the event, is left alone
    assert _limit_of("The council may ban diesel vehicles from the zone.", quote) == []
    assert _limit_of("The council has proposed to ban diesel vehicles from the zone.", quote) == []
    assert _limit_of("The council banned diesel vehicles from the zone.",
                     "The council banned diesel vehicles from the zone last year.") == []
    assert _limit_of("The city plans to close the bridge.", "The city plans to close the bridge in May.") == []


def test_an_option_stated_as_given():
    quote = "A queen excluder can be added to any hive as an optional extra."
    assert _limit_of("Every hive is supplied with a queen excluder.", quote) == [
        "claim states \u201csupplied\u201d as given; the quote says it is optional: \u201coptional\u201d"]
    assert _limit_of("A queen excluder can be added to any hive.", quote) == []
    assert _limit_of("A queen excluder is available for any hive.", quote) == []
    assert _limit_of("Hives are inspected weekly.", "Hives are inspected weekly.") == []


def test_a_time_limit_dropped():
    quote = "Until the end of March, blue badge holders may park free in the zone."
    assert _limit_of("Blue badge holders park free in the zone.", quote) == [
        "claim states \u201cBlue badge holders park free in the zone\u201d without a time limit; the quote holds it"
        " to a time: \u201cUntil the end of March\u201d"]
    assert _limit_of("Blue badge holders park free in the zone until March.", quote) == []
    assert _limit_of("The library is temporarily closed.", "The library is temporarily closed for repairs.") == []
    assert _limit_of("The museum opens daily.", "The museum is temporarily closed.") == []
    # `until` with an hour is when it ends each day, not a limit in time of the rule
    assert _limit_of("The shop stays open late.", "The shop stays open until 10 pm.") == []


def test_a_superlative_from_a_group():
    quote = "Heather honey is among the more expensive honeys sold in Britain."
    assert _limit_of("Heather honey is the most expensive honey sold in Britain.", quote) == [
        "claim says \u201cmost expensive\u201d; the quote says only \u201camong the more expensive\u201d"]
    assert _limit_of("The Nile is the longest river in Africa.", "The Nile is one of the longest rivers.") == [
        "claim says \u201clongest\u201d; the quote says only \u201cone of the longest\u201d"]
    assert _limit_of("The Nile is one of the longest rivers.", "The Nile is one of the longest rivers.") == []
    assert _limit_of("The Nile is the longest river in Africa.", "The Nile is the longest river in Africa.") == []


def test_a_report_that_others_denied():
    assert retraction(read("officials denied it.")) == "officials denied it"
    assert retraction(read("the company later withdrew the claim.")) == "the company later withdrew the claim"
    assert retraction(read("officials did not deny it.")) is None
    assert retraction(read("officials denied the request for a recount.")) is None


def test_comparatives_of_price_difficulty_and_distance():
    from cairn import meaning

    def said(claim: str, quote: str) -> list[str]:
        return [c.message for c in meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))]).contradictions]

    assert said("The hotel is the cheapest in town.", "The hotel is the most expensive in town.") == [
        "claim says cheapest; quote says most expensive"]
    assert said("The north route is harder than the south route.", "The north route is easier than the south route.")
    # the converse comparison says the same
    assert said("Trains are cheaper than flights.", "Flights are more expensive than trains.") == []
    assert said("The clinic is nearer than the hospital.", "The hospital is farther away than the clinic.") == []


def test_percent_against_percentage_points_the_quote_names():
    from cairn import meaning

    def numbers(claim: str, quote: str) -> list[str]:
        return [n.message for n in meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))]).numbers]

    quote = "Turnout rose by 5 percentage points, from 60% to 65%."
    assert numbers("Turnout rose by 5%.", quote) == ["claim says 5%; quotes say 5 percentage points, 60% to 65%"]
    assert numbers("Turnout rose by 5 points.", quote) == []
    # a quote with the two percentages alone still backs a change written in percent (a common looseness)
    assert numbers("Turnout rose by 5%.", "Turnout rose from 60% to 65%.") == []


def test_days_of_the_week_outside_the_quotes_days():
    quote = "Permit rules apply Monday to Friday, 8 am to 6 pm."
    assert _limit_of("Permit rules apply at weekends.", quote) == [
        "claim says \u201cweekends\u201d; the quote says \u201cMonday to Friday\u201d"]
    assert _limit_of("Permit rules apply on weekdays.", quote) == []
    assert _limit_of("The museum opens every day.", "The museum opens Tuesday to Sunday.") == [
        "claim says \u201cevery day\u201d; the quote says \u201cTuesday to Sunday\u201d"]
    assert _limit_of("The market runs on Monday.", "The market runs at weekends.") == [
        "claim says \u201cMonday\u201d; the quote says \u201cweekends\u201d"]
    # a quote that says on which days a thing does not hold names other days than those it holds on
    assert _limit_of("The market runs on Friday.", "The market runs every day except Sundays.") == []


def test_a_run_of_days_backs_each_day_in_it():
    from cairn import meaning

    def numbers(claim: str, quote: str) -> list[str]:
        return [n.message for n in meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))]).numbers]

    quote = "The museum opens Tuesday to Sunday, 10 am to 5 pm."
    assert numbers("The museum opens on Saturdays.", quote) == []
    assert numbers("The museum opens on Mondays.", quote) == ["claim says Mondays; quotes say Tuesday to Sunday"]
    assert numbers("The office is open Monday to Saturday.", "The office is open Monday to Friday.") == [
        "claim says Monday to Saturday; quotes say Monday to Friday"]


def test_another_doer_the_quote_tells_apart():
    quote = "Worker bees collect nectar for the colony; drones do not forage."
    assert _pairings("Drones collect nectar for the colony.", quote) == [
        "claim says \u201cDrones collect nectar for the colony\u201d; the quote gives it to another: \u201cWorker bees"
        " collect nectar for the colony\u201d"]
    assert _pairings("Worker bees collect nectar.", quote) == []
    # a quote that does not name the claim's doer says nothing against it
    assert _pairings("Bees collect nectar.", "Worker bees collect nectar for the colony.") == []


def test_another_doer_leaves_a_name_and_the_definite_noun_that_may_point_to_it():
    quote = "The company will recall 19 pickups, Lordstown said on Monday."
    assert _pairings("Lordstown will recall 19 pickups.", quote) == []
    # "her daily show" says what the show is, not on which days a thing holds
    assert _limit_of("She began her daily radio show in 2018.", "The show airs on weekdays.") == []


def test_a_thing_given_for_a_class_of_people_only():
    quote = "Late check-out is free for members of our loyalty scheme."
    assert _limit_of("Late check-out is free.", quote) == [
        "claim states \u201cfree\u201d for anyone; the quote gives it only \u201cfor members of our loyalty scheme\u201d"]
    assert _limit_of("Late check-out is free for members.", quote) == []
    assert _limit_of("Breakfast is served from 7 am.", "Breakfast is served from 7 am for all guests.") == []
    assert _limit_of("The hall is booked.", "The hall is booked for a wedding.") == []


def test_another_doer_leaves_a_doer_named_inside_the_quotes_doer():
    quote = "The labels of plant-based milks may soon include a statement on nutrition; plant-based milks are sold widely."
    assert _pairings("Plant-based milks may soon include a statement on nutrition.", quote) == []


# --------------------------------------------------------------------------
# meaning-43: advice read as a rule, a modality inherited, an estimate, a rate's second unit, `than` swapped,
# a condition opened by `where`, a retraction that calls it an error


def test_advice_stated_as_a_requirement():
    assert _all("Members must bring photo ID to join.", "We recommend that new members bring photo ID when they join.") == [
        "claim says \u201cmust bring\u201d (required); quote says only \u201cWe recommend\u201d (advice)"]
    assert _all("Visitors must wear a hard hat on site.", "Visitors should wear a hard hat on site.") == [
        "claim says \u201cmust wear\u201d (required); quote says only \u201cshould\u201d (advice)"]
    assert _all("Visitors must wear a hard hat on site.", "Visitors are advised to wear a hard hat on site.") == [
        "claim says \u201cmust wear\u201d (required); quote says only \u201care advised\u201d (advice)"]
    # advice stated as advice, or as an option, and a rule the quote states as one, are left alone
    assert _all("Visitors should wear a hard hat on site.", "Visitors must wear a hard hat on site.") == []
    assert _all("Members can bring photo ID to join.", "We recommend that new members bring photo ID when they join.") == []
    assert _all("Visitors must wear a hard hat on site.", "Visitors must wear a hard hat on site, and we recommend boots.") == []


def test_a_modality_the_quote_puts_on_the_verb_completed():
    assert _all("You must provide proof of identity.", "You may be asked to provide proof of identity.") == [
        "claim says \u201cmust provide\u201d (required); quote says \u201cmay be asked\u201d (optional)"]
    assert _all("You may be asked to provide proof of identity.", "You may be asked to provide proof of identity at the desk.") == []
    assert _all("You must provide proof of identity.", "You will be asked to provide proof of identity.") == []


def test_an_estimate_a_chance_or_a_report_stated_as_known():
    assert _all("Your annual cost will be £1,240.", "Your estimated annual cost is £1,240.") == [
        "claim states \u201cYour annual cost will be £1,240\u201d as known; the quote's sentence says \u201cestimated"
        " annual cost\u201d"]
    assert _all("Thunderstorms will break out over the hills on Thursday.",
                "There is a 40% chance of thunderstorms over the hills on Thursday.") == [
        "claim states \u201cThunderstorms will break out over the hills on Thursday\u201d as known; the quote's sentence"
        " says \u201ca 40% chance of thunderstorms\u201d"]
    assert _all("The ship sank in 1760.", "The ship is thought to have sunk in 1760.") == [
        "claim states \u201cThe ship sank in 1760\u201d as known; the quote's sentence says \u201cis thought\u201d"]
    assert _all("The portrait was painted by Frans Hals.", "The portrait is attributed to Frans Hals.") != []
    # the claim hedges it too, or the quote reports it without a hedge
    assert _all("Your estimated annual cost is about £1,240.", "Your estimated annual cost is £1,240.") == []
    assert _all("Thunderstorms are likely over the hills on Thursday.",
                "There is a 40% chance of thunderstorms over the hills on Thursday.") == []
    assert _all("The ship is believed to have sunk in 1760.", "The ship is thought to have sunk in 1760.") == []
    assert _all("The ship sank in 1760.", "The ship sank in 1760, the records say.") == []


def test_a_rates_second_unit():
    assert _all("The standing charge is 31.4p per month.", "The standing charge is 31.4p per day.") == [
        "claim gives \u201c31.4p per month\u201d; the quote gives \u201c31.4p per day\u201d"]
    assert _all("A permit costs £60 per household.", "A permit costs £60 per vehicle.") == [
        "claim gives \u201c£60 per household\u201d; the quote gives \u201c£60 per vehicle\u201d"]
    assert _all("Rake in 50 g of fertiliser per square foot.", "Rake in 50 g of fertiliser per square metre.") == [
        "claim gives \u201c50 g of fertiliser per square foot\u201d; the quote gives \u201c50 g of fertiliser per square"
        " metre\u201d"]
    # `a day` is `per day`, `per annum` a year, `per cent` no rate; a quote amount without a rate may be the claim's
    assert _all("The standing charge is 31.4p a day.", "The standing charge is 31.4p per day.") == []
    assert _all("Interest is 5 per cent a year.", "Interest is 5 per cent per annum.") == []
    assert _all("The fee is £5 a month.", "The fee is £5, billed monthly.") == []
    # an amount per one thing is given to each, not in total
    assert _all("The exit fee is £75 in total.", "An exit fee of £75 per fuel applies.") == [
        "claim gives \u201c£75\u201d to all together; the quote gives it to each"]


def test_the_two_sides_of_than_exchanged():
    assert _all("Showers will be heavier inland than on the coast.", "Showers will be heavier on the coast than inland.") == [
        "claim compares \u201cShowers will be heavier inland than on the coast\u201d; the quote has the two sides the"
        " other way round: \u201cShowers will be heavier on the coast than inland\u201d"]
    assert _all("Trains are faster than buses in the city.", "In the city, buses are faster than trains at rush hour.") != []
    assert _all("Showers will be heavier inland than on the coast.", "Showers will be heavier inland than on the coast today.") == []
    # the other direction says the same; a third thing compared says nothing of the claim's two
    assert _all("The north face is steeper than the south face.", "The south face is less steep than the north face.") == []
    assert _all("The north face is steeper than the south face.", "The south face is steeper than the west face.") == []


def test_a_condition_opened_by_where():
    quote = "Where skies stay clear, a touch of frost is likely in sheltered spots."
    assert _all("A touch of frost is likely in sheltered spots.", quote) == [
        "claim says \u201cA touch of frost is likely in sheltered spots\u201d without restriction; the quote's sentence"
        " restricts it: \u201cWhere skies stay clear\u201d"]
    assert _all("A touch of frost is likely in sheltered spots where skies stay clear.", quote) == []


def test_a_retraction_that_calls_it_an_error():
    claim = "The account comes with a £50 overdraft buffer."
    got = parsed_check(claim, [(q := "Our leaflet stated that the account comes with a £50 overdraft buffer. This was an"
                                     " error: the account has no buffer.", q, 0, len(q))])
    assert [r[2] for r in got.retractions] == ["This was an error"]
    q = "The account comes with a £50 overdraft buffer. This error message is shown when it runs out."
    assert parsed_check(claim, [(q, q, 0, len(q))]).retractions == []


def test_only_a_part_of_the_quotes_list():
    assert _all("Only cars and vans need a permit.", "All vehicles, including cars, vans and motorcycles, need a permit.") == [
        "claim says \u201cOnly cars and vans\u201d; the quote's list also names \u201cmotorcycles\u201d"]
    assert _all("Cars and vans need a permit.", "All vehicles, including cars, vans and motorcycles, need a permit.") == []
    assert _all("Only cars and vans need a permit.", "Only cars and vans need a permit; motorcycles park free.") == []
    # a longer list under another predicate says nothing of who needs a permit
    assert _all("Only cars and vans need a permit.", "Cars, vans and lorries are sold here; cars and vans need a permit.") == []


def test_a_place_the_quote_gives_another_thing():
    quote = "The swimming pool is in the basement; the bar is on the roof."
    assert _all("The swimming pool is on the roof.", quote) == [
        "claim says \u201cThe swimming pool is on the roof\u201d; the quote says \u201cThe swimming pool is in the"
        " basement\u201d and \u201cthe bar is on the roof\u201d"]
    assert _all("The bar is on the roof.", quote) == []
    assert _all("The gym is on the roof.", quote) == []
    # two places of one thing (a room in a building) pair nothing with another thing
    assert _all("The pool is on the roof.", "The pool is on the roof, in the hotel; the bar is in the hotel too.") == []


def test_days_counted_another_way():
    assert _all("Claims must be submitted within 30 working days of the expense.",
                "Claims must be submitted within 30 days of the expense.") == [
        "claim gives \u201c30 working days\u201d; the quote gives \u201c30 days\u201d"]
    assert _all("Claims must be submitted within 30 days.", "Claims must be submitted within 30 working days.") == [
        "claim gives \u201c30 days\u201d; the quote gives \u201c30 working days\u201d"]
    # business days are working days; a figure the quote counts both ways may be either
    assert _all("Refunds take 5 business days.", "Refunds take 5 working days.") == []
    assert _all("Claims must be submitted within 30 days.",
                "Claims must be submitted within 30 working days, or 30 days for travel.") == []


def test_a_submission_or_a_dissent_stated_as_found():
    assert _all("The court found that the footpath had been abandoned in 1998.",
                "Counsel for the council submitted that the footpath had been abandoned in 1998.") == [
        "claim says \u201cThe court found\u201d; the quote's sentence says only \u201cCounsel for the council submitted\u201d"]
    assert _all("The court held that the notice to quit was invalid.",
                "Lady Justice Marsh, dissenting, would have held that the notice to quit was invalid; the majority held"
                " that it was valid.") == [
        "claim says \u201cThe court held\u201d; the quote's sentence says only \u201cwould have held\u201d"]
    # an argument reported as argued, and a finding as found, are left alone
    assert _all("Counsel argued that the footpath had been abandoned in 1998.",
                "Counsel for the council submitted that the footpath had been abandoned in 1998.") == []
    assert _all("The court held that the notice was valid.", "The court held that the notice was valid.") == []


def test_a_rank_the_quote_gives_otherwise():
    quote = "The Pacific is the largest ocean, and the Atlantic is the second largest."
    assert _all("The Pacific is the second largest ocean.", quote) == [
        "claim says \u201cPacific\u201d is \u201csecond largest\u201d; the quote says \u201clargest\u201d"]
    assert _all("The Atlantic is the second largest ocean.", quote) == []
    assert _all("The Pacific is the largest ocean.", quote) == []
    assert _all("This is the most expensive room.", "This is the second most expensive room.") == [
        "claim says \u201cThis\u201d is \u201cmost expensive\u201d; the quote says \u201csecond most expensive\u201d"]


def test_any_one_against_at_least_two():
    assert _all("Call us if your pet shows any of these signs after surgery.",
                "Call us if your pet shows two or more of these signs after surgery.") == [
        "claim says \u201cany of these signs\u201d; the quote says \u201ctwo or more of these signs\u201d"]
    assert _all("Call us if your pet shows any sign of pain.", "Call us if your pet shows at least two signs of pain.") == [
        "claim says \u201cany sign\u201d; the quote says \u201cat least two signs\u201d"]
    # the same count, and a count that names which rather than how many are enough, are left alone
    assert _all("Call us if your pet shows two or more of these signs.",
                "Call us if your pet shows two or more of these signs.") == []
    assert _all("Any of the three keys opens the door.", "Two of the three keys open the door.") == []


def test_every_measure_of_a_figure_is_no_kind_narrowed():
    quote = "Typical values per 100 g: energy 1,840 kJ / 438 kcal; fat 17 g, of which saturates 3.1 g."
    assert _limits("Every 100 g of the product provides 438 kcal.", quote) == []
    assert _limits("Every pupil receives a certificate.", "Pupils with 100% attendance receive a certificate.") != []


def test_the_claims_own_subordinate_clause_states_no_rule():
    quote = ("Castling is illegal if the king is in check, if it would pass through or land on an attacked square,"
             " or if either piece has already moved.")
    assert _all("A player may not castle while their king is in check.", quote) == []
    assert _all("Buses run every 30 minutes.", "On Sundays, buses run every 30 minutes.") != []


@pytest.mark.parametrize("claim,quote,said,theirs", [
    ("Lilies are highly toxic to dogs.", "Lilies are highly toxic to cats.", "dogs", "cats"),
    ("Sunday will be the warmer day of the weekend.",
     "Saturday will be the warmer day of the weekend, before cloud builds on Sunday.", "Sunday", "Saturday"),
    ("The bins are collected in winter.", "The bins are collected in summer.", "winter", "summer"),
    ("The blue line runs to the airport.", "The red line runs to the airport.", "blue", "red"),
])
def test_one_member_of_a_closed_set_for_another(claim, quote, said, theirs):
    assert _all(claim, quote) == [f"claim says \u201c{said}\u201d where the quote says \u201c{theirs}\u201d"]


@pytest.mark.parametrize("claim,quote", [
    # the quote's clause holds the claim's member too, or the claim names both
    ("The market is open on Sunday.", "The market is open on Saturday and Sunday."),
    ("The market is open on Sunday, not Saturday.", "The market is open on Saturday."),
    # words of one meaning, and words of a set read as another kind of word
    ("Bulbs are planted in the fall.", "Bulbs are planted in autumn."),
    ("Visitors may enter after noon.", "Visitors march in after noon."),
    ("The path turns right at the gate.", "The path turns right at the gate."),
    # another place in the sentence: not the same role
    ("Dogs are welcome in the garden.", "Cats sleep in the garden, and dogs are welcome in it."),
])
def test_members_of_a_set_the_quote_does_not_oppose(claim, quote):
    assert _all(claim, quote) == []


def test_an_amount_compared_with_its_sides_exchanged():
    quote = "Our new recipe contains 30% less sugar than our original granola, without any sweeteners added."
    assert _all("Our original granola contains 30% less sugar than the new recipe.", quote) == [
        "claim compares \u201cOur original granola contains 30% less sugar than the new recipe\u201d; the quote has"
        " the two sides the other way round: \u201cOur new recipe contains 30% less sugar than our original"
        " granola\u201d"]
    assert _all("Our new recipe contains 30% less sugar than the original granola.", quote) == []


@pytest.mark.parametrize("claim,quote,message", [
    ("The audio guide is available in English, French, German and Spanish.",
     "The audio guide is available in English, French and German and can be borrowed free of charge.",
     "claim lists \u201cEnglish, French, German and Spanish\u201d; the quote lists \u201cEnglish, French and"
     " German\u201d, without \u201cSpanish\u201d"),
    ("Tea, coffee and juice are served at breakfast.", "Tea and coffee are served at breakfast.",
     "claim lists \u201cTea, coffee and juice\u201d; the quote lists \u201cTea and coffee\u201d, without"
     " \u201cjuice\u201d"),
])
def test_a_member_added_to_the_quotes_list(claim, quote, message):
    assert _all(claim, quote) == [message]


@pytest.mark.parametrize("claim,quote", [
    # part of the list, the whole list, and a member the quote names elsewhere
    ("The audio guide is available in English and French.", "The audio guide is available in English, French and German."),
    ("The audio guide is available in English, French and German.", "It is available in English, French and German."),
    ("Tea, coffee and juice are served at breakfast.", "Tea and coffee are served at breakfast, and juice at lunch."),
    # a member reworded: its other words are the quote's
    ("We offer SEO services, social media guidance and WordPress maintenance.",
     "We offer Comprehensive SEO Services, Social Media Management and Managed WordPress Maintenance."),
])
def test_lists_that_add_nothing(claim, quote):
    assert _all(claim, quote) == []


@pytest.mark.parametrize("claim,quote,message", [
    ("Requests for more than five days of unpaid leave must be approved in writing by your line manager.",
     "Requests for more than five days of unpaid leave must be approved in writing by the head of department.",
     "claim says \u201cyour line manager\u201d does it; the quote says \u201cthe head of department\u201d (approved)"),
    ("The librarian decides whether a lost book must be paid for.",
     "The borrower's branch manager decides whether a lost book must be paid for.",
     "claim says \u201cThe librarian\u201d does it; the quote says \u201cThe borrower's branch manager\u201d (decides)"),
])
def test_the_act_given_to_another_doer(claim, quote, message):
    assert _all(claim, quote) == [message]


@pytest.mark.parametrize("claim,quote", [
    # the same doer, active for passive; doers that are no agents (synonyms are common there); a shared word
    ("Your manager must approve the request in writing.", "The request must be approved in writing by your manager."),
    ("The firm reported record profits this quarter.", "The company reported record profits this quarter."),
    ("The area manager approves the request in writing.", "The request is approved in writing by the manager."),
])
def test_doers_the_quote_does_not_oppose(claim, quote):
    assert _all(claim, quote) == []


def test_two_doers_given_each_others_acts():
    quote = "The landlord pays the rent and the tenant repairs the roof."
    assert _all("The tenant pays the rent and the landlord repairs the roof.", quote) == [
        "claim has the tenant \u201cpay\u201d and the landlord \u201crepair\u201d; the quote has them the other way round"]
    assert _all("The landlord pays the rent and the tenant repairs the roof.", quote) == []


@pytest.mark.parametrize("claim,quote,message", [
    ("Only games of more than 40 moves are submitted for rating.", "Games of more than 40 moves are submitted for rating.",
     "claim says \u201conly games of more than 40 moves\u201d; the quote's sentence does not limit it so"),
    ("The galaxy can be seen with the unaided eye.",
     "The galaxy can be seen with the unaided eye, but only from sites well away from light pollution.",
     "the quote's sentence limits it: \u201conly from sites well away from light pollution\u201d"),
])
def test_only_on_one_side(claim, quote, message):
    assert _all(claim, quote) == [message]


@pytest.mark.parametrize("claim,quote", [
    # another word that excludes, `only` on an amount, `not only`, and a claim that keeps the limited phrase
    ("Only members may use the pool.", "The pool is reserved for members."),
    ("Only 5% of users reported problems.", "5% of users reported problems."),
    ("Not only adults but children enjoy it.", "Adults and children enjoy it."),
    ("The galaxy is visible from dark sites.", "The galaxy is visible, but only from dark sites."),
    ("The pool is open to members.", "The pool is open only to members."),
    ("The album reached number one on the Billboard 200.",
     "Only a year after its release, the album reached number one on the Billboard 200."),
    # `only` in another clause of the quote's sentence
    ("Any green waste burned on a bonfire has to be completely dry.",
     "Bonfires are permitted only on the first Saturday of each month, and any green waste burned must be completely dry."),
    # "the only", "the band's only": the adjective (sole), not `only` that limits
    ("The first album reached number one on the Billboard 200.",
     "The debut album reached number one on the Billboard 200, helped by the band's only single to top the Hot 100."),
])
def test_only_that_the_other_side_allows(claim, quote):
    assert _all(claim, quote) == []


def test_what_held_until_a_time_now_gone():
    quote = "Until 2025 players could arrive up to one hour late without losing the game."
    got = parsed_check("Players can arrive up to one hour late without losing the game.", [(quote, quote, 0, len(quote))])
    assert [x.message for x in got.tenses] == [
        "claim says Players can arrive (now); quote says Until 2025 players could arrive (Until 2025)"]
    for claim in ("Players could arrive up to one hour late until 2025.", "Players arrived up to one hour late."):
        assert parsed_check(claim, [(quote, quote, 0, len(quote))]).tenses == []


def test_a_figure_without_a_phrase_given_to_the_rivals_thing():
    quote = "Neutering costs £180 for female cats and £95 for male cats, including pain relief."
    assert _relations("Neutering a male cat costs £180, including pain relief.", quote) == [
        "claim gives £180 to \u201cmale\u201d; the quote pairs it with \u201cfemale cats\u201d (and £95 with"
        " \u201cmale cats\u201d)"]
    assert _relations("Neutering a female cat costs £180.", quote) == []
    assert _relations("Neutering a cat costs £180.", quote) == []


def test_a_figure_whose_thing_the_claim_gives_in_other_words():
    # `daily` is `per day`; `a kWh` is what the other figure is for
    quote = "The electricity unit rate is 24.5p per kWh and the standing charge is 53.2p per day."
    assert _relations("Electricity costs 24.5p a kWh plus a daily standing charge of 53.2p.", quote) == []


def test_examples_the_quote_does_not_give():
    assert _all("The shop sells fruit such as apples and pears.", "The shop sells fruit and vegetables.") == [
        "claim gives \u201csuch as apples and pears\u201d as examples of \u201cfruit\u201d; the quote names none of them"]
    # the quote names them, or one of their words
    assert _all("The shop sells fruit such as apples and pears.", "The shop sells apples, pears and plums.") == []
    assert _all("Members get perks, including free parking.", "Members get perks such as parking at no charge.") == []


def test_an_exception_at_the_end_of_a_clause_takes_out_of_its_all():
    quote = "All business segments reported higher operating profit except Industrial Services, where profit was flat."
    assert _limits("All of the business segments reported higher operating profit.", quote) == [
        "claim says “All of the business segments” without restriction; the quote's sentence restricts it: "
        "“except Industrial Services, where profit was flat”"]
    assert _limits("Every segment reported higher profit.", quote) != []
    # the claim keeps the exception, or the quote has no `all`
    assert _limits("All segments except Industrial Services reported higher profit.", quote) == []
    assert _limits("All segments reported higher profit.", "Segments reported higher profit except Industrial "
                                                         "Services.") == []


@pytest.mark.parametrize("claim,quote,found", [
    ("The eruption destroyed the church.", "The eruption partly destroyed the church.",
     ["claim says “destroyed”; the quote says only “partly destroyed”"]),
    ("The building is finished.", "The building is almost finished.",
     ["claim says “finished”; the quote says only “almost finished”"]),
    ("The bridge was rebuilt in 1950.", "The bridge was largely rebuilt in 1950.",
     ["claim says “rebuilt”; the quote says only “largely rebuilt”"]),
    # the claim keeps a degree of its own, or denies it
    ("The building is not finished.", "The building is almost finished.", []),
    ("The bridge was partially rebuilt in 1950.", "The bridge was largely rebuilt in 1950.", []),
    ("The eruption destroyed the church.", "The eruption destroyed the church.", []),
])
def test_a_degree_stated_as_whole(claim, quote, found):
    assert [x.message for x in partial(read(claim), read(quote))] == found


def test_a_state_held_to_a_time_stated_as_lasting():
    quote = "After the 1964 eruption the summit area was closed to visitors until the following spring."
    assert [x.message for x in temporary(read("The summit area has been closed to visitors ever since the 1964 "
                                              "eruption."), read(quote))] == [
        "claim says “ever since”; the quote holds it to a time: “until the following spring”"]
    assert [x.kind for x in temporary(read("The summit is still closed to visitors."), read(quote))] == ["time"]
    # the quote holds it to no time: its `since` says when it began
    assert temporary(read("The bridge has been closed ever since."), read("The bridge has been closed since the "
                                                                           "flood in 2019.")) == []


@pytest.mark.parametrize("claim,found", [
    ("Rezatrelin improved disability scores compared with placebo.", True),
    ("Rezatrelin lowered disability scores.", True),
    # the claim reports the finding as the quote does, hedges it, or denies the effect
    ("The difference in disability scores was not significant.", False),
    ("Rezatrelin may improve disability scores.", False),
    ("Rezatrelin did not improve disability scores.", False),
])
def test_a_difference_that_was_not_significant_stated_as_an_effect(claim, found):
    quote = ("Disability scores favoured rezatrelin numerically, but the difference was not statistically "
             "significant (p=0.18).")
    got = insignificant(read(claim), read(quote))
    assert bool(got) is found, got
    if found:
        assert got[0].message.endswith("the quote's finding was not significant: “not statistically significant”")


@pytest.mark.parametrize("claim,quote,found", [
    ("Most of the home fans booed at half-time.", "Some of the home supporters booed at half-time.",
     ["claim says “Most of the home fans”; the quote says only “Some of the home supporters”"]),
    ("Most rooms have a balcony.", "Some rooms have a balcony.", ["claim says “Most rooms”; the quote says only "
                                                                  "“Some rooms”"]),
    ("Most rooms have a balcony.", "Most of the rooms have a balcony.", []),
    ("Some rooms have a balcony.", "Most rooms have a balcony.", []),
])
def test_most_where_the_quote_says_some(claim, quote, found):
    assert _limits(claim, quote) == found


@pytest.mark.parametrize("claim,quote,found", [
    ("The 1823 eruption, the deadliest in its history, killed 1,400 people.",
     "The 1823 eruption killed around 1,400 people, most of them in the lahars.",
     ["claim says “deadliest”; the quote's sentence ranks nothing"]),
    ("Kerry is the largest county.", "Kerry is a large county in the south-west.",
     ["claim says “largest”; the quote's sentence ranks nothing"]),
    # the quote ranks it, in the same word or another
    ("Kerry is the largest county.", "Kerry is the largest county in Ireland.", []),
    ("The 1823 eruption was the largest.", "The 1823 eruption was the biggest in its history.", []),
    ("It was the worst harvest.", "It was the poorest harvest on record.", []),
])
def test_a_superlative_the_quote_does_not_give(claim, quote, found):
    assert [x.message for x in superlative(read(claim), read(quote))] == found


def test_a_cause_where_the_quote_sets_two_things_side_by_side():
    quote = ("Ash from the 1911 eruption fell across the whole island, and that autumn's harvest was the poorest in "
             "three decades.")
    got = association(read("Ashfall from the 1911 eruption caused the island's poorest harvest."), read(quote))
    assert [x.kind for x in got] == ["cause"] and got[0].message.startswith("claim says “caused”; the quote states "
                                                                           "two things side by side and no cause")
    # the quote states a cause of its own, or the claim none
    assert association(read("The storm caused the flooding."), read("The storm hit the coast, which caused the river "
                                                                    "to burst its banks.")) == []
    assert association(read("Ash fell and the harvest was poor."), read(quote)) == []


@pytest.mark.parametrize("claim,quote,found", [
    # in a condition `or` asks less than `and`
    ("Rescue medication could be taken on days when pain was severe or lasted more than four hours.",
     "Rescue medication was permitted only on days when pain was rated severe and lasted more than four hours.",
     ["claim says “severe or lasted”; the quote says “severe and lasted”"]),
    ("Refunds are given if the item is unused and in its box.", "Refunds are given if the item is unused or in its "
                                                                "original box.", []),
    # outside a condition the rule says nothing: free choice, other names and means make the two alike
    ("Registered users can upload photos and videos.", "Registered users can upload photos or videos.", []),
    ("The hotel has a pool or a gym.", "The hotel has a pool and a gym.", []),
])
def test_and_read_as_or(claim, quote, found):
    assert _limits(claim, quote) == found


def test_an_act_given_to_another_named_person():
    quote = "Callum Reid pulled one back for Millbrook on the hour, heading in Jonas Pereira's cross at the far post."
    got = parsed_check("Jonas Pereira pulled a goal back for Millbrook on the hour.", [(quote, quote, 0, len(quote))])
    found = [x for kind, x in got.amounts if kind == "actor"]
    assert [x.message for x in found] == ["claim says “Jonas Pereira” does it; the quote says “Callum Reid” (pulled)"]
    # the same person by another part of the name is no other doer
    quote = "Liam Trent opened the scoring with a low drive after 12 minutes."
    got = parsed_check("Trent opened the scoring after 12 minutes.", [(quote, quote, 0, len(quote))])
    assert [x for kind, x in got.amounts if kind == "actor"] == []


@pytest.mark.parametrize("claim,quote,found", [
    ("The win leaves Rovers 11 points behind the leaders.", "The win leaves Rovers three points behind the leaders "
     "with 11 games remaining.",
     ["claim gives 11 to “points”; the quote gives 11 to “games” and three to “points”"]),
    ("The bakery sells 12 loaves a day.", "The bakery has 12 staff and sells 200 loaves a day.",
     ["claim gives 12 to “loaves”; the quote gives 12 to “staff” and 200 to “loaves”"]),
    # the quote gives the claim's thing the claim's number, or no number of its own
    ("The win leaves Rovers three points behind.", "The win leaves Rovers three points behind with 11 games left.", []),
    ("The bakery employs 12 people.", "The bakery has 12 staff.", []),
])
def test_a_number_the_quote_gives_to_another_thing(claim, quote, found):
    assert [x.message for x in counted_elsewhere(read(claim), read(quote))] == found
