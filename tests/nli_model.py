"""A tiny entailment classifier built in the test itself, in the layout an ONNX export of a
Hugging Face sequence classifier writes (model.onnx, tokenizer.json, config.json), for the nli
judge's tests: no real model, known verdicts.

The tokenizer is a WordLevel one over a small vocabulary (lower-cased, split on white space and
punctuation; the pair template "[CLS] A [SEP] B [SEP]"). The graph counts how often the token
KEYWORD appears among the input's unmasked tokens: none gives "entailment" about 0.04, one or more
about 0.99. So a quote holding KEYWORD supports any claim and a quote without it supports none,
whatever the lexical check says.
"""

from __future__ import annotations

import json
from pathlib import Path

KEYWORD = "confirmed"
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
WORDS = (
    "a the of to and in is was it for on by with from this that not customer customers days day credit"
    " damaged delivery deliveries request requests has have can ask when arrives bridge opened spring"
    " ferries halted stopped running harbour reports report stated office filler word words sentence more"
    f" text here there after before {KEYWORD} 14 30 one two three"
).split()
THREE_LABELS = {"0": "contradiction", "1": "neutral", "2": "entailment"}
TWO_LABELS = {"0": "LABEL_0", "1": "LABEL_1"}


def vocab() -> dict[str, int]:
    out: dict[str, int] = {}
    for w in SPECIALS + WORDS:
        out.setdefault(w, len(out))
    return out


def build_tokenizer(path: Path, *, max_length: int | None = None) -> None:
    from tokenizers import Tokenizer, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordLevel

    v = vocab()
    tok = Tokenizer(WordLevel(v, unk_token="[UNK]"))
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()])
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", v["[CLS]"]), ("[SEP]", v["[SEP]"])],
    )
    if max_length is not None:
        tok.enable_truncation(max_length)
    tok.save(str(path))


def build_graph(path: Path, n_labels: int, supported: int, *, token_types: bool = False) -> None:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    kw = vocab()[KEYWORD]
    weight = np.zeros((1, n_labels), dtype=np.float32)
    bias = np.zeros((n_labels,), dtype=np.float32)
    weight[0, supported] = 6.0  # each KEYWORD: +6 for "supported"
    bias[supported] = -2.0  # none: supported -2 against the others' 0 (and neutral's 1)
    if n_labels == 3:
        bias[(supported + 2) % 3] = 1.0
    inits = [
        numpy_helper.from_array(np.array(kw, dtype=np.int64), "keyword"),
        numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
        numpy_helper.from_array(weight, "weight"),
        numpy_helper.from_array(bias, "bias"),
    ]
    nodes = [
        helper.make_node("Equal", ["input_ids", "keyword"], ["is_kw"]),
        helper.make_node("Cast", ["is_kw"], ["kw_int"], to=TensorProto.INT64),
        helper.make_node("Mul", ["kw_int", "attention_mask"], ["kw_seen"]),
        helper.make_node("ReduceSum", ["kw_seen", "axis1"], ["hits"], keepdims=1),
        helper.make_node("Cast", ["hits"], ["hits_f"], to=TensorProto.FLOAT),
        helper.make_node("MatMul", ["hits_f", "weight"], ["scaled"]),
        helper.make_node("Add", ["scaled", "bias"], ["logits"]),
    ]
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"]),
    ]
    if token_types:  # taken and ignored, as a BERT export's graph may
        inputs.append(helper.make_tensor_value_info("token_type_ids", TensorProto.INT64, ["batch", "sequence"]))
    graph = helper.make_graph(nodes, "tiny_nli", inputs,
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", n_labels])],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="cairn-tests")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def build(folder: Path, *, labels: dict[str, str] | None = None, max_length: int | None = None,
          token_types: bool = False) -> Path:
    """Write the tiny model's folder; `labels` is config.json's id2label (three NLI labels by default)."""
    labels = THREE_LABELS if labels is None else labels
    folder.mkdir(parents=True, exist_ok=True)
    names = {v.casefold(): int(k) for k, v in labels.items()}
    supported = names.get("entailment", names.get("supported", names.get("label_1", 0)))
    build_graph(folder / "model.onnx", len(labels), supported, token_types=token_types)
    build_tokenizer(folder / "tokenizer.json", max_length=max_length)
    config = {"architectures": ["TinyForSequenceClassification"], "model_type": "tiny", "id2label": labels,
              "label2id": {v: int(k) for k, v in labels.items()}, "max_position_embeddings": 512}
    (folder / "config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return folder
