"""Several claims in one request to an OpenAI-compatible judge (`judge.claims_per_request`).

The request numbers the claims, each with its own numbered quotes, and asks for one verdict
per claim: `{"verdicts": [{"claim": 1, "label": ..., "score": ...}, ...]}`. The reply is read
claim by claim: a claim whose verdict is missing, repeated with different answers or malformed
gets a fallback verdict saying so, and the others keep theirs; a request that fails gives each
of its claims the fallback. Verdicts asked this way are cached under their own prompt version,
apart from those asked one claim a request.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from .client import SYSTEM_PROMPT, JudgeAnswer, _Failure, _snippet, first_json_object

if TYPE_CHECKING:
    from ..verify.verdicts import JudgeVerdict
    from .cached import Progress

BATCH_PROMPT_VERSION = "2-batch-1"

BATCH_SYSTEM_PROMPT = SYSTEM_PROMPT.split("\n\nAnswer with")[0].replace(
    "You get a claim and numbered quotes taken from sources.",
    "You get several numbered claims, each with its own numbered quotes taken from sources; judge each"
    " claim against its own quotes only.",
) + """

Answer with one JSON object and nothing else, one verdict per claim, in the claims' order:
{"verdicts": [{"claim": the claim's number, "label": "supported" or "not_supported", \
"score": a number from 0 to 1, how sure you are that its quotes entail it}, ...]}"""


def batch_prompt(items: Sequence[tuple[str, Sequence[str]]]) -> str:
    lines: list[str] = []
    for n, (claim, quotes) in enumerate(items, start=1):
        lines += [f"Claim {n}:", claim.strip(), f"Quotes for claim {n}:"]
        lines += [f"[{i}] {q.strip()}" for i, q in enumerate(quotes, start=1)]
        lines.append("")
    lines.append(f"Give one verdict for each of the {len(items)} claims. Answer with the JSON object only.")
    return "\n".join(lines)


def read_verdicts(content: str, n: int) -> list[JudgeAnswer | str]:
    """Each claim's answer in a batch reply, or the reason it has none."""
    text = content.strip()
    found: Any = None
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        found = first_json_object(text)
    if isinstance(found, dict):
        found = next((found[k] for k in ("verdicts", "results", "answers") if isinstance(found.get(k), list)), None)
    if not isinstance(found, list):
        why = f"malformed batch answer: no list of verdicts in the reply {_snippet(content)!r}"
        return [why] * n
    numbered = [v for v in found if isinstance(v, dict) and _number(v) is not None]
    answers: dict[int, JudgeAnswer | str] = {}
    if not numbered and len(found) == n:  # no numbers, one verdict per claim: taken in order
        pairs = list(enumerate(found, start=1))
    else:
        pairs = [(_number(v), v) for v in numbered]  # type: ignore[misc]
    for k, v in pairs:
        if not 1 <= k <= n:
            continue
        try:
            got: JudgeAnswer | str = JudgeAnswer.model_validate(v)
        except (ValidationError, RecursionError):
            got = f"malformed batch answer for claim {k}: {_snippet(json.dumps(v, ensure_ascii=False, default=str))}"
        if k in answers and answers[k] != got:
            got = f"malformed batch answer: claim {k} was given two different verdicts"
        answers[k] = got
    return [answers.get(k, f"malformed batch answer: no verdict for claim {k}") for k in range(1, n + 1)]


def _number(v: dict[str, Any]) -> int | None:
    k = v.get("claim", v.get("id"))
    if isinstance(k, bool):
        return None
    if isinstance(k, int):
        return k
    if isinstance(k, str) and k.strip().isdigit():
        return int(k.strip())
    return None


def judge_batched(
    judge: Any,  # an OpenAIJudge (providers.py imports this module: no import back)
    items: Sequence[tuple[str, Sequence[str]]],
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
) -> list[JudgeVerdict]:
    """judge_many with `claims_per_request` claims a request (requests in parallel up to `concurrency`)."""
    total = len(items)
    out: list[JudgeVerdict | None] = [None] * total
    todo = judge._todo(items, out)
    done = total - sum(len(v) for v in todo.values())
    if progress:
        progress(done, total, "")
    keys = list(todo)
    size = judge.claims_per_request
    groups = [keys[i : i + size] for i in range(0, len(keys), size)]

    def ask(group: list[str]) -> list[JudgeVerdict]:
        asked = [items[todo[k][0]] for k in group]
        if cancel is not None and cancel.is_set():
            return [judge._fallback("cancelled before the judge was asked")] * len(group)
        messages = [{"role": "system", "content": BATCH_SYSTEM_PROMPT},
                    {"role": "user", "content": batch_prompt(asked)}]
        try:
            content: str = judge._exchange(messages, judge._reply_text)
        except _Failure as exc:
            return [judge._forget(k, judge._fallback(judge._scrub(exc.reason))) for k in group]
        except Exception as exc:  # noqa: BLE001 - nothing about a judge may stop a check
            why = judge._scrub(f"unexpected error: {type(exc).__name__}: {exc}")
            return [judge._forget(k, judge._fallback(why)) for k in group]
        verdicts = []
        for k, got in zip(group, read_verdicts(content, len(group))):
            if isinstance(got, str):
                verdicts.append(judge._forget(k, judge._fallback(judge._scrub(got))))
            else:
                verdicts.append(judge._remember(k, got))
        return verdicts

    if groups:
        with ThreadPoolExecutor(max_workers=min(judge.concurrency, len(groups)),
                                thread_name_prefix="cairn-judge") as pool:
            futures = {pool.submit(ask, g): g for g in groups}
            for fut in as_completed(futures):
                group = futures[fut]
                for k, verdict in zip(group, fut.result()):
                    for i in todo[k]:
                        out[i] = verdict
                    done += len(todo[k])
                if progress:
                    progress(done, total, items[todo[group[-1]][0]][0])
    return [v if v is not None else judge._fallback("no verdict") for v in out]
