#!/usr/bin/env python3
"""Write the ONNX fixtures made by another exporter (torch.onnx.export,
dynamo=True) that the `--to-onnx IN.onnx` tests re-optimize:

    .venv/bin/python tools/capture/capture_exporter_onnx.py [--out tests/fixtures/onnx]

- `torch_onnx_llama.onnx`: a tiny Llama (2 layers, hidden 32, 4 query and
  2 key/value heads, vocabulary 64) called with `input_ids` only (causal
  mask), dynamic batch and sequence; torch.onnx's SDPA decomposition (Q and
  Kt each scaled by sqrt(scale), the key transposed through 3-D, the
  Softmax's NaN rows set to 0), RMSNorm and rotary spelled out.
- `torch_onnx_bert.onnx`: a tiny BERT (2 layers, hidden 32, 4 heads) with
  an attention mask (padding), dynamic batch and sequence.
- `torchscript_llama.onnx`, `torchscript_bert.onnx`: the same two models
  (the Llama also given an attention mask) through torch.onnx's TorchScript exporter (`dynamo=False`, opset 17, as
  older pipelines and Hugging Face Optimum export): no intermediate types,
  sizes read with Shape/Gather/Unsqueeze/Concat, `-1` handled with
  `Where(Equal(shape, -1), 1, shape)`, RMSNorm's rsqrt as `1 / Sqrt`.

Weights are random (fixed seeds) and inline, node metadata (stack traces)
dropped: each file is under 200 KB.
The tests compare onnxruntime on the fixture and on its re-optimized model,
so no eager outputs are stored. torch.onnx's output depends on the torch
and onnxscript versions (torch 2.13, onnxscript 0.7 here).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools" / "capture"))
warnings.filterwarnings("ignore")


def llama():
    import capture_corpus as cc

    tf = cc._quiet_transformers()
    cfg = tf.LlamaConfig(
        vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
        use_cache=False, bos_token_id=1, eos_token_id=2, pad_token_id=0, tie_word_embeddings=False,
    )
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model = cc.LogitsOnly(tf.LlamaForCausalLM(cfg)).eval()
    ids = torch.randint(0, 64, (2, 7), generator=torch.Generator().manual_seed(1))
    dyn = ({0: torch.export.Dim("batch"), 1: torch.export.Dim("seq", max=64)},)
    return model, (ids,), dyn, ["input_ids"]


class MaskedLogits(torch.nn.Module):
    """`hf(input_ids, attention_mask).logits` (TorchScript cannot export the
    `diff` that Hugging Face's mask code runs without an attention mask)."""

    def __init__(self, hf: torch.nn.Module) -> None:
        super().__init__()
        self.hf = hf

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.hf(input_ids=input_ids, attention_mask=attention_mask, use_cache=False).logits


def llama_masked():
    model, (ids,), dyn, names = llama()
    mask = torch.ones(2, 7, dtype=torch.int64)
    mask[0, 5:] = 0
    return MaskedLogits(model.hf).eval(), (ids, mask), None, names + ["attention_mask"]


def bert():
    import capture_corpus as cc

    tf = cc._quiet_transformers()
    cfg = tf.BertConfig(
        vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=64, type_vocab_size=2,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, pad_token_id=0,
    )
    cfg._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model = cc.BertLastHidden(tf.BertModel(cfg, add_pooling_layer=False)).eval()
    ids = torch.randint(0, 64, (2, 7), generator=torch.Generator().manual_seed(1))
    mask = torch.ones(2, 7, dtype=torch.int64)
    mask[0, 5:] = 0
    batch, seq = torch.export.Dim("batch"), torch.export.Dim("seq", max=64)
    return model, (ids, mask), ({0: batch, 1: seq}, {0: batch, 1: seq}), ["input_ids", "attention_mask"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(REPO / "tests" / "fixtures" / "onnx"))
    out = Path(ap.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    for name, make, dynamo in [
        ("torch_onnx_llama", llama, True),
        ("torch_onnx_bert", bert, True),
        ("torchscript_llama", llama_masked, False),
        ("torchscript_bert", bert, False),
    ]:
        model, args, dyn, names = make()
        path = out / f"{name}.onnx"
        with torch.no_grad():
            if dynamo:
                torch.onnx.export(
                    model, args, str(path), dynamo=True, optimize=True, input_names=names,
                    dynamic_shapes=dyn, external_data=False,
                )
            else:
                torch.onnx.export(
                    model, args, str(path), dynamo=False, opset_version=17, input_names=names,
                    dynamic_axes={n: {0: "batch", 1: "seq"} for n in names},
                )
        # Node metadata (stack traces, module paths: 3/4 of the file) is
        # not what the tests exercise.
        import onnx

        m = onnx.load(str(path))
        for node in m.graph.node:
            del node.metadata_props[:]
        onnx.save(m, str(path))
        print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
