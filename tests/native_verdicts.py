"""Prints, as JSON, every verdict of the support check on Cairn's labelled pairs (the meaning
set, the probe rounds, and WiCE dev when ../shared holds it), with how the rules ran in this
process: tests/cli/test_native.py runs it compiled and as pure Python (CAIRN_NATIVE=0) and
compares the two. Each pair: the calibrated score, what it found missing, the names rule's
answer, every meaning rule's findings, and the whole verdict as `cairn check` reads it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import meaning_eval  # noqa: E402 - found through the path set above
from cairn import meaning, native, support  # noqa: E402 - after the path set above, as meaning_eval

CONFIG = meaning_eval.CONFIGS["calibrated + all meaning rules"]


def one(claim: str, evidence: list[meaning.Evidence], heading: str = "") -> list:
    quotes = [e.quote for e in evidence]
    lex = support.check_support(claim, quotes, mode="calibrated")
    found = meaning.check(claim, evidence, polarity=lex.score is not None and lex.score >= 0.5)
    return [lex.score, lex.passed, lex.missing, lex.numbers_missing, repr(lex.displaced),
            [n.message for n in found.numbers], [repr(c) for c in found.contradictions],
            [(i, repr(c)) for i, c in found.context],
            meaning_eval.verdict(claim, evidence, CONFIG, heading)]


def main() -> None:
    rows = [(p["claim"], meaning_eval.pair_evidence(p), meaning_eval.heading_of(p.get("source", "")))
            for p in meaning_eval.load_pairs("all")]
    rows += [(r["claim"], meaning_eval.probe_evidence(r), "")
             for r in map(json.loads, meaning_eval.PROBES.read_text(encoding="utf-8").splitlines()) if r]
    rows += [(claim, evidence, "") for claim, evidence, _ in meaning_eval.wice_rows()]
    verdicts = [one(*row) for row in rows]
    json.dump({"status": native.status(), "verdicts": verdicts}, sys.stdout)


if __name__ == "__main__":
    main()
