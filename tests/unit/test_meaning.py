"""The meaning rules one by one (cairn.meaning): quantities, dates and
identifiers; polarity and direction; the sentence around a quote; and the
fast paths held to their plain versions."""

from __future__ import annotations

import unicodedata
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from dateutil import parser as dateparser
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from cairn import meaning
from cairn.meaning import backing as B
from cairn.meaning import figures as F
from cairn.meaning import frequency as FQ
from cairn.meaning import literals as L
from cairn.meaning import offered as O
from cairn.meaning import phrases as PH
from cairn.meaning import quantities as Q
from cairn.meaning import restating as RS
from cairn.meaning import scan as S
from cairn.meaning.context import check_context
from cairn.meaning.contradicting import contradictions
from cairn.meaning.sentences import sentence_around, sentence_around_slow, sentence_spans

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def kinds(text):
    return [(q.kind, q.text) for q in Q.extract(text)]


# --------------------------------------------------------------------------
# quantities


@pytest.mark.parametrize("text,value,unit", [
    ("14 days", "14", "day"), ("fourteen days", "14", "day"), ("one day", "1", "day"),
    ("-18 °C", "-18", "°C"), ("−18 ° C", "-18", "°C"), ("minus 5 degrees Celsius", "-5", "°C"),
    ("5 %", "5", "%"), ("5 percent", "5", "%"), ("5 per cent", "5", "%"),
    ("2 km", "2", "km"), ("2 kilometres", "2", "km"), ("$40", "40", "USD"), ("40 dollars", "40", "USD"),
    ("$40 million", "40000000", "USD"), ("1,000 kg", "1000", "kg"),
])
def test_quantity_value_and_unit(text, value, unit):
    (q,) = Q.extract(text)
    assert q.kind == "number" and str(q.value.normalize()) == str(Q.Decimal(value).normalize()) and q.unit == unit


def test_ranges_and_years():
    (r,) = Q.extract("kept between 0 and 4 °C")
    assert (r.kind, r.value, r.high, r.unit) == ("range", 0, 4, "°C")
    (r,) = Q.extract("10-12 weeks")
    assert (r.value, r.high, r.unit) == (10, 12, "week")
    (r,) = Q.extract("the 2018–19 season")
    assert (r.value, r.high) == (2018, 2019)


@pytest.mark.parametrize("text,name,ident", [
    ("Under Apache 2.0, each", "apache", (2,)), ("GPLv3", "gpl", (3,)), ("GNU GPL version 3", "version", (3,)),
    ("section 5.1", "section", (5, 1)), ("RFC 9110", "rfc", (9110,)), ("Python 3.11", "python", (3, 11)),
    ("release 1.2.3", "release", (1, 2, 3)), ("grep 3.8 was released", "grep", (3, 8)),
    ("sed 4.9 was released", "sed", (4, 9)),  # a three-letter name ending in -ed is not a past tense
    ("in accord with subsection 6d", "subsection", (6, 1000 + ord("d"))),  # the letter is part of the name
    ("Option 6c is allowed", "option", (6, 1000 + ord("c"))),
    ("5.1. The rights granted", "section", (5, 1)),  # a numbered clause opening a line
    ("The text\n3) Fallback", "section", (3,)),
    ("In GNU make 4.3, number signs", "make", (4, 3)),  # a decimal after a program name that is also a verb
    ("as in see 4.3 below", "see", (4, 3)),
])
def test_identifiers_are_not_quantities(text, name, ident):
    (q,) = Q.extract(text)
    assert (q.kind, q.name, q.ident) == ("identifier", name, ident)


@pytest.mark.parametrize("text", ["the early '80s", "it was 5. Then", "the total was\n15 people", "make 4 copies"])
def test_numbers_inside_a_line_stay_numbers(text):
    assert [q.kind for q in Q.extract(text)] == ["number"]


@pytest.mark.parametrize("text,low,high", [("during the 1930s", 1930, 1939), ("in the 1980's", 1980, 1989),
                                           ("the 1900s", 1900, 1999)])  # "the 1900s" may be the century
def test_a_decade_is_its_years(text, low, high):
    (q,) = Q.extract(text)
    assert (q.kind, q.unit, q.value, q.high) == ("range", "decade", low, high)


@pytest.mark.parametrize("claim,quote,ok", [
    ("built in the 1930s", "built in 1937", True),
    ("built in the 1930s", "opened on 3 May 1932", True),
    ("built in the 1930s", "built from 1931 to 1935", True),
    ("built in the 1930s", "the 1930s", True),
    ("built in the 1930s", "built in 1947", False),
    ("built in the 1990s", "built in the 1980s", False),
    ("built in 1935", "built in the 1930s", False),  # the quote's decade does not say which year
])
def test_a_decade_is_backed_by_a_year_in_it(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("text,unit", [
    ("50 km/h", "km/hour"), ("50 kilometres per hour", "km/hour"), ("60 mph", "mile/hour"),
    ("60 miles per hour", "mile/hour"), ("10 Gbit/s", "Gbit/second"), ("10 Gbps", "Gbit/second"),
    ("5 mg/kg", "mg/kg"), ("5 mg per kilogram", "mg/kg"), ("$1,200 a month", "USD/month"),
    ("40 hours each week", "hour/week"), ("5 km a piece", "km"),  # "a" makes a rate of time only
    ("5 km per apple", "km"),  # and "per" of a unit only
])
def test_a_rate_is_one_unit(text, unit):
    (q,) = Q.extract(text)
    assert q.unit == unit


@pytest.mark.parametrize("claim,quote,message", [
    ("runs at 60 mph", "runs at 60 km/h", "claim says 60 mph; quotes say 60 km/h"),
    ("a dose of 5 mg/kg", "a dose of 5 mg/day", "claim says 5 mg/kg; quotes say 5 mg/day"),
    ("costs $1,200 a month", "costs $1,200 a year", "claim says $1,200 a month; quotes say $1,200 a year"),
    ("runs at 10 km/h", "runs at 12 km", "claim says 10 km/h; quotes say 12 km"),
    ("runs at 300 km/h", "runs at 300 m/s", "claim says 300 km/h; quotes say 300 m/s"),
])
def test_rates_differ_by_either_unit(claim, quote, message):
    assert [m.message for m in B.compare(claim, [quote])] == [message]


@pytest.mark.parametrize("claim,quote", [
    ("runs at 50 km/h", "runs at 50 kilometres per hour"), ("runs at 10 Gbps", "runs at 10 Gbit/s"),
    ("runs at 50 km/h", "runs at 50 km"),  # a text often names the rate's second unit once, or not at all
    ("costs $1,200 a month", "costs 1200 dollars per month"),
])
def test_a_rate_matches_itself_however_written(claim, quote):
    assert B.compare(claim, [quote]) == []


@pytest.mark.parametrize("claim,quote,message", [
    ("in accord with subsection 6d", "in accord with subsection 6b", "claim says subsection 6d; source says subsection 6b"),
    ("Section 5.3 says your rights terminate", "5.1. The rights granted will terminate",
     "claim says section 5.3; source says section 5.1"),
])
def test_numbered_items_are_compared_as_identifiers(claim, quote, message):
    got = B.compare(claim, [quote], [quote])
    assert [g.message for g in got] == [message]


def test_a_list_after_a_reference_word_is_one_reference():
    got = Q.extract("Sections 3.1, 3.2, and 3.4 apply")
    assert [(q.kind, q.name, q.ident) for q in got] == [("identifier", "section", (3, 1)),
                                                        ("identifier", "section", (3, 2)),
                                                        ("identifier", "section", (3, 4))]


@pytest.mark.parametrize("text", ["One possibility is to wait", "one of the greatest", "no one may",
                                  "one another", "hundreds of cases", "million dollars"])
def test_one_and_bare_scale_words_are_not_counts(text):
    assert Q.extract(text) == ()


def test_sentence_opening_verb_before_a_count_is_not_a_name():
    assert kinds("Allow 30 days for delivery.") == [("number", "30 days")]
    assert kinds("In 2024 the depot opened.") == [("number", "2024")]


@pytest.mark.parametrize("claim,quote,message", [
    ("held at -18 °F", "held at -18 °C", "claim says -18 °F; quotes say -18 °C"),
    ("held at 18 °C", "held at -18 °C", "claim says 18 °C; quotes say -18 °C"),
    ("within 14 days", "within 30 days", "claim says 14 days; quotes say 30 days"),
    ("up to 8 times faster", "up to 4 times faster with a slice by 8 loop", "claim says 8 times; quotes say 4 times, 8"),
    ("opened on 12 March 2024", "opened on 12 May 2024", "claim says 12 March 2024; quotes say 12 May 2024"),
    ("between 6 and 7 pm", "between 6 and 7 am", "claim says 6 and 7 pm; quotes say 6 and 7 am"),
    # units of one dimension convert, but only to the same amount, and never across dimensions
    ("defaults to 2 minutes", "defaulting to 150 seconds", "claim says 2 minutes; quotes say 150 seconds"),
    ("a 150 km route", "a 150 minutes route", "claim says 150 km; quotes say 150 minutes"),
    # a month has no fixed number of weeks or days: only years and months convert
    ("a warranty of 3 years", "a warranty of 24 months", "claim says 3 years; quotes say 24 months"),
    ("kept for 1 month", "kept for 4 weeks", "claim says 1 month; quotes say 4 weeks"),
])
def test_mismatches_name_both_sides(claim, quote, message):
    got = B.compare(claim, [quote])
    assert got and got[0].message == message


@pytest.mark.parametrize("claim,quote", [
    ("fourteen days", "14 days"), ("1,000 items", "1000 items"), ("14 days", "14.0 days"),
    ("5%", "5 per cent"), ("opened on May 12, 2024", "opened on 2024-05-12"),
    ("opened on 12 May 2024", "the depot, opened on 12 May, in 2024"), ("in 2024", "on 12 May 2024"),
    ("30 days", "a period of 30"), ("Under Apache 2.0, you may", "you may"),
    ("the 2018–19 year", "the 2018-2019 year"), ("at least 50%", "fifty percent (50%) or more"),
    ("defaults to 2.5 minutes", "defaulting to 150 seconds"), ("a 1.5 km walk", "a 1500 metres walk"),
    ("kept for 2 weeks", "kept for 14 days"),
    # twelve months to the year, whatever the days
    ("a warranty of 2 years", "a warranty of 24 months"), ("for 18 months", "for 1.5 years"),
])
def test_same_quantities_written_differently_agree(claim, quote):
    assert B.compare(claim, [quote]) == []


@pytest.mark.parametrize("claim,quote,message", [
    ("less than one third of the aggregate", "less than one half of the aggregate",
     "claim says one third; quotes say one half"),
    ("two thirds of the votes", "one half of the votes", "claim says two thirds; quotes say one half"),
])
def test_fractions_are_a_unit_of_their_count(claim, quote, message):
    got = B.compare(claim, [quote])
    assert got and got[0].message == message
    assert B.compare("one half of the aggregate", ["two quarters of the aggregate"]) == []
    assert B.compare("one third of the aggregate", ["one third of the whole"]) == []
    # a fraction word that opens a compound is no unit, and "one" before it no count
    assert B.compare("uses one third-party library", ["uses a third-party library"]) == []
    assert B.compare("a half-open range", ["an open range"]) == []
    assert [x.message for x in B.compare("uses 3 third-party libraries", ["uses two third-party libraries"])] == [
        "claim says 3; quotes say two"]


def test_identifier_checked_against_the_source_not_the_quote():
    assert B.compare("GPL version 2 says so", ["says so"], ["gpl-3.txt\nGNU GPL\nVersion 3, 29 June 2007"])[0].message \
        == "claim says version 2; source says version 3"
    assert B.compare("GPL version 3 says so", ["says so"], ["gpl-3.txt\nVersion 3, 29 June 2007"]) == []
    assert B.compare("Apache 2.0 says so", ["says so"], []) == []  # absent: never a failure


def test_a_named_release_against_the_quotes_unnamed_release():
    quote = ["egrep has been deprecated since release 2.5.3 (2007)"]
    assert B.compare("egrep was deprecated in grep 2.5.1", quote)[0].message == "claim says 2.5.1; source says release 2.5.3"
    assert B.compare("egrep was deprecated in grep 2.5.3", quote) == []
    # only the quote's own release: the rest of the chunk may name another release
    assert B.compare("In coreutils 9.0, ls stopped issuing errors", ["ls no longer issues errors"],
                     ["ls no longer issues errors. This reverts a change made in release 8.32."]) == []
    # a claim naming two releases may speak of two things; the quote's release is one of them
    assert B.compare("Django 4.2 requires Python 3.8", ["requires version 3.10 or later"]) == []


def test_identifiers_leave_the_overlap_score_when_the_source_names_them():
    assert RS.without_identifiers("Under Apache 2.0, each Contributor grants", ["apache-2.0.txt\nApache License"]) \
        == "Under , each Contributor grants"
    # a name the source does not give stays (only its number goes)
    assert RS.without_identifiers("Under Apache 2.0, each", ["mpl.txt"]) == "Under Apache , each"


_MONTHS = "January February March April May June July August September October November December".split()


@settings(max_examples=300, deadline=None)
@given(st.dates(min_value=datetime(1900, 1, 1).date(), max_value=datetime(2099, 12, 31).date()),
       st.sampled_from(["{d} {M} {y}", "{M} {d}, {y}", "{y}-{m:02d}-{d:02d}", "{d}th of {M} {y}", "{Mab}. {d}, {y}",
                        "{M} {y}", "{d} {MUP} {y}"]))
def test_dates_read_as_dateutil_reads_them(day, form):
    assume(not (form.startswith("{Mab}.") and day.month == 5))  # "May." is no abbreviation
    text = form.format(d=day.day, M=_MONTHS[day.month - 1], y=day.year, m=day.month,
                       Mab=_MONTHS[day.month - 1][:3], MUP=_MONTHS[day.month - 1][:3].upper())
    if "th of" in text:
        ref_text = text.replace("th of", "")
    else:
        ref_text = text
    a = dateparser.parse(ref_text, default=datetime(1904, 1, 1))
    b = dateparser.parse(ref_text, default=datetime(1908, 2, 2))
    want = (a.year if a.year == b.year else None, a.month if a.month == b.month else None,
            a.day if a.day == b.day else None)
    (q,) = Q.extract(text)
    assert q.kind == "date" and q.date == want


@pytest.mark.parametrize("claim,quote,ok", [
    # a part of a month: the days of that part (early, mid, late as shares of its length, overlapping)
    ("held in early March 2022", "held on 6 March 2022", True),
    ("held in late March 2022", "held on 6 March 2022", False),
    ("held in mid-March 2022", "held on 15 March 2022", True),
    ("held in late February 2024", "held on 29 February 2024", True),
    ("held in early March 2022", "held in March 2022", True),  # the quote gives no day to hold it to
    ("held in early March 2022", "held on 6 April 2022", False),
    ("held in early March 2022", "in 2022, on 25 March", False),
])
def test_a_part_of_a_month_is_its_days(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


def test_a_part_of_a_month_is_shown_and_restated_as_written():
    q = Q.extract("The vote was held in late March 2022.")[0]
    assert (q.kind, q.text, q.date, q.value, q.high) == ("date", "late March 2022", (2022, 3, None), 19, 31)
    assert B.compare("held in late March 2022", ["held on 6 March 2022"])[0].message == \
        "claim says late March 2022; quotes say 6 March 2022"
    # for the score, "early March 2022" is the quote's day
    assert RS.restated("The vote was held in early March 2022.", ["Voters went to the polls on 6 March 2022."]) == \
        "The vote was held in 6 March 2022."


def test_impossible_dates_are_not_dates():
    assert [q.kind for q in Q.extract("31 February 2024")] != ["date"]


_TEXT = st.lists(st.sampled_from([
    "the", "within", "30", "days", "-18", "°C", "$", "40", "million", "May", "12", ",", "2024", "2024-05-12",
    "GPLv3", "version", "3.1", "Section", "and", "between", "0", "4", "-", "fourteen", "one", "of", "percent",
    "%", "RFC", "9110", "km", "1,000", ".", "minus", "twenty-four", "Sept.", "29", "x86", "--rfc-2822", "am",
    "dozen", "half", "a", "third", "two-thirds", "hours", "minutes", "in", "out", "twice", "daily", "late",
    "mid-1990s", "1990s", "30-day", "seven-month", "9:30", "pm", "doubled", "halved", "Mondays", "half an hour",
    "early", "March 2022", "hectares", "acres", "knots", "square feet", "km²", "nautical miles",
    "third century", "twenty-first", "century", "BC", "nineteenth-century", "once", "a week", "maximum",
    "limit", "is", "limited to",
]), max_size=30).map(" ".join)


_NEG = st.lists(st.sampled_from([
    "not", "no", "never", "cannot", "don't", "without", "no longer", "used to", "at least", "at most", "prior to",
    "after", "non-exclusive", "exclusive", "royalty-free", "It is false that", "was rejected", "?", ",", ";", ".",
    "the", "goods", "returned", "other than", "and it", "to", "help", "identify", "forbids", "not without",
]), max_size=30).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_the_scanner_tried_where_a_quantity_can_start_finds_what_a_full_scan_finds(text):
    text = unicodedata.normalize("NFKC", text)
    assert [m.span() for m in S._scan(text)] == [m.span() for m in S._scanner().finditer(text)]


_SPACED = st.lists(st.one_of(st.sampled_from([
    "USD", "usd", "40", "minus", "negative", "May", "Sept.", "x86", "slice-by-8", "US$5", "$", "€", "one", "1,000",
    "-", "\u2212", "5", "of", "day", "No.", "Section", "(USD4", "GPLv3", "2024-05-12", "ten-", "twenty-four",
    "12", "3.5", "2208", "2208,", "5.", "3.x", "7)", "2.0.1", "12th", "million", "k", "m", "days,", "per", "cent",
    "°C", "C", "degrees", "celsius", "and", "to", "between", "2018-19", "3,", "4;", "1.5.", "09", "0", "Jan",
    "dozen", "half", "a", "third", "hour", "minutes", "two-thirds", "twice", "weekly", "early", "mid-1990s",
    "30-day", "seven-month", "21:00", "a.m.",
]), st.text(max_size=4)), max_size=20).flatmap(
    lambda words: st.lists(st.sampled_from([" ", "  ", "\t", "\n", "\u00a0", "\u2003"]), min_size=len(words),
                           max_size=len(words)).map(lambda gaps: "".join(w + g for w, g in zip(words, gaps))))


@settings(max_examples=500, deadline=None)
@given(st.one_of(_TEXT, _SPACED))
def test_the_scanner_tried_only_in_chunks_that_can_hold_a_start_finds_the_same(text):
    """Every place _START finds lies in a chunk said to hold one, and the scan
    over those chunks alone finds what the plain scan finds."""
    text = unicodedata.normalize("NFKC", text)
    spans = S._candidates(text)
    for h in range(len(text)):
        if S._START.match(text, h):
            assert any(s <= h < e for s, e in spans)
    assert [m.span() for m in S._scan_chunks(text, spans)] == [m.span() for m in S._scan(text)]
    # and what each match gives (a plain number is read without the scanner)
    assert Q.extract.__wrapped__(text) == PH._whole(text, Q._quantities(text, S._scan(text)) if spans else ())


_BEFORE_NUMBER = st.lists(st.sampled_from([
    "Section", "sections", "and", "or", "band", "for", "Apache", "grep", "version", "v", "§", "§§", "No.", "the",
    "costs", "increased", "3.1,", "3.2", "&", "city", "Allow", ".", ",", "'s", "x\u2019y", "\u00e9t\u00e9", "ab" * 25,
    " ", "  ", "\t", "\n", "5", "RFC",
]), max_size=12).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_BEFORE_NUMBER, st.sampled_from(["Sections 3.1, 3.2, and", "Section 5 and", "RFC 9110 or",
                                                  "version 2 or", "Apache 2.0 and", "clauses 4 & 5 and"])), st.data())
def test_the_word_before_a_number_is_the_plain_paths(text, data):
    text = text + " 7"
    start = data.draw(st.sampled_from([len(text) - 1, data.draw(st.integers(0, len(text)))]))
    assert F._reference_and_start(text, start) == F._reference_and_start_plain(text, start)


@settings(max_examples=200, deadline=None)
@given(_TEXT, _TEXT, st.lists(_TEXT, min_size=1, max_size=3))
def test_what_quotes_offer_is_kept_without_changing_a_later_answer(first, claim, quotes):
    """compare() keeps what a tuple of quotes offers; an answer is the same
    whether or not another claim was compared with those quotes before."""
    O._offered.cache_clear()
    fresh = B.compare(claim, quotes)
    O._offered.cache_clear()
    B.compare(first, quotes)
    assert B.compare(claim, quotes) == fresh


# --------------------------------------------------------------------------
# polarity and direction


@pytest.mark.parametrize("claim,quote,message", [
    ("an exclusive, revocable, royalty-bearing license",
     "a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable copyright license",
     "claim says exclusive; quote says non-exclusive"),
    ("you cure the violation more than 30 days after your receipt of the notice",
     "you cure the violation prior to 30 days after your receipt of the notice",
     "claim says more than; quote says prior to"),
    ("Items can be returned", "Items cannot be returned", "claim says returned; quote says cannot be returned"),
    ("the manual allocates individual numbers", "the manual makes no attempt to allocate individual numbers",
     "claim says allocates; quote says no attempt to allocate"),
    ("held at or above 18 °C", "held at or below -18 °C", "claim says at or above; quote says at or below"),
    ("The licensee is allowed to modify the work", "You are prohibited from modifying the work",
     "claim says allowed; quote says prohibited"),
    ("prices increased", "prices fell sharply", "claim says increased; quote says fell"),
    ("tail -f overruns a stack buffer", "tail -f no longer overruns a stack buffer",
     "claim says overruns; quote says no longer overruns"),
    ("Contracts that are legal here", "Contracts that are illegal here", "claim says legal; quote says illegal"),
    ("The form is used to request a refund", "The form is no longer used to request a refund",
     "claim says used; quote says no longer used"),
    # "non transferable" written open is still the prefix
    ("The fallback license is transferable", "a royalty-free, non transferable, non exclusive license",
     "claim says transferable; quote says non transferable"),
    ("The fallback license is transferable", "a non transferable license",  # no other cue word beside it
     "claim says transferable; quote says non transferable"),
    ("The license is non transferable", "a transferable license", "claim says non transferable; quote says transferable"),
    ("cp is now more likely to chmod the file", "cp is less likely to chmod the file",
     "claim says more likely; quote says less likely"),
    ("wc got up to five times slower", "wc is up to 5 times faster", "claim says slower; quote says faster"),
    ("You must contact the authors", "It is not required that you contact the authors",
     "claim says contact; quote says not required that you contact"),
    ("gzip -l used to misreport lengths smaller than 4 GiB", "gzip -l no longer misreports lengths 4 GiB and larger",
     "claim says smaller than; quote says and larger"),
    # a negated causative reaches what it would cause: "does not cause X to apply" denies X applying
    ("Adding a module to the bundle makes the licence apply to the rest of the bundle",
     "Adding a module to the bundle does not cause the licence to apply to the rest of the bundle",
     "claim says apply; quote says not cause the licence"),
    # a clause opened by "though" or "but" goes on about its sentence's subject ("they")
    ("The legacy switches no longer work.", "The legacy switches are no longer listed in the manual, though they still work.",
     "claim says no longer work; quote says work"),
    # after "refer" (and the other words that take "to" as a preposition) what follows "to" is stated
    ("When the GPL speaks of free software, it is referring to price.", "we are referring to freedom, not price.",
     "claim says price; quote says not price"),
    # a denial that has ceased holds the other way now: "no longer prohibited" is allowed now
    ("Redistribution of the font is prohibited.", "Redistribution of the font is no longer prohibited.",
     "claim says prohibited; quote says no longer prohibited"),
    ("The tool fails to start.", "The tool no longer fails to start.",
     "claim says fails; quote says no longer fails to start"),
    # so does the denial a word makes by itself: "no longer disabled" is enabled now
    ("The extension is disabled in strict mode.", "The extension is no longer disabled in strict mode.",
     "claim says disabled; quote says no longer disabled in strict"),
    ("The licence is irrevocable.", "The licence is no longer irrevocable.",
     "claim says irrevocable; quote says no longer irrevocable"),
    ("The legacy resolver is enabled by default.", "The legacy resolver is disabled by default.",
     "claim says enabled; quote says disabled"),
    ("The council approved the plan.", "The council rejected the plan.", "claim says approved; quote says rejected"),
    # a bound after a parenthesised number bounds that number
    ("owning at most 50% of the shares", "ownership of fifty percent (50%) or more of the shares",
     "claim says at most; quote says or more"),
    # "free of X" denies X; superlatives of one adjective; a cut is a fall; a profit is not a loss
    ("The school charges tuition", "Tuition at the school is free of charge",
     "claim says charges; quote says free of charge"),
    ("The product ships free from defects", "The product ships with defects",
     "claim says free from defects; quote says defects"),
    ("Jupiter is the smallest planet", "Jupiter is the biggest planet", "claim says smallest; quote says biggest"),
    ("The bank cut its rate", "The bank raised its rate", "claim says cut; quote says raised"),
    ("The firm reported a profit", "The firm reported a loss", "claim says profit; quote says loss"),
    ("The gallery charges an admission fee", "The gallery charges no admission fee",
     "claim says charges; quote says no admission fee"),
    # "exempt from X" releases from X, as "free from X" does
    ("Inheritance tax is payable on gifts to charities.", "Gifts to charities are exempt from inheritance tax.",
     "claim says Inheritance; quote says exempt from inheritance"),
    ("The call lasts more than 30 minutes.", "The call lasts no longer than 30 minutes.",
     "claim says more than; quote says no longer than"),
])
def test_opposites_are_found_and_named(claim, quote, message):
    got = contradictions(claim, [quote])
    assert got and got[0].message == message


@pytest.mark.parametrize("claim,quote", [
    ("The program comes with no warranty", "This program is distributed WITHOUT ANY WARRANTY"),
    ("GPLv3 does not permit sublicensing", "Sublicensing is not allowed"),
    ("Refunds are not given after 30 days", "No refunds are given after 30 days"),
    ("Refunds are given within 30 days", "No refunds are given after 30 days"),
    ("A missed delivery can be rebooked once, at no charge, within 3 days.",
     "A missed delivery can be rebooked once at no charge within 3 days."),
    ("tail -f used to overrun a stack buffer", "tail -f no longer overruns a stack buffer"),
    ("MPL 2.0 forbids removing license notices", "You may not remove license notices"),
    ("Tobacco and alcohol are also not allowed.", "Tobacco and alcohol are prohibited on the premises."),
    ("The depot is open under the new rules", "The depot is open on weekdays"),
    ("The goods are kept under cover", "The goods are kept under a roof"),
    ("Petiver amassed the largest collection", "Petiver amassed the largest collection, and it never would have happened"),
    ("The police could not identify the man", "The police issued a picture in a bid to help identify a man"),
    ("Not only the climate changed", "The climate changed"),
    ("It is not without risk", "It carries risk"),
    ("Redistribution of the font is now allowed.", "Redistribution of the font is no longer prohibited."),
    ("The tool starts.", "The tool no longer fails to start."),
    ("The tool is able to start again.", "The tool is no longer unable to start."),
    ("The extension is enabled in strict mode.", "The extension is no longer disabled in strict mode."),
    ("The licence is revocable.", "The licence is no longer irrevocable."),
    ("The council approved the plan.", "The council accepted the plan."),
    # the ceasing governs only the negation right after it: "and should not" is a negation of its own
    ("Number signs inside a function invocation should not be escaped.",
     "Number signs inside a function invocation no longer introduce comments and should not be escaped"),
    # "claimed to be fixed" names the fix without stating it
    ("The bug was not fixed in 3.81", "The bug was claimed to be fixed in 3.81"),
    # the next clause has a subject of its own, not a pronoun: it may speak of another thing
    ("The legacy switches no longer work.", "The legacy switches are no longer listed, though the replacements work."),
    # the next clause starts a new sentence: it may speak of anything
    ("The legacy switches no longer work.", "The legacy switches are no longer listed. They work."),
    ("The legacy switches still work.", "The legacy switches are no longer listed, though they still work."),
    # a negation governs its verb, not another negative word of its clause
    ("diff treats a closed standard input like a file that does not exist",
     "A standard input that's closed acts like a nonexistent file"),
    # "not yet" is an adverb, not the conjunction that opens a clause
    ("There is not yet a recovery program for broken files", "There is no recovery program yet."),
    # "without A or B" denies both; a word both granted and denied in one clause is denied neither way
    ("Contributions fall under the terms with no additional conditions",
     "Contributions shall be under the terms and conditions of this License, without any additional terms or conditions"),
    ("The license is granted at no charge", "a non-exclusive, no-charge, royalty-free copyright license"),
    # a comma ends what a negation reaches through "required": "not required, that you contact"
    ("The licence asks, without requiring it, that you contact the authors",
     "It is requested, but not required, that you contact the authors"),
    # "free of X" is "without X"; the determiner "no" denies its whole noun phrase
    ("The school does not charge tuition", "Tuition at the school is free of charge"),
    ("The software is free from known vulnerabilities", "The audit found no known vulnerabilities in the software"),
    ("The largest planet is Jupiter", "Jupiter is the biggest planet"),
    ("No inheritance tax is payable on gifts to charities.", "Gifts to charities are exempt from inheritance tax."),
    # "no longer than" is a bound (at most), not a state that ended
    ("The call lasts at most 30 minutes.", "The call lasts no longer than 30 minutes."),
    # `stopped at` a place is the verb of halting, not of ceasing: "has not stopped at" denies the stop now
    ("Since 15 December 2024, route 12 has not stopped at Mill Lane.",
     "From 15 Dec 2024, route 12 no longer stops at Mill Lane."),
])
def test_agreeing_texts_are_not_contradictions(claim, quote):
    assert contradictions(claim, [quote]) == []


@pytest.mark.parametrize("claim,quote,message", [
    ("It only works at levels of 10 or lower.", "It only works with very high levels (>=10).",
     "claim says or lower; quote says >=10"),
    ("The speed is \u2265 10 km.", "The speed is at most 10 km.", "claim says \u2265 10; quote says at most"),
    ("Parcels under 20 kg are accepted.", "Parcels > 20 kg are accepted.", "claim says under; quote says > 20"),
    ("The tool is named foo.", "The tool used to be named foo.", "claim says named; quote says used to be named"),
    ("The flags are documented.", "The flags are no longer documented.",
     "claim says documented; quote says no longer documented"),
    # a past form in the reason after the verb is not the verb's tense
    ("ls issues an error on a directory merely because it was removed.",
     "ls no longer issues an error on a directory merely because it was removed.",
     "claim says issues; quote says no longer issues"),
])
def test_signs_bound_their_number_and_the_present_opposes_what_ceased(claim, quote, message):
    assert [c.message for c in contradictions(claim, [quote])] == [message]


@pytest.mark.parametrize("claim,quote", [
    ("It only works at levels of 10 or higher.", "It only works with very high levels (>=10)."),
    ("It maps a => 10 b.", "It maps a to b under 10."),  # an arrow is no sign
    ("It goes a -> 10.", "It goes a below 10."),
    ("The tool was named foo.", "The tool used to be named foo."),
    ("The flags were documented.", "The flags are no longer documented."),
    ("The tool had been named foo.", "The tool is no longer named foo."),
])
def test_signs_and_the_past_that_agree(claim, quote):
    assert contradictions(claim, [quote]) == []


@pytest.mark.parametrize("claim,quote,message", [
    ("Labels must be at least 16 characters long.",
     "Labels can be at most 16 characters long; if a label is longer than 16 characters, it is cut.",
     "claim says at least; quote says at most"),
    ("Since version 1.42 it keeps a log.", "In version 1.42 and earlier it kept a log.",
     "claim says Since version; quote says and earlier"),
    ("Starting with Linux 5.0 it works.", "Before Linux 5.0 it works.", "claim says Starting with; quote says Before Linux"),
    ("Kernels newer than 4.6 use one stream.", "Kernels older than 4.6 use one stream.",
     "claim says newer than; quote says older than"),
    ("Releases 2019 or newer are dropped.", "Releases 2019 or older are dropped.",
     "claim says or newer; quote says or older"),
    ("People aged 65 or younger pay less.", "People aged 65 or older pay less.",
     "claim says or younger; quote says or older"),
    ("People older than 65 pay less.", "People under 65 pay less.", "claim says older than; quote says under"),
])
def test_conditions_releases_and_older(claim, quote, message):
    assert [c.message for c in contradictions(claim, [quote])] == [message]


@pytest.mark.parametrize("claim,quote", [
    # a bound under a condition on both sides: the same supposition
    ("At least five authors, or all if there are fewer than five.",
     "at least five of the authors (all of them, if it has fewer than five)"),
    ("Kernels predating 4.6 use one stream.", "Kernels older than 4.6 use one stream."),
    # a whole number after a name: a release or an age, not read
    ("Use psmisc 19 or older.", "Use psmisc 19 or below."),
    ("Up to version 1.42 it kept a log.", "In version 1.42 and earlier it kept a log."),
    ("Since it is free, use it.", "It is free before 5 pm."),  # "since" of a reason bounds nothing
    ("As of this writing, it has three classes.", "It has three classes after the update."),
])
def test_conditions_releases_and_older_that_agree(claim, quote):
    assert contradictions(claim, [quote]) == []


def test_a_prefix_counts_only_before_a_word_of_the_lexicon():
    # "under" is not "der" negated, "display" is not "play" negated (dis- before a non-adjective)
    assert contradictions("The box is under the table", ["The box is der table"]) == []
    assert contradictions("The role they played", ["the display of the role"]) == []


# The polarity rule's fast path (a test on the claim before it is read, and
# what is kept per quote) held to its plain path: texts made of the words
# every part of the rule reacts to, so that each test and shortcut is tried.
_POLAR = st.lists(st.sampled_from([
    "not", "no", "never", "cannot", "don't", "isn\u2019t", "without", "no longer", "used to", "stopped", "at least",
    "at most", "more than", "less than", "prior to", "after", "before", "within", "over", "under", "above",
    "went up", "increased", "fell", "non-exclusive", "exclusive", "nonexclusive", "royalty-free", "royalty",
    "irrevocable", "revocable", "unlawful", "lawful", "lawfully", "illegal", "legal", "permitted", "prohibited",
    "allowed", "included", "excluded", "open", "closed", "true", "false", "goods", "returned", "refunds", "given",
    "license", "grants", "30", "days", "18", "-18", "°C", ",", ".", ";", "?", "and", "or", "but", "the", "it", "he",
    "to", "help", "identify", "forbids", "fails", "other", "than", "a", "attempt", "allocate", "numbers", "Items",
    "can", "be", "is", "NOT", "Refunds", "\uff4e\uff4f\uff54", "\n", "\t\t", "\u2003", "-", "(not)", "non-", "free",
    "of", "from", "Free", "charge", "largest", "smallest", "cut", "profit", "loss",
    "must", "optional", "may", "able", "declined", "accepted", "proposal", "following", "year", "minimum",
    "maximum", "stay", "are", "three", "nights", "costs", "nothing", "pays", "rose", "compared", "with",
    "lower", "than", "reopened", "reclosed", "shorter", "canal", "river", "higher", "temperature", "warmer",
    "colder", "until", "held", "steady", "unchanged", "remained", "stable", "rates", "exceed", "five",
    ">=", "<", "\u2265", "\u2264", "(>=10)", "=>", "->", "<=>", "was", "were", "had", "because", "named",
    "if", "since", "older", "newer", "beginning", "version", "1.42", "2019", "earlier", "when", "unless",
]), max_size=18).map(" ".join)


@settings(max_examples=500, deadline=None)
@given(_POLAR, st.lists(_POLAR, min_size=1, max_size=3))
def test_fast_contradictions_agree_with_the_plain_path(claim, quotes):
    from cairn.meaning import screening as P
    assert P._may_differ(claim, quotes) == P._may_differ_plain(claim, quotes)
    assert contradictions(claim, quotes) == contradictions(claim, quotes, plain=True)
    views = [P._quote_view(q) for q in quotes]
    assert P._claim_may_contradict(claim, views) == P._claim_may_contradict_plain(claim, views)


_DASHES = st.lists(st.sampled_from(["a", "-", " ", "  ", "\t", "\n", "\u2003", "5", "-5", "x-y", "\u0130", "don\u2019t",
                                    ",", ".", "\u2014", "(", "\u00e9t\u00e9", "N'T", ">", "=", "<",
                                    "\u2265"]), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_POLAR, _DASHES, st.text(max_size=80)))
def test_word_tokens_found_alone_are_the_readers_word_tokens(text):
    from cairn.meaning import cues as C
    from cairn.meaning import screening as P
    text = unicodedata.normalize("NFKC", text)  # as read() and the test on the claim both take it
    assert C._tokens(text) == C._tokens_plain(text)  # chunk by chunk, as in one pass
    assert P._WORD_TOKEN.findall(text.lower().replace("\u2019", "'")) == [t.text for t in C._tokens(text)
                                                                          if t.kind == "word"]


def test_a_claim_with_no_negative_word_is_not_read_against_quotes_denying_other_things():
    from cairn.meaning import screening as P
    views = [P._quote_view("Refunds are not given for perishable goods.")]
    assert not P._claim_may_contradict("The store opened a new warehouse.", views)
    assert P._claim_may_contradict("Refunds are given for perishable goods.", views)
    assert P._claim_may_contradict("The store never opened a warehouse.", views)


# --------------------------------------------------------------------------
# sentences and context


def test_sentences_of_the_demo_and_licence_like_text():
    text = ("Returns are accepted within 30 days, e.g. for damaged goods. See Sec. 3 and No. 5 of the U.S. "
            "rules. J. Smith signed it on 1 May. Is it free? Yes!\n- First item\n- Second item")
    got = [text[s:e] for s, e in sentence_spans(text)]
    assert got == ["Returns are accepted within 30 days, e.g. for damaged goods.",
                   "See Sec. 3 and No. 5 of the U.S. rules.", "J. Smith signed it on 1 May.", "Is it free?",
                   "Yes!", "- First item", "- Second item"]
    demo = (FIXTURES / "demo" / "sources" / "policy.md").read_text(encoding="utf-8")
    for para in demo.split("\n\n"):
        spans = sentence_spans(para)
        # every sentence ends at an end mark or the paragraph's end, and they cover the text
        assert "".join(para[s:e] for s, e in spans).replace(" ", "") == "".join(para.split()).replace(" ", "") or \
            all(para[e - 1] in ".!?:" or e == len(para.rstrip()) for s, e in spans)


def test_sentence_around_a_quote():
    text = "First one. The quote sits here. Last one."
    s, e = sentence_around(text, text.index("quote"), text.index("quote") + 5)
    assert text[s:e] == "The quote sits here."


_SENTENCE_ALPHABET = st.sampled_from(list("ab AZ19.!?:;,()'\"\n\t-*") + ["e.g.", "Mr.", "No. 5", "\n- ", "\n\n",
                                                                          "\n1. ", "\f", "U.S.", "...", "\u201d"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_SENTENCE_ALPHABET, min_size=1, max_size=60).map("".join), st.data())
def test_sentence_around_reads_locally_what_every_sentence_gives(text, data):
    """The fast sentence_around (reads only near the quote) agrees with the
    span taken from sentence_spans over the whole text, for any quote that
    starts and ends on a character that is not white space."""
    marks = [i for i, ch in enumerate(text) if not ch.isspace()]
    assume(marks)
    start = data.draw(st.sampled_from(marks))
    end = data.draw(st.sampled_from([i + 1 for i in marks if i >= start]))
    assert sentence_around(text, start, end) == sentence_around_slow(text, start, end)


_CUE_TEXT = st.lists(st.sampled_from(
    "it is was not true the case that no longer false contrary to claim despite reports does mean say nor "
    "neither has been rejected withdrawn proven myth applies don't cannot used stopped failed without "
    "goods are returned within days , . ; \u201c \u201d \" ( ) - It IS NOT DON'T Contrary \u00e9t\u00e9".split()
    + [" ", "\n", "n't", "-"]), max_size=25).map(" ".join)


@settings(max_examples=500, deadline=None)
@given(_CUE_TEXT)
def test_context_cue_prefilter_never_hides_a_pattern_match(text):
    """The word test in front of the context rule says "no cue" only when no
    negation or frame pattern can match the text."""
    from cairn.meaning import context as C
    if C._NEGATION_WORD.search(text) or C._FRAME_BEFORE_CUE.search(text):
        assert C._may_hold(text, C._BEFORE_CUES, C._NEGATION_WORD, C._FRAME_BEFORE_CUE)
    if C._FRAME_AFTER_CUE.search(text):
        assert C._may_hold(text, C._AFTER_CUES, C._FRAME_AFTER_CUE)


def test_sentence_around_on_licence_text_agrees_with_the_full_reading():
    import random
    texts = [Path(p).read_text(encoding="utf-8", errors="replace")
             for p in sorted(Path("/usr/share/common-licenses").glob("*"))[:6] if Path(p).is_file()]
    texts.append((FIXTURES / "demo" / "sources" / "policy.md").read_text(encoding="utf-8"))
    rng = random.Random(0)
    for text in texts:
        for _ in range(200):
            a = rng.randrange(len(text))
            b = rng.randrange(a, min(len(text), a + 300)) + 1
            if text[a].isspace() or text[b - 1].isspace():
                continue
            assert sentence_around(text, a, b) == sentence_around_slow(text, a, b)


@pytest.mark.parametrize("sentence,quote,claim,negates", [
    ("It is false that the warranty covers accidental damage.", "the warranty covers accidental damage",
     "The warranty covers accidental damage.", True),
    ("It is no longer the case that goods are accepted back.", "goods are accepted back",
     "Goods are accepted back.", True),
    ("The claim that returns are free was rejected by the board.", "returns are free", "Returns are free.", True),
    ("This License does not grant permission to use the trade names.", "permission to use the trade names",
     "Permission to use the trade names is granted.", True),
    ("It is false that the warranty covers accidental damage.", "the warranty covers accidental damage",
     "It is false that the warranty covers accidental damage.", False),
    ("For example, dd now copies 100 KiB of data, not 102,400 blocks.", "copies 100 KiB of data",
     "dd copies 100 KiB of data.", False),
    ("The warranty covers accidental damage.", "The warranty covers accidental damage",
     "The warranty covers accidental damage.", False),
    # a relative clause after the quote retracts it
    ("Some scripts assumed that the tool was installed everywhere, which is not the case.",
     "the tool was installed everywhere", "The tool is installed everywhere.", True),
    ("The tool was installed everywhere, which is why the scripts worked.",
     "The tool was installed everywhere", "The tool was installed everywhere.", False),
    # "neither ... may be used": "be used to" is the passive of "use", not "no longer"
    ("Neither the name of the University nor the names of its contributors may be used to endorse products.",
     "may be used to endorse products", "The names of the University may be used to endorse products.", True),
    # the negation reaches its verb past a phrase between them
    ("The authors do not by this License give permission to use their names for publicity.",
     "give permission to use their names for publicity",
     "The authors give permission to use their names for publicity.", True),
    # "X doesn't mean that Q" denies Q whatever X is
    ("Note that \"Unused\" in the table above doesn't mean that these ranges are really unused.",
     "these ranges are really unused", "The ranges marked Unused are really unused.", True),
    # an adverb inside the retracting relative clause
    ("It may work if the file has several blocks, which typically is not the case for small files.",
     "the file has several blocks", "Small files typically have several blocks.", True),
    # ", but wasn't": an elliptical denial of what the quote states; a claim that says so is not negated
    ("This was claimed to be fixed in 3.81, but wasn't, for some reason.", "to be fixed in 3.81",
     "The bug was fixed in 3.81.", True),
    ("This was claimed to be fixed in 3.81, but wasn't, for some reason.", "to be fixed in 3.81",
     "The bug was not fixed in 3.81.", False),
    ("It was claimed to be fixed in 3.81, but it never was.", "to be fixed in 3.81",
     "The bug was fixed in 3.81.", True),
    # "but" with a new predicate after the auxiliary is not an ellipsis
    ("The fix was released in 3.81, but was not announced.", "The fix was released in 3.81",
     "The fix was released in 3.81.", False),
])
def test_context_negates(sentence, quote, claim, negates):
    start = sentence.index(quote)
    got = check_context(claim, sentence, start, start + len(quote))
    assert (got is not None) is negates
    if got:
        assert sentence in got.message


def test_check_runs_every_rule_over_the_evidence():
    text = "It is false that the warranty covers accidental damage. Frozen goods are held at -18 °C."
    q = "the warranty covers accidental damage"
    ev = [meaning.Evidence(q, text, text.index(q), text.index(q) + len(q), "handbook.md")]
    found = meaning.check("The warranty covers accidental damage for 2 years.", ev)
    assert [n.message for n in found.numbers] == ["claim says 2 years; quotes say no number"]
    assert len(found.context) == 1 and found.context[0][0] == 0


def _evidence(text: str, quote: str) -> list[meaning.Evidence]:
    return [meaning.Evidence(quote, text, text.index(quote), text.index(quote) + len(quote), "licence.txt")]


def test_a_quote_cut_from_a_negated_sentence_reads_as_its_sentence():
    text = ("Neither the name of the project nor the names of its authors may be used to endorse "
            "products made from this software without written permission.")
    quote = "may be used to endorse products made from this software"
    assert contradictions("The project's name may not be used to endorse products.", [quote])  # alone: opposite
    ev = _evidence(text, quote)
    assert meaning.check("The project's name may not be used to endorse products.", ev).contradictions == []
    # the claim that states what the fragment says alone is taken back by the sentence
    found = meaning.check("The project's name may be used to endorse products.", ev)
    assert found.contradictions == [] and len(found.context) == 1
    # a sentence without a negation before the quote changes nothing
    plain = "The name of the project may be used to endorse products made from this software."
    assert meaning.check("The project's name may not be used to endorse products.",
                         _evidence(plain, quote)).contradictions


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), _TEXT, _NEG), st.one_of(st.text(max_size=200), _TEXT, _NEG), st.data())
def test_any_text_is_read_without_error(claim, text, data):
    """Whatever a draft or a source holds, the rules answer (no exception)."""
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    quote = text[start:end]
    found = meaning.check(claim, [meaning.Evidence(quote, text, start, end, text[:50])])
    for x in found.numbers + found.contradictions:
        assert isinstance(x.message, str)
    for _, neg in found.context:
        assert isinstance(neg.message, str)
    RS.without_identifiers(claim, [text])


def test_a_claim_that_is_its_quote_word_for_word_is_checked_only_for_its_context():
    text = "It is false that frozen goods are held at -18 °C. Other text."
    q = "frozen goods are held at -18 °C"
    ev = [meaning.Evidence(q, text, text.index(q), text.index(q) + len(q))]
    found = meaning.check("Frozen goods are held at -18 °C.".replace("F", "f", 1), ev)
    assert found.numbers == [] and found.contradictions == [] and len(found.context) == 1
    # one word more and the rules run again
    assert meaning.check("frozen goods are held at -18 °F", ev).numbers


@pytest.mark.parametrize("claim,quote,pair", [
    ("Children over 12 travel free.", "Children younger than 12 travel free of charge.", ("over", "younger than")),
    ("The building is older than the church.", "The building is younger than the church.",
     ("older than", "younger than")),
    ("Children under 12 travel free.", "Children younger than 12 travel free of charge.", None),
    ("Applicants must be older than 18.", "Applicants must be over 18.", None),
])
def test_older_and_younger_bound_as_over_and_under(claim, quote, pair):
    from cairn.meaning.contradicting import contradictions

    got = contradictions(claim, [quote])
    assert ([(c.claim, c.quote) for c in got if c.kind == "direction"] or [None])[0] == pair


@pytest.mark.parametrize("claim,quote,ok", [
    ("The festival runs from 5 to 9 June.", "The festival runs from June 5 to June 9.", True),
    ("The festival runs between 5 and 9 June.", "The festival runs from 5 June to 9 June.", True),
    ("The festival runs June 5-9.", "The festival runs from 5 June to 9 June.", True),
    ("The festival runs from 5 to 9 June.", "The festival runs from June 6 to June 9.", False),
    ("The festival runs from 3 to 12 May 2020.", "The festival runs from 3 May 2020 to 12 May 2020.", True),
])
def test_a_span_of_days_shares_its_month(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("text", ["May 12, 2013 - 6:00pm He filed", "from June 9 to 5", "from 9 to 5 June"])
def test_a_year_a_time_or_a_backward_span_is_no_span_of_days(text):
    assert [q.date for q in Q.extract(text) if q.kind == "date"] in ([(2013, 5, 12)], [(None, 6, 9)], [(None, 6, 5)])


@pytest.mark.parametrize("claim,quote,negated", [
    ("The board did not approve the budget.", "The board declined to approve the budget.", False),
    ("The board approved the budget.", "The board declined to approve the budget.", True),
    ("The clerk filed the report.", "The clerk neglected to file the report.", True),
    ("Sales declined in March.", "Sales fell in March.", False),  # "declined" alone is a direction
])
def test_declined_to_denies_its_verb(claim, quote, negated):
    from cairn.meaning.contradicting import contradictions

    assert bool([c for c in contradictions(claim, [quote]) if c.kind != "direction"]) is negated


def _context_of(claim: str, quote: str) -> list:
    """What the context rule finds when the claim cites a quote that is its own chunk."""
    return [c for _, c in meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))]).context]


@pytest.mark.parametrize("claim,quote,why", [
    ("The vaccine causes autism.", "The claim that the vaccine causes autism has been debunked.", "debunked"),
    ("The vaccine causes autism.", "Researchers found no evidence that the vaccine causes autism.", "autism"),
    ("The bridge will reopen in May.", "Officials said the bridge will reopen in May.", None),
])
def test_a_claim_that_is_part_of_its_quote_is_read_in_it(claim, quote, why):
    got = _context_of(claim, quote)
    if why is None:
        assert got == []
    else:
        assert len(got) == 1 and why in got[0].why and got[0].sentence == quote



@pytest.mark.parametrize("claim,quote,ok", [
    ("founded in the late 19th century", "founded in 1889", True),
    ("founded in the 19th century", "founded on 3 May 1850", True),
    ("founded in the 19th century", "founded in 1920", False),
    ("in the 20th century", "in the 19th century", False),
])
def test_a_century_is_its_years(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,ok", [
    ("The mountain is over 8,000 m high.", "The mountain is 8,848 m high.", True),
    ("The mountain is under 8,000 m high.", "The mountain is 8,848 m high.", False),
    ("The team has fewer than 10 members.", "The team has 8 members.", True),
    ("The team has fewer than 10 members.", "The team has 12 members.", False),
    ("The team has fewer than 10 members.", "The team has 8 offices and 12 members.", False),  # 8 of another thing
    ("The store opens before 9 am.", "The store opens at 8 am.", True),
    ("The store opens before 9 am.", "The store opens at 10 am.", False),
    ("The firm was founded after 1990.", "The firm was founded in 1995.", True),
    ("The firm was founded after 1990.", "The firm was founded in 1985.", False),
    ("50 or more people came.", "120 people came.", True),
    # a quote's own bound is where a range ends, not an amount: it backs no other bound
    ("owning 25% or more of the shares counts as control", "ownership of fifty percent (50%) or more of the shares",
     False),
    ("cure the violation within 60 days", "cure the violation prior to 30 days after", False),
    ("up to 8 times faster", "up to 4 times faster", False),
    ("ownership of more than 40 percent of the shares", "ownership of more than\n    fifty percent (50%) of the shares",
     False),  # the quote's bound across a line break, and its figure in parentheses
])
def test_a_bound_is_backed_by_an_amount_within_it(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote", [
    ("Smoking is banned in all public buildings.", "Smoking is prohibited in every public building."),
])
def test_banned_is_prohibited(claim, quote):
    from cairn.meaning.contradicting import contradictions

    assert contradictions(claim, [quote]) == []
    assert [c.kind for c in contradictions("Smoking is allowed in public buildings.", [quote])]


def test_the_points_of_the_compass_are_opposites():
    from cairn.meaning.contradicting import contradictions

    got = contradictions("The river flows north.", ["The river flows south."])
    assert [(c.claim, c.quote) for c in got] == [("north", "south")]
    assert contradictions("The river flows north.", ["The river flows northward."]) == []


@pytest.mark.parametrize("claim,quote,ok", [
    ("One in five adults smokes.", "20% of adults smoke.", True),
    ("One in three adults smokes.", "33% of adults smoke.", True),  # to the nearest whole percent
    ("3 out of 10 people agreed.", "3 of the 10 people agreed.", True),  # both of its numbers
    ("20% of adults smoke.", "One in five adults smoke.", True),
    ("One in five adults smokes.", "One in four adults smokes.", False),
    ("One in five adults smokes.", "25% of adults smoke.", False),
])
def test_a_ratio_is_a_share(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("text,kinds", [("scored 3 in 20 minutes", ["number", "number"]),  # a unit follows
                                        ("won 5 in 2010", ["number", "number"]),  # a year is no denominator
                                        ("one in five", ["ratio"])])
def test_what_is_no_ratio(text, kinds):
    assert [q.kind for q in Q.extract(text)] == kinds


def test_a_bound_on_a_number_word_past_twenty():
    from cairn.meaning.contradicting import contradictions

    got = contradictions("The tenant must give at most 30 days' notice.",
                         ["The tenant must give at least thirty days' notice."])
    assert [(c.claim, c.quote) for c in got] == [("at most", "at least")]
    assert contradictions("at least forty-five minutes", ["at least 45 minutes"]) == []


@pytest.mark.parametrize("claim,quote,why", [
    ("The earth is flat.", "It was once thought that the earth is flat, but this was disproven.", "disproven"),
    ("The merger was completed.", "It was rumoured that the merger was completed, but the company denied it.",
     "denied"),
    ("The policy failed.", "Critics claim that the policy failed, but the data show otherwise.", "otherwise"),
    ("The company denied that the merger was completed.",
     "It was rumoured that the merger was completed, but the company denied it.", None),  # it says the denial
    ("The merger was completed.", "The merger was completed, but the paperwork took a year.", None),
])
def test_a_but_that_refutes_takes_back(claim, quote, why):
    got = _context_of(claim, quote)
    if why is None:
        assert got == []
    else:
        assert len(got) == 1 and why in got[0].why


@pytest.mark.parametrize("claim,quote,conflict", [
    ("Visitors may feed the animals.", "Feeding the animals is prohibited.", True),
    ("Smoking is allowed in public buildings.", "Smoking is prohibited in every public building.", True),
    # the passive denies its subject, not the place after it
    ("Public buildings are open to visitors.", "Smoking is prohibited in every public building.", False),
    ("Visitors may feed the animals.", "Visitors are prohibited from feeding the animals.", True),
])
def test_the_passive_of_a_negating_verb_denies_its_subject(claim, quote, conflict):
    from cairn.meaning.contradicting import contradictions

    assert bool(contradictions(claim, [quote])) is conflict


def test_the_probe_pairs_hold_their_figures():
    """The invented probe pairs (tests/data/meaning/probes.jsonl): the default's wrong verdicts stay at
    most where the rules of 4 December left them (125 false alarms, 160 misses in 1543 pairs;
    rounds 28 on give each quote in its paragraph; rounds 32 and 33, paraphrased claims, hold 35 of those
    false alarms)."""
    import json
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import meaning_eval

    rows = [json.loads(line) for line in (Path(__file__).resolve().parents[1] / "data" / "meaning" / "probes.jsonl")
            .read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) == 1543 and {r["label"] for r in rows} == {"supported", "unsupported"}
    config = meaning_eval.CONFIGS["calibrated + all meaning rules"]
    wrong = [(r["id"], r["label"]) for r in rows
             if meaning_eval.verdict(r["claim"], meaning_eval.probe_evidence(r), config) != (r["label"] == "supported")]
    false_alarms = [w for w in wrong if w[1] == "supported"]
    misses = [w for w in wrong if w[1] == "unsupported"]
    assert len(false_alarms) <= 125 and len(misses) <= 160, wrong


@pytest.mark.parametrize("claim,quote,ok", [
    ("signed on 9 November 1989.", "signed on 09/11/1989.", True),  # a full stop after the date ends the sentence
    ("signed on 10 November 1989.", "signed on 09/11/1989.", False),
    ("fell to minus 5 degrees", "fell to -5 °C", True),  # degrees without a scale: either one's
    ("fell to 5 degrees", "fell to -5 °C", False),
    ("fell to -5 °F", "fell to -5 °C", False),
])
def test_a_slash_date_before_a_full_stop_and_degrees_without_a_scale(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,ok", [
    ("It is kept for 0.2 seconds.", "It is kept for 200 ms.", True),
    ("It is kept for 0.2 seconds.", "there is a 200 millisecond ceiling on it", True),
    ("It waits 5 \u00b5s.", "It waits 5000 nanoseconds.", True),
    ("It waits 5 ms.", "It waits 5 \u00b5s.", False),
    # a bound under a negation: which way it turns is not read, so only the same amount backs it
    ("It cannot be kept for longer than 200 microseconds.", "there is a 200 millisecond ceiling on it", False),
    ("It cannot be kept for longer than 0.2 seconds.", "there is a 200 millisecond ceiling on it", True),
    ("It is kept for longer than 200 microseconds.", "It is kept for 200 milliseconds.", True),
    # a bare release number and the release a quote names
    ("Kernels older than 3.19 did not.", "Before Linux 3.19, it did not.", True),
    ("Kernels older than 3.1 did not.", "Before Linux 3.10, it did not.", False),
    ("It weighs 3.19 kg.", "Before Linux 3.19, it did not.", False),
    # a year by its last two digits
    ("It was moved in November 2006.", "It was moved (November'06).", True),
    ("It was moved in November 1906.", "It was moved (November'06).", False),
    ("It was moved in May 1999.", "It was moved in May \u201999.", True),
])
def test_fractions_of_a_second_negated_bounds_bare_releases_and_short_years(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,ok", [
    ("a jiffy of 4 milliseconds", "a jiffy of, respectively, 0.01, 0.004, or 0.001 seconds", True),
    ("a jiffy of 5 milliseconds", "a jiffy of, respectively, 0.01, 0.004, or 0.001 seconds", False),
    ("it takes 3 days", "it takes 3 or 4 days", True),
    ("it takes 3 hours", "it takes 3 or 4 days", False),
    ("5 days later", "in 2019 and 5 days later", True),
    ("2019 days later", "in 2019 and 5 days later", False),  # a year is no member of the list
    ("defaults to 8 KiB", "The default value is 8192 bytes.", True),
    ("defaults to 8 KB", "The default value is 8000 bytes.", True),  # decimal multiples: a rounding
    ("defaults to 9 KiB", "The default value is 8192 bytes.", False),
    ("defaults to 8192 kilobytes", "The default value is 8192 bytes.", False),
    ("It takes 2 GB", "It takes 2048 MB", True),
    ("names begin with a 2-digit number", "prefix all filenames with a two-digit number", True),
    ("names begin with a 3-digit number", "prefix all filenames with a two-digit number", False),
    ("It is two virtual devices.", "It is a pair of virtual devices.", True),
    ("It is three virtual devices.", "It is a pair of virtual devices.", False),
    ("The probe flew for seven years.", "After a seven-month journey, the probe arrived.", False),
])
def test_listed_units_data_sizes_and_counts_in_compounds(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,ok", [
    ("Trimming every seven days is enough.", "A sufficient trimming frequency is once a week.", True),
    ("Trimming each week is enough.", "A sufficient trimming frequency is once a week.", True),
    ("Trimming every six days is enough.", "A sufficient trimming frequency is once a week.", False),
    ("Trimming every 12 hours is enough.", "Trim twice a day.", True),
    ("Trimming seven days after is enough.", "A sufficient trimming frequency is once a week.", False),
    ("It matters on systems with two or more RTCs.", "It is only relevant if your system has more than one RTC.", True),
    ("It matters on systems with three or more RTCs.", "It is only relevant if your system has more than one RTC.",
     False),
    ("It holds two files.", "It is one of the files.", False),  # "one of" counts nothing
])
def test_every_span_and_more_than_one(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,ok", [
    ("a trail 8 km long", "a trail 5 miles long", True),  # 8.05 km, written to the kilometre
    ("a trail 8.1 km long", "a trail 5 miles long", False),  # 8.05 is not 8.1 to the tenth
    ("a trail 5 km long", "a trail 5 miles long", False),
    ("a route of 320 km", "a route of 200 miles", True),  # 321.9 km, to the nearest ten
    ("a route of 100 km", "a route of 70 miles", False),  # 112.7 km: "100" is to the ten at the coarsest
    ("a marathon of about 42 km", "a marathon of 26.2 miles", True),
    ("bake at 180 °C", "bake at 350 °F", True),  # 176.7 °C, to the nearest ten
    ("bake at 220 °C", "bake at 350 °F", False),
    ("a parcel of 2 kg", "a parcel of 4.4 lb", True),
    ("a parcel of 3 kg", "a parcel of 4.4 lb", False),
    ("a bridge 1.2 km long", "a bridge 1,200 metres long", True),
    ("a bridge 1 km long", "a bridge 1,200 metres long", False),  # within one system the figures are exact
    ("a bridge 12 km long", "a bridge 1,200 metres long", False),
    ("water boils at 100 °C", "water boils at 212 °F", True),
    ("a body at 37 °C", "a body at 98.6 °F", True),
    ("a body at 38 °C", "a body at 98.6 °F", False),
    ("a freezer at -18 °C", "a freezer at 0 °F", True),  # -17.8 °C, to the degree
    ("notice of 2 weeks", "notice of 15 days", False),  # 2 weeks is 14 days
    ("notice of 2 weeks", "notice of 14 days", True),
    ("a bag of 16 oz", "a bag of 1 lb", True),
    ("raised by 25 basis points", "raised by 0.25 percentage points", True),
    ("raised by 50 basis points", "raised by 0.25 percentage points", False),
    # areas, and speeds in knots (a nautical mile an hour)
    ("a farm of 40 hectares", "a farm of about 99 acres", True),  # 98.8 acres
    ("a farm of 400 hectares", "a farm of about 99 acres", False),
    ("a park of 2 km²", "a park of 200 hectares", True),
    ("a park of 2 square kilometres", "a park of 20 hectares", False),
    ("a flat of 1,000 square feet", "a flat of 93 m²", True),
    ("cruising at 20 knots", "cruising at 20 knots", True),
    ("cruising at 20 mph", "cruising at 20 knots", False),
    ("cruising at 23 mph", "cruising at 20 knots", True),  # 23.0 mph
    ("cruising at 37 km/h", "cruising at 20 knots", True),  # 37.04 km/h
])
def test_a_converted_figure_is_read_to_the_precision_written(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,ok", [
    ("a runway of about 3 km", "a runway of 3,200 metres", True),  # a hedge: 3.2 km rounds to 3
    ("a runway of 3 km", "a runway of 3,200 metres", False),  # no hedge: within one system, exact
    ("a runway of about 3 km", "a runway of 3,600 metres", False),
    ("around 1,000 staff", "1,040 staff", True),  # to the hundred
    ("some 1,200 staff", "1,040 staff", False),
    ("nearly 2,000 people", "1,950 people", True),
    ("about 30 days", "45 days", False),
    ("about 50%", "47%", True),  # within a tenth of 50
    ("about 50%", "44%", False),
    ("about 4.5 kg", "4.4 kg", True),
    ("roughly 500 workers", "512 workers", True),
    ("roughly 800 workers", "512 workers", False),
    ("about 1,000 staff", "1,400 staff", False),
    ("roughly 20 miles", "a route of 32 km", True),  # 19.9 miles
])
def test_a_hedged_figure_is_a_rounding_of_the_quotes(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


def test_a_quote_first_met_is_read_by_every_rule_whatever_the_claim_needs():
    """A claim with no number, no negation and no quantifier stops every rule
    early; its quote is still read for all of them, so the next claim typed
    against it reads only itself. The answers are those of a fresh read."""
    from cairn.meaning import quantifiers, quantities, screening

    quote = "Refunds are not issued after 30 days for all orders placed in May 2021 (prepare test)."
    meaning.check("Cats sleep.", [meaning.Evidence(quote, quote, 0, len(quote))])
    assert quote in meaning._MET
    hits = (screening._quote_view.cache_info().hits, quantities.extract.cache_info().hits,
            quantifiers._quantifiers.cache_info().hits)
    screening._quote_view(quote), quantities.extract(quote), quantifiers._quantifiers(quote)
    after = (screening._quote_view.cache_info().hits, quantities.extract.cache_info().hits,
             quantifiers._quantifiers.cache_info().hits)
    assert all(b == a + 1 for a, b in zip(hits, after))  # each was kept when the quote was first met
    claim = "Refunds are issued after 30 days for all orders placed in May 2021."
    found = meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))])
    assert [c.kind for c in found.contradictions] == ["negation"]


# --------------------------------------------------------------------------
# amounts written in words, times of day, parts of a year, changes by an amount


@pytest.mark.parametrize("text,value,unit", [
    ("a dozen eggs", "12", None), ("two dozen eggs", "24", None), ("half a dozen eggs", "6", None),
    ("one and a half hours", "1.5", "hour"), ("an hour and a half", "1.5", "hour"),
    ("two and a half million people", "2500000", None), ("5 and a half percent", "5.5", "%"),
    ("2 hours 5 minutes", "125", "minute"), ("1 year and 6 months", "18", "month"), ("3 lb 4 oz", "52", "oz"),
    ("half of the patients", "50", "%"), ("a quarter of the votes", "25", "%"), ("a two-thirds majority", None, "%"),
    ("1,200 megawatts", "1200", "MW"), ("a 60W bulb", "60", "W"),
])
def test_amounts_in_words_and_in_two_units(text, value, unit):
    (q,) = Q.extract(text)
    assert q.kind == "number" and q.unit == unit
    if value is not None:
        assert q.value.normalize() == Q.Decimal(value).normalize()


@pytest.mark.parametrize("text", [
    "dozens of eggs", "the first half of the season", "the other half of the town", "a half-open range",
    "one third-party library",
])
def test_no_amount_where_the_words_name_none(text):
    assert [q for q in Q.extract(text) if q.kind == "number"] == []


def test_two_amounts_stay_two_across_a_comma_or_a_range():
    assert [q.text for q in Q.extract("2 weeks, 3 days")] == ["2 weeks", "3 days"]
    assert [q.text for q in Q.extract("between 2 hours and 30 minutes")] == ["2 hours", "30 minutes"]


@pytest.mark.parametrize("text,minutes", [
    ("opens at 9 pm", {1260}), ("at 9.30am", {570}), ("at 10:30 p.m.", {1350}), ("at 21:00", {1260}),
    ("at 9:00", {540, 1260}), ("at 9:00 in the morning", {540}), ("at 8:30 in the evening", {1230}),
    ("at 12:30 am", {30}),
    # in words: half past, a quarter to, o'clock, 12 noon
    ("from half past midnight", {30}), ("at half past six in the evening", {1110}), ("at quarter to nine", {525, 1245}),
    ("at seven o'clock", {420, 1140}), ("at 12 noon", {720}), ("at a quarter past 10 pm", {1335}),
])
def test_a_time_of_day_is_one_quantity(text, minutes):
    (q,) = Q.extract(text)
    assert q.kind == "time" and {v for v in (q.value, q.high) if v is not None} == minutes


def test_a_score_with_a_colon_is_no_time():
    assert all(q.kind != "time" for q in Q.extract("they won 3:1"))


def test_times_of_a_range_and_midnight_alone():
    # a range misread up to the hour of "07:30" gives way to the two times
    assert [(q.kind, q.text) for q in Q.extract("from 00:30 to 07:30")] == [("time", "00:30"), ("time", "07:30")]
    assert [(q.kind, q.text) for q in Q.extract("between 6 and 7 pm")] == [("range", "6 and 7 pm")]
    # "before midnight" names no figure: midnight alone is left to the words
    assert Q.extract("few meteors are seen before midnight") == ()
    assert [(q.text, q.value) for q in Q.extract("a week of thirty-seven and a half hours")] == [
        ("thirty-seven and a half hours", 37.5)]


@pytest.mark.parametrize("text,name,ident", [
    ("In Q2 2023", "quarter", (2,)), ("in the second quarter", "quarter", (2,)), ("the 3rd quarter", "quarter", (3,)),
    ("the first half of the season", "half", (1,)), ("Back to Earth - Part Two", "part", (2,)),
    ("in phase one", "phase", (1,)),
])
def test_which_part_is_an_identifier(text, name, ident):
    got = [q for q in Q.extract(text) if q.kind == "identifier"]
    assert [(q.name, q.ident) for q in got] == [(name, ident)]
    assert Q.extract("no one came") == ()


@pytest.mark.parametrize("claim,quote,conflict", [
    ("No one approves refunds without a receipt.", "Nobody approves refunds without a receipt.", False),
    ("Nobody approves refunds without a receipt.", "No one approves refunds without a receipt.", False),
    ("No-one approves refunds without a receipt.", "Nobody approves refunds without a receipt.", False),
    ("Someone approves refunds without a receipt.", "No one approves refunds without a receipt.", True),
    ("No-one approves refunds.", "Managers approve refunds.", True),
])
def test_no_one_is_nobody(claim, quote, conflict):
    from cairn.meaning.contradicting import contradictions

    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,message", [
    ("The team has one manager.", "The team has two managers.", "claim says one manager; quotes say two"),
    ("The team has one manager.", "The team has 2 managers.", "claim says one manager; quotes say 2"),
    ("One manager leads the team.", "Two managers lead the team.", "claim says One manager; quotes say Two"),
    # no count of that thing in the quotes, a bound, or "one" that is no count: nothing to hold it to
    ("The team has one manager.", "The team has a manager.", None),
    ("The team has at least one manager.", "The team has two managers.", None),
    ("One possibility is a refund.", "Two refunds are possible.", None),
    ("No one manages the team.", "The team has two managers.", None),
    ("The team has one manager.", "The team has one manager and two assistants.", None),
])
def test_one_before_a_noun_the_quotes_count_is_a_count(claim, quote, message):
    from cairn.meaning.backing import compare

    assert [m.message for m in compare(claim, [quote])] == ([message] if message else [])


@pytest.mark.parametrize("claim,quote,message", [
    ("It froze at -40 °C.", "It froze at -40 °F.", "claim says -40 °C; quotes say -40 °F"),
    ("It froze at -40 °F.", "It froze at -40 °C.", "claim says -40 °F; quotes say -40 °C"),
    ("Water boils at 100 °C.", "Water boils at 212 °F.", None),  # another figure in another unit: converted
    ("The trail is 2 km long.", "The trail is 2,000 metres long.", None),
])
def test_the_same_figure_in_another_unit_is_another_quantity(claim, quote, message):
    from cairn.meaning.backing import compare

    assert [m.message for m in compare(claim, [quote])] == ([message] if message else [])


@pytest.mark.parametrize("text,kinds", [
    ("you will need flex and bison (3.0 or newer)", [("identifier", "version", (3,))]),
    ("it needs GCC 4.9 or newer", [("identifier", "gcc", (4, 9))]),
    ("it works with 2.6 and newer", [("identifier", "version", (2, 6))]),
    # newer is said of releases only: an amount or a time bounded otherwise stays what it was
    ("a score of 2.5 or more", [("number", None, None)]),
    ("trains leave at 8.30 or later", [("number", None, None)]),
    ("3 or newer", [("number", None, None)]),  # no decimal part: a count ("3 or newer models")
])
def test_a_decimal_number_bounded_by_or_newer_is_a_release(text, kinds):
    assert [(q.kind, q.name, q.ident) for q in Q.extract(text)] == kinds


@pytest.mark.parametrize("claim,quote,ok", [
    ("About half of the patients had headaches.", "Headaches were reported by 51% of patients.", True),
    ("About half of the patients had headaches.", "Headaches were reported by 15% of patients.", False),
    ("Half of the members voted.", "Most members voted.", True),  # the quote gives no share to hold it to
    ("33% of voters", "a third of voters", True), ("30% of voters", "a third of voters", False),
    ("more than half of voters", "56% of voters", True),
    ("The flight takes one and a half hours.", "The flight takes 90 minutes.", True),
    ("The winner finished in 2 hours 5 minutes.", "The winner finished after 125 minutes.", True),
    ("The winner finished in 2 hours 15 minutes.", "The winner finished after 125 minutes.", False),
    ("A dozen eggs", "12 eggs", True), ("two dozen eggs", "12 eggs", False),
    ("opens at 9 am", "opens at 9:00 in the morning", True), ("opens at 9 pm", "opens at 9:00 in the morning", False),
    ("opens at 9 am", "opens at 9", True), ("closes at 10:30 pm", "closes at 22:30", True),
    ("runs from half past midnight to 7:30 in the morning", "runs from 00:30 to 07:30", True),
    ("opens at half past eight in the morning", "opens at 08:30", True),
    ("opens at half past eight in the morning", "opens at 09:30", False),
    ("a week of thirty-seven and a half hours", "a week of 37.5 hours", True),
    # the span between two times the quote gives, exact, or to a tenth with a hedge
    ("eight and a half hours between sunrise and sunset", "sunrise is at 07:42 and sunset at 16:12", True),
    ("9 hours between sunrise and sunset", "sunrise is at 07:42 and sunset at 16:12", False),
    ("it starts at 5:54 pm, about two hours after sunset", "the Sun sets at 15:52; twilight ends at 17:54", True),
    ("opens before 9 am", "opens at 8 am", True), ("opens after 9 am", "opens at 8 am", False),
    ("fell by 2 percentage points to 6%", "fell from 8% to 6%", True),
    ("fell by 3 percentage points to 6%", "fell from 8% to 6%", False),
    ("fell by 25%", "fell from 8% to 6%", True), ("rose by 2%", "rose from 40 to 42", False),
    ("grew by 3 days", "grew from 7 days to 10 days", True),
    ("produces 1.2 gigawatts", "a capacity of 1,200 megawatts", True),
    ("produces 12 gigawatts", "a capacity of 1,200 megawatts", False),
    ("Sales grew in the second quarter of 2023.", "In Q1 2023, sales grew.", False),
    ("Sales grew in the first quarter of 2023.", "In Q1 2023, sales grew.", True),
])
def test_amounts_in_words_times_and_changes_compare(claim, quote, ok):
    assert (B.compare(claim, [quote], [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,restated", [
    ("The bridge is 1.2 km long.", "The bridge has a length of 1,200 metres.", "The bridge is 1,200 metres long."),
    ("The flight takes one and a half hours.", "The flight takes 90 minutes.", "The flight takes 90 minutes."),
    ("It is 5 km long.", "It is 5 km long.", "It is 5 km long."),  # written alike: as it is
    ("It is 6 km long.", "It is 5 km long.", "It is 6 km long."),  # not the quote's amount: as it is
    # a bound the quote writes in other words: the bound and its number as the quote writes them
    ("It needs no fewer than three digits.", "It must hold at least 3 digits.", "It needs at least 3 digits."),
    ("Stairs with 4 or more steps need a rail.", "Stairs with more than 3 steps need a rail.",
     "Stairs with more than 3 steps need a rail."),
    ("Bags of no more than 5 kg fly free.", "Bags up to 5 kg fly free.", "Bags of up to 5 kg fly free."),
    ("It needs no fewer than four digits.", "It must hold at least 3 digits.", "It needs no fewer than four digits."),
    # the other way: only the number is the quote's, the bound stays for the direction rule to oppose
    ("It needs no more than three digits.", "It must hold at least 3 digits.", "It needs no more than 3 digits."),
    # a bound that names its number through a copula keeps its words, which the claim must find
    ("The minimum age is 18.", "You must be at least 18.", "The minimum age is 18."),
])
def test_an_amount_the_quote_states_otherwise_is_written_as_the_quote_writes_it(claim, quote, restated):
    assert RS.restated(claim, [quote]) == restated


def test_an_identifier_the_quote_names_is_written_as_the_quote_writes_it():
    assert RS.without_identifiers("The game was released in the third quarter of 2021.", [], ["The game launched in Q3 2021."]) \
        == "The game was released in the Q3 of 2021."
    assert RS.without_identifiers("The patch landed in kernel 5.15.", [], ["Linux 5.15 includes the patch."]) \
        == "The patch landed in kernel 5.15."
    assert RS.without_identifiers("The patch landed in kernel 5.16.", [], ["Linux 5.15 includes the patch."]) \
        == "The patch landed in kernel ."


@pytest.mark.parametrize("claim,quote,conflict", [
    ("Workers get 25 days of unpaid leave.", "Each worker gets 25 days of paid leave.", True),
    ("Workers get 25 days of paid leave.", "Each worker gets 25 days of paid leave.", False),
    ("The policy does not cover flood damage.", "Flood damage is excluded from the policy.", False),
    ("Nearly two thirds of students failed the exam.", "Of the students who sat the exam, 64% passed.", True),
    ("The number of cyclists halved.", "The number of cyclists rose.", True),
    ("The number of cyclists doubled.", "The number of cyclists rose.", False),
])
def test_participles_amount_words_and_multiples(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,conflict", [
    # what may be done, stated, against its prohibition; what is only wanted or aimed at is not stated
    ("Heavy lorries are allowed to cross the bridge.", "Heavy lorries may not cross the bridge.", True),
    ("Members are able to vote at the meeting.", "Members cannot vote at the meeting.", True),
    ("Heavy lorries are not allowed to cross the bridge.", "Heavy lorries may not cross the bridge.", False),
    ("The drivers want to cross the bridge.", "The drivers may not cross the bridge.", False),
    # "must" says what "optional" denies; "must not" is a prohibition, no requirement
    ("Helmets are optional for cyclists under 16.", "Cyclists under 16 must wear a helmet.", True),
    ("Cyclists under 16 must wear a helmet.", "Helmets are optional for cyclists under 16.", True),
    ("Helmets are mandatory for cyclists under 16.", "Cyclists under 16 must wear a helmet.", False),
    ("The cover letter is optional.", "Applicants must send a CV; the cover letter is optional.", False),
    # the minimum a copula gives a number is a lower bound, as "a minimum of" is
    ("The minimum stay is three nights.", "Guests may stay for a maximum of three nights.", True),
    ("The minimum stay in the hostel is three nights.", "Guests must stay in the hostel for at least three nights.",
     False),
    ("The maximum speed on the bridge is 30 mph.", "Vehicles must cross the bridge at more than 30 mph.", True),
    # decline with an object refuses it; without one, it is a fall
    ("The council accepted the proposal.", "The council declined the proposal at its March meeting.", True),
    ("The council rejected the proposal.", "The council declined the proposal at its March meeting.", False),
    ("Sales rose the following year.", "Sales declined the following year.", True),
    ("Sales were accepted the following year.", "Sales declined the following year.", False),
])
def test_permission_requirement_bounds_and_refusals(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,conflict", [
    # the object "nothing" denies its verb; "costs nothing" is free
    ("The library charges a fee for lending e-books.", "Borrowing e-books from the library costs nothing.", True),
    ("Borrowing e-books from the library is free.", "Borrowing e-books from the library costs nothing.", False),
    ("Delivery is free of charge for members.", "Members pay nothing for delivery.", False),
    ("Members pay for delivery.", "Members pay nothing for delivery.", True),
    ("The audit found problems in the report.", "The audit found nothing in the report.", True),
    ("The report was read by the audit.", "The audit found nothing in the report.", False),
    ("The inspection found everything in order.", "The inspection found nothing wrong.", False),
    # a change "compared with" something is a comparison with it
    ("Turnout increased compared with the previous election.", "Turnout was lower than at the previous election.",
     True),
    ("Turnout was higher than at the previous election.", "Turnout rose compared with the previous election.", False),
    ("Turnout fell compared to the previous election.", "Turnout was lower than at the previous election.", False),
])
def test_an_object_nothing_and_a_change_compared_with(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,conflict", [
    # the same comparison with its sides the other way round says the opposite; with the other word, the same
    ("The river is shorter than the canal.", "The canal is shorter than the river.", True),
    ("The river is longer than the canal.", "The canal is shorter than the river.", False),
    ("The river is shorter than the canal.", "The river is shorter than the canal.", False),
    ("The bus is faster than the tram.", "The tram is faster than the bus.", True),
    # re- before a state word: the same state again
    ("The bridge remains closed after repairs.", "Following repairs, the bridge reopened to traffic.", True),
    ("The bridge was reopened after repairs.", "Following repairs, the bridge reopened to traffic.", False),
    ("The gate was reopened.", "The gate was reclosed.", True),
    ("The battery is recharged for free.", "The battery is recharged at no cost.", False),
])
def test_sides_of_a_comparison_and_a_state_again(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,conflict", [
    # "higher" alone against "lower"; "warmer" against "colder"
    ("Water boils at a higher temperature at altitude.", "At altitude, water boils at a lower temperature.", True),
    ("Water boils at a lower temperature at altitude.", "At altitude, water boils at a lower temperature.", False),
    ("The north slope is warmer in winter.", "In winter the north slope is colder.", True),
    ("The north slope is hotter in winter.", "In winter the north slope is warmer.", False),
])
def test_comparatives_alone(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,conflict", [
    # "not ... until" says when, not whether: what it governs is opposed to neither side
    ("Latecomers are not admitted until the interval.", "Latecomers will be admitted only at the interval.", False),
    ("Refunds are issued after the item is returned.", "Refunds are not issued until the item is returned.", False),
    ("The shop opens at 10.", "The shop does not open until 10.", False),
    ("The investigation remains open.", "The cases will not be closed until police know who they are.", False),
    ("Latecomers are admitted.", "Latecomers are never admitted.", True),
    # no change against a change
    ("The central bank raised interest rates to 5.25%.", "The central bank held interest rates steady at 5.25%.", True),
    ("The central bank left interest rates unchanged.", "The central bank held interest rates steady at 5.25%.", False),
    ("Prices remained the same in May.", "Prices rose in May.", True),
    ("Sales saw a steady rise.", "Sales rose.", False),  # "steady" before a noun is no standstill
    ("The patient remained stable overnight.", "The patient remained stable overnight.", False),
])
def test_not_until_and_no_change(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,ok", [
    # once a week is a frequency, as twice a day is
    ("brush once a day", "brush two times a day", False),
    ("brush twice a day", "brush two times a day", True),
    ("meet once a week", "meet once a week", True),
    # the maximum, minimum or limit a copula gives a number is a bound on it
    ("bags of up to 32 kg", "The maximum weight for a checked bag is 23 kilograms.", False),
    ("bags of up to 23 kg", "The maximum weight for a checked bag is 23 kilograms.", True),
    ("keep up to five trout a day", "The daily bag limit is two trout.", False),
    ("keep up to two trout a day", "The daily bag limit is two trout.", True),
    ("a stay of at least three nights", "The minimum stay is three nights.", True),
])
def test_once_and_a_limit_a_copula_gives(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,ok", [
    # a quote's "a hundred" offers 100 (a claim's "a thousand reasons" states no amount)
    ("a wind farm of 100 turbines", "a wind farm of a hundred turbines", True),
    ("a wind farm of 1,000 turbines", "a wind farm of a hundred turbines", False),
    ("a thousand reasons to go", "three reasons to go", True),
])
def test_a_scale_word_after_a(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


def test_a_scale_word_after_a_is_named_in_the_message():
    assert B.compare("a wind farm of 1,000 turbines", ["a wind farm of a hundred turbines"])[0].message == \
        "claim says 1,000; quotes say a hundred"


@pytest.mark.parametrize("claim,quote,conflict", [
    # a negation right before a bound turns it: "cannot exceed five" is at most five, and denies nothing else
    ("The deposit cannot exceed five weeks' rent.", "The deposit is capped at five weeks' rent.", False),
    ("The deposit cannot exceed five weeks' rent.", "The deposit must be at least five weeks' rent.", True),
    ("Speeds must not exceed 30 mph.", "Speeds must be at most 30 mph.", False),
    ("Speeds must not exceed 30 mph.", "Speeds must be more than 30 mph.", True),
])
def test_a_negated_bound(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


def test_once_before_a_clause_is_no_frequency():
    assert Q.extract("Refunds are issued once the item is returned.") == ()


@pytest.mark.parametrize("claim,quote,ok", [
    # a century named by an ordinal in words, as by one in digits
    ("coins from the 3rd century", "coins dated to the third century AD", True),
    ("coins from the 13th century", "coins dated to the third century AD", False),
    ("a castle built in the twelfth century", "a castle built in 1150", True),
    ("a castle built in the twelfth century", "a castle built in 1250", False),
    ("a twenty-first-century design", "a design from 2004", True),
    ("the war broke out in the later fifteenth century", "the first battle was fought in 1455", True),
])
def test_a_century_in_words(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


def test_a_century_of_another_era_is_not_read():
    assert [q for q in Q.extract("a coin of the first century BC") if q.unit == "century"] == []


def test_a_comparison_the_other_way_round_is_shown_with_both_sides():
    found = contradictions("The west platform is shorter than the east platform.",
                           ["The east platform is shorter than the west platform."])
    assert [(c.claim, c.quote) for c in found] == [("shorter than the east platform", "shorter than the west platform")]


@pytest.mark.parametrize("claim,quote,ok", [
    # a bound on a whole count, written from the other side of its edge, allows the same counts
    ("stairs with more than three steps", "stairs with four or more steps", True),
    ("stairs with more than two steps", "stairs with four or more steps", False),  # wider: says more
    ("stairs with at least 5 steps", "stairs with four or more steps", False),  # narrower: says less
    ("groups of fewer than 10 people", "groups of no more than 9 people", True),
    ("groups of fewer than 10 people", "groups of up to 8 people", False),
    ("groups of fewer than 10 people", "groups of no more than 9 cars", False),  # another thing counted
    ("a span of more than 3 km", "a span of at least 4 km", False),  # an amount need not be whole
])
def test_a_bound_on_a_whole_count_from_the_other_side(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,conflict", [
    ("The species is found only in Madagascar.", "The species is endemic to Madagascar and lives nowhere else.", False),
    ("The app runs only on Android.", "The app runs on Android and iOS.", True),
    ("Open to members only.", "Open to members and guests.", True),
])
def test_only_said_in_other_words(claim, quote, conflict):
    from cairn.meaning.quantifiers import only_conflicts

    assert bool(only_conflicts(claim, [quote])) is conflict


@pytest.mark.parametrize("text,value,unit", [
    ("a seven-month journey", "7", "month"), ("a 30-day return window", "30", "day"), ("a 10-km run", "10", "km"),
    ("take it twice a day", "2", "times/day"), ("Twice weekly", "2", "times/week"), ("5 mg daily", "5", "mg/day"),
])
def test_a_number_joined_to_its_unit_and_a_frequency(text, value, unit):
    (q,) = Q.extract(text)
    assert q.kind == "number" and q.value == Q.Decimal(value) and q.unit == unit
    assert Q.extract("twice as many") == ()  # a factor, which a quote may give in words


@pytest.mark.parametrize("text,low,high", [
    ("in the 1990s", 1990, 1999), ("in the early 1990s", 1990, 1994), ("in the late 1990s", 1995, 1999),
    ("the mid-1990s", 1993, 1996), ("the late 19th century", 1860, 1900),
])
def test_a_part_of_a_decade_or_century_narrows_its_years(text, low, high):
    (q,) = Q.extract(text)
    assert q.kind == "range" and (q.value, q.high) == (low, high)


@pytest.mark.parametrize("claim,quote,ok", [
    ("erupted in the late 1990s", "erupted in 1998", True), ("erupted in the early 1990s", "erupted in 1998", False),
    ("held the title for 15 years", "champion from 1985 to 2000", True),
    ("held the title for 25 years", "champion from 1985 to 2000", False),
    ("a journey of seven months", "after a seven-month journey", True),
    ("a journey of seven years", "after a seven-month journey", False),
    ("taken twice a day", "take two times daily", True), ("taken three times a day", "take two times daily", False),
])
def test_periods_spans_and_frequencies_compare(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


def test_a_decade_and_a_span_are_written_as_the_quote_writes_them():
    assert RS.restated("It erupted in the late 1990s.", ["It erupted in 1998."]) == "It erupted in the 1998."
    assert RS.restated("He held it for 15 years.", ["He held it from 1985 to 2000."]) == "He held it for 1985 to 2000."


@pytest.mark.parametrize("word,base", [("cashless", "cash"), ("wireless", "wire"), ("regardless", None),
                                       ("nevertheless", None), ("unpaid", "paid"), ("under", None)])
def test_privative_words(word, base):
    from cairn.meaning.lexicon import privative

    got = privative(word)
    assert (got[1] if got else None) == base


@pytest.mark.parametrize("claim,quote,ok", [
    ("Check-in starts at 3 pm.", "Guests may check in from 15:00.", True),
    ("winds reached 250 km/h", "peaked at around 155 mph", True), ("winds reached 150 km/h", "peaked at 155 mph", False),
    ("free on Sundays", "On Sundays, visitors pay no fee", True), ("free on Mondays", "On Sundays, visitors pay no fee", False),
    ("held on Tuesday", "held on 3 November 2020", True), ("held on Monday", "held on 3 November 2020", False),
    ("deaths fell by a third", "deaths dropped from 300 to 200", True),
    ("deaths fell by a half", "deaths dropped from 300 to 240", False),
    ("handles 40 million passengers", "Some 40m passengers", True),
    ("handles 14 million passengers", "Some 40m passengers", False),
    ("orbits every 90 minutes", "one orbit every hour and a half", True),
    ("half a cup of sugar", "0.5 cups of sugar", True), ("two cups of sugar", "0.5 cups of sugar", False),
    ("it takes half an hour", "it takes 30 minutes", True),
    ("over half a million dollars in bills", "$560,000 in overdue bills", True),
])
def test_round_fifteen_amounts(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


def test_what_the_score_reads_for_a_bound_a_change_and_a_time():
    assert RS.restated("The dam is more than 180 metres tall.", ["The dam stands 185 m high."]) \
        == "The dam is more than 185 m tall."
    assert RS.restated("Deaths fell by a third.", ["Deaths dropped from 300 to 200."]) == "Deaths fell by 300 to 200."
    assert RS.restated("Check-in starts at 3 pm.", ["Guests may check in from 15:00."]) == "Check-in starts at 15:00."


@pytest.mark.parametrize("claim,quote,conflict", [
    ("Fishing is banned in the bay.", "No fishing is allowed in the bay.", False),
    ("Fishing is allowed in the bay.", "No fishing is allowed in the bay.", True),
    ("Admission to the museum is free.", "Visitors pay no admission fee at the museum.", False),
    ("Entry is free of charge.", "The gallery charges no admission fee.", False),
    ("Members pay a delivery fee.", "Delivery is free of charge for members.", True),
    ("Workshops are low-cost or free-of-charge.", "a free workshop on Mondays", False),
])
def test_a_denied_noun_phrase_and_free(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,conflict", [
    ("Adults need less sleep than teenagers.", "Teenagers require more sleep than adults do.", False),
    ("Adults need more sleep than teenagers.", "Teenagers require more sleep than adults do.", True),
    ("Teenagers need less sleep than adults.", "Teenagers require more sleep than adults do.", True),
    ("Teenagers need more sleep than adults.", "Teenagers require more sleep than adults do.", False),
    ("Python 3.12 added the distutils module.", "The distutils package was removed in Python 3.12.", True),
    ("The bridge was opened to traffic in 2019.", "In 2019 the bridge shut to vehicles.", True),
])
def test_comparisons_the_other_way_round_and_opposite_verbs(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,ok", [
    ("The population tripled between 1950 and 2000.", "The town grew from 5,000 residents in 1950 to 15,000 in 2000.", True),
    ("The population doubled between 1950 and 2000.", "The town grew from 5,000 residents in 1950 to 15,000 in 2000.", False),
    ("The population doubled between 1990 and 2010.", "Between 1990 and 2010 the population doubled.", True),
    ("The population tripled between 1990 and 2010.", "Between 1990 and 2010 the population doubled.", False),
    ("Profits halved.", "Profits fell from $6 million to $3 million.", True),
    ("Profits doubled.", "Profits rose sharply.", True),  # no two amounts to hold it to
])
def test_the_verbs_of_a_multiple_are_factors(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,conflict", [
    ("The museum is closed on Mondays.", "The museum opens Tuesday to Sunday and is closed on Mondays.", False),
    ("The museum is open on Mondays.", "The museum opens Tuesday to Sunday and is closed on Mondays.", True),
])
def test_a_second_predicate_is_a_statement_of_its_own(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


def test_a_movement_the_other_way():
    from cairn.meaning.contradicting import reversed_movements

    quote = ["Oil flows through the pipeline from the coast to the refinery."]
    assert reversed_movements("The pipeline carries oil from the refinery to the coast.", quote)[0].message == \
        "claim says from the refinery to the coast; quote says from the coast to the refinery"
    assert reversed_movements("The pipeline carries oil from the coast to the refinery.", quote) == []
    assert reversed_movements("Prices rose from 5 to 10.", ["Prices rose from 10 to 5."]) == []  # the quantity rule's


@pytest.mark.parametrize("claim,quote,ok", [
    # how often, in words: the quote's "monthly", "every week", "annually" is once in that span of time,
    # its "fortnightly" every two weeks
    ("tested once a month", "Test your smoke alarms monthly.", True),
    ("tested twice a month", "Test your smoke alarms monthly.", False),
    ("serviced once a year", "The boiler is serviced annually.", True),
    ("checked once a week", "The gauge is checked every week.", True),
    ("checked once a day", "The gauge is checked every week.", False),
    ("collected every two weeks", "Rubbish is collected fortnightly.", True),
    ("collected every three weeks", "Rubbish is collected fortnightly.", False),
    # a claim's own "monthly" states no amount to back
    ("paid monthly", "Salaries are paid on the last day of the month.", True),
])
def test_how_often_in_words_in_a_quote(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,ok", [
    # a limit names the amount it allows: an amount under it is not that limit
    ("may bring up to 400 cigarettes", "You can bring in 200 cigarettes duty-free.", False),
    ("may bring up to 200 cigarettes", "You can bring in 200 cigarettes duty-free.", True),
    ("a maximum of 6 guests", "The room sleeps 4 guests.", False),
    ("a maximum of 4 guests", "The room sleeps 4 guests.", True),
    # an inequality is met by any amount within it
    ("fewer than 400 cigarettes", "You can bring in 200 cigarettes duty-free.", True),
    ("at least 150 cigarettes", "You can bring in 200 cigarettes duty-free.", True),
])
def test_a_limit_names_its_amount(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,conflict", [
    # a negation (or the opposite word) and the other side of the same bound cancel
    ("Parcels over 20 kg are not accepted.", "The counter accepts parcels weighing up to 20 kg.", False),
    ("Parcels over 20 kg are rejected.", "The counter accepts parcels weighing up to 20 kg.", False),
    ("Parcels up to 20 kg are not accepted.", "The counter accepts parcels weighing up to 20 kg.", True),
    ("Parcels over 20 kg are accepted.", "The counter accepts parcels weighing up to 20 kg.", True),
    # hot and cold as states
    ("Check the pressure when the tyres are hot.", "Check the pressure when the tyres are cold.", True),
    ("Check the pressure when the tyres are cold.", "Check the pressure when the tyres are cold.", False),
    ("must", "optional", True),  # a text of one cue word reads as no clause (hypothesis found it)
])
def test_a_bound_turned_and_hot_or_cold(claim, quote, conflict):
    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,quote,ok", [
    # a bound met by an amount in another unit of the same dimension
    ("lasted just over two minutes", "Totality lasted 2 minutes and 10 seconds.", True),
    ("lasted over ten minutes", "Totality lasted 2 minutes and 10 seconds.", False),
    ("a run of under 3 km", "The route is 2,400 m long.", True),
    ("a run of under 2 km", "The route is 2,400 m long.", False),
    ("lasts up to 2 hours", "The tour lasts 120 minutes.", True),  # a limit: the same amount, converted
    ("lasts up to 3 hours", "The tour lasts 120 minutes.", False),
    # a bound on a year met by a span of years wholly within it
    ("planted before 1950", "Most trees were planted in the 1930s.", True),
    ("planted after 1950", "Most trees were planted in the 1930s.", False),
    ("planted before 1935", "Most trees were planted in the 1930s.", False),
    ("built after 1700", "The mill was built in the 19th century.", True),
])
def test_bounds_in_another_unit_and_spans_of_years(claim, quote, ok):
    assert (B.compare(claim, [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,conflict", [
    # the quote says it both ways, each under its own condition: a clause sharing every word the opposed
    # one shares with the claim says it the claim's way
    ("An existing database file is opened, and a missing one is created.",
     "If the database file does not exist, it is created. If the database file does exist, it is opened.", False),
    ("The museum is open on Mondays.", "The museum opens Tuesday to Sunday and is closed on Mondays.", True),
    # a list of cases, each an amount with its condition: a negation in one does not reach the others, and
    # each case still speaks of what the first one's words before its condition name
    ("The exit status is 0 when a line is selected, even if an error occurred.",
     "The exit status is 0 if a line is selected, 1 if no lines were selected, and 2 if an error occurred.", False),
    ("The exit status is 1 when a line was selected.",
     "The exit status is 0 if a line is selected, 1 if no lines were selected, and 2 if an error occurred.", True),
    ("The fee is 5 euros if the form is signed.", "The fee is 5 euros if the form is signed, and 9 euros if not.",
     False),
    # "no X" reaches its noun phrase; a determiner after it opens another, which it does not reach
    ("With no file operand the working directory is searched.",
     "If no file operand is given, grep searches the working directory.", False),
    ("The work comes without any additional terms.", "The work comes with additional terms.", True),
    ("The orchestra played without a conductor.", "The orchestra played with no conductor.", False),
    # "whether or not X", "whether X or not": both alternatives, neither denied
    ("It covers any work, whether or not it is printed.", "It covers any work, whether it is printed or not.", False),
    ("It covers any work, whether or not it is printed.", "It covers any printed work.", False),
    ("It covers any work, whether it is printed or not.", "It covers any printed work.", False),
    ("It does not cover printed works.", "It covers any work, whether it is printed or not.", True),
    # "obliged" is required, which "not required" denies
    ("You are obliged to contact the authors first.", "It is requested, but not required, that you contact the "
     "authors first.", True),
    ("You are asked, though not obliged, to contact the authors first.", "It is requested, but not required, "
     "that you contact the authors first.", False),
    # "not required" denies the requirement, not what is required: contacting them is still asked for
    ("You should contact the authors before redistributing many copies.",
     "It is requested, but not required, that you contact the authors before redistributing many copies.", False),
    ("You are required to contact the authors before redistributing many copies.",
     "It is requested, but not required, that you contact the authors before redistributing many copies.", True),
])
def test_cases_and_conditions_said_both_ways(claim, quote, conflict):
    from cairn.meaning.contradicting import contradictions

    assert bool(contradictions(claim, [quote])) is conflict


@pytest.mark.parametrize("claim,chunk,mismatch", [
    ("grep -R follows every link.", "-r, --recursive Read all files under each directory.", "-R"),
    ("grep -r reads every file.", "-r, --recursive Read all files under each directory.", None),
    ("grep --recursive reads every file.", "-r, --recursive Read all files under each directory.", None),
    ("Use --noprofile to skip it.", "This may be inhibited by using the --norc option.", "--noprofile"),
    ("Use --preserve-xattr to keep them.", "The --preserve-xattr option keeps extended attributes.", None),
    ("Use --preserve to keep them.", "The --preserve-xattr option keeps extended attributes.", "--preserve"),
    ("Run it with -v for more output.", "Prints more output while it runs.", None),  # no option named: no check
    ("It fell to -5 degrees.", "It fell to -5 degrees, see -x.", None),  # a negative number is no option
    ("The well-known e-mail (-x) flag.", "The -x flag.", None),  # hyphens inside words are not options
    ('Pass "-q" to quieten it.', "-s, --silent Quieten it.", "-q"),
    # a file's path or name is an identifier the same way (held as written anywhere in the cited text)
    ("The keys are in /usr/share/keyrings/debian-archive-keyring.gpg.",
     "* /usr/share/keyrings/debian-archive-removed-keys.gpg: keys of previous releases.",
     "/usr/share/keyrings/debian-archive-keyring.gpg"),
    ("The keys are in debian-archive-removed-keys.gpg.",
     "* /usr/share/keyrings/debian-archive-removed-keys.gpg: keys of previous releases.", None),
    ("Edit /etc/fstab to mount it.", "Each line of /etc/fstab describes a filesystem.", None),
    ("Edit /etc/mtab to mount it.", "Each line of /etc/fstab describes a filesystem.", "/etc/mtab"),
    ("Edit /etc/mtab to mount it.", "Each line describes a filesystem.", None),  # no file named: no check
    ("See README.md and and/or km/h, e.g. the U.S. guide.", "See the README.md file.", None),
])
def test_a_command_line_option_or_a_file_is_an_identifier_of_the_cited_chunk(claim, chunk, mismatch):
    found = [m for m in B.compare(claim, [chunk[-20:]], [chunk]) if m.kind == "identifier"]
    assert [m.claim for m in found] == ([mismatch] if mismatch else [])
    if mismatch:
        assert found[0].message.startswith(f"claim says {mismatch}; source says ")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=" -aZ9.(/\"'`[~_x\n", max_size=40))
@example("see main.c")
@example("xx.x")
def test_the_literal_patterns_fast_forms_find_what_the_plain_ones_do(text):
    """The option pattern with its hyphen first finds what the plain one (the look-behind first) finds,
    and the test before the file pattern never rules out a text it would find a file in."""
    import re

    plain = re.compile(r"(?<![^\s(\[\"'`])--?[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
    assert L._OPTION.findall(text) == plain.findall(text)
    if L._FILE.search(text):
        assert L._may_name_file(text)


def test_rounding_up_against_rounding_down():
    assert [c.message for c in contradictions("The value is rounded down to a multiple of the block size.",
                                               ["This value is rounded up to a multiple of the block size."])] == \
        ["claim says rounded down; quote says rounded up"]
    # its own axis: a rise or fall elsewhere is no rounding
    assert contradictions("The value is rounded up.", ["Prices fell and the value is rounded up."]) == []


@pytest.mark.parametrize("claim,quote,message", [
    ("When no desktop is available, the programs cannot fall back to the curses interface.",
     "The programs automatically fall back to the curses interface if no desktop is available.",
     "claim says cannot fall back; quote says back"),
    ("The programs do not fall back to the curses interface.",
     "The programs fall back to the curses interface unless no terminal is open.",
     "claim says not fall back; quote says back"),
])
def test_a_condition_after_its_statement_is_a_clause_of_its_own(claim, quote, message):
    assert [c.message for c in contradictions(claim, [quote])] == [message]


@pytest.mark.parametrize("claim,quote", [
    ("When no desktop is available, the programs fall back to the curses interface.",
     "The programs automatically fall back to the curses interface if no desktop is available."),
    # the condition states nothing the claim's statement could contradict
    ("useradd does not make a home directory, even when CREATE_HOME is enabled.",
     "useradd will not create a home directory, regardless of CREATE_HOME."),
    # a case of a list keeps its condition: "1 if no lines were selected"
    ("The status is 1 if no lines were selected.", "The status is 0 if a line is selected, 1 if no lines were selected."),
])
def test_a_condition_after_its_statement_that_agrees(claim, quote):
    assert contradictions(claim, [quote]) == []


@pytest.mark.parametrize("text,value,unit", [
    # the molar family: its symbols keep their case, "mmol/L" is "mM", and the micro sign and the Greek mu
    # are one letter
    ("10 mM", "10", "mM"), ("10 mm", "10", "mm"), ("10 \u00b5M", "10", "\u03bcM"), ("10 \u03bcM", "10", "\u03bcM"),
    ("10 uM", "10", "\u03bcM"), ("2 nM", "2", "nM"), ("5 pM", "5", "pM"), ("5.5 mmol/L", "5.5", "mM"),
    ("5.5 mmol/l", "5.5", "mM"), ("0.5 mol/L", "0.5", "M"), ("1 M NaCl", "1", "M"), ("3 \u00b5m", "3", "\u03bcm"),
    # other SI symbols that differ only by case; a casual casing reads as the only unit it can be
    ("5 mW", "5", "mW"), ("5 MW", "5", "MW"), ("100 Mb", "100", "Mbit"), ("100 MB", "100", "MB"),
    ("10 KM", "10", "km"), ("5 Pa", "5", "Pa"), ("1013 mbar", "1013", "hPa"), ("90 kPa", "90", "kPa"),
])
def test_cased_unit_symbols(text, value, unit):
    (q,) = Q.extract(text)
    assert q.kind == "number" and q.value == Q.Decimal(value) and q.unit == unit


@pytest.mark.parametrize("text,shown", [
    # a lone "M" is molar only before its solute; "pa" is per annum; "pM" is no time of day, "pm" is
    ("5 M users signed up", "5 M"), ("28M ago", "28M"), ("a salary of 50,000 pa", "50,000"), ("3 um apples", "3"),
])
def test_lowercase_or_lone_symbols_that_name_no_unit(text, shown):
    (q,) = Q.extract(text)
    assert q.unit is None and q.text == shown


def test_picomolar_is_not_a_time_of_day():
    kinds = [(q.kind, q.text) for q in Q.extract("At 10:30 add 5 pM; stop at 5 pm or 6 P.M.")]
    assert kinds == [("time", "10:30"), ("number", "5 pM"), ("time", "5 pm"), ("time", "6 P.M")]


@pytest.mark.parametrize("claim,quote,message", [
    ("Dilute the stock to a final concentration of 10 \u00b5M.", "Dilute the stock to a final concentration of 10 mM.",
     "claim says 10 \u03bcM; quotes say 10 mM"),
    ("Add 10 mM EDTA.", "Add 10 mm EDTA.", "claim says 10 mM; quotes say 10 mm"),
    ("The laser is rated at 5 mW.", "The laser is rated at 5 MW.", "claim says 5 mW; quotes say 5 MW"),
    ("The link runs at 100 Mb per second.", "The link runs at 100 MB per second.",
     "claim says 100 Mb per second; quotes say 100 MB per second"),
    ("Fasting glucose was 7 mmol/L.", "Fasting glucose was 7 \u00b5M.", "claim says 7 mmol/L; quotes say 7 \u03bcM"),
])
def test_concentrations_and_cased_units_that_differ(claim, quote, message):
    assert [m.message for m in B.compare(claim, [quote])] == [message]


@pytest.mark.parametrize("claim,quote", [
    ("a final concentration of 10 \u03bcM", "a final concentration of 10 \u00b5M"),  # micro sign = Greek mu
    ("a final concentration of 10 uM", "a final concentration of 10 \u00b5M"),
    ("a final concentration of 10 \u00b5M", "a final concentration of 0.01 mM"),  # 1 mM is 1,000 µM
    ("1 mM", "1,000 \u00b5M"), ("250 nM", "0.25 \u00b5M"),
    ("glucose of 5.5 mmol/L", "glucose of 5.5 mM"), ("glucose of 5.5 mM", "glucose of 5.5 millimolar"),
    ("a 10 KM run", "a 10 km run"), ("1013 hPa", "1013 mbar"), ("0.1 MPa", "100 kPa"),
])
def test_concentrations_and_cased_units_that_agree(claim, quote):
    assert B.compare(claim, [quote]) == []


@pytest.mark.parametrize("text,days", [
    # how often, as one rate: the days between two occasions (a month 28 to 31 days, a year 365 or 366)
    ("every year", (365, 366)), ("annually", (365, 366)), ("every six months", (168, 186)),
    ("twice a year", (Fraction(365, 2), 183)), ("weekly.", (7, 7)), ("once a week", (7, 7)), ("each week", (7, 7)),
    ("fortnightly", (14, 14)), ("every two weeks", (14, 14)), ("every other day", (2, 2)),
    ("every second day", (2, 2)), ("three times a day", (Fraction(1, 3), Fraction(1, 3))),
    ("every 8 hours", (Fraction(1, 3), Fraction(1, 3))), ("once every two weeks", (14, 14)),
    ("twice weekly", (Fraction(7, 2), Fraction(7, 2))), ("4 times per year", (Fraction(365, 4), Fraction(366, 4))),
    ("every 3-5 years", (1095, 1830)), ("quarterly", (84, 93)), ("every hour and a half", (Fraction(1, 16),) * 2),
    ("on a weekly basis", (7, 7)), ("paid monthly in arrears", (28, 31)),
    ("once or twice a week", (Fraction(7, 2), 7)), ("2-3 times a day", (Fraction(1, 3), Fraction(1, 2))),
    ("take 2 tablets twice a day", (Fraction(1, 2), Fraction(1, 2))),
])
def test_a_frequency_is_one_rate(text, days):
    (f,) = FQ.frequencies(text)
    assert (f.low, f.high) == days


@pytest.mark.parametrize("text", [
    # not how often: an amount per period, the periods of something, a bound, a hedge or a negation
    "a daily dose of 5 mg", "the monthly fee is $10", "each year's budget", "one day of leave for each year of service",
    "every day of the trip", "at least once a year", "no more than twice a day", "about every three months",
    "not every year", "every few years", "twice as many", "twice or once a week",
    # after an amount of money or a share, how much a period (the amount's rate), not how often
    "a plan that costs $185 every month", "revenue grows 3% annually",
])
def test_what_is_no_frequency(text):
    assert FQ.frequencies(text) == ()


@pytest.mark.parametrize("claim,quote,message", [
    ("Inspections of lifts are required every year.", "Lifts must be inspected every six months.",
     "claim says every year; quotes say every six months"),
    ("The committee meets twice a week.", "The committee meets weekly.", "claim says twice a week; quotes say weekly"),
    ("The committee meets weekly.", "The committee meets twice a week.", "claim says weekly; quotes say twice a week"),
    ("Bins are emptied weekly.", "Bins are emptied fortnightly.", "claim says weekly; quotes say fortnightly"),
    ("The filter is changed every six months.", "Change the filter every year.",
     "claim says every six months; quotes say every year"),
    ("Take the tablets every 8 hours.", "Take the tablets twice a day.",
     "claim says every 8 hours; quotes say twice a day"),
])
def test_frequencies_that_differ(claim, quote, message):
    assert [m.message for m in B.compare(claim, [quote])] == [message]


@pytest.mark.parametrize("claim,quote", [
    ("Lifts are inspected twice a year.", "Lifts must be inspected every 6 months."),
    ("The committee meets once a week.", "The committee meets weekly."),
    ("The committee meets every week.", "The committee meets once a week."),
    ("The boiler is serviced annually.", "Service the boiler every year."),
    ("Bins are emptied every two weeks.", "Bins are emptied fortnightly."),
    ("Take the tablets three times a day.", "Take the tablets every 8 hours."),
    ("Rent is paid every four weeks.", "Rent is paid monthly."),  # a month is 28 to 31 days
    ("The club meets once a week.", "The club meets once or twice a week."),
    # the quote's frequency is of another thing: no word near it is near the claim's
    ("Reports are published every year.", "Staff meet weekly to plan the newsletter."),
    # a bound in the quote: the claim's rate is left to other rules
    ("Alarms are tested every month.", "Alarms must be tested at least once a year."),
])
def test_frequencies_that_agree_or_are_not_compared(claim, quote):
    assert B.compare(claim, [quote]) == []


@pytest.mark.parametrize("claim,quote,restated", [
    # a frequency the quote gives in other words is written as the quote writes it, for the word score
    ("Lifts must be inspected twice a year.", "Lifts must be inspected every six months.",
     "Lifts must be inspected every six months."),
    ("The boiler is serviced annually by 2 engineers.", "Two engineers service the boiler every year.",
     "The boiler is serviced every year by Two engineers."),  # as the quote writes it (the score casefolds)
    # one that differs, or is of another thing, is left as it is
    ("Lifts must be inspected every year.", "Lifts must be inspected every six months.",
     "Lifts must be inspected every year."),
    ("Reports are published every year.", "Staff meet weekly.", "Reports are published every year."),
])
def test_a_frequency_is_restated_as_the_quote_writes_it(claim, quote, restated):
    assert RS.restated(claim, [quote]) == restated


@pytest.mark.parametrize("claim,quote,opposed", [
    ("Not many meteors are seen before midnight.", "Few meteors are seen before midnight.", False),
    ("Few meteors are seen before midnight.", "Few meteors are seen before midnight.", False),
    ("Many meteors are seen before midnight.", "Few meteors are seen before midnight.", True),
    # "a few" and "the few" are some, not "not many"
    ("A few meteors are seen before midnight.", "Some meteors are seen before midnight.", False),
    ("A few meteors are seen before midnight.", "Few meteors are seen before midnight.", True),
])
def test_few_says_not_many(claim, quote, opposed):
    found = meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))])
    assert bool(found.contradictions) is opposed, found.contradictions


@pytest.mark.parametrize("claim,quote,ok", [
    # one step of arithmetic over one quote sentence's figures, in the claim's unit
    ("Two tickets cost £20 in total.", "Tickets cost £10 each.", True),
    ("Two tickets cost £30 in total.", "Tickets cost £10 each.", False),
    ("The pitch costs £90 for two adults for three nights.", "Pitches cost £15 per adult per night.", True),
    ("The pitch costs £60 for two adults for three nights.", "Pitches cost £15 per adult per night.", False),
    ("Employees pay 5% and the employer 3%, 8% in all.", "Employees pay 5% of salary and the employer adds 3%.", True),
    ("Employees pay 5% and the employer 3%, 9% in all.", "Employees pay 5% of salary and the employer adds 3%.", False),
    # a sum only where the claim states a total
    ("The employer pays 8%.", "Employees pay 5% of salary and the employer adds 3%.", False),
    ("With the discount the £50 fee falls to £40.", "Members get 20% off the £50 fee.", True),
    ("With the discount the £50 fee falls to £45.", "Members get 20% off the £50 fee.", False),
    ("The deposit is £100.", "A 20% deposit is payable on the £500 fare.", True),
    ("The fare with VAT is £120.", "The £100 fare is subject to VAT at 20%.", True),
    ("Premium tickets cost £15 more than standard ones.", "Standard tickets cost £25 and premium tickets £40.", True),
    ("Premium tickets cost £10 more than standard ones.", "Standard tickets cost £25 and premium tickets £40.", False),
    # figures of two sentences are not added up
    ("The two fees come to £30 in total.", "The entry fee is £10. Parking costs £20 for the day.", False),
    # pence
    ("The fee is 30 pence.", "The fee is 30p.", True), ("The fee is £0.30.", "The fee is 30p.", True),
    ("The fee is 40 pence.", "The fee is 30p.", False),
    # a share of a unit
    ("Each session lasts 45 minutes.", "Each session lasts three quarters of an hour.", True),
    ("Each session lasts 40 minutes.", "Each session lasts three quarters of an hour.", False),
    ("The walk takes 15 minutes.", "The walk takes a quarter of an hour.", True),
    # a whole-number bound said the other way round
    ("Children under 16 must be accompanied.", "Children aged 15 or younger must be accompanied.", True),
    ("Children aged 15 or younger must be accompanied.", "Children under 16 must be accompanied.", True),
    ("Children under 14 must be accompanied.", "Children aged 15 or younger must be accompanied.", False),
    ("Visitors aged 65 or older travel free.", "Visitors over 64 travel free.", True),
    # the modal after a number is no month
    ("Nobody under 18 may enter.", "Entry is refused to anyone under 18.", True),
    ("Nobody under 16 may enter.", "Entry is refused to anyone under 18.", False),
])
def test_figures_worked_out_restated_or_converted(claim, quote, ok):
    assert (B.compare(claim, [quote], [quote]) == []) is ok


def test_pence_and_video_resolutions():
    assert [(q.value, q.unit) for q in Q.extract("31.4p per kWh") if q.kind == "number"] == [(Decimal("0.314"), "GBP")]
    assert [q.kind for q in Q.extract("a 1080p screen")] == ["identifier"]
    assert [(q.value, q.unit) for q in Q.extract("a quarter of a million")] == [(Decimal(25), "%")]


@pytest.mark.parametrize("claim,quote,opposed", [
    # a negation on one side, a word that denies on the other: two ways of saying no
    ("Pensioners do not have to pay the charge.", "Pensioners are exempt from the charge.", False),
    ("Smoking is not allowed in the rooms.", "All rooms are non-smoking.", False),
    ("The fee is not charged for members.", "The fee is waived for members.", False),
    ("Staff must not share passwords.", "Staff are forbidden to share passwords.", False),
    ("The offer excludes sale items.", "The offer does not apply to sale items.", False),
    # and where the two sides do differ
    ("Staff may share passwords.", "Staff are forbidden to share passwords.", True),
    ("Smoking is allowed in the rooms.", "All rooms are non-smoking.", True),
    ("Parking is not prohibited here.", "Parking is prohibited here.", True),
    ("The train failed to arrive.", "The train arrived on time.", True),
])
def test_a_negation_against_a_word_that_denies(claim, quote, opposed):
    found = meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))])
    assert bool(found.contradictions) is opposed, found.contradictions


@pytest.mark.parametrize("claim,quote,ok", [
    # one rate over two spans of the calendar, and an amount shared out in the quote's count of parts
    ("The salary is £3,000 a month.", "The salary is £36,000 a year.", True),
    ("The salary is £3,500 a month.", "The salary is £36,000 a year.", False),
    ("The pass costs £10 a day.", "The pass costs £70 per week.", True),
    # a month holds no whole number of days
    ("The pass costs £10 a day.", "The pass costs £300 per month.", False),
    ("You will be paid £3,000 each month.", "Your salary is £36,000 a year, paid in twelve equal monthly instalments.",
     True),
    ("You will be paid £3,500 each month.", "Your salary is £36,000 a year, paid in twelve equal monthly instalments.",
     False),
])
def test_a_rate_over_another_span_of_time(claim, quote, ok):
    assert (B.compare(claim, [quote], [quote]) == []) is ok


@pytest.mark.parametrize("claim,quote,opposed", [
    # "rather than", "instead of" set a word aside as the claim's "not" does
    ("Garlic should be planted in autumn, not spring.", "Plant garlic in autumn rather than in spring.", False),
    ("Use butter, not oil.", "Use butter instead of oil.", False),
    ("Use oil, not butter.", "Use butter instead of oil.", True),
    ("Plant garlic in spring, not autumn.", "Plant garlic in autumn rather than in spring.", True),
])
def test_a_word_set_aside(claim, quote, opposed):
    found = meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))])
    assert bool(found.contradictions) is opposed, found.contradictions


@pytest.mark.parametrize("claim,quote,restated", [
    ("A reserved book is held for a week.", "Reservations are kept for seven days.",
     "A reserved book is held for seven days."),
    ("The money is put back within a day of the complaint.", "We refund it within 24 hours of your complaint.",
     "The money is put back within 24 hours of the complaint."),
    ("The ball must weigh from 0.41 kg to 0.45 kg.", "The ball shall weigh between 410 g and 450 g.",
     "The ball must weigh from 410 g and 450 g."),
    # a rate is no span of time, and a span the quote does not give stays as it is
    ("The class meets twice a week.", "The class meets on 7 days.", "The class meets twice a week."),
    ("A reserved book is held for a week.", "Reservations are kept for ten days.",
     "A reserved book is held for a week."),
])
def test_one_span_of_time_and_a_range_restated_as_the_quote_writes_them(claim, quote, restated):
    assert RS.restated(claim, [quote]) == restated


@pytest.mark.parametrize("claim,quote,opposed", [
    # `than those on the first floor`: what the quote compares with, named through a pronoun
    ("Rooms on the top floor are cheaper than rooms on the first floor.",
     "Rooms on the top floor are more expensive than those on the first floor.", True),
    ("Rooms on the top floor are more expensive than rooms on the first floor.",
     "Rooms on the top floor are more expensive than those on the first floor.", False),
    ("Rooms on the top floor are cheaper than rooms on the first floor.",
     "Rooms on the top floor are cheaper than those on the first floor.", False),
    ("The bus is cheaper than the train.", "The train is more expensive than the bus.", False),
])
def test_a_comparison_with_a_pronoun_after_than(claim, quote, opposed):
    found = meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))])
    assert bool(found.contradictions) is opposed, found.contradictions


@pytest.mark.parametrize("claim,quote,opposed", [
    # `avoid`, `stop` deny as `not` does; `at no time` is `never`
    ("Avoid alcohol while taking this medicine.", "Do not drink alcohol while taking this medicine.", False),
    ("Do not drink alcohol while taking this medicine.", "Avoid alcohol while taking this medicine.", False),
    ("The service stops running at midnight.", "The service does not run after midnight.", False),
    ("The service runs after midnight.", "The service stops running at midnight.", True),
    ("The car park is never locked.", "At no time is the car park locked.", False),
    ("The car park is always locked.", "At no time is the car park locked.", True),
    # a requirement denied is an option; `may not` forbids as `must not` does
    ("Visitors do not have to bring food into the gallery.", "Visitors may bring food into the gallery.", False),
    ("Visitors may not bring food into the gallery.", "Food must not be brought into the gallery.", False),
    ("Visitors cannot bring food into the gallery.", "Visitors must not bring food into the gallery.", False),
    ("Visitors may not bring food into the gallery.", "Visitors may bring food into the gallery.", True),
    ("Visitors need not book in advance.", "Visitors must book in advance.", True),
])
def test_denials_said_other_ways(claim, quote, opposed):
    found = meaning.check(claim, [meaning.Evidence(quote, quote, 0, len(quote))])
    assert bool(found.contradictions or found.limits) is opposed, (found.contradictions, found.limits)


@pytest.mark.parametrize("claim,quote,ok", [
    # a change by a percentage between two amounts of one sentence
    ("Revenue rose 10% from a year earlier, to $440 million.",
     "Revenue for the quarter was $440 million, compared with $400 million a year earlier.", True),
    ("Revenue rose 12% from a year earlier, to $440 million.",
     "Revenue for the quarter was $440 million, compared with $400 million a year earlier.", False),
    # a year and a span of years; a span or an age between two years
    ("The second eruption took place in 1823.", "The first eruption was in 1781, and a second followed 42 years later.",
     True),
    ("The second eruption took place in 1825.", "The first eruption was in 1781, and a second followed 42 years later.",
     False),
    ("The war lasted six years.", "The war began in 1939 and ended in 1945.", True),
    ("The war lasted seven years.", "The war began in 1939 and ended in 1945.", False),
    ("She died aged 58.", "Born in 1931, she died in 1990.", True),
    ("She died aged 60.", "Born in 1931, she died in 1990.", False),
    # the margin and the sum of a tally
    ("Rovers beat Millbrook by two goals.", "Rovers beat Millbrook 3-1 on Saturday.", True),
    ("Four goals were scored in all.", "Rovers beat Millbrook 3-1 on Saturday.", True),
    ("Five goals were scored in all.", "Rovers beat Millbrook 3-1 on Saturday.", False),
    # the count of a list
    ("The eruption produced four kinds of hazard, among them lahars and ashfall.", "The eruption produced pyroclastic "
     "flows, lahars, ashfall and lava flows over eleven weeks.", True),
    ("The eruption produced five kinds of hazard, among them lahars and ashfall.", "The eruption produced pyroclastic "
     "flows, lahars, ashfall and lava flows over eleven weeks.", False),
    ("The menu has four starters.", "The menu offers soup, pâté, prawns and salad as starters.", True),
    # a list the claim does not name is not counted, and a bound or an ordinal is no count of a list
    ("At least four people were hurt.", "The inquiry blamed poor training and regulation, corruption and a tendency "
     "to cut corners; four people were hurt.", True),
    ("Three people were hurt.", "The inquiry blamed poor training and regulation, corruption and haste; four people "
     "were hurt.", False),
    ("The menu has three starters.", "The menu offers soup, pâté, prawns and salad as starters.", False),
])
def test_figures_worked_out_in_one_more_step(claim, quote, ok):
    assert (B.compare(claim, [quote], [quote]) == []) is ok
