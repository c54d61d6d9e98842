"""The calibrated mode's rule `names` (cairn/support/names.py): a claim that puts
one name where its quote, around the same words, has another fails the check."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cairn.support import check_support, name_words, names
from cairn.support.names import displaced, in_place, swapped


@pytest.mark.parametrize("claim,quote,pair", [
    ("timeout now supports sub-second timeouts on Solaris.", "timeout now supports sub-second timeouts on macOS.",
     ("Solaris", "macOS")),
    ("To detect this change, search for 'nocomment' in the .VARIABLES variable.",
     "To detect this change search for 'nocomment' in the .FEATURES variable.", (".VARIABLES", ".FEATURES")),
    # a word no dictionary holds counts as a name beside one spelled as a name
    ("dbus's new auth_timeout limit defaults to 150 seconds.",
     "a new configurable limit, pending_fd_timeout (defaulting to 150 seconds)", ("auth_timeout", "configurable")),
    # a name elsewhere than between shared words is left to the score
    ("Solaris gained sub-second timeouts.", "timeout now supports sub-second timeouts on macOS.", None),
    ("The depot in Leeds opened in May.", "The depot in York opened in May.", ("Leeds", "York")),
    # the claim's last word against a name the quote goes on from with a phrase of its own
    ("The treaty was signed in London.", "The treaty was signed in Paris in 1783.", ("London", "Paris")),
    ("The treaty was signed in Paris.", "The treaty was signed in Paris in 1783.", None),
    # words between quotation marks (or backticks) on both sides are the very words used: literals
    ('The field "summary" holds the abstract.', 'The field "title" holds the abstract.', ("summary", "title")),
    ("Set `retries` to zero to fail at once.", "Set `timeout` to zero to fail at once.", ("retries", "timeout")),
    ("\u201cmilder\u201d winters were reported there", "\u201cwetter\u201d winters were reported there", ("milder", "wetter")),
    # runs of different lengths: the words next to the same shared words, when spelled as names
    ("rsync's -z flag now compresses the stream.", "The -c flag now compresses the stream.", ("-z", "-c")),
    ("mount now recognises the squashfs file system layout.", 'mount now recognises the "nilfs" and "zonefs" file system layout.',
     ("squashfs", "nilfs")),
    # two compounds that differ in a part each writes as a name are two names
    ("The X-Men film opened in May.", "The X-Files film opened in May.", ("X-Men", "X-Files")),
])
def test_a_name_in_place_of_another(claim, quote, pair):
    assert displaced(claim, [quote]) == pair


@pytest.mark.parametrize("claim,quote", [
    # ordinary words differ by paraphrase: left to the score
    ("On macOS, cp makes a copy-on-write clone", "On macOS, cp creates a copy-on-write clone"),
    ("sort now supports printing the value", "printf now supports printing the value"),  # "sort" is a word
    # a capital opening a sentence is not a name
    ("Refunds are given within 30 days.", "Payments are given within 30 days."),
    # the same name written with or without a hyphen
    ("the co-operation agreement was signed", "the cooperation agreement was signed"),
    # two words no dictionary holds, neither spelled as a name: newer words, not surely names
    ("the timeout is configurable", "the timeout is customisable"),
    # numbers are the quantity rule's
    ("grep 3.8 now warns", "grep 3.7 now warns"),
    # one side quoted, the other not: a quotation mark alone does not make an ordinary word a name
    ('The mode "strict" rejects it.', "The mode lenient rejects it."),
    # runs of different lengths: a capital alone is not enough (a title, a role, a pronoun stand for names)
    ("Obama signed the bill into law.", "The President signed the bill into law."),
    # an inflected dictionary word is an ordinary word, not a name (`applies`, `introducing`)
    ("The waiver applies for the longest duration the law provides.",
     "(ii) for the maximum duration provided by applicable law"),
    ("while he was introducing the band", 'the comedian said "No. The band" as he introduced the band'),
    # a name the quote holds anywhere is not replaced by anything
    ("Solaris and macOS now support it", "macOS and Solaris now support it"),
    # a hyphenated compound the quote writes open or solid is the same word
    ("The tool was written to be a POSIX-compliant processor with extensions.",
     "This version was written to be a POSIX compliant bc processor with several extensions."),
    # a compound adjective that describes in other words (one part a common word in lower case) names nothing
    ("It offers AI-based tools for firms.", "It offers AI-Powered tools for firms."),
    ("It offers AI-Powered tools for firms.", "It offers AI-assisted tools for firms."),
])
def test_no_name_displaced(claim, quote):
    assert displaced(claim, [quote]) is None


def test_a_name_the_cited_source_names_may_stand_for_the_quotes_word():
    claim, quote = "Under this licence the Mozilla terms apply to you", "Under this licence the Contributor terms apply to you"
    assert displaced(claim, [quote]) == ("Mozilla", "Contributor")
    assert displaced(claim, [quote], named="MPL-2.0\nMozilla Public License Version 2.0") is None


def test_the_calibrated_check_fails_and_the_seed_rule_does_not():
    claim, quote = "timeout now supports sub-second timeouts on Solaris.", "timeout now supports sub-second timeouts on macOS."
    cal = check_support(claim, [quote], mode="calibrated")
    assert cal.score is not None and cal.score >= 0.5
    assert not cal.passed and cal.displaced == ("Solaris", "macOS")
    seed = check_support(claim, [quote], mode="seed")
    assert seed.passed and seed.displaced is None


@pytest.mark.parametrize("claim,quote,pair", [
    ("In tar, --keep now overrides --overwrite.", "tar: --overwrite now overrides --keep, as documented.",
     ("--keep now overrides --overwrite", "--overwrite now overrides --keep")),
    ("Traffic is redirected from ftp-to-sftp.", "Traffic is redirected from sftp-to-ftp.", ("ftp-to-sftp", "sftp-to-ftp")),
    ("PostgreSQL outperformed MySQL in the test.", "In the test MySQL outperformed PostgreSQL.",
     ("PostgreSQL outperformed MySQL", "MySQL outperformed PostgreSQL")),
    # the option's case is part of its name: -r is not -R
    ("Here -r now implies -R.", "Here -R now implies -r.", ("-r now implies -R", "-R now implies -r")),
])
def test_two_names_the_other_way_round(claim, quote, pair):
    assert swapped(claim, [quote]) == pair
    assert in_place(claim, [quote]) == pair


@pytest.mark.parametrize("claim,quote", [
    # the passive swaps the roles back
    ("MySQL was outperformed by PostgreSQL.", "PostgreSQL outperformed MySQL."),
    ("find -perm /MODE is no longer disabled by POSIXLY_CORRECT.", "POSIXLY_CORRECT no longer disables find -perm /MODE."),
    # words that join without order
    ("It runs on Linux and FreeBSD.", "It runs on FreeBSD and Linux."),
    ("a match between Kasparov and Karpov", "a match between Karpov and Kasparov"),
    # the quote says it both ways round, so also the claim's way
    ("--keep overrides --overwrite", "--overwrite overrides --keep unless --keep overrides --overwrite"),
    # the same order
    ("PostgreSQL outperformed MySQL.", "In 2020 PostgreSQL outperformed MySQL again."),
    # ordinary words are not names: the order of "client" and "server" is the score's and the reader's
    ("data flows from the client to the server", "data flows from the server to the client"),
    # too far apart to be one relation
    ("PostgreSQL, which is older than many of the other databases in the survey, beat MySQL.",
     "MySQL, which is older than many of the other databases in the survey, beat PostgreSQL."),
])
def test_names_in_the_same_roles(claim, quote):
    assert swapped(claim, [quote]) is None


# The order test reads a text chunk by chunk (runs between white space), each chunk once: held to one pass.
_PIECES = st.sampled_from(["-a", "-A", "--sort", "http-to-https", ".FEATURES", "x.y", "u+w", "a/b", "now", "overrides",
                           "é", "_", "-", "--", ".", ",", "(-E)", "'-P'", "\"q\"", "x86", "3.8", "Zürich", "-é"])
_GAPS = st.sampled_from([" ", "  ", "\t", "\n", "\u00a0", "\u2003", "", "."])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(st.tuples(_PIECES, _GAPS), max_size=14).map(lambda ps: "".join(p + g for p, g in ps)),
                 st.text(max_size=50)))
def test_the_order_tests_words_read_chunk_by_chunk_are_those_of_one_pass(text):
    assert names._parts.__wrapped__(text) == names._parts_plain(text)


# The alignment's words are read chunk by chunk too (the quotation marks and full stops carried
# over from chunk to chunk): held to one pass.
_MARKS = st.sampled_from(["\"", "`", "\u201c", "\u201d", "\u201cSolaris\u201d", "`-E`", "say \"x\".", "end.", "a:b", "?"])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(st.tuples(st.one_of(_PIECES, _MARKS), _GAPS), max_size=14).map(
    lambda ps: "".join(p + g for p, g in ps)), st.text(max_size=50)))
def test_the_alignments_words_read_chunk_by_chunk_are_those_of_one_pass(text):
    assert name_words._tokens.__wrapped__(text) == name_words._tokens_plain(text)


_NAMEY = st.sampled_from([
    "timeout", "now", "supports", "sub-second", "timeouts", "on", "macOS", "Solaris", "Leeds", "York", "the",
    "depot", "in", "opened", "May", "auth_timeout", ".FEATURES", ".VARIABLES", "-E", "-P", "u+w", "printf", "sort",
    "btrfs", "configurable", "co-operation", "cooperation", "3.8", "grep", "a", "of", "Paris", "GPL", "option",
    "grep's", "`-E`", "\"nocomment\"", "'x'", ".", ":", ",", "Zürich", "and", "is", "overrides", "-a", "-A",
])


@st.composite
def _claim_and_quotes(draw):
    """One to three quotes, and a claim made from the first with words replaced,
    dropped or added (so that the alignment has work), or any text."""
    quotes = draw(st.lists(st.lists(_NAMEY, max_size=14).map(" ".join), min_size=1, max_size=3))
    words = quotes[0].split()
    if words and draw(st.booleans()):
        for _ in range(draw(st.integers(1, 3))):
            k = draw(st.integers(0, len(words) - 1))
            edit = draw(st.sampled_from(["replace", "drop", "add"]))
            if edit == "replace":
                words[k] = draw(_NAMEY)
            elif edit == "drop" and len(words) > 1:
                del words[k]
            else:
                words.insert(k, draw(_NAMEY))
        return " ".join(words), quotes
    return draw(st.lists(_NAMEY, max_size=14).map(" ".join)), quotes


@settings(max_examples=600, deadline=None)
@given(_claim_and_quotes(), st.sampled_from(["", "MPL-2.0\nMozilla Public License", "York", "macOS"]))
def test_the_test_that_spares_an_alignment_hides_no_name(pair, named):
    claim, quotes = pair
    assert displaced(claim, quotes, named) == displaced(claim, quotes, named, plain=True)


_SWAPPABLE = st.sampled_from(["-a", "-A", "--sort", ".FEATURES", "macOS", "Solaris", "printf", "PostgreSQL", "MySQL"])


@st.composite
def _swapped_pair(draw):
    """A quote where a name bears a relation to another, and a claim made from it
    with the two exchanged (a swap to find) and perhaps more words changed."""
    before = draw(st.lists(st.one_of(_NAMEY, _PIECES), max_size=4))
    after = draw(st.lists(st.one_of(_NAMEY, _PIECES), max_size=4))
    rel = draw(st.lists(st.sampled_from(["now", "overrides", "beat", "outperformed", "and", "by", "the"]),
                        min_size=1, max_size=3))
    a, b = draw(_SWAPPABLE), draw(_SWAPPABLE)
    quote = " ".join([*before, a, *rel, b, *after])
    words = [*before, b, *rel, a, *after]
    if draw(st.booleans()):
        words[draw(st.integers(0, len(words) - 1))] = draw(st.one_of(_NAMEY, _PIECES))
    return " ".join(words), [quote]


@settings(max_examples=600, deadline=None)
@given(st.one_of(_claim_and_quotes(), _swapped_pair(),
                 st.tuples(st.lists(st.tuples(_PIECES, _GAPS), max_size=14).map(lambda ps: "".join(p + g for p, g in ps)),
                           st.lists(st.lists(_PIECES, max_size=14).map(" ".join), min_size=1, max_size=2))))
def test_the_test_that_spares_most_claims_the_order_test_hides_no_swap(pair):
    claim, quotes = pair
    assert swapped(claim, quotes) == swapped(claim, quotes, plain=True)


# displaced() skips a claim whose every possible name the quotes hold, reading its words chunk by chunk
_QUOTING = st.sampled_from(["\"", "`", "\u201c", "\u201d", "'", "“Solaris”", "`-E`", "say \"x\""])


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(st.one_of(_NAMEY, _PIECES, _QUOTING), _GAPS), max_size=14).map(
           lambda ps: "".join(p + g for p, g in ps)),
       st.lists(st.lists(st.one_of(_NAMEY, _PIECES), max_size=14).map(" ".join), min_size=1, max_size=2),
       st.sampled_from(["", "York", "macOS"]))
def test_the_test_that_spares_most_claims_hides_no_name(claim, quotes, named):
    assert displaced(claim, quotes, named) == displaced(claim, quotes, named, plain=True)


@pytest.mark.parametrize("claim,quote", [
    ("The road speed limit is 50 km/h.", "In towns the speed limit is 50 kilometres per hour."),
    ("The link runs at 10 Gbps.", "The link runs at 10 Gbit/s."),
    ("The pump moves 5 litres per minute.", "The pump moves 5 L/min."),
])
def test_a_unit_is_not_a_name(claim, quote):
    """Units are the quantity rule's (`km/h` = `kilometres per hour`, `mph` is not `km/h`): not names here."""
    assert in_place(claim, [quote]) is None


@pytest.mark.parametrize("claim,quote,pair", [
    ("The second edition appeared in 1851.", "The first edition was published in 1851.", ("second", "first")),
    ("Sales doubled in the second quarter.", "Sales doubled in the third quarter.", ("second", "third")),
    ("The team won the cup twice in a row.", "The team won the cup thrice in a row.", ("twice", "thrice")),
    ("The population doubled in ten years.", "The population grew twice in ten years.", None),  # the same number
    ("The first step is to log in.", "The initial step is to log in.", None),  # a count word for an ordinary word
])
def test_a_count_word_in_place_of_another(claim, quote, pair):
    assert in_place(claim, [quote]) == pair


def test_a_cited_quote_is_read_for_the_names_rule_even_when_the_score_fails():
    """The claim below scores under the threshold, so the names rule never
    runs for it; its quote is read for the rule all the same when first met."""
    from cairn.support import names, scoring

    quote = "This release fixes timeouts on macOS when the server restarts (prepare test)."
    scoring.check_support("Bananas are yellow.", [quote], mode="calibrated")
    before = names._places.cache_info().hits
    names._places(quote)
    assert names._places.cache_info().hits == before + 1
    got = scoring.check_support("This release fixes timeouts on Solaris when the server restarts.", [quote],
                                mode="calibrated")
    assert got.displaced == ("Solaris", "macOS")


# displaced() reads a claim chunk by chunk first (_unheld): its words are those of one pass, and without
# a quotation mark its places hold every candidate the whole reading finds
@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.one_of(_NAMEY, _PIECES, _MARKS), _GAPS), max_size=14).map(
           lambda ps: "".join(p + g for p, g in ps)),
       st.sampled_from(["", "solaris", "macos york", "-e .features"]))
def test_the_claims_words_read_chunk_by_chunk_hold_every_candidate(claim, held):
    ctoks = name_words._tokens_plain(claim)
    a, found, marks = names._unheld(claim, held)
    assert a == [w.text.lower() for w in ctoks]
    assert marks == any(c in claim for c in "\"`\u201c\u201d")
    if not marks:
        assert set(found) >= {i for i, w in enumerate(ctoks) if name_words._candidate(w.text, w.opens)
                              and not names._is_held(w.text.lower(), held)}


# swapped() reads a claim's names chunk by chunk (_claim_names): the same words, keys and names as one pass
@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.one_of(_SWAPPABLE, _PIECES, _NAMEY), _GAPS), max_size=14).map(
           lambda ps: "".join(p + g for p, g in ps)),
       st.lists(st.one_of(_SWAPPABLE, _PIECES), max_size=6).map(frozenset))
def test_the_claims_names_read_chunk_by_chunk_are_those_of_one_pass(claim, held):
    whole = names._parts_plain(claim)
    words, keys, at = names._claim_names(claim, held)
    assert (words, keys) == (list(whole.words), list(whole.keys))
    assert at == [i for i, (w, k) in enumerate(zip(whole.words, whole.keys)) if k in held and whole.keys.count(k) == 1
                  and w.lower() not in names.STOPWORDS and not name_words._DIGIT.search(w) and names._name_word(w)]


# _may_stand lets through only a name with two shared words before it, two after it or one on each side:
# a few words, often repeated, make alignments where those runs are short and ambiguous
_FEW = st.sampled_from(["a", "b", "the", "on", "-E", "-P", "macOS", "Solaris", "Leeds", "York", "twice", "thrice",
                        "`x`", "\"y\"", "."])


@settings(max_examples=1000, deadline=None)
@given(st.lists(_FEW, max_size=10).map(" ".join), st.lists(st.lists(_FEW, max_size=10).map(" ".join), min_size=1,
                                                           max_size=2))
def test_the_test_that_spares_an_alignment_hides_no_name_among_repeated_words(claim, quotes):
    assert displaced(claim, quotes) == displaced(claim, quotes, plain=True)
