"""What every judge provider shares: its verdicts kept in memory and in the workspace's store,
the Verifier hook that only looks them up, the fallback verdict of a judge that failed, and the
asking of many claims at once (SPEC sections 4, 7).

A provider says who it is (`name`, the identity its cache keys hash) and how one claim is
asked (`_ask`, returning a JudgeAnswer or raising _Failure with a reason safe to show); it may
ask many claims its own way (`judge_many`: the nli provider scores them in batches).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..verify.verdicts import JudgeVerdict
from .client import JudgeAnswer, _Failure

if TYPE_CHECKING:
    from ..store import IndexStore

log = logging.getLogger(__name__)

CACHE_PREFIX = "judge:"

Progress = Callable[[int, int, str], None]  # done, total, current claim


class CachingJudge:
    """A judge's verdict cache and its ways to be asked; a provider supplies `_ask` and `identity`."""

    name = "judge"
    problem: str | None = None  # why no claim can be judged (every verdict falls back), or None
    concurrency = 1
    store: IndexStore | None = None

    def _init_cache(self, store: IndexStore | None) -> None:
        self.store = store
        if not hasattr(self, "_lock"):
            self._lock = threading.Lock()
        self._memo: dict[str, JudgeVerdict] = {}  # answers (also in the store)
        self._failed: dict[str, JudgeVerdict] = {}  # the last fallback per claim, until asked again
        self.claims_asked = 0  # claims given to judge_many that no cache answered
        self.claims_cached = 0  # claims given to judge_many that the cache answered

    def usage(self) -> dict[str, Any]:
        """What this judge did in this run (`metrics.judge` of cairn check's JSON report)."""
        return {"provider": self.name, "claims_asked": self.claims_asked, "claims_cached": self.claims_cached,
                "requests": None, "prompt_tokens": None, "completion_tokens": None}

    # -- what a provider supplies -------------------------------------------------------

    def identity(self) -> dict[str, Any]:
        """What, beside the claim and quotes, makes an answer this judge's (endpoint, model, prompt)."""
        raise NotImplementedError

    def _ask(self, claim: str, quotes: list[str]) -> JudgeAnswer:
        raise NotImplementedError

    def _scrub(self, text: str) -> str:
        return text

    # -- cache -------------------------------------------------------------------

    def cache_key(self, claim: str, quotes: Sequence[str]) -> str:
        payload = json.dumps({**self.identity(), "claim": claim, "quotes": list(quotes)},
                             ensure_ascii=False, sort_keys=True)
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

    def _forget(self, key: str, verdict: JudgeVerdict) -> JudgeVerdict:
        """A fallback, kept (in memory only) until the claim is asked again."""
        with self._lock:
            self._failed[key] = verdict
        return verdict

    def _verdict(self, answer: JudgeAnswer) -> JudgeVerdict:
        return JudgeVerdict(supported=answer.label == "supported", score=answer.score, judge=self.name)

    @staticmethod
    def _fallback(note: str) -> JudgeVerdict:
        return JudgeVerdict(supported=False, score=None, judge="fallback", note=note)

    # -- the three ways to ask -------------------------------------------------------

    def __call__(self, claim: str, quotes: Sequence[str]) -> JudgeVerdict | None:
        """The Verifier hook: a verdict already known, else None (the lexical check).

        Never asks the judge."""
        return self.cached(claim, quotes)

    def _known(self, claim: str, quotes: Sequence[str]) -> tuple[str, JudgeVerdict | None]:
        """The claim's cache key, and its verdict when nothing need be asked: a
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
        return self._forget(key, verdict)

    def _todo(self, items: Sequence[tuple[str, Sequence[str]]],
              out: list[JudgeVerdict | None]) -> dict[str, list[int]]:
        """The claims still to ask, by cache key (equal pairs asked once); known verdicts go in `out`."""
        todo: dict[str, list[int]] = {}
        for i, (claim, quotes) in enumerate(items):
            key, hit = self._known(claim, quotes)
            if hit is not None:
                out[i] = hit
                with self._lock:
                    self.claims_cached += hit.judge != "fallback"
            else:
                todo.setdefault(key, []).append(i)
        with self._lock:
            self.claims_asked += len(todo)
        return todo

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
        todo = self._todo(items, out)
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
