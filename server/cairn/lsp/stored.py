"""Claims' verdicts kept in the index across server starts.

A claim verified by the server is written to the store's verdict cache (the one `cairn check`
keeps its reports in), one entry per claim, under the command line's key (engine.cache_key over
engine.fingerprint: Cairn's version and code, the rules' version, the configuration, who reads,
every stored version and which are current, the git HEAD) with the draft's path and the claim's
parse (its text, its cite blocks and their layout). A server started again on an unchanged
workspace reads each claim's verdict back instead of verifying it; any change to one of those
makes another key, and the claim is verified again. A SQLite store signs each entry with this
machine's key, so an entry planted in a cloned or archived `.cairn/index.db`, or edited in place,
is not read (docs/security.md).

The entry holds the verdict without its claim: the claim is the new parse's (its citations are
named by their position), and the lines of its diagnostics are moved to where the claim now is,
as a verdict reused in memory is (checking._rebind). A verdict the judge would still be asked
about is not written: a start after it asks the judge (or its cache) as a first start does.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any

from ..core import model
from ..core.model import (
    Chunk,
    Citation,
    CitationResult,
    Claim,
    ClaimResult,
    Diagnostic,
    Fix,
    Part,
    Pos,
    Range,
    SpanRef,
    TextEdit,
)
from .layout import layout_key, moved

log = logging.getLogger(__name__)

PREFIX = "lsp-claim:"
DRAFT_PREFIX = "lsp-draft:"  # a draft's first diagnostics (kept_diagnostics.py), under the same fingerprint
FORMAT = "1"  # the layout of an entry; entries of another are not read

_TYPES: dict[str, type] = {t.__name__: t for t in (Chunk, CitationResult, Fix, Part, Pos, Range, SpanRef, TextEdit)}
_RESULT_FIELDS = tuple(f.name for f in dataclasses.fields(ClaimResult) if f.name != "claim")
_DIAGNOSTIC_FIELDS = model._DIAGNOSTIC_FIELDS  # what Diagnostic.copy copies: the whole finding


class Unstorable(ValueError):
    """A verdict holding something an entry cannot say (it is then not written)."""


def claim_data(claim: Claim) -> bytes:
    """What of a claim its verdict depends on, as bytes for the key: its layout key
    (layout.layout_key: text, citations, blocks, all relative to its first line)."""
    return repr(layout_key(claim)).encode("utf-8", "surrogatepass")


# -- writing ---------------------------------------------------------------------------


def dump(cr: ClaimResult) -> str:
    """A claim's verdict as an entry's text (Unstorable when it holds an unknown kind of value)."""
    cits = {id(c): i for i, c in enumerate(cr.claim.citations)}

    def enc(v: Any) -> Any:
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, list):
            return [enc(x) for x in v]
        if isinstance(v, tuple):
            return {"t": [enc(x) for x in v]}
        if isinstance(v, dict):
            return {"d": [[k, enc(x)] for k, x in v.items()]}
        if isinstance(v, Citation):
            i = cits.get(id(v))
            if i is None:
                raise Unstorable("a citation that is not the claim's")
            return {"c": i}
        if isinstance(v, Diagnostic):
            return {"g": {name: enc(getattr(v, name)) for name in _DIAGNOSTIC_FIELDS}}
        name = type(v).__name__
        if _TYPES.get(name) is type(v) and dataclasses.is_dataclass(v):
            return {"o": name, "f": {f.name: enc(getattr(v, f.name)) for f in dataclasses.fields(v)}}
        raise Unstorable(f"a value of type {name}")

    body = {name: enc(getattr(cr, name)) for name in _RESULT_FIELDS}
    return json.dumps({"format": FORMAT, "line": cr.claim.line, "result": body}, separators=(",", ":"))


# -- reading ---------------------------------------------------------------------------


def load(text: str, claim: Claim) -> ClaimResult | None:
    """The verdict of an entry attached to `claim` (its new parse), or None when the entry
    cannot be read back (another format, a citation the claim does not have)."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        delta = claim.line - int(data["line"])
        cits = claim.citations

        def dec(v: Any) -> Any:
            if isinstance(v, list):
                return [dec(x) for x in v]
            if not isinstance(v, dict):
                return v
            if "t" in v:
                return tuple(dec(x) for x in v["t"])
            if "d" in v:
                return {k: dec(x) for k, x in v["d"]}
            if "c" in v:
                return cits[v["c"]]
            if "g" in v:
                f = {name: dec(x) for name, x in v["g"].items()}
                if delta:
                    f["line"] += delta
                    f["range"] = moved(f["range"], delta)
                return Diagnostic(**f)
            return _TYPES[v["o"]](**{k: dec(x) for k, x in v["f"].items()})

        body = {name: dec(x) for name, x in data["result"].items()}
        if set(body) != set(_RESULT_FIELDS):
            return None
        return ClaimResult(claim=claim, **body)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


# -- a folder's entries ------------------------------------------------------------------


class Stored:
    """The verdicts of one folder's claims in its store. Every store failure (locked, damaged,
    read-only, gone) means only that nothing is read or written: the claims are verified."""

    def __init__(self, ws: Any, judge: Any) -> None:
        self.ws = ws
        # a judge that can be asked (lsp/judging.py asks it about the claims it did not decide)
        self.judge_name = judge.name if judge is not None and not getattr(judge, "problem", None) \
            and hasattr(judge, "judge_many") else None
        self.broken = False  # the store failed once: not asked again by this folder
        self.read = 0  # entries read back (for the log and the tests' trace)
        self.written = 0

    def fingerprint(self) -> str | None:
        """The command line's fingerprint of the workspace now, plus what only the server's checks
        differ by; None when the store cannot say."""
        from ..engine import checks as engine

        if self.broken:
            return None
        try:
            return engine.fingerprint(self.ws) + "\0lsp:conflicts-off\0judge:" + (self.judge_name or "")
        except Exception as exc:  # noqa: BLE001 - a store that fails only costs the reuse
            self._fail(exc)
            return None

    def key(self, fp: str, rel: str, claim: Claim) -> str:
        from ..engine import checks as engine

        return engine.cache_key(fp, rel, claim_data(claim), PREFIX)

    def get(self, fp: str, rel: str, claim: Claim) -> ClaimResult | None:
        if self.broken:
            return None
        try:
            text = self.ws.store.cache_get(self.key(fp, rel, claim))
        except Exception as exc:  # noqa: BLE001 - a store that fails only costs the reuse
            self._fail(exc)
            return None
        if text is None:
            return None
        got = load(text, claim)
        if got is not None:
            self.read += 1
        return got

    def wanted(self, cr: ClaimResult) -> bool:
        """Is this verdict final (one the judge would not be asked about)?"""
        if self.judge_name is None or cr.judge == self.judge_name:
            return True
        from ..verify.verdicts import resolved_quotes

        return not resolved_quotes(cr)

    def put(self, fp: str, rel: str, results: list[ClaimResult]) -> None:
        if self.broken:
            return
        try:
            for cr in results:
                if not self.wanted(cr):
                    continue
                try:
                    text = dump(cr)
                except Unstorable as exc:
                    log.debug("%s:%d: verdict not kept (%s)", rel, cr.claim.line + 1, exc)
                    continue
                self.ws.store.cache_put(self.key(fp, rel, cr.claim), text)
                self.written += 1
        except Exception as exc:  # noqa: BLE001 - a store that fails only costs the reuse
            self._fail(exc)

    def entry(self, fp: str, rel: str, data: bytes) -> str | None:
        """The text of a draft's entry (kept_diagnostics.py) under `data`, or None."""
        from ..engine import checks as engine

        if self.broken:
            return None
        try:
            return self.ws.store.cache_get(engine.cache_key(fp, rel, data, DRAFT_PREFIX))
        except Exception as exc:  # noqa: BLE001 - a store that fails only costs the reuse
            self._fail(exc)
            return None

    def put_entry(self, fp: str, rel: str, data: bytes, text: str) -> None:
        from ..engine import checks as engine

        if self.broken:
            return
        try:
            self.ws.store.cache_put(engine.cache_key(fp, rel, data, DRAFT_PREFIX), text)
        except Exception as exc:  # noqa: BLE001 - a store that fails only costs the reuse
            self._fail(exc)

    def prune(self) -> None:
        from ..engine import checks as engine

        try:
            self.ws.store.cache_prune(PREFIX, engine.CACHE_MAX_AGE)
            self.ws.store.cache_prune(DRAFT_PREFIX, engine.CACHE_MAX_AGE)
        except Exception as exc:  # noqa: BLE001 - a store that fails only costs the reuse
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        self.broken = True
        log.warning("verdicts are not kept in the index of %s (%s): claims are verified at each start",
                    self.ws.root, exc)
