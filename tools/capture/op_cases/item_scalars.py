# `Scalar` arguments computed in the graph: `t.item()` (a symbolic float the
# capture records as a graph value, not a number) fed to ops whose lowering
# used to want a static number. Each op takes the value as a tensor (cast to
# the op's type as torch's kernel does). Imported by
# tools/capture/capture_op_tests.py (`case`, `rn`, `pos` come from op_case_lib).
# Case names start with `item_`: `ATEN2ONNX_ONLY=item_` runs them all.

from __future__ import annotations

import torch

from op_case_lib import case, pos, rn


def _specials(g, *s):
    """Floats with NaN, +-inf and zeros among them (scattered, not first)."""
    x = torch.randn(s, generator=g)
    flat = x.view(-1)
    picks = torch.randperm(flat.numel(), generator=g)[:4]
    for k, v in zip(picks.tolist(), [float("nan"), float("inf"), float("-inf"), 0.0]):
        flat[k] = v
    return x


def _zeros(g, *s):
    """Floats with +0 and -0 among them (outputs must be finite here)."""
    x = torch.randn(s, generator=g) * 3
    flat = x.view(-1)
    picks = torch.randperm(flat.numel(), generator=g)[:2]
    flat[picks[0]] = 0.0
    flat[picks[1]] = -0.0
    return x


@case("item_fill", ["full_like.default", "new_full.default", "item.default"],
      lambda g, d: (_specials(g, 3, 4), rn(g, 5), torch.randint(-5, 5, (2, 3), generator=g)))
def _(self, x, t, i):
    """full_like / new_full with a fill value from `.item()`: float tensors, an int tensor (the float
    value truncated as torch does), an empty shape."""
    v = t.max().item()
    return torch.full_like(x, v), x.new_full((2, 0), v), torch.full_like(i, v), i.new_full((4,), v)


@case("item_activations", ["leaky_relu.default", "elu.default", "celu.default", "softplus.default",
                           "hardshrink.default", "hardtanh.default", "threshold.default",
                           "item.default"],
      lambda g, d: (_zeros(g, 3, 5), pos(g, 4)))
def _(self, x, t):
    """Activation parameters from `.item()` (a positive tensor): leaky_relu's slope, elu's alpha (and
    scale / input_scale), celu's alpha, softplus' beta and threshold, hardshrink's lambda, hardtanh's bounds,
    threshold's threshold and value; zeros of both signs in the input. (softshrink checks lambda >= 0 on the
    value, which torch.export cannot do for `.item()`.)"""
    a, b = t.max().item(), t.min().item()
    F = torch.nn.functional
    return (F.leaky_relu(x, a), F.elu(x, a), torch.ops.aten.elu(x, a, b, 0.5), F.celu(x, b),
            F.softplus(x, beta=a, threshold=b), F.hardshrink(x, b),
            torch.ops.aten.hardtanh(x, -a, a), F.threshold(x, b, a))


@case("item_pointwise", ["addcmul.default", "addcdiv.default", "scatter.value", "item.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 3, 4), pos(g, 3, 4), rn(g, 3), torch.tensor([[0, 3], [1, 2], [2, 0]])))
def _(self, x, y, z, t, index):
    """addcmul / addcdiv with `value` from `.item()`, scatter of a value from `.item()`."""
    v = t.max().item()
    return torch.addcmul(x, y, z, value=v), torch.addcdiv(x, y, z, value=v), x.scatter(1, index, v)


@case("item_products", ["add.Tensor", "rsub.Scalar", "addmm.default", "baddbmm.default", "addbmm.default",
                        "addmv.default", "addr.default", "item.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 4, 5), rn(g, 3, 5), rn(g, 2, 3, 4), rn(g, 2, 4, 5), pos(g, 2)))
def _(self, a, b, c, ba, bb, t):
    """The `alpha` of add / rsub and of the matrix products (addmm, baddbmm, addbmm, addmv, addr) from
    `.item()`: the product scaled by the value, as a tensor. (A `beta` or a `sub` alpha from `.item()` makes
    torch guard on its value, which torch.export cannot do.)"""
    v, w = t.max().item(), t.min().item()
    return (torch.add(a, a * 2, alpha=v), torch.rsub(a, w), torch.addmm(c, a, b, alpha=v),
            torch.baddbmm(c, ba, bb, alpha=w), torch.addbmm(c, ba, bb, alpha=v),
            torch.addmv(c[:, 0], a, b[:, 1], alpha=w), torch.addr(c, a[:, 0], b[0], alpha=v))


@case("item_bounds", ["linspace.default", "renorm.default", "item.default"],
      lambda g, d: (rn(g, 3, 4), pos(g, 2)))
def _(self, x, t):
    """linspace with a bound from `.item()` (computed in the graph), renorm's maxnorm from `.item()`."""
    v, w = t.max().item(), t.min().item()
    return torch.linspace(w, v * 4, 6) + 1, torch.linspace(-1.5, v, 5), torch.renorm(x, 2, 0, w)
