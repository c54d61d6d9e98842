"""The `nli` judge: a local entailment cross-encoder run with ONNX Runtime, its text split by the
Hugging Face `tokenizers` library (SPEC sections 4, 7).

The model folder is the layout an ONNX export of a Hugging Face sequence classifier writes:
`model.onnx`, `tokenizer.json`, `config.json` (whose `id2label` says which output means
"supported"), and optionally `tokenizer_config.json` (its `model_max_length`).

Nothing in the folder is ever run as code: the graph is run by ONNX Runtime's own CPU kernels
(no custom-operator library is registered), the tokenizer is built from its JSON description,
and the two configuration files are read as JSON data.

A claim is scored against its resolved quotes, each read in its source sentence: their text is
cut, by sentence, into pieces that fit the model beside the claim; every (piece, claim) pair is
scored, and the claim's support is its best piece's probability of entailment (the MiniCheck
recipe). The pairs of all the claims asked at once run in batches.

A folder that cannot be read or run (a file missing or damaged, inputs the graph does not
take) is not a crash: `problem` says why, and every claim falls back to the lexical check with
a `judge-fallback` diagnostic naming the reason. Labels that cannot be mapped, an empty
`model` and a missing `nli` extra are configuration errors the user must fix.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.config import ConfigError
from ..meaning import sentence_spans
from ..verify.verdicts import JudgeVerdict, split_context
from .cached import CachingJudge, Progress
from .client import JudgeAnswer, _Failure

if TYPE_CHECKING:
    from ..store import IndexStore

log = logging.getLogger(__name__)

EXTRA = "pip install 'cairn[nli]'"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
CONFIG_FILE = "config.json"
TOKENIZER_CONFIG_FILE = "tokenizer_config.json"  # optional
# Bump when the pieces or the scoring change: verdicts cached by an older reading are then not reused
NLI_VERSION = "1"
SUPPORTED_LABELS = ("entailment", "supported")  # compared case-folded, `-` and spaces as `_`
DEFAULT_MAX_LENGTH = 512
BATCH_PAIRS = 8  # (piece, claim) pairs per run of the model
MAX_JSON_BYTES = 64 * 1024 * 1024  # tokenizer.json of a large vocabulary is tens of MB
THRESHOLD = 0.5  # a claim is supported when its best piece's entailment probability reaches it


class _Broken(Exception):
    """The model folder cannot be used; the message says why (safe to show)."""


def supported_index(id2label: Any) -> int:
    """Which output of the classifier means "supported", from config.json's `id2label`.

    `entailment` or `supported` (any case), or `LABEL_1` of a two-label model whose labels are
    the export's defaults. Anything else raises ConfigError naming the labels: a guess could
    turn every verdict around."""
    if not isinstance(id2label, dict) or not id2label:
        raise ConfigError(f"judge.model: {CONFIG_FILE} has no id2label table, so which output means"
                          " 'supported' is unknown")
    labels: dict[int, str] = {}
    for k, v in id2label.items():
        try:
            labels[int(k)] = str(v)
        except (TypeError, ValueError):
            raise ConfigError(f"judge.model: {CONFIG_FILE} id2label has a key that is not a number: {k!r}") from None
    if sorted(labels) != list(range(len(labels))):
        raise ConfigError(f"judge.model: {CONFIG_FILE} id2label keys must be 0 to {len(labels) - 1}"
                          f" (they are {sorted(labels)})")
    found = [i for i, name in labels.items() if _label(name) in SUPPORTED_LABELS]
    if len(found) == 1:
        return found[0]
    if not found and len(labels) == 2 and {_label(n) for n in labels.values()} == {"label_0", "label_1"}:
        return next(i for i, n in labels.items() if _label(n) == "label_1")
    shown = ", ".join(f"{i}: {labels[i]}" for i in sorted(labels))
    raise ConfigError(
        f"judge.model: cannot tell which output of the model means 'supported' from its labels ({shown});"
        " expected one label named 'entailment' or 'supported', or LABEL_0 / LABEL_1 of a two-label model"
    )


def _label(name: str) -> str:
    return "_".join(name.strip().casefold().replace("-", " ").split())


def _read_json(path: Path, what: str) -> Any:
    try:
        if path.stat().st_size > MAX_JSON_BYTES:
            raise _Broken(f"{what} is larger than {MAX_JSON_BYTES // (1024 * 1024)} MB")
        return json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise _Broken(f"{what} is missing") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _Broken(f"{what} cannot be read: {type(exc).__name__}: {exc}") from None


def folder_digest(folder: Path) -> str:
    """A digest of the files that decide the model's verdicts (the cache key's model part)."""
    h = hashlib.sha256()
    for name in (MODEL_FILE, TOKENIZER_FILE, CONFIG_FILE, TOKENIZER_CONFIG_FILE):
        path = folder / name
        if name == TOKENIZER_CONFIG_FILE and not path.exists():
            continue
        try:
            with path.open("rb") as f:
                file_hash = hashlib.file_digest(f, "sha256").hexdigest()
        except FileNotFoundError:
            raise _Broken(f"{name} is missing") from None
        except OSError as exc:
            raise _Broken(f"{name} cannot be read: {exc}") from None
        h.update(f"{name}\0{file_hash}\0".encode())
    return h.hexdigest()


# --------------------------------------------------------------------------
# The model


class Model:
    """A loaded classifier: its tokenizer, its ONNX Runtime session and which output is "supported"."""

    def __init__(self, folder: Path, supported: int, n_labels: int, threads: int | None = None) -> None:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - NLIJudge checks first
            raise _Broken(f"the nli extra is not installed ({EXTRA}): {exc}") from None
        self.supported = supported
        self.n_labels = n_labels
        try:
            self.tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        except Exception as exc:  # noqa: BLE001 - the library raises plain Exceptions on a bad file
            raise _Broken(f"{TOKENIZER_FILE} cannot be read as a tokenizer: {_short(exc)}") from None
        self.max_length = _max_length(folder, self.tokenizer)
        self.specials = self.tokenizer.num_special_tokens_to_add(True)
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()  # counts and cuts whole sentences
        # the pairs: a piece is made to fit, but a claim longer than the model reads is cut too
        self.pair_tokenizer = Tokenizer.from_str(self.tokenizer.to_str())
        self.pair_tokenizer.enable_truncation(self.max_length, strategy="longest_first")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only: a warning about unused initialisers is no user's business
        try:
            # the CPU provider's own kernels only: no custom-operator library is ever registered
            self.session = ort.InferenceSession(str(folder / MODEL_FILE), sess_options=options,
                                                providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - ONNX Runtime raises its own exception types
            raise _Broken(f"{MODEL_FILE} cannot be loaded: {_short(exc)}") from None
        self.inputs: dict[str, str] = {}
        for inp in self.session.get_inputs():
            if inp.name not in ("input_ids", "attention_mask", "token_type_ids"):
                raise _Broken(f"{MODEL_FILE} wants an input named {inp.name!r}; a sequence classifier's export"
                              " takes input_ids, attention_mask and token_type_ids")
            self.inputs[inp.name] = "int32" if inp.type == "tensor(int32)" else "int64"
        if "input_ids" not in self.inputs:
            raise _Broken(f"{MODEL_FILE} takes no input_ids")
        pad = self.tokenizer.padding
        self.pad_id = 0
        for token in ("[PAD]", "<pad>", "<PAD>"):
            tid = self.tokenizer.token_to_id(token)
            if tid is not None:
                self.pad_id = tid
                break
        if pad and isinstance(pad.get("pad_id"), int):
            self.pad_id = pad["pad_id"]

    def lengths(self, texts: Sequence[str]) -> list[int]:
        return [len(e.ids) for e in self.tokenizer.encode_batch(list(texts), add_special_tokens=False)]

    def pieces(self, claim: str, quotes: Sequence[str]) -> list[str]:
        """The quotes' text (each in its source sentence) cut by sentence into pieces that fit beside the claim."""
        claim_len = min(self.lengths([claim])[0], self.max_length // 2)
        budget = max(8, self.max_length - claim_len - self.specials)
        sentences: list[str] = []
        for q in quotes:
            quote, sentence = split_context(q)
            text = quote
            if sentence and " ".join(quote.split()) in " ".join(sentence.split()):
                text = sentence
            elif sentence:
                text = f"{quote} {sentence}"
            sentences += [text[s:e] for s, e in sentence_spans(text)]
        if not sentences:
            return []
        out: list[str] = []
        current: list[str] = []
        used = 0
        for sentence, n in zip(sentences, self.lengths(sentences)):
            if n > budget:  # one sentence longer than the room: cut it by tokens
                if current:
                    out.append(" ".join(current))
                    current, used = [], 0
                out += self._cut(sentence, budget)
                continue
            if current and used + n > budget:
                out.append(" ".join(current))
                current, used = [], 0
            current.append(sentence)
            used += n
        if current:
            out.append(" ".join(current))
        return out

    def _cut(self, text: str, budget: int) -> list[str]:
        offsets = self.tokenizer.encode(text, add_special_tokens=False).offsets
        out = []
        for i in range(0, len(offsets), budget):
            window = offsets[i : i + budget]
            out.append(text[window[0][0] : window[-1][1]])
        return [p for p in out if p.strip()]

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """The probability of "supported" for each (premise, claim) pair, in one run of the model."""
        import numpy as np

        encs = self.pair_tokenizer.encode_batch([(p, c) for p, c in pairs], add_special_tokens=True)
        width = min(self.max_length, max(len(e.ids) for e in encs))
        ids = np.full((len(encs), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(encs), width), dtype=np.int64)
        types = np.zeros((len(encs), width), dtype=np.int64)
        for row, e in enumerate(encs):
            n = min(width, len(e.ids))
            ids[row, :n] = e.ids[:n]
            mask[row, :n] = 1
            types[row, :n] = e.type_ids[:n]
        given = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        feed = {name: given[name].astype(dtype) for name, dtype in self.inputs.items()}
        try:
            logits = np.asarray(self.session.run(None, feed)[0], dtype=np.float64)
        except Exception as exc:  # noqa: BLE001 - ONNX Runtime raises its own exception types
            raise _Failure(f"the model failed to run: {_short(exc)}", retry=False) from None
        if logits.ndim != 2 or logits.shape != (len(encs), self.n_labels):
            raise _Failure(f"the model gave outputs of shape {list(logits.shape)}; expected"
                           f" [{len(encs)}, {self.n_labels}] (one score per label of {CONFIG_FILE})", retry=False)
        if not np.all(np.isfinite(logits)):
            raise _Failure("the model gave a score that is not a number", retry=False)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        return [float(p) for p in probs[:, self.supported]]


def _max_length(folder: Path, tokenizer: Any) -> int:
    """How many tokens the model reads: the tokenizer's truncation, else tokenizer_config.json's
    model_max_length, else config.json's max_position_embeddings (at most 512), else 512."""
    trunc = tokenizer.truncation
    if trunc and isinstance(trunc.get("max_length"), int) and trunc["max_length"] > 0:
        return int(trunc["max_length"])
    try:
        tc = _read_json(folder / TOKENIZER_CONFIG_FILE, TOKENIZER_CONFIG_FILE)
    except _Broken:
        tc = None
    if isinstance(tc, dict) and isinstance(tc.get("model_max_length"), int) and 0 < tc["model_max_length"] <= 100_000:
        return int(tc["model_max_length"])
    cfg = _read_json(folder / CONFIG_FILE, CONFIG_FILE)
    mpe = cfg.get("max_position_embeddings") if isinstance(cfg, dict) else None
    if isinstance(mpe, int) and mpe > 16:
        return min(mpe, DEFAULT_MAX_LENGTH)
    return DEFAULT_MAX_LENGTH


def _short(exc: BaseException, n: int = 300) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= n else text[: n - 1] + "…"


# --------------------------------------------------------------------------
# The judge


class NLIJudge(CachingJudge):
    """The `nli` provider: a local classifier on (piece of the quotes, claim) pairs."""

    name = "nli"

    def __init__(self, model: str, folder: Path, *, trusted: bool, store: IndexStore | None = None,
                 threads: int | None = None) -> None:
        if not model.strip():
            raise ConfigError(f"judge.model is empty: the 'nli' provider needs the folder of an ONNX entailment"
                              f" model ({MODEL_FILE}, {TOKENIZER_FILE}, {CONFIG_FILE})")
        try:
            import onnxruntime  # noqa: F401 - only asking whether it is installed
            import tokenizers  # noqa: F401 - the same
        except ImportError as exc:
            raise ConfigError(f"judge.provider 'nli' needs onnxruntime and tokenizers ({exc.name} is not"
                              f" installed): {EXTRA}") from None
        self._lock = threading.Lock()
        self._init_cache(store)
        self.folder = folder
        self.threads = threads
        self.digest = ""
        self._model: Model | None = None
        self._supported = 0
        self._n_labels = 0
        if not trusted:
            self.problem = (
                f"refused to load the judge model folder {folder}: only the workspace's cairn.toml names it and"
                " it is outside the workspace; name it in user settings (cairn.judge.model) or CAIRN_JUDGE_MODEL"
            )
            return
        try:
            if not folder.is_dir():
                raise _Broken("it is not a folder")
            cfg = _read_json(folder / CONFIG_FILE, CONFIG_FILE)
            labels = cfg.get("id2label") if isinstance(cfg, dict) else None
            self._supported = supported_index(labels)  # ConfigError: the user must fix it
            self._n_labels = len(labels) if isinstance(labels, dict) else 0
            self.digest = folder_digest(folder)
        except _Broken as exc:
            self.problem = self._broken(exc)

    def __repr__(self) -> str:
        return f"NLIJudge(folder={str(self.folder)!r})"

    def _broken(self, exc: _Broken) -> str:
        return f"the judge model folder {self.folder} cannot be used: {exc}"

    def identity(self) -> dict[str, Any]:
        return {"provider": "nli", "model": self.digest, "reading": NLI_VERSION}

    def model(self) -> Model:
        """The loaded model (loaded once, on first use); raises _Failure, and sets `problem`, when it cannot be."""
        with self._lock:
            if self._model is not None:
                return self._model
            if self.problem:
                raise _Failure(self.problem, retry=False)
            try:
                self._model = Model(self.folder, self._supported, self._n_labels, self.threads)
            except _Broken as exc:
                self.problem = self._broken(exc)
                raise _Failure(self.problem, retry=False) from None
            return self._model

    def _ask(self, claim: str, quotes: list[str]) -> JudgeAnswer:
        return self._score_claims([(claim, quotes)])[0]

    def _score_claims(self, items: Sequence[tuple[str, Sequence[str]]],
                      cancel: threading.Event | None = None) -> list[JudgeAnswer]:
        """The answers for many claims: their pieces scored together, in batches of similar length."""
        model = self.model()
        pairs: list[tuple[int, str, str]] = []  # claim index, piece, claim
        for i, (claim, quotes) in enumerate(items):
            pairs += [(i, piece, claim) for piece in model.pieces(claim, quotes)]
        best = [0.0] * len(items)
        order = sorted(range(len(pairs)), key=lambda k: len(pairs[k][1]) + len(pairs[k][2]))
        for start in range(0, len(order), BATCH_PAIRS):
            if cancel is not None and cancel.is_set():
                raise _Failure("cancelled before the judge was asked", retry=False)
            batch = [pairs[k] for k in order[start : start + BATCH_PAIRS]]
            for (i, _, _), p in zip(batch, model.score([(piece, claim) for _, piece, claim in batch])):
                best[i] = max(best[i], p)
        return [JudgeAnswer(label="supported" if b >= THRESHOLD else "not_supported", score=_clamp(b)) for b in best]

    def judge_many(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
    ) -> list[JudgeVerdict]:
        """Verdicts for many (claim, quotes) pairs, scored in batches; same order as `items`.

        Blocking (the model runs on this thread). Cached claims cost nothing; equal pairs are
        scored once. A failure gives every claim not yet scored a fallback verdict with the reason."""
        total = len(items)
        out: list[JudgeVerdict | None] = [None] * total
        todo = self._todo(items, out)
        done = total - sum(len(v) for v in todo.values())
        if progress:
            progress(done, total, "")
        keys = list(todo)
        step = max(1, BATCH_PAIRS // 2)  # claims per round: the progress moves, a cancel is heard
        for start in range(0, len(keys), step):
            chunk = keys[start : start + step]
            asked = [items[todo[k][0]] for k in chunk]
            try:
                answers: list[JudgeAnswer | None] = list(self._score_claims(asked, cancel))
                reason = ""
            except _Failure as exc:
                answers, reason = [None] * len(chunk), exc.reason
            except Exception as exc:  # nothing about a judge may stop a check
                log.debug("nli judge: unexpected error", exc_info=True)
                answers, reason = [None] * len(chunk), f"unexpected error: {type(exc).__name__}: {_short(exc)}"
            for key, answer in zip(chunk, answers):
                verdict = self._remember(key, answer) if answer is not None else self._forget(key, self._fallback(reason))
                for i in todo[key]:
                    out[i] = verdict
                done += len(todo[key])
            if progress:
                progress(done, total, asked[-1][0])
        return [v if v is not None else self._fallback("no verdict") for v in out]


def _clamp(p: float) -> float:
    return 0.0 if math.isnan(p) else min(1.0, max(0.0, p))
