"""Leave-one-domain-out measurement of the support check: what the default is
worth on a domain it was not tuned on, and which meaning rules may fail a
claim on their own.

Domains (each row's document is its ``source_id`` up to its last ``_`` or
``:``; a WiCE sub-claim ``train30689-0`` is of claim ``train30689``, a WiCE
dev row is its own claim's):

- ``summedits:<sub-domain>``: the sub-domains of ../shared/data/support/summedits.jsonl
  (ectsum, news, qmsumm, sales_call, sales_email, samsum, scitldr); podcast has
  five documents, so it is pooled with the meeting transcripts as
  ``summedits:qmsumm+podcast``;
- ``begin``: ../shared/data/support/begin.jsonl;
- ``wice``: ../shared/data/wice/dev.jsonl with ../shared/data/support/wice_train_partial.jsonl
  (the second holds only unsupported rows, so the two are one domain);
- ``blind:<name>``: every labelled file tests/data/blind/<name>.jsonl;
- any file given with ``--extra FILE`` (calibrate's plain format), as ``extra:<stem>``.

Modes, each measured on every domain:

- ``seed``: `support.mode = "seed"` at threshold 0.5 with the meaning rules
  (``cairn calibrate`` with the seed mode);
- ``default``: the default ``support.mode`` at 0.5 with the meaning rules
  (``cairn calibrate`` as shipped); its figures are checked against
  ``cairn.calibrate.calibrate`` domain by domain, and a difference is reported;
- ``default, fitted threshold``: the default mode with its threshold fitted on
  all other domains (the threshold of calibrate's sweep with the best mean
  balanced accuracy over them, the blind sets weighing as one domain) and
  tested on the held-out one;
- ``overlap >= 0.5``: plain word overlap, the seed score alone (the SPEC's
  tokens and stopwords, no meaning rule, no other rule);
- each ``--mode NAME``: that ``support.mode`` at 0.5 with the meaning rules;
- with ``--logistic``: a logistic regression over the seed and default scores
  and a flag for each rule's finding, fitted on all other domains (each
  weighing the same, the blind sets together as one, the two labels the same
  within a domain) and tested on the held-out one.

``--through-check`` also runs the blind sets through the real ``cairn check``
(each quote a source file, each claim a paragraph of a draft citing it) and
names the pairs it decides otherwise than the quote read alone.

Each row's verdict is the one ``cairn calibrate`` gives (and so ``cairn
check`` for a claim whose quotes stand alone): the mode's score at the
threshold, the mode's rule ``names``, and every meaning rule
(``cairn.meaning.check``), whose findings give the diagnostic codes. For each
code that fails a claim, per domain: its precision on supported rows (the
share of supported rows it leaves alone) and its recall on unsupported rows
(the share it fails), under the default mode; it meets the veto bar when the
precision is at least 0.95 on the supported rows of every domain.

    .venv/bin/python bench/support_lodo.py [--limit-per-domain N] [--mode NAME]... [--logistic] [--through-check] [--json | --summary]

``--limit-per-domain`` (default 300; 0 = every row) takes whole documents in
a fixed order (by a hash of the document's name) until the domain holds at
most N rows; the blind sets are far smaller and always whole. Progress goes
to stderr. The data is read in place and never copied.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from cairn import meaning, support
from cairn.meaning.restating import restated_score
from cairn.verify.calibrate import THRESHOLDS, calibrate, load_rows

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
BLIND = REPO / "tests" / "data" / "blind"
THRESHOLD = 0.5  # the default threshold (SPEC section 4)
VETO_BAR = 0.95
DEFAULT_LIMIT = 300

# a finding's kind in cairn.meaning.Findings -> the diagnostic code cairn check reports (verify/verifier.py);
# a kind not named here is reported by its finding's `code`, else by the field's name
FIELD_CODES = {
    "numbers": "number-mismatch",
    "contradictions": "contradiction",
    "context": "context-negates",
    "relations": "relation-mismatch",
    "limits": "context-limits",
}
NAMES = "names"  # the mode's rule `names` (support/names.py): it fails the score test whatever the score


@dataclass
class Item:
    claim: str
    quotes: list[str]
    supported: bool
    domain: str
    doc: str
    category: str = ""


@dataclass
class Domain:
    name: str
    items: list[Item]
    blind: bool = False

    @property
    def supported(self) -> int:
        return sum(i.supported for i in self.items)


# --------------------------------------------------------------------------
# Reading


def doc_of(source_id: str) -> str:
    """A row's document: its source_id up to its last `_` or `:` (../shared/data/support/SOURCE.md);
    a WiCE sub-claim (`...:train30689-0`) is of its claim (`train30689`)."""
    last = source_id.rsplit(":", 1)[-1]
    if m := re.fullmatch(r"(.+)-\d+", last):
        if "_" not in last:
            return source_id[: len(source_id) - len(last)] + m.group(1)
    cut = max(source_id.rfind("_"), source_id.rfind(":"))
    return source_id[:cut] if cut > 0 else source_id


def _raw(path: Path) -> dict[int, dict[str, Any]]:
    """The JSON objects of a file by 1-based line (for the fields calibrate does not keep)."""
    out = {}
    for n, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        if line.strip():
            out[n] = json.loads(line)
    return out


def read_file(path: Path, domain_of: Callable[[dict[str, Any]], str], doc: Callable[[dict[str, Any]], str]) -> list[Item]:
    raw = _raw(path)
    items = []
    for r in load_rows(path):
        obj = raw[r.line]
        items.append(Item(r.claim, list(r.quotes), r.supported, domain_of(obj), doc(obj), str(obj.get("category", ""))))
    return items


def _summedits_domain(obj: dict[str, Any]) -> str:
    sub = obj["source_id"].split(":")[1]
    return "summedits:qmsumm+podcast" if sub in ("qmsumm", "podcast") else f"summedits:{sub}"


def load_domains(shared: Path, blind: Path, extra: Sequence[Path]) -> list[Domain]:
    by: dict[str, list[Item]] = defaultdict(list)
    sid = lambda o: doc_of(o["source_id"])  # noqa: E731 - a one-line key
    sources: list[tuple[Path, Callable[[dict[str, Any]], str], Callable[[dict[str, Any]], str]]] = [
        (shared / "support" / "summedits.jsonl", _summedits_domain, sid),
        (shared / "support" / "begin.jsonl", lambda o: "begin", sid),
        (shared / "wice" / "dev.jsonl", lambda o: "wice", lambda o: "wice:dev:" + str(o.get("meta", {}).get("id"))),
        (shared / "support" / "wice_train_partial.jsonl", lambda o: "wice", sid),
    ]
    for path, dom, doc in sources:
        if not path.exists():
            print(f"warning: {path} not found; left out", file=sys.stderr)
            continue
        for item in read_file(path, dom, doc):
            by[item.domain].append(item)
    domains = [Domain(name, items) for name, items in sorted(by.items())]
    for path in sorted(blind.glob("*.jsonl")):
        name = f"blind:{path.stem}"
        domains.append(Domain(name, read_file(path, lambda o, n=name: n, lambda o, n=name: doc_of(o.get("source_id", n))),
                              blind=True))
    for path in extra:
        name = f"extra:{path.stem}"
        domains.append(Domain(name, read_file(path, lambda o, n=name: n,
                                              lambda o, n=name: doc_of(str(o.get("source_id", n))))))
    return domains


def sample(domain: Domain, limit: int) -> Domain:
    """Whole documents in the order of a hash of their names, while the domain holds at most `limit` rows."""
    if limit <= 0 or len(domain.items) <= limit:
        return domain
    docs: dict[str, list[Item]] = defaultdict(list)
    for item in domain.items:
        docs[item.doc].append(item)
    order = sorted(docs, key=lambda d: hashlib.sha256(d.encode()).hexdigest())
    kept: list[Item] = []
    for d in order:
        if not kept or len(kept) + len(docs[d]) <= limit:
            kept += docs[d]
        if len(kept) >= limit:
            break
    return Domain(domain.name, kept, domain.blind)


# --------------------------------------------------------------------------
# One row, as cairn calibrate reads it


@dataclass
class Reading:
    """What the support check finds on one row, read once."""

    scores: dict[str, float | None] = field(default_factory=dict)  # support mode -> score
    displaced: dict[str, bool] = field(default_factory=dict)  # support mode -> the rule `names` fails it
    codes: dict[bool, dict[str, str]] = field(default_factory=dict)  # polarity -> {code: first message}


def finding_codes(found: meaning.Findings) -> dict[str, str]:
    """The diagnostic codes of a meaning check's findings, with each code's first message."""
    out: dict[str, str] = {}
    for f in dataclasses.fields(found):
        items = getattr(found, f.name)
        if not items:
            continue
        first = items[0][1] if isinstance(items[0], tuple) else items[0]
        code = FIELD_CODES.get(f.name) or getattr(first, "code", None) or f.name
        out.setdefault(str(code), str(getattr(first, "message", first)))
    return out


class Reader:
    """Each row read once per support mode and polarity, kept."""

    def __init__(self, items: Sequence[Item]):
        self.items = items
        self.readings = [Reading() for _ in items]

    def score(self, i: int, mode: str) -> tuple[float | None, bool]:
        rd = self.readings[i]
        if mode not in rd.scores:
            item = self.items[i]
            # the lowest threshold of the sweep: the rule `names` is read for every score a threshold passes
            res = support.check_support(item.claim, item.quotes, threshold=min(THRESHOLDS), mode=mode)
            if mode != "seed":
                # as cairn calibrate and cairn check score it: an amount restated in the quotes' form (above
                # every threshold of the sweep, so that the higher of the two scores is kept)
                res, _ = restated_score(item.claim, item.quotes, res, 1.01, partial(
                    support.check_support, quotes=item.quotes, threshold=min(THRESHOLDS), mode=mode))
            rd.scores[mode] = res.score
            rd.displaced[mode] = res.displaced is not None
        return rd.scores[mode], rd.displaced[mode]

    def codes(self, i: int, polarity: bool) -> dict[str, str]:
        rd = self.readings[i]
        if polarity not in rd.codes:
            item = self.items[i]
            evidence = [meaning.Evidence(q, q, 0, len(q)) for q in item.quotes]
            rd.codes[polarity] = finding_codes(meaning.check(item.claim, evidence, polarity=polarity)) if evidence else {}
        return rd.codes[polarity]

    def verdict(self, i: int, mode: str | None, threshold: float, rules: bool = True) -> tuple[bool, dict[str, str]]:
        """(passes, the codes that fail it) under a support mode (None: the seed score alone, nothing else)."""
        if mode is None:
            score, _ = self.score(i, "seed")
            return score is not None and score >= threshold, {}
        score, displaced = self.score(i, mode)
        scored = score is not None and score >= threshold
        codes = dict(self.codes(i, scored)) if rules else {}
        if scored and displaced:
            codes[NAMES] = "the claim names another thing than the quote"
        return scored and not codes, codes


# --------------------------------------------------------------------------
# Figures


def balanced_accuracy(labels: Sequence[bool], verdicts: Sequence[bool]) -> float | None:
    pos = [v for g, v in zip(labels, verdicts) if g]
    neg = [not v for g, v in zip(labels, verdicts) if not g]
    if not pos or not neg:
        return None
    return (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2


def _domain_weights(domains: Sequence[Domain]) -> dict[str, float]:
    """Each domain weighs 1, the blind sets 1 together: fourteen sets of twelve pairs would outweigh the rest."""
    nblind = sum(d.blind for d in domains)
    return {d.name: 1 / nblind if d.blind else 1.0 for d in domains}


def _features(reader: Reader, k: int, codes: Sequence[str]) -> tuple[float, ...]:
    seed, _ = reader.score(k, "seed")
    default, _ = reader.score(k, support.DEFAULT_MODE)
    _, found = reader.verdict(k, support.DEFAULT_MODE, THRESHOLD)
    return (1.0, round(seed or 0.0, 3), round(default or 0.0, 3), *(float(c in found) for c in codes))


def fit_logistic(rows: Sequence[tuple[tuple[float, ...], bool, float]], l2: float = 1e-2,
                 steps: int = 30) -> list[float]:
    """Weighted logistic regression by Newton's method over (features, label, weight) rows, identical
    feature vectors taken together; a small L2 penalty keeps a flag that separates its rows finite."""
    groups: dict[tuple[float, ...], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for x, y, w in rows:
        groups[x][0 if y else 1] += w
    k = len(next(iter(groups)))
    beta = [0.0] * k
    for _ in range(steps):
        grad = [-l2 * b for b in beta]
        hess = [[l2 * (i == j) for j in range(k)] for i in range(k)]
        for x, (wp, wn) in groups.items():
            z = sum(b * v for b, v in zip(beta, x))
            p = 1 / (1 + math.exp(-max(-35.0, min(35.0, z))))
            r, c = wp - (wp + wn) * p, (wp + wn) * p * (1 - p)
            for i in range(k):
                grad[i] += r * x[i]
                for j in range(k):
                    hess[i][j] += c * x[i] * x[j]
        step = _solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return beta


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (a is small and positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def logistic_lodo(domains: Sequence[Domain], readers: dict[str, Reader]) -> dict[str, list[bool]]:
    """For each domain, a logistic regression fitted on all the others (each domain weighing the same,
    its two labels the same within it) and its verdicts on the held-out one."""
    codes = sorted({c for d in domains for k in range(len(d.items))
                    for c in readers[d.name].verdict(k, support.DEFAULT_MODE, THRESHOLD)[1]})
    feats = {d.name: [_features(readers[d.name], k, codes) for k in range(len(d.items))] for d in domains}
    dw = _domain_weights(domains)
    weighted: dict[str, list[tuple[tuple[float, ...], bool, float]]] = {}
    for d in domains:
        npos, nneg = d.supported, len(d.items) - d.supported
        weighted[d.name] = [(x, it.supported, dw[d.name] / (2 * (npos if it.supported else nneg)))
                            for x, it in zip(feats[d.name], d.items)]
    out = {}
    for d in domains:
        beta = fit_logistic([r for n, rows in weighted.items() if n != d.name for r in rows])
        out[d.name] = [sum(b * v for b, v in zip(beta, x)) >= 0 for x in feats[d.name]]
    return out


def _weighted(table: dict[str, dict[float, float | None]], names: Sequence[str], t: float,
              weight: dict[str, float]) -> float:
    got = [(table[n][t], weight[n]) for n in names if table[n][t] is not None]
    total = sum(w for _, w in got)
    return sum(x * w for x, w in got) / total if total else 0.0  # type: ignore[operator]


def _mean(xs: Iterable[float | None]) -> float | None:
    got = [x for x in xs if x is not None]
    return sum(got) / len(got) if got else None


@dataclass
class ModeSpec:
    name: str
    support_mode: str | None  # None: the seed score alone
    fit: str = ""  # "threshold" or "logistic": fitted on the other domains


def run(domains: list[Domain], modes: list[ModeSpec], progress: Callable[[str], None]) -> dict[str, Any]:
    readers = {d.name: Reader(d.items) for d in domains}
    labels = {d.name: [i.supported for i in d.items] for d in domains}
    out: dict[str, Any] = {"domains": [], "modes": {}, "rules": {}, "blind": {}, "cross_check": {}}
    for d in domains:
        out["domains"].append({"name": d.name, "rows": len(d.items), "supported": d.supported,
                               "unsupported": len(d.items) - d.supported,
                               "documents": len({i.doc for i in d.items}), "blind": d.blind})

    def verdicts(d: Domain, spec: ModeSpec, t: float) -> list[tuple[bool, dict[str, str]]]:
        r = readers[d.name]
        return [r.verdict(k, spec.support_mode, t) for k in range(len(d.items))]

    def ba_at(d: Domain, spec: ModeSpec, t: float) -> float | None:
        return balanced_accuracy(labels[d.name], [v for v, _ in verdicts(d, spec, t)])

    for spec in modes:
        start = time.perf_counter()
        got: dict[str, list[bool]] = {}
        chosen: dict[str, float] = {}
        if spec.fit == "threshold":
            table = {d.name: {t: ba_at(d, spec, t) for t in THRESHOLDS} for d in domains}
            weight = _domain_weights(domains)
            for d in domains:
                rest = [n for n in table if n != d.name]
                # the best mean over the other domains; of equal means, the one nearest the default
                t = max(THRESHOLDS, key=lambda t: (_weighted(table, rest, t, weight), -abs(t - THRESHOLD)))
                chosen[d.name] = t
                got[d.name] = [v for v, _ in verdicts(d, spec, t)]
        elif spec.fit == "logistic":
            got = logistic_lodo(domains, readers)
        else:
            for d in domains:
                got[d.name] = [v for v, _ in verdicts(d, spec, THRESHOLD)]
        per = {d.name: balanced_accuracy(labels[d.name], got[d.name]) for d in domains}
        dev = [per[d.name] for d in domains if not d.blind]
        blind = [per[d.name] for d in domains if d.blind]
        out["modes"][spec.name] = {"per_domain": per, "mean": _mean(per.values()), "mean_dev": _mean(dev),
                                   "mean_blind": _mean(blind), **({"thresholds": chosen} if chosen else {})}
        fa = miss = npos = nneg = 0
        pooled: list[tuple[bool, bool]] = []
        for d in domains:
            if not d.blind:
                continue
            for item, ok in zip(d.items, got[d.name]):
                pooled.append((item.supported, ok))
                if item.supported:
                    npos += 1
                    fa += not ok
                else:
                    nneg += 1
                    miss += ok
        cats: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # category -> [wrong verdicts, pairs]
        for d in domains:
            if d.blind:
                for item, ok in zip(d.items, got[d.name]):
                    cats[item.category or "-"][0] += ok != item.supported
                    cats[item.category or "-"][1] += 1
        out["blind_categories"] = out.get("blind_categories", {})
        out["blind_categories"][spec.name] = dict(sorted(cats.items()))
        out["blind"][spec.name] = {"false_alarms": fa, "supported": npos, "misses": miss, "unsupported": nneg,
                                   "balanced_accuracy": balanced_accuracy([g for g, _ in pooled],
                                                                          [v for _, v in pooled])}
        progress(f"mode {spec.name}: {time.perf_counter() - start:.1f} s")

    # the rules, as they fire under the default mode at the default threshold
    default = ModeSpec("default", support.DEFAULT_MODE)
    fired: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for d in domains:
        for item, (_, codes) in zip(d.items, verdicts(d, default, THRESHOLD)):
            for code in codes:
                fired[code][d.name][0 if item.supported else 1] += 1
    for code in sorted(fired):
        per_rule = {}
        for d in domains:
            fs, fu = fired[code][d.name]
            npos, nneg = d.supported, len(d.items) - d.supported
            per_rule[d.name] = {"precision_supported": 1 - fs / npos if npos else None,
                                "recall_unsupported": fu / nneg if nneg else None,
                                "fails_supported": fs, "fails_unsupported": fu}
        fs = sum(per_rule[d.name]["fails_supported"] for d in domains if d.blind)
        fu = sum(per_rule[d.name]["fails_unsupported"] for d in domains if d.blind)
        npos = sum(d.supported for d in domains if d.blind)
        nneg = sum(len(d.items) - d.supported for d in domains if d.blind)
        pooled_rule = {"precision_supported": 1 - fs / npos if npos else None,
                       "recall_unsupported": fu / nneg if nneg else None,
                       "fails_supported": fs, "fails_unsupported": fu}
        precisions = [v["precision_supported"] for v in per_rule.values() if v["precision_supported"] is not None]
        below = [n for n, v in per_rule.items() if v["precision_supported"] is not None
                 and v["precision_supported"] < VETO_BAR]
        out["rules"][code] = {"per_domain": per_rule, "min_precision": min(precisions) if precisions else None,
                              "meets_veto_bar": not below, "below_bar": below, "blind_pooled": pooled_rule}

    # the figures of the default are those of cairn calibrate
    for d in domains:
        report = calibrate([_row(i) for i in d.items], mode=support.DEFAULT_MODE, threshold=THRESHOLD)
        mine = out["modes"]["default"]["per_domain"][d.name]
        same = (report.balanced_accuracy is None and mine is None) or (
            report.balanced_accuracy is not None and mine is not None and abs(report.balanced_accuracy - mine) < 1e-12)
        out["cross_check"][d.name] = same
        if not same:
            print(f"warning: {d.name}: cairn calibrate gives {report.balanced_accuracy}, this bench {mine}",
                  file=sys.stderr)
    progress("checked against cairn calibrate")
    return out


def _row(item: Item) -> Any:
    try:
        from cairn.verify.calibrate import Row
    except ImportError:
        from cairn.verify.calibrate import Row  # type: ignore[no-redef]
    return Row(claim=item.claim, quotes=item.quotes, supported=item.supported, line=0, format="plain")


# --------------------------------------------------------------------------
# The blind sets through the real `cairn check`


def through_check(domains: Sequence[Domain], progress: Callable[[str], None]) -> dict[str, Any]:
    """Each blind pair as `cairn check` reads it in a workspace of its own: the quote is a source file,
    the claim a paragraph of a draft citing the whole of it. Returns the verdicts and codes per pair
    beside the bench's (which reads the quote alone, as `cairn calibrate` does)."""
    import subprocess
    import tempfile

    blind = [d for d in domains if d.blind]
    with tempfile.TemporaryDirectory(prefix="cairn-lodo-") as tmp:
        root = Path(tmp)
        (root / "sources").mkdir()
        (root / "drafts").mkdir()
        (root / "cairn.toml").write_text('sources = ["sources"]\ndrafts = ["drafts/*.md"]\n', encoding="utf-8")
        names: dict[str, tuple[Domain, int]] = {}
        for d in blind:
            for k, item in enumerate(d.items):
                name = f"{d.name.split(':', 1)[1]}-{k + 1:02d}.txt"
                (root / "sources" / name).write_text(" ".join(item.quotes) + "\n", encoding="utf-8")
                names[f"sources/{name}"] = (d, k)
        cairn = [sys.executable, "-m", "cairn"]
        run = lambda *a: subprocess.run([*cairn, *a], cwd=root, capture_output=True, text=True, check=False)  # noqa: E731
        if (r := run("index")).returncode != 0:
            raise RuntimeError(f"cairn index failed: {r.stderr}")
        chunks: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for line in run("chunks", "--json").stdout.splitlines():
            ch = json.loads(line)
            chunks[ch["source"]].append(ch)
        for d in blind:
            parts = [f"# {d.name}\n"]
            for source, (dd, k) in names.items():
                if dd is not d:
                    continue
                item = d.items[k]
                quote = " ".join(item.quotes)
                ch = next(c for c in chunks[source] if quote in c["text"])
                at = ch["text"].index(quote)
                parts.append(f"{item.claim}\n\n```cite\nchunk_id: {ch['chunk_id']}\nstart: {at}\nend: {at + len(quote)}\n"
                             f"quote: {json.dumps(quote, ensure_ascii=False)}\nsource: {source}\n```\n")
            (root / "drafts" / f"{d.name.split(':', 1)[1]}.md").write_text("\n".join(parts), encoding="utf-8")
        r = run("check", "--format", "json")
        if r.returncode not in (0, 1):
            raise RuntimeError(f"cairn check failed: {r.stderr}")
        report = json.loads(r.stdout)
    progress("blind sets checked through cairn check")
    out: dict[str, Any] = {"pairs": [], "false_alarms": 0, "misses": 0, "supported": 0, "unsupported": 0,
                           "differ_from_bench": 0}
    by_draft = {Path(dr["path"]).stem: dr for dr in report["drafts"]}
    for d in blind:
        claims = by_draft[d.name.split(":", 1)[1]]["claims"]
        reader = Reader(d.items)
        for k, (item, cl) in enumerate(zip(d.items, claims)):
            assert cl["text"] == item.claim, (cl["text"], item.claim)
            mine, _ = reader.verdict(k, support.DEFAULT_MODE, THRESHOLD)
            codes = sorted({dg["code"] for dg in cl["diagnostics"]})
            out["supported" if item.supported else "unsupported"] += 1
            out["false_alarms"] += item.supported and not cl["supported"]
            out["misses"] += (not item.supported) and cl["supported"]
            out["differ_from_bench"] += mine != cl["supported"]
            out["pairs"].append({"domain": d.name, "claim": item.claim, "label": item.supported,
                                 "check": cl["supported"], "bench": mine, "codes": codes})
    return out


# --------------------------------------------------------------------------
# Output


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def render(out: dict[str, Any]) -> str:
    names = [d["name"] for d in out["domains"]]
    modes = list(out["modes"])
    lines = [f"rows per domain: at most {out['limit_per_domain'] or 'all'} (whole documents); "
             f"{sum(d['rows'] for d in out['domains'])} rows in {len(names)} domains", ""]
    lines.append("| domain | rows (supported/unsupported) | " + " | ".join(modes) + " |")
    lines.append("| --- | --- |" + " ---: |" * len(modes))
    for d in out["domains"]:
        cells = [_f(out["modes"][m]["per_domain"][d["name"]]) for m in modes]
        lines.append(f"| {d['name']} | {d['rows']} ({d['supported']}/{d['unsupported']}) | " + " | ".join(cells) + " |")
    for key, label in (("mean_dev", "mean, development domains"), ("mean_blind", "mean, blind sets"),
                       ("mean", "mean, all domains")):
        lines.append(f"| **{label}** | | " + " | ".join(f"**{_f(out['modes'][m][key])}**" for m in modes) + " |")
    for m in modes:
        if m == "default" or "thresholds" in out["modes"][m]:
            continue
        below = [d["name"] for d in out["domains"] if _below(out, "default", m, d["name"])]
        lines.append(f"\ndefault below {m} on {len(below)} of {len(names)} domains"
                     + (f": {', '.join(below)}" if below else ""))
    fitted = [m for m in modes if "thresholds" in out["modes"][m]]
    for m in fitted:
        ts = sorted(set(out["modes"][m]["thresholds"].values()))
        lines.append(f"\n{m}: thresholds chosen when a domain is held out: {', '.join(f'{t:.2f}' for t in ts)}")
    lines += ["", "blind pairs, all sets together:", "",
              "| mode | false alarms (supported pairs failed) | misses (unsupported pairs verified) |",
              "| --- | ---: | ---: |"]
    for m in modes:
        b = out["blind"][m]
        if b["supported"] or b["unsupported"]:
            lines.append(f"| {m} | {b['false_alarms']}/{b['supported']} ({_pct(b['false_alarms'], b['supported'])}) "
                         f"| {b['misses']}/{b['unsupported']} ({_pct(b['misses'], b['unsupported'])}) |")
    if cats := out.get("blind_categories", {}).get("default"):
        lines += ["", "blind pairs by kind, the default: wrong verdicts / pairs", "",
                  "| kind | wrong / pairs |", "| --- | ---: |"]
        lines += [f"| {c} | {w}/{n} |" for c, (w, n) in cats.items()]
    lines += ["", f"rules that fail a claim, under the default mode: precision on supported rows / recall on "
              f"unsupported rows; veto bar: precision >= {VETO_BAR} in every domain", ""]
    codes = list(out["rules"])
    if codes:
        lines.append("| domain | " + " | ".join(codes) + " |")
        lines.append("| --- |" + " ---: |" * len(codes))
        for n in names:
            cells = []
            for c in codes:
                v = out["rules"][c]["per_domain"][n]
                cells.append(f"{_f(v['precision_supported'])} / {_f(v['recall_unsupported'])}")
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
        lines.append("| **lowest precision** | " + " | ".join(_f(out["rules"][c]["min_precision"]) for c in codes) + " |")
        lines.append("| **meets the veto bar** | "
                     + " | ".join("yes" if out["rules"][c]["meets_veto_bar"] else "no" for c in codes) + " |")
    else:
        lines.append("(no rule failed any row)")
    if tc := out.get("through_check"):
        lines += ["", f"the blind sets through cairn check (the default): {tc['false_alarms']}/{tc['supported']} "
                  f"false alarms, {tc['misses']}/{tc['unsupported']} misses; {tc['differ_from_bench']} pairs "
                  "decided otherwise than by the quote alone"]
        for p in tc["pairs"]:
            if p["check"] != p["bench"]:
                lines.append(f"  {p['domain']}: check {'passes' if p['check'] else 'fails'} "
                             f"({', '.join(p['codes']) or 'no code'}), label {'supported' if p['label'] else 'unsupported'}: "
                             f"{p['claim']}")
    bad = [n for n, ok in out["cross_check"].items() if not ok]
    lines += ["", "default's figures against cairn calibrate: "
              + ("the same on every domain" if not bad else f"DIFFERENT on {', '.join(bad)}"),
              f"time: {out['seconds']:.0f} s"]
    return "\n".join(lines) + "\n"


def _below(out: dict[str, Any], a: str, b: str, domain: str) -> bool:
    x, y = out["modes"][a]["per_domain"][domain], out["modes"][b]["per_domain"][domain]
    return x is not None and y is not None and x < y - 1e-9


def render_summary(out: dict[str, Any]) -> str:
    """The two tables of docs/support.md: each development domain and the blind sets pooled."""
    dev = [d for d in out["domains"] if not d["blind"]]
    blind = [d for d in out["domains"] if d["blind"]]
    modes = list(out["modes"])
    lines = ["| domain | rows | " + " | ".join(modes) + " |", "| --- | ---: |" + " ---: |" * len(modes)]
    for d in dev:
        lines.append(f"| {d['name']} | {d['rows']} | "
                     + " | ".join(_f(out["modes"][m]["per_domain"][d["name"]]) for m in modes) + " |")
    lines.append("| **mean, development domains** | | "
                 + " | ".join(f"**{_f(out['modes'][m]['mean_dev'])}**" for m in modes) + " |")
    if blind:
        rows = sum(d["rows"] for d in blind)
        lines.append(f"| blind sets ({len(blind)}), mean of each set | {rows} | "
                     + " | ".join(_f(out["modes"][m]["mean_blind"]) for m in modes) + " |")
        lines.append(f"| blind sets, false alarms (correct pairs failed) | {out['blind'][modes[0]]['supported']} | "
                     + " | ".join(str(out["blind"][m]["false_alarms"]) for m in modes) + " |")
        lines.append(f"| blind sets, misses (wrong pairs verified) | {out['blind'][modes[0]]['unsupported']} | "
                     + " | ".join(str(out["blind"][m]["misses"]) for m in modes) + " |")
    codes = list(out["rules"])
    lines += ["", "| domain | " + " | ".join(f"`{c}`" for c in codes) + " |", "| --- |" + " ---: |" * len(codes)]
    for d in dev:
        cells = [out["rules"][c]["per_domain"][d["name"]] for c in codes]
        lines.append(f"| {d['name']} | " + " | ".join(
            f"{_f(v['precision_supported'])} / {_f(v['recall_unsupported'])}" for v in cells) + " |")
    if blind:
        lines.append("| blind sets, pooled | " + " | ".join(
            f"{_f(out['rules'][c]['blind_pooled']['precision_supported'])} / "
            f"{_f(out['rules'][c]['blind_pooled']['recall_unsupported'])}" for c in codes) + " |")
    lines.append("| lowest precision, any domain (each blind set alone) | "
                 + " | ".join(_f(out["rules"][c]["min_precision"]) for c in codes) + " |")
    lines.append(f"| precision >= {VETO_BAR} in every domain | "
                 + " | ".join("yes" if out["rules"][c]["meets_veto_bar"] else "no" for c in codes) + " |")
    return "\n".join(lines) + "\n"


def _pct(a: int, n: int) -> str:
    return f"{100 * a / n:.0f} %" if n else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit-per-domain", type=int, default=DEFAULT_LIMIT, metavar="N",
                    help=f"at most N rows a domain, whole documents (default {DEFAULT_LIMIT}; 0: all)")
    ap.add_argument("--mode", action="append", default=[], metavar="NAME",
                    help="also measure this support.mode at threshold 0.5 with the meaning rules (repeatable)")
    ap.add_argument("--extra", action="append", type=Path, default=[], metavar="FILE",
                    help="another labelled file (calibrate's plain format) as a domain of its own (repeatable)")
    ap.add_argument("--domains", default="", metavar="REGEX", help="only the domains whose name matches")
    ap.add_argument("--data", type=Path, default=SHARED, help="the shared data directory (default ../shared/data)")
    ap.add_argument("--blind", type=Path, default=BLIND, help="the blind sets' directory (default tests/data/blind)")
    ap.add_argument("--logistic", action="store_true",
                    help="also a logistic regression over the seed and default scores and the rules' findings, "
                         "fitted on the other domains")
    ap.add_argument("--through-check", action="store_true",
                    help="also run the blind sets through the real `cairn check` (each quote a source file)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--summary", action="store_true",
                    help="print only docs/support.md's two tables (the blind sets pooled)")
    args = ap.parse_args(argv)
    for m in args.mode:
        if m not in support.MODE_RULES:
            ap.error(f"unknown support mode {m!r}; expected one of: {', '.join(support.MODE_RULES)}")
    start = time.perf_counter()

    def progress(msg: str) -> None:
        print(f"[{time.perf_counter() - start:6.1f} s] {msg}", file=sys.stderr, flush=True)

    domains = [sample(d, args.limit_per_domain) for d in load_domains(args.data, args.blind, args.extra)
               if re.search(args.domains, d.name)]
    if not domains:
        print("no domain to measure", file=sys.stderr)
        return 2
    progress(f"{len(domains)} domains, {sum(len(d.items) for d in domains)} rows")
    modes = [ModeSpec("seed", "seed"), ModeSpec("default", support.DEFAULT_MODE),
             ModeSpec("default, fitted threshold", support.DEFAULT_MODE, fit="threshold"),
             ModeSpec("overlap >= 0.5", None)]
    if args.logistic:
        modes.append(ModeSpec("logistic, fitted", support.DEFAULT_MODE, fit="logistic"))
    modes += [ModeSpec(m, m) for m in args.mode]
    out = run(domains, modes, progress)
    if args.through_check:
        out["through_check"] = through_check(domains, progress)
    out["limit_per_domain"] = args.limit_per_domain
    out["default_mode"] = support.DEFAULT_MODE
    out["seconds"] = time.perf_counter() - start
    if args.json:
        print(json.dumps(out, indent=2, sort_keys=False))
    elif args.summary:
        print(render_summary(out), end="")
    else:
        print(render(out), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
