"""The support check's fast paths against its plain paths (cairn/support/).

The check reads a text chunk by chunk, most chunks without the token pattern
(chunks.simple_chunk), keeps every chunk's entry and every text's analysis,
and reads most texts' content straight off their entries. Each of these is
only a quicker way to the same result; here each is compared with the plain
way on generated texts:

- a chunk read by simple_chunk against the same chunk read by the token
  pattern (chunks.scanned_chunk);
- a text's tokens, read chunk by chunk from kept entries with its expansions
  made per chunk, against the token pattern run once over the whole text
  with its expansions made on the whole text;
- a claim's content and a quote's keys read the quick way the text's kind
  allows against the same read through the text's tokens;
- check_support against a plain count over tokens(), with every cache cold
  and warm.
"""

from __future__ import annotations

import unicodedata

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cairn import support
from cairn.support import chunks, names, scoring, stemming
from cairn.support import text as support_text
from cairn.support.modes import MODE_RULES, RULES
from cairn.support.words import SCALES

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------
# Generated text: the forms the rules are about, with punctuation around them.

WORDS = [
    "the", "a", "of", "and", "not", "no", "is", "was", "it", "by", "per", "cent", "percent",
    "library", "holds", "volumes", "released", "releasing", "studies", "congratulated", "opened",
    "Paris", "Smith", "THE", "Council", "iPhone", "x", "I", "A",
]  # fmt: skip
NUMBERS = [
    "0", "7", "007", "14", "14.0", "3.14", "1,000", "1,234,567.50", "12,34", "1,0000", "3.14.15", "260,000",
    "1999", "2024", "12345678901234567890", "\u0661\u0664",
]  # fmt: skip
DATES = ["2010-09-29", "2024-03-01", "2010-13-40", "2018-19", "2018\u201319", "1999-00", "2018\u201019", "1234-56-78"]
ORDINALS = ["1st", "2nd", "3rd", "21st", "29th", "1,000th", "3th", "11TH", "4ths"]
PERCENTS = ["5%", "%", "12.5%", "100%-", "per cent", "Per  Cent", "percent"]
UNITS = ["90 km/h", "90km/h", "5 kg", "5kg.", "10 Gbps", "2 GB", "km", "kg", "3 min", "1990s", "7 L", "4 lbs,"]
COMPOUNDS = [
    "Ibero-American", "co-star", "twenty-four", "forty-two", "well-known", "x-ray", "long-term",
    "Anglo-French-German", "twenty\u2011four", "e-mail", "-", "--", "a-", "-b", "twenty-",
]  # fmt: skip
CONTRACTIONS = ["didn't", "can't", "won't", "cannot", "Cannot", "isn't", "shan\u2019t", "don\u2019t", "n't", "o'clock"]
ACCENTED = ["Hernández", "Müller", "naïve", "déjà-vu", "Straße", "ﬁve", "Ｍay", "ＡＢＣ", "Œuvre", "ガ"]
CJK = ["東京タワー", "東京2020", "ｶﾀｶﾅ", "漢字かな", "〇", "\U00020000"]
MONTHS = ["May", "may", "Sept.", "Sept", "Jan", "mar", "November", "nov."]
SCALE_WORDS = sorted(SCALES) + ["Million", "1.5 million", "4 billion", "3 hundred thousand"]
LEAD = ["", "", "", "(", '"', "\u201c", "...", "-", "'", "[", "*", "?", "!", ".", "?(", "\u00bf"]
TRAIL = ["", "", "", ".", ",", ";", ":", "!", "?", ")", '"', "\u201d", "...", ".)", "'", "-"]
GAPS = [" ", " ", " ", "  ", "\n", "\t", " \u00a0 "]

FORMS = WORDS + NUMBERS + DATES + ORDINALS + PERCENTS + UNITS + COMPOUNDS + CONTRACTIONS + ACCENTED + CJK + MONTHS


def piece(scale_words: bool) -> st.SearchStrategy[str]:
    forms = FORMS + SCALE_WORDS if scale_words else FORMS
    core = st.one_of(
        st.sampled_from(forms),
        st.lists(st.sampled_from(forms), min_size=2, max_size=3).map("".join),  # glued: "5%-", "2010-09-29th"
        st.text(st.sampled_from("aZ9.,-'%\u00e9\u6771 "), max_size=6).map(str.strip),
    )
    return st.tuples(st.sampled_from(LEAD), core, st.sampled_from(TRAIL)).map("".join)


# Chunks the fast path takes: ASCII words and numerals with ASCII punctuation around them.
SIMPLE_PIECES = st.tuples(
    st.sampled_from([x for x in LEAD if x.isascii()]),
    st.sampled_from([x for x in WORDS + NUMBERS + DATES + ORDINALS if x.isascii()]),
    st.sampled_from([x for x in TRAIL if x.isascii()]),
).map("".join)


def texts(scale_words: bool = True) -> st.SearchStrategy[str]:
    """Texts of any pieces, and texts mostly of the pieces the fast path takes."""
    return st.one_of(
        st.lists(st.tuples(piece(scale_words), st.sampled_from(GAPS)), max_size=14),
        st.lists(st.tuples(st.one_of(SIMPLE_PIECES, SIMPLE_PIECES, piece(scale_words)), st.just(" ")), max_size=14),
    ).map(lambda parts: "".join(p + g for p, g in parts).strip())


# Any set of rules, and the modes' own.
RULE_SETS = st.one_of(
    st.sampled_from([MODE_RULES["seed"], MODE_RULES["calibrated"], MODE_RULES["calibrated"] - {"stem"} | {"light_stem"}]),
    st.frozensets(st.sampled_from(sorted(RULES))),
)


# --------------------------------------------------------------------------
# A chunk: simple_chunk against the token pattern


def _chunk_as_read(chunk: str, rules: frozenset[str]) -> str:
    """The chunk as entries_of hands it on: after NFKC, and case folding for the seed rule."""
    return unicodedata.normalize("NFKC", chunk).casefold() if not rules else unicodedata.normalize("NFKC", chunk)


@SETTINGS
@given(chunk=piece(scale_words=True), rules=RULE_SETS)
def test_simple_chunk_reads_as_the_token_pattern(chunk: str, rules: frozenset[str]):
    for c in _chunk_as_read(chunk, rules).split():
        fast = chunks.simple_chunk(c, rules)
        if fast is None:
            continue  # read by the token pattern
        plain = chunks.scanned_chunk(c, rules)
        if rules:
            assert fast == plain, c
        else:  # the seed rule reads no gaps (nothing crosses chunks there)
            assert (fast.opened, fast.closed) == (plain.opened, plain.closed), c


def test_simple_chunk_takes_the_common_chunks():
    """The comparison above is not empty: these common chunks take the fast path."""
    rules = MODE_RULES["calibrated"]
    for c in ["library", "Paris,", "(1,000", "3.14.", "21st", "2010-09-29", '"2018-19",', "007", "5%"]:
        assert chunks.simple_chunk(c, rules) is not None, c
    for c in ["didn't", "co-star", "Hernández", "東京", "...", "a.b"]:
        assert chunks.simple_chunk(c, rules) is None, c


# --------------------------------------------------------------------------
# A text: kept entries, chunk by chunk, against one pass of the token pattern


def _one_pass(text: str, rules: frozenset[str]) -> list[tuple]:
    """The tokens of ``text`` by the token pattern run once over the whole
    text, its expansions made on the whole text (the plain path). Without
    scale words: joining one to the number before it is done only per text."""
    if not rules:
        text = unicodedata.normalize("NFKC", text).casefold()
        return list(chunks.scanned_chunk(text, rules).opened)
    text = support_text._expand(unicodedata.normalize("NFKC", text), rules)
    toks = list(chunks.scanned_chunk(text, rules).opened)
    if "dates" in rules:
        support_text._months(toks, stemming.stemmer_for(rules))
    return toks


def _fields(toks) -> list[tuple]:
    return [tuple(t[:8]) for t in toks]  # a Simple entry stands for its token: its first eight fields


@SETTINGS
@given(data=st.data(), rules=RULE_SETS)
def test_tokens_chunk_by_chunk_are_those_of_one_pass(data, rules: frozenset[str]):
    text = data.draw(texts(scale_words="scale" not in rules))
    fast = support_text.tokens_of(support_text.entries_of(text, rules)[0], rules)[0]
    assert _fields(fast) == _fields(_one_pass(text, rules))
    again = support_text.tokens_of(support_text.entries_of(text, rules)[0], rules)[0]  # kept entries
    assert _fields(again) == _fields(fast)


# --------------------------------------------------------------------------
# A claim's content and a quote's keys: the quick reads against the token read


@SETTINGS
@given(text=texts(), rules=RULE_SETS)
def test_quick_reads_of_entries_match_the_token_read(text: str, rules: frozenset[str]):
    entries, kind = support_text.entries_of(text, rules)
    claim = scoring.claim_content(entries, support_text.CROSSING, rules)
    quote = _quote_keys(entries, support_text.CROSSING, rules)
    for quicker in range(kind, support_text.CROSSING):  # the text's own kind, and any between
        assert scoring.claim_content(entries, quicker, rules) == claim
        assert _quote_keys(entries, quicker, rules) == quote


def _quote_keys(entries, kind: int, rules: frozenset[str]) -> tuple:
    """A quote's keys as the check reads them: the key sets as sets, the numbers in order."""
    keys, number_keys, numbers = scoring.quote_keys(entries, kind, rules)
    return set(keys), set(number_keys), list(numbers.items())


def test_texts_of_every_kind_are_generated():
    rules = MODE_RULES["calibrated"]
    kinds = {support_text.entries_of(t, rules)[1] for t in ["The library opened.", "co-star", "1.5 million"]}
    assert kinds == {support_text.ALL_SIMPLE, support_text.FIXED, support_text.CROSSING}


# --------------------------------------------------------------------------
# check_support: against a plain count over tokens(), caches cold and warm


def _plain_check(claim: str, quotes: list[str], mode: str, threshold: float = 0.5) -> tuple:
    """The SPEC's count, over tokens(): the claim's distinct content tokens
    (the first of a key, at its highest weight), found when a quote offers
    their key or an alt; every claim number found among the quotes' numbers."""
    content: dict[str, list] = {}
    for t in support.tokens(claim, mode):
        if t.stopword:
            continue
        seen = content.get(t.key)
        if seen is None:
            content[t.key] = [t, t.weight]
        else:
            seen[1] = max(seen[1], t.weight)
    keys: set[str] = set()
    number_keys: set[str] = set()
    written: dict[str, str] = {}
    for q in quotes:
        for t in support.tokens(q, mode):
            keys.add(t.key)
            keys.update(t.offers)
            if t.number:
                number_keys.add(t.key)
                number_keys.update(t.offers)
                written.setdefault(t.key, t.text)
    total = found = 0.0
    missing = []
    for t, weight in content.values():
        total += weight
        if t.key in keys or any(a in keys for a in t.alts):
            found += weight
        else:
            missing.append(t.text)
    score = found / total if total else 1.0
    numbers_missing = [t.text for t, _ in content.values() if t.number and t.key not in number_keys]
    # the rule "names" is the same function on every path (support/names.py): applied as the check applies it
    displaced = score >= threshold and "names" in support.MODE_RULES[mode] and names.displaced(claim, quotes)
    passed = score >= threshold and not numbers_missing and not displaced
    return score, passed, missing, numbers_missing, list(written.values())


def _result(r: support.SupportResult) -> tuple:
    return r.score, r.passed, r.missing, r.numbers_missing, r.quote_numbers


@SETTINGS
@given(claim=texts(), quotes=st.lists(texts(), min_size=1, max_size=3), mode=st.sampled_from(support.MODES))
def test_check_support_is_the_plain_count_cold_and_warm(claim: str, quotes: list[str], mode: str):
    warm = _result(support.check_support(claim, quotes, mode=mode))  # after earlier examples
    again = _result(support.check_support(claim, quotes, mode=mode))  # this claim and its quotes kept
    support.clear_caches()
    cold = _result(support.check_support(claim, quotes, mode=mode))
    assert warm == again == cold
    assert cold == _plain_check(claim, quotes, mode)


@SETTINGS
@given(text=st.text(alphabet=st.sampled_from(list("ab.,- \t\n\u00a0\u2009\u3000")), max_size=40))
def test_shared_chunks_are_the_split_and_kept(text: str):
    """Every rule walks a claim through words.chunks: the runs str.split() gives
    (Unicode white space included), the same tuple for the same text while kept."""
    from cairn.support.words import chunks as chunks_of

    got = chunks_of(text)
    assert got == tuple(text.split())
    assert chunks_of(text) is got
