"""The check (SPEC section 4): a claim's content tokens against its quotes' keys.

A claim is supported when enough of its distinct content tokens appear among
the tokens of its resolved quotes, taken together, and every number it states
appears in at least one quote (the number rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from . import modes
from .modes import DEFAULT_MODE, MODE_RULES, rules_of
from .text import clear_chunk_caches, entries_of, tokens_of


@dataclass(frozen=True, slots=True)
class SupportResult:
    score: float | None  # None when there are no quotes
    passed: bool  # score >= threshold and the number rule holds
    missing: list[str]  # claim content tokens found in no quote (display form, claim order)
    numbers_missing: list[str]  # claim numbers found in no quote, as written in the claim
    quote_numbers: list[str]  # numbers found in the quotes, as written


# --------------------------------------------------------------------------
# Analysis of one text. A claim's content items and a quote's keys are read
# off its tokens; the check reads a content item's key (0), display (1),
# number (2), weight (3), alts (4) and exact (7).


def _claim(text: str, rules: frozenset[str]) -> tuple:
    """What the check needs of a claim, in tuples: (content, total weight,
    exact, numbers, the keys of weight modes.WEIGHT when exact, modes.WEIGHT).

    content: its distinct content tokens in order of first appearance, each
    with its first display and alts and its highest weight; exact: all are
    exact, so that any sum of weights is exact in any order; numbers: the
    content tokens that are numbers (a number is never a stopword, and no
    word has a number's key).
    """
    entries, kind = entries_of(text, rules)
    items: list[tuple] = []
    if kind == 0:
        pending = True  # as in _join: the first token opens a sentence
        for e in entries:
            if pending and e[10] is not None:
                e = e[10]
            if e[6]:
                items.append(e)
            pending = e[8]
    elif kind == 1:
        _content_tokens(entries, items, True)
    else:
        items = [t for t in tokens_of(entries, rules)[0] if t[6]]
    content = {item[0]: item for item in items}
    if len(content) < len(items):
        # A key comes again: its first token counts, at its highest weight.
        content = {}
        for item in items:
            seen = content.get(item[0])
            if seen is None:
                content[item[0]] = item
            elif item[3] > seen[3]:
                content[item[0]] = (seen[0], seen[1], seen[2], item[3], seen[4], seen[5], True, seen[7] and item[7])
    items = list(content.values())
    if kind == 0 or all([item[7] for item in items]):  # simple chunks have only exact tokens
        # Every weight is whole and is 1 or modes.WEIGHT (the rule "weight"): the
        # total, and later the found weight, are counted exactly.
        heavy_keys = tuple([item[0] for item in items if item[3] != 1.0]) if "weight" in rules else ()
        total = (len(items) - len(heavy_keys)) + len(heavy_keys) * modes.WEIGHT
        return tuple(items), float(total), True, tuple([item for item in items if item[2]]), heavy_keys, modes.WEIGHT
    total = 0.0
    for item in items:
        total += item[3]
    return tuple(items), total, False, tuple([item for item in items if item[2]]), (), modes.WEIGHT


def _quote(text: str, rules: frozenset[str]) -> tuple:
    """What the check needs of a quote: (every key it offers, stopwords
    included; every number key it offers; {number key: as written}, in
    order). The key sets are dicts (key: None): a dict of strings is not
    tracked by the garbage collector, a set is."""
    entries, kind = entries_of(text, rules)
    numbers: dict[str, str] = {}
    if kind == 0:
        keys = {e[0]: None for e in entries}  # a simple token has no offers
        for e in entries:
            if e[2] and e[0] not in numbers:
                numbers[e[0]] = e[1]
        return keys, numbers, numbers
    if kind == 1:
        keys = {}
        _keys(entries, keys, numbers)
        return keys, numbers, numbers
    toks, offers = tokens_of(entries, rules)
    key_set = {t[0] for t in toks}
    number_keys: set[str] = set()
    for t in toks:
        if offers:
            key_set.update(t[5])
        if t[2]:
            if t[0] not in numbers:
                numbers[t[0]] = t[1]
            number_keys.add(t[0])
            number_keys.update(t[5])
    return dict.fromkeys(key_set), dict.fromkeys(number_keys), numbers


# When no token changes with what surrounds it (kind 1), a claim's content
# tokens and a quote's keys are read off the entries as in _join.


def _content_tokens(entries: tuple | list, items: list[tuple], pending: bool) -> bool:
    for e in entries:
        full = e[11]
        if full is None:  # simple
            if pending and e[10] is not None:
                e = e[10]
            if e[6]:
                items.append(e)
            pending = e[8]
            continue
        closed, opened, trail_se, _, special, _ = full
        if closed is None:  # a chunk _expand_chunk changed
            pending = _content_tokens(special, items, pending)
        elif opened:
            items += [t for t in (opened if pending else closed) if t[6]]
            pending = trail_se
        else:  # no tokens
            pending = pending or trail_se
    return pending


def _keys(entries: tuple | list, keys: dict[str, None], numbers: dict[str, str]) -> None:
    for e in entries:
        full = e[11]
        if full is None:  # simple
            keys[e[0]] = None
            if e[2] and e[0] not in numbers:
                numbers[e[0]] = e[1]
        elif full[0] is None:  # a chunk _expand_chunk changed
            _keys(full[4], keys, numbers)
        else:
            for t in full[0]:  # whether a token opens a sentence changes only its weight
                keys[t[0]] = None
                if t[5]:
                    keys.update(dict.fromkeys(t[5]))
                if t[2] and t[0] not in numbers:
                    numbers[t[0]] = t[1]


# The analyses of claims and of quotes are kept per mode, in two generations
# of _MEMO texts each: a text is looked up in the young one, then in the old
# one (and moved to the young one); when the young one is full it becomes the
# old one. So the last _MEMO texts seen are always kept.
_MEMO = 8192
# mode -> [rules, modes.WEIGHT, young claims, old claims, young quotes, old quotes]
_STATES: dict[str, list] = {}


def _state(mode: str) -> list:
    state = [rules_of(mode), modes.WEIGHT, {}, {}, {}, {}]
    _STATES[mode] = state
    return state


def _memo(state: list, young: int, text: str, analyse) -> tuple:
    """The analysis of ``text`` not found in state[young]: from the old generation, or made."""
    result = state[young + 1].get(text)
    if result is None:
        result = analyse(text, state[0])
    generation = state[young]
    generation[text] = result
    if len(generation) >= _MEMO:
        state[young], state[young + 1] = {}, generation
    return result


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
) -> SupportResult:
    """Score ``claim`` against its resolved ``quotes``, taken together.

    No quotes: nothing to check, score None, not passed. A claim without
    content tokens (only stopwords, or empty) scores 1.0: it asserts nothing
    the quotes could fail to back, and the citation checks still apply to it.
    """
    state = _STATES.get(mode)
    if state is None or state[0] is not MODE_RULES.get(mode) or state[1] != modes.WEIGHT:
        state = _state(mode)  # raises ValueError for an unknown mode
    if not quotes:
        return SupportResult(None, False, [], [], [])
    if isinstance(quotes, str):
        quotes = [quotes]
    content, total, exact, numbers, heavy_keys, heavy_weight = state[2].get(claim) or _memo(state, 2, claim, _claim)
    if len(quotes) == 1:
        quote = quotes[0]
        qkeys, quote_number_keys, qnums = state[4].get(quote) or _memo(state, 4, quote, _quote)
        quote_numbers = list(qnums.values())
    else:
        parts = [state[4].get(q) or _memo(state, 4, q, _quote) for q in quotes]
        qkeys = set().union(*(p[0] for p in parts))
        quote_number_keys = set().union(*(p[1] for p in parts))
        seen: dict[str, str] = {}
        for p in parts:
            for key, written in p[2].items():
                seen.setdefault(key, written)
        quote_numbers = list(seen.values())

    if exact:
        # The found weight is the total less the missing weight, exactly:
        # every weight is whole, heavy_weight for heavy_keys and 1 for the others.
        missing = [item[1] for item in content if item[0] not in qkeys]
        if missing:
            heavy = len([k for k in heavy_keys if k not in qkeys]) if heavy_keys else 0
            found = total - ((len(missing) - heavy) + heavy * heavy_weight)
        else:
            found = total
    else:
        found = 0.0
        missing = []
        for key, display, _, weight, alts, *_ in content:
            if key in qkeys or any(k in qkeys for k in alts):
                found += weight
            else:
                missing.append(display)
    score = found / total if total else 1.0
    numbers_missing = [item[1] for item in numbers if item[0] not in quote_number_keys] if numbers else []
    # SupportResult(score, passed, missing, numbers_missing, quote_numbers),
    # without the frozen dataclass's object.__setattr__ per field.
    result = _new_result(SupportResult)
    _set_score(result, score)
    _set_passed(result, score >= threshold and not numbers_missing)
    _set_missing(result, missing)
    _set_numbers_missing(result, numbers_missing)
    _set_quote_numbers(result, quote_numbers)
    return result


_new_result = object.__new__
_set_score, _set_passed, _set_missing, _set_numbers_missing, _set_quote_numbers = (
    SupportResult.__dict__[f].__set__ for f in SupportResult.__slots__
)
