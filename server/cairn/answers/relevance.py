"""Whether a passage is about a claim or a question (SPEC section 6: `cite --for`, `ask`).

A passage is offered only when it holds the claim's key terms: its content
words (the stopwords and a question's own wording left out), numbers and
names, each weighted by how rare it is in the workspace's own sources (the
inverse document frequency over the current chunks the principal may read;
a word no source holds weighs most). A passage's relevance is the weighted
share of those terms it holds, read with the words of its source's name (a
passage of `sources/GPL-3` is about "GPL"); it is relevant from RELEVANT on.
A name the claim gives (a word no English dictionary holds, or one written
with a capital inside: `libffi`, `zlib`, `GPL`) must be there too: a passage
lacking one counts half, so "zlib is completely thread safe" is no passage
about libffi however many other words it shares.

"What is the capital of France?" against licence texts: "capital" is in a
zlib changelog line, "France" in no source, so no passage holds half of what
the question weighs, and nothing answers it.

Words are compared by their stems (support.stem), so "grants" finds "grant".
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..index.retrieval import SPELLING as _SPELLING
from ..index.retrieval import variants
from ..support import STOPWORDS, stem
from ..support.words import MONTH_ABBR

if TYPE_CHECKING:
    from ..store import IndexStore

__all__ = ["RELEVANT", "Terms", "content_words", "key_terms", "term_keys", "variants", "words_of"]

RELEVANT = 0.6  # the weighted share of a claim's key terms a passage must hold to be about it
# a dotted number (`1.2.13`, `1.2.11.1`, `2.5`) is one term: the parts of a version are no terms apart,
# so that a passage about 1.2.3.6 is not about 1.2.6.1 by holding 1, 2 and 6
_WORD = re.compile(r"\d+(?:\.\d+)+|[^\W_]+")
# words a question or a claim is phrased with, which say nothing of what it is about
_PHRASING = frozenset("""
    many much long often exactly say says said mean means meant tell tells please explain describe
    happen happens happened possible need needs give gives show shows get gets got make makes kind
    one ones thing things way ways called take takes took taken
""".split())


def words_of(text: str) -> list[str]:
    """The text's words, lower case, as the full-text index cuts them."""
    return [w.lower() for w in _WORD.findall(text)]


@lru_cache(maxsize=65536)
def _key(word: str) -> str:
    """A word as terms are compared: a number as written (leading zeros dropped), a month's
    short name as its name ("Oct" is "October"), any other word by its stem."""
    if word.isdigit():
        return word.lstrip("0") or "0"
    if word[0].isdigit() and "." in word:
        return _dotted(word)
    return stem(_SPELLING.get(word, MONTH_ABBR.get(word, word)))


def _chunks_holding(store: IndexStore, dotted: str, readable: Sequence[str] | None) -> int:
    """How many current chunks hold a dotted number as written (up to the store's cap): the
    full-text index cuts `1.2.13` into 1, 2 and 13, each far commoner than the version."""
    from ..index.retrieval import as_written

    exact = as_written(dotted)
    found = store.search_words(dotted.split("."), limit=store.WORD_COUNT_CAP * 2, readable=readable)
    return min(store.WORD_COUNT_CAP, sum(1 for ch in found if exact.search(ch.text)))


def _dotted(word: str) -> str:
    """A dotted number as a term: each part without its leading zeros, the zero parts at its end
    dropped (`14.0` is 14, `1.2.0` is 1.2; `1.10` stays 1.10, a release, not 1.1)."""
    parts = [p.lstrip("0") or "0" for p in word.split(".")]
    while len(parts) > 1 and parts[-1] == "0":
        parts.pop()
    return ".".join(parts)


# British spellings the texts Cairn cites write either way ("licence" in a claim, "license" in a licence)
@dataclass(frozen=True, slots=True)
class Terms:
    """A claim's key terms (stem -> weight) and the words the store was asked about."""

    weights: dict[str, float]
    names: frozenset[str] = frozenset()  # the keys of the claim's names (see the module's text)
    shown: tuple[tuple[str, str], ...] = ()  # (key, the claim's word) for labels

    @property
    def total(self) -> float:
        return sum(self.weights.values())

    def about(self, text: str, source: str = "") -> float:
        """The weighted share (0-1) of the key terms that `text` (with its source's name) holds."""
        if not self.weights:
            return 0.0
        held = _held(text, source)
        share = sum(w for t, w in self.weights.items() if t in held) / self.total
        return share / 2 if self.names - held else share

    def names_held(self, text: str, source: str = "") -> bool:
        """Whether `text` (with its source's name) holds every name the claim gives."""
        return not self.names - _held(text, source)

    def missing(self, text: str, source: str = "") -> list[str]:
        """The key terms `text` lacks, heaviest first (for a label saying why it does not answer)."""
        held = _held(text, source)
        words = dict(self.shown)
        return [words.get(t, t) for t, _ in sorted(self.weights.items(), key=lambda x: -x[1]) if t not in held]


def term_keys(text: str) -> set[str]:
    """Every word of `text` as terms are compared (a number as written, any other word by its stem)."""
    return {_key(w) for w in words_of(text)}


def _held(text: str, source: str) -> set[str]:
    return term_keys(text) | term_keys(source.rsplit("/", 1)[-1])


def _name(word: str) -> bool:
    """A word that names a thing: in no English dictionary, or a capital inside it."""
    from ..support.name_words import _in_dictionary

    if word[0].isdigit() or len(word) < 3:  # a number, a version (`1.2.13`) or `3rd`, `x86` aside: no name
        return False
    return any(c.isupper() for c in word[1:]) or not _in_dictionary(word.lower())


def content_words(text: str) -> list[str]:
    """The words that say what a claim or question is about, once each, in order."""
    out = []
    for w in words_of(text):
        if w in STOPWORDS or w in _PHRASING or (len(w) < 2 and not w.isdigit()):
            continue
        out.append(_SPELLING.get(w, w))
    return list(dict.fromkeys(out))


def key_terms(text: str, store: IndexStore | None, readable: Sequence[str] | None = None) -> Terms:
    """The key terms of a claim or question, weighted by their rarity in the sources
    (of the `readable` sources only, when given; every word weighs alike without a store)."""
    words = content_words(text)
    if not words:
        return Terms({})
    names = frozenset(_key(w.lower()) for w in _WORD.findall(text)
                      if _SPELLING.get(w.lower(), w.lower()) in words and _name(_SPELLING.get(w.lower(), w)))
    counts: dict[str, int] = {}
    total = 1
    forms = {w: variants(w) for w in words if not (w[0].isdigit() and "." in w)}
    if store is not None:
        counts, total = store.word_counts(sorted({v for vs in forms.values() for v in vs}), readable=readable)
    weights: dict[str, float] = {}
    for w in words:
        if store is not None and w[0].isdigit() and "." in w:
            df = _chunks_holding(store, w, readable)
        else:
            df = max(counts.get(v, 0) for v in forms.get(w, [w]))  # "disclaims" is as common as "disclaimed"
        idf = math.log(1 + (total + 1) / (df + 0.5))
        k = _key(w)
        weights[k] = max(weights.get(k, 0.0), idf)
    return Terms(weights, names, tuple((_key(w), w) for w in words))
