"""Judges: who decides whether the quotes support a claim (SPEC sections 4, 7).

Two providers:

- ``stub`` (the default) is the lexical check itself: :func:`make_judge`
  returns None and the verifier's score test decides.
- ``openai`` asks any OpenAI-compatible chat-completions endpoint (Ollama,
  a llama.cpp server, vLLM, a hosted API) whether the quotes, taken together,
  entail the claim, and reads back ``{"label", "score"}``.

Every judge answer is cached in the workspace store, keyed by the endpoint,
the model, :data:`PROMPT_VERSION` and a hash of the claim and its quotes, so
an unchanged claim is never judged twice. A judge that fails (unreachable,
slow, an error status, a malformed answer, a refused URL, a missing key)
gives a ``fallback`` verdict: the lexical check decides and the claim gets a
``judge-fallback`` diagnostic saying why. Nothing blocks on the judge.

Using a judge:

- ``judge(claim, quotes)`` -- as the :class:`~cairn.verify.Verifier` hook --
  only looks verdicts up (memory, then the store) and never does any network
  I/O, so verifying stays fast (the language server calls it per keystroke).
- :meth:`OpenAIJudge.judge_many` asks the endpoint, in parallel, for every
  claim not judged yet (blocking; run it in the background).
- :func:`judge_claims` / :func:`judge_results` ask for the verdicts of
  verified claims and apply them (:func:`cairn.verify.apply_verdict`).

The API key is read from the environment variable ``api_key_env`` names and
only ever goes into the ``Authorization`` header: it is never logged, cached,
or put in a message.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from ..core.config import ConfigError, JudgeConfig, Settings
from ..core.model import ClaimResult, DraftResult
from ..verify.verdicts import JudgeVerdict, apply_verdict, judge_quotes
from .client import (
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    ChatClient,
    JudgeAnswer,
    _Failure,
    endpoint_url,
    first_json_object,
    user_prompt,
)

if TYPE_CHECKING:
    from ..index.workspace import Workspace
    from ..store import IndexStore

log = logging.getLogger(__name__)

__all__ = [
    "PROMPT_VERSION",
    "SYSTEM_PROMPT",
    "JudgeAnswer",
    "OpenAIJudge",
    "endpoint_url",
    "first_json_object",
    "judge_claims",
    "judge_results",
    "make_calibration_judge",
    "make_judge",
    "user_prompt",
]

CACHE_PREFIX = "judge:"

Progress = Callable[[int, int, str], None]  # done, total, current claim


# --------------------------------------------------------------------------
# The openai provider


class OpenAIJudge(ChatClient):
    """A judge on an OpenAI-compatible chat-completions endpoint: its verdict cache and fan-out
    (the requests themselves are ChatClient's)."""

    name = "openai"

    def __init__(
        self,
        config: JudgeConfig,
        *,
        trusted: bool,
        store: IndexStore | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(config, trusted=trusted, environ=environ)
        self.store = store
        self._memo: dict[str, JudgeVerdict] = {}  # answers (also in the store)
        self._failed: dict[str, JudgeVerdict] = {}  # the last fallback per claim, until asked again

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAIJudge(url={self.url!r}, model={self.model!r})"

    # -- cache -------------------------------------------------------------------

    def cache_key(self, claim: str, quotes: Sequence[str]) -> str:
        payload = json.dumps(
            {"url": self.url, "model": self.model, "prompt": PROMPT_VERSION, "claim": claim, "quotes": list(quotes)},
            ensure_ascii=False,
            sort_keys=True,
        )
        return CACHE_PREFIX + hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def _lookup(self, key: str) -> JudgeVerdict | None:
        with self._lock:
            hit = self._memo.get(key)
        if hit is not None:
            return hit
        if self.store is None:
            return None
        try:
            raw = self.store.cache_get(key)
        except Exception as exc:  # noqa: BLE001 - a cache that cannot be read is no cache
            log.debug("judge cache: cannot read: %s", exc)
            return None
        if raw is None:
            return None
        try:
            answer = JudgeAnswer.model_validate_json(raw)
        except ValidationError:
            return None
        verdict = self._verdict(answer)
        with self._lock:
            self._memo[key] = verdict
        return verdict

    def _remember(self, key: str, answer: JudgeAnswer) -> JudgeVerdict:
        verdict = self._verdict(answer)
        with self._lock:
            self._memo[key] = verdict
            self._failed.pop(key, None)
        if self.store is not None:
            try:
                self.store.cache_put(key, answer.model_dump_json())
            except Exception as exc:  # noqa: BLE001 - a cache that cannot be written is no cache
                log.debug("judge cache: cannot write: %s", exc)
        return verdict

    def _verdict(self, answer: JudgeAnswer) -> JudgeVerdict:
        return JudgeVerdict(supported=answer.label == "supported", score=answer.score, judge=self.name)

    @staticmethod
    def _fallback(note: str) -> JudgeVerdict:
        return JudgeVerdict(supported=False, score=None, judge="fallback", note=note)

    # -- the three ways to ask -------------------------------------------------------

    def __call__(self, claim: str, quotes: Sequence[str]) -> JudgeVerdict | None:
        """The Verifier hook: a verdict already known, else None (the lexical check).

        Never contacts the endpoint."""
        return self.cached(claim, quotes)

    def _known(self, claim: str, quotes: Sequence[str]) -> tuple[str, JudgeVerdict | None]:
        """The claim's cache key, and its verdict when no request is needed: a
        fallback while the judge is unusable, else a cached answer."""
        key = self.cache_key(claim, quotes)
        if self.problem:
            return key, self._fallback(self.problem)
        return key, self._lookup(key)

    def cached(self, claim: str, quotes: Sequence[str]) -> JudgeVerdict | None:
        """The verdict known for this claim (an answer, or the last fallback), else None."""
        key, hit = self._known(claim, quotes)
        if hit is not None:
            return hit
        with self._lock:
            return self._failed.get(key)

    def judge(self, claim: str, quotes: Sequence[str]) -> JudgeVerdict:
        """Ask (blocking) unless the answer is cached; a failure gives a fallback verdict."""
        key, hit = self._known(claim, quotes)
        if hit is not None:
            return hit
        try:
            answer = self._ask(claim, list(quotes))
        except _Failure as exc:
            verdict = self._fallback(self._scrub(exc.reason))
        except Exception as exc:  # nothing about a judge may stop a check
            log.debug("judge: unexpected error", exc_info=True)
            verdict = self._fallback(self._scrub(f"unexpected error: {type(exc).__name__}: {exc}"))
        else:
            return self._remember(key, answer)
        with self._lock:
            self._failed[key] = verdict
        return verdict

    def judge_many(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
    ) -> list[JudgeVerdict]:
        """Verdicts for many (claim, quotes) pairs, asked in parallel; same order as `items`.

        Blocking: call it off the thread that must stay responsive. Cached
        claims cost nothing; equal pairs are asked once. Once `cancel` is set,
        claims not asked yet get a fallback verdict at once (requests in
        flight finish within the timeout)."""
        total = len(items)
        out: list[JudgeVerdict | None] = [None] * total
        todo: dict[str, list[int]] = {}
        for i, (claim, quotes) in enumerate(items):
            key, hit = self._known(claim, quotes)
            if hit is not None:
                out[i] = hit
            else:
                todo.setdefault(key, []).append(i)
        done = total - sum(len(v) for v in todo.values())
        if progress:
            progress(done, total, "")
        if todo:
            workers = min(self.concurrency, len(todo))
            with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cairn-judge") as pool:
                futures = {}
                for idx in todo.values():
                    claim, quotes = items[idx[0]]
                    futures[pool.submit(self._judge_unless, cancel, claim, quotes)] = (idx, claim)
                for fut in as_completed(futures):
                    idx, claim = futures[fut]
                    verdict = fut.result()
                    for i in idx:
                        out[i] = verdict
                    done += len(idx)
                    if progress:
                        progress(done, total, claim)
        return [v if v is not None else self._fallback("no verdict") for v in out]

    def _judge_unless(self, cancel: threading.Event | None, claim: str, quotes: Sequence[str]) -> JudgeVerdict:
        if cancel is not None and cancel.is_set():
            return self._fallback("cancelled before the judge was asked")
        return self.judge(claim, quotes)

# --------------------------------------------------------------------------
# Applying verdicts


def judge_claims(
    claims: Sequence[ClaimResult],
    judge: OpenAIJudge,
    threshold: float,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> list[ClaimResult]:
    """Ask the judge about every claim with a resolved quote; new results, same order.

    Blocking (network): run it in the background. Claims without resolved
    quotes are returned as they are. The inputs are not modified."""
    wanted = [(i, judge_quotes(cr.citations)) for i, cr in enumerate(claims)]
    wanted = [(i, q) for i, q in wanted if q]
    verdicts = judge.judge_many([(claims[i].claim.text, q) for i, q in wanted], progress=progress, cancel=cancel)
    out = list(claims)
    for (i, _), verdict in zip(wanted, verdicts):
        out[i] = apply_verdict(claims[i], verdict, threshold)
    return out


def judge_results(
    results: Sequence[DraftResult],
    judge: OpenAIJudge,
    threshold: float,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> None:
    """judge_claims over the claims of many drafts at once; replaces their claims in place."""
    flat = [cr for r in results for cr in r.claims]
    judged = judge_claims(flat, judge, threshold, progress, cancel)
    pos = 0
    for r in results:
        n = len(r.claims)
        r.claims = judged[pos : pos + n]
        pos += n


# --------------------------------------------------------------------------
# Factories


def make_judge(ws: Workspace) -> OpenAIJudge | None:
    """The configured judge of a workspace, or None for the lexical check (``stub``).

    Raises ConfigError on a judge configuration the user must fix. A judge
    whose URL is refused, or whose key is missing, is still returned: its
    ``problem`` says why every claim falls back."""
    return _make(ws.settings, ws.store)


def make_calibration_judge(root: Path, settings: Settings) -> OpenAIJudge | None:
    """The judge for `cairn calibrate`; its answers are cached in the workspace's store when there is one."""
    if settings.config.judge.provider == "stub":
        return None
    from ..store import STORE_DIR, STORE_FILE, Store

    store = None
    if (root / STORE_DIR / STORE_FILE).is_file() or (root / "cairn.toml").is_file():
        store = Store(root)
    return _make(settings, store)


def _make(settings: Settings, store: IndexStore | None) -> OpenAIJudge | None:
    cfg = settings.config.judge
    if cfg.provider == "stub":
        return None
    if cfg.provider == "openai":
        return OpenAIJudge(cfg, trusted=settings.judge_url_trusted, store=store)
    raise ConfigError(f"judge.provider {cfg.provider!r} is not known")  # pragma: no cover - config validates
