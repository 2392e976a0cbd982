# In-place variants met in real models (`y = x.clone(); y.op_(...)`, kept by
# torch.export's TRAINING IR) and integer reductions with a narrow `dtype=`
# (imported by tools/capture/capture_op_tests.py; `case`, `rn`, `ri`, `grid`,
# `nz`, `pos`, `rb` come from op_case_lib). Case names start with `inplace_` or
# `intred_`, so `ATEN2ONNX_ONLY=inplace_,intred_` runs them all.
#
# aten-remove-inplace (passes/src/aten_remove_inplace.rs) turns each in-place
# op into its functional counterpart: comparisons and logical ops written
# into a non-bool tensor are cast to its dtype (torch writes 1 / 0),
# metadata changes (`unsqueeze_`, `t_`, ...) rebind the tensor to the
# out-of-place view, and overloads whose functional overload has another
# name are paired by their arguments (`pow_.Scalar` -> `pow.Tensor_Scalar`).

from __future__ import annotations

import torch

from op_case_lib import case, grid, nz, pos, rb, ri, rn


def _i(g, lo, hi, *s, dtype=torch.int64):
    """Integers in [lo, hi) of `dtype` (drawn as int64, so any range fits)."""
    return torch.randint(lo, hi, s, generator=g, dtype=torch.int64).to(dtype)


_CMP = ("eq_", "ne_", "ge_", "gt_", "le_", "lt_")


@case("inplace_compare_float", ["eq.Tensor", "eq.Scalar", "ne.Tensor", "ne.Scalar", "ge.Tensor", "ge.Scalar",
                                "gt.Tensor", "gt.Scalar", "le.Tensor", "le.Scalar", "lt.Tensor", "lt.Scalar",
                                "_to_copy.default"],
      lambda g, d: (grid(g, 3, 4), grid(g, 4), grid(g), rn(g, 0, 4)))
def _(self, x, y, s, e):
    """Comparisons written into float32 tensors (torch writes 1.0 / 0.0): against a broadcast tensor (ties), a
    number, a 0-d tensor; a 0-d tensor and an empty one written; the result then used as a float (add_)."""
    outs = []
    for name in _CMP:
        a = x.clone()
        getattr(a, name)(y)
        a.add_(0.5)
        b = x.clone()
        getattr(b, name)(0.0)
        c = x.clone()
        getattr(c, name)(s)
        z = s.clone()
        getattr(z, name)(0.5)
        w = e.clone()
        getattr(w, name)(0.0)
        outs += [a, b, c, z, w]
    return tuple(outs)


@case("inplace_compare_int", ["eq.Tensor", "eq.Scalar", "ne.Tensor", "ge.Scalar", "gt.Tensor", "le.Tensor",
                              "lt.Tensor", "lt.Scalar", "_to_copy.default"],
      lambda g, d: (ri(g, -3, 4, 3, 4), _i(g, -3, 4, 4, dtype=torch.int8), _i(g, -1000, 1000, 4),
                    _i(g, -3, 4, 3, 4, dtype=torch.int32), _i(g, 0, 4, 3, 4, dtype=torch.uint8), rn(g, 4)))
def _(self, x, i8, big, i32, u8, f):
    """Comparisons written into int64 / int32 / int8 / uint8 tensors (1 / 0 of the tensor's dtype): against
    tensors (an int8 tensor against int64 values beyond its range: compared in int64, as torch promotes), a
    float tensor and float numbers (1.5, 0.5: compared as floats), negative values."""
    outs = []
    for name in _CMP:
        a = x.clone()
        getattr(a, name)(x[0])
        b = i8.clone()
        getattr(b, name)(big)
        c = i32.clone()
        getattr(c, name)(f)
        d = u8.clone()
        getattr(d, name)(2)
        h = x.clone()
        getattr(h, name)(0.5)
        outs += [a, b, c, d, h]
    k = x.clone()
    k.eq_(1.5)
    return (*outs, k)


@case("inplace_logical", ["logical_and.default", "logical_or.default", "logical_xor.default",
                          "logical_not.default", "_to_copy.default"],
      lambda g, d: (grid(g, 3, 4), grid(g, 4), ri(g, -2, 3, 3, 4), rb(g, 3, 4), rb(g, 4), rn(g, 0)))
def _(self, x, y, i, m, n, e):
    """logical_and_ / or_ / xor_ / not_ written into float32 (1.0 / 0.0; zeros and negatives), int64 (against
    a float tensor) and bool tensors (no conversion), and into an empty one."""
    outs = []
    for name in ("logical_and_", "logical_or_", "logical_xor_"):
        a = x.clone()
        getattr(a, name)(y)
        b = i.clone()
        getattr(b, name)(y)
        c = m.clone()
        getattr(c, name)(n)
        outs += [a, b, c]
    for t in (x, i, m, e):
        a = t.clone()
        a.logical_not_()
        outs.append(a)
    return tuple(outs)


@case("inplace_metadata", ["unsqueeze.default", "squeeze.default", "squeeze.dim", "squeeze.dims",
                           "transpose.int", "t.default", "as_strided.default", "as_strided_scatter.default",
                           "select.int", "view.default"],
      lambda g, d: (rn(g, 2, 3), rn(g, 2, 1, 3, 1), ri(g, -5, 6, 3, 4), rn(g), rn(g, 0, 3)))
def _(self, x, u, i, s, e):
    """Metadata-changing in-place ops rebound as their out-of-place views: unsqueeze_, squeeze_ (all dims, one
    unit dim, a non-unit dim: no change, a list of dims), transpose_, t_, swapdims_ / swapaxes_, as_strided_,
    then writes (mul_, add_) that later reads see with the new shape; a view taken before (select) reads the
    written storage; int64, 0-d and empty tensors."""
    a = x.clone()
    v = a[0]
    a.unsqueeze_(0)
    a.mul_(2)
    a.transpose_(1, 2)
    a.add_(1)
    b = u.clone()
    b.squeeze_()
    b.mul_(3)
    c = u.clone()
    c.squeeze_(1)
    c.squeeze_(0)
    c.add_(1)
    c.squeeze_((0, 2))
    c.mul_(-1)
    d = i.clone()
    d.swapdims_(0, 1)
    d.mul_(3)
    d.swapaxes_(1, 0)
    d.sub_(1)
    t = x.clone()
    t.t_()
    t.mul_(2)
    z = s.clone()
    z.unsqueeze_(0)
    z.add_(1)
    z0 = s.clone()
    z0.t_()
    w = e.clone()
    w.t_()
    w.unsqueeze_(-1)
    f = x.clone()
    f.as_strided_((2, 2), (1, 2))
    f.add_(1)
    return a, v, b, c, d, t, z, z0, w, f


@case("inplace_renamed_overloads", ["pow.Tensor_Scalar", "pow.Tensor_Tensor", "float_power.Tensor_Scalar",
                                    "floor_divide.default", "ldexp.Tensor",
                                    "polygamma.default", "__and__.Tensor", "__or__.Tensor", "__xor__.Tensor",
                                    "__lshift__.Scalar", "__rshift__.Scalar"],
      lambda g, d: (pos(g, 3, 4), rn(g, 4), ri(g, -5, 6, 3, 4), ri(g, 0, 4, 4), nz(g, 3, 4),
                    torch.randint(1, 5, (3, 4), generator=g) * torch.where(torch.rand(3, 4, generator=g) < 0.5, -1, 1),
                    ri(g, -3, 4, 3, 4), rb(g, 3, 4), rb(g, 4), rn(g)))
def _(self, p, y, i, k, q, j, ex, m, n, s):
    """In-place overloads whose functional overload has another name: pow_.Scalar / pow_.Tensor (float and
    int64), float_power_ (float64), floor_divide_.Tensor / .Scalar (negatives, float and int64), ldexp_ (int64
    exponents), polygamma_, and Python's in-place operators &=, |=, ^=, <<=, >>= (int64, bool); a 0-d one."""
    a = p.clone()
    a.pow_(2.5)
    b = p.clone()
    b.pow_(y)
    c = i.clone()
    c.pow_(2)
    c2 = i.clone()
    c2.pow_(k)
    d = p.clone().double()
    d.float_power_(1.5)
    d = d.float()
    f = q.clone()
    f.floor_divide_(q[0] * 0.7)
    h = i.clone()
    h.floor_divide_(j)
    h2 = i.clone()
    h2.floor_divide_(-2)
    ld = q.clone()
    ld.ldexp_(ex)
    pg = p.clone()
    pg.polygamma_(1)
    z = s.clone()
    z.pow_(2)
    bi = i.clone()
    bi &= j
    bi |= k
    bi ^= j
    bi <<= 2
    bi >>= 1
    bb = m.clone()
    bb &= n
    bb |= m
    bb ^= n
    return a, b, c, c2, d, f, h, h2, ld, pg, z, bi, bb


@case("inplace_promoting", ["clamp.Tensor", "add.Tensor", "sub.Tensor", "mul.Tensor", "floor_divide.default",
                            "remainder.Tensor", "__and__.Tensor", "bitwise_left_shift.Tensor", "_to_copy.default"],
      lambda g, d: (_i(g, 0, 256, 3, 4, dtype=torch.uint8), _i(g, -300, 300, 3, 4, dtype=torch.int32),
                    rn(g, 3, 4), rn(g, 4), _i(g, -128, 128, 3, 4, dtype=torch.int8),
                    _i(g, -1000, 1000, 3, 4) + 1001 * (torch.rand(3, 4, generator=g) < 0.5),
                    _i(g, -2 ** 31, 2 ** 31, 3, 4, dtype=torch.int32), _i(g, -2 ** 40, 2 ** 40, 3, 4), rn(g),
                    _i(g, -2 ** 15, 2 ** 15, 3, 4, dtype=torch.int16), _i(g, 0, 5, 3, 4)))
def _(self, u8, i32, x, y, i8, big, w32, w64, s, i16, sh):
    """In-place ops whose other tensor operand has a wider dtype of the same kind: torch computes in the promoted
    dtype and writes the result converted to the tensor's (clamp_ of uint8 by int32 bounds, add_ of a float64
    tensor into float32, floor_divide_ / remainder_ / &= of int8 by int64 values beyond its range, mul_ of int32
    by int64 wrapping, uint8 + int8 in int16, int16 << int64); a 0-d float64 operand does not promote."""
    a = u8.clone()
    a.clamp_(min=i32 // 2, max=i32)
    b = x.clone()
    b.add_(y.double() * 1.0000001, alpha=3)
    c = x.clone()
    c.sub_(s.double() / 3)
    d = i8.clone()
    d.floor_divide_(big)
    e = i8.clone()
    e.remainder_(big)
    f = i8.clone()
    f &= big
    h = w32.clone()
    h.mul_(w64)
    k = u8.clone()
    k.add_(i8)
    m = i16.clone()
    m.bitwise_left_shift_(sh)
    return a, b, c, d, e, f, h, k, m


# ==========================================================================
# Integer reductions with a narrow dtype=: torch accumulates in the requested
# dtype, wrapping around (two's complement); ONNX ReduceSum / ReduceProd have
# no 8- or 16-bit integer types and onnxruntime's integer ReduceSum /
# ReduceProd saturate on overflow. Computed wide, cast back (Cast wraps).
# ==========================================================================


def _narrow_inputs(g, d):
    return (_i(g, -128, 128, 4, 40, dtype=torch.int8), _i(g, 0, 256, 4, 40, dtype=torch.uint8),
            _i(g, -2 ** 15, 2 ** 15, 4, 40, dtype=torch.int16), _i(g, -2 ** 31, 2 ** 31, 4, 40, dtype=torch.int32),
            _i(g, -2 ** 40, 2 ** 40, 4, 40), rb(g, 4, 40), rn(g, 0, 5))


@case("intred_sum_narrow", ["sum.default", "sum.dim_IntList", "nansum.default"], _narrow_inputs)
def _(self, a8, u8, a16, a32, a64, b, e):
    """sum(dtype=) of int8 / uint8 / int16 / int32 / int64 / bool inputs into int8, uint8, int16, int32 (full
    range values: every sum overflows its dtype, torch's wrap-around), over all dims and over dims with
    keepdim; an int32 sum of int32 (onnxruntime's int32 ReduceSum saturates); a bool sum (any); nansum of
    ints with dtype=; a 0-d and an empty one."""
    i8, u8t, i16, i32 = torch.int8, torch.uint8, torch.int16, torch.int32
    return (a8.sum(dtype=i8), a8.sum(dtype=i16), a8.sum(1, dtype=u8t), u8.sum(dtype=i8),
            u8.sum(0, keepdim=True, dtype=u8t), u8.sum(dtype=i16), a16.sum(dtype=i16), a16.sum(1, dtype=i8),
            a16.sum((0, 1), dtype=u8t), a32.sum(dtype=i32), a32.sum(1, dtype=i32), a32.sum(0, dtype=i16),
            a64.sum(dtype=i32), a64.sum(1, dtype=i8), b.sum(dtype=i8), b.sum(1, dtype=i16), a8.sum(1, dtype=torch.bool),
            a8[0, 0].sum(dtype=i8), a8[0, 0].sum(0, dtype=i16), e.sum(dtype=i16), e.sum(1, dtype=i8),
            torch.nansum(a16, dtype=i8), torch.nansum(a8, 1, dtype=i16))


@case("intred_prod_narrow", ["prod.default", "prod.dim_int"],
      lambda g, d: (*_narrow_inputs(g, d), torch.randint(1, 10, (3, 40), generator=g) *
                    torch.where(torch.rand(3, 40, generator=g) < 0.5, -1, 1)))
def _(self, a8, u8, a16, a32, a64, b, e, n):
    """prod(dtype=) into int8, uint8, int16, int32 and int64 products that overflow (wrap-around, like torch;
    onnxruntime's ReduceProd saturates), the default int64 product of int64 values overflowing, of int32 and
    bool inputs; over a dim with keepdim; a bool product (all); a 0-d and an empty one."""
    i8, u8t, i16, i32 = torch.int8, torch.uint8, torch.int16, torch.int32
    return (a8.prod(dtype=i8), a8.prod(1, dtype=i16), u8.prod(0, keepdim=True, dtype=u8t), u8.prod(dtype=i8),
            a16.prod(1, dtype=i16), a32.prod(1, dtype=i32), a32.prod(dtype=i8), a64.prod(1, dtype=i16),
            n.prod(), n.prod(1), n.prod(0, keepdim=True), n.to(i32).prod(1), b.prod(1), b.prod(dtype=i8),
            n.prod(1, dtype=torch.bool), a8[0, 0].prod(dtype=i8), a8[0, 0].prod(0, dtype=i16),
            e.prod(dtype=i16), e.prod(1, dtype=i8), e.prod(0, dtype=i32))


@case("intred_scan_narrow", ["cumsum.default", "cumprod.default"], _narrow_inputs)
def _(self, a8, u8, a16, a32, a64, b, e):
    """cumsum / cumprod with dtype= int8, uint8, int16, int32 of int8 / uint8 / int16 / int32 / int64 / bool
    inputs, overflowing (wrap-around); the default int64 cumprod of int32 values overflowing; empty ones."""
    i8, u8t, i16, i32 = torch.int8, torch.uint8, torch.int16, torch.int32
    return (a8.cumsum(1, dtype=i8), a8.cumsum(0, dtype=i16), u8.cumsum(1, dtype=u8t), a16.cumsum(1, dtype=i16),
            a32.cumsum(1, dtype=i32), a64.cumsum(1, dtype=i8), b.cumsum(1, dtype=i16),
            a8.cumprod(1, dtype=i8), u8.cumprod(1, dtype=u8t), a16.cumprod(1, dtype=i16), a32.cumprod(1, dtype=i32),
            a32.cumprod(1), a64.cumprod(1, dtype=i16), e.cumsum(1, dtype=i8), e.cumprod(0, dtype=i16))


@case("index_add_bool", ["index_add.default"],
      lambda g, d: (rb(g, 5, 3), rb(g, 4, 3), ri(g, 0, 5, 4)))
def _(self, x, src, idx):
    """index_add on bool tensors: alpha=True ORs the scattered rows in (duplicate indices too), alpha=False
    adds nothing (self as it is); the in-place form as well."""
    a = torch.ops.aten
    y = x.clone()
    y.index_add_(0, idx, src, alpha=False)
    return a.index_add(x, 0, idx, src), a.index_add(x, 0, idx, src, alpha=False), y
