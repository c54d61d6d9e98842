"""The lexical support check (SPEC section 4).

A claim is supported when enough of its distinct content tokens appear among
the tokens of its resolved quotes, taken together, and every number it states
appears in at least one quote (the number rule). A mode adds rules to the
SPEC's seed tokenisation (modes.py; docs/support.md has each rule's effect).

The modules, each readable alone, in the order a text goes through them:

- ``words``: number words, negations, months, scale words, stopwords;
- ``modes``: the rules, the modes made of them, and the weight of names;
- ``numbers``: the number pattern and a numeral's canonical key;
- ``stemming``: Porter's stemmer and the light one;
- ``tokenise``: the tokens of one whitespace-free chunk, by the token pattern;
- ``chunks``: a chunk read once into a kept entry, common chunks without the pattern;
- ``text``: a text's entries and tokens, with what crosses chunks;
- ``scoring``: a claim's content against its quotes' keys, ``check_support``;
- ``names``: the rule ``names``, a claim's name in the place of the quote's.
"""

from __future__ import annotations

from .modes import DEFAULT_MODE, MODE_RULES, MODES, RULES, register_mode
from .numbers import number_key
from .scoring import SupportResult, check_support, clear_caches
from .stemming import light_stem, stem
from .text import tokens
from .tokenise import Token
from .words import NEGATIONS, NUMBER_WORDS, STOPWORDS

__all__ = [
    "DEFAULT_MODE",
    "MODES",
    "RULES",
    "STOPWORDS",
    "SupportResult",
    "Token",
    "check_support",
    "number_key",
    "stem",
    "tokens",
    # kept for callers that reach the modules' names through the package
    "MODE_RULES",
    "NEGATIONS",
    "NUMBER_WORDS",
    "clear_caches",
    "light_stem",
    "register_mode",
]
