"""The check (SPEC section 4): a claim's content tokens against its quotes' keys.

A claim is supported when enough of its distinct content tokens appear among
the tokens of its resolved quotes, taken together, and every number it states
appears in at least one quote (the number rule).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import modes, names
from .chunks import E_OPENING, E_TRAIL_END, Entry, Expanded, Simple
from .modes import DEFAULT_MODE, MODE_RULES, rules_of
from .text import ALL_SIMPLE, FIXED, clear_chunk_caches, entries_of, tokens_of
from .tokenise import T_ALTS, T_CONTENT, T_EXACT, T_KEY, T_NUMBER, T_OFFERS, T_TEXT, T_WEIGHT, Tok


@dataclass(frozen=True, slots=True)
class SupportResult:
    score: float | None  # None when there are no quotes
    passed: bool  # score >= threshold and the number rule holds
    missing: list[str]  # claim content tokens found in no quote (display form, claim order)
    numbers_missing: list[str]  # claim numbers found in no quote, as written in the claim
    quote_numbers: list[str]  # numbers found in the quotes, as written
    # the rule "names" (names.py): (the claim's name, the quote's name it stands in place of), which
    # fails the check whatever the score; None when the claim names what its quotes name
    displaced: tuple[str, str] | None = None


# --------------------------------------------------------------------------
# Analysis of one text, as a claim and as a quote. Each is made once per text
# and mode and kept (_Memo). Like tokens, the analyses are plain tuples, of
# tuples, strings, numbers and dicts of strings, which the garbage collector
# does not track (tokenise.py says why); check_support unpacks them by name.

# What the check needs of a claim: (items, total, exact, numbers, heavy_keys, heavy_weight).
#   items: its distinct content tokens in order of first appearance, each with
#     its first display and alts and its highest weight;
#   total: the sum of their weights;
#   exact: every weight is whole and no item has alts, so that any sum of
#     weights is exact in any order;
#   numbers: the items that are numbers (a number is never a stopword, and no
#     word has a number's key);
#   heavy_keys: when exact, the keys of the items of weight heavy_weight (the
#     others weigh 1); heavy_weight: modes.WEIGHT when the analysis was made.
ClaimContent = tuple

# What the check needs of a quote: (keys, number_keys, numbers).
#   keys: every key it offers, stopwords included; number_keys: every number
#     key it offers; both dicts (key: None): a dict of strings is not tracked
#     by the garbage collector, a set is;
#   numbers: {number key: as first written}, in order.
QuoteKeys = tuple


def _claim(text: str, rules: frozenset[str]) -> ClaimContent:
    return claim_content(*entries_of(text, rules), rules)


def _quote(text: str, rules: frozenset[str]) -> QuoteKeys:
    return quote_keys(*entries_of(text, rules), rules)


def _cited(text: str, rules: frozenset[str]) -> QuoteKeys:
    """A cited quote's keys, first met: with the rule `names`, the quote is
    read for that rule too (names.prepare), whatever this check needs, so a
    claim typed later against it reads only itself."""
    if "names" in rules:
        names.prepare(text)
    return _quote(text, rules)


# A text's entries are read by the quickest way their kind allows; any kind
# may be read the slower ways (CROSSING: through its tokens), to the same result.


def claim_content(entries: list[Entry], kind: int, rules: frozenset[str]) -> ClaimContent:
    items: list[Tok] = []
    if kind == ALL_SIMPLE:
        pending = True  # as in _join: the first token opens a sentence
        for e in entries:
            if pending and e[E_OPENING] is not None:
                e = e[E_OPENING]
            if e[T_CONTENT]:
                items.append(e)
            pending = e[E_TRAIL_END]
    elif kind == FIXED:
        _content_tokens(entries, items, True)
    else:
        items = [t for t in tokens_of(entries, rules)[0] if t[T_CONTENT]]
    content = {item[T_KEY]: item for item in items}
    if len(content) < len(items):
        # A key comes again: its first token counts, at its highest weight.
        content = {}
        for item in items:
            seen = content.get(item[T_KEY])
            if seen is None:
                content[item[T_KEY]] = item
            elif item[T_WEIGHT] > seen[T_WEIGHT]:
                exact = seen[T_EXACT] and item[T_EXACT]
                content[item[T_KEY]] = seen[:T_WEIGHT] + (item[T_WEIGHT],) + seen[T_ALTS:T_CONTENT] + (True, exact)
    items = list(content.values())
    numbers = tuple([item for item in items if item[T_NUMBER]])
    if kind == ALL_SIMPLE or all([item[T_EXACT] for item in items]):  # simple chunks have only exact tokens
        # Every weight is whole and is 1 or modes.WEIGHT (the rule "weight"): the
        # total, and later the found weight, are counted exactly.
        heavy_keys = tuple([item[T_KEY] for item in items if item[T_WEIGHT] != 1.0]) if "weight" in rules else ()
        total = (len(items) - len(heavy_keys)) + len(heavy_keys) * modes.WEIGHT
        return tuple(items), float(total), True, numbers, heavy_keys, modes.WEIGHT
    total = 0.0
    for item in items:
        total += item[T_WEIGHT]
    return tuple(items), total, False, numbers, (), modes.WEIGHT


def quote_keys(entries: list[Entry], kind: int, rules: frozenset[str]) -> QuoteKeys:
    numbers: dict[str, str] = {}
    if kind == ALL_SIMPLE:
        keys = {e[T_KEY]: None for e in entries}  # a simple token has no offers
        for e in entries:
            if e[T_NUMBER] and e[T_KEY] not in numbers:
                numbers[e[T_KEY]] = e[T_TEXT]
        return keys, numbers, numbers
    if kind == FIXED:
        keys = {}
        _keys(entries, keys, numbers)
        return keys, numbers, numbers
    toks, offers = tokens_of(entries, rules)
    key_set = {t[T_KEY] for t in toks}
    number_keys: set[str] = set()
    for t in toks:
        if offers:
            key_set.update(t[T_OFFERS])
        if t[T_NUMBER]:
            if t[T_KEY] not in numbers:
                numbers[t[T_KEY]] = t[T_TEXT]
            number_keys.add(t[T_KEY])
            number_keys.update(t[T_OFFERS])
    return dict.fromkeys(key_set), dict.fromkeys(number_keys), numbers


# When no token changes with what surrounds it (FIXED), a claim's content
# tokens and a quote's keys are read off the entries as in _join.


def _content_tokens(entries: Sequence[Entry], items: list[Tok], pending: bool) -> bool:
    for e in entries:
        if type(e) is Simple:
            if pending and e[E_OPENING] is not None:
                e = e[E_OPENING]
            if e[T_CONTENT]:
                items.append(e)
            pending = e[E_TRAIL_END]
        elif type(e) is Expanded:
            pending = _content_tokens(e.parts, items, pending)
        elif e.opened:
            items += [t for t in (e.opened if pending else e.closed) if t[T_CONTENT]]
            pending = e.trail_end
        else:  # no tokens
            pending = pending or e.trail_end
    return pending


def _keys(entries: Sequence[Entry], keys: dict[str, None], numbers: dict[str, str]) -> None:
    for e in entries:
        if type(e) is Simple:
            keys[e[T_KEY]] = None
            if e[T_NUMBER] and e[T_KEY] not in numbers:
                numbers[e[T_KEY]] = e[T_TEXT]
        elif type(e) is Expanded:
            _keys(e.parts, keys, numbers)
        else:
            for t in e.closed:  # whether a token opens a sentence changes only its weight
                keys[t[T_KEY]] = None
                if t[T_OFFERS]:
                    keys.update(dict.fromkeys(t[T_OFFERS]))
                if t[T_NUMBER] and t[T_KEY] not in numbers:
                    numbers[t[T_KEY]] = t[T_TEXT]


_MEMO = 8192


class _Memo:
    """The analyses of the last _MEMO texts of one kind (claims, quotes, other texts) in
    one mode, kept in two generations: a text is looked up in the young one,
    then in the old one (and moved to the young one); when the young one is
    full it becomes the old one."""

    __slots__ = ("young", "old", "analyse", "rules")

    def __init__(self, analyse: Callable[[str, frozenset[str]], Any], rules: frozenset[str]) -> None:
        self.young: dict[str, Any] = {}
        self.old: dict[str, Any] = {}
        self.analyse = analyse
        self.rules = rules

    def miss(self, text: str) -> Any:  # the analysis `analyse` makes (a claim's or a quote's)
        """The analysis of a text not in the young generation: from the old one, or made."""
        result = self.old.get(text)
        if result is None:
            result = self.analyse(text, self.rules)
        young = self.young
        young[text] = result
        if len(young) >= _MEMO:
            self.young, self.old = {}, young
        return result


class _State:
    """A mode's kept analyses, valid for its rules and the WEIGHT they were made with."""

    __slots__ = ("rules", "weight", "claims", "quotes", "texts")

    def __init__(self, mode: str) -> None:
        self.rules = rules_of(mode)  # raises ValueError for an unknown mode
        self.weight = modes.WEIGHT
        self.claims = _Memo(_claim, self.rules)
        self.quotes = _Memo(_cited, self.rules)  # the cited quotes
        self.texts = _Memo(_quote, self.rules)  # the sources' titles and the sentences around quotes


_STATES: dict[str, _State] = {}


def clear_caches() -> None:
    """Forget every analysis and every chunk's entry (the bench does, after setting modes.WEIGHT)."""
    _STATES.clear()
    clear_chunk_caches()


# --------------------------------------------------------------------------
# The check


def check_support(
    claim: str,
    quotes: Sequence[str],
    *,
    threshold: float = 0.5,
    mode: str = DEFAULT_MODE,
    named: str = "",
    around: Sequence[str] = (),
) -> SupportResult:
    """Score ``claim`` against its resolved ``quotes``, taken together.

    No quotes: nothing to check, score None, not passed. A claim without
    content tokens (only stopwords, or empty) scores 1.0: it asserts nothing
    the quotes could fail to back, and the citation checks still apply to it.

    ``named``: the titles of the cited sources (the rule ``titles``). A
    claim's word that no quote holds but a title does names the document the
    citation already points to ("Under the Apache License, ..."): it is left
    out of the score, neither found nor missing.

    ``around``: the sentences of the sources that hold the quotes (the rule
    ``sentence``). A claim's word that no quote holds but the sentence around
    one does counts half: the reader finds it beside the quote, but the
    writer did not quote it. It is not missing.
    """
    state = _STATES.get(mode)
    if state is None or state.rules is not MODE_RULES.get(mode) or state.weight != modes.WEIGHT:
        state = _STATES[mode] = _State(mode)
    if not quotes:
        return SupportResult(None, False, [], [], [])
    if isinstance(quotes, str):
        quotes = [quotes]
    items, total, exact, numbers, heavy_keys, heavy_weight = state.claims.young.get(claim) or state.claims.miss(claim)
    quote_memo = state.quotes
    if len(quotes) == 1:
        quote = quotes[0]
        qkeys, quote_number_keys, qnums = quote_memo.young.get(quote) or quote_memo.miss(quote)
        quote_numbers = list(qnums.values())
    else:
        parts = [quote_memo.young.get(text) or quote_memo.miss(text) for text in quotes]
        qkeys = set().union(*(p[0] for p in parts))  # (keys, number_keys, numbers)
        quote_number_keys = set().union(*(p[1] for p in parts))
        seen: dict[str, str] = {}
        for _, _, qnums in parts:
            for key, written in qnums.items():
                seen.setdefault(key, written)
        quote_numbers = list(seen.values())

    if exact:
        # The found weight is the total less the missing weight, exactly:
        # every weight is whole, heavy_weight for heavy_keys and 1 for the others.
        missing = [item[T_TEXT] for item in items if item[T_KEY] not in qkeys]
        if missing:
            heavy = len([k for k in heavy_keys if k not in qkeys]) if heavy_keys else 0
            found = total - ((len(missing) - heavy) + heavy * heavy_weight)
        else:
            found = total
    else:
        found = 0.0
        missing = []
        for item in items:
            if item[T_KEY] in qkeys or any(k in qkeys for k in item[T_ALTS]):
                found += item[T_WEIGHT]
            else:
                missing.append(item[T_TEXT])
    if named and missing and "titles" in state.rules:
        nkeys = (state.texts.young.get(named) or state.texts.miss(named))[0]
        dropped = 0.0
        missing = []
        for item in items:
            if item[T_KEY] in qkeys or any(k in qkeys for k in item[T_ALTS]):
                continue
            if item[T_KEY] in nkeys or any(k in nkeys for k in item[T_ALTS]):
                dropped += item[T_WEIGHT]
            else:
                missing.append(item[T_TEXT])
        total -= dropped
    if around and missing and "sentence" in state.rules:
        found, missing = _beside(items, missing, around, state.texts, found)
    score = found / total if total else 1.0
    numbers_missing = [item[T_TEXT] for item in numbers if item[T_KEY] not in quote_number_keys] if numbers else []
    # SupportResult(score, passed, missing, numbers_missing, quote_numbers),
    # without the frozen dataclass's object.__setattr__ per field.
    displaced = None
    if score >= threshold and "names" in state.rules:
        displaced = _displaced(claim, tuple(quotes), named)
    result = _new_result(SupportResult)
    _set_score(result, score)
    _set_passed(result, score >= threshold and not numbers_missing and displaced is None)
    _set_missing(result, missing)
    _set_numbers_missing(result, numbers_missing)
    _set_quote_numbers(result, quote_numbers)
    _set_displaced(result, displaced)
    return result


def _beside(items: tuple, missing: list[str], around: Sequence[str], memo: Any,
            found: float) -> tuple[float, list[str]]:
    """The rule ``sentence``: the missing items the sentences ``around`` the quotes
    hold, at half their weight, and what is still missing."""
    akeys: set[str] = set()
    for text in around:
        akeys.update((memo.young.get(text) or memo.miss(text))[0])
    wanted = set(missing)
    left: list[str] = []
    for item in items:
        if item[T_TEXT] not in wanted:
            continue
        if item[T_KEY] in akeys or any(k in akeys for k in item[T_ALTS]):
            found += SENTENCE_SHARE * item[T_WEIGHT]
        else:
            left.append(item[T_TEXT])
    return found, left


# What a word the quote's sentence holds, but not the quote, counts for (the
# rule "sentence"): half, not fitted; bench/meaning_eval.py shows 0.75 and 1 do
# the same on the meaning set.
SENTENCE_SHARE = 0.5

_displaced = lru_cache(maxsize=16384)(names.in_place)
_new_result = object.__new__
_set_score, _set_passed, _set_missing, _set_numbers_missing, _set_quote_numbers, _set_displaced = (
    SupportResult.__dict__[f].__set__ for f in SupportResult.__slots__
)
