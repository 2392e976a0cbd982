# Ops met by real models in half precision (tools/sweeps/try_real_models.py)
# (imported by tools/capture/capture_op_tests.py).

from __future__ import annotations

import torch

from op_case_lib import case, rb, ri, rn


@case("where_scalar", ["where.Scalar"], lambda g, d: (rn(g, 3, 4), rb(g, 5)))
def _(self, x, m):
    """torch.where with both branches numbers (T5's relative-position buckets in float16): float branches give
    float32, int branches int64; a 0-d condition."""
    a = torch.ops.aten
    return (a.where.Scalar(x > 0, 1.5, -2.5), a.where.Scalar(m, 3, -1), a.where.Scalar(x.sum() > 0, 0.5, 2.0))


@case("bool_minmax_ops", ["add.Tensor", "clamp_min.Tensor", "clamp_max.Tensor", "maximum.default", "minimum.default", "fmax.default", "fmin.default",
                          "max.other", "min.other", "max.dim", "min.dim", "heaviside.default", "masked_fill.Scalar",
                          "cummax.default", "cummin.default"], lambda g, d: (rb(g, 3, 4), rb(g, 4), rb(g, 3, 4)))
def _(self, x, y, m):
    """Bool inputs to ops whose ONNX op takes no bools (Add, Max, Min, ArgMax, Greater) or that onnxruntime lacks
    (bool Where): lowered as Or/And or computed in int64 and cast back (OpInfo sweep, bool)."""
    a = torch.ops.aten
    mx, ix = a.max.dim(x, 1)
    mn, jn = a.min.dim(x, 0, True)
    cx, ci = a.cummax(x, 1)
    cn, cj = a.cummin(x, 0)
    return (a.add.Tensor(x, y), a.clamp_min.Tensor(x, y), a.clamp_max.Tensor(x, y), a.maximum(x, y),
            a.minimum(x, y), a.fmax(x, y), a.fmin(x, y), a.max.other(x, y), a.min.other(x, y), mx, ix, mn, jn,
            a.heaviside(x, y), a.masked_fill.Scalar(x, m, True), cx, ci, cn, cj)


@case("int_addmm_cummax", ["addmm.default", "cummax.default", "cummin.default"], lambda g, d: (ri(g, -5, 5, 3), ri(g, -5, 5, 3, 2),
                                                                      ri(g, -5, 5, 2, 3), ri(g, -9, 9, 4, 5)))
def _(self, b, m1, m2, x):
    """Integer addmm (onnxruntime has no integer Gemm: MatMul + Add) and cummax/cummin of ints."""
    a = torch.ops.aten
    return (a.addmm(b, m1, m2), a.addmm(b, m1, m2, beta=3, alpha=2), a.addmm(b, m1, m2, beta=0),
            *a.cummax(x, 1), *a.cummin(x, 0))
