#!/usr/bin/env python3
"""Capture the onnxruntime parity corpus (tests/corpus/).

Run from the repository root:

    .venv/bin/python tools/capture/capture_corpus.py [--only NAME ...] [--out tests/corpus]

For every model NAME this writes `OUT/NAME/`:

  model.pt2      torch.export.save of the capture: torch.export.export (TRAINING
                 IR), or, for models marked core, after ep.run_decompositions()
                 (ATEN IR); dynamic dims are declared with torch.export.Dim.
  set_0/, set_1/ input_<i>.pb / output_<j>.pb, ONNX TensorProtos named after the
                 ONNX graph inputs/outputs.  set_0 uses the capture shapes, set_1
                 a different value for every dynamic dim.  Outputs are the EAGER
                 results of the original nn.Module (a fresh deep copy per set).
  meta.json      input/output names in order, dynamic dims, IR, mutated buffers.

Name/order contract (what the ONNX file will have):
  inputs  = the user inputs in signature order (forward() parameter names);
  outputs = the user outputs in order (named after the graph output nodes of
            ep.graph_signature.user_outputs), then the mutated buffers in the
            order of buffers_to_mutate (named by buffer FQN; expected value =
            the buffer after one forward call), then mutated user inputs (none
            in this corpus; the script refuses them).
  For TRAINING-IR captures the signature does not list mutated buffers (they are
  in-place ops there): the set is taken from
  ep.run_decompositions().graph_signature.buffers_to_mutate.

Everything is deterministic (fixed seeds; archive metadata without Python ids or
absolute paths): running the script twice gives byte-identical files.  Every
capture is checked: the saved .pt2 is loaded back with torch.export.load and
must reproduce the eager outputs (and mutated buffers) on both input sets
within 1e-5.
"""

from __future__ import annotations

import argparse
import copy
import inspect
import json
import os
import shutil
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import onnx
import onnx.numpy_helper
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils._pytree as pytree
from torch.export import Dim

REPO = Path(__file__).resolve().parents[2]
TOL = 1e-5

# Benign noise from torch 2.13's exporter/packager and from transformers.
warnings.filterwarnings("ignore", message=".*LeafSpec.*", category=FutureWarning)
warnings.filterwarnings("ignore", message="No complete tensor found", category=UserWarning)
warnings.filterwarnings("ignore", category=UserWarning, module=r"torch\.export")


# --------------------------------------------------------------------------
# Hand-written models
# --------------------------------------------------------------------------


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(32, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.act(self.fc1(x)))


class CNNBlock(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 8, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(8, 10)
        # Non-trivial running statistics so the eval-mode BatchNorm does something.
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.randn(8) * 0.1)
            self.bn.running_var.copy_(torch.rand(8) + 0.5)
            self.bn.weight.copy_(torch.rand(8) + 0.5)
            self.bn.bias.copy_(torch.randn(8) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.pool(torch.relu(self.bn(self.conv(x))))
        return self.fc(self.flatten(self.gap(h)))


class InplaceOps(nn.Module):
    """add_, mul_, relu_, clamp_, masked_fill_ and copy_ (into a slice of a clone)."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.lin(x)
        h.add_(x)
        h.mul_(0.75)
        h.relu_()
        h.clamp_(min=0.05, max=1.25)
        h.masked_fill_(x < -0.5, -1.0)
        y = x.clone()
        y[:, :4].copy_(h[:, 4:])
        y.mul_(2.0)
        return h, y


class BufferMutation(nn.Module):
    """Updates a running-mean buffer and a step counter in forward (in eval mode too)."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(6, 6)
        self.momentum = 0.25
        self.register_buffer("running_mean", torch.randn(6) * 0.1)
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.running_mean.mul_(1.0 - self.momentum).add_(x.mean(0) * self.momentum)
        self.steps.add_(1)
        return self.lin(x - self.running_mean) * (self.steps.to(x.dtype) + 0.5)


class SliceAssign(nn.Module):
    """Slice/ellipsis assignment and index_put_ (through a view) on a clone of the input."""

    def forward(self, x: torch.Tensor, y: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
        # x: [B, 8] f32, y: [B, 2] f32, idx: [2] int64 column indices
        z = x.clone()
        z[:, 1:3] = y
        z[..., 0] = 0
        z[:, idx] = z[:, idx] * 2.0 + 1.0
        # index_put_ with accumulate on a transposed view: mutates z through the view.
        zt = z.transpose(0, 1)
        zt.index_put_((idx,), y.t() * 0.5, accumulate=True)
        return z


class AttentionBlock(nn.Module):
    """Two pre-norm transformer blocks: explicit boolean causal mask, then is_causal=True."""

    def __init__(self, dim: int = 32, heads: int = 4, layers: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.ln1 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(layers))
        self.qkv = nn.ModuleList(nn.Linear(dim, 3 * dim) for _ in range(layers))
        self.proj = nn.ModuleList(nn.Linear(dim, dim) for _ in range(layers))
        self.ln2_weight = nn.Parameter(torch.rand(layers, dim) + 0.5)
        self.ln2_bias = nn.Parameter(torch.randn(layers, dim) * 0.1)
        self.up = nn.ModuleList(nn.Linear(dim, 2 * dim) for _ in range(layers))
        self.down = nn.ModuleList(nn.Linear(2 * dim, dim) for _ in range(layers))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        hd = d // self.heads
        causal = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        for i in range(len(self.qkv)):
            h = self.ln1[i](x)
            q, k, v = self.qkv[i](h).split(d, dim=-1)
            q = q.view(b, t, self.heads, hd).transpose(1, 2)
            k = k.view(b, t, self.heads, hd).transpose(1, 2)
            v = v.view(b, t, self.heads, hd).transpose(1, 2)
            if i == 0:
                o = F.scaled_dot_product_attention(q, k, v, attn_mask=causal)
            else:
                o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj[i](o.transpose(1, 2).reshape(b, t, d))
            h = F.layer_norm(x, (d,), self.ln2_weight[i], self.ln2_bias[i], eps=1e-5)
            x = x + self.down[i](F.gelu(self.up[i](h), approximate="tanh"))
        return x


# --------------------------------------------------------------------------
# Library models (transformers / torchvision), built from tiny configs
# --------------------------------------------------------------------------


def _quiet_transformers():
    import transformers

    transformers.logging.set_verbosity_error()
    return transformers


class LogitsOnly(nn.Module):
    """`hf(input_ids=..., use_cache=False).logits`: a tensor instead of a ModelOutput."""

    def __init__(self, hf: nn.Module) -> None:
        super().__init__()
        self.hf = hf

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        return self.hf(input_ids=input_ids, use_cache=False).logits


class BertLastHidden(nn.Module):
    def __init__(self, hf: nn.Module) -> None:
        super().__init__()
        self.hf = hf

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.hf(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state


class ViTLastHidden(nn.Module):
    def __init__(self, hf: nn.Module) -> None:
        super().__init__()
        self.hf = hf

    def forward(self, pixel_values: torch.Tensor) -> torch.Tensor:
        return self.hf(pixel_values=pixel_values).last_hidden_state


def _llama_config():
    tf = _quiet_transformers()
    cfg = tf.LlamaConfig(
        vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
        rope_theta=10000.0, use_cache=False, bos_token_id=1, eos_token_id=2,
        pad_token_id=0, tie_word_embeddings=False,
    )
    cfg._attn_implementation = "sdpa"
    return tf, cfg


def build_llama() -> nn.Module:
    tf, cfg = _llama_config()
    return LogitsOnly(tf.LlamaForCausalLM(cfg))


class LlamaDecodeStep(nn.Module):
    """One decode step with a KV cache: input_ids [B, 1] and the past key/value
    of each layer [B, kv_heads, P, head_dim] -> (logits, present k0, v0, k1, v1).
    The DynamicCache is filled with `cache.update(k, v, layer)`; the past
    lengths are not tied to each other here (torch.export gives them their own
    symbols where the model does not force them equal)."""

    def __init__(self, hf: nn.Module) -> None:
        super().__init__()
        self.hf = hf

    def forward(self, input_ids: torch.Tensor, k0: torch.Tensor, v0: torch.Tensor,
                k1: torch.Tensor, v1: torch.Tensor) -> tuple[torch.Tensor, ...]:
        from transformers import DynamicCache

        cache = DynamicCache(config=self.hf.config)
        cache.update(k0, v0, 0)
        cache.update(k1, v1, 1)
        out = self.hf(input_ids=input_ids, past_key_values=cache, use_cache=True)
        present = []
        for layer in out.past_key_values.layers:
            present += [layer.keys, layer.values]
        return (out.logits, *present)


def build_llama_decode() -> nn.Module:
    tf, cfg = _llama_config()
    return LlamaDecodeStep(tf.LlamaForCausalLM(cfg))


def build_bert() -> nn.Module:
    tf = _quiet_transformers()
    cfg = tf.BertConfig(
        vocab_size=128, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=64, type_vocab_size=2,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, pad_token_id=0,
    )
    cfg._attn_implementation = "sdpa"
    return BertLastHidden(tf.BertModel(cfg, add_pooling_layer=False))


def build_gpt2() -> nn.Module:
    tf = _quiet_transformers()
    cfg = tf.GPT2Config(
        vocab_size=128, n_positions=64, n_embd=32, n_layer=2, n_head=4,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, use_cache=False,
        bos_token_id=0, eos_token_id=0,
    )
    cfg._attn_implementation = "sdpa"
    return LogitsOnly(tf.GPT2LMHeadModel(cfg))


def build_vit() -> nn.Module:
    tf = _quiet_transformers()
    cfg = tf.ViTConfig(
        image_size=32, patch_size=8, num_channels=3, hidden_size=32, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=64, hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    cfg._attn_implementation = "sdpa"
    return ViTLastHidden(tf.ViTModel(cfg, add_pooling_layer=False))


def build_resnet18() -> nn.Module:
    import torchvision

    return torchvision.models.resnet18(weights=None, num_classes=1000)


# --------------------------------------------------------------------------
# PT2E-quantized models (torchao.quantization.pt2e): torchao is imported here
# only, at capture time; the captured programs hold quantized_decomposed ops
# (torch.export.load needs `import torch.ao.quantization.fx._decomposed`, part
# of torch, not torchao)
# --------------------------------------------------------------------------


class QCNN(nn.Module):
    """Conv2d-BatchNorm2d-ReLU, MaxPool2d, Conv2d, AdaptiveAvgPool2d, Linear (3x16x16 -> 10)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 10)
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.randn(8) * 0.1)
            self.bn.running_var.copy_(torch.rand(8) + 0.5)
            self.bn.weight.copy_(torch.rand(8) + 0.5)
            self.bn.bias.copy_(torch.randn(8) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.pool(torch.relu(self.bn(self.conv1(x))))
        h = self.gap(self.conv2(h))
        return self.fc(torch.flatten(h, 1))


class QMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


class QTransformer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(32, 4, dim_feedforward=64, dropout=0.0, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layer(x)


def _pt2e(model: nn.Module, shape: tuple, dynamic: dict, quantizer, seed: int) -> nn.Module:
    """The PT2E flow: torch.export.export(model).module(), prepare_pt2e, calibrate on 4 random batches
    (batch 2; seq 8 for 3-D inputs), convert_pt2e. The result (a GraphModule with quantized_decomposed
    ops) is the corpus model: its eager outputs are the reference."""
    import types

    from torchao.quantization.pt2e import move_exported_model_to_eval
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    model = model.eval()
    dims = {axis: Dim(name) for axis, name in dynamic.items()}
    g = torch.Generator().manual_seed(seed)
    example = (torch.randn(*shape, generator=g),)
    gm = torch.export.export(model, example, dynamic_shapes=(dims,), strict=False).module()
    gm = prepare_pt2e(gm, quantizer)
    with torch.no_grad():
        for _ in range(4):
            gm(torch.randn(*shape, generator=g))
    gm = convert_pt2e(gm)
    move_exported_model_to_eval(gm)
    # capture() calls .eval(), which an exported module refuses: already in eval mode, a no-op here.
    gm.eval = types.MethodType(lambda self: self, gm)
    return gm


def _xnnpack(**kw):
    from torchao.testing.pt2e._xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config

    return XNNPACKQuantizer().set_global(get_symmetric_quantization_config(**kw))


def build_pt2e_cnn_xnnpack() -> nn.Module:
    return _pt2e(QCNN(), (2, 3, 16, 16), {0: "batch"}, _xnnpack(is_per_channel=True), 111)


def build_pt2e_cnn_x86() -> nn.Module:
    from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
        X86InductorQuantizer,
        get_default_x86_inductor_quantization_config,
    )

    quantizer = X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())
    return _pt2e(QCNN(), (2, 3, 16, 16), {0: "batch"}, quantizer, 112)


def build_pt2e_mlp_dynamic() -> nn.Module:
    return _pt2e(QMLP(), (2, 16), {0: "batch"}, _xnnpack(is_per_channel=True, is_dynamic=True), 113)


def build_pt2e_transformer_xnnpack() -> nn.Module:
    return _pt2e(QTransformer(), (2, 8, 32), {0: "batch", 1: "seq"}, _xnnpack(is_per_channel=True), 114)


def build_pt2e_transformer_static_xnnpack() -> nn.Module:
    return _pt2e(QTransformer(), (2, 8, 32), {}, _xnnpack(is_per_channel=True), 115)


def _flip_one_quantized(gm: nn.Module, which: int, g: torch.Generator) -> nn.Module:
    """A copy of a converted PT2E GraphModule in which the output of its `which`-th quantize_per_tensor
    has one element (picked with `g`) moved by one quantization step (+-1, kept in [quant_min,
    quant_max]): a rounding flip, as another float32 accumulation order causes at a rounding boundary."""

    def flip(q: torch.Tensor, lo: int, hi: int) -> torch.Tensor:
        if q.numel() == 0:
            return q
        q = q.clone(memory_format=torch.contiguous_format)
        flat = q.view(-1)
        i = int(torch.randint(0, flat.numel(), (1,), generator=g))
        step = 1 if bool(torch.rand(1, generator=g) < 0.5) else -1
        v = int(flat[i]) + step
        flat[i] = v if lo <= v <= hi else int(flat[i]) - step
        return q

    m = copy.deepcopy(gm)
    qd = torch.ops.quantized_decomposed.quantize_per_tensor
    quantize = [n for n in m.graph.nodes if n.op == "call_function" and n.target in (qd.default, qd.tensor)]
    node = quantize[which]
    with m.graph.inserting_after(node):
        f = m.graph.call_function(flip, (node, node.args[3], node.args[4]))
    node.replace_all_uses_with(f, delete_user_cb=lambda user: user is not f)
    m.recompile()
    return m


def pt2e_tolerance(model: nn.Module, sets: list) -> dict:
    """meta.json `parity_tolerance` of a PT2E model: one quantization step of the output. When a
    dequantize_per_tensor with a constant scale makes the output, that scale. Otherwise (a float op
    after the last dequantize) the largest output deviation caused by ONE one-step flip of any
    intermediate quantized activation (every quantize_per_tensor, 50 random single-element flips each,
    on both input sets), rounded up to a power of 2."""
    qd = torch.ops.quantized_decomposed
    out = [n for n in model.graph.nodes if n.op == "output"][0]
    (result,) = out.args[0] if isinstance(out.args[0], (tuple, list)) else (out.args[0],)
    info: dict = {"rule": "one quantization step of the output"}
    n_quantize = sum(1 for n in model.graph.nodes if n.op == "call_function"
                     and n.target in (qd.quantize_per_tensor.default, qd.quantize_per_tensor.tensor))
    worst = 0.0
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for inputs in sets:
            want = flat_tensors(model(*inputs))
            for which in range(n_quantize):
                for _ in range(50):
                    got = flat_tensors(_flip_one_quantized(model, which, g)(*inputs))
                    worst = max(worst, max(max_diff(w, h) for w, h in zip(want, got)))
    if (isinstance(result, torch.fx.Node) and result.op == "call_function"
            and result.target == qd.dequantize_per_tensor.default):
        # A dequantized output moves by whole steps: one intermediate flip can
        # move it by more than one (a flipped activation feeds several sums).
        scale = float(result.args[1])
        steps = max(1, int(np.ceil(worst / scale - 1e-3)))  # whole steps, up to float noise
        info.update({"output_scale": scale, "atol": steps * scale, "observed_max_deviation": worst,
                     "why": f"the output is dequantize_per_tensor(q, scale, ...): one one-step flip of an "
                            f"intermediate quantized activation (a rounding-boundary value that another "
                            f"float32 accumulation order rounds the other way; 50 random flips per "
                            f"quantize_per_tensor and input set) moves it by up to {steps} output step(s)"})
        return info
    atol = float(2.0 ** np.ceil(np.log2(worst)))
    info.update({"output_scale": None, "atol": atol, "observed_max_deviation": worst,
                 "why": f"the output is a float op ({result.target}) of dequantized values: atol is the "
                        "largest output deviation caused by one one-step flip of an intermediate quantized "
                        "activation (a rounding-boundary value that another float32 accumulation order "
                        "rounds the other way), over 50 random flips per quantize_per_tensor and input set, "
                        "rounded up to a power of 2"})
    return info


# --------------------------------------------------------------------------
# Corpus specification
# --------------------------------------------------------------------------

# A dynamic dim: its Dim name and the value it takes in set_0 (capture) and set_1.
BATCH = ("batch", 2, 3)
SEQ = ("seq", 8, 5)


@dataclass
class Spec:
    name: str
    family: str
    description: str
    build: Callable[[], nn.Module]
    # make_inputs(set_index, generator, dims) -> tuple of tensors; dims maps a Dim
    # name to its value in that set.
    make_inputs: Callable[[int, torch.Generator, dict], tuple]
    # Per forward() argument: {axis: (dim name, set_0 value, set_1 value)}.
    dynamic: list[dict[int, tuple[str, int, int]]]
    core: bool = False
    seed: int = 0
    dim_max: dict[str, int] = field(default_factory=dict)
    # Capture with backed_size_oblivious (lets a size-1 sample dim stay dynamic).
    size_oblivious: bool = False
    # Declare every dynamic axis as Dim.DYNAMIC instead of a named Dim: torch
    # names the symbols itself, and axes that share a spec dim name (and value)
    # get their own symbol unless the program forces them equal.  meta.json then
    # records torch's symbols (symbolic_input_shapes, range_constraints).
    auto_dims: bool = False
    large: bool = False  # not tracked by git: generated on demand
    # extra_meta(model, input sets) -> more meta.json fields (PT2E models: parity_tolerance).
    extra_meta: Callable[[nn.Module, list], dict] | None = None


def _randn(g: torch.Generator, *shape: int) -> torch.Tensor:
    return torch.randn(*shape, generator=g)


def _ids(g: torch.Generator, b: int, s: int, vocab: int = 128) -> torch.Tensor:
    return torch.randint(0, vocab, (b, s), generator=g, dtype=torch.int64)


def inputs_x(*tail: int):
    return lambda k, g, d: (_randn(g, d["batch"], *tail),)


def inputs_tokens(k, g, d):
    return (_ids(g, d["batch"], d["seq"]),)


def inputs_bert(k, g, d):
    b, s = d["batch"], d["seq"]
    ids = _ids(g, b, s)
    mask = torch.ones(b, s, dtype=torch.int64)
    if k == 1:  # right padding in some rows
        mask[1, s - 2:] = 0
        mask[2, s - 1:] = 0
        ids = ids.masked_fill(mask == 0, 0)
    return ids, mask


def inputs_slice_assign(k, g, d):
    b = d["batch"]
    idx = torch.tensor([4, 6] if k == 0 else [7, 3], dtype=torch.int64)
    return _randn(g, b, 8), _randn(g, b, 2), idx


def inputs_seq(k, g, d):
    return (_randn(g, d["batch"], d["seq"], 32),)


def inputs_llama_decode(k, g, d):
    ids = _ids(g, 2, 1)
    # k0, v0, k1, v1: [batch 2, kv heads 2, past, head dim 16]
    return (ids, *(_randn(g, 2, 2, d["past"], 16) for _ in range(4)))


PAST = ("past", 7, 13)


SPECS: list[Spec] = [
    Spec("mlp", "hand-written", "Linear(16,32)-GELU-Linear(32,8)",
         MLP, inputs_x(16), [{0: BATCH}], seed=100),
    Spec("mlp_core", "hand-written", "mlp after run_decompositions() (core ATen)",
         MLP, inputs_x(16), [{0: BATCH}], core=True, seed=100),
    Spec("cnn_block", "hand-written",
         "Conv2d-BatchNorm2d(eval)-ReLU-MaxPool2d-AdaptiveAvgPool2d-Flatten-Linear, 3x16x16 input",
         CNNBlock, inputs_x(3, 16, 16), [{0: BATCH}], seed=101),
    Spec("resnet18", "torchvision", "torchvision resnet18, untrained (seeded init), eval, 3x64x64 input; captured at batch 1 "
         "with torch.fx.experimental._config.backed_size_oblivious=True so batch stays dynamic",
         build_resnet18, inputs_x(3, 64, 64), [{0: ("batch", 1, 2)}], seed=102,
         size_oblivious=True, large=True),
    Spec("llama", "transformers",
         "LlamaForCausalLM, hidden 64, intermediate 128, 2 layers, 4 heads / 2 kv heads (GQA), "
         "rotary, vocab 128, use_cache=False, sdpa attention; output = logits",
         build_llama, inputs_tokens, [{0: BATCH, 1: SEQ}], seed=103),
    Spec("llama_decode", "transformers",
         "the llama configuration (hidden 64, intermediate 128, 2 layers, 4 heads / 2 kv heads, "
         "vocab 128) as ONE decode step with a KV cache: forward(input_ids [2, 1], k0, v0, k1, v1 "
         "[2, 2, P, 16]) fills a DynamicCache with cache.update(k, v, layer) and runs "
         "past_key_values=cache, use_cache=True; outputs = logits, present k0, v0, k1, v1 "
         "[2, 2, P+1, 16]; sdpa attention; batch static (2), the past axis of each past tensor "
         "Dim.DYNAMIC, so torch gives the past key and past value their own length symbols "
         "(see symbolic_input_shapes)",
         build_llama_decode, inputs_llama_decode, [{}, {2: PAST}, {2: PAST}, {2: PAST}, {2: PAST}],
         seed=115, auto_dims=True),
    Spec("bert", "transformers",
         "BertModel, hidden 32, 2 layers, 4 heads, vocab 128, no pooler, sdpa attention; "
         "output = last_hidden_state; set_1 attention_mask has padding zeros",
         build_bert, inputs_bert, [{0: BATCH, 1: SEQ}, {0: BATCH, 1: SEQ}], seed=104,
         dim_max={"seq": 64}),
    Spec("bert_core", "transformers", "bert after run_decompositions() (core ATen)",
         build_bert, inputs_bert, [{0: BATCH, 1: SEQ}, {0: BATCH, 1: SEQ}], core=True, seed=104,
         dim_max={"seq": 64}),
    Spec("gpt2", "transformers",
         "GPT2LMHeadModel, n_embd 32, 2 layers, 4 heads, vocab 128, use_cache=False, sdpa attention; "
         "output = logits",
         build_gpt2, inputs_tokens, [{0: BATCH, 1: SEQ}], seed=105, dim_max={"seq": 64}),
    Spec("vit", "transformers",
         "ViTModel, image 32x32, patch 8, hidden 32, 2 layers, 4 heads, no pooler, sdpa attention; "
         "output = last_hidden_state",
         build_vit, inputs_x(3, 32, 32), [{0: BATCH}], seed=106),
    Spec("inplace_ops", "hand-written",
         "Linear then add_, mul_, relu_, clamp_, masked_fill_; copy_ into a slice of a clone; two outputs",
         InplaceOps, inputs_x(8), [{0: BATCH}], seed=107),
    Spec("buffer_mutation", "hand-written",
         "updates a running-mean buffer and an int64 step counter in forward; output depends on both",
         BufferMutation, inputs_x(6), [{0: BATCH}], seed=108),
    Spec("slice_assign", "hand-written",
         "x.clone(); z[:, 1:3] = y; z[..., 0] = 0; z[:, idx] = ...; index_put_(accumulate) through a "
         "transposed view; idx is an int64 input",
         SliceAssign, inputs_slice_assign, [{0: BATCH}, {0: BATCH}, {}], seed=109),
    Spec("attention_block", "hand-written",
         "two pre-norm self-attention blocks (F.scaled_dot_product_attention with a boolean causal "
         "mask, then is_causal=True), layer_norm, GELU MLP, residuals; dim 32, 4 heads",
         AttentionBlock, inputs_seq, [{0: BATCH, 1: SEQ}], seed=110),
    Spec("pt2e_cnn_xnnpack", "torchao PT2E",
         "QCNN (Conv2d-BatchNorm2d-ReLU-MaxPool2d-Conv2d-AdaptiveAvgPool2d-Linear, 3x16x16) through "
         "torch.export + prepare_pt2e/convert_pt2e with XNNPACKQuantizer (symmetric, per-channel int8 "
         "weights in [-127, 127], static int8 activations); reference = the converted model run eagerly",
         build_pt2e_cnn_xnnpack, inputs_x(3, 16, 16), [{0: BATCH}], seed=111, extra_meta=lambda m, s: {
             "parity_tolerance": pt2e_tolerance(m, s)}),
    Spec("pt2e_cnn_x86", "torchao PT2E",
         "the same QCNN with X86InductorQuantizer (default config: uint8 [0, 255] activations, "
         "HistogramObserver; int8 per-channel weights in [-128, 127]; float Linear output)",
         build_pt2e_cnn_x86, inputs_x(3, 16, 16), [{0: BATCH}], seed=112, extra_meta=lambda m, s: {
             "parity_tolerance": pt2e_tolerance(m, s)}),
    Spec("pt2e_mlp_dynamic", "torchao PT2E",
         "Linear(16,32)-ReLU-Linear(32,8) with XNNPACKQuantizer is_dynamic=True: activations "
         "quantized at run time (choose_qparams.tensor + quantize/dequantize_per_tensor.tensor), int8 "
         "per-channel weights",
         build_pt2e_mlp_dynamic, inputs_x(16), [{0: BATCH}], seed=113, extra_meta=lambda m, s: {
             "parity_tolerance": pt2e_tolerance(m, s)}),
    Spec("pt2e_transformer_xnnpack", "torchao PT2E",
         "nn.TransformerEncoderLayer(32, 4 heads, ff 64, batch_first) with XNNPACKQuantizer static "
         "per-channel: quantized linears (q/dq around them), float attention core and layer norms",
         build_pt2e_transformer_xnnpack, inputs_seq, [{0: BATCH, 1: SEQ}], seed=114, extra_meta=lambda m, s: {
             "parity_tolerance": pt2e_tolerance(m, s)}),
    Spec("pt2e_transformer_static_xnnpack", "torchao PT2E",
         "pt2e_transformer_xnnpack captured with static shapes [2, 8, 32]: its quantized Linears have a "
         "3-D input of static shape, which onnxruntime 1.32 fuses into Gemm between Reshapes and then "
         "fails to load at opset 21+ (a QuantizeLinear whose zero point has the wrong type)",
         build_pt2e_transformer_static_xnnpack, lambda k, g, d: (torch.randn(2, 8, 32, generator=g),), [{}],
         seed=115, extra_meta=lambda m, s: {"parity_tolerance": pt2e_tolerance(m, s)}),
]


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def strip_nondeterministic_meta(ep: torch.export.ExportedProgram) -> None:
    """Same as tools/capture/capture_fixtures.py: drop node.meta["from_node"] (records
    Python id()s) and make stack traces repository-relative."""
    prefix = str(REPO) + os.sep
    for mod in ep.graph_module.modules():
        graph = getattr(mod, "graph", None)
        if isinstance(graph, torch.fx.Graph):
            for node in graph.nodes:
                node.meta.pop("from_node", None)
                trace = node.meta.get("stack_trace")
                if trace:
                    node.meta["stack_trace"] = trace.replace(prefix, "")


def scan_mutated_buffers(ep: torch.export.ExportedProgram) -> list[str]:
    """Buffers written by in-place/out ops of a TRAINING-IR graph (directly or
    through views), in the order of their first write.  Fallback for captures on
    which run_decompositions() fails."""
    buffer_of = dict(ep.graph_signature.inputs_to_buffers)
    order: list[str] = []

    def root(node):
        # Follow ops whose first return aliases their first argument (views,
        # in-place ops) back to the placeholder.
        while node.op == "call_function" and isinstance(node.target, torch._ops.OpOverload):
            schema = node.target._schema
            if not (schema.returns and schema.returns[0].alias_info is not None
                    and schema.arguments and schema.arguments[0].alias_info is not None
                    and isinstance(node.args[0], torch.fx.Node)):
                break
            node = node.args[0]
        return node

    for node in ep.graph.nodes:
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            continue
        for i, arg in enumerate(node.target._schema.arguments):
            if not (arg.alias_info is not None and arg.alias_info.is_write):
                continue
            val = node.args[i] if i < len(node.args) else node.kwargs.get(arg.name)
            if isinstance(val, torch.fx.Node):
                r = root(val)
                if r.op == "placeholder" and r.name in buffer_of and buffer_of[r.name] not in order:
                    order.append(buffer_of[r.name])
    return order


def seed_all(seed: int) -> None:
    import random

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def flat_tensors(out) -> list[torch.Tensor]:
    leaves = pytree.tree_leaves(out)
    assert all(isinstance(t, torch.Tensor) for t in leaves), "non-tensor output"
    return leaves


def run_eager(model: nn.Module, inputs: tuple, buffers: list[str]):
    """Run a fresh deep copy once; return (user outputs, mutated buffer values)."""
    m = copy.deepcopy(model)
    before = {k: v.detach().clone() for k, v in m.named_buffers()}
    with torch.no_grad():
        outs = [t.detach().clone() for t in flat_tensors(m(*[t.clone() for t in inputs]))]
    state = dict(m.named_buffers())
    changed = [k for k, v in before.items() if not torch.equal(v, state[k])]
    assert set(changed) <= set(buffers), f"eager run changed buffers {changed}, expected {buffers}"
    return outs, [state[b].detach().clone() for b in buffers]


def write_tensor(path: Path, t: torch.Tensor, name: str) -> None:
    # (not np.ascontiguousarray: it turns a 0-d array into a 1-d one)
    arr = t.detach().cpu().contiguous().numpy()
    assert arr.shape == tuple(t.shape)
    proto = onnx.numpy_helper.from_array(arr, name=name)
    path.write_bytes(proto.SerializeToString())


def max_diff(a: torch.Tensor, b: torch.Tensor) -> float:
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    if a.numel() == 0:
        return 0.0
    if a.dtype == torch.bool:
        return float((a != b).any())
    return (a.double() - b.double()).abs().max().item()


def rel(p: Path) -> str:
    return str(p.relative_to(REPO)) if p.is_relative_to(REPO) else str(p)


# --------------------------------------------------------------------------
# Capture
# --------------------------------------------------------------------------


def capture(spec: Spec, out_root: Path) -> dict:
    seed_all(spec.seed)
    model = spec.build().eval()
    params = list(inspect.signature(model.forward).parameters)
    assert len(params) == len(spec.dynamic), (spec.name, params)

    # Input sets: dims per set, generated from a per-model generator.
    set_dims = []
    for k in range(2):
        dims = {}
        for axes in spec.dynamic:
            for _, (dname, v0, v1) in axes.items():
                dims[dname] = (v0, v1)[k]
        set_dims.append(dims)
    g = torch.Generator().manual_seed(spec.seed * 7919 + 1)
    sets = [spec.make_inputs(k, g, set_dims[k]) for k in range(2)]

    dim_objs: dict[str, Dim] = {}
    dynamic_shapes = []
    for axes in spec.dynamic:
        entry = {}
        for axis, (dname, _, _) in axes.items():
            if dname not in dim_objs:
                kw = {"max": spec.dim_max[dname]} if dname in spec.dim_max else {}
                dim_objs[dname] = Dim(dname, **kw)
            entry[axis] = Dim.DYNAMIC if spec.auto_dims else dim_objs[dname]
        dynamic_shapes.append(entry or None)

    # Capture on a deep copy (the original stays untouched for the eager runs).
    def export() -> torch.export.ExportedProgram:
        seed_all(spec.seed)
        cap_model = copy.deepcopy(model)
        if spec.size_oblivious:
            import torch.fx.experimental._config as fx_config

            with fx_config.patch(backed_size_oblivious=True):
                return torch.export.export(cap_model, sets[0], dynamic_shapes=tuple(dynamic_shapes),
                                           strict=False)
        return torch.export.export(cap_model, sets[0], dynamic_shapes=tuple(dynamic_shapes),
                                   strict=False)

    ep = export()
    ir = "TRAINING"
    if spec.core:
        ep = ep.run_decompositions()
        ir = "ATEN"

    sig = ep.graph_signature
    input_names = list(sig.user_inputs)
    assert input_names == params, f"{spec.name}: user inputs {input_names} != forward() {params}"
    if sig.user_inputs_to_mutate:
        raise NotImplementedError(f"{spec.name}: mutated user inputs are not in the contract yet")
    output_names = [str(n) for n in sig.user_outputs]
    mutated_source = "graph_signature.buffers_to_mutate"
    if spec.core:
        mutated_buffers = list(dict(sig.buffers_to_mutate).values())
    else:
        mutated_source = "run_decompositions().graph_signature.buffers_to_mutate"
        # run_decompositions() shares the program's ShapeEnv: the equalities it
        # finds (the decomposed SDPA ties the key and value lengths) become
        # replacements that the saved TRAINING program would then show (one
        # symbol for all past lengths).  For Dim.DYNAMIC captures decompose a
        # second export instead.
        decomp_src = export() if spec.auto_dims else ep
        try:
            mutated_buffers = list(
                dict(decomp_src.run_decompositions().graph_signature.buffers_to_mutate).values())
        except Exception as e:  # noqa: BLE001 - torch bug; see scan_mutated_buffers
            mutated_buffers = scan_mutated_buffers(ep)
            mutated_source = (f"scan of in-place ops on buffers in the TRAINING graph "
                              f"(run_decompositions() fails: {type(e).__name__})")
            print(f"note: {spec.name}: run_decompositions() failed ({type(e).__name__}: "
                  f"{str(e).splitlines()[0][:160]}); mutated buffers from a graph scan: "
                  f"{mutated_buffers}", file=sys.stderr)
        assert not sig.buffers_to_mutate or list(dict(sig.buffers_to_mutate).values()) == \
            mutated_buffers
        scanned = scan_mutated_buffers(ep)
        assert scanned == mutated_buffers, f"{spec.name}: scan {scanned} != {mutated_buffers}"
    all_outputs = output_names + mutated_buffers
    assert len(set(all_outputs) | set(input_names)) == len(all_outputs) + len(input_names), \
        f"{spec.name}: clashing names {input_names} {all_outputs}"

    # Write the archive.
    d = out_root / spec.name
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    strip_nondeterministic_meta(ep)
    pt2 = d / "model.pt2"
    torch.export.save(ep, str(pt2))

    # Eager references, written and checked against the reloaded archive.
    worst = 0.0
    for k, inputs in enumerate(sets):
        outs, bufs = run_eager(model, inputs, mutated_buffers)
        assert len(outs) == len(output_names), (spec.name, len(outs), output_names)
        sd = d / f"set_{k}"
        sd.mkdir()
        for i, (nm, t) in enumerate(zip(input_names, inputs)):
            write_tensor(sd / f"input_{i}.pb", t, nm)
        for j, (nm, t) in enumerate(zip(all_outputs, outs + bufs)):
            write_tensor(sd / f"output_{j}.pb", t, nm)

        loaded = torch.export.load(str(pt2))
        assert [str(n) for n in loaded.graph_signature.user_outputs] == output_names
        assert list(loaded.graph_signature.user_inputs) == input_names
        lm = loaded.module()
        with torch.no_grad():
            got = flat_tensors(lm(*[t.clone() for t in inputs]))
        lbufs = dict(lm.named_buffers())
        for nm, want, have in zip(all_outputs, outs + bufs, got + [lbufs[b] for b in mutated_buffers]):
            diff = max_diff(want, have)
            worst = max(worst, diff)
            assert diff <= TOL, f"{spec.name} set_{k} {nm}: max abs diff {diff} > {TOL}"

    dynamic_dims = {
        nm: {str(axis): dname for axis, (dname, _, _) in axes.items()}
        for nm, axes in zip(input_names, spec.dynamic)
        if axes
    }
    meta = {
        "name": spec.name,
        "family": spec.family,
        "description": spec.description,
        "ir": ir,
        "inputs": input_names,
        "outputs": all_outputs,
        "user_outputs": output_names,
        "mutated_buffers": mutated_buffers,
        "dynamic_dims": dynamic_dims,
        "dim_values": {n: {"set_0": v[0], "set_1": v[1]} for n, v in
                       ((n, (set_dims[0][n], set_dims[1][n])) for n in dim_objs)},
        "input_shapes": [{nm: list(t.shape) for nm, t in zip(input_names, s)} for s in sets],
        "tolerance_vs_eager": TOL,
        "torch": torch.__version__,
    }
    meta["mutated_buffers_source"] = mutated_source
    if spec.auto_dims:
        shapes = {}
        for node in ep.graph.nodes:
            if node.op == "placeholder" and node.name in input_names:
                shapes[node.name] = [str(d) for d in node.meta["val"].shape]
        meta["symbolic_input_shapes"] = shapes
        meta["range_constraints"] = {str(k): str(v) for k, v in
                                     sorted(ep.range_constraints.items(), key=lambda kv: str(kv[0]))}
    if spec.family == "transformers":
        import transformers

        meta["transformers"] = transformers.__version__
    if spec.family == "torchvision":
        import torchvision

        meta["torchvision"] = torchvision.__version__
    if spec.family == "torchao PT2E":
        import torchao

        meta["torchao"] = torchao.__version__
    if spec.extra_meta is not None:
        meta.update(spec.extra_meta(model, sets))
    (d / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")

    size = sum(p.stat().st_size for p in d.rglob("*") if p.is_file())
    print(f"wrote {rel(d)}/ ({ir}, model.pt2 {pt2.stat().st_size} bytes, dir {size} bytes, "
          f"reload max diff {worst:.2e})", flush=True)
    return {"spec": spec, "meta": meta, "pt2_size": pt2.stat().st_size, "dir_size": size}


README_HEAD = """\
# Model corpus for onnxruntime parity tests

Generated by `tools/capture/capture_corpus.py` (do not edit by hand: the script rewrites
this file).  Each `NAME/` holds:

- `model.pt2`: `torch.export.save` of `torch.export.export(..., strict=False)`
  (TRAINING IR), or of `ep.run_decompositions()` for the ATEN rows; dynamic dims
  declared with `torch.export.Dim` (`Dim.DYNAMIC` for `llama_decode`: torch
  names the symbols, `meta.json` records them in `symbolic_input_shapes` and
  `range_constraints`);
- `set_0/`, `set_1/`: `input_<i>.pb` and `output_<j>.pb`, ONNX `TensorProto`s
  whose `name` is the ONNX graph input/output name.  `set_0` has the capture
  shapes, `set_1` a different value for every dynamic dim.  Outputs are the
  eager PyTorch results of the original `nn.Module` (fresh deep copy per set,
  eval mode);
- `meta.json`: `inputs` and `outputs` (names, in order), `dynamic_dims`
  (input name -> axis -> dim name), `dim_values` (per set), `ir`
  (`TRAINING` | `ATEN`), `mutated_buffers`, `description`.

Names and order (the ONNX file's contract): inputs = the user inputs in
signature order (`forward()` parameter names); outputs = the user outputs in
order, named after the graph output nodes (`ep.graph_signature.user_outputs`),
then the mutated buffers in `buffers_to_mutate` order, named by buffer FQN, whose
expected value is the buffer after one forward call (mutated user inputs would
come last; no model here has any).  In TRAINING IR buffer mutations are in-place
ops and the signature does not list them: `mutated_buffers` comes from
`ep.run_decompositions().graph_signature.buffers_to_mutate` (for `gpt2`, where
`run_decompositions()` fails in torch 2.13, from a scan of the in-place ops; see
`mutated_buffers_source` in meta.json).

The script checks every capture: the saved archive, reloaded with
`torch.export.load`, reproduces the eager outputs and mutated buffers on both
sets within 1e-5 (which also shows that the dynamic dims really are dynamic).

The `pt2e_*` models are PT2E-quantized (`torchao.quantization.pt2e`:
`torch.export.export(model).module()`, `prepare_pt2e`, calibration,
`convert_pt2e`, then captured like the others): their graphs hold
`quantized_decomposed::` ops (int8 weight buffers with
`dequantize_per_channel`, `quantize_per_tensor` / `dequantize_per_tensor`
around the activations; `choose_qparams` for the dynamic one) and their
reference outputs are the converted model's eager outputs.  torchao is needed
to capture them only (`torch.export.load` of their `model.pt2` needs
`import torch.ao.quantization.fx._decomposed`, part of torch).  Their
`meta.json` has `parity_tolerance`: one quantization step of the output
(`atol`: the output's scale when a `dequantize_per_tensor` makes the output,
else the output deviation measured under one-step flips of intermediate
quantized values, see `pt2e_tolerance` in the script).

## Models

| name | family | IR | inputs | dynamic dims (set_0 -> set_1) | model.pt2 | in git |
| --- | --- | --- | --- | --- | --- | --- |
"""

README_TAIL = """
## Regenerating

```sh
bash tools/setup.sh                                  # pinned torch/torchvision/transformers
.venv/bin/python tools/capture/capture_corpus.py             # everything, including resnet18
.venv/bin/python tools/capture/capture_corpus.py --skip-large   # only what git tracks
.venv/bin/python tools/capture/capture_corpus.py --only resnet18  # the on-demand one
```

The output is deterministic (fixed seeds; `from_node` metadata dropped and
stack traces made repository-relative): a re-run gives byte-identical files on
the same machine.  Versions used: {versions}.
"""


def describe_spec(spec: Spec) -> dict:
    """The meta.json fields the README needs, without capturing."""
    names = list(inspect.signature(spec.build().forward).parameters)
    dims0 = {dn: v0 for axes in spec.dynamic for dn, v0, _ in axes.values()}
    dims1 = {dn: v1 for axes in spec.dynamic for dn, _, v1 in axes.values()}
    inputs0 = spec.make_inputs(0, torch.Generator().manual_seed(0), dims0)
    return {
        "ir": "ATEN" if spec.core else "TRAINING",
        "dynamic_dims": {nm: {str(ax): dn for ax, (dn, _, _) in axes.items()}
                         for nm, axes in zip(names, spec.dynamic) if axes},
        "dim_values": {n: {"set_0": dims0[n], "set_1": dims1[n]} for n in dims0},
        "input_shapes": [{nm: list(t.shape) for nm, t in zip(names, inputs0)}],
    }


def _fmt_size(n: int) -> str:
    return f"{n / 1024:.0f} KB" if n < 1024 * 1024 else f"{n / (1024 * 1024):.1f} MB"


def write_readme(out_root: Path) -> None:
    import torchvision
    import transformers

    rows = []
    for spec in SPECS:
        d = out_root / spec.name
        meta_path = d / "meta.json"
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
        else:  # not generated here (e.g. --skip-large): describe it from the spec
            meta = describe_spec(spec)
        dims = []
        for nm, axes in meta["dynamic_dims"].items():
            dims.append(f"{nm}: " + ", ".join(f"{ax}={dn}" for ax, dn in axes.items()))
        dv = ", ".join(f"{n} {v['set_0']}->{v['set_1']}" for n, v in meta["dim_values"].items())
        shapes = meta["input_shapes"][0]
        inputs = ", ".join(f"`{n}` {'x'.join(map(str, sh)) or 'scalar'}" for n, sh in shapes.items())
        size = "~45 MB" if spec.large else _fmt_size((d / "model.pt2").stat().st_size)
        git = "no: generated on demand" if spec.large else "yes"
        rows.append(f"| `{spec.name}` | {spec.family} | {meta['ir']} | {inputs} | "
                    f"{'; '.join(dims)} ({dv}) | {size} | {git} |")
    from importlib import metadata

    try:
        torchao_version = metadata.version("torchao")
    except metadata.PackageNotFoundError:
        torchao_version = "not installed"
    versions = (f"torch {torch.__version__.split('+')[0]}, torchvision "
                f"{torchvision.__version__.split('+')[0]}, transformers {transformers.__version__}, "
                f"torchao {torchao_version}, onnx {onnx.__version__}")
    text = README_HEAD + "\n".join(rows) + "\n" + README_TAIL.replace("{versions}", versions)
    (out_root / "README.md").write_text(text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=REPO / "tests" / "corpus")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="capture only these models")
    ap.add_argument("--skip-large", action="store_true",
                    help="skip the models that are generated on demand (not tracked by git)")
    ap.add_argument("--list", action="store_true", help="list the model names and exit")
    args = ap.parse_args()
    if args.list:
        for s in SPECS:
            print(f"{s.name}{'  (large, generated on demand)' if s.large else ''}")
        return 0
    if not torch.__version__.startswith("2.13"):
        print(f"warning: the corpus was made with torch 2.13, this is {torch.__version__}",
              file=sys.stderr)
    names = {s.name for s in SPECS}
    if args.only:
        unknown = [n for n in args.only if n not in names]
        if unknown:
            ap.error(f"unknown model(s) {unknown}; known: {sorted(names)}")
    todo = [s for s in SPECS
            if (not args.only or s.name in args.only) and not (args.skip_large and s.large)]
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for spec in todo:
        capture(spec, out)
    write_readme(out)
    print(f"wrote {rel(out / 'README.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
