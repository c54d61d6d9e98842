"""A claim's parts and the quotes that back each (SPEC sections 4 and 5).

A claim is cut into parts: its sentences (`meaning.sentence_spans`), and
inside a sentence the clauses that each state a fact of their own, joined by
`;`, or by `and` / `but` where the sentence reader finds a verb with its own
subject on either side ("Refunds take 14 days, and the desk closes at 5").
Without the reader only `;` cuts a sentence.

Each part is scored alone against the claim's resolved quotes, taken
together, as the claim is (`sentences.part_support`); a part below the
threshold is unsupported (`unsupported-sentence`). A quote backs a part when
that part alone scores enough against that quote alone and no meaning rule
(a number, polarity) sets the two apart; a part the quotes back only together
is backed by those whose words it needs (without one, its score falls). A
claim is `joint` when no single quote backs every one of its parts.

Only the backing citations count for the authority of a claim
(`low-authority`, `source_quality`): an unrelated official quote beside a
draft's does not lift it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .. import meaning
from ..core.model import Part
from ..meaning import sentence_spans

Score = Callable[[str, Sequence[str]], float | None]  # a text's support against some quotes

_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})
_JOINERS = frozenset({"and", "but"})
_MIN_WORDS = 3  # a clause shorter than this (in words) is no fact of its own


def split(text: str) -> list[tuple[int, int]]:
    """The parts of a claim's text as (start, end) offsets, in order (one part for a plain sentence)."""
    spans = [(s, e) for s, e in sentence_spans(text) if text[s:e].strip()]
    if not spans:
        return [(0, len(text))] if text.strip() else []
    cuts = _clause_cuts(text)
    out: list[tuple[int, int]] = []
    for s, e in spans:
        inner = [c for c in cuts if s < c[0] and c[1] < e]
        at = s
        for left_end, right_start in inner:
            if _words(text[at:left_end]) >= _MIN_WORDS and _words(text[right_start:e]) >= _MIN_WORDS:
                out.append(_trim(text, at, left_end))
                at = right_start
        out.append(_trim(text, at, e))
    return out


def _words(s: str) -> int:
    return sum(1 for w in s.split() if any(ch.isalnum() for ch in w))


def _trim(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and (text[s].isspace()):
        s += 1
    while e > s and (text[e - 1].isspace() or text[e - 1] in ",;"):
        e -= 1
    return s, e


def _clause_cuts(text: str) -> list[tuple[int, int]]:
    """Where a sentence may be cut: (end of the left clause, start of the right one)."""
    cuts = []
    at = text.find(";")
    while at >= 0:
        cuts.append((at, at + 1))
        at = text.find(";", at + 1)
    from ..reading import read as reader

    if reader.normal(text) == text and len(text) < 4000:  # the reader's offsets are the claim's own
        reading = reader.read(text)
        if reading is not None:
            toks = reading.tokens
            for t in toks:
                if t.dep != "conj" or t.pos not in ("VERB", "AUX") or t.head == t.i:
                    continue
                head = toks[t.head]
                if head.pos not in ("VERB", "AUX", "ADJ", "NOUN") or not _has_subject(reading, t.i):
                    continue
                if not _has_subject(reading, head.i) and head.dep != "ROOT":
                    continue
                joiner = next((toks[k] for k in reading.kids[head.i]
                               if toks[k].dep == "cc" and toks[k].lemma in _JOINERS and head.i < k < t.i), None)
                if joiner is None:
                    continue
                left = joiner.start
                while left > 0 and (text[left - 1].isspace() or text[left - 1] == ","):
                    left -= 1
                cuts.append((left, joiner.end))
    return sorted(set(cuts))


def _has_subject(reading: object, i: int) -> bool:
    toks = reading.tokens  # type: ignore[attr-defined]
    return any(toks[k].dep in _SUBJECTS for k in reading.kids[i])  # type: ignore[attr-defined]


def parts_of(text: str, quotes: Sequence[tuple[int, meaning.Evidence]], *, threshold: float, score: Score,
             whole: float | None) -> tuple[list[Part], bool]:
    """The claim's parts with the citations backing each, and whether the claim is joint.
    `quotes`: (citation index, evidence) of each resolved quote; `score`: the support check
    as the claim is scored; `whole`: the claim's own score (a one-part claim's part is scored so)."""
    spans = split(text)
    if not spans or not quotes:
        return [], False
    texts = [" ".join(text[s:e].split()) for s, e in spans]
    all_quotes = [e.quote for _, e in quotes]
    out: list[Part] = []
    for (s, e), part in zip(spans, texts):
        sc = whole if len(spans) == 1 else score(part, all_quotes)
        ok = sc is not None and sc >= threshold
        backers: tuple[int, ...] = ()
        if ok:
            if len(quotes) == 1:
                backers = (quotes[0][0],)
            else:
                alone = [i for i, ev in quotes if _backs(part, ev, threshold, score)]
                backers = tuple(alone) if alone else _needed(part, quotes, sc or 0.0, score)
        out.append(Part(part, s, e, backers, ok, sc))
    joint = False
    if len(quotes) > 1 and all(p.supported for p in out):
        # no single quote backs every part alone
        joint = not any(all(i in p.citations and _alone(p, i, quotes, threshold, score) for p in out)
                        for i, _ in quotes)
    return out, joint


def _backs(part: str, ev: meaning.Evidence, threshold: float, score: Score) -> bool:
    sc = score(part, [ev.quote])
    if sc is None or sc < threshold:
        return False
    found = meaning.check(part, [ev])
    return not (found.numbers or found.contradictions)


def _alone(p: Part, i: int, quotes: Sequence[tuple[int, meaning.Evidence]], threshold: float, score: Score) -> bool:
    """Does quote `i` back part `p` on its own (not only as one of the quotes it needs)?"""
    ev = next(e for k, e in quotes if k == i)
    return _backs(p.text, ev, threshold, score)


def _needed(part: str, quotes: Sequence[tuple[int, meaning.Evidence]], together: float, score: Score) -> tuple[int, ...]:
    """The quotes a part backed only by the quotes together needs: without one, its score falls."""
    out = []
    for i, _ in quotes:
        rest = [e.quote for k, e in quotes if k != i]
        sc = score(part, rest)
        if sc is None or sc < together:
            out.append(i)
    return tuple(out) or tuple(i for i, _ in quotes)


def backing(parts: Sequence[Part], n: int) -> list[int]:
    """The indices of the citations that back some part (all `n` when the parts name none)."""
    got = sorted({i for p in parts for i in p.citations})
    return got or list(range(n))
