"""The rules over the sentence reader through the real `cairn check`: each case of
fixtures/reading (a figure bound to another thing, must against can, a dropped
restriction, swapped roles, a retraction, negation by clause, comparatives,
units (molar ones among them), how often, month spellings, Unicode forms) gets its verdict, its code and a message
naming the deciding words of each side."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cairn.reading.read import available

from cairn_testing import check_json

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures" / "reading"))
from make_reading import CASES, build  # the fixture builder lives beside its data

pytestmark = pytest.mark.skipif(not available()[0], reason=f"the sentence reader is off: {available()[1]}")


@pytest.fixture(scope="module")
def claims(tmp_path_factory) -> dict[str, dict]:
    code, report = check_json(build(tmp_path_factory.mktemp("reading") / "ws"))
    assert code == 1
    return {c["text"]: c for c in report["drafts"][0]["claims"]}


@pytest.mark.parametrize("claim,source,quote,codes,supported", CASES, ids=[c[0][:40] for c in CASES])
def test_each_case(claims, claim, source, quote, codes, supported):
    got = claims[claim]
    assert got["citations"][0]["resolved"] is True
    assert [d["code"] for d in got["diagnostics"]] == codes, got["diagnostics"]
    assert got["supported"] is supported


def test_messages_name_the_deciding_words(claims):
    msg = {c: [d["message"] for d in v["diagnostics"]] for c, v in claims.items()}
    assert msg["Child Benefit is £25.60 a week for each additional child."] == [
        "claim pairs £25.60 with \u201ceach additional child\u201d; the quote pairs it with \u201cthe eldest or only"
        " child\u201d (and £16.95 with \u201ceach additional child\u201d)"]
    assert msg["Benefit must be paid weekly."] == [
        "claim says \u201cmust be paid\u201d (required); quote says \u201ccan choose to be paid\u201d (optional)"]
    assert msg["Every pupil receives a certificate."] == [
        "claim says \u201cEvery pupil\u201d without restriction; the quote's sentence restricts it: \u201cPupils with"
        " 100% attendance over the year\u201d"]
    assert msg["The committee has closed the car park."] == [
        "claim says \u201cclosed\u201d as done; the quote names it only as intended: \u201cproposal to close\u201d"]
    assert msg["The bar opens at weekends."] == [
        "claim says \u201cweekends\u201d; the quote says \u201cMonday to Friday\u201d"]
    assert msg["Members must bring photo ID to join."] == [
        "claim says \u201cmust bring\u201d (required); quote says only \u201cWe recommend\u201d (advice)"]
    assert msg["The standing charge is 31.4p per month."] == [
        "claim gives \u201c31.4p per month\u201d; the quote gives \u201c31.4p per day\u201d"]
    assert msg["Your annual cost will be £1,240."] == [
        "claim states \u201cYour annual cost will be £1,240\u201d as known; the quote's sentence says \u201cestimated"
        " annual cost\u201d"]
    assert msg["Basel lies on the Danube."] == [
        "claim pairs Basel with Danube; the quote pairs Basel with Rhine and Vienna with Danube"]
    assert msg["The cache is cleared on restart."] == [
        "the quote's sentence reads \u201cMany users believe that the cache is cleared on restart; this is not the"
        " case.\u201d (\u201cthis is not the case\u201d)"]
    assert msg["libffi is completely thread-safe, so no special rules are needed."] == [
        "claim says is completely thread-safe; quote says is not completely thread-safe"]
    assert msg["The winter had more frost days than the average."] == ["claim says more frost; quote says fewer frost"]
    assert msg["The practice pitch is 90 m long."] == ["claim says 90 m; quotes say 90 yards"]
    assert msg["Dilute the stock to a final concentration of 10 \u00b5M."] == ["claim says 10 \u03bcM; quotes say 10 mM"]
    assert msg["Inspections of lifts are required every year."] == [
        "claim says every year; quotes say every six months"]
    assert msg["Incubate the secondary antibody for 1 hour."] == [
        "claim gives 1 hour for \u201csecondary\u201d; the quote gives 30 minutes there (\u201cthe secondary antibody"
        " for 30 minutes.\u201d) and 1 hour for another part (\u201cIncubate the primary antibody for 1 hour\u201d)"]
    assert msg["In public buildings, guards must be at least 900 mm high."] == [
        "claim gives 900 mm for \u201cpublic buildings\u201d; the quote gives 1,100 mm there (\u201c1,100 mm high in"
        " public buildings.\u201d) and 900 mm for another part (\u201cGuards must be at least 900 mm high in"
        " dwellings\u201d)"]
    assert msg["This medicine reduces the effectiveness of some blood pressure tablets."] == [
        "claim states \u201cThis medicine reduces\u201d as certain; the quote says only \u201cmay reduce\u201d"]
    assert msg["The soy sauce is gluten-free."] == [
        "claim says \u201cThe soy sauce is gluten-free\u201d of \u201csauce\u201d; the quote's sentence excepts it:"
        " \u201cexcept the soy sauce\u201d"]
    assert msg["The insurer reimburses the policyholder for the excess."] == [
        "claim says \u201cThe insurer reimburses the policyholder\u201d; the quote has the roles the other way round:"
        " \u201cthe policyholder reimburses the insurer\u201d"]
    assert msg["Extra time has a 15-minute break between its two periods."] == [
        "claim gives \u201c15-minute break\u201d; the quote gives \u201c1-minute break\u201d and puts"
        " \u201c15 minutes\u201d on \u201cperiods\u201d"]
    assert msg["The new pavilion opened in March."] == [
        "claim says The new pavilion opened; quote says The new pavilion will open"]
    assert msg["The club curry requires a pinch of chilli."] == [
        "claim says \u201crequires\u201d (required); quote says \u201ccan add\u201d (optional)"]


def test_no_message_names_the_same_words_on_both_sides(claims):
    for c in claims.values():
        for d in c["diagnostics"]:
            m = re.match(r"claim says (.+?); quotes? says? (.+)$", d["message"])
            if m:
                assert m.group(1).casefold() != m.group(2).casefold(), d["message"]


def test_messages_of_the_worked_figures_and_the_limits_of_prose(claims):
    msg = {c: [d["message"] for d in v["diagnostics"]] for c, v in claims.items()}
    assert msg["Third-quarter revenue rose 12% from a year earlier, to $440 million."] == [
        "claim says 12%; quotes say $440 million, $400 million"]
    assert msg["The 1911 eruption destroyed the church at Brekke."] == [
        "claim says \u201cdestroyed\u201d; the quote says only \u201cpartly destroyed\u201d"]
    assert msg["Rezatrelin improved disability scores."] == [
        "claim states an effect (\u201cimproved\u201d); the quote's finding was not significant: \u201cnot"
        " statistically significant\u201d"]
    assert msg["Most of the home fans booed at half-time."] == [
        "claim says \u201cMost of the home fans\u201d; the quote says only \u201cSome of the home supporters\u201d"]
    assert msg["Rescue medication was permitted on days when pain was rated severe or lasted more than four hours."] == [
        "claim says \u201csevere or lasted\u201d; the quote says \u201csevere and lasted\u201d"]
