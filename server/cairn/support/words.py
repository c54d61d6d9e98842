"""The word lists of the support check: number words, negations, months,
scale words and the stopwords (``cairn/stopwords.txt``)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

NUMBER_WORDS: dict[str, str] = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve "
        "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
TENS = {w: str(10 * i) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
NUMBER_WORDS.update(TENS)
NUMBER_WORDS.update({"hundred": "100", "thousand": "1000", "million": "1000000"})

NEGATIONS = frozenset({"not", "no", "nor", "never", "none", "neither", "nobody", "nothing", "nowhere", "cannot"})

MONTHS = "january february march april may june july august september october november december".split()
# Abbreviations are read as a month only next to a number
# ("Nov. 10", "10 Sept 2018"): "mar", "jan" and "may" are also words.
MONTH_ABBR = {m[:3]: m for m in MONTHS} | {"sept": "september"}

# The ordinal words, by the number they stand for ("twelfth" = 12).
ORDINALS = {w: i for i, w in enumerate(
    """first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth
    fifteenth sixteenth seventeenth eighteenth nineteenth twentieth""".split(), 1)}

# The scale words and their powers of ten (rule "scale").
SCALES = {"hundred": 2, "thousand": 3, "million": 6, "billion": 9, "trillion": 12}


def _load_stopwords() -> frozenset[str]:
    # The file stays at the top of the cairn package (package data "*.txt").
    text = resources.files("cairn").joinpath("stopwords.txt").read_text(encoding="utf-8")
    words = (line.strip() for line in text.splitlines())
    return frozenset(w for w in words if w and not w.startswith("#"))


STOPWORDS: frozenset[str] = _load_stopwords()


@lru_cache(maxsize=256)
def chunks(text: str) -> tuple[str, ...]:
    """The runs of a text between white space (``str.split()``), kept for the
    texts met lately. Every rule reads a claim chunk by chunk, looking each
    chunk up in what it keeps per chunk; one split serves them all, and each
    chunk's string, hashed at its first look-up, is not made and hashed again."""
    return tuple(text.split())


@lru_cache(maxsize=1)
def english_lexicon() -> frozenset[str]:
    """The words of Webster's Second International (the `english-words` package), lower case:
    what the polarity rule's prefixes and the rule `names` take for an English word."""
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["web2"], lower=True))
