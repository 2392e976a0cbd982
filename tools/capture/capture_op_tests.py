#!/usr/bin/env python3
"""Capture the per-op numerical test cases (tests/ops/).

Run from the repository root:

    .venv/bin/python tools/capture/capture_op_tests.py [--only CASE ...] [--out tests/ops] [--list]

Every lowering rule of `passes/lowering/src/rules/*/*.rs` is listed there by its
aten target (`"aten.add.Tensor"`).  This script writes one small case per
target, or per group of related targets, into `OUT/CASE/`, with the layout of
the model corpus (tests/corpus/, tools/capture/capture_corpus.py, whose helpers it
imports):

  model.pt2      torch.export.save of torch.export.export(..., strict=False)
                 (TRAINING IR), or of ep.run_decompositions() (ATEN IR) for the
                 cases marked so; node.meta["from_node"] dropped, stack traces
                 repository-relative.
  set_0/         input_<i>.pb / output_<j>.pb: ONNX TensorProtos named after
                 the ONNX graph inputs (forward() parameter names) and outputs
                 (the graph's user output node names), with the EAGER outputs
                 of the module.
  set_1/         only for cases with a dynamic dim: another value of that dim.
  meta.json      inputs, outputs, ir, targets (the aten targets the case is
                 meant to cover), graph_targets (every aten target the compiler
                 will see, after its inplace removal), dynamic dims, ...

The cases are the ones below, then those of the modules
tools/capture/op_cases/<family>.py (imported in file-name order), all written
with the registry and input makers of tools/capture/op_case_lib.py.

Checks made for every case: the targets it claims are rule targets and occur
in the exported graph (inplace ops counted as the functional targets the
compiler turns them into: `fill_.Scalar` -> `fill.Scalar`, a write through
`slice`/`select` -> `slice_scatter`/`select_scatter`); every aten op of the
graph has a rule (or is in PENDING_RULES: a rule being written; or, with
--allow-missing-rules, not yet: reported, not refused); inputs and outputs are
float32, int64, bool or, for quantized tensors, int8, uint8, int16 or int32
(what the parity harness reads); no input or buffer is mutated; the saved archive, reloaded with
torch.export.load, reproduces the eager outputs within 1e-5 on every set.
The script finally lists the rule targets no case covers and rewrites
OUT/README.md.

Ops outside `aten` are named as the importer names them: the op
`quantized_decomposed::quantize_per_tensor.default` (torch.ops.quantized_decomposed.
quantize_per_tensor.default) is the target `aten.quantized_decomposed::quantize_per_tensor.default`,
and a case claims it as `quantized_decomposed::quantize_per_tensor.default`.

Deterministic: fixed per-case seeds (crc32 of the case name); a re-run gives
byte-identical files on the same machine.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import inspect
import json
import operator
import os
import re
import shutil
import sys
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

sys.path.insert(0, str(Path(__file__).resolve().parent))
import capture_corpus as cc  # noqa: E402  (also installs its warning filters)
from op_case_lib import (  # noqa: E402  (the case registry and input makers, shared with op_cases/)
    BATCH, CASES, EXPLICIT, SEQ, Case, case, grid, nz, nzi, pos, rb, ri, rn, seeded_norm, ur,
)

if __name__ == "__main__":
    # One module whether run or imported (its cases register once in op_case_lib.CASES).
    sys.modules.setdefault("capture_op_tests", sys.modules[__name__])

REPO = cc.REPO
TOL = cc.TOL
RULES_DIR = REPO / "passes" / "lowering" / "src" / "rules"
# Quantized tensors (int8 / uint8 / int16 / int32) are inputs and outputs of the
# quantized_decomposed / torchao cases (tools/capture/op_cases/quantized.py).
ALLOWED_DTYPES = {torch.float32, torch.int64, torch.bool, torch.int8, torch.uint8, torch.int16, torch.int32}

# The view ops a write can go through, and the target the compiler's inplace
# removal (passes/src/aten_remove_inplace.rs) writes back with.
VIEW_INVERSE = {
    "aten.slice.Tensor": "aten.slice_scatter.default",
    "aten.select.int": "aten.select_scatter.default",
    "aten.diagonal.default": "aten.diagonal_scatter.default",
    "aten.as_strided.default": "aten.as_strided_scatter.default",
    "aten.transpose.int": "aten.transpose.int",
    "aten.t.default": "aten.t.default",
    "aten.unsqueeze.default": "aten.squeeze.dim",
    "aten.squeeze.dim": "aten.unsqueeze.default",
    "aten.squeeze.default": "aten.view.default",
    "aten.squeeze.dims": "aten.view.default",
    "aten.permute.default": "aten.permute.default",
    "aten.view.default": "aten.view.default",
    "aten._unsafe_view.default": "aten.view.default",
    "aten.alias.default": None,
    "aten.detach.default": None,
}


# ==========================================================================
# Elementwise arithmetic
# ==========================================================================


@case("add_tensor", ["add.Tensor"],
      lambda g, d: (rn(g, 2, 3), rn(g, 3), ri(g, -5, 6, 2, 3), ri(g, -5, 6, 3)))
def _(self, x, y, a, b):
    """x + y broadcast [2,3]+[3]; alpha=2; python float and int scalars; int64 + int64 (alpha=3);
    float + int64 promotion."""
    return (x + y, torch.add(x, y, alpha=2), x + 1.5, torch.add(x, 2, alpha=3), a + b,
            torch.add(a, b, alpha=3), a + 2, x + a)


@case("add_scalar", ["add.Scalar"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """Explicit torch.ops.aten.add.Scalar (Python `x + 1` exports as add.Tensor): float, with alpha,
    int64."""
    return (torch.ops.aten.add.Scalar(x, 2.5), torch.ops.aten.add.Scalar(x, 1.5, 2),
            torch.ops.aten.add.Scalar(a, 3))


@case("sub_tensor", ["sub.Tensor"],
      lambda g, d: (rn(g, 2, 3), rn(g, 3), ri(g, -5, 6, 2, 3), ri(g, -5, 6, 3)))
def _(self, x, y, a, b):
    """x - y broadcast; alpha=2; float scalar; int64 - int64 (alpha=2); int64 - float promotion."""
    return x - y, torch.sub(x, y, alpha=2), x - 1.5, a - b, torch.sub(a, b, alpha=2), a - x


@case("sub_scalar", ["sub.Scalar"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """Explicit torch.ops.aten.sub.Scalar: float, with alpha, int64."""
    return (torch.ops.aten.sub.Scalar(x, 2.5), torch.ops.aten.sub.Scalar(x, 1.5, 2),
            torch.ops.aten.sub.Scalar(a, 3))


@case("rsub_scalar", ["rsub.Scalar"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """1 - x; rsub(x, 2.0, alpha=3) = 2 - 3x; 3 - int64."""
    return 1 - x, torch.rsub(x, 2.0, alpha=3), 3 - a


@case("rsub_tensor", ["rsub.Tensor"],
      lambda g, d: (rn(g, 2, 3), rn(g, 3), ri(g, -5, 6, 2, 3), ri(g, -5, 6, 3)))
def _(self, x, y, a, b):
    """torch.rsub(x, y) = y - x broadcast; alpha=2; int64."""
    return torch.rsub(x, y), torch.rsub(x, y, alpha=2), torch.rsub(a, b)


@case("mul_tensor", ["mul.Tensor"],
      lambda g, d: (rn(g, 2, 3), rn(g, 3), ri(g, -5, 6, 2, 3), ri(g, -5, 6, 3), rb(g, 2, 3)))
def _(self, x, y, a, b, m):
    """x * y broadcast; float scalar; int64 * int64; int64 * int scalar; bool * float; float * int64."""
    return x * y, x * 2.5, a * b, a * 3, m * x, x * a


@case("mul_scalar", ["mul.Scalar"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """Explicit torch.ops.aten.mul.Scalar (Python `x * 2` exports as mul.Tensor): float, int64."""
    return torch.ops.aten.mul.Scalar(x, 2.5), torch.ops.aten.mul.Scalar(a, 3)


@case("div_tensor", ["div.Tensor"],
      lambda g, d: (rn(g, 2, 3), nz(g, 3), ri(g, -9, 10, 2, 3), nzi(g, 2, 3)))
def _(self, x, y, a, b):
    """True division: x / y broadcast; x / 2.0; int64 / int64 -> float; int64 / 4."""
    return x / y, x / 2.0, a / b, a / 4


@case("div_scalar", ["div.Scalar"], lambda g, d: (rn(g, 2, 3), ri(g, -9, 10, 2, 3)))
def _(self, x, a):
    """Explicit torch.ops.aten.div.Scalar: float; int64 -> float."""
    return torch.ops.aten.div.Scalar(x, 4.0), torch.ops.aten.div.Scalar(a, 4)


@case("div_rounding_mode", ["div.Tensor_mode"],
      lambda g, d: (ur(g, -5, 5, 2, 3), nz(g, 3), ri(g, -9, 10, 2, 3), nzi(g, 2, 3)))
def _(self, x, y, a, b):
    """div with rounding_mode floor and trunc, negative values: float/float broadcast, float/scalar,
    int64/int64, int64/scalar."""
    return (torch.div(x, y, rounding_mode="floor"), torch.div(x, y, rounding_mode="trunc"),
            torch.div(x, 2.0, rounding_mode="floor"), torch.div(x, -2.0, rounding_mode="trunc"),
            torch.div(a, b, rounding_mode="floor"), torch.div(a, b, rounding_mode="trunc"),
            torch.div(a, 3, rounding_mode="floor"), torch.div(a, -3, rounding_mode="trunc"))


@case("floor_divide", ["floor_divide.default"],
      lambda g, d: (ur(g, -5, 5, 2, 3), nz(g, 3), ri(g, -9, 10, 2, 3), nzi(g, 2, 3)))
def _(self, x, y, a, b):
    """x // y (broadcast), x // 2.0, int64 // int64 and // 3 with negative values."""
    return x // y, x // 2.0, a // b, a // 3, torch.floor_divide(a, -3)


@case("pow_tensor_scalar", ["pow.Tensor_Scalar"],
      lambda g, d: (rn(g, 2, 3), pos(g, 2, 3), ri(g, -4, 5, 2, 3)))
def _(self, x, p, a):
    """x ** 2, x ** 3 (negative bases), p ** 0.5, p ** -1.5, int64 ** 2."""
    return x ** 2, x ** 3, p ** 0.5, p ** -1.5, a ** 2


@case("pow_tensor_tensor", ["pow.Tensor_Tensor"],
      lambda g, d: (pos(g, 2, 3), rn(g, 3), ri(g, -4, 5, 2, 3), ri(g, 0, 4, 2, 3)))
def _(self, p, y, a, e):
    """p ** y broadcast [2,3]**[3]; float ** int64 tensor; int64 ** int64 (non-negative exponents)."""
    return p ** y, p ** e, a ** e


@case("pow_scalar", ["pow.Scalar"], lambda g, d: (rn(g, 2, 3), ri(g, 0, 5, 2, 3)))
def _(self, x, e):
    """2 ** x, 0.5 ** x, 2 ** int64 (int64 result)."""
    return 2 ** x, 0.5 ** x, 2 ** e


@case("maximum_minimum", ["maximum.default", "minimum.default"],
      lambda g, d: (grid(g, 2, 3), grid(g, 3), ri(g, -5, 6, 2, 3), ri(g, -5, 6, 3)))
def _(self, x, y, a, b):
    """torch.maximum / torch.minimum, broadcast [2,3] vs [3] (with ties), int64."""
    return torch.maximum(x, y), torch.minimum(x, y), torch.maximum(a, b), torch.minimum(a, b)


@case("remainder_scalar", ["remainder.Scalar"], lambda g, d: (ur(g, -5, 5, 2, 4), ri(g, -9, 10, 2, 4)))
def _(self, x, a):
    """x % 1.5 and x % -1.5 (result takes the divisor's sign), x % 2 (int scalar on float), int64 % 3
    and % -3, with negative values."""
    return x % 1.5, x % -1.5, x % 2, a % 3, a % -3


@case("remainder_tensor", ["remainder.Tensor"],
      lambda g, d: (ur(g, -5, 5, 2, 3), nz(g, 3), ri(g, -9, 10, 2, 3), nzi(g, 2, 3)))
def _(self, x, y, a, b):
    """torch.remainder(x, y) broadcast [2,3] % [3] with both signs; int64 % int64 with negatives;
    float % int64 (promotes to float)."""
    return torch.remainder(x, y), a % b, x % b


@case("addcmul_addcdiv", ["addcmul.default", "addcdiv.default"],
      lambda g, d: (rn(g, 2, 3), rn(g, 2, 3), rn(g, 3), nz(g, 3)))
def _(self, x, t1, t2, d):
    """torch.addcmul / addcdiv with value=0.5 and the default value 1, tensor2 broadcast [3]."""
    return (torch.addcmul(x, t1, t2, value=0.5), torch.addcmul(x, t1, t2),
            torch.addcdiv(x, t1, d, value=0.5), torch.addcdiv(x, t1, d))


# ==========================================================================
# Unary math
# ==========================================================================


@case("abs", ["abs.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """abs on float and int64."""
    return x.abs(), torch.abs(a)


@case("neg", ["neg.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """-x on float and int64."""
    return -x, -a


@case("sign", ["sign.default"], lambda g, d: (grid(g, 2, 4), ri(g, -2, 3, 2, 4)))
def _(self, x, a):
    """sign on float (with exact zeros) and int64."""
    return x.sign(), a.sign()


@case("reciprocal", ["reciprocal.default"], lambda g, d: (nz(g, 2, 3),))
def _(self, x):
    """1/x on floats of both signs."""
    return x.reciprocal()


@case("rsqrt", ["rsqrt.default"], lambda g, d: (pos(g, 2, 3),))
def _(self, x):
    """rsqrt on positive floats."""
    return x.rsqrt()


@case("sqrt", ["sqrt.default"], lambda g, d: (pos(g, 2, 3),))
def _(self, x):
    """sqrt on positive floats."""
    return x.sqrt()


@case("exp", ["exp.default"], lambda g, d: (rn(g, 2, 3),))
def _(self, x):
    """exp."""
    return x.exp()


@case("log", ["log.default"], lambda g, d: (pos(g, 2, 3),))
def _(self, x):
    """log on positive floats."""
    return x.log()


@case("erf", ["erf.default"], lambda g, d: (rn(g, 2, 3),))
def _(self, x):
    """erf."""
    return torch.erf(x)


@case("sin", ["sin.default"], lambda g, d: (ur(g, -4, 4, 2, 3),))
def _(self, x):
    """sin."""
    return x.sin()


@case("cos", ["cos.default"], lambda g, d: (ur(g, -4, 4, 2, 3),))
def _(self, x):
    """cos."""
    return x.cos()


@case("tanh", ["tanh.default"], lambda g, d: (rn(g, 2, 3),))
def _(self, x):
    """tanh."""
    return x.tanh()


@case("sigmoid", ["sigmoid.default"], lambda g, d: (rn(g, 2, 3),))
def _(self, x):
    """sigmoid."""
    return x.sigmoid()


@case("ceil", ["ceil.default"], lambda g, d: (ur(g, -3, 3, 2, 4) * torch.tensor([1.0, 1.0, 1.0, 0.0]),))
def _(self, x):
    """ceil on floats of both signs (one column of zeros)."""
    return x.ceil()


@case("floor", ["floor.default"], lambda g, d: (ur(g, -3, 3, 2, 4) * torch.tensor([1.0, 1.0, 1.0, 0.0]),))
def _(self, x):
    """floor on floats of both signs (one column of zeros)."""
    return x.floor()


@case("unary_int_to_float",
      ["exp.default", "log.default", "sqrt.default", "rsqrt.default", "reciprocal.default",
       "sin.default", "cos.default", "tanh.default", "sigmoid.default", "erf.default"],
      lambda g, d: (ri(g, 1, 6, 2, 3),))
def _(self, a):
    """Float unary ops on an int64 tensor (positive values): torch promotes the result to float32."""
    return (a.exp(), a.log(), a.sqrt(), a.rsqrt(), a.reciprocal(), a.sin(), a.cos(), a.tanh(),
            a.sigmoid(), a.erf())


@case("log1p", ["log1p.default"],
      lambda g, d: (torch.cat([ur(g, -0.9, 3.0, 1, 4), torch.tensor([[1e-7, -1e-6, 1e-4, 0.0]])]),))
def _(self, x):
    """log1p on (-0.9, 3) and on tiny values (where log(1 + x) loses precision)."""
    return x.log1p()


@case("expm1", ["expm1.default"],
      lambda g, d: (torch.cat([rn(g, 1, 4), torch.tensor([[1e-7, -1e-6, 1e-4, 0.0]])]),))
def _(self, x):
    """expm1 on normal values and on tiny values (where exp(x) - 1 loses precision)."""
    return x.expm1()


@case("round", ["round.default"],
      lambda g, d: (torch.cat([torch.tensor([[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]]), ur(g, -3, 3, 1, 6)]),
                    ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """round with .5 ties (to even: -2.5 -> -2, 0.5 -> 0, 1.5 -> 2) and random floats; int64 (identity)."""
    return x.round(), a.round()


@case("trunc", ["trunc.default"], lambda g, d: (ur(g, -3, 3, 2, 4) * torch.tensor([1.0, 1.0, 1.0, 0.0]),))
def _(self, x):
    """trunc on floats of both signs (one column of zeros)."""
    return x.trunc()


@case("square", ["square.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """square on float and int64."""
    return x.square(), a.square()


# ==========================================================================
# Activations and clamping
# ==========================================================================


@case("relu", ["relu.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """relu on float and int64."""
    return torch.relu(x), F.relu(a)


@case("gelu", ["gelu.default"], lambda g, d: (ur(g, -4, 4, 2, 4),))
def _(self, x):
    """gelu approximate='none' and 'tanh'."""
    return F.gelu(x), F.gelu(x, approximate="tanh")


@case("silu", ["silu.default"], lambda g, d: (ur(g, -4, 4, 2, 4),))
def _(self, x):
    """silu."""
    return F.silu(x)


@case("hardtanh", ["hardtanh.default"], lambda g, d: (ur(g, -2, 2, 2, 4),))
def _(self, x):
    """hardtanh default [-1, 1] and [-0.5, 0.25]."""
    return F.hardtanh(x), F.hardtanh(x, -0.5, 0.25)


@case("leaky_relu", ["leaky_relu.default"], lambda g, d: (rn(g, 2, 4),))
def _(self, x):
    """leaky_relu default slope and 0.2."""
    return F.leaky_relu(x), F.leaky_relu(x, 0.2)


@case("clamp", ["clamp.default"], lambda g, d: (rn(g, 2, 4), ri(g, -5, 6, 2, 4)))
def _(self, x, a):
    """clamp with min only, max only, both; int64 with int bounds."""
    return x.clamp(min=-0.25), x.clamp(max=0.5), x.clamp(-0.25, 0.5), a.clamp(-2, 3)


@case("clamp_min", ["clamp_min.default"], lambda g, d: (rn(g, 2, 4), ri(g, -5, 6, 2, 4)))
def _(self, x, a):
    """torch.clamp_min on float and int64."""
    return torch.clamp_min(x, 0.1), a.clamp_min(0)


@case("clamp_max", ["clamp_max.default"], lambda g, d: (rn(g, 2, 4), ri(g, -5, 6, 2, 4)))
def _(self, x, a):
    """torch.clamp_max on float and int64."""
    return torch.clamp_max(x, 0.1), a.clamp_max(1)


@case("clamp_tensor", ["clamp.Tensor"],
      lambda g, d: (rn(g, 2, 4), ur(g, -1.0, -0.1, 4), ur(g, 0.1, 1.0, 4)))
def _(self, x, lo, hi):
    """clamp with tensor bounds (broadcast [4]): both, min only, max only."""
    return x.clamp(lo, hi), x.clamp(min=lo), x.clamp(max=hi)


@case("hardswish", ["hardswish.default"], lambda g, d: (ur(g, -4, 4, 2, 4),))
def _(self, x):
    """hardswish on (-4, 4) (both kinks at -3 and 3 inside the range)."""
    return F.hardswish(x)


@case("hardsigmoid", ["hardsigmoid.default"], lambda g, d: (ur(g, -4, 4, 2, 4),))
def _(self, x):
    """hardsigmoid on (-4, 4)."""
    return F.hardsigmoid(x)


@case("elu", ["elu.default"], lambda g, d: (rn(g, 2, 4),))
def _(self, x):
    """elu with alpha 1.0 and 0.5."""
    return F.elu(x), F.elu(x, alpha=0.5)


@case("softplus", ["softplus.default"],
      lambda g, d: (torch.cat([ur(g, -4, 4, 2, 4), torch.tensor([[12.0], [25.0]])], 1),))
def _(self, x):
    """softplus with beta 1 and beta 2 (threshold default 20: the last column, 12 and 25, reaches the
    linear branch for beta * x > 20)."""
    return F.softplus(x), F.softplus(x, beta=2)


@case("mish", ["mish.default"], lambda g, d: (ur(g, -4, 4, 2, 4),))
def _(self, x):
    """mish."""
    return F.mish(x)


@case("glu", ["glu.default"], lambda g, d: (rn(g, 2, 6),))
def _(self, x):
    """F.glu over dim -1 (6 -> 3) and over dim 0 (2 -> 1)."""
    return F.glu(x, -1), F.glu(x, 0)


@case("glu_dynamic", ["glu.default"], lambda g, d: (rn(g, 2, d["width*2"]),), dynamic={"x": {1: ("width*2", 6, 10)}})
def _(self, x):
    """F.glu over a dynamic (even) dim: two equal halves at run time."""
    return F.glu(x, -1) * 2


# ==========================================================================
# Comparisons, logical and bitwise ops, where / masked_fill
# ==========================================================================


@case("compare_tensor",
      ["eq.Tensor", "ne.Tensor", "lt.Tensor", "le.Tensor", "gt.Tensor", "ge.Tensor"],
      lambda g, d: (grid(g, 2, 3), grid(g, 3), ri(g, -2, 3, 2, 3), ri(g, -2, 3, 3), rb(g, 2, 3),
                    rb(g, 3)))
def _(self, x, y, a, b, m, n):
    """==, !=, <, <=, >, >= between tensors: float broadcast [2,3] vs [3] with ties, int64,
    float vs int64, bool == bool."""
    return (x == y, x != y, x < y, x <= y, x > y, x >= y,
            a == b, a != b, a < b, a <= b, a > b, a >= b,
            x == a, x < a, m == n, m != n)


@case("compare_scalar",
      ["eq.Scalar", "ne.Scalar", "lt.Scalar", "le.Scalar", "gt.Scalar", "ge.Scalar"],
      lambda g, d: (grid(g, 2, 3), ri(g, -2, 3, 2, 3)))
def _(self, x, a):
    """Comparisons with a Python scalar: float tensor vs float (with ties), int64 tensor vs float
    scalars (1.5, 0.5) and vs ints."""
    return (x == 1.0, x != 0.0, x < 0.5, x <= 1.0, x > -1.0, x >= 0.0,
            a == 1, a != 0, a < 0.5, a <= 1.5, a > -0.5, a >= 1.5, a == 1.5)


@case("logical", ["logical_and.default", "logical_or.default", "logical_not.default"],
      lambda g, d: (rb(g, 2, 3), rb(g, 2, 3), grid(g, 2, 3), ri(g, -1, 2, 3)))
def _(self, m, n, x, a):
    """logical_and / logical_or / logical_not on bools, on floats (non-zero is true, broadcast with
    int64) and on int64."""
    return (torch.logical_and(m, n), torch.logical_or(m, n), torch.logical_not(m),
            torch.logical_and(x, a), torch.logical_or(x, a), torch.logical_not(a))


@case("and_or_operators", ["__and__.Tensor", "__or__.Tensor"],
      lambda g, d: (rb(g, 2, 3), rb(g, 2, 3), ri(g, -8, 8, 2, 3), ri(g, -8, 8, 3)))
def _(self, m, n, a, b):
    """Python `&` and `|` (aten.__and__/__or__): bools, and int64 with negatives broadcast."""
    return m & n, m | n, a & b, a | b


@case("bitwise", ["bitwise_and.Tensor", "bitwise_or.Tensor", "bitwise_not.default"],
      lambda g, d: (rb(g, 2, 3), rb(g, 2, 3), ri(g, -8, 8, 2, 3), ri(g, -8, 8, 3)))
def _(self, m, n, a, b):
    """torch.bitwise_and / bitwise_or on bools and int64 (broadcast); `~` on bool and int64."""
    return (torch.bitwise_and(m, n), torch.bitwise_or(m, n), torch.bitwise_and(a, b),
            torch.bitwise_or(a, b), ~m, ~a)


@case("where_self", ["where.self"],
      lambda g, d: (rb(g, 2, 3), rn(g, 2, 3), rn(g, 3), ri(g, -5, 6, 2, 3), ri(g, -5, 6, 3)))
def _(self, m, x, y, a, b):
    """torch.where(cond, x, y) with y broadcast [3]; int64."""
    return torch.where(m, x, y), torch.where(m, a, b)


@case("where_scalar_other", ["where.ScalarOther"],
      lambda g, d: (rb(g, 2, 3), rn(g, 2, 3)))
def _(self, m, x):
    """torch.where(cond, x, 0.0) and with -1.5."""
    return torch.where(m, x, 0.0), torch.where(m, x, -1.5)


@case("where_scalar_self", ["where.ScalarSelf"],
      lambda g, d: (rb(g, 2, 3), rn(g, 2, 3)))
def _(self, m, x):
    """torch.where(cond, 1.0, x) and with -2.5."""
    return torch.where(m, 1.0, x), torch.where(m, -2.5, x)


@case("masked_fill_scalar", ["masked_fill.Scalar"],
      lambda g, d: (rn(g, 2, 3), rb(g, 2, 3), rb(g, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, m, r, a):
    """masked_fill with a Python scalar; broadcast mask [3]; int64 tensor."""
    return x.masked_fill(m, -1.0), x.masked_fill(r, 2.0), a.masked_fill(m, 7)


@case("masked_fill_tensor", ["masked_fill.Tensor"],
      lambda g, d: (rn(g, 2, 3), rb(g, 2, 3), rn(g)))
def _(self, x, m, v):
    """masked_fill with a 0-d tensor value (an input)."""
    return x.masked_fill(m, v)


# ==========================================================================
# Reductions
# ==========================================================================


@case("sum_default", ["sum.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3), rb(g, 2, 3)))
def _(self, x, a, m):
    """sum of all elements: float, int64, bool (-> int64)."""
    return x.sum(), a.sum(), m.sum()


@case("sum_dim", ["sum.dim_IntList"],
      lambda g, d: (rn(g, 2, 3, 4), ri(g, -5, 6, 2, 3), rb(g, 2, 3)))
def _(self, x, a, m):
    """sum over dim 1, -1 keepdim, dims (0, 2); int64; int64 with dtype=float32; bool -> int64."""
    return (x.sum(1), x.sum(-1, keepdim=True), x.sum((0, 2)), a.sum(0),
            a.sum(1, dtype=torch.float32), m.sum(-1))


@case("mean_default", ["mean.default"], lambda g, d: (rn(g, 2, 3, 4),))
def _(self, x):
    """mean of all elements."""
    return x.mean()


@case("mean_dim", ["mean.dim"], lambda g, d: (rn(g, 2, 3, 4), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """mean over -1 keepdim, dims (0, 2), dim 0; int64 with dtype=float32."""
    return x.mean(-1, keepdim=True), x.mean((0, 2)), x.mean(0), a.mean(1, dtype=torch.float32)


@case("amax_amin", ["amax.default", "amin.default"],
      lambda g, d: (rn(g, 2, 3, 4), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """amax over -1, over (0, 2); amin over (0, 1) keepdim, over 1; int64."""
    return x.amax(-1), x.amax((0, 2)), x.amin((0, 1), keepdim=True), x.amin(1), a.amax(0), a.amin(-1)


@case("argmax", ["argmax.default"], lambda g, d: (rn(g, 2, 3, 4),))
def _(self, x):
    """argmax over everything, dim 1 keepdim, dim -1."""
    return x.argmax(), x.argmax(1, keepdim=True), x.argmax(-1)


@case("any_dim", ["any.dim"], lambda g, d: (rb(g, 3, 4) & rb(g, 3, 4), ri(g, -1, 2, 3, 4), grid(g, 3, 4)))
def _(self, m, a, x):
    """any over dim 1, dim -1 keepdim (bool); over dim 0 on int64 and float (non-zero is true)."""
    return m.any(1), m.any(-1, keepdim=True), a.any(0), x.any(dim=1)


@case("cumsum", ["cumsum.default"], lambda g, d: (rn(g, 2, 4), ri(g, -5, 6, 2, 4), rb(g, 2, 4)))
def _(self, x, a, m):
    """cumsum over -1 and 0; int64; int64 with dtype=float32; bool -> int64."""
    return x.cumsum(-1), x.cumsum(0), a.cumsum(1), a.cumsum(0, dtype=torch.float32), m.cumsum(1)


def distinct(g, *s):  # float32 values without ties (multiples of 0.25, both signs)
    n = 1
    for v in s:
        n *= v
    return (torch.randperm(n, generator=g).to(torch.float32) - n / 2).mul(0.25).reshape(s)


def distinct_i(g, *s):  # int64 values without ties, both signs
    n = 1
    for v in s:
        n *= v
    return (torch.randperm(n, generator=g) - n // 2).reshape(s)


@case("max_min_dim", ["max.dim", "min.dim"], lambda g, d: (distinct(g, 2, 3, 4), distinct_i(g, 3, 4)))
def _(self, x, a):
    """x.max(1), x.min(-1, keepdim=True), int64 max(0) / min(1): values and indices both outputs (no
    ties)."""
    v1, i1 = x.max(1)
    v2, i2 = x.min(-1, keepdim=True)
    v3, i3 = a.max(0)
    v4, i4 = a.min(1)
    return v1, i1, v2, i2, v3, i3, v4, i4


@case("max_min_other", ["max.other", "min.other"],
      lambda g, d: (grid(g, 2, 3), grid(g, 3), ri(g, -5, 6, 2, 3), ri(g, -5, 6, 3)))
def _(self, x, y, a, b):
    """torch.max(a, b) / torch.min(a, b) elementwise, broadcast [2,3] vs [3] (with ties), int64."""
    return torch.max(x, y), torch.min(x, y), torch.max(a, b), torch.min(a, b)


@case("max_min_default", ["max.default", "min.default"],
      lambda g, d: (rn(g, 2, 3, 4), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """x.max(), x.min() over every element: float, int64 (0-d results)."""
    return x.max(), x.min(), a.max(), a.min()


def _any_all_inputs(g, d):
    m = rb(g, 3, 4)
    m[0] = True  # a row all true (all over dim 1)
    m[:, 1] = True  # a column all true (all over dim 0)
    return m, torch.zeros(2, 3, dtype=torch.bool)


@case("any_all", ["any.default", "all.default", "all.dim"], _any_all_inputs)
def _(self, m, z):
    """any() / all() of a bool tensor and of an all-false one; all over dim 1, dim -1 keepdim, dim 0
    (a row and a column all true)."""
    return m.any(), m.all(), z.any(), z.all(), m.all(1), m.all(-1, keepdim=True), m.all(0)


@case("prod_dim", ["prod.dim_int"],
      lambda g, d: (nz(g, 2, 3, 4), ri(g, -3, 4, 3, 4)))
def _(self, x, a):
    """prod over dim 1, over dim -1 keepdim (floats of both signs); int64 over dim 0 and 1."""
    return x.prod(1), x.prod(-1, keepdim=True), a.prod(0), a.prod(1)


@case("var_std", ["var.correction", "std.correction"], lambda g, d: (rn(g, 2, 5, 3),))
def _(self, x):
    """var / std over dim [1] with correction 1 and 0, keepdim True and False (explicit `correction=`
    gives the .correction overloads)."""
    return (x.var([1], correction=1), x.var([1], correction=0, keepdim=True),
            x.std([1], correction=1, keepdim=True), x.std([1], correction=0))


@case("var_std_all", ["var.correction", "std.correction"], lambda g, d: (rn(g, 2, 5),))
def _(self, x):
    """x.var() and x.std() over every element (dim None, correction 1); x.var(correction=0)."""
    return x.var(), x.std(), x.var(correction=0)


@case("var_std_dim", ["var.dim", "std.dim"], lambda g, d: (rn(g, 2, 5, 3),))
def _(self, x):
    """x.var(1), x.std(-1, keepdim=True), x.var(1, unbiased=False): a dim without `correction=`
    exports as the .dim overloads (unbiased flag)."""
    return x.var(1), x.std(-1, keepdim=True), x.var(1, unbiased=False)


# ==========================================================================
# Softmax
# ==========================================================================


@case("softmax", ["softmax.int"], lambda g, d: (rn(g, 2, 3, 4),))
def _(self, x):
    """softmax over dim 0, -1 and 1."""
    return F.softmax(x, 0), F.softmax(x, -1), torch.softmax(x, 1)


@case("log_softmax", ["log_softmax.int"], lambda g, d: (rn(g, 2, 3, 4),))
def _(self, x):
    """log_softmax over dim -1 and 0."""
    return F.log_softmax(x, -1), F.log_softmax(x, 0)


@case("softmax_core", ["_softmax.default", "_log_softmax.default"], lambda g, d: (rn(g, 2, 3, 4),),
      ir="ATEN")
def _(self, x):
    """Core ATen softmax / log_softmax over dim 0 and -1."""
    return F.softmax(x, 0), F.softmax(x, -1), F.log_softmax(x, -1), F.log_softmax(x, 1)


# ==========================================================================
# Matrix products and linear
# ==========================================================================


def _init_linear(m):
    m.fc = nn.Linear(4, 5)
    m.register_buffer("w", torch.randn(3, 4))


@case("linear", ["linear.default"], lambda g, d: (rn(g, 2, 3, 4), rn(g, 2, 4)), init=_init_linear)
def _(self, x, y):
    """nn.Linear(4, 5) on a 3-D input; F.linear without bias on 2-D."""
    return self.fc(x), F.linear(y, self.w)


@case("linear_core", ["addmm.default", "permute.default"], lambda g, d: (rn(g, 2, 4), rn(g, 2, 3, 4)),
      init=_init_linear, ir="ATEN")
def _(self, x, y):
    """nn.Linear in core ATen: permute of the weight + addmm (2-D input), view + addmm + view (3-D)."""
    return self.fc(x), self.fc(y)


@case("addmm", ["addmm.default"], lambda g, d: (rn(g, 3), rn(g, 2, 3), rn(g, 2, 4), rn(g, 4, 3)))
def _(self, c, c2, a, b):
    """torch.addmm with a broadcast [3] bias, beta=0.5 alpha=2.0; with a [2,3] bias, defaults."""
    return torch.addmm(c, a, b, beta=0.5, alpha=2.0), torch.addmm(c2, a, b)


@case("matmul", ["matmul.default"],
      lambda g, d: (rn(g, 2, 3), rn(g, 3, 4), rn(g, 2, 2, 3), rn(g, 2, 1, 2, 3), rn(g, 3, 3, 4), rn(g, 3)))
def _(self, a, b, c, e, f, v):
    """2-D @ 2-D, 3-D @ 2-D, 4-D @ 3-D with batch broadcasting, 1-D @ 2-D, 2-D @ 1-D, 1-D @ 1-D."""
    return a @ b, c @ b, e @ f, v @ b, a @ v, torch.matmul(v, v)


@case("mm", ["mm.default"], lambda g, d: (rn(g, 2, 3), rn(g, 3, 4)))
def _(self, a, b):
    """torch.mm."""
    return torch.mm(a, b)


@case("bmm", ["bmm.default"], lambda g, d: (rn(g, 2, 3, 4), rn(g, 2, 4, 5)))
def _(self, a, b):
    """torch.bmm."""
    return torch.bmm(a, b)


@case("einsum", ["einsum.default"], lambda g, d: (rn(g, 2, 3, 4), rn(g, 2, 4, 5), rn(g, 3, 4)))
def _(self, a, b, m):
    """torch.einsum "bij,bjk->bik" (batched matmul) and "ij->ji" (transpose)."""
    return torch.einsum("bij,bjk->bik", a, b), torch.einsum("ij->ji", m)


# ==========================================================================
# Convolution, pooling, normalization
# ==========================================================================


def _init_conv1d(m):
    m.a = nn.Conv1d(3, 4, 3, stride=2, padding=1)
    m.b = nn.Conv1d(4, 4, 3, padding=2, dilation=2, groups=2, bias=False)


@case("conv1d", ["conv1d.default"], lambda g, d: (rn(g, 2, 3, 9), rn(g, 1, 4, 7)), init=_init_conv1d)
def _(self, x, y):
    """Conv1d stride 2 padding 1; Conv1d dilation 2 padding 2 groups 2 without bias."""
    return self.a(x), self.b(y)


def _init_conv2d(m):
    m.a = nn.Conv2d(4, 6, 3, stride=2, padding=1)
    m.b = nn.Conv2d(4, 4, 3, padding=2, dilation=2, groups=2, bias=False)
    m.c = nn.Conv2d(4, 2, (3, 1), stride=(1, 2), padding=(1, 0))
    m.dw = nn.Conv2d(4, 4, 3, groups=4)


@case("conv2d", ["conv2d.default"], lambda g, d: (rn(g, 1, 4, 7, 7),), init=_init_conv2d)
def _(self, x):
    """Conv2d stride 2 padding 1; dilation 2 padding 2 groups 2 no bias; kernel (3,1) stride (1,2)
    padding (1,0); depthwise (groups 4)."""
    return self.a(x), self.b(x), self.c(x), self.dw(x)


def _init_conv3d(m):
    m.a = nn.Conv3d(2, 3, 3, padding=1)
    m.b = nn.Conv3d(2, 2, 2, stride=2, bias=False)


@case("conv3d", ["conv3d.default"], lambda g, d: (rn(g, 1, 2, 4, 4, 4),), init=_init_conv3d)
def _(self, x):
    """Conv3d padding 1; kernel 2 stride 2 without bias."""
    return self.a(x), self.b(x)


def _init_convolution_core(m):
    m.c1 = nn.Conv1d(3, 4, 3, stride=2, padding=1)
    _init_conv2d(m)


@case("convolution_core", ["convolution.default"], lambda g, d: (rn(g, 2, 3, 9), rn(g, 1, 4, 7, 7)),
      init=_init_convolution_core, ir="ATEN")
def _(self, x, y):
    """Core ATen convolution: conv1d stride/padding; conv2d stride, dilation+groups, asymmetric
    kernel/stride/padding."""
    return self.c1(x), self.a(y), self.b(y), self.c(y)


def _init_conv_transpose(m):
    m.a = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1)
    m.b = nn.ConvTranspose1d(2, 2, 3, stride=1, padding=0, bias=False)


@case("conv_transpose_core", ["convolution.default"], lambda g, d: (rn(g, 1, 2, 4, 4), rn(g, 1, 2, 5)),
      init=_init_conv_transpose, ir="ATEN")
def _(self, x, y):
    """Core ATen convolution with transposed=True: ConvTranspose2d stride 2 padding 1
    output_padding 1; ConvTranspose1d without bias."""
    return self.a(x), self.b(y)


@case("max_pool1d", ["max_pool1d.default"], lambda g, d: (rn(g, 1, 2, 7),))
def _(self, x):
    """F.max_pool1d kernel 2; kernel 3 stride 2 padding 1 ceil_mode."""
    return F.max_pool1d(x, 2), F.max_pool1d(x, 3, stride=2, padding=1, ceil_mode=True)


@case("max_pool2d", ["max_pool2d.default"], lambda g, d: (rn(g, 1, 2, 7, 7),))
def _(self, x):
    """F.max_pool2d kernel 2; kernel 3 stride 2 padding 1; kernel 2 ceil_mode on 7x7; dilation 2."""
    return (F.max_pool2d(x, 2), F.max_pool2d(x, 3, stride=2, padding=1),
            F.max_pool2d(x, 2, ceil_mode=True), F.max_pool2d(x, 2, dilation=2))


@case("max_pool2d_with_indices", ["max_pool2d_with_indices.default"], lambda g, d: (rn(g, 1, 2, 5, 5),))
def _(self, x):
    """F.max_pool2d(return_indices=True) with the indices unused; with ceil_mode."""
    return (F.max_pool2d(x, 2, return_indices=True)[0],
            F.max_pool2d(x, 2, ceil_mode=True, return_indices=True)[0])


@case("max_pool2d_core", ["max_pool2d_with_indices.default"], lambda g, d: (rn(g, 1, 2, 7, 7),),
      ir="ATEN")
def _(self, x):
    """Core ATen of F.max_pool2d (max_pool2d_with_indices, indices unused): kernel 2; kernel 3 stride 2
    padding 1; ceil_mode."""
    return F.max_pool2d(x, 2), F.max_pool2d(x, 3, stride=2, padding=1), F.max_pool2d(x, 2, ceil_mode=True)


@case("avg_pool2d", ["avg_pool2d.default"], lambda g, d: (rn(g, 1, 2, 5, 5),))
def _(self, x):
    """F.avg_pool2d kernel 2; kernel 3 stride 2 padding 1 (count_include_pad True and False);
    kernel 2 ceil_mode."""
    return (F.avg_pool2d(x, 2), F.avg_pool2d(x, 3, stride=2, padding=1),
            F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False),
            F.avg_pool2d(x, 2, ceil_mode=True))


@case("adaptive_avg_pool2d", ["adaptive_avg_pool2d.default"], lambda g, d: (rn(g, 2, 3, 4, 4),))
def _(self, x):
    """adaptive_avg_pool2d of 4x4 to (1, 1) and to (2, 2)."""
    return F.adaptive_avg_pool2d(x, (1, 1)), F.adaptive_avg_pool2d(x, 2)


def _init_batch_norm(m):
    m.bn2 = nn.BatchNorm2d(3)
    m.bn1 = nn.BatchNorm1d(4, affine=False)
    m.bn1l = nn.BatchNorm1d(3, eps=1e-3)
    for bn in (m.bn2, m.bn1, m.bn1l):
        seeded_norm(bn)


@case("batch_norm", ["batch_norm.default"], lambda g, d: (rn(g, 2, 3, 4, 4), rn(g, 3, 4), rn(g, 2, 3, 5)),
      init=_init_batch_norm)
def _(self, x, y, z):
    """Eval-mode BatchNorm2d (random running stats); BatchNorm1d without affine on [N, C];
    BatchNorm1d eps 1e-3 on [N, C, L]."""
    return self.bn2(x), self.bn1(y), self.bn1l(z)


@case("batch_norm_core", ["_native_batch_norm_legit_no_training.default"],
      lambda g, d: (rn(g, 2, 3, 4, 4), rn(g, 3, 4)), init=_init_batch_norm, ir="ATEN")
def _(self, x, y):
    """Core ATen of eval-mode BatchNorm2d and BatchNorm1d without affine."""
    return self.bn2(x), self.bn1(y)


def _init_layer_norm(m):
    m.ln = nn.LayerNorm(4)
    m.ln_plain = nn.LayerNorm(4, elementwise_affine=False)
    m.ln2 = nn.LayerNorm((3, 4), eps=1e-3, bias=False)
    for ln in (m.ln, m.ln2):
        seeded_norm(ln)


@case("layer_norm", ["layer_norm.default"], lambda g, d: (rn(g, 2, 3, 4),), init=_init_layer_norm)
def _(self, x):
    """LayerNorm(4) with affine; without elementwise affine; over the last two dims with weight only
    and eps 1e-3."""
    return self.ln(x), self.ln_plain(x), self.ln2(x)


@case("layer_norm_core", ["native_layer_norm.default"], lambda g, d: (rn(g, 2, 3, 4),),
      init=_init_layer_norm, ir="ATEN")
def _(self, x):
    """Core ATen of the layer_norm case's three LayerNorms."""
    return self.ln(x), self.ln_plain(x), self.ln2(x)


def _init_rms_norm(m):
    m.rms = nn.RMSNorm(4, eps=1e-6)
    with torch.no_grad():
        m.rms.weight.copy_(torch.rand(4) + 0.5)


@case("rms_norm_core", ["add.Scalar", "pow.Tensor_Scalar", "mean.dim", "rsqrt.default"],
      lambda g, d: (rn(g, 2, 3, 4),), init=_init_rms_norm, ir="ATEN")
def _(self, x):
    """Core ATen of nn.RMSNorm: pow, mean, add.Scalar (eps), rsqrt, mul (the natural source of
    add.Scalar; the TRAINING IR op aten.rms_norm has no rule)."""
    return self.rms(x)


def _init_conv_transpose2d(m):
    m.a = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1)
    m.b = nn.ConvTranspose2d(4, 4, 3, groups=2)


@case("conv_transpose2d", ["conv_transpose2d.input"], lambda g, d: (rn(g, 1, 2, 4, 4), rn(g, 2, 4, 3, 3)),
      init=_init_conv_transpose2d)
def _(self, x, y):
    """nn.ConvTranspose2d stride 2 padding 1 output_padding 1 (4x4 -> 8x8); ConvTranspose2d groups 2
    (4 -> 4 channels, 3x3 -> 5x5)."""
    return self.a(x), self.b(y)


def _init_conv2d_padding(m):
    m.same = nn.Conv2d(4, 3, 3, padding="same", dilation=2)
    m.same_rect = nn.Conv2d(4, 2, (3, 5), padding="same", bias=False)
    m.valid = nn.Conv2d(4, 3, 3, padding="valid")


@case("conv2d_padding", ["conv2d.padding"], lambda g, d: (rn(g, 1, 4, 6, 7),), init=_init_conv2d_padding)
def _(self, x):
    """nn.Conv2d padding="same" with kernel 3 dilation 2; "same" with kernel (3, 5) without bias;
    padding="valid" (6x7 input)."""
    return self.same(x), self.same_rect(x), self.valid(x)


def _init_conv2d_padding_same_even(m):
    m.a = nn.Conv2d(2, 3, (2, 4), padding="same")
    m.b = nn.Conv2d(2, 2, 2, padding="same", dilation=(1, 3), bias=False)


@case("conv2d_padding_same_even", ["conv2d.padding"], lambda g, d: (rn(g, 1, 2, 5, 6),),
      init=_init_conv2d_padding_same_even)
def _(self, x):
    """padding="same" with even kernels: (2, 4), and 2 with dilation (1, 3) (total padding odd, so
    torch pads one more at the end than at the start)."""
    return self.a(x), self.b(x)


@case("adaptive_avg_pool2d_core", ["_adaptive_avg_pool2d.default"], lambda g, d: (rn(g, 2, 3, 4, 4),),
      ir="ATEN")
def _(self, x):
    """Core ATen of F.adaptive_avg_pool2d of 4x4 to (2, 2)."""
    return F.adaptive_avg_pool2d(x, (2, 2))


@case("upsample_nearest2d", ["upsample_nearest2d.vec"], lambda g, d: (rn(g, 1, 2, 2, 3),))
def _(self, x):
    """F.interpolate(scale_factor=2, mode="nearest") of 2x3 to 4x6."""
    return F.interpolate(x, scale_factor=2, mode="nearest")


@case("upsample_nearest2d_size", ["upsample_nearest2d.vec"], lambda g, d: (rn(g, 1, 2, 2, 3),))
def _(self, x):
    """F.interpolate(size=(5, 7), mode="nearest") of 2x3 (non-integer scales: source index
    floor(dst * in / out))."""
    return F.interpolate(x, size=(5, 7), mode="nearest")


@case("upsample_bilinear2d", ["upsample_bilinear2d.vec"], lambda g, d: (rn(g, 1, 2, 3, 4),))
def _(self, x):
    """F.interpolate mode="bilinear": scale_factor=2 with align_corners False and True; size=(5, 7)
    (align_corners False)."""
    return (F.interpolate(x, scale_factor=2, mode="bilinear"),
            F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
            F.interpolate(x, size=(5, 7), mode="bilinear"))


@case("upsample_nearest2d_default", ["upsample_nearest2d.default"], lambda g, d: (rn(g, 1, 2, 2, 3),))
def _(self, x):
    """Explicit torch.ops.aten.upsample_nearest2d.default (F.interpolate exports as .vec): output_size
    (4, 6) and (5, 7), no scales."""
    return (torch.ops.aten.upsample_nearest2d.default(x, [4, 6]),
            torch.ops.aten.upsample_nearest2d.default(x, [5, 7]))


@case("upsample_bilinear2d_default", ["upsample_bilinear2d.default"], lambda g, d: (rn(g, 1, 2, 3, 4),))
def _(self, x):
    """Explicit torch.ops.aten.upsample_bilinear2d.default (F.interpolate exports as .vec): output_size
    (6, 8) with align_corners False and True; (5, 7) align_corners False; no scales."""
    return (torch.ops.aten.upsample_bilinear2d.default(x, [6, 8], False),
            torch.ops.aten.upsample_bilinear2d.default(x, [6, 8], True),
            torch.ops.aten.upsample_bilinear2d.default(x, [5, 7], False))


@case("pixel_shuffle", ["pixel_shuffle.default"], lambda g, d: (rn(g, 1, 8, 2, 3),))
def _(self, x):
    """F.pixel_shuffle upscale 2: [1, 8, 2, 3] -> [1, 2, 4, 6]."""
    return F.pixel_shuffle(x, 2)


def _init_group_norm(m):
    m.gn = nn.GroupNorm(2, 4)
    m.gn_plain = nn.GroupNorm(2, 4, affine=False)
    seeded_norm(m.gn)


@case("group_norm", ["group_norm.default"], lambda g, d: (rn(g, 2, 4, 3, 3), rn(g, 2, 4, 5)),
      init=_init_group_norm)
def _(self, x, y):
    """nn.GroupNorm(2, 4) with affine (random weight and bias) on [N, C, H, W] and on [N, C, L];
    GroupNorm(2, 4, affine=False)."""
    return self.gn(x), self.gn(y), self.gn_plain(x)


def _init_rms_norm_variants(m):
    m.w_eps = nn.RMSNorm(4, eps=1e-6)
    m.w = nn.RMSNorm(4)
    m.plain = nn.RMSNorm(4, elementwise_affine=False)
    m.plain_eps = nn.RMSNorm((3, 4), eps=1e-3, elementwise_affine=False)
    with torch.no_grad():
        m.w_eps.weight.copy_(torch.rand(4) + 0.5)
        m.w.weight.copy_(torch.rand(4) + 0.5)


@case("rms_norm", ["rms_norm.default"], lambda g, d: (rn(g, 2, 3, 4),), init=_init_rms_norm_variants)
def _(self, x):
    """nn.RMSNorm(4): with weight and eps 1e-6; with weight and eps None (torch uses
    finfo(float32).eps); without weight, eps None; without weight over the last two dims, eps 1e-3."""
    return self.w_eps(x), self.w(x), self.plain(x), self.plain_eps(x)


# ==========================================================================
# Attention
# ==========================================================================


def _bool_mask(g, l, s):
    m = rb(g, l, s)
    m[:, 0] = True  # no fully masked row (torch gives NaN there)
    return m


@case("sdpa_bool_mask", ["scaled_dot_product_attention.default"],
      lambda g, d: (rn(g, 1, 2, 3, 4), rn(g, 1, 2, 5, 4), rn(g, 1, 2, 5, 4), _bool_mask(g, 3, 5)))
def _(self, q, k, v, mask):
    """SDPA with a boolean [L, S] mask (True = attend), query length 3, key length 5."""
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


@case("sdpa_float_mask", ["scaled_dot_product_attention.default"],
      lambda g, d: (rn(g, 2, 2, 3, 4), rn(g, 2, 2, 5, 4), rn(g, 2, 2, 5, 4), rn(g, 2, 1, 3, 5)))
def _(self, q, k, v, mask):
    """SDPA with an additive float mask [B, 1, L, S] broadcast over heads."""
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


@case("sdpa_causal", ["scaled_dot_product_attention.default"],
      lambda g, d: (rn(g, 1, 2, 4, 4), rn(g, 1, 2, 4, 4), rn(g, 1, 2, 4, 4)))
def _(self, q, k, v):
    """SDPA with is_causal=True; and with is_causal and scale=0.3."""
    return (F.scaled_dot_product_attention(q, k, v, is_causal=True),
            F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3))


@case("sdpa_gqa", ["scaled_dot_product_attention.default"],
      lambda g, d: (rn(g, 1, 4, 3, 4), rn(g, 1, 2, 3, 4), rn(g, 1, 2, 3, 4)))
def _(self, q, k, v):
    """SDPA with enable_gqa=True: 4 query heads, 2 key/value heads; plain and causal."""
    return (F.scaled_dot_product_attention(q, k, v, enable_gqa=True),
            F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True))


@case("sdpa_core", ["mul.Scalar", "bmm.default", "_softmax.default", "logical_not.default",
                    "any.dim", "where.self", "full_like.default"],
      lambda g, d: (rn(g, 1, 2, 3, 4), rn(g, 1, 2, 3, 4), rn(g, 1, 2, 3, 4), _bool_mask(g, 3, 3)),
      ir="ATEN")
def _(self, q, k, v, mask):
    """Core ATen decomposition of SDPA with a boolean mask and with is_causal (scaling by mul.Scalar,
    bmm, _softmax, fully-masked-row handling with any/logical_not/where)."""
    return (F.scaled_dot_product_attention(q, k, v, attn_mask=mask),
            F.scaled_dot_product_attention(q, k, v, is_causal=True))


# ==========================================================================
# Shapes and views
# ==========================================================================


@case("view_dynamic", ["view.default", "sym_size.int"], lambda g, d: (rn(g, d["batch"], 3, 4),),
      dynamic={"x": {0: BATCH}})
def _(self, x):
    """view with a dynamic batch: (B, 12) from x.shape[0], (-1, 4), (B, 3, 2, 2)."""
    b = x.shape[0]
    return x.view(b, 12), x.view(-1, 4), x.view(b, 3, 2, 2)


@case("reshape_dynamic", ["reshape.default", "sym_size.int"], lambda g, d: (rn(g, d["batch"], 3, 4),),
      dynamic={"x": {0: BATCH}})
def _(self, x):
    """reshape with a dynamic batch: of a transposed (non-contiguous) tensor to (B, -1); to (-1,);
    to (B * 3, 4)."""
    return x.transpose(1, 2).reshape(x.shape[0], -1), x.reshape(-1), x.reshape(x.shape[0] * 3, 4)


@case("unsafe_view", ["_unsafe_view.default", "sym_size.int"],
      lambda g, d: (rn(g, d["batch"], 6), rn(g, d["batch"], 3, 4)), dynamic={"x": {0: BATCH}, "y": {0: BATCH}})
def _(self, x, y):
    """Explicit torch.ops.aten._unsafe_view (nothing in torch 2.13's export emits it; core ATen turns
    it into view), dynamic batch: [B,6] -> [B*2, 3]; (y * 2) [B,3,4] -> [-1, 4]."""
    return (torch.ops.aten._unsafe_view(x, [x.shape[0] * 2, 3]),
            torch.ops.aten._unsafe_view(y * 2.0, [-1, 4]))


@case("sym_size", ["sym_size.int"], lambda g, d: (rn(g, d["batch"], d["seq"], 4),),
      dynamic={"x": {0: BATCH, 1: SEQ}})
def _(self, x):
    """Two dynamic dims read with x.shape / x.size(): reshape to (B*S, 4), view to (B, S*4), and a
    division by the symbolic S."""
    b, s = x.shape[0], x.size(1)
    return x.reshape(b * s, 4), x.view(b, s * 4), x.sum(1) / s


@case("expand", ["expand.default"], lambda g, d: (rn(g, 3), rn(g, 1, 3), rn(g, 2, 1)))
def _(self, y, r, c):
    """expand [3] -> (2, -1); [1,3] -> (4, 2, 3) (new leading dim); [2,1] -> (-1, 3)."""
    return y.expand(2, -1), r.expand(4, 2, 3), c.expand(-1, 3)


@case("expand_dynamic", ["expand.default", "sym_size.int"],
      lambda g, d: (rn(g, d["batch"], 3), rn(g, 3)), dynamic={"x": {0: BATCH}})
def _(self, x, y):
    """expand to a dynamic batch: y.expand(x.shape[0], -1); x[:, :1].expand(-1, 4)."""
    return y.expand(x.shape[0], -1), x[:, :1].expand(-1, 4)


@case("expand_as", ["expand_as.default"], lambda g, d: (rn(g, 2, 3), rn(g, 3), rn(g, 2, 1)))
def _(self, x, y, c):
    """y[3].expand_as(x[2,3]); c[2,1].expand_as(x)."""
    return y.expand_as(x), c.expand_as(x)


@case("flatten", ["flatten.using_ints"], lambda g, d: (rn(g, d["batch"], 3, 2, 2),),
      dynamic={"x": {0: BATCH}})
def _(self, x):
    """flatten(start_dim=1), flatten(0, 1), flatten() and flatten(-2, -1) with a dynamic batch."""
    return x.flatten(1), x.flatten(0, 1), x.flatten(), x.flatten(-2, -1)


@case("squeeze", ["squeeze.dim", "squeeze.dims", "squeeze.default"], lambda g, d: (rn(g, 2, 1, 3, 1),))
def _(self, x):
    """squeeze(1), squeeze(-1), squeeze(0) (size 2: no-op), squeeze((1, 3)), squeeze()."""
    return x.squeeze(1), x.squeeze(-1), x.squeeze(0), x.squeeze((1, 3)), x.squeeze()


@case("unsqueeze", ["unsqueeze.default"], lambda g, d: (rn(g, 2, 3),))
def _(self, x):
    """unsqueeze(0), unsqueeze(-1), unsqueeze(1)."""
    return x.unsqueeze(0), x.unsqueeze(-1), x.unsqueeze(1)


@case("transpose", ["transpose.int"], lambda g, d: (rn(g, 2, 3, 4),))
def _(self, x):
    """transpose(0, 2), transpose(-1, -2)."""
    return x.transpose(0, 2), x.transpose(-1, -2)


@case("t", ["t.default"], lambda g, d: (rn(g, 2, 3), rn(g, 3)))
def _(self, x, v):
    """t() of a 2-D and of a 1-D tensor."""
    return x.t(), v.t()


@case("permute", ["permute.default"], lambda g, d: (rn(g, 2, 3, 4),))
def _(self, x):
    """permute(2, 0, 1), permute(-1, 0, -2)."""
    return x.permute(2, 0, 1), x.permute(-1, 0, -2)


@case("select", ["select.int"], lambda g, d: (rn(g, 3, 4, 2),))
def _(self, x):
    """x[:, -1], x.select(0, 1), x[..., 0], x[1, 2] (a select of a select), x.select(-1, -1)."""
    return x[:, -1], x.select(0, 1), x[..., 0], x[1, 2], x.select(-1, -1)


@case("slice", ["slice.Tensor"], lambda g, d: (rn(g, 3, 8),))
def _(self, x):
    """x[:, 1:4], x[:, -3:], x[:, ::2], x[:, -5::2] (negative start, step 2), x[1:], x[:, :-1],
    x[:, 2:100] (end past the size)."""
    return x[:, 1:4], x[:, -3:], x[:, ::2], x[:, -5::2], x[1:], x[:, :-1], x[:, 2:100]


@case("slice_dynamic", ["slice.Tensor", "sym_size.int"], lambda g, d: (rn(g, d["batch"], 4),),
      dynamic={"x": {0: ("batch", 4, 7)}}, dim_min={"batch": 3})
def _(self, x):
    """Slices of a dynamic dim: x[1:], x[:-1], x[::2], x[-2:], x[:x.shape[0] - 1, 1:]."""
    return x[1:], x[:-1], x[::2], x[-2:], x[: x.shape[0] - 1, 1:]


@case("cat", ["cat.default"],
      lambda g, d: (rn(g, 2, 3), rn(g, 2, 2), rn(g, 1, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, y, z, a):
    """cat on dim -1; three inputs on dim 0; int64; float with int64 (promotes to float)."""
    return torch.cat([x, y], dim=-1), torch.cat([x, z, x], 0), torch.cat([a, a], 1), torch.cat([x, a], 0)


@case("split", ["split.Tensor"], lambda g, d: (rn(g, 2, 5),))
def _(self, x):
    """x.split(2, dim=1) -> sizes 2, 2, 1; x.split(1, dim=0); every piece is an output."""
    p0, p1, p2 = x.split(2, dim=1)
    q0, q1 = x.split(1, dim=0)
    return p0, p1, p2, q0, q1


@case("split_with_sizes", ["split_with_sizes.default"], lambda g, d: (rn(g, 2, 5),))
def _(self, x):
    """x.split([1, 3, 1], dim=1); x.split([1, 1], dim=-2); every piece is an output."""
    a, b, c = x.split([1, 3, 1], dim=1)
    e, f = x.split([1, 1], dim=-2)
    return a, b, c, e, f


@case("chunk", ["chunk.default"], lambda g, d: (rn(g, 2, 6), rn(g, 2, 5)))
def _(self, x, y):
    """chunk(3, dim=1) of 6; chunk(3, dim=-1) of 5 (2, 2, 1); chunk(2, dim=0); every piece used."""
    a, b, c = x.chunk(3, dim=1)
    e, f, h = y.chunk(3, dim=-1)
    i, j = x.chunk(2, 0)
    return a, b, c, e, f, h, i, j


@case("unbind", ["unbind.int"], lambda g, d: (rn(g, 2, 3),))
def _(self, x):
    """unbind(0) and unbind(-1); every piece used."""
    r0, r1 = x.unbind(0)
    c0, c1, c2 = x.unbind(-1)
    return r0, r1, c0, c1, c2


@case("repeat", ["repeat.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2)))
def _(self, x, a):
    """repeat(2, 1, 2) (more repeats than dims), repeat(1, 3), int64 repeat(2, 2)."""
    return x.repeat(2, 1, 2), x.repeat(1, 3), a.repeat(2, 2)


@case("triu_tril", ["triu.default", "tril.default"],
      lambda g, d: (rn(g, 4, 4), rn(g, 2, 3, 5), ri(g, -5, 6, 3, 3)))
def _(self, x, y, a):
    """triu/tril with diagonal 0, 1, -1 on a square matrix; batched 3x5; int64."""
    return (x.triu(), x.triu(1), x.triu(-1), x.tril(), x.tril(1), x.tril(-1),
            y.triu(1), y.tril(-1), a.triu(), a.tril())


@case("diff", ["diff.default"], lambda g, d: (rn(g, 2, 5), rn(g, 1, 5), rn(g, 2, 2), rb(g, 2, 5)))
def _(self, x, p, q, m):
    """diff (n=1, dim=-1); dim 0 with prepend; with append; n=2; bool (xor)."""
    return torch.diff(x), torch.diff(x, dim=0, prepend=p), torch.diff(x, append=q), torch.diff(x, n=2), \
        torch.diff(m)


@case("gather", ["gather.default"],
      lambda g, d: (rn(g, 3, 4), ri(g, 0, 4, 3, 2), ri(g, 0, 3, 2, 4)))
def _(self, x, i1, i0):
    """torch.gather over dim 1 (index [3,2]), dim 0 (index [2,4]) and dim -1."""
    return torch.gather(x, 1, i1), torch.gather(x, 0, i0), torch.gather(x, -1, i1)


@case("index_select", ["index_select.default"],
      lambda g, d: (rn(g, 3, 4), torch.tensor([2, 0, 2]), torch.tensor([1, 3])))
def _(self, x, i, j):
    """index_select on dim 0 with a repeated index, on dim 1, on dim -1."""
    return x.index_select(0, i), x.index_select(1, j), x.index_select(-1, i)


def _init_embedding(m):
    m.emb = nn.Embedding(6, 3, padding_idx=0)
    m.register_buffer("table", torch.randn(5, 2))


@case("embedding", ["embedding.default"],
      lambda g, d: (torch.tensor([[1, 0, 5], [2, 2, 4]]), torch.tensor([4, 0, 3])), init=_init_embedding)
def _(self, ids, flat):
    """nn.Embedding(6, 3, padding_idx=0) on [2,3] ids; F.embedding on 1-D ids."""
    return self.emb(ids), F.embedding(flat, self.table)


@case("index_tensor", ["index.Tensor"],
      lambda g, d: (rn(g, 3, 4, 5), torch.tensor([0, 2]), torch.tensor([1, -1]),
                    torch.tensor([[2, 0], [1, 1]]), torch.tensor([0, -1, 3])))
def _(self, x, i, j, k, n):
    """Advanced indexing: x[:, n] (one index after a leading `:`, negative value); x[i, j] (two index
    tensors on the leading dims); x[k] (2-D index); x[i[:, None], j] (broadcast index tensors)."""
    return x[:, n], x[i, j], x[k], x[i[:, None], j]


@case("index_put", ["index_put.default"],
      lambda g, d: (rn(g, 4, 3), torch.tensor([3, 0]), rn(g, 2, 3), torch.tensor([0, 2, 0]),
                    rn(g, 3, 3), rn(g, 3)))
def _(self, x, i, v, j, w, r):
    """index_put_ on clones of x: z[i] = v; accumulate=True with a duplicate index; accumulate=False
    with a broadcast [3] value; u[i] = 0.5 (a Python scalar)."""
    z = x.clone()
    z[i] = v
    y = x.clone()
    y.index_put_((j,), w, accumulate=True)
    s = x.clone()
    s.index_put_((i,), r, accumulate=False)
    u = x.clone()
    u[i] = 0.5
    return z, y, s, u


@case("index_put_dim1", ["index_put.default"],
      lambda g, d: (rn(g, 2, 5), torch.tensor([4, 1]), rn(g, 2, 2)))
def _(self, x, i, v):
    """Index assignment on dim 1: z[:, i] = v; y[:, i] += v (index, add, index_put_)."""
    z = x.clone()
    z[:, i] = v
    y = x.clone()
    y[:, i] += v
    return z, y


@case("stack", ["stack.default"],
      lambda g, d: (rn(g, 2, 3), rn(g, 2, 3), ri(g, -5, 6, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, y, a, b):
    """torch.stack on dim 0, three inputs on dim -1; int64 on dim 1."""
    return torch.stack([x, y]), torch.stack([x, y, x], -1), torch.stack([a, b], 1)


@case("view_as", ["view_as.default"], lambda g, d: (rn(g, 2, 6), rn(g, 3, 4), ri(g, -5, 6, 2, 6)))
def _(self, x, y, a):
    """x[2,6].view_as(y[3,4]); int64 a.view_as(y) (only y's shape counts)."""
    return x.view_as(y), a.view_as(y)


@case("numpy_t", ["numpy_T.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 3, 4)))
def _(self, x, a):
    """x.T of a 2-D float tensor and of a 2-D int64 tensor."""
    return x.T, a.T


@case("flip", ["flip.default"], lambda g, d: (rn(g, 2, 3, 4), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """flip dims [0] and [-1, 0]; int64 flip [1]."""
    return x.flip(0), x.flip([-1, 0]), a.flip(1)


@case("roll", ["roll.default"], lambda g, d: (rn(g, 3, 5), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """roll shifts 1 on dim 1; shifts (1, -2) on dims (0, 1); shift -6 on a dim of 5 (|shift| > size);
    int64 shift 2 on dim -1."""
    return x.roll(1, 1), x.roll((1, -2), (0, 1)), x.roll(-6, 1), a.roll(2, -1)


@case("narrow", ["narrow.default"], lambda g, d: (rn(g, 3, 5), ri(g, -5, 6, 2, 4)))
def _(self, x, a):
    """narrow(1, 1, 2), narrow(0, 2, 1), narrow(-1, -3, 2) (negative start); int64 narrow(1, 0, 3)."""
    return x.narrow(1, 1, 2), x.narrow(0, 2, 1), x.narrow(-1, -3, 2), a.narrow(1, 0, 3)


@case("unflatten", ["unflatten.int"], lambda g, d: (rn(g, 2, 6),))
def _(self, x):
    """unflatten(1, (2, 3)), unflatten(-1, (-1, 2)), unflatten(0, (1, 2))."""
    return x.unflatten(1, (2, 3)), x.unflatten(-1, (-1, 2)), x.unflatten(0, (1, 2))


def _pad_cases(x, a):
    return (F.pad(x, (1, 2, 0, 1), value=0.5), F.pad(x, (2, 1)), F.pad(x, (-1, 2, 1, -1), value=-1.0),
            F.pad(x, (0, 0, 0, 0, 1, 1), value=2.0), F.pad(a, (1, 1), value=7))


@case("pad", ["pad.default"], lambda g, d: (rn(g, 2, 3, 4), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """F.pad mode constant (TRAINING IR keeps aten.pad): last two dims (1, 2, 0, 1) value 0.5; last dim
    (2, 1) value 0; negative pads (-1, 2, 1, -1) value -1; on dim 0 only, value 2; int64 value 7."""
    return _pad_cases(x, a)


@case("constant_pad_nd_core", ["constant_pad_nd.default"], lambda g, d: (rn(g, 2, 3, 4), ri(g, -5, 6, 2, 3)),
      ir="ATEN")
def _(self, x, a):
    """Core ATen of the pad case's F.pad calls (constant_pad_nd, negative pads kept)."""
    return _pad_cases(x, a)


# ==========================================================================
# Writes: fill_, copy_, slice / select assignment
# ==========================================================================


@case("fill_scalar", ["fill.Scalar"], lambda g, d: (rn(g, 2, 4), ri(g, -5, 6, 2, 4)))
def _(self, x, a):
    """fill_ with a Python scalar on a clone; z[..., 0] = 0 (select + fill_); z[:, 1:3] = 2.5 (slice +
    fill_); int64 fill_."""
    f = x.clone()
    f.fill_(1.5)
    z = x.clone()
    z[..., 0] = 0
    z[:, 1:3] = 2.5
    b = a.clone()
    b.fill_(3)
    return f + x, z, b


@case("fill_tensor", ["fill.Tensor"], lambda g, d: (rn(g, 2, 4), rn(g)))
def _(self, x, v):
    """fill_ with a 0-d tensor: an input; x[1, 2] written into row 0 of a clone."""
    f = x.clone()
    f.fill_(v)
    z = x.clone()
    z[0].fill_(x[1, 2])
    return f, z


@case("copy", ["copy.default"], lambda g, d: (rn(g, 2, 3), rn(g, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, y, a):
    """copy_ into a clone: broadcast [3] source; int64 source into float (a cast)."""
    z = x.clone()
    z.copy_(y)
    w = x.clone()
    w.copy_(a)
    return z, w


@case("slice_scatter", ["slice_scatter.default"],
      lambda g, d: (rn(g, 4, 6), rn(g, 4, 2), rn(g, 2, 2)))
def _(self, x, y, w):
    """Slice assignment on a clone: z[:, 1:3] = y; z[::2, -2:] = w (step 2 then negative start:
    nested slices); and torch.slice_scatter called directly."""
    z = x.clone()
    z[:, 1:3] = y
    z[::2, -2:] = w
    return z, torch.slice_scatter(x, y, dim=1, start=3, end=5)


@case("select_scatter", ["select_scatter.default"],
      lambda g, d: (rn(g, 4, 6), rn(g, 4), rn(g, 6)))
def _(self, x, v, r):
    """Select assignment on a clone: z[..., 0] = v; z[1] = r; z[-1, 2] = 7.0 (select of select,
    fill_); and torch.select_scatter called directly with index -1."""
    z = x.clone()
    z[..., 0] = v
    z[1] = r
    z[-1, 2] = 7.0
    return z, torch.select_scatter(x, v, 1, -1)


@case("clone", ["clone.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """clone of float and int64; clone(memory_format=contiguous_format) of a transpose."""
    return x.clone(), a.clone(), x.t().clone(memory_format=torch.contiguous_format)


@case("contiguous", ["contiguous.default"], lambda g, d: (rn(g, 2, 3),))
def _(self, x):
    """contiguous() of a transpose and of an already contiguous result."""
    return x.t().contiguous(), (x * 2.0).contiguous()


@case("detach", ["detach.default"], lambda g, d: (rn(g, 2, 3),))
def _(self, x):
    """detach(), used and as an output."""
    return x.detach() * 2.0, (x + 1.0).detach()


@case("detach_core", ["alias.default"], lambda g, d: (rn(g, 2, 3),), ir="ATEN")
def _(self, x):
    """Core ATen turns detach() into alias."""
    return x.detach() * 2.0, (x + 1.0).detach()


def _init_dropout(m):
    m.drop = nn.Dropout(0.5)


@case("dropout", ["dropout.default"], lambda g, d: (rn(g, 2, 3),), init=_init_dropout)
def _(self, x):
    """F.dropout(x, 0.3, training=False) and nn.Dropout(0.5) in eval mode (both aten.dropout with
    train=False)."""
    return F.dropout(x, 0.3, training=False), self.drop(x * 2.0)


@case("lift_fresh_copy", ["lift_fresh_copy.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """torch.tensor constants in forward (lift_fresh_copy + detach_): float row, int64 column."""
    return x + torch.tensor([1.0, -2.0, 0.5]), a * torch.tensor([[2], [-3]])


@case("scalar_tensor", ["scalar_tensor.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """torch.scalar_tensor float and int64 used with tensors."""
    return torch.scalar_tensor(2.5) * x, torch.scalar_tensor(3, dtype=torch.int64) + a


# ==========================================================================
# Factories
# ==========================================================================


@case("full_zeros_ones", ["full.default", "zeros.default", "ones.default", "sym_size.int"],
      lambda g, d: (rn(g, d["batch"], 3),), dynamic={"x": {0: BATCH}})
def _(self, x):
    """torch.full / zeros / ones with a dynamic size from x.shape[0] and static sizes; dtypes float,
    int64, bool."""
    b = x.shape[0]
    return (torch.full((b, 3), 1.5) + x, torch.zeros(b, 3, dtype=torch.int64),
            torch.ones(2, b, dtype=torch.bool), torch.full((2,), 7, dtype=torch.int64),
            torch.ones(3) + x, torch.zeros(2, 3) - x[:1])


@case("like_factories", ["full_like.default", "zeros_like.default", "ones_like.default"],
      lambda g, d: (rn(g, d["batch"], 3), ri(g, -5, 6, d["batch"], 3)), dynamic={"x": {0: BATCH}, "a": {0: BATCH}})
def _(self, x, a):
    """full_like / zeros_like / ones_like of a dynamic-batch input, with and without dtype."""
    return (torch.full_like(x, 2.0), torch.zeros_like(a), torch.ones_like(x, dtype=torch.int64),
            torch.full_like(a, 7), torch.zeros_like(x, dtype=torch.bool), torch.ones_like(x) + x)


@case("new_factories", ["new_zeros.default", "new_ones.default", "new_full.default", "sym_size.int"],
      lambda g, d: (rn(g, d["batch"], 3), ri(g, -5, 6, 2)), dynamic={"x": {0: BATCH}})
def _(self, x, a):
    """x.new_zeros / new_ones / new_full with static and dynamic sizes, dtype from self or given."""
    b = x.shape[0]
    return (x.new_zeros(2, 3), x.new_ones(b, dtype=torch.int64), x.new_full((b, 2), 4.0),
            a.new_zeros(3), a.new_full((2,), 5), x.new_ones(b, 3) + x)


@case("arange", ["arange.default", "arange.start", "arange.start_step", "sym_size.int"],
      lambda g, d: (rn(g, d["batch"], 3),), dynamic={"x": {0: BATCH}})
def _(self, x):
    """arange(5), arange(1, 5), arange(0, 10, 3), arange(x.shape[0]) (dynamic end), arange(1, B + 2, 2),
    float arange(0.5, 2.0, 0.25), arange(4.0), arange(B, dtype=float32) used with x."""
    b = x.shape[0]
    return (torch.arange(5), torch.arange(1, 5), torch.arange(0, 10, 3), torch.arange(b),
            torch.arange(1, b + 2, 2), torch.arange(0.5, 2.0, 0.25), torch.arange(4.0),
            x + torch.arange(b, dtype=torch.float32)[:, None])


# ==========================================================================
# dtype conversions
# ==========================================================================


@case("to_dtype", ["to.dtype", "_assert_tensor_metadata.default"],
      lambda g, d: (ur(g, -3, 3, 2, 3) * torch.tensor([1.0, 1.0, 0.0]), ri(g, -5, 6, 2, 3), rb(g, 2, 3)))
def _(self, x, a, m):
    """.to(dtype): float -> int64 (truncation, negatives), int64 -> float, bool -> float, float -> bool
    (zeros present), .float() on float (no-op), float -> int32 -> int64, float -> float64 -> float."""
    return (x.to(torch.int64), a.to(torch.float32), m.to(torch.float32), x.to(torch.bool),
            x.float() + 1.0, x.to(torch.int32).to(torch.int64), x.double().float())


@case("to_device", ["to.device"], lambda g, d: (ur(g, -3, 3, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """.to(device, dtype): x.to(torch.device('cpu'), torch.int64); a.to('cpu', torch.float32);
    x.to(device='cpu', dtype=torch.float32) (no dtype change)."""
    return (x.to(torch.device("cpu"), torch.int64), a.to("cpu", torch.float32),
            x.to(device="cpu", dtype=torch.float32) * 2.0)


@case("to_dtype_layout", ["to.dtype_layout"], lambda g, d: (ur(g, -3, 3, 2, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, a):
    """.to('cpu') and .to(device='cpu') (no-ops: the natural form), and an explicit
    torch.ops.aten.to.dtype_layout(x, dtype=torch.int64) that casts."""
    return x.to("cpu") * 2.0, a.to(device="cpu") + 1, torch.ops.aten.to.dtype_layout(x, dtype=torch.int64)


@case("type_as", ["type_as.default"], lambda g, d: (ur(g, -3, 3, 2, 3), ri(g, -5, 6, 2, 3), rb(g, 2, 3)))
def _(self, x, a, m):
    """type_as: float as int64, int64 as float, bool as float."""
    return x.type_as(a), a.type_as(x), m.type_as(x)


@case("to_copy_core", ["_to_copy.default", "_assert_tensor_metadata.default"],
      lambda g, d: (ur(g, -3, 3, 2, 3) * torch.tensor([1.0, 1.0, 0.0]), ri(g, -5, 6, 2, 3), rb(g, 2, 3)),
      ir="ATEN")
def _(self, x, a, m):
    """Core ATen of .to(dtype) and type_as: float -> int64, int64 -> float, bool -> float, float -> bool."""
    return x.to(torch.int64), a.float(), m.type_as(x), x.to(torch.bool)


# --------------------------------------------------------------------------
# Graph inspection
# --------------------------------------------------------------------------


def rule_targets() -> list[str]:
    # `aten.add.Tensor`, and ops of other namespaces as the importer names them:
    # `aten.quantized_decomposed::quantize_per_tensor.default`.
    pat = re.compile(r'"(aten\.(?:[A-Za-z0-9_]+::)?[A-Za-z0-9_]+\.[A-Za-z0-9_]+)"')
    found = set()
    for path in sorted(RULES_DIR.glob("*/*.rs")):
        found.update(pat.findall(path.read_text()))
    return sorted(found)


# Ops outside `aten` that the importer reads as an ATen op (src/import/mod.rs `ATEN_STAND_INS`).
ATEN_STAND_INS = {"transformers.grouped_mm_fallback.default": "aten._grouped_mm.default"}
# Non-ATen ops the importer rewrites into ATen programs (src/import/composite.rs COMPOSITE_OPS).
COMPOSITE_OPS = {
    "torch_nn._linear_cross_entropy_batch_chunked.default":
        ["aten.linear.default", "aten.cross_entropy_loss.default", "aten.zeros.default"],
    "torch_nn._linear_cross_entropy_batch_chunked_no_reduction.default":
        ["aten.linear.default", "aten.cross_entropy_loss.default"],
}


def namespaced_target(op: torch._ops.OpOverload) -> str:
    """The compiler's name of an op outside `aten`: `quantized_decomposed.quantize_per_tensor.default`
    (str(op)) is `aten.quantized_decomposed::quantize_per_tensor.default` (the aten registry
    holds it as the op `quantized_decomposed::quantize_per_tensor`)."""
    ns = op.namespace
    name = str(op)
    assert ns != "aten" and name.startswith(ns + "."), name
    return f"aten.{ns}::{name[len(ns) + 1:]}"


# In-place overloads aten-remove-inplace rebinds as their out-of-place view
# (passes/src/aten_remove_inplace.rs VIEW_FORMS), with the inverse a later
# write through the new view goes back into the storage with.
INPLACE_VIEW_FORMS = {
    "aten.unsqueeze_.default": ("aten.unsqueeze.default", "aten.squeeze.dim"),
    "aten.squeeze_.default": ("aten.squeeze.default", "aten.view.default"),
    "aten.squeeze_.dim": ("aten.squeeze.dim", "aten.unsqueeze.default"),
    "aten.squeeze_.dims": ("aten.squeeze.dims", "aten.view.default"),
    "aten.t_.default": ("aten.t.default", "aten.t.default"),
    "aten.transpose_.default": ("aten.transpose.int", "aten.transpose.int"),
    "aten.swapaxes_.default": ("aten.transpose.int", "aten.transpose.int"),
    "aten.swapdims_.default": ("aten.transpose.int", "aten.transpose.int"),
    "aten.as_strided_.default": ("aten.as_strided.default", "aten.as_strided_scatter.default"),
}
# In-place overloads that change no value (dropped).
INPLACE_IDENTITY = {"aten.detach_.default", "aten.requires_grad_.default"}
# Functional ops with a bool result whatever their operands: written in place
# into a tensor of another dtype, converted to it (aten_remove_inplace.rs has_bool_result).
BOOL_RESULT_OPS = {"eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal",
                   "not_equal", "logical_and", "logical_or", "logical_xor", "logical_not"}


# Type-promoting ops without the pointwise tag (aten_remove_inplace.rs promotes).
PROMOTING_OPS = {"floor_divide", "__and__", "__or__", "__xor__", "_add_relu"}


def inplace_functional(t):
    """The functional overload aten-remove-inplace makes of the in-place
    overload `t` (aten_remove_inplace.rs inplace_form): of the base name
    (`add_` -> `add`, `__iand__` -> `__and__`), functional, one result per
    written argument, taking the same arguments (by name and type, or by
    position and type); the one of the same overload name first
    (`pow_.Scalar` -> `pow.Tensor_Scalar`, `floor_divide_.Tensor` ->
    `floor_divide.default`); else `<base>_functional` (`normal_`)."""
    ns, op, overload = str(t).split(".")
    base = "__" + op[3:] if op.startswith("__i") else op[:-1]
    args = [(a.name, str(a.type)) for a in t._schema.arguments]
    n_written = sum(1 for a in t._schema.arguments if a.alias_info is not None and a.alias_info.is_write)

    def fits(c):
        sch = c._schema
        if any(a.alias_info is not None and a.alias_info.is_write for a in sch.arguments):
            return False
        if len(sch.returns) != n_written or any(str(r.type) != "Tensor" for r in sch.returns):
            return False
        cargs = [(a.name, str(a.type)) for a in sch.arguments]
        if len(cargs) != len(args):
            return False
        return set(cargs) >= set(args) or [ty for _, ty in cargs] == [ty for _, ty in args]

    packet = getattr(torch.ops.aten, base, None)
    if packet is not None:
        names = list(packet.overloads())
        if overload in names and fits(getattr(packet, overload)):
            return getattr(packet, overload)
        found = [getattr(packet, o) for o in names if fits(getattr(packet, o))]
        if len(found) == 1:
            return found[0]
    # No plain functional overload (`normal_`): aten-remove-inplace uses `normal_functional`.
    return getattr(getattr(torch.ops.aten, base + "_functional"), overload)


def compiler_targets(ep: torch.export.ExportedProgram) -> tuple[list[str], list[str]]:
    """(aten targets the compiler sees after its inplace removal, other call targets)."""
    aten: set[str] = set()
    other: set[str] = set()
    # Subgraphs of higher-order ops (torch.cond, while_loop, scan, map) too.
    graphs = [(ep.graph_module, ep.graph)]
    nodes = []
    while graphs:
        gm, graph = graphs.pop()
        for node in graph.nodes:
            nodes.append(node)
            if node.op == "get_attr":
                sub = getattr(gm, node.target, None)
                if isinstance(sub, torch.fx.GraphModule):
                    graphs.append((sub, sub.graph))
    for node in nodes:
        if node.op != "call_function":
            continue
        t = node.target
        if isinstance(t, torch._ops.HigherOrderOperator) and t.name() == "with_effects":
            # with_effects(token, op, *args): the importer unwraps it to `op`.
            t = node.args[1]
        elif isinstance(t, torch._ops.HigherOrderOperator):
            other.add(f"higher_order.{t.name()}")
            continue
        if not isinstance(t, torch._ops.OpOverload):
            if t is not operator.getitem:
                other.add(f"{getattr(t, '__module__', '?')}.{getattr(t, '__name__', str(t))}")
            continue
        name = str(t)
        if name in COMPOSITE_OPS:
            aten.update(COMPOSITE_OPS[name])
            continue
        if name in ATEN_STAND_INS:
            # A non-ATen op the importer reads as an ATen op (src/import/mod.rs ATEN_STAND_INS).
            aten.add(ATEN_STAND_INS[name])
            continue
        if t.namespace != "aten":
            # quantized_decomposed::*, torchao::*: no inplace forms.
            aten.add(namespaced_target(t))
            continue
        written = [i for i, a in enumerate(t._schema.arguments)
                   if a.alias_info is not None and a.alias_info.is_write]
        if not written:
            aten.add(name)
            continue
        ns, op, overload = name.split(".")
        if all(t._schema.arguments[i].kwarg_only for i in written):
            # out= variant: the functional overload with the other arguments.
            want = [(a.name, str(a.type)) for a in t._schema.arguments if not (a.kwarg_only and a.alias_info)]
            packet = getattr(torch.ops.aten, op)
            found = [o for o in packet.overloads()
                     if [(a.name, str(a.type)) for a in getattr(packet, o)._schema.arguments] == want]
            assert found, f"{name}: no functional overload"
            aten.add(str(getattr(packet, found[0])))
            continue
        if name in INPLACE_IDENTITY:
            continue
        if name in INPLACE_VIEW_FORMS:
            # Metadata changes: the tensor is rebound to the out-of-place view.
            aten.add(INPLACE_VIEW_FORMS[name][0])
            continue
        if not op.endswith("_") and not op.startswith("__i"):
            # Writes besides its own results (`_native_batch_norm_legit` updates its running stats):
            # aten-remove-inplace makes it `<op>_functional`.
            aten.add(str(getattr(getattr(torch.ops.aten, op + "_functional"), overload)))
            continue
        functional = inplace_functional(t)
        aten.add(str(functional))
        written_val = node.args[written[0]].meta.get("val") if isinstance(node.args[written[0]], torch.fx.Node) else None
        fname = functional.name().split("::")[-1].split(".")[0]
        if fname in BOOL_RESULT_OPS and getattr(written_val, "dtype", torch.bool) != torch.bool:
            # A comparison written into a non-bool tensor: converted to its dtype (1 / 0).
            aten.add("aten._to_copy.default")
        elif (torch.Tag.pointwise in functional.tags or fname in PROMOTING_OPS) and written_val is not None:
            # Computed in the promoted dtype of its tensor operands, converted to the written tensor's.
            vals = [a.meta.get("val") for a in list(node.args) + list(node.kwargs.values())
                    if isinstance(a, torch.fx.Node)]
            vals = [v for v in vals if isinstance(v, torch.Tensor)]
            if vals:
                from torch._prims_common import ELEMENTWISE_TYPE_PROMOTION_KIND, elementwise_dtypes
                _, promoted = elementwise_dtypes(*vals, type_promotion_kind=ELEMENTWISE_TYPE_PROMOTION_KIND.DEFAULT)
                if promoted != written_val.dtype:
                    aten.add("aten._to_copy.default")
        # A write through views goes back into the base with their inverses.
        arg = node.args[written[0]]
        while isinstance(arg, torch.fx.Node) and arg.op == "call_function":
            target = str(arg.target)
            if target in VIEW_INVERSE:
                inverse = VIEW_INVERSE[target]
            elif target in INPLACE_VIEW_FORMS:
                inverse = INPLACE_VIEW_FORMS[target][1]
            else:
                break
            if inverse:
                aten.add(inverse)
            arg = arg.args[0]
    return sorted(aten), sorted(other)


def build(c: Case) -> nn.Module:
    cc.seed_all(c.seed)
    init = c.init

    def __init__(self):
        nn.Module.__init__(self)
        if init is not None:
            init(self)

    cls_name = "Op_" + c.name
    cls = type(cls_name, (nn.Module,), {
        "__init__": __init__, "forward": c.forward, "__module__": "capture_op_tests",
        "__qualname__": cls_name, "__doc__": c.description})
    return cls().eval()


# --------------------------------------------------------------------------
# Capture
# --------------------------------------------------------------------------


def capture(c: Case, out_root: Path, rules: set[str], allow_missing_rules: bool = False) -> dict:
    model = build(c)
    params = list(inspect.signature(model.forward).parameters)
    assert set(c.dynamic) <= set(params), (c.name, c.dynamic, params)
    nsets = 2 if c.dynamic else 1
    set_dims: list[dict[str, int]] = [{}, {}]
    for axes in c.dynamic.values():
        for dname, v0, v1 in axes.values():
            set_dims[0][dname] = v0
            set_dims[1][dname] = v1
    sets = []
    for k in range(nsets):
        g = torch.Generator().manual_seed(c.seed * 7919 + 1 + k)
        sets.append(tuple(c.make_inputs(g, set_dims[k])))
    for k, s in enumerate(sets):
        assert len(s) == len(params), (c.name, len(s), params)
        for nm, t in zip(params, s):
            assert isinstance(t, torch.Tensor) and t.dtype in ALLOWED_DTYPES, (c.name, nm, t)

    dim_objs: dict[str, Dim] = {}
    dynamic_shapes = []
    for nm in params:
        entry = {}
        for axis, (dname, _, _) in c.dynamic.get(nm, {}).items():
            # "half*2": a size that is a multiple of 2 (a derived Dim, for ops that halve a dim).
            base, _, mult = dname.partition("*")
            if base.startswith("auto:"):
                # Dim.AUTO: torch.export derives the constraints (ceil_mode
                # pooling guards on divisibility that a named Dim cannot prove).
                entry[axis] = Dim.AUTO
                continue
            if base not in dim_objs:
                kw = {"min": c.dim_min[base]} if base in c.dim_min else {}
                dim_objs[base] = Dim(base, **kw)
            entry[axis] = dim_objs[base] * int(mult) if mult else dim_objs[base]
        dynamic_shapes.append(entry or None)

    cc.seed_all(c.seed)
    ep = torch.export.export(copy.deepcopy(model), sets[0],
                             dynamic_shapes=tuple(dynamic_shapes) if c.dynamic else None, strict=False)
    if c.ir == "ATEN":
        ep = ep.run_decompositions()
    else:
        assert c.ir == "TRAINING", c.ir

    sig = ep.graph_signature
    input_names = list(sig.user_inputs)
    assert input_names == params, f"{c.name}: user inputs {input_names} != forward() {params}"
    assert not sig.user_inputs_to_mutate, f"{c.name}: mutates user inputs"
    assert not sig.buffers_to_mutate and not cc.scan_mutated_buffers(ep), f"{c.name}: mutates buffers"
    output_names = [str(n) for n in sig.user_outputs]
    assert len(set(output_names) | set(input_names)) == len(output_names) + len(input_names), \
        f"{c.name}: clashing names {input_names} {output_names}"

    # The targets: claimed ones are rules and in the graph; the graph has nothing without a rule.
    graph_targets, other_ops = compiler_targets(ep)
    known = rules | PENDING_RULES
    unknown = [t for t in c.targets if t not in known]
    missing = [t for t in c.targets if t not in graph_targets]
    assert not missing, f"{c.name}: claimed targets not in the graph: {missing}; graph: {graph_targets}"
    no_rule = [t for t in graph_targets if t not in known]
    if allow_missing_rules:
        if no_rule:
            print(f"note: {c.name}: no rule yet for {' '.join(no_rule)} (--allow-missing-rules)",
                  file=sys.stderr, flush=True)
    else:
        assert not unknown, f"{c.name}: claimed targets without a rule (nor a PENDING_RULES entry): {unknown}"
        assert not no_rule, f"{c.name}: graph ops without a rule (nor a PENDING_RULES entry): {no_rule}"
    # Symbolic-scalar callables (dialects/src/sym.rs): operator, math and torch.sym_* functions.
    bad_other = [o for o in other_ops
                 if not o.startswith(("_operator.", "higher_order.", "math.", "torch.sym_", "torch._sym_"))]
    assert not bad_other, f"{c.name}: unexpected call targets {bad_other}"

    d = out_root / c.name
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    cc.strip_nondeterministic_meta(ep)
    pt2 = d / "model.pt2"
    torch.export.save(ep, str(pt2))

    worst = 0.0
    loaded = torch.export.load(str(pt2))
    assert [str(n) for n in loaded.graph_signature.user_outputs] == output_names
    assert list(loaded.graph_signature.user_inputs) == input_names
    lm = loaded.module()
    for k, inputs in enumerate(sets):
        outs, _ = cc.run_eager(model, inputs, [])
        assert len(outs) == len(output_names), (c.name, len(outs), output_names)
        sd = d / f"set_{k}"
        sd.mkdir()
        for i, (nm, t) in enumerate(zip(input_names, inputs)):
            cc.write_tensor(sd / f"input_{i}.pb", t, nm)
        for j, (nm, t) in enumerate(zip(output_names, outs)):
            assert t.dtype in ALLOWED_DTYPES, f"{c.name}: output {nm} is {t.dtype}"
            assert not t.is_floating_point() or bool(torch.isfinite(t).all()), f"{c.name}: {nm} not finite"
            cc.write_tensor(sd / f"output_{j}.pb", t, nm)
        with torch.no_grad():
            got = cc.flat_tensors(lm(*[t.clone() for t in inputs]))
        assert len(got) == len(outs)
        for nm, want, have in zip(output_names, outs, got):
            diff = cc.max_diff(want, have)
            worst = max(worst, diff)
            assert diff <= TOL, f"{c.name} set_{k} {nm}: max abs diff {diff} > {TOL}"

    meta = {
        "name": c.name,
        "description": c.description,
        "ir": c.ir,
        "targets": c.targets,
        "graph_targets": graph_targets,
        "symbolic_ops": other_ops,
        "inputs": input_names,
        "outputs": output_names,
        "user_outputs": output_names,
        "mutated_buffers": [],
        "dynamic_dims": {nm: {str(axis): dname for axis, (dname, _, _) in axes.items()}
                         for nm, axes in c.dynamic.items()},
        "dim_values": {n: {f"set_{k}": set_dims[k][n] for k in range(nsets)} for n in set_dims[0]},
        "input_shapes": [{nm: list(t.shape) for nm, t in zip(input_names, s)} for s in sets],
        "input_dtypes": {nm: str(t.dtype).replace("torch.", "") for nm, t in zip(input_names, sets[0])},
        "tolerance_vs_eager": TOL,
        "torch": torch.__version__,
    }
    if c.opset is not None:
        meta["opset"] = c.opset
    if c.int_tolerance is not None:
        meta["int_tolerance"] = c.int_tolerance
    (d / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    size = sum(p.stat().st_size for p in d.rglob("*") if p.is_file())
    print(f"wrote {cc.rel(d)}/ ({c.ir}, {len(graph_targets)} targets, dir {size} bytes, "
          f"reload max diff {worst:.1e})", flush=True)
    return meta


# --------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------

README_HEAD = """\
# Per-op numerical tests

Generated by `tools/capture/capture_op_tests.py` (do not edit by hand: the script
rewrites this file).  Every lowering rule of `passes/lowering/src/rules/*/*.rs`
is listed there by its aten target; each case below is a tiny `nn.Module`
whose exported graph contains the targets it is meant to cover, with the
eager PyTorch outputs to compare the converted ONNX model against.

Each `CASE/` has the layout of the model corpus (`tests/corpus/README.md`):

- `model.pt2`: `torch.export.save` of `torch.export.export(..., strict=False)`
  (TRAINING IR), or of `ep.run_decompositions()` for the ATEN rows (core ATen:
  `_softmax`, `convolution`, `addmm`, `_to_copy`, ...); `from_node` metadata
  dropped, stack traces repository-relative;
- `set_0/` (and `set_1/` for the cases with a dynamic dim, with another value
  of that dim): `input_<i>.pb` / `output_<j>.pb`, ONNX `TensorProto`s named
  after the ONNX graph inputs (the `forward()` parameter names, in order) and
  outputs (the graph's user output node names, in order); float32, int64 or
  bool, and int8 / uint8 / int16 / int32 for quantized tensors (the
  `quantized_decomposed` / `torchao` cases).  Outputs are the eager results of
  the module (eval mode);
- `meta.json`: `inputs`, `outputs`, `ir`, `targets` (what the case is meant to
  cover), `graph_targets` (every aten target the compiler will see, inplace ops
  counted as the functional ops its inplace removal makes of them), dynamic
  dims and their values per set, input shapes and dtypes.

No case mutates an input or a buffer (inplace ops act on clones), so the
outputs are the user outputs only.

The script checks every case: the claimed targets are rule targets and are in
the graph; every aten op of the graph has a rule; the saved archive, reloaded
with `torch.export.load`, reproduces the eager outputs within 1e-5 on every
set.  Some targets only appear through an inplace form (`fill_`, `copy_`,
`index_put_`, `x[:, 1:3] = y`, `x[..., 0] = v`): the compiler's
`aten-remove-inplace` turns those into `fill.Scalar`, `copy.default`,
`index_put.default`, `slice_scatter.default`, `select_scatter.default`.

To convert and compare one case by hand:

```sh
target/debug/aten-translate --to-onnx tests/ops/add_tensor/model.pt2 -o /tmp/add_tensor.onnx
.venv/bin/python tools/sweeps/compare_with_eager.py /tmp/add_tensor.onnx tests/ops/add_tensor
```

## Regenerating

```sh
.venv/bin/python tools/capture/capture_op_tests.py                 # every case, then this README
.venv/bin/python tools/capture/capture_op_tests.py --only add_tensor cat   # some cases
.venv/bin/python tools/capture/capture_op_tests.py --list          # case names and targets
.venv/bin/python tools/capture/capture_op_tests.py --only qd_quantize_per_tensor --allow-missing-rules
```

Ops outside `aten` (`quantized_decomposed::quantize_per_tensor.default`,
`torchao::quantize_affine.default`, ...) are named `aten.<namespace>::<op>.<overload>`,
as the importer names them.  `--allow-missing-rules` captures cases whose
targets have no lowering rule yet (and are not in `PENDING_RULES`): reported,
not refused.  The `torchao::` cases need torchao at capture time only
(`torch.export.load` of their `model.pt2` needs `import torchao`; the
`quantized_decomposed::` ones need `import torch.ao.quantization.fx._decomposed`,
part of torch).

Deterministic (per-case seeds from the case name): a re-run gives
byte-identical files on the same machine.  Versions used: {versions}.

## Cases

| case | IR | targets | inputs | dynamic (set_0 -> set_1) | what |
| --- | --- | --- | --- | --- | --- |
"""


def _short(t: str) -> str:
    return t[len("aten."):] if t.startswith("aten.") else t


def write_readme(out_root: Path, rules: list[str]) -> None:
    import onnx

    rows = []
    covered: dict[str, list[str]] = {}
    without_rule: dict[str, list[str]] = {}
    for c in CASES:
        meta_path = out_root / c.name / "meta.json"
        if not meta_path.exists():
            continue
        meta = json.loads(meta_path.read_text())
        for t in meta["targets"]:
            covered.setdefault(t, []).append(c.name)
        for t in meta["graph_targets"]:
            if t not in rules:
                without_rule.setdefault(t, []).append(c.name)
        shapes = meta["input_shapes"][0]
        dtypes = meta["input_dtypes"]
        short_dt = {"float32": "f32", "int64": "i64", "bool": "bool", "int8": "i8", "uint8": "u8",
                    "int16": "i16", "int32": "i32"}
        inputs = ", ".join(f"`{n}` {'x'.join(map(str, sh)) or 'scalar'} {short_dt[dtypes[n]]}"
                           for n, sh in shapes.items())
        dyn = "; ".join(f"{nm}: " + ", ".join(f"{ax}={dn}" for ax, dn in axes.items())
                        for nm, axes in meta["dynamic_dims"].items())
        if dyn:
            dyn += " (" + ", ".join(f"{n} {v['set_0']}->{v['set_1']}" for n, v in meta["dim_values"].items()) + ")"
        targets = ", ".join(f"`{_short(t)}`" for t in meta["targets"])
        desc = meta["description"].replace("|", "\\|")
        if c.min_torch:
            desc += f" (captured with torch {meta['torch'].split('+')[0]}: ops newer than the pin)"
        rows.append(f"| `{c.name}` | {meta['ir']} | {targets} | {inputs} | {dyn} | {desc} |")
    uncovered = [t for t in rules if t not in covered]
    # The pin (a newer torch captures only the min_torch cases).
    pinned = re.search(r'TORCH_VERSION: &str = "([^"]+)"',
                       (REPO / "dialects" / "src" / "aten" / "generated.rs").read_text()).group(1)
    versions = f"torch {pinned}, onnx {onnx.__version__}"
    text = README_HEAD.replace("{versions}", versions) + "\n".join(rows) + "\n"
    text += "\n## Coverage\n\n"
    text += (f"{len(rules)} rule targets, {len(rules) - len(uncovered)} covered by "
             f"{len(rows)} cases.\n")
    if uncovered:
        text += "\nNot covered:\n\n" + "".join(
            f"- `{t}`: {NOT_COVERED.get(t, 'no case yet')}\n" for t in uncovered)
    if without_rule:
        text += ("\nTargets in the cases' graphs without a rule yet (`PENDING_RULES` of the script, or "
                 "captured with `--allow-missing-rules`: rules being written; these cases fail until they "
                 "land):\n\n")
        text += "".join(f"- `{_short(t)}`: {', '.join(f'`{n}`' for n in names)}\n"
                        for t, names in sorted(without_rule.items()))
    text += ("\nTargets that torch.export does not emit from ordinary code (the case calls "
             "`torch.ops.aten` directly):\n\n")
    text += "".join(f"- `{_short(t)}`: {why}\n" for t, why in EXPLICIT.items())
    text += "\n### Target -> cases\n\n| target | cases |\n| --- | --- |\n"
    for t in rules:
        text += f"| `{_short(t)}` | {', '.join(f'`{n}`' for n in covered.get(t, [])) or '-'} |\n"
    (out_root / "README.md").write_text(text)


# Targets that no case covers, with the reason (none at the moment).
NOT_COVERED: dict[str, str] = {}

# Targets whose lowering rules are being written: a case may claim them, and
# its graph may contain them, before passes/lowering/src/rules/ has them (the
# README lists those still without a rule; main() names the entries that now
# have one, which can then be dropped from here).
PENDING_RULES: frozenset[str] = frozenset([])


# More cases, one module a family of ops: tools/capture/op_cases/<family>.py
# (the package `op_cases`), imported in file-name order after the cases above;
# each registers its cases with op_case_lib's `case` and imports what it uses
# (several people can add cases without editing this file).
for _path in sorted((Path(__file__).resolve().parent / "op_cases").glob("*.py")):
    if _path.name != "__init__.py":
        importlib.import_module(f"op_cases.{_path.stem}")


def _version(v: str) -> tuple:
    return tuple(int(x) for x in v.split("+")[0].split(".")[:2])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=REPO / "tests" / "ops")
    ap.add_argument("--only", nargs="+", metavar="CASE", help="capture only these cases")
    ap.add_argument("--list", action="store_true", help="list the cases and their targets, then exit")
    ap.add_argument("--allow-missing-rules", action="store_true",
                    help="capture cases whose targets have no lowering rule yet (reported, not refused)")
    args = ap.parse_args()
    if args.list:
        for c in CASES:
            print(f"{c.name:28s} {c.ir:8s} {' '.join(_short(t) for t in c.targets)}")
        return 0
    if not torch.__version__.startswith("2.13"):
        print(f"warning: the cases were made with torch 2.13, this is {torch.__version__}", file=sys.stderr)
    names = {c.name for c in CASES}
    if args.only:
        unknown = [n for n in args.only if n not in names]
        if unknown:
            ap.error(f"unknown case(s) {unknown}")
    rules = rule_targets()
    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    failures = []
    for c in CASES:
        if args.only and c.name not in args.only:
            continue
        if c.min_torch and _version(torch.__version__) < _version(c.min_torch):
            print(f"skipped {c.name}: needs torch >= {c.min_torch} (kept as captured)", file=sys.stderr)
            continue
        try:
            capture(c, out, set(rules), args.allow_missing_rules)
        except Exception as e:  # noqa: BLE001 - report every failing case, then fail
            failures.append(c.name)
            print(f"FAILED {c.name}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
    if not args.only:
        stale = sorted(p.name for p in out.iterdir() if p.is_dir() and p.name not in names)
        for name in stale:
            shutil.rmtree(out / name)
            print(f"removed stale {cc.rel(out / name)}/")
    write_readme(out, rules)
    covered = {t for c in CASES if (out / c.name / "meta.json").exists() for t in c.targets}
    uncovered = [t for t in rules if t not in covered]
    print(f"wrote {cc.rel(out / 'README.md')}: {len(rules) - len(uncovered)}/{len(rules)} rule targets covered")
    if uncovered:
        print("not covered: " + " ".join(uncovered))
    pending = sorted(PENDING_RULES - set(rules))
    if pending:
        print("PENDING_RULES without a rule yet: " + " ".join(pending))
    landed = sorted(PENDING_RULES & set(rules))
    if landed:
        print("PENDING_RULES entries that now have a rule (can be removed): " + " ".join(landed))
    if failures:
        print(f"{len(failures)} case(s) failed: {' '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
