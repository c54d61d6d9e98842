"""How fast the nli judge runs a model of a realistic size (issue 48).

    .venv/bin/python bench/judge_bench.py [--layers 12] [--claims 32] [--threads 2]

Builds, with random weights, an encoder of the shape of the base-sized entailment models
(DeBERTa-v3-base, MiniCheck-DeBERTa-v3, BERT/RoBERTa-base: 12 layers, hidden size 768, 12
heads, feed-forward 3072, a 3-label head), writes it in the layout an ONNX export of a Hugging
Face sequence classifier writes (model.onnx, tokenizer.json, config.json), and runs it through
the real provider (cairn.judge.nli.NLIJudge). The verdicts mean nothing; the time is real.

The graph is plain self-attention: DeBERTa's relative-position terms add work per layer that
this graph leaves out, so a real DeBERTa-v3-base export runs somewhat slower than the figures
printed here. The vocabulary is 30 522 words (BERT's size): it changes the file's size, not
the time per token. The tokenizer splits on words, so the token counts printed are words and
punctuation (a subword tokenizer gives somewhat more tokens for the same text).

Prints: the build and load times, one claim at a time (a claim with one short quote, as the
editor asks on a save), the model's run for a full batch of pairs, and many claims at once.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HIDDEN, HEADS, FFN, VOCAB, MAX_POS, LABELS = 768, 12, 3072, 30522, 512, 3


def build(folder: Path, layers: int, seed: int = 0) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from tokenizers import Tokenizer, pre_tokenizers, processors
    from tokenizers.models import WordLevel

    rng = np.random.default_rng(seed)
    inits: list = []
    nodes: list = []

    def weight(name: str, *shape: int, scale: float = 0.02) -> str:
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def const(name: str, value, dtype=np.int64) -> str:
        inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    def node(op: str, ins: list[str], out: str, **attrs) -> str:
        nodes.append(helper.make_node(op, ins, [out], **attrs))
        return out

    def layer_norm(x: str, name: str) -> str:
        inits.append(numpy_helper.from_array(np.ones(HIDDEN, np.float32), f"{name}_g"))
        inits.append(numpy_helper.from_array(np.zeros(HIDDEN, np.float32), f"{name}_b"))
        return node("LayerNormalization", [x, f"{name}_g", f"{name}_b"], f"{name}_out", axis=-1, epsilon=1e-7)

    def dense(x: str, name: str, n_in: int, n_out: int) -> str:
        mm = node("MatMul", [x, weight(f"{name}_w", n_in, n_out)], f"{name}_mm")
        inits.append(numpy_helper.from_array(np.zeros(n_out, np.float32), f"{name}_b"))
        return node("Add", [mm, f"{name}_b"], f"{name}_out")

    head = HIDDEN // HEADS
    const("heads_shape", [0, 0, HEADS, head])
    const("merge_shape", [0, 0, HIDDEN])
    const("scale", 1.0 / np.sqrt(head), np.float32)
    const("one_f", 1.0, np.float32)
    const("neg", -1e4, np.float32)
    const("half", 0.5, np.float32)
    const("sqrt2", np.sqrt(2.0), np.float32)
    const("axes12", [1, 2])
    const("zero", 0)
    # embeddings: word + position + token type, then a layer norm
    words = node("Gather", [weight("word_emb", VOCAB, HIDDEN), "input_ids"], "words")
    shape = node("Shape", ["input_ids"], "ids_shape")
    seq = node("Gather", [shape, const("one", 1)], "seq_len")
    positions = node("Range", ["zero", seq, const("step", 1)], "positions")
    pos = node("Gather", [weight("pos_emb", MAX_POS, HIDDEN), positions], "pos")
    types = node("Gather", [weight("type_emb", 2, HIDDEN), "token_type_ids"], "types")
    x = node("Add", [node("Add", [words, pos], "wp"), types], "emb")
    x = layer_norm(x, "emb_ln")
    # the attention mask as an additive bias [batch, 1, 1, seq]
    m = node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    m = node("Unsqueeze", [m, "axes12"], "mask_4d")
    bias = node("Mul", [node("Sub", ["one_f", m], "mask_inv"), "neg"], "mask_bias")
    for i in range(layers):
        p = f"l{i}"

        def split(t: str, name: str) -> str:
            r = node("Reshape", [t, "heads_shape"], f"{name}_r")
            return node("Transpose", [r], f"{name}_t", perm=[0, 2, 1, 3])

        q = split(dense(x, f"{p}_q", HIDDEN, HIDDEN), f"{p}_qh")
        k = split(dense(x, f"{p}_k", HIDDEN, HIDDEN), f"{p}_kh")
        v = split(dense(x, f"{p}_v", HIDDEN, HIDDEN), f"{p}_vh")
        kt = node("Transpose", [k], f"{p}_kT", perm=[0, 1, 3, 2])
        scores = node("Add", [node("Mul", [node("MatMul", [q, kt], f"{p}_qk"), "scale"], f"{p}_s"), bias], f"{p}_sb")
        att = node("MatMul", [node("Softmax", [scores], f"{p}_p", axis=-1), v], f"{p}_ctx")
        att = node("Reshape", [node("Transpose", [att], f"{p}_ctxT", perm=[0, 2, 1, 3]), "merge_shape"], f"{p}_merged")
        x = layer_norm(node("Add", [x, dense(att, f"{p}_o", HIDDEN, HIDDEN)], f"{p}_res1"), f"{p}_ln1")
        h = dense(x, f"{p}_ff1", HIDDEN, FFN)
        # GELU(h) = 0.5 h (1 + erf(h / sqrt 2))
        erf = node("Erf", [node("Div", [h, "sqrt2"], f"{p}_hs")], f"{p}_erf")
        h = node("Mul", [node("Mul", [h, "half"], f"{p}_hh"), node("Add", [erf, "one_f"], f"{p}_e1")], f"{p}_gelu")
        x = layer_norm(node("Add", [x, dense(h, f"{p}_ff2", FFN, HIDDEN)], f"{p}_res2"), f"{p}_ln2")
    cls = node("Gather", [x, "zero"], "cls", axis=1)
    pooled = node("Tanh", [dense(cls, "pool", HIDDEN, HIDDEN)], "pooled")
    dense(pooled, "classifier", HIDDEN, LABELS)
    nodes[-1].output[0] = "logits"
    ins = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"])
           for n in ("input_ids", "attention_mask", "token_type_ids")]
    out = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", LABELS])]
    model = helper.make_model(helper.make_graph(nodes, "bench_encoder", ins, out, initializer=inits),
                              opset_imports=[helper.make_opsetid("", 17)], producer_name="cairn-bench")
    model.ir_version = 8
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(folder / "model.onnx"))
    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    for w in TEXT_WORDS:
        vocab.setdefault(w, len(vocab))
    for n in range(len(vocab), VOCAB):
        vocab[f"w{n}"] = n
    tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    tok.save(str(folder / "tokenizer.json"))
    labels = {"0": "entailment", "1": "neutral", "2": "contradiction"}
    (folder / "config.json").write_text(json.dumps({
        "model_type": "bench", "id2label": labels, "label2id": {v: int(k) for k, v in labels.items()},
        "max_position_embeddings": MAX_POS, "hidden_size": HIDDEN, "num_hidden_layers": layers}), encoding="utf-8")


TEXT_WORDS = ("the a of to and in is was for on by with from that this customer credit delivery days within"
              " request policy office report ferries bridge harbour storm service region approval payment").split()


def text(rng: np.random.Generator, n: int) -> str:
    return " ".join(rng.choice(TEXT_WORDS, n)) + "."


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--claims", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
    from cairn.judge import nli
    from cairn.judge.nli import NLIJudge

    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory(prefix="cairn-judge-bench-") as tmp:
        folder = Path(tmp) / "model"
        t0 = time.perf_counter()
        build(folder, args.layers)
        size = (folder / "model.onnx").stat().st_size
        print(f"graph: {args.layers} layers, hidden {HIDDEN}, {HEADS} heads, feed-forward {FFN}, vocabulary {VOCAB};"
              f" model.onnx {size / 1e6:.0f} MB; built in {time.perf_counter() - t0:.1f} s")
        judge = NLIJudge(str(folder), folder, trusted=True, threads=args.threads)
        t0 = time.perf_counter()
        model = judge.model()
        print(f"load (tokenizer and ONNX Runtime session, {args.threads} threads): {time.perf_counter() - t0:.2f} s")

        # one claim, one quote of one sentence: the editor's case on a save
        singles = [(text(rng, 18), [text(rng, 30)]) for _ in range(args.repeat + 1)]
        judge.judge_many([singles[0]])  # warm-up
        times = []
        for item in singles[1:]:
            t0 = time.perf_counter()
            judge.judge_many([item])
            times.append(time.perf_counter() - t0)
        n_tok = len(model.pair_tokenizer.encode(singles[1][1][0], singles[1][0]).ids)
        print(f"one claim (one piece, {n_tok} tokens): median {statistics.median(times) * 1e3:.0f} ms"
              f" (min {min(times) * 1e3:.0f}, max {max(times) * 1e3:.0f}; {args.repeat} runs)")

        # one run of the model on a full batch of pairs
        pairs = [(text(rng, 30), text(rng, 18)) for _ in range(nli.BATCH_PAIRS)]
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            model.score(pairs)
            times.append(time.perf_counter() - t0)
        width = max(len(e.ids) for e in model.pair_tokenizer.encode_batch(pairs))
        med = statistics.median(times)
        print(f"one batch of {nli.BATCH_PAIRS} pairs ({width} tokens wide): median {med * 1e3:.0f} ms,"
              f" {med / nli.BATCH_PAIRS * 1e3:.0f} ms a pair")

        # many claims at once, as cairn check and cairn calibrate ask them; some quotes of several sentences
        items = [(text(rng, 18), [" ".join(text(rng, 25) for _ in range(1 + i % 3))]) for i in range(args.claims)]
        n_pieces = sum(len(model.pieces(c, q)) for c, q in items)
        t0 = time.perf_counter()
        judge.judge_many(items)
        total = time.perf_counter() - t0
        print(f"{args.claims} claims at once ({n_pieces} pieces): {total:.2f} s, {total / args.claims * 1e3:.0f} ms"
              f" a claim")

        # a long quote: cut into pieces that fit 512 tokens beside the claim
        long = [(text(rng, 18), [" ".join(text(rng, 30) for _ in range(40))])]
        t0 = time.perf_counter()
        judge.judge_many(long)
        print(f"one claim with a quote of 40 sentences ({len(model.pieces(*long[0]))} pieces of up to"
              f" {model.max_length} tokens): {time.perf_counter() - t0:.2f} s")
    # the figures are wall-clock time: on a machine busy with other work they are longer
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
