"""What the per-op cases are written with: the case registry and the input makers.

Shared by tools/capture/capture_op_tests.py (its own cases, the capture) and
the modules of tools/capture/op_cases/ (one family of ops each), which import
from here what they use:

    from op_case_lib import case, rn, ri

`case(...)` appends to `CASES`, in registration order: capture_op_tests.py's
cases, then every op_cases module in file-name order (capture_op_tests.py
imports them). `EXPLICIT` (targets a case has to call through torch.ops.aten)
is filled the same way, and printed in tests/ops/README.md.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Callable

import torch
import torch.nn as nn


# --------------------------------------------------------------------------
# Case registry
# --------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    targets: list[str]
    forward: Callable
    # make_inputs(generator, dims) -> tuple of tensors; dims maps a Dim name to
    # its value in the set being made.
    make_inputs: Callable[[torch.Generator, dict], tuple]
    ir: str = "TRAINING"
    init: Callable[[nn.Module], None] | None = None
    # {forward() parameter name: {axis: (dim name, set_0 value, set_1 value)}};
    # a name "auto:..." is captured as Dim.AUTO (constraints derived by torch).
    dynamic: dict[str, dict[int, tuple[str, int, int]]] = field(default_factory=dict)
    dim_min: dict[str, int] = field(default_factory=dict)
    description: str = ""
    # ONNX opset the parity test converts with (None: the default).
    opset: int | None = None
    # Ops newer than the pin (tools/gen/newer_torch_schemas.json): captured with
    # that torch (`/path/to/its/python tools/capture/capture_op_tests.py --only NAME`),
    # skipped (and kept as captured) under an older one.
    min_torch: str | None = None
    # Integer outputs allowed to differ from eager by at most `steps` at no
    # more than `max_elements` elements of an output, with the reason
    # (`why`): QuantizeLinear divides by the scale where torch multiplies by
    # its reciprocal (docs/quantization.md). None: exact.
    int_tolerance: dict | None = None

    @property
    def seed(self) -> int:
        return zlib.crc32(self.name.encode()) & 0xFFFF


CASES: list[Case] = []


def case(name: str, targets: list[str], make_inputs, *, ir: str = "TRAINING", init=None,
         dynamic=None, dim_min=None, opset=None, min_torch=None, int_tolerance=None):
    """Registers `forward(self, ...)` as a case; its docstring is the description.
    Targets are written without the `aten.` prefix."""

    def deco(fn):
        assert name not in {c.name for c in CASES}, name
        doc = " ".join((fn.__doc__ or "").split())
        CASES.append(Case(name, ["aten." + t for t in targets], fn, make_inputs, ir, init,
                          dynamic or {}, dim_min or {}, doc, opset, min_torch, int_tolerance))
        return fn

    return deco


# Input makers (all from the case's generator).
def rn(g, *s):
    return torch.randn(s, generator=g)


def ur(g, lo, hi, *s):
    return lo + (hi - lo) * torch.rand(*s, generator=g)


def pos(g, *s):  # strictly positive floats in [0.5, 2)
    return ur(g, 0.5, 2.0, *s)


def nz(g, *s):  # floats with |v| in [0.5, 2), both signs
    sign = torch.where(torch.rand(*s, generator=g) < 0.5, -1.0, 1.0)
    return sign * pos(g, *s)


def grid(g, *s):  # small integer-valued floats (ties for comparisons)
    return torch.randint(-2, 3, s, generator=g).to(torch.float32)


def ri(g, lo, hi, *s):
    return torch.randint(lo, hi, s, generator=g, dtype=torch.int64)


def nzi(g, *s):  # non-zero int64 in [-4, 4]
    v = torch.randint(1, 5, s, generator=g, dtype=torch.int64)
    return torch.where(torch.rand(*s, generator=g) < 0.5, -v, v)


def rb(g, *s):
    return torch.rand(*s, generator=g) < 0.5


def finite_marked(t):
    """NaN -> -77 and +-inf -> +-777: an output compared exactly where a NaN
    or an infinity would otherwise be compared (the parity harness reads
    finite values; the markers keep where they were)."""
    t = torch.where(torch.isnan(t), -77.0, t)
    return torch.where(torch.isinf(t), torch.sign(t) * 777.0, t)


def with_specials(g, *s):
    """randn with NaN, +inf, -inf, -0.0 and 0.0 planted at fixed places
    (flat indices 1, 3, 4, 6, 7)."""
    x = rn(g, *s).reshape(-1)
    x[1] = float("nan")
    x[3] = float("inf")
    x[4] = -float("inf")
    x[6] = -0.0
    x[7] = 0.0
    return x.reshape(s)


def seeded_norm(m: nn.Module) -> None:
    """Non-trivial running statistics / affine parameters of a norm layer."""
    with torch.no_grad():
        if getattr(m, "running_mean", None) is not None:
            m.running_mean.copy_(torch.randn(m.running_mean.shape) * 0.2)
            m.running_var.copy_(torch.rand(m.running_var.shape) + 0.5)
        if getattr(m, "weight", None) is not None:
            m.weight.copy_(torch.rand(m.weight.shape) + 0.5)
        if getattr(m, "bias", None) is not None:
            m.bias.copy_(torch.randn(m.bias.shape) * 0.1)


BATCH = ("batch", 2, 3)
SEQ = ("seq", 3, 5)


# Targets that torch.export (2.13) does not produce from ordinary PyTorch code
# in the IR of their case, so the case calls torch.ops.aten.<op>.<overload>.
EXPLICIT: dict[str, str] = {
    "aten.add.Scalar": "`x + 1` exports as `add.Tensor`; explicit in `add_scalar`, natural in the core "
                       "ATen of `nn.RMSNorm` (`rms_norm_core`)",
    "aten.sub.Scalar": "`x - 1` exports as `sub.Tensor`; explicit in `sub_scalar`",
    "aten.mul.Scalar": "`x * 2` exports as `mul.Tensor`; explicit in `mul_scalar`, natural in the core "
                       "ATen of SDPA (`sdpa_core`)",
    "aten.div.Scalar": "`x / 2` exports as `div.Tensor`; explicit in `div_scalar`",
    "aten._unsafe_view.default": "core ATen decomposes it to `view`; explicit in `unsafe_view`",
    "aten.upsample_nearest2d.default": "`F.interpolate` / `nn.Upsample` export as `upsample_nearest2d.vec` "
                                       "(TRAINING and core ATen); explicit in `upsample_nearest2d_default`",
    "aten.upsample_bilinear2d.default": "`F.interpolate` / `nn.Upsample` export as `upsample_bilinear2d.vec` "
                                        "(TRAINING and core ATen); explicit in `upsample_bilinear2d_default`",
    "aten.to.dtype_layout": "`x.to('cpu')` / `x.to(device='cpu')` export as `to.dtype_layout` without "
                            "a dtype (a no-op); `to_dtype_layout` also calls it explicitly with a dtype "
                            "so that it casts",
}
