# Control-flow cases: torch.cond -> If, while_loop -> Loop, scan / map -> Scan
# (passes/src/control_flow.rs). Imported by tools/capture/capture_op_tests.py;
# `case`, `rn`, `ri`, `pos`, ... come from op_case_lib.
#
# Each case with a data-dependent predicate takes a dynamic dim so that it has
# two input sets, and its inputs are made so that set_0 and set_1 take
# different branches (or run a different number of iterations).

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch._higher_order_ops.map import map as _hop_map
from torch._higher_order_ops.scan import scan as _hop_scan
from torch._higher_order_ops.while_loop import while_loop as _while_loop

from op_case_lib import case, pos, ri, rn

N = ("n", 3, 5)


def _signed(g, d, *shape):
    """Positive values for set_0 (n == 3), negative for set_1: `x.sum() > 0`
    picks the true branch on set_0 and the false one on set_1."""
    x = pos(g, *shape)
    return x if d["n"] == 3 else -x


@case("cf_cond_data", [], lambda g, d: (_signed(g, d, d["n"], 4),), dynamic={"x": {0: N}})
def _(self, x):
    """torch.cond on `x.sum() > 0` (true on set_0, false on set_1), shape-preserving branches."""

    def t(x):
        return x.sin() + 1.0

    def f(x):
        return x.cos() * 2.0

    return torch.cond(x.sum() > 0, t, f, (x,))


def _cond_weights_init(self):
    self.lin = nn.Linear(4, 4)
    self.register_buffer("scale", torch.tensor([0.5, -1.0, 2.0, 3.0]))


@case("cf_cond_weights", [], lambda g, d: (_signed(g, d, d["n"], 4), rn(g, 4)),
      init=_cond_weights_init, dynamic={"x": {0: N}})
def _(self, x, y):
    """torch.cond whose branches use closed-over weights (a Linear, a buffer) and a second
    operand; two outputs."""

    def t(x, y):
        h = self.lin(x).relu()
        return h * self.scale, h.sum(0) + y

    def f(x, y):
        return x - y, (x * self.scale).mean(0)

    return torch.cond(x.sum() > 0, t, f, (x, y))


@case("cf_cond_nested", [], lambda g, d: (_signed(g, d, d["n"], 4), rn(g, 4)), dynamic={"x": {0: N}})
def _(self, x, y):
    """torch.cond nested in a branch of torch.cond (the inner predicate on another input)."""

    def inner_t(x, y):
        return x + y

    def inner_f(x, y):
        return x - y

    def t(x, y):
        return torch.cond(y.sum() > 0, inner_t, inner_f, (x, y)) * 2.0

    def f(x, y):
        return torch.cond(y.mean() < 0, inner_t, inner_f, (x.abs(), y)).exp()

    return torch.cond(x.sum() > 0, t, f, (x, y))


@case("cf_cond_shape_pred", [], lambda g, d: (rn(g, d["n"], 4),), dynamic={"x": {0: ("n", 3, 6)}})
def _(self, x):
    """torch.cond on a symbolic-size predicate `x.shape[0] > 4` (a SymBool): false on set_0 (3 rows),
    true on set_1 (6 rows)."""

    def t(x):
        return x * 3.0

    def f(x):
        return x.neg()

    return torch.cond(x.shape[0] > 4, t, f, (x,))


@case("cf_cond_int", [], lambda g, d: (ri(g, -5, 6, d["n"]) if d["n"] == 3 else -ri(g, 1, 6, d["n"]),),
      dynamic={"i": {0: N}})
def _(self, i):
    """torch.cond on int64 data, int64 outputs: `i.max() > 0` picks `i * 2` or `i - 1`."""

    def t(i):
        return i * 2

    def f(i):
        return i - 1

    return torch.cond(i.max() > 0, t, f, (i,))


@case("cf_while_counter", [], lambda g, d: (torch.tensor(0), rn(g, 3)))
def _(self, it, x):
    """while_loop counting `it` up to 5 with a carried tensor (5 iterations)."""

    def cond_fn(it, x):
        return it < 5

    def body_fn(it, x):
        return it + 1, x * 0.5 + 1.0

    return _while_loop(cond_fn, body_fn, (it, x))


@case("cf_while_data", [], lambda g, d: (rn(g, d["n"], 2) * (8.0 if d["n"] == 3 else 0.05),),
      dynamic={"x": {0: N}})
def _(self, x):
    """Data-dependent while_loop: halve `x` while `x.abs().sum() > 1` (several iterations on set_0,
    none on set_1: the condition is checked before the first iteration)."""

    def cond_fn(x):
        return x.abs().sum() > 1.0

    def body_fn(x):
        return (x * 0.5,)

    return _while_loop(cond_fn, body_fn, (x,))


def _while_weights_init(self):
    self.lin = nn.Linear(3, 3)


@case("cf_while_closure", [], lambda g, d: (torch.tensor(0), rn(g, 2, 3), pos(g, 3)), init=_while_weights_init)
def _(self, it, x, limit):
    """while_loop whose body uses a closed-over Linear and whose condition reads a tensor from
    outside the loop (additional inputs), with a cond nested in the body."""

    def cond_fn(it, x):
        return (it < 4) & (x.abs().max() < limit.sum() * 10.0)

    def body_fn(it, x):
        def t(x):
            return torch.tanh(self.lin(x))

        def f(x):
            return x + limit

        y = torch.cond(it % 2 == 0, t, f, (x,))
        return it + 1, y

    return _while_loop(cond_fn, body_fn, (it, x))


@case("cf_scan", [], lambda g, d: (rn(g, 3), rn(g, 5, 3), rn(g, 3), rn(g, 5)))
def _(self, init, xs, w, c0):
    """scan: a running sum (carry) with per-step outputs, reading an outer tensor; and scan with
    reverse=True (torch flips xs and the stacked outputs around the op) over a transposed input."""

    def step(c, x):
        n = c + x * w
        return n, n.sin()

    def step2(c, x):
        return c * 0.5 + x, (c - x)

    a, b = _hop_scan(step, init, xs)
    c, d = _hop_scan(step2, c0, xs.t().contiguous(), reverse=True)
    return a, b, c, d


@case("cf_map", [], lambda g, d: (rn(g, 4, 3), rn(g, 3)))
def _(self, xs, y):
    """map over dim 0 of xs with an extra positional argument (map_impl -> Scan without state)."""

    def f(x, y):
        return x.sin() + y, (x * y).sum()

    return _hop_map(f, xs, y)


@case("cf_cond_mutation", [], lambda g, d: (_signed(g, d, d["n"], 4),), dynamic={"x": {0: N}})
def _(self, x):
    """Inplace ops inside the branches on tensors the branch created (clone, then `add_` and a slice
    assignment): aten-remove-inplace rewrites them inside the region."""

    def t(x):
        y = x.clone()
        y.add_(1.0)
        y[:, 1].fill_(0.0)
        return y

    def f(x):
        y = x * 2.0
        y.mul_(x)
        return y

    return torch.cond(x.sum() > 0, t, f, (x,))


@case("cf_while_cond_in_cond", [], lambda g, d: (rn(g, d["n"], 3) * (4.0 if d["n"] == 3 else 0.1), torch.tensor(0)),
      dynamic={"x": {0: N}})
def _(self, x, k):
    """A while_loop inside a cond branch, and the loop's condition mixing the counter and data."""

    def loop(x, k):
        def cond_fn(k, x):
            return (k < 10) & (x.abs().max() > 0.5)

        def body_fn(k, x):
            return k + 1, x * 0.7

        return _while_loop(cond_fn, body_fn, (k, x))

    def other(x, k):
        return k + 100, x + 1.0

    return torch.cond(x.abs().sum() > 2.0, loop, other, (x, k))


@case("cf_while_shape_bound", [], lambda g, d: (torch.tensor(1), rn(g, d["n"], 2)), dynamic={"x": {0: N}})
def _(self, i, x):
    """while_loop bounded by a symbolic size (`i < x.shape[0]`, a SymInt read from outside the loop),
    and the same comparison as an output: a Scalar argument given a SymInt stays 0-d."""
    n = x.shape[0]

    def cond_fn(i, y):
        return i < n

    def body_fn(i, y):
        return i + 1, y * 2.0 + n

    j, y = _while_loop(cond_fn, body_fn, (i, x.sum(0)))
    return j, y, i < n


@case("cf_no_grad_block", [], lambda g, d: (rn(g, 2, d["n"]), ri(g, 0, 8, 2, d["n"])),
      dynamic={"x": {1: N}, "i": {1: N}})
def _(self, x, i):
    """A `with torch.no_grad()` block inside the forward (M2M100's sinusoidal positions), captured
    as the higher-order op wrap_with_set_grad_enabled: positions from a cumsum of a mask, a table
    lookup, then used outside the block."""
    with torch.no_grad():
        pos = (i != 0).long().cumsum(1) * (i != 0).long()
        table = torch.arange(16.0).reshape(8, 2)
        emb = table[pos.clamp(max=7)].sum(-1)
    return x + emb


@case("cf_autocast_block", [], lambda g, d: (rn(g, 2, 3, 8, 8), rn(g, 2, d["n"], 16), rn(g, 2, d["n"], 16)),
      dynamic={"x": {}, "y": {1: N}, "t": {1: N}})
def _(self, x, y, t):
    """`with torch.autocast("cpu", ...)` blocks inside the forward, captured as the higher-order op
    wrap_with_autocast whose body keeps the ops as written with the types autocast gave them:
    bfloat16 conv2d / linear / bmm / matmul (lower-precision ops) from float32 inputs, a float32 op
    (mse_loss) on bfloat16 values, cat promoting mixed types, layer_norm and softmax in between, a
    nested `enabled=False` region, and a float16 autocast block."""
    w = torch.linspace(-1.0, 1.0, 6 * 3 * 9).reshape(6, 3, 3, 3)
    lw = torch.linspace(-0.5, 0.5, 16 * 16).reshape(16, 16)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        c = F.conv2d(x, w, padding=1)
        h = F.linear(y, lw)
        a = torch.softmax(h @ h.transpose(1, 2), -1)
        o = torch.bmm(a, h)
        n = F.layer_norm(o, (16,))
        loss = F.mse_loss(n, t)
        both = torch.cat([n, t], -1)
        with torch.autocast("cpu", enabled=False):
            exact = (y.float() * 3.0).sum(-1)
    with torch.autocast("cpu", dtype=torch.float16):
        half = F.linear(t, lw).relu()
    return (c.float(), n.float(), loss.float(), both.float(), exact, half.float())
