"""The closed word classes the polarity rule reads (cairn.meaning.polarity):
negators, negating and ceasing words, clause breakers, antonym pairs,
direction and bound phrases, and the privative prefixes checked against an
English lexicon. Closed classes of English, not fitted to any data set."""

from __future__ import annotations

from functools import lru_cache

from ..support.words import english_lexicon

NEGATORS = frozenset(
    "not no never nor neither none nothing nobody no-one nowhere cannot unable lacks lack lacking".split()
)
# verbs whose complement is negated: "forbids removing" = may not remove
NEGATING_VERBS = frozenset(
    "forbid forbids forbidden forbade prohibit prohibits prohibited ban bans banned refuse refuses refused fail "
    "fails failed prevent prevents prevented".split()
)
# verbs that deny the verb of their infinitive only ("declined to approve", "neglected to file"); elsewhere
# they are something else ("sales declined": a direction)
NEGATING_BEFORE_TO = frozenset(
    "decline declines declined declining neglect neglects neglected neglecting".split()
)
CEASING = ("no longer", "not anymore", "used to", "stopped", "ceased", "ceases", "no more")
CLAUSE_BREAKERS = frozenset(
    "but however although though whereas unless except instead yet otherwise besides".split()
)
COORDINATORS = frozenset("and or but so yet".split())
SUBJECTS = frozenset("it he she they we you i this that these those there the a an its his her their our".split())
# personal pronouns as subjects: "X and he is Y" joins two statements, each with its own subject
PERSONAL = frozenset("he she they we i you it".split())
SUBORDINATORS = frozenset("if when unless although because since while where whether once until".split())
# forms of "be" (and "get"): "is used to X" is a passive, not the habitual past of "used to X"
BE = frozenset("be is are was were been being am get gets got".split())
# words after which "to" is a preposition, not the mark of an infinitive ("refers to price",
# "similar to X", "access to the code"): what follows is named as their object, and stated
TO_PREPOSITIONAL = frozenset(
    """refer referred referring refers relate related relates relating apply applies applied applying belong
    belongs belonged belonging listen listens listened respond responds responded reply replies replied object
    objects objected contribute contributes contributed lead leads led amount amounts amounted adapt adapted
    adjust adjusted compare compared comparing attach attached react reacted reacts switch switched switches
    turn turned turns return returns returned returning back due according owing similar equal equivalent
    identical subject contrary close next relative addition regard respect access reference references
    exposure attention opposed devoted committed limited restricted confined specific visible
    applicable relevant common unique""".split()
)
PREPOSITIONS = frozenset(
    """at for with in on by of from to into onto upon within under over via per about""".split()
)
# antonyms that are not prefix pairs: word -> (concept, negative)
ANTONYMS: dict[str, tuple[str, bool]] = {}


def _pairs(concept: str, positive: str, negative: str) -> None:
    for w in positive.split():
        ANTONYMS[w] = (concept, False)
    for w in negative.split():
        ANTONYMS[w] = (concept, True)


_pairs("allow", "permit permits permitted permission allow allows allowed",
       "prohibit prohibited prohibits prohibition forbid forbids forbidden forbade disallow disallowed "
       "ban bans banned")
_pairs("include", "include includes included including inclusive", "exclude excludes excluded excluding exclusion")
_pairs("accept", "accept accepts accepted approve approves approved", "reject rejects rejected")
_pairs("enable", "enable enables enabled", "disable disables disabled")
_pairs("true", "true", "false")
_pairs("require", "require required requires mandatory obligatory compulsory must oblige obliges obliged", "optional")
# states, not the events of a timetable: "opens at 6 and shuts at 10" says no opposite
_pairs("open", "open opened", "closed shut")
_pairs("public", "public", "private")
# the ends of the temperature axis as states ("when the tyres are cold"); the comparatives are directions below
_pairs("hot", "hot", "cold")
_pairs("present", "present", "absent")
_pairs("retain", "retain retains retained keep keeps kept add adds added", "remove removes removed delete deletes deleted")
_pairs("accept-respons", "accepts assumes", "disclaims disclaim disclaimed")
_pairs("win", "win wins won", "lose loses lost")
_pairs("profit", "profit profits", "loss losses")
_pairs("charge", "fee fees charge charges charged", "free")
# the points of the compass: a claim that says north of what its quote says south of says the opposite
_pairs("north", "north northern northward northwards", "south southern southward southwards")
_pairs("east", "east eastern eastward eastwards", "west western westward westwards")

PREFIXES = ("non", "un", "in", "im", "il", "ir", "dis")
# in-, im-, il-, ir- and dis- make opposites of adjectives (illegal, irrevocable,
# dishonest); before other words they are often something else (display,
# discover, income, insight): these prefixes count only before an adjective ending
ADJECTIVE_ENDINGS = ("able", "ible", "al", "ent", "ant", "ive", "ate", "ete", "ite", "ect", "ic", "ous", "id",
                      "ure", "ar", "ful", "est", "ed", "ing")
# words whose negation reaches the verb after them ("no attempt to allocate")
TRANSPARENT = frozenset(
    "attempt attempts attempted try tries tried effort intend intends intended plan plans planned need needs "
    "able ability right way means permission obligation allowed permitted required going want wants "
    "cause causes caused".split()
)

# words after which an infinitive is stated as possible, not only named: "allowed to cross" says what
# "may not cross" denies
PERMISSIVE = frozenset("allowed permitted able entitled free authorised authorized".split())

# direction words: phrase -> (axis, sign, where the anchor is: "after" / "before" / None)
DIRECTIONS: dict[str, tuple[str, int, str | None]] = {}
for _p in ("above", "more than", "greater than", "higher than", "longer than", "later than", "after",
           "exceeding", "exceeds", "exceed", "exceeded", "beyond", "at least", "minimum of", "a minimum of",
           "minimum", "no less than", "not less than", "no fewer than", "not fewer than", "no earlier than",
           "not earlier than", "no sooner than", "over", "at or above", "at or after", "on or after",
           "at or over"):
    DIRECTIONS[_p] = ("order", 1, "after")
for _p in ("below", "less than", "fewer than", "lower than", "shorter than", "earlier than", "before",
           "prior to", "within", "at most", "maximum of", "a maximum of", "maximum", "up to", "no more than",
           "no longer than", "not longer than",
           "not more than", "no later than", "not later than", "not exceeding", "under", "until",
           "at or below", "at or before", "on or before", "at or under"):
    DIRECTIONS[_p] = ("order", -1, "after")
# comparatives bound the word after them: "more likely" / "less likely", "larger than 4 GiB"
for _p in ("more", "larger than", "bigger than", "wider than", "heavier than", "faster than", "stronger than",
           "older than", "dearer than", "pricier than", "costlier than", "more expensive than", "more costly than",
           "harder than", "more difficult than", "farther than", "further than", "farther away than",
           "further away than"):
    DIRECTIONS[_p] = ("order", 1, "after")
for _p in ("less", "fewer", "smaller than", "narrower than", "lighter than", "slower than", "weaker than",
           "younger than", "cheaper than", "less expensive than", "less costly than", "easier than",
           "less difficult than", "nearer than", "closer than"):
    DIRECTIONS[_p] = ("order", -1, "after")
for _p in ("or more", "or longer", "or later", "or above", "and above", "or over", "and over", "or greater",
           "or higher", "and larger", "or larger", "and more"):
    DIRECTIONS[_p] = ("order", 1, "before")
for _p in ("or less", "or fewer", "or earlier", "or below", "and below", "or under", "or lower", "or shorter",
           "or smaller", "and smaller"):
    DIRECTIONS[_p] = ("order", -1, "before")
for _w in ("increase increases increased increasing rise rises rose risen rising raise raises raised "
           "grow grows grew grown growing gain gains gained "
           # the verbs of a multiple, in the forms no noun or adjective shares ("a double room", "doubles")
           "doubled doubling tripled tripling quadrupled quadrupling").split():
    DIRECTIONS[_w] = ("change", 1, None)
for _w in ("went up", "go up", "goes up", "gone up", "going up"):
    DIRECTIONS[_w] = ("change", 1, None)
# no change: "left rates unchanged", "held steady", "remained the same" against a rise or a fall
for _w in ("unchanged", "held steady", "holds steady", "remained steady", "remains steady", "stayed steady",
           "remained stable", "remains stable", "stayed stable", "remained flat", "remains flat", "stayed flat",
           "remained the same", "remains the same", "stayed the same", "held flat", "kept steady"):
    DIRECTIONS[_w] = ("change", 0, None)
# the verbs after which "steady", "stable" or "flat" closing their phrase says no change ("held rates steady")
HOLDING = frozenset("held hold holds holding kept keep keeps keeping left leave leaves remained remain remains "
                    "stayed stay stays".split())
STEADY = frozenset("steady stable flat".split())
# "higher" alone ("at a higher temperature") is the opposite of "lower", which is both the comparative and a
# verb of change ("lower the rate")
DIRECTIONS["higher"] = ("change", 1, None)
for _w in ("decrease decreases decreased decreasing reduce reduces reduced reducing fall falls fell fallen "
           "falling drop drops dropped dropping decline declines declined declining shrink shrinks shrank "
           "lower lowers lowered lowering cut cuts slash slashes slashed halved halving").split():
    DIRECTIONS[_w] = ("change", -1, None)
for _w in ("went down", "go down", "goes down", "gone down", "going down"):
    DIRECTIONS[_w] = ("change", -1, None)
# the comparatives of the dimension adjectives, alone ("up to five times slower"): each pair one axis;
# and their superlatives, each pair an axis of its own: "the smallest planet" against "the biggest
# planet" (a comparative against a superlative may compare other things)
for _axis, _up, _down in (("speed", "faster quicker", "slower"), ("size", "larger bigger", "smaller"),
                          ("length", "longer", "shorter"), ("width", "wider broader", "narrower"),
                          ("weight", "heavier", "lighter"), ("strength", "stronger", "weaker"),
                          ("quality", "better", "worse"), ("age", "older elder", "younger"),
                          ("temperature", "warmer hotter", "colder cooler"),
                          # the price and the difficulty of a thing, with their two-word comparatives
                          ("price", "dearer pricier costlier more_expensive more_costly",
                           "cheaper less_expensive less_costly"),
                          ("difficulty", "harder more_difficult", "easier less_difficult"),
                          ("distance", "farther further more_distant", "nearer closer"),
                          ("most-size", "largest biggest", "smallest"), ("most-length", "longest", "shortest"),
                          ("most-speed", "fastest quickest", "slowest"), ("most-height", "highest tallest", "lowest"),
                          ("most-weight", "heaviest", "lightest"), ("most-width", "widest broadest", "narrowest"),
                          ("most-strength", "strongest", "weakest"), ("most-quality", "best", "worst"),
                          ("most-age", "oldest eldest", "youngest newest"),
                          ("most-price", "dearest priciest costliest most_expensive most_costly",
                           "cheapest least_expensive least_costly"),
                          ("most-difficulty", "hardest most_difficult", "easiest least_difficult")):
    for _w in _up.split():
        DIRECTIONS.setdefault(_w.replace("_", " "), (_axis, 1, None))
    for _w in _down.split():
        DIRECTIONS.setdefault(_w.replace("_", " "), (_axis, -1, None))
# "over" and "under" bound only a number ("over 18", not "over the network")
# a point from which on, or up to which, something holds: "beginning with version 1.42", "since Linux 5.0",
# "in mke2fs 1.42 and earlier" (read only before or after a number: "since it is", "as of this writing")
_POINTS_UP = ("since", "beginning with", "starting with", "starting from", "as of", "and later", "and newer",
              "or newer", "or older", "and older", "newer than")
_POINTS_DOWN = ("and earlier", "and before", "or younger", "and younger")
for _p in _POINTS_UP:
    DIRECTIONS[_p] = ("order", 1, "before" if _p.startswith(("and ", "or ")) else "after")
for _p in _POINTS_DOWN:
    DIRECTIONS[_p] = ("order", -1, "before")
# the way a figure is rounded: its own axis, so that "rounded down" meets only "rounded up"
for _v in ("round", "rounds", "rounded", "rounding"):
    DIRECTIONS[_v + " up"] = ("rounding", 1, None)
    DIRECTIONS[_v + " down"] = ("rounding", -1, None)
# "older" says earlier of a release or a year ("kernels older than 4.6", "or older") and more of an age
# ("people older than 65"): polarity.read turns it by what it bounds
OLDER = frozenset({"older than", "or older", "and older"})
NUMBER_ONLY = frozenset({"over", "under", "until", *_POINTS_UP, *_POINTS_DOWN})
MAX_PHRASE = max(len(p.split()) for p in DIRECTIONS)

NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
# the tens, and the compounds written with a hyphen ("thirty days", "forty-five minutes")
for _t, _tens in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2):
    NUMBER_WORDS[_tens] = str(10 * _t)
    for _u, _unit in enumerate("one two three four five six seven eight nine".split(), 1):
        NUMBER_WORDS[f"{_tens}-{_unit}"] = str(10 * _t + _u)


@lru_cache(maxsize=65536)
def privative(word: str) -> tuple[str, str] | None:
    """(prefix, base) when `word` is an English word made of a privative
    prefix and another English word; also `X-free` (royalty-free)."""
    if "-" in word:
        head, _, tail = word.partition("-")
        if head in ("non", "no") and tail:
            return head + "-", tail  # "non-exclusive"; "no-charge" is "no charge"
        if head == "free" and tail.startswith(("of-", "from-")) and len(tail) > tail.index("-") + 1:
            return "free-of-", tail[tail.index("-") + 1:]  # "free-of-charge" is "free of charge"
        if word.endswith("-free") and len(word) > 5:
            return "-free", word[: -len("-free")]
        return None
    if word.endswith("less") and len(word) >= 7 and word not in _NOT_WITHOUT:
        base = word[:-4]
        if base in english_lexicon():
            return "-less", base  # "cashless", "wireless": without cash, without wires
    lex = english_lexicon()
    for p in PREFIXES:
        if word.startswith(p) and len(word) - len(p) >= 4:
            base = word[len(p):]
            if (p == "il" and base[0] != "l") or (p == "ir" and base[0] != "r") or (p == "im" and base[0] not in "mpb"):
                continue  # English writes in- as il-, ir-, im- only before these letters
            if p not in ("un", "non") and not base.endswith(ADJECTIVE_ENDINGS):
                continue
            if word in lex and (base in lex or (p == "un" and _participle(base, lex))):
                return p, base
    return None


# words in -less that do not say "without" what comes before the suffix
_NOT_WITHOUT = frozenset("regardless nevertheless nonetheless doubtless unless priceless needless countless".split())

# the past participles English forms without -ed: "unpaid", "unknown", "unseen" deny "paid", "known", "seen"
_IRREGULAR_PARTICIPLES = frozenset(
    """paid known seen done said told sold held heard made taken written spoken broken chosen driven eaten
    forgiven forgotten frozen given hidden proven shaken stolen worn born grown shown thrown drawn found bound
    won spent built bought taught caught thought fought sought brought felt kept left lost meant met read sent
    set cut hurt put shut lit fed led bent burnt dealt hung laid lent slept spun struck stuck swept torn wound
    woken beaten bitten fallen ridden risen sung sunk sworn understood withdrawn begun run come become gone""".split()
)


def _participle(word: str, lex: frozenset[str]) -> bool:
    """Whether `word` is a past participle of an English verb of `lex` (which
    lists a verb, not its forms): irregular (`paid`), or the verb with -ed
    (`locked`, `used`, `planned`, `applied`). What un- denies: `unpaid`."""
    if word in _IRREGULAR_PARTICIPLES:
        return True
    if not word.endswith("ed") or len(word) < 5:
        return False
    stem = word[:-2]
    return (stem in lex or word[:-1] in lex or (stem[-1] == stem[-2] and stem[:-1] in lex)
            or (stem.endswith("i") and stem[:-1] + "y" in lex))


# Words that deny what their clause would otherwise state, without a negation: "Pensioners are exempt from the
# charge" says that they do not pay it, "All rooms are non-smoking" that smoking is not allowed, "failed to
# arrive" that it did not. One entry, read two ways: by lemma over the sentence reader's parse, where the word
# is found on the clause's predicate or the verb it completes (cairn.meaning.parsed.scope), and by the forms
# that deny on their own in a clause of tokens, without a parse (cairn.meaning.contradicting): participles and
# adjectives, `non-…`, `…-free` and the adverbials of `no`. The bare verbs (`fail`, `prevent`, `lack`) deny
# only what they govern, which the token reading cannot see, so the forms leave them out.
DENYING_LEMMAS = frozenset("forbid prohibit ban bar refuse prevent exempt excuse stop cease fail decline avoid deny "
                           "reject exclude waive lack refrain halt suspend cancel unable unavailable".split())
DENYING_FORMS = (
    r"exempt(?:ed)?|excused|waived?|waives|banned|barred|prohibited|forbidden|refused|rejected"
    r"|declined|denied|exclude[sd]|avoid(?:s|ed)?|refrain(?:s|ed)?|stop(?:s|ped)?|cease[sd]?|closed|unavailable"
    r"|inaccessible|void|cancell?ed|suspended|withdrawn|absent"
    r"|non-[^\W\d_]+|[^\W\d_]+-free|free\s+(?:of|from)|at\s+no\s+time|under\s+no\s+circumstances|on\s+no\s+account")
