# Cases of the ops that read a tensor's size or memory layout (sym_numel,
# sym_is_contiguous, sym_storage_offset; the importer's recorded strides and
# storage offset, see passes/lowering/src/rules/helpers/layout_meta.rs). Imported by
# tools/capture/capture_op_tests.py.

from __future__ import annotations

import torch

from op_case_lib import BATCH, SEQ, case, ri, rn

_A = torch.ops.aten


@case("sym_numel", ["sym_numel.default"], lambda g, d: (rn(g, d["batch"], 3, d["seq"]),),
      dynamic={"x": {0: BATCH, 2: SEQ}})
def _(self, x):
    """x.numel() with two dynamic dims (B*3*S, runtime ReduceProd of the shape): reshape to it, and a
    division by it."""
    return x.reshape(x.numel()), x.sum() / x.numel()


@case("sym_is_contiguous", ["sym_is_contiguous.default"],
      lambda g, d: (rn(g, 3, d["batch"]), rn(g, 1, d["batch"]), rn(g, 2, d["batch"], 4, 3)),
      dynamic={"x": {1: BATCH}, "y": {1: BATCH}, "z": {1: BATCH}})
def _(self, x, y, z):
    """Explicit torch.ops.aten.sym_is_contiguous on dynamic tensors, strides recorded symbolic: x [3,B]
    (strides (B,1): true, checked at run time), x.t() (false), y.t() of [1,B] (size-1 dim: true), and
    channels_last of z.permute(0,3,1,2) (NHWC strides (12B,1,12,3): true) and of z (false)."""
    zp = z.permute(0, 3, 1, 2)
    cl = torch.channels_last
    return (x * _A.sym_is_contiguous(x), x * _A.sym_is_contiguous(x.t()), y * _A.sym_is_contiguous(y.t()),
            zp * _A.sym_is_contiguous(zp, memory_format=cl), z * _A.sym_is_contiguous(z, memory_format=cl))


@case("sym_storage_offset_split", ["sym_storage_offset.default", "tensor_split.tensor_indices_or_sections",
                                   "sym_is_contiguous.default"],
      lambda g, d: (rn(g, 5, 6), torch.tensor([1, 4]), torch.tensor([2, -1, 9])))
def _(self, x, i, j):
    """tensor_split at data-dependent indices (a 1-D tensor): torch.export binds each piece's unbacked
    storage offset with sym_storage_offset only to assert it is >= 0 (the assertion and the op are
    dropped); pieces along dim 0 and along dim 1 with a negative and an out-of-range index; and
    sym_is_contiguous of a piece [u, 6] (strides (6, 1): true)."""
    p = torch.tensor_split(x, i)
    q = torch.tensor_split(x, j, dim=1)
    return p[0], p[1], p[2] * _A.sym_is_contiguous(p[1]), q[0], q[1], q[2], q[3]


@case("hash_tensor", ["hash_tensor.default"],
      lambda g, d: (rn(g, 3, 4), ri(g, -50, 50, 2, 5), rn(g, 2, 3, 4)), opset=26)
def _(self, x, i, y):
    """torch.ops.aten.hash_tensor (XOR of the float64 / int64 bit patterns; uint64, compared as int64):
    of all of a float tensor, of an int tensor along dim 1, along dims (0, 2) with keepdim, with NaNs,
    and of signed zeros (x * 0.0)."""
    A = torch.ops.aten
    z = torch.where(x > 1.0, float("nan"), x)
    return (A.hash_tensor(x).to(torch.int64), A.hash_tensor(i, [1]).to(torch.int64),
            A.hash_tensor(y, [0, 2], keepdim=True).to(torch.int64), A.hash_tensor(z, [1]).to(torch.int64),
            A.hash_tensor(x * 0.0, [0]).to(torch.int64))


@case("hash_tensor_no_bitcast", ["hash_tensor.default"], lambda g, d: (rn(g, 3, 4), rn(g, 2, 5)))
def _(self, x, y):
    """hash_tensor of floats at the default opset (below 26: no BitCast, the float64 bit patterns computed
    with exact float64 arithmetic): float32 with torch's NaN, +-inf, +-0.0, float32 subnormals, the
    largest float32 and powers of two; float64 (subnormal, huge and ordinary values) and float16 (its
    subnormals); over all, along dims, with keepdim, and a 0-d tensor."""
    A = torch.ops.aten
    special = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-40, -1.4e-45,
                            3.4028235e38, -1.0, 2.0 ** -126, 2.0 ** -127, 0.5])
    s = torch.cat([x.flatten(), special])
    d = y.double()
    h = (x * 1e-5).half()
    return (A.hash_tensor(s).to(torch.int64), A.hash_tensor(special.reshape(3, 4), [1]).to(torch.int64),
            A.hash_tensor(x, [0], keepdim=True).to(torch.int64), A.hash_tensor(d * 1e-310, [1]).to(torch.int64),
            A.hash_tensor(d * 1e300).to(torch.int64), A.hash_tensor(d, [0, 1]).to(torch.int64),
            A.hash_tensor(h, [1]).to(torch.int64), A.hash_tensor(x[1, 2]).to(torch.int64))


@case("sym_float_sizes_nearest",
      ["upsample_nearest1d.vec", "upsample_nearest2d.vec", "upsample_nearest3d.vec",
       "_upsample_nearest_exact1d.vec", "_upsample_nearest_exact2d.vec"],
      lambda g, d: (rn(g, 2, 3, d["h"], d["w"]), rn(g, 1, 2, d["h"]), rn(g, 1, 1, 2, d["h"], 3)),
      dynamic={"x": {2: ("h", 5, 7), 3: ("w", 4, 9)}, "y": {2: ("h", 5, 7)}, "z": {3: ("h", 5, 7)}},
      dim_min={"h": 4, "w": 4})
def _(self, x, y, z):
    """Nearest upsampling with non-integer scales on dynamic sizes (source indices computed in the graph with
    torch's float32 formulas; the 2-D kernel's out == in / out == 2 * in shortcuts at run time), and output
    sizes recomputed by torch with Python floats on symbolic sizes (recompute_scale_factor: SymFloat ops
    float(s) * 0.6 then trunc)."""
    F = torch.nn.functional
    a = F.interpolate(x, scale_factor=(1.7, 0.6), mode="nearest")
    b = F.interpolate(x, scale_factor=0.6, mode="nearest", recompute_scale_factor=True)
    c = F.interpolate(x, scale_factor=(1.5, 0.7), mode="nearest-exact")
    e = F.interpolate(y, scale_factor=1.3, mode="nearest")
    f = F.interpolate(y, scale_factor=2.5, mode="nearest-exact", recompute_scale_factor=True)
    t = F.interpolate(z, scale_factor=(1.0, 1.4, 0.7), mode="nearest")
    return a, b, c, e, f, t



@case("sym_float_scalars", ["mul.Tensor", "div.Tensor"],
      lambda g, d: (rn(g, d["n"], d["e"]),), dynamic={"x": {0: ("n", 5, 9), 1: ("e", 4, 6)}})
def _(self, x):
    """Python floats computed from symbolic sizes and applied to a tensor (SymFloat ops in float64): an
    attention-style scale e ** -0.5, n * 0.5, e / 3 (true division), n ** 0.5, 2 ** (e / 2)."""
    n, e = x.shape
    return x * e ** -0.5, x * (n * 0.5), x / (e / 3), x * (n ** 0.5), x * 2 ** (e / 2)
