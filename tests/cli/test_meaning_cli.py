"""The meaning rules of SPEC section 4 through the real `cairn check`: each
case of fixtures/meaning (licence names that are not quantities, `one` that
is not a count, opposite prefixes, negation, direction, signs and units,
dates, a retracting frame, a different version) gets its verdict and codes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cairn_testing import check_json, run_cairn

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures" / "meaning"))
from make_meaning import CASES, build  # the fixture builder lives beside its data


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("meaning") / "ws")


@pytest.fixture(scope="module")
def claims(workspace: Path) -> dict[str, dict]:
    code, report = check_json(workspace)
    assert code == 1
    return {c["text"]: c for c in report["drafts"][0]["claims"]}


@pytest.mark.parametrize("claim,source,quote,codes,supported", CASES, ids=[c[0][:40] for c in CASES])
def test_each_case(claims, claim, source, quote, codes, supported):
    got = claims[claim]
    assert got["citations"][0]["resolved"] is True
    assert [d["code"] for d in got["diagnostics"]] == codes, got["diagnostics"]
    assert got["supported"] is supported


def test_messages_name_both_sides(claims):
    msg = {c: [d["message"] for d in v["diagnostics"]] for c, v in claims.items()}
    assert msg["Frozen goods are held at or below -18 °F until dispatch."] == ["claim says -18 °F; quotes say -18 °C"]
    assert msg["Frozen goods are held at or above 18 °C until dispatch."][0] == "claim says 18 °C; quotes say -18 °C"
    assert msg["Frozen goods are held at or above 18 °C until dispatch."][1] == "claim says at or above; quote says at or below"
    assert msg["Opened items can be returned."] == ["claim says returned; quote says cannot be returned"]
    assert msg["The manual allocates individual numbers to local packages."] == [
        "claim says allocates; quote says no attempt to allocate"]
    assert msg["The Leeds depot opened on 12 March 2024."] == ["claim says 12 March 2024; quotes say 12 May 2024"]
    assert msg["Each Contributor grants an exclusive, revocable, royalty-bearing copyright license."][0].startswith(
        "claim says exclusive; quote says non-exclusive")
    assert msg["The depot tool's -R option reads all files under each folder recursively."] == [
        "claim says -R; source says -r, --recursive"]
    assert msg["The depot shell reads ~/.depotrc when it starts, unless the --noprofile option is used."] == [
        "claim says --noprofile; source says --norc"]
    assert msg["The keys of earlier depot releases are kept in /etc/depot/keys.gpg."] == [
        "claim says /etc/depot/keys.gpg; source says /etc/depot/keys-removed.gpg"]
    version = [m for c, m in msg.items() if c.startswith("Under GPL version 2")][0]
    assert version == ["claim says version 2; source says version 3"]
    assert msg["timeout now supports sub-second timeouts on Solaris."] == [
        "the claim says Solaris where its quote says macOS (support 0.83, threshold 0.5; missing: Solaris)"]
    assert msg['Set the mode to "lenient" to reject unsigned packages.'][0].startswith(
        "the claim says lenient where its quote says strict (")
    assert msg["grep's -E option now uses the new matcher."] == ["claim says -E; source says -P"]
    assert msg["Even when forced, update-rc.d always calls the policy layer (policy-rc.d) before an init script"
               " runs."] == ["claim says update-rc.d; source says policy-rc.d"]
    assert msg["Building the depot tool from git requires flex and version 2.7 or later of bison."] == [
        "claim says version 2.7; source says version 3.0"]
    assert msg["Each tram crew has one driver."] == ["claim says one driver; quotes say two"]
    assert msg["The depot freezer runs at -40 °C."] == ["claim says -40 °C; quotes say -40 °F"]
    # the option is reported once, by the number rule, even when another of the claim's numbers comes first
    assert msg["The -E option, added in 2021, now uses the PCRE2 library."] == [
        "claim says 2021; quotes say 2019 (and 1 more)"]
    assert msg["The --dry-run option now overrides --force."] == [
        "the claim says --dry-run option now overrides --force where its quote says"
        " --force option now overrides --dry-run (support 1.00, threshold 0.5)"]
    assert msg["join stopped reporting disorder when both of its input files are empty."] == [
        "claim says both of its input; quote says one of the files"]
    assert msg["The tram's top speed is 70 mph."] == ["claim says 70 mph; quotes say 70 kilometres per hour"]
    assert msg["The cleaning agent is dosed at 5 mg/kg."] == ["claim says 5 mg/kg; quotes say 5 mg per litre"]
    assert msg["The tram bridge was built in the 1940s."] == ["claim says 1940s; quotes say 1937"]
    assert msg["Children older than 12 travel free."] == ["claim says older than; quote says younger than"]
    assert msg["The riverside trail is 5 km long."] == ["claim says 5 km; quotes say 5 miles"]
    assert msg["In the boiler room water boils at 110 °C."] == ["claim says 110 °C; quotes say 212 °F"]
    assert msg["The transit bank cut its lending rate by 0.25 percentage points."] == ["claim says cut; quote says raised"]
    assert msg["The operator reported a profit of US$2m for the year."] == ["claim says profit; quote says loss"]
    assert msg["The depot school charges tuition."] == ["claim says charges; quote says free of charge"]
    assert msg["The depot crane is the smallest crane in the harbour."] == ["claim says smallest; quote says biggest"]
    assert msg["The council approved the new depot."][0].startswith("claim says approved; quote says declined")
    assert msg["The ferry crossing to the depot island takes two and a half hours."] == [
        "claim says two and a half hours; quotes say 90 minutes"]
    assert msg["The depot canteen opens at 7 pm."] == ["claim says 7 pm; quotes say 7:00 in the morning"]
    assert msg["About a third of all riders are season ticket holders."] == ["claim says a third; quotes say 51%"]
    assert msg["The depot needs two dozen new drivers."] == ["claim says two dozen; quotes say 12"]
    assert msg["Fares went up in the second quarter of 2023."] == ["claim says second quarter; source says Q3"]
    assert msg["Rider numbers halved over the decade."] == ["claim says halved; quote says rose"]
    assert msg["The depot roof panels yield 12 MW."][0] == "claim says 12 MW; quotes say 1,200 kilowatts"
    assert msg["Drivers get 20 days of unpaid leave a year."] == ["claim says unpaid; quote says paid"]
    assert msg["The depot will close."] == [
        "the quote's sentence reads \u201cThe rumour that the depot will close has been debunked.\u201d"
        " (\u201chas been debunked\u201d)"]
    assert msg["One in four riders travels at night."] == ["claim says One in four; quotes say 20%"]
    assert msg["Heavy lorries are allowed to cross the depot bridge."] == [
        "claim says allowed to cross; quote says not cross"]
    assert msg["Helmets are optional for riders under 16 on the depot track."] == ["claim says optional; quote says must"]
    assert msg["The minimum stay in the depot hostel is three nights."] == [
        "claim says minimum stay; quote says a maximum of"]
    assert msg["The council accepted the depot proposal."] == ["claim says accepted; quote says declined"]
    assert msg["The depot ferry cruises at 20 mph."] == ["claim says 20 mph; quotes say 20 knots"]
    assert msg["The depot open day took place in late March 2022."] == [
        "claim says late March 2022; quotes say 6 March 2022"]
    assert msg["The depot charges a fee for parking."] == ["claim says charges; quote says costs nothing"]
    assert msg["Ridership increased compared with the previous year."] == [
        "claim says increased compared with; quote says lower than"]
    assert msg["The west platform is shorter than the east platform."] == [
        "claim says shorter than the east platform; quote says shorter than the west platform"]
    assert msg["Depot stairs with more than two steps must have a handrail."] == ["claim says two; quotes say four"]
    assert msg["The depot footbridge remains closed after repairs."] == ["claim says closed; quote says reopened"]
    assert msg["The depot chapel dates from the 13th century."] == ["claim says 13th century; quotes say twelfth century"]
    assert msg["In the hill depot, water boils at a higher temperature."] == ["claim says higher; quote says lower"]
    assert msg["The transit bank raised its deposit rate to 3%."] == ["claim says raised; quote says steady"]
    assert msg["Depot trams are cleaned once a day."] == ["claim says once a day; quotes say two times a day"]
    assert msg["A depot locker bag may weigh up to 32 kg."] == ["claim says 32 kg; quotes say 23 kilograms"]
    assert msg["The depot charter was signed in Leeds."] == [
        "the claim says Leeds where its quote says York (support 0.75, threshold 0.5; missing: Leeds)"]
    ctx = msg["The warranty covers accidental damage."][0]
    assert "It is false that the warranty covers accidental damage." in ctx


def test_context_negates_points_at_the_quote_line(workspace, claims):
    got = claims["The warranty covers accidental damage."]
    d = got["diagnostics"][0]
    lines = (workspace / "drafts" / "meaning.md").read_text(encoding="utf-8").splitlines()
    assert lines[d["line"] - 1].startswith("quote:")


def test_fix_leaves_meaning_failures_alone(workspace):
    """No meaning rule has a fix: --fix changes nothing in this draft."""
    draft = workspace / "drafts" / "meaning.md"
    before = draft.read_bytes()
    proc = run_cairn(workspace, "check", "--fix")
    assert proc.returncode == 1
    assert draft.read_bytes() == before


def test_text_output_shows_the_words_that_decided(workspace):
    proc = run_cairn(workspace, "check")
    assert "[contradiction] claim says returned; quote says cannot be returned" in proc.stdout
    assert "[number-mismatch] claim says -18 °F; quotes say -18 °C" in proc.stdout


def test_the_sentence_rule_reads_near_the_quote_only(tmp_path: Path):
    """A chunk with no sentence end (a long list) is not one sentence for the rule `sentence`: words
    within its reach of the quote count half, words further away count nothing."""
    import json as _json

    from cairn.core.chunking import chunk_id
    from cairn.verify.verdicts import SENTENCE_REACH

    filler = " ".join(f"item{i} ordinary" for i in range(60))  # no sentence end anywhere
    para = f"pallets, trolleys, ladders and brooms are stacked in aisle seven {filler} perishable crates of imported bananas"
    assert len(para) > SENTENCE_REACH + 100
    ws = tmp_path / "ws"
    (ws / "sources").mkdir(parents=True)
    (ws / "drafts").mkdir()
    (ws / "sources" / "list.txt").write_text(para + "\n", encoding="utf-8")
    (ws / "cairn.toml").write_text('drafts = ["drafts/*.md"]\n', encoding="utf-8")
    quote = "stacked in aisle seven"

    def cite(claim: str) -> str:
        return (f"{claim}\n\n```cite\nchunk_id: {chunk_id('sources/list.txt', para)}\nstart: {para.index(quote)}\n"
                f"end: {para.index(quote) + len(quote)}\nquote: {_json.dumps(quote)}\nsource: sources/list.txt\n```\n")

    near = "Pallets, trolleys, ladders and brooms are stacked in aisle seven."  # 3 of 7 words in the quote
    far = "Perishable crates of imported bananas are stacked in aisle seven."
    (ws / "drafts" / "a.md").write_text(cite(near) + "\n" + cite(far), encoding="utf-8")
    code, report = check_json(ws)
    got = {c["text"]: c for c in report["drafts"][0]["claims"]}
    assert got[near]["supported"] is True
    assert got[far]["supported"] is False
    assert [d["code"] for d in got[far]["diagnostics"]][0] == "unsupported-claim"  # (and citation-reuse)
    assert got[far]["diagnostics"][0]["message"].endswith("missing: perishable, crates, imported, bananas")
