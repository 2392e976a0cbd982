# Norms and aliases (imported by tools/capture/capture_op_tests.py).
# Edge values: zeros (ord 0 counts them), negative entries, a 0-d input.

from __future__ import annotations

import torch

from op_case_lib import case, grid, nz, ri, rn


@case("linalg_vector_norm", ["linalg_vector_norm.default"],
      lambda g, d: (rn(g, 3, 4), grid(g, 2, 3, 4), rn(g)))
def _(self, x, z, s):
    """torch.linalg.vector_norm: ord 2 (all dims), 1 over a dim, 3 over two dims keepdim, inf/-inf, 0 (count of
    non-zeros of small integer-valued floats), 0.5, -2; a 0-d input. (The case format needs finite outputs: NaN
    propagation of the inf norms is the shared NaN-aware max/min of rules/helpers/math_common.rs.)"""
    vn = torch.linalg.vector_norm
    return (vn(x), vn(x, 1, dim=1), vn(z, 3, dim=(0, 2), keepdim=True), vn(x, float("inf"), dim=-1),
            vn(x, float("-inf"), dim=0), vn(z, 0), vn(x.abs() + 0.5, 0.5, dim=1), vn(x.abs() + 0.5, -2, dim=1),
            vn(s), vn(z, 2, dim=None, keepdim=True))


@case("norm_overloads", ["norm.Scalar", "norm.ScalarOpt_dim", "norm.ScalarOpt_dim_dtype", "norm.ScalarOpt_dtype"],
      lambda g, d: (rn(g, 3, 4),))
def _(self, x):
    """torch.ops.aten.norm overloads (torch.norm itself exports as linalg_vector_norm): p 2 / 1 / 3 / None / inf,
    over dims, keepdim, with a dtype."""
    a = torch.ops.aten
    return (a.norm.Scalar(x), a.norm.Scalar(x, 1), a.norm.ScalarOpt_dim(x, 3, [1]),
            a.norm.ScalarOpt_dim(x, None, [0], True), a.norm.ScalarOpt_dim(x, float("inf"), [1]),
            a.norm.ScalarOpt_dim_dtype(x, 2, [1], False, dtype=torch.float32),
            a.norm.ScalarOpt_dtype(x, 1, dtype=torch.float32))


@case("linalg_norm", ["linalg_norm.default", "linalg_norm.ord_str"], lambda g, d: (rn(g, 3, 4), rn(g, 2, 3, 4), rn(g, 5)))
def _(self, m, t, v):
    """torch.linalg.norm: default (flattened 2-norm), a vector ord on 1-D, matrix ords 1 / inf / -inf / 'fro',
    one dim (vector norm) and two dims (matrix norm), keepdim."""
    ln = torch.linalg.norm
    return (ln(m), ln(v, 3), ln(m, 1), ln(m, float("inf"), keepdim=True), ln(t, 1, dim=2), ln(t, dim=(0, 2)),
            ln(t, float("-inf"), dim=(1, 2)), ln(m, "fro"), ln(t, "fro", dim=(1, 2), keepdim=True))


@case("linalg_matrix_norm", ["linalg_matrix_norm.default", "linalg_matrix_norm.str_ord"],
      lambda g, d: (rn(g, 3, 4), rn(g, 2, 3, 4)))
def _(self, m, t):
    """torch.linalg.matrix_norm: 'fro' (default), 1, -1, inf, -inf, dims in either order, keepdim."""
    mn = torch.linalg.matrix_norm
    return (mn(m), mn(m, 1), mn(m, -1), mn(t, float("inf")), mn(m, float("-inf"), keepdim=True),
            mn(t, 1, dim=(0, 2)), mn(t, float("inf"), dim=(2, 0), keepdim=True), mn(t, "fro", dim=(0, 1), keepdim=True))


@case("arith_aliases", ["divide.Tensor", "divide.Scalar", "divide.Tensor_mode", "subtract.Tensor",
                        "subtract.Scalar", "multiply.Tensor", "multiply.Scalar"],
      lambda g, d: (rn(g, 2, 3), nz(g, 3), ri(g, -5, 6, 2, 3)))
def _(self, x, y, a):
    """divide / subtract / multiply (aliases of div / sub / mul), called through torch.ops.aten: tensor and scalar
    forms, rounding modes, alpha, int64."""
    o = torch.ops.aten
    return (o.divide.Tensor(x, y), o.divide.Scalar(x, 4.0), o.divide.Tensor_mode(x, y, rounding_mode="floor"),
            o.divide.Tensor_mode(a, 3, rounding_mode="trunc"), o.subtract.Tensor(x, y, alpha=2),
            o.subtract.Scalar(x, 2, 3), o.subtract.Tensor(a, a), o.multiply.Tensor(x, y), o.multiply.Scalar(x, 2),
            o.multiply.Tensor(a, 3))


@case("matrix_transposes", ["mT.default", "mH.default", "adjoint.default"],
      lambda g, d: (rn(g, 2, 3, 4), ri(g, -5, 6, 3, 4)))
def _(self, x, a):
    """x.mT, x.mH, x.adjoint() on float (3-D) and int64 (2-D) tensors."""
    return x.mT, x.mH, x.adjoint(), a.mT, a.mH + 1


@case("dropout_variants_eval", ["feature_dropout.default", "alpha_dropout.default", "feature_alpha_dropout.default"],
      lambda g, d: (rn(g, 2, 3, 4),))
def _(self, x):
    """feature_dropout / alpha_dropout / feature_alpha_dropout with train=False (identity), through torch.ops."""
    o = torch.ops.aten
    return (o.feature_dropout.default(x, 0.5, False) * 2, o.alpha_dropout.default(x, 0.3, False) + 1,
            o.feature_alpha_dropout.default(x, 0.2, False) - 1)
