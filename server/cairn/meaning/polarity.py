"""Polarity and direction (SPEC section 4, `contradiction`).

A text is read clause by clause. Each clause has a **polarity**: negated
when it holds an odd number of negations (`not`, `n't`, `never`,
`cannot`, `nothing`, a clause-opening `no`, `no one`, `neither`/`nor`,
`fails to`, `forbids`, …), *ceased* when it says that something no longer
holds (`no longer`, `used to`, `stopped`, `ceased`), positive otherwise.
A claim clause contradicts the quotes when the quote clause that shares
the most of its words (at least two) has the opposite polarity, and no
other clause sharing as much agrees. Negation thus attaches to a
statement, not to a word: `Refunds are not given` agrees with
`No refunds are given`.

Some words carry their own polarity: a privative prefix (`non-exclusive`,
`irrevocable`, `illegal`, `unable`), the suffix `-free` (`royalty-free`),
`without X`, `at no charge`, and antonyms (`prohibited` is `permitted`
negated, `excluded` is `included` negated). Such a word contradicts the
same word of the other side with the other polarity. A prefix counts as
privative only when what is left is itself an English word (Webster's
Second International, from the `english-words` package): `under` is not
`der` negated, `interest` is not `terest` negated.

Direction and bound words (`above` / `below`, `more than` / `less than`,
`at least` / `at most`, `before` / `prior to` / `after`, `within`,
`increase` / `decrease`, `minimum` / `maximum`) are read with what they
bound (the number or word next to them): the claim contradicts the quotes
when it bounds the same thing the other way. A comparison sign right before
a number (`>=10`, `≤ 4`) bounds it as the words do, and so do the points
from which on or up to which a release holds (`since`, `beginning with`,
`1.42 and earlier`; `older` of a release or a year is earlier, of an age
more). A bound in a condition (`if it is longer than 16 characters`) is
compared only with bounds in conditions. What ceased held before: a clause
in the past (`was named X`) agrees with `used to be named X`. A negation and an opposite
direction in the same pair of clauses cancel (`no refunds after 30 days`
agrees with `refunds within 30 days`).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from ..support import STOPWORDS
from .clauses import CEASED, NEGATED, POSITIVE, Clause, Direction, Marked, Reading
from .cues import (
    _AMOUNT_WORDS,
    _CEASING_FIRST,
    _CEASING_PHRASES,
    _DECLINE,
    _DETERMINERS,
    _DIRECTION_FIRST,
    _DIRECTION_PHRASES,
    _EXEMPT,
    _SIGNS,
    _SPECIAL,
    _a_point_in_time,
    _amount_before,
    _analyse,
    _anchor,
    _case_follows,
    _content,
    _has_object,
    _new,
    _number_anchor,
    _phrase_at,
    _stated_amount,
    _Tok,
    _tokens,
)
from .lexicon import (
    BE,
    CLAUSE_BREAKERS,
    COORDINATORS,
    DIRECTIONS,
    HOLDING,
    NEGATING_BEFORE_TO,
    NEGATING_VERBS,
    NEGATORS,
    NUMBER_ONLY,
    OLDER,
    PERMISSIVE,
    PERSONAL,
    PREPOSITIONS,
    STEADY,
    SUBJECTS,
    SUBORDINATORS,
    TO_PREPOSITIONAL,
    TRANSPARENT,
)

__all__ = ["read"]


# the past forms of "be" and "have": a clause that holds them speaks of what held then
_PAST = frozenset({"was", "were", "had"})
# the subordinators of a condition: what a bound says under them is not asserted
_CONDITIONS = frozenset({"if", "unless", "when", "whenever"})


# read()'s steps, module functions rather than closures over its state: compiled (cairn/native.py), a
# closure and its environment hold each other, and every token read would wait for the cycle collector


def _close(st: _State, clauses: list[Clause], end: int, question: bool = False) -> None:
    """The clause read so far ends at `end`: kept, with its polarity, when it says something."""
    if st.concepts or st.negations or st.ceased:
        if st.lifted and not st.negations:
            pol = POSITIVE  # "no longer prohibited", "stopped refusing": the denial ceased, so it holds now
        else:
            pol = CEASED if st.ceased and not st.negations else NEGATED if st.negations else POSITIVE
        said = pol != POSITIVE or st.lifted  # a clause whose cue and heads decide what it says
        clauses.append(Clause(st.start, end, pol, frozenset(st.concepts), st.cue if said else "",
                              frozenset(st.heads) if said else frozenset(),
                              frozenset(st.negative - st.plain), frozenset(st.unasserted), question,
                              frozenset((st.negative & st.plain) | st.timed), st.follows,
                              frozenset(st.modifiers) if said else frozenset(), st.case, st.past,
                              st.supposed))
    st.reset(end)


def _content_word(st: _State, words: list[Marked], clauses: list[Clause], toks: list[_Tok], text: str,
                  t: _Tok, w: str, prev: str, i: int) -> None:
    """A content word: its concept, and whether a negation governs it."""
    st.first = False
    # "allowed to cross", "able to vote": what may be done is stated as possible, so "may not cross"
    # says the opposite of it, where "want to cross" or "in a bid to cross" only name it
    permitted = prev == "to" and i >= 2 and toks[i - 2].text in PERMISSIVE and not st.waiting
    concept = _word(st, words, w, t, text, len(clauses), shown_from=toks[i - 2].start if permitted else None)
    if permitted:
        st.infinitive = False
    elif ((prev == "to" and not (i >= 2 and toks[i - 2].text in TO_PREPOSITIONAL))
            or (st.infinitive and prev == toks[i - 1].text)) and not st.waiting:
        st.unasserted.add(concept)  # "in a bid to help identify": named, not stated
        st.infinitive = True
    else:
        st.infinitive = False
    if st.waiting:
        # "no known vulnerabilities", "no admission fee": the determiner "no" denies its noun
        # phrase, the words that run on from it up to the first function word; what it denies is
        # the phrase's head, its last word ("fee"), not the words that modify it ("admission")
        phrase = st.noun_phrase and i + 1 < len(toks) and toks[i + 1].kind == "word" and _content(toks[i + 1].text)
        if phrase:
            st.modifiers.add(concept)
        else:
            st.heads.add(concept)
        st.cue_end(text, t.end, more=w in TRANSPARENT or st.in_phrase or phrase)
        # the negation reaches on through "attempt to X" and "X or Y", and past a phrase
        # between it and its verb ("do not by this License give"): it governs both; and from the
        # subject "no X" on to what "be" says of it ("no fishing is allowed": fishing is not allowed)
        predicate = st.noun_phrase and not phrase and i + 1 < len(toks) and toks[i + 1].text in BE
        st.waiting = w in TRANSPARENT or st.in_phrase or phrase or predicate
        st.noun_phrase = phrase
        st.in_phrase = False
    elif st.heads and prev in ("or", "and", "to") and st.last_head_follow:
        st.heads.add(concept)
    st.last_head_follow = concept in st.heads


@lru_cache(maxsize=16384)
def read(text: str) -> Reading:
    """The clauses of `text` with their polarity, its content words and its direction words."""
    text = unicodedata.normalize("NFKC", text)
    toks = _tokens(text)
    clauses: list[Clause] = []
    words: list[Marked] = []
    dirs: list[Direction] = []
    st = _State()

    i = 0
    n_toks = len(toks)
    while i < n_toks:
        t = toks[i]
        w = t.text
        if t.kind == "word" and w not in _SPECIAL and "'" not in w and not st.ceased:
            # a plain content word (most words): none of the checks below applies to it (after a
            # ceasing phrase, one may: "no longer disabled")
            prev = st.last_word
            st.last_word = w
            _content_word(st, words, clauses, toks, text, t, w, prev, i)
            i += 1
            continue
        if t.kind == "sym":
            # "only works with very high levels (>=10)": a sign right before a number bounds it, as
            # "at least 10" does; a sign before anything else says nothing read here
            if i + 1 < n_toks and toks[i + 1].kind == "num":
                dirs.append(Direction("order", _SIGNS[w], _number_anchor(toks[i + 1].text),
                                      text[t.start:toks[i + 1].end], t.start, st.conditional))
                st.first = False
            i += 1
            continue
        if w == "non" and i + 1 < n_toks and toks[i + 1].kind == "word" and "-" not in toks[i + 1].text:
            # "non transferable" is "non-transferable" written open: one word with the prefix
            nt = toks[i + 1]
            merged = _Tok("word", "non-" + nt.text, t.start, nt.end)
            prev = st.last_word
            st.last_word = merged.text
            _content_word(st, words, clauses, toks, text, merged, merged.text, prev, i + 1)
            i += 2
            continue
        if w == "yet" and (st.last_word in NEGATORS or st.last_word.endswith("n't")):
            i += 1  # "not yet": an adverb of time, not the conjunction "yet" that opens a clause
            continue
        if t.kind == "comma" and _case_follows(toks, i + 1):
            # "the status is 0 if a line is selected, 1 if no lines were selected, and 2 if ...": each
            # amount with its condition is a case of its own, and a negation in one does not reach the
            # others; each case still speaks of what the first one's words before its condition name
            lead = st.carried if st.carried is not None else (st.lead or set())
            _close(st, clauses, t.start)
            st.subordinate = True
            st.carried = lead
            st.concepts.update(lead)
            i += 1
            continue
        if t.kind == "brk" or t.text in CLAUSE_BREAKERS or (t.kind == "comma" and st.subordinate):
            _close(st, clauses, t.start, question=t.text == "?")
            st.follows = t.text in CLAUSE_BREAKERS and i + 1 < n_toks and toks[i + 1].text in PERSONAL
            i += 1
            continue
        if t.text == "not" and i + 1 < len(toks) and toks[i + 1].text in ("only", "just", "merely", "simply"):
            i += 2  # "not only X but Y" says X and Y
            continue
        if t.kind == "comma":
            st.word_negation = None
            if st.heads:
                st.waiting = False  # "not required, that you contact": the comma ends what the negation reaches
            if i + 2 < len(toks) and toks[i + 1].text in COORDINATORS and toks[i + 2].text in SUBJECTS:
                _close(st, clauses, t.start)  # ", and it never would have happened": a new statement with its own subject
            i += 1
            continue
        if w in COORDINATORS and i + 1 < n_toks and toks[i + 1].text in PERSONAL and not st.first:
            _close(st, clauses, t.start)  # "he hasn't done it and he is taking care of ...": negation stays in its statement
            i += 1
            continue
        if w in ("and", "but") and i + 1 < n_toks and toks[i + 1].text in _COPULAS and not st.first and st.concepts:
            # "opens Tuesday to Sunday and is closed on Mondays": a second predicate of the same subject, a
            # statement of its own that goes on about what the one before spoke of
            _close(st, clauses, t.start)
            st.follows = True
            i += 1
            continue
        if t.text == "other" and i + 1 < len(toks) and toks[i + 1].text == "than":
            _close(st, clauses, t.start)  # "no one other than the steward may": the exception is its own statement
            i += 2
            continue
        if w in ("until", "till") and st.negations and st.heads and not st.waiting:
            # "are not admitted until the interval": the negation says when, not whether (not before it, and
            # then they are): what it governs is said both ways, and opposes neither
            st.timed.update(st.heads)
        if t.text in _CONDITIONS and not st.first and st.concepts and not st.waiting and not _amount_before(toks, i):
            # "they fall back to the curses interface if no desktop is available": a condition after its
            # statement is a clause of its own, and a negation in it denies nothing of the statement (not a
            # case of a list, "1 if no lines were selected", whose amount the condition goes with)
            _close(st, clauses, t.start)
            st.subordinate = st.supposed = True
        if t.text in SUBORDINATORS:
            if st.first:
                st.subordinate = True
            if t.text == "whether":
                st.whether = True
            if t.text in _CONDITIONS:
                st.conditional = True
            if st.lead is None:
                st.lead = set(st.concepts)  # what the clause speaks of before its condition
                st.case = _amount_before(toks, i)  # "1 if", "9 euros if": the amount of the case
        # "declined to approve": a negating verb before its infinitive, not a direction
        denies = w in NEGATING_VERBS or (w in NEGATING_BEFORE_TO and i + 1 < n_toks and toks[i + 1].text == "to")
        if w in _DECLINE and _has_object(toks, i + 1):
            # "declined the proposal": decline with an object refuses it (as "rejected the proposal"); without
            # one ("sales declined", "declined the following year") it is a fall, read below as a direction
            st.last_word = w
            _content_word(st, words, clauses, toks, text, t, "rejected", w, i)
            i += 1
            continue
        if w in STEADY and any(toks[j].text in HOLDING for j in range(max(0, i - 4), i)) and not (
                i + 1 < n_toks and toks[i + 1].kind == "word" and _content(toks[i + 1].text)):
            # "held interest rates steady": no change, as "unchanged" (not "a steady rise")
            dirs.append(Direction("change", 0, None, text[t.start:t.end], t.start))
            st.last_word = w
            i += 1
            continue
        # direction and bound phrases, longest first ("no more than" is a bound, not a negation)
        found = _phrase_at(toks, i, _DIRECTION_PHRASES) if t.text in _DIRECTION_FIRST and not denies else None
        if found:
            phrase, n = found
            axis, sign, side = DIRECTIONS[phrase]
            anchor = None
            if side == "after":
                anchor = _anchor(toks, i + n - 1, 1)
            elif side == "before":
                anchor = _anchor(toks, i, -1)
            if n == 1 and phrase in ("minimum", "maximum") and (anchor or "").startswith("w:"):
                anchor = _stated_amount(toks, i + 1) or anchor
            if axis == "change" and i + n + 1 < n_toks and toks[i + n].text == "compared" \
                    and toks[i + n + 1].text in ("with", "to"):
                # "rose compared with last year" says "higher than last year": a comparison with what follows
                axis, anchor, compared = "order", _anchor(toks, i + n + 1, 1), True
            else:
                compared = False
            unread = False
            if phrase in OLDER and anchor is not None:
                if _a_point_in_time(anchor):
                    sign = -sign  # "kernels older than 4.6", "2019 or older": earlier, not more
                elif phrase != "older than" and not (i >= 2 and toks[i - 2].text in ("aged", "age", "ages")):
                    unread = True  # "psmisc 19 or older" (a release) or "children 12 or older" (an age)?
            usable = not unread and not (phrase in NUMBER_ONLY and not (anchor or "").startswith("n:")) and not (
                axis == "order" and anchor is None)
            start = t.start
            if usable and axis == "order" and st.waiting and st.negations == 1 and not st.heads and i > 0 \
                    and (toks[i - 1].text in NEGATORS or toks[i - 1].text.endswith("n't")):
                # "cannot exceed five weeks' rent" is "at most five": the negation turns the bound right after
                # it, and denies nothing else
                sign, start = -sign, toks[i - 1].start
                st.negations, st.waiting, st.cue, st.cue_from = 0, False, "", None
            if usable:
                last = i + n + 1 if compared else i + n - 1
                if n == 1 and side == "after" and last + 1 < n_toks and toks[last + 1].kind == "word" \
                        and _content(toks[last + 1].text):
                    last += 1  # "more likely": the comparative is shown with its word
                dirs.append(Direction(axis, sign, anchor, text[start:toks[last].end], start, st.conditional))
                st.first = False
                st.word_negation = None
                i += n
                continue
        ceasing = _phrase_at(toks, i, _CEASING_PHRASES) if t.text in _CEASING_FIRST else None
        if ceasing and ceasing[0] in ("no longer", "no more") and i + 2 < n_toks and toks[i + 2].text == "than":
            ceasing = None  # "no longer than 30 minutes": a bound (at most), not a state that ended
        if ceasing and ceasing[0] == "used to" and st.last_word in BE:
            ceasing = None  # "may be used to endorse": the passive of "use", not "no longer"
        elif ceasing and ceasing[0] == "stopped" and i + 1 < n_toks and toks[i + 1].text in _HALTED_AT:
            ceasing = None  # "has not stopped at Mill Lane": came to a halt at a place, not ceased
        if ceasing:
            st.ceased = True
            st.ceased_end = i + ceasing[1]
            st.cue_at(text, t.start, toks[i + ceasing[1] - 1].end)
            st.first = False
            i += ceasing[1]
            continue
        if t.kind == "num" or w in _AMOUNT_WORDS:
            st.first = False
            st.word_negation = None
            i += 1
            continue
        w = t.text
        if (w == "free" and i + 1 < n_toks and toks[i + 1].text in ("of", "from")) or (
                w in _EXEMPT and i + 1 < n_toks and toks[i + 1].text == "from"):
            # "free of charge", "free from defects", "exempt from tax": without what follows, as "without"
            # says it
            st.word_negation = t.start
            st.last_word = w
            i += 2
            continue
        if w == "not" and st.whether and toks[i - 1].text == "or":
            # "whether or not it is printed", "whether it is printed or not": both alternatives, neither denied
            st.last_word = w
            i += 1
            continue
        # "few meteors are seen" says what "not many meteors are seen" says (not "a few", "the few": some)
        few = w == "few" and (i == 0 or toks[i - 1].text.lower() not in ("a", "the"))
        if w in NEGATORS or w.endswith("n't") or w == "without" or few:
            if st.waiting and st.negations and w == "without":
                st.negations -= 1  # "not without": two negations, one governing the other, cancel
                st.waiting = False
            elif w == "without" or (w == "no" and st.last_word in PREPOSITIONS):
                st.word_negation = t.start  # "without a supervisor", "at no charge": the noun phrase only
            elif st.lifts(toks, i):
                st.cue_end(text, t.end, more=True)  # "no longer unable", "used not to": the ceasing governs it
            elif w == "nothing" and not st.waiting and words and words[-1].clause == len(clauses) \
                    and words[-1].end == toks[i - 1].end and not words[-1].negative and _content(toks[i - 1].text) \
                    and not (i + 1 < n_toks and toks[i + 1].kind == "word" and _content(toks[i + 1].text)):
                # "costs nothing", "changed nothing": the object "nothing" denies the verb before it
                # ("does not cost anything"); what follows is not denied. Not "found nothing unusual", which
                # denies what is found, not the finding
                st.negations += 1
                st.cue_at(text, words[-1].start, t.end)
                st.heads.add(words[-1].concept)
                st.waiting = False
                if words[-1].shown.lower() in ("cost", "costs"):  # "costs nothing" is free: no charge
                    _mark(words, "free", text, words[-1].start, t.end, len(clauses))
            elif w == "no" and i + 1 < n_toks and toks[i + 1].text == "one":
                # "no one" is one word, "nobody": it denies its clause, not a noun phrase "one" (which a
                # later "without" then cancelled)
                st.negations += 1
                st.cue_at(text, t.start, toks[i + 1].end)
                st.last_word = "nobody"
                i += 2
                continue
            else:
                st.negations += 1
                st.cue_at(text, t.start, t.end)
                st.noun_phrase = w == "no"
            st.last_word = w
            i += 1
            continue
        if denies and st.last_word != "to" and st.waiting and st.negations:
            st.negations -= 1  # "never fails to": the negation governs the negating verb, and they cancel
            st.last_word = w
            i += 1
            continue
        if denies and st.last_word != "to":  # "to prevent X" is a purpose, not a fact
            lifted = st.lifts(toks, i)
            if lifted:
                st.cue_end(text, t.end, more=True)  # "no longer prohibited": shown whole
            else:
                st.negations += 1
                st.cue_at(text, t.start, t.end, show_head=False)
            # the passive ("Feeding the animals is prohibited [in the park]") denies its subject, not the
            # words after it; "is prohibited from feeding", "is forbidden to feed" still deny the verb after
            passive = (st.last_word in BE and not lifted and st.concepts
                       and not (i + 1 < n_toks and toks[i + 1].text in ("from", "to")))
            subject = set(st.concepts) if passive else None
            st.last_word = w
            # "prohibited" negates its clause; its own word is the clause's statement, not a second negation
            st.heads.add(_word(st, words, w, t, text, len(clauses), own=False))
            if subject is not None:
                st.heads.update(subject)
                st.waiting = False
            else:
                st.waiting = True
            i += 1
            continue
        if st.ceased and not st.lifted and w not in STOPWORDS and _analyse(w, True)[1] and st.lifts(toks, i):
            # "no longer disabled", "no longer unavailable": the ceasing ends the denial the word
            # makes by itself, as "no longer prohibited" ends its verb's; the clause holds now
            st.cue_end(text, t.end, more=True)
            st.last_word = w
            st.heads.add(_word(st, words, w, t, text, len(clauses), own=False))
            st.waiting = True
            i += 1
            continue
        prev = st.last_word
        st.last_word = w
        if w == "must" and not (i + 1 < n_toks and (toks[i + 1].text == "not" or toks[i + 1].text.endswith("n't"))):
            # "must wear" says wearing is required, what "optional" denies; a word with a polarity of its
            # own, though not what the clause speaks of ("must not" is a prohibition, read as a negation)
            _mark(words, w, text, t.start, t.end, len(clauses))
        if w in STOPWORDS:
            if w in _PAST and st.lead is None:
                st.past = True  # (the clause's own verb: not one of a condition or reason after it)
            # an infinitive run ends at the first function word; but "to be" and "to have" go on to
            # their participle ("claimed to be fixed" names the fix, it does not state it)
            st.infinitive = w in ("be", "have") and prev == "to"
            if w not in ("a", "an", "the", "any"):
                st.first = False
            if w in PREPOSITIONS or w == "and" or (
                    w == "or" and not (i + 1 < n_toks and toks[i + 1].kind == "word" and _content(toks[i + 1].text))):
                # "without any terms or conditions" denies both nouns; "and" or a preposition ends the phrase
                st.word_negation = None
            elif st.word_negation is not None and w in _DETERMINERS and toks[i - 1].start > st.word_negation \
                    and toks[i - 1].kind == "word" and _content(toks[i - 1].text):
                # "with no file operand the working directory is searched": a determiner after a noun opens
                # another noun phrase, which the negation does not reach ("without any warranty" goes on)
                st.word_negation = None
            if st.waiting and st.negations and w in PREPOSITIONS and w != "to" and (prev in NEGATORS or prev.endswith("n't")):
                st.in_phrase = True  # "not by this License give": a phrase right after the negation
            i += 1
            continue
        _content_word(st, words, clauses, toks, text, t, w, prev, i)
        i += 1
    _close(st, clauses, len(text))
    return Reading(tuple(clauses), tuple(words), tuple(dirs))



# words after `stopped` that name where a thing halted (`stopped at the station`): the verb of halting
_HALTED_AT = frozenset(("at", "outside", "near", "beside", "opposite"))

class _State:
    __slots__ = ("start", "negations", "ceased", "cue", "cue_from", "concepts", "first", "subordinate", "follows",
                 "word_negation", "heads", "negative", "plain", "waiting", "last_word", "last_head_follow", "show_head",
                 "unasserted", "infinitive", "in_phrase", "ceased_end", "lifted", "noun_phrase", "modifiers", "timed",
                 "lead", "carried", "case", "whether", "past", "conditional", "supposed")

    def __init__(self) -> None:
        self.last_word = ""
        self.reset(0)

    def reset(self, start: int) -> None:
        self.start = start
        self.negations = 0
        self.ceased = False
        self.cue = ""
        self.cue_from: int | None = None
        self.concepts: set[str] = set()
        self.first = True  # no content word yet in this clause
        self.subordinate = False
        self.word_negation: int | None = None  # "without X", "at no X": where the negator is
        self.heads: set[str] = set()
        self.modifiers: set[str] = set()
        self.negative: set[str] = set()
        self.plain: set[str] = set()  # concepts also written positively: the clause does not deny them
        self.unasserted: set[str] = set()
        self.timed: set[str] = set()  # what "not ... until" governs: denied until a time, then stated
        self.infinitive = False
        self.waiting = False  # a negation waiting for the word it governs
        self.in_phrase = False  # a prepositional phrase right after the negation: its verb comes after it
        self.last_head_follow = False
        self.show_head = True
        self.follows = False
        self.ceased_end = -1  # the token right after a ceasing phrase
        self.lifted = False  # a negation the ceasing phrase governs ("no longer prohibited")
        self.noun_phrase = False  # the negation is the determiner "no": it reaches its whole noun phrase
        self.lead: set[str] | None = None  # the concepts before the clause's first subordinator ("if", "when")
        self.carried: set[str] | None = None  # a case's (_case_follows): the first case's lead, which it speaks of
        self.case = ""  # the amount right before the first subordinator
        self.whether = False  # "whether" was met: an "or not" after it denies nothing
        self.past = False  # a past form of "be" or "have" was met
        self.conditional = False  # a condition was opened ("if", "unless", "when")
        self.supposed = False  # the clause is a condition after its statement

    def lifts(self, toks: list[_Tok], i: int) -> bool:
        """Whether the negation at token i is the one a ceasing phrase right before it governs
        (one "be" between them at most): then the two make the clause hold now."""
        if not self.ceased or self.lifted or self.ceased_end < 0:
            return False
        if i == self.ceased_end or (i == self.ceased_end + 1 and toks[self.ceased_end].text in ("be", "being", "been")):
            self.lifted = True
            return True
        return False

    def cue_at(self, text: str, start: int, end: int, show_head: bool = True) -> None:
        self.waiting = True
        self.noun_phrase = False  # a new cue; the determiner "no" says so after it
        if not self.cue:
            self.cue, self.cue_from, self.show_head = text[start:end], start, show_head

    def cue_end(self, text: str, end: int, more: bool = False) -> None:
        if self.cue_from is not None and self.show_head:
            self.cue = text[self.cue_from:end]  # "cannot be returned"
        if not more:
            self.cue_from = None  # "no attempt to allocate" shows on to the verb


def _mark(words: list[Marked], w: str, text: str, start: int, end: int, clause: int) -> None:
    """Record text[start:end] as the marked word `w` says it (`must` as required, `costs nothing` as
    `free`), without making it a concept its clause speaks of."""
    parts, negative, _, _ = _analyse(w, True)
    words.extend(_new(Marked, (c, negative, True, text[start:end], start, end, clause)) for c in parts)


def _word(st: _State, words: list[Marked], w: str, t: _Tok, text: str, clause: int, own: bool = True,
          shown_from: int | None = None) -> str:
    """Record a content word; returns its concept. `own=False`: the word's
    negativity is its clause's (a negating verb), not its own. `shown_from`:
    where the words it is shown with begin ("allowed to cross")."""
    parts, negative, marked, first = _analyse(w, own)
    if st.word_negation is not None:
        negative, marked = not negative, True
        shown_from = st.word_negation
    shown = text[t.start if shown_from is None else shown_from:t.end]
    for s in parts:
        st.concepts.add(s)
        if negative:
            st.negative.add(s)
        else:
            st.plain.add(s)
        words.append(_new(Marked, (s, negative, marked, shown, t.start, t.end, clause)))
    return first


# the verbs that open a predicate of their own after "and" ("... and is closed on Mondays")
_COPULAS = frozenset("is are was were has have had".split())
