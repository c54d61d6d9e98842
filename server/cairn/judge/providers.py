"""Judges: who decides whether the quotes support a claim (SPEC sections 4, 7).

Three providers:

- ``stub`` (the default) is the lexical check itself: :func:`make_judge`
  returns None and the verifier's score test decides.
- ``openai`` asks any OpenAI-compatible chat-completions endpoint (Ollama,
  a llama.cpp server, vLLM, a hosted API) whether the quotes, taken together,
  entail the claim, and reads back ``{"label", "score"}``.
- ``nli`` runs a local entailment classifier (an ONNX export of a sequence
  classifier, :mod:`cairn.judge.nli`) on the claim and the quotes.

Every judge answer is cached in the workspace store (:mod:`cairn.judge.cached`), keyed by the
endpoint and model (the model folder's digest for ``nli``), :data:`PROMPT_VERSION` and a hash
of the claim and its quotes, so
an unchanged claim is never judged twice. A judge that fails (unreachable,
slow, an error status, a malformed answer, a refused URL, a missing key)
gives a ``fallback`` verdict: the lexical check decides and the claim gets a
``judge-fallback`` diagnostic saying why. Nothing blocks on the judge.

Using a judge:

- ``judge(claim, quotes)`` -- as the :class:`~cairn.verify.Verifier` hook --
  only looks verdicts up (memory, then the store) and never does any network
  I/O, so verifying stays fast (the language server calls it per keystroke).
- ``judge_many`` asks the judge about every claim not judged yet (the endpoint in
  parallel, the local model in batches) (blocking; run it in the background).
- :func:`judge_claims` / :func:`judge_results` ask for the verdicts of
  verified claims and apply them (:func:`cairn.verify.apply_verdict`).

The API key is read from the environment variable ``api_key_env`` names and
only ever goes into the ``Authorization`` header: it is never logged, cached,
or put in a message.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.config import ConfigError, EndpointConfig, Settings
from ..core.model import ClaimResult, DraftResult
from ..verify.verdicts import JudgeVerdict, apply_verdict, judge_quotes
from .cached import CACHE_PREFIX, CachingJudge, Progress
from .client import (
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    ChatClient,
    JudgeAnswer,
    endpoint_url,
    first_json_object,
    user_prompt,
)

if TYPE_CHECKING:
    from ..index.workspace import Workspace
    from ..store import IndexStore

log = logging.getLogger(__name__)

__all__ = [
    "CACHE_PREFIX",
    "PROMPT_VERSION",
    "SYSTEM_PROMPT",
    "CachingJudge",
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



# --------------------------------------------------------------------------
# The openai provider


class OpenAIJudge(ChatClient, CachingJudge):
    """A judge on an OpenAI-compatible chat-completions endpoint: the requests are ChatClient's,
    the verdict cache and fan-out CachingJudge's."""

    name = "openai"

    def __init__(
        self,
        config: EndpointConfig,
        *,
        trusted: bool,
        store: IndexStore | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(config, trusted=trusted, environ=environ)
        self._init_cache(store)
        # [judge] only; `cairn ask` asks one question a request
        self.claims_per_request = int(getattr(config, "claims_per_request", 1))

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAIJudge(url={self.url!r}, model={self.model!r})"

    def identity(self) -> dict[str, Any]:
        if self.claims_per_request > 1:
            from .batch import BATCH_PROMPT_VERSION

            return {"url": self.url, "model": self.model, "prompt": BATCH_PROMPT_VERSION}
        return {"url": self.url, "model": self.model, "prompt": PROMPT_VERSION}

    def usage(self) -> dict[str, Any]:
        with self._lock:
            return {**super().usage(), "requests": self.requests, "prompt_tokens": self.prompt_tokens,
                    "completion_tokens": self.completion_tokens}

    def judge_many(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
    ) -> list[JudgeVerdict]:
        """Verdicts for many claims: one request a claim, or `claims_per_request` claims a request."""
        if self.claims_per_request <= 1:
            return super().judge_many(items, progress, cancel)
        from .batch import judge_batched

        return judge_batched(self, items, progress, cancel)


# --------------------------------------------------------------------------
# Applying verdicts


def judge_claims(
    claims: Sequence[ClaimResult],
    judge: CachingJudge,
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
    judge: CachingJudge,
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


def make_judge(ws: Workspace) -> CachingJudge | None:
    """The configured judge of a workspace, or None for the lexical check (``stub``).

    Raises ConfigError on a judge configuration the user must fix. A judge
    whose URL is refused, or whose key is missing, is still returned: its
    ``problem`` says why every claim falls back."""
    return _make(ws.settings, ws.store)


def make_calibration_judge(root: Path, settings: Settings) -> CachingJudge | None:
    """The judge for `cairn calibrate`; its answers are cached in the workspace's store when there is one."""
    if settings.config.judge.provider == "stub":
        return None
    from ..store import STORE_DIR, STORE_FILE, Store

    store = None
    if (root / STORE_DIR / STORE_FILE).is_file() or (root / "cairn.toml").is_file():
        store = Store(root)
    return _make(settings, store)


def _make(settings: Settings, store: IndexStore | None) -> CachingJudge | None:
    cfg = settings.config.judge
    if cfg.provider == "stub":
        return None
    if cfg.provider == "openai":
        return OpenAIJudge(cfg, trusted=settings.judge_url_trusted, store=store)
    if cfg.provider == "nli":
        from .nli import NLIJudge

        return NLIJudge(cfg.model, settings.judge_model_folder, trusted=settings.judge_model_trusted, store=store)
    raise ConfigError(f"judge.provider {cfg.provider!r} is not known")  # pragma: no cover - config validates
