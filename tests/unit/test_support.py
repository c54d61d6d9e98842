"""The lexical support check (SPEC section 4): the seed rule and the calibrated mode."""

from __future__ import annotations

from importlib import resources

import pytest

from cairn import support
from cairn.support import DEFAULT_MODE, MODES, STOPWORDS, check_support, number_key, stem, tokens

BOTH = pytest.mark.parametrize("mode", MODES)


def keys(text: str, mode: str = "seed") -> list[str]:
    return [t.key for t in tokens(text, mode)]


# --------------------------------------------------------------------------
# Modes


def test_modes():
    assert MODES[0] == "seed"
    assert DEFAULT_MODE in MODES
    assert DEFAULT_MODE != "seed"  # calibrated on WiCE dev and found better (docs/support.md)
    with pytest.raises(ValueError, match="unknown support mode"):
        check_support("a", ["a"], mode="nope")


# --------------------------------------------------------------------------
# Tokens and numbers (seed)


def test_tokens_nfkc_casefold_and_letter_runs():
    assert keys("Straße ＡＢＣ déjà-vu") == ["strasse", "abc", "déjà", "vu"]


@pytest.mark.parametrize(
    ("a", "b"),
    [("1,000", "1000"), ("14", "14.0"), ("fourteen", "14"), ("1,234,567.50", "1234567.5"), ("007", "7")],
)
@BOTH
def test_numbers_compare_as_numbers(a, b, mode):
    r = check_support(f"It cost {a} dollars.", [f"The cost was {b} dollars."], mode=mode)
    assert r.numbers_missing == []
    assert r.passed


def test_number_key_keeps_every_digit():
    assert number_key("12345678901234567890") == "12345678901234567890"
    assert number_key("12345678901234567890") != number_key("12345678901234567891")
    assert number_key("0.10") == "0.1"
    assert number_key("1,000,000") == number_key("1000000.000")
    assert number_key("\u0661\u0664") == "14"  # Arabic-Indic digits, by value


def test_number_pattern_edges():
    assert keys("1,0000") == ["1", "0"]  # not 1,000 then 0
    assert keys("3.14.15") == ["3.14", "15"]
    assert keys("He left at 14.") == ["he", "left", "at", "14"]


def test_number_words():
    for word, value in [("zero", "0"), ("twenty", "20"), ("ninety", "90"), ("hundred", "100"),
                        ("thousand", "1000"), ("million", "1000000")]:  # fmt: skip
        (tok,) = tokens(word)
        assert tok.number and tok.key == value


@BOTH
def test_fourteen_vs_fourteen_days(mode):
    assert check_support("Refunds within fourteen days.", ["Refunds within 14 days."], mode=mode).passed


@BOTH
def test_14_vs_30_days_fails_on_numbers(mode):
    r = check_support(
        "Customers may return items within 14 days of delivery.",
        ["Customers may return items within 30 days of delivery."],
        mode=mode,
    )
    assert r.score is not None and r.score >= 0.5  # the words agree ...
    assert not r.passed  # ... the number does not
    assert r.numbers_missing == ["14"]
    assert r.quote_numbers == ["30"]


@BOTH
def test_numbers_missing_is_as_written(mode):
    r = check_support("About 1,500 people and fourteen dogs.", ["About 1600 people and 15 dogs."], mode=mode)
    assert r.numbers_missing == ["1,500", "fourteen"]
    assert r.quote_numbers == ["1600", "15"]


@BOTH
def test_negations_are_content_words(mode):
    r = check_support("The museum is not open on Mondays.", ["The museum is open on Mondays."], mode=mode)
    assert "not" in r.missing
    assert r.score is not None and r.score < 1.0


@BOTH
def test_cjk_characters_are_tokens(mode):
    assert [t.text for t in tokens("東京タワーは高い", mode)] == ["東", "京", "タ", "ワ", "ー", "は", "高", "い"]
    assert keys("abc東京") == ["abc", "東", "京"]
    r = check_support("東京", ["東京都の人口"], mode=mode)
    assert r.score == 1.0 and r.passed
    r = check_support("大阪", ["東京都の人口"], mode=mode)
    assert r.score == 0.0 and r.missing == ["大", "阪"]


@BOTH
def test_joint_support_over_several_quotes(mode):
    claim = "The bridge opened in 1932 and cost 6 million dollars."
    q1, q2 = "The bridge opened in 1932.", "Building it cost 6 million dollars."
    assert check_support(claim, [q1, q2], mode=mode).passed
    alone1 = check_support(claim, [q1], mode=mode)
    alone2 = check_support(claim, [q2], mode=mode)
    six_million = ["6", "million"] if mode == "seed" else ["6 million"]  # the rule "scale"
    assert not alone1.passed and alone1.numbers_missing == six_million
    assert not alone2.passed and alone2.numbers_missing == ["1932"]
    assert check_support(claim, [q1, q2], mode=mode).quote_numbers == ["1932", *six_million]


# --------------------------------------------------------------------------
# Stopwords


def test_stopwords_file_is_package_data_with_no_negation_and_no_number_word():
    text = resources.files("cairn").joinpath("stopwords.txt").read_text(encoding="utf-8")
    listed = {line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")}
    assert listed == STOPWORDS
    assert 120 <= len(STOPWORDS) <= 200
    assert not STOPWORDS & support.NEGATIONS
    assert not STOPWORDS & {"not", "no", "nor", "never", "none", "neither", "t", "didn", "isn", "don"}
    assert not STOPWORDS & support.NUMBER_WORDS.keys()
    assert all(w == w.casefold() and w.isalpha() for w in STOPWORDS)


@BOTH
def test_stopwords_do_not_count(mode):
    r = check_support("The cat is on the mat", ["cat mat"], mode=mode)
    assert r.score == 1.0 and r.missing == []


# --------------------------------------------------------------------------
# Score and verdict


@BOTH
def test_threshold_edge_exactly_half_passes(mode):
    r = check_support("apples pears", ["apples"], mode=mode)
    assert r.score == 0.5
    assert r.passed
    assert r.missing == ["pears"]
    assert not check_support("apples pears", ["apples"], threshold=0.51, mode=mode).passed


@BOTH
def test_no_quotes_scores_none(mode):
    r = check_support("Anything at all, 14 times.", [], mode=mode)
    assert r.score is None and not r.passed
    assert r.missing == [] and r.numbers_missing == [] and r.quote_numbers == []


@BOTH
def test_claim_without_content_tokens_scores_one(mode):
    for claim in ["", "It is what it is.", "!!!"]:
        r = check_support(claim, ["Some quote."], mode=mode)
        assert r.score == 1.0 and r.passed


@BOTH
def test_empty_quote_text_is_checked(mode):
    r = check_support("Paris is big", [""], mode=mode)
    assert r.score == 0.0 and not r.passed


@BOTH
def test_missing_is_distinct_in_claim_order(mode):
    r = check_support("zebra yak zebra xenon", ["nothing here"], mode=mode)
    assert r.missing == ["zebra", "yak", "xenon"]


def test_default_mode_is_used():
    claim, quotes = "The study was released in 2010.", ["They release studies each year; 2010 was no exception."]
    assert check_support(claim, quotes) == check_support(claim, quotes, mode=DEFAULT_MODE)


# --------------------------------------------------------------------------
# The calibrated mode's rules, one by one


CAL = "calibrated"


def test_dates_written_differently():
    quote = ["He was born on 29 September 1810 in Lyon."]
    assert check_support("He was born on September 29, 1810 in Lyon.", quote, mode=CAL).score == 1.0
    assert check_support("He was born on 1810-09-29 in Lyon.", quote, mode=CAL).score == 1.0
    assert check_support("Born Sept. 29th, 1810.", quote, mode=CAL).score == 1.0
    # The month is content only next to a number; elsewhere "may" stays a stopword.
    assert [t.text for t in tokens("7 May 2018", CAL)] == ["7", "May", "2018"]
    assert "may" not in check_support("It may rain.", ["rain"], mode=CAL).missing


def test_year_ranges():
    assert keys("the 2018–19 season", CAL)[1:3] == ["2018", "2019"]
    assert keys("1999-00", CAL) == ["1999", "2000"]
    r = check_support("during the 2018–19 academic year", ["over the 2018-2019 academic year"], mode=CAL)
    assert r.passed and r.numbers_missing == []
    seed = check_support("during the 2018–19 academic year", ["over the 2018-2019 academic year"], mode="seed")
    assert seed.numbers_missing == ["19"]


def test_ordinals():
    assert keys("the 21st of May", CAL)[:2] == ["the", "21"]
    assert keys("the 21st", "seed") == ["the", "21", "st"]


def test_percent():
    for claim in ["Turnout was 50%.", "Turnout was 50 percent.", "Turnout was 50 per cent."]:
        for quote in ["Turnout: 50%", "turnout of 50 percent", "turnout of 50 per cent"]:
            assert check_support(claim, [quote], mode=CAL).score == 1.0, (claim, quote)


def test_a_v_glued_before_a_number_abbreviates_version():
    assert keys("GPLv3 and LGPLv2.1", CAL) == ["gpl", "3", "and", "lgpl", "2.1"]
    assert keys("GPLv3", "seed") == ["gplv", "3"]  # the seed rule reads runs of letters, as the SPEC says
    assert keys("nv2 dev", CAL) == ["nv", "2", "dev"]  # too short to be a name with its version mark
    # the licence's name, written either way, is the word the quote's heading holds
    assert check_support("Under GPLv3 the grant is final", ["GPL version 3: the grant is final"], mode=CAL).score == 1.0


def test_a_percent_sign_not_after_a_number_is_code_not_percent():
    assert "percent" not in keys("date +'%-N' pads with zeros", CAL)
    assert "percent" not in keys("printf %d prints an integer", CAL)
    assert keys("50 % of the 10% rise", CAL).count("percent") == 2
    # the claim's format directive is not a word its quote lacks
    assert check_support("the %d directive prints integers", ["the d directive prints integers"], mode=CAL).score == 1.0


def test_scaled_numbers():
    (t,) = tokens("1.5 million", CAL)
    assert t.number and t.key == "1500000" and t.text == "1.5 million"
    assert [t.key for t in tokens("two hundred thousand", CAL)] == ["200000"]
    assert [t.key for t in tokens("0.25 billion", CAL)] == ["250000000"]
    assert [t.key for t in tokens("a billion", CAL)] == ["a", "1000000000"]
    assert check_support("1.5 million people", ["1,500,000 people"], mode=CAL).passed
    assert not check_support("1.5 million people", ["1,500,000 people"], mode="seed").passed
    r = check_support("40 million users", ["40 thousand users in 2 million homes"], mode=CAL)
    assert r.numbers_missing == ["40 million"] and r.quote_numbers == ["40 thousand", "2 million"]
    assert check_support("40 million users", ["40 thousand users in 2 million homes"], mode="seed").passed
    # A quote still offers the parts: a bare "million" in the claim is found.
    assert check_support("half a million users", ["4 million users"], mode=CAL).numbers_missing == []
    # Only adjacent words scale: "in 2019, million-seller" is two numbers.
    assert [t.key for t in tokens("in 2019, million", CAL)] == ["in", "2019", "1000000"]


def test_accents_fold_in_latin_only():
    assert check_support("Lisandra Hernández", ["Lisandra Hernandez"], mode=CAL).score == 1.0
    assert check_support("Lisandra Hernández", ["Lisandra Hernandez"], mode="seed").score == 0.5
    assert keys("ガ", CAL) == ["ガ"]  # a Katakana voicing mark is not an accent


def test_contractions_give_not():
    assert "not" in keys("He didn't go", CAL)
    assert keys("can't won't cannot", CAL) == ["can", "not", "will", "not", "can", "not"]
    assert check_support("He didn't go.", ["He did not go."], mode=CAL).score == 1.0


def test_stemming():
    assert stem("released") == stem("releasing") == stem("release") == stem("releases")
    assert stem("congratulated") == stem("congratulations")
    assert stem("studies") == stem("studied")
    assert stem("ponies") == "poni" and stem("caresses") == "caress" and stem("generalizations") == "gener"
    assert stem("ab") == "ab" and stem("déjà") == "déjà"
    assert check_support("The albums were released.", ["She releases an album."], mode=CAL).score == 1.0


def test_possessives():
    r = check_support("The Presidents' Trophy", ["the President's Trophy"], mode=CAL)
    assert r.score == 1.0


def test_hyphenated_compounds():
    assert check_support("the Ibero-American championship", ["the Iberoamerican championship"], mode=CAL).passed
    assert check_support("the Iberoamerican championship", ["the Ibero-American championship"], mode=CAL).score == 1.0
    assert check_support("a co-star", ["her co star"], mode=CAL).score == 1.0
    (t,) = tokens("twenty-four", CAL)
    assert t.number and t.key == "24"
    assert check_support("twenty-four hours", ["24 hours"], mode=CAL).passed


def test_names_and_numbers_weigh_two_under_the_weight_rule():
    # measured and not adopted in the default (docs/support.md), still selectable as a rule
    from cairn.support import MODE_RULES, register_mode

    assert "weight" not in MODE_RULES[CAL]
    register_mode("test:weight", MODE_RULES[CAL] | {"weight"})
    # "Paris" inside the sentence is a name; the opening word is not taken for one.
    toks = {t.text: t.weight for t in tokens("Visitors love Paris in 1990. Many return.", "test:weight")}
    assert toks == {"visitors": 1.0, "love": 1.0, "paris": 2.0, "in": 1.0, "1990": 2.0, "many": 1.0, "return": 1.0}
    assert check_support("Visitors love Paris", ["Paris"], mode="test:weight").score == pytest.approx(2 / 4)
    assert check_support("Visitors love Paris", ["Paris"], mode=CAL).score == pytest.approx(1 / 3)


def test_seed_is_unchanged_by_the_rules():
    assert keys("Didn't 50% 2018–19 Hernández co-star released 29th", "seed") == [
        "didn", "t", "50", "2018", "19", "hernández", "co", "star", "released", "29", "th",
    ]  # fmt: skip


# --------------------------------------------------------------------------
# Speed: the hot path is cached


def test_cached_checks_are_fast():
    import time

    claims = [f"The library holds {i} volumes and opened in 1930." for i in range(200)]
    quote = ["The Tozzer library holds over 260,000 volumes; it opened in 1930."]
    for c in claims:
        check_support(c, quote)
    start = time.perf_counter()
    n = 0
    for _ in range(50):
        for c in claims:
            check_support(c, quote)
            n += 1
    rate = n / (time.perf_counter() - start)
    assert rate >= 50_000, rate


def test_words_naming_the_cited_source_leave_the_score():
    claim = "The Mozilla Public License lets your rights be reinstated provisionally."
    quote = "Your rights are reinstated provisionally"
    plain = check_support(claim, [quote], mode=CAL)
    assert plain.score == pytest.approx(3 / 7) and "mozilla" in plain.missing
    named = check_support(claim, [quote], mode=CAL, named="mpl-2.0.txt\nMozilla Public License Version 2.0")
    assert named.score == pytest.approx(3 / 4)
    assert named.missing == ["lets"]
    # another source's heading changes nothing
    other = check_support(claim, [quote], mode=CAL, named="handbook.md\n# Warehouse handbook")
    assert other.score == plain.score and other.missing == plain.missing
    # a named word the quote holds is still found, not dropped
    both = check_support("Mozilla rights reinstated", ["Mozilla rights"], mode=CAL, named="Mozilla")
    assert both.score == pytest.approx(2 / 3) and both.missing == ["reinstated"]


def test_words_of_the_quotes_sentence_count_half():
    claim = "Refunds are paid by bank transfer within a week."
    quote = "paid by bank transfer"
    sentence = "Refunds are paid by bank transfer within a week."
    plain = check_support(claim, [quote], mode=CAL)
    assert plain.score == pytest.approx(3 / 5) and plain.missing == ["refunds", "week"]
    got = check_support(claim, [quote], mode=CAL, around=[sentence])
    assert got.score == pytest.approx((3 + 0.5 * 2) / 5) and got.missing == []
    # words from another sentence of the chunk are not beside the quote: nothing changes
    other = check_support(claim, [quote], mode=CAL, around=["Returns are inspected at the Leeds depot."])
    assert other.score == plain.score and other.missing == plain.missing
    # the seed rule reads the quotes alone
    seed = check_support(claim, [quote], mode="seed", around=[sentence])
    assert seed.score == check_support(claim, [quote], mode="seed").score
    # a word the sentence holds but the claim lacks changes nothing; names and sentence together
    both = check_support("Mozilla refunds are paid by bank transfer", [quote], mode=CAL, named="Mozilla",
                         around=[sentence])
    assert both.score == pytest.approx((3 + 0.5) / 4) and both.missing == []


def test_negators_are_one_word_for_the_calibrated_score():
    # a claim's "not" is backed by its quote's "no" or "without"; the seed rule reads them apart
    got = check_support("Refunds are not given after 30 days", ["No refunds are given after 30 days"], mode=CAL)
    assert got.score == 1.0 and got.missing == []
    assert "not" in check_support("Refunds are not given after 30 days", ["No refunds are given after 30 days"],
                                  mode="seed").missing
    got = check_support("It ships with no warranty", ["It ships without any warranty"], mode=CAL)
    assert got.missing == []
    # a negation the quote does not have is still missing
    assert check_support("Refunds are not given", ["Refunds are given"], mode=CAL).missing == ["not"]


@pytest.mark.parametrize("text,words", [
    ("90 km/h", ["90", "kilometr", "hour"]), ("90km/h", ["90", "kilometr", "hour"]), ("5 kg", ["5", "kilogram"]),
    ("10 Gbps", ["10", "gigabit", "second"]), ("in the 1990s", ["in", "the", "1990", "s"]),  # no unit there
    ("5 m", ["5", "m"]),  # a one-letter unit stays as written: it may be millions
])
def test_units_written_short_are_spelled_out(text, words):
    assert keys(text, CAL) == words
    assert "kilometr" not in keys("90 km/h", "seed")
