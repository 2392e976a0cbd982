# Elementwise math, comparison / logic and reduction cases (imported by
# tools/capture/capture_op_tests.py; `case`, `rn`, `ri`, `pos`, `nz`, `rb`, `ur`,
# `grid`, `EXPLICIT` come from op_case_lib). Every case name starts with `math_`, so
# `ATEN2ONNX_ONLY=math_` runs them all.
#
# Captured outputs must be finite: outputs that are NaN / inf on purpose go
# through `_fin` (NaN -> -77, +-inf -> +-777), which keeps the NaN / inf
# positions checked exactly.

from __future__ import annotations

import torch
import torch.nn.functional as F

from op_case_lib import EXPLICIT, case, finite_marked, grid, nz, nzi, pos, rb, ri, rn, ur, with_specials

NAN = float("nan")
INF = float("inf")


def _nan_rows(g):
    """[4,5]: row 0 plain, row 1 with a NaN (after a larger value), row 2
    with +inf then NaN, row 3 all -inf."""
    x = rn(g, 4, 5)
    x[1, 3] = NAN
    x[1, 1] = 9.0
    x[2, 0] = INF
    x[2, 2] = NAN
    x[3, :] = -INF
    return x


# ==========================================================================
# Silent-wrong fixes: NaN propagation, any/all on floats, 0-d reductions
# ==========================================================================


@case("math_nan_max_min", ["max.dim", "min.dim", "max.default", "min.default", "amax.default", "amin.default",
                           "argmax.default", "argmin.default"],
      lambda g, d: (_nan_rows(g), rn(g, 3, 4)))
def _(self, x, y):
    """NaN propagation like torch: max/min/amax/amin of a row holding a NaN is NaN and argmax/argmin/max.dim
    indices point at the (first) NaN; a row of -inf; rows with +inf; whole-tensor max/min with and without
    NaN; argmax/argmin over the flattened tensor and with keepdim."""
    mx = x.max(dim=1)
    mn = x.min(dim=1)
    return (finite_marked(mx.values), mx.indices, finite_marked(mn.values), mn.indices,
            finite_marked(x.max()), finite_marked(x.min()), y.max(), y.min(),
            finite_marked(torch.amax(x, 1)), finite_marked(torch.amin(x, 1, keepdim=True)), finite_marked(torch.amax(x, (0, 1))),
            torch.argmax(x, 1), torch.argmin(x, 1), torch.argmax(x), torch.argmin(y),
            torch.argmax(y, 0, keepdim=True), torch.argmin(x, -1, keepdim=True))


@case("math_nan_maximum_minimum", ["maximum.default", "minimum.default", "max.other", "min.other",
                                   "fmax.default", "fmin.default", "clamp.default", "clamp_min.default",
                                   "clamp_max.default"],
      lambda g, d: (with_specials(g, 2, 5), with_specials(g, 2, 5).reshape(-1)[[3, 1, 8, 4, 2]]))
def _(self, x, y):
    """Elementwise maximum/minimum (and max/min with a tensor) propagate NaN; fmax/fmin take the other side;
    clamp of NaN is NaN; inf operands."""
    return (finite_marked(torch.maximum(x, y)), finite_marked(torch.minimum(x, y)), finite_marked(torch.max(x, y)), finite_marked(torch.min(x, y)),
            finite_marked(torch.fmax(x, y)), finite_marked(torch.fmin(x, y)), finite_marked(x.clamp(-1.0, 1.0)), finite_marked(torch.clamp_min(x, 0.0)),
            finite_marked(torch.clamp_max(x, 0.5)))


@case("math_any_all_float", ["any.default", "any.dim", "any.dims", "all.default", "all.dim", "all.dims"],
      lambda g, d: (torch.tensor([[0.5, 0.0, -0.25], [0.0, 0.0, 0.0], [NAN, 0.0, 0.0], [0.1, 0.2, -0.9]]),
                    ri(g, -1, 2, 3, 4), rb(g, 2, 3, 2)))
def _(self, x, a, m):
    """any/all of float values in (-1, 1) are true when non-zero (was: cast to int64 first); NaN is true;
    any.dims / all.dims with several dims, keepdim and the empty dim list (no reduction); int64 and bool."""
    return (x.any(), x.all(), x.any(1), x.all(1), x.any(0, keepdim=True), torch.any(x, (0, 1)),
            torch.all(x, (1,), keepdim=True), torch.any(x, ()), torch.all(x, ()),
            a.any(1), a.all(0), torch.any(a, (0, 1)), m.any(2), m.all((0, 2)), torch.all(m, (), keepdim=True))


@case("math_reduce_0d", ["sum.dim_IntList", "sum.default", "mean.dim", "amax.default", "amin.default",
                         "argmax.default", "argmin.default", "max.dim", "min.dim", "any.dim", "all.dim",
                         "prod.dim_int", "prod.default", "softmax.int", "log_softmax.int", "cumsum.default",
                         "cumprod.default", "logsumexp.default"],
      lambda g, d: (rn(g, 1).reshape(()), ri(g, -5, 6, 1).reshape(())))
def _(self, x, a):
    """Reductions, softmax, log_softmax, cumsum/cumprod, argmax and logsumexp with dim=0 / dim=-1 on 0-d
    tensors (onnxruntime refuses axis 0 on rank 0: the rules lift to 1 element), with keepdim."""
    return (x.sum(0), x.sum(-1, keepdim=True), x.sum(), x.mean(0), torch.amax(x, 0), torch.amin(x, -1),
            x.argmax(0), x.argmin(-1, keepdim=True), x.argmax(), x.max(0).values, x.max(0).indices,
            x.min(-1).values, x.any(0), x.all(-1), x.prod(0), x.prod(), torch.softmax(x, 0),
            torch.log_softmax(x, -1), x.cumsum(0), x.cumprod(-1), torch.logsumexp(x, 0), a.sum(0), a.prod(-1),
            a.cumsum(0), a.argmax(0), torch.amax(a, 0))


@case("math_reduce_0d_core", ["sum.dim_IntList", "_softmax.default", "_log_softmax.default", "cumsum.default",
                              "amax.default", "argmax.default", "max.dim"],
      lambda g, d: (rn(g, 1).reshape(()),), ir="ATEN")
def _(self, x):
    """The core-ATen forms on 0-d tensors: _softmax / _log_softmax / sum.dim_IntList / max.dim with dim 0."""
    return (torch.softmax(x, 0), torch.log_softmax(x, -1), x.sum(0), x.cumsum(0), torch.amax(x, 0), x.argmax(0),
            x.max(0).values)


@case("math_nan_softmax_sum", ["softmax.int", "log_softmax.int", "sum.dim_IntList", "mean.dim", "cumsum.default",
                               "prod.dim_int"],
      lambda g, d: (_nan_rows(g),))
def _(self, x):
    """NaN and inf through softmax / log_softmax / sum / mean / cumsum / prod (torch gives NaN rows)."""
    return (finite_marked(torch.softmax(x, 1)), finite_marked(torch.log_softmax(x, 1)), finite_marked(x.sum(1)), finite_marked(x.mean(1)),
            finite_marked(x.cumsum(1)), finite_marked(x.prod(1)))


# ==========================================================================
# Trigonometric, hyperbolic, logarithmic families (float and int inputs)
# ==========================================================================


@case("math_trig", ["acos.default", "asin.default", "atan.default", "tan.default", "cosh.default", "sinh.default",
                    "acosh.default", "asinh.default", "atanh.default", "sin.default", "cos.default"],
      lambda g, d: (ur(g, -0.99, 0.99, 2, 5), ur(g, 1.0, 4.0, 2, 5), ur(g, -3, 3, 2, 5), ri(g, -3, 4, 2, 5)))
def _(self, x, big, w, a):
    """Inverse trig on (-1, 1), acosh on [1, 4), tan/cosh/sinh/asinh/atan on [-3, 3); int64 inputs promoted
    to float (out-of-domain ints give NaN, checked through _fin)."""
    return (torch.acos(x), torch.asin(x), torch.atan(w), torch.tan(x), torch.cosh(w), torch.sinh(w),
            torch.acosh(big), torch.asinh(w), torch.atanh(x),
            finite_marked(torch.acos(a)), finite_marked(torch.asin(a)), torch.atan(a), torch.tan(a), torch.cosh(a), torch.sinh(a),
            finite_marked(torch.acosh(a)), torch.asinh(a), finite_marked(torch.atanh(a)), torch.sin(a), torch.cos(a))


@case("math_trig_specials", ["acos.default", "asin.default", "atan.default", "tan.default", "cosh.default",
                             "sinh.default", "acosh.default", "asinh.default", "atanh.default", "atan2.default"],
      lambda g, d: (with_specials(g, 2, 5), torch.tensor([1.0, -1.0, 0.0, -0.0, 2.0, -2.0, 1e-7, 50.0])))
def _(self, x, e):
    """NaN, +-inf, +-0 and domain edges (+-1, beyond) through the trig and hyperbolic families; atan2 with
    zeros of both signs and infinities."""
    return tuple(finite_marked(f(t)) for t in (x, e) for f in (torch.acos, torch.asin, torch.atan, torch.tan, torch.cosh,
                                                      torch.sinh, torch.acosh, torch.asinh, torch.atanh)) + (
        finite_marked(torch.atan2(x, x.flip(1))), finite_marked(torch.atan2(e, e.flip(0))))


@case("math_atan2", ["atan2.default"],
      lambda g, d: (rn(g, 2, 3), rn(g, 3), ri(g, -3, 4, 2, 3)))
def _(self, y, x, a):
    """atan2 over all four quadrants with broadcasting; int64 operands promoted."""
    return torch.atan2(y, x), torch.atan2(a, x), torch.atan2(y, torch.zeros_like(y))


@case("math_logs", ["log10.default", "log2.default", "exp2.default", "expm1.default", "log1p.default",
                    "special_exp2.default", "special_expm1.default", "special_log1p.default",
                    "special_expit.default"],
      lambda g, d: (pos(g, 2, 5), rn(g, 2, 5), ri(g, 0, 9, 2, 5),
                    torch.tensor([1e-8, -1e-8, 1e-4, -3e-6, 0.0, 80.0, -80.0, 100.0])))
def _(self, p, x, a, tiny):
    """log10/log2 of positive floats and int64 (log of 0 is -inf), exp2, expm1/log1p accurate for tiny
    arguments (relative), special_* aliases."""
    return (torch.log10(p), torch.log2(p), finite_marked(torch.log10(a)), finite_marked(torch.log2(a)), torch.exp2(x),
            torch.exp2(a), torch.expm1(x), torch.log1p(p), finite_marked(torch.expm1(tiny) * 1e6), finite_marked(torch.log1p(tiny) * 1e6),
            torch.special.exp2(x), torch.special.expm1(x), torch.special.log1p(p), torch.special.expit(x))


@case("math_erfc", ["erfc.default", "special_erfc.default"],
      lambda g, d: (ur(g, -4, 4, 3, 5), torch.tensor([0.0, 0.49, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 9.0])))
def _(self, x, t):
    """erfc on [-4, 4) and in the tail (erfc(9) = 4e-37: scaled so that a relative error shows)."""
    e = torch.erfc(t)
    return torch.erfc(x), torch.special.erfc(x), e, e * torch.exp(t * t)


# ==========================================================================
# Predicates
# ==========================================================================


@case("math_is_float_class", ["isnan.default", "isinf.default", "isfinite.default", "isposinf.default",
                              "isneginf.default", "signbit.default"],
      lambda g, d: (with_specials(g, 2, 5), ri(g, -3, 4, 2, 3), rb(g, 2, 3)))
def _(self, x, a, m):
    """isnan/isinf/isfinite/isposinf/isneginf/signbit on NaN, +-inf, -0.0 and +0.0; int64 and bool inputs."""
    return (torch.isnan(x), torch.isinf(x), torch.isfinite(x), torch.isposinf(x), torch.isneginf(x),
            torch.signbit(x), torch.isnan(a), torch.isinf(a), torch.isfinite(a), torch.isposinf(a),
            torch.isneginf(a), torch.signbit(a), torch.isnan(m), torch.isfinite(m), torch.signbit(m))


@case("math_is_core", ["isnan.default", "eq.Scalar", "ne.Scalar", "abs.default"],
      lambda g, d: (with_specials(g, 2, 5),), ir="ATEN")
def _(self, x):
    """Core ATen decomposes isfinite/isposinf/isneginf into isinf, eq/ne and abs: NaN and inf still right."""
    return torch.isfinite(x), torch.isposinf(x), torch.isneginf(x), torch.isnan(x)


# ==========================================================================
# Logic and bitwise
# ==========================================================================


@case("math_logical_xor", ["logical_xor.default"],
      lambda g, d: (rb(g, 2, 3), rb(g, 3), torch.tensor([0.0, 0.5, -0.25, NAN]), ri(g, -1, 2, 4)))
def _(self, m, n, x, a):
    """logical_xor of bools with broadcasting, of floats (0.5 and NaN are true) and int64."""
    return torch.logical_xor(m, n), torch.logical_xor(x, a), torch.logical_xor(a, m[0, :1])


@case("math_bitwise_ops", ["__xor__.Tensor", "__xor__.Scalar", "__and__.Scalar", "__or__.Scalar",
                           "__lshift__.Scalar", "__rshift__.Scalar", "__lshift__.Tensor", "__rshift__.Tensor",
                           "bitwise_left_shift.Tensor", "bitwise_right_shift.Tensor",
                           "bitwise_left_shift.Tensor_Scalar", "bitwise_right_shift.Tensor_Scalar"],
      lambda g, d: (ri(g, -100, 100, 2, 4), ri(g, -100, 100, 4), ri(g, 0, 8, 2, 4), rb(g, 2, 4), rb(g, 4)))
def _(self, a, b, s, m, n):
    """^, & and | with Python ints and tensors, bool ^ bool; << and >> of negative and positive int64 by
    scalars and tensors (arithmetic right shift), shifts by 64 and more give 0 / -1 like torch."""
    big = torch.full_like(s, 64) + s
    return (a ^ b, a ^ 5, m ^ n, m ^ True, a & 6, a | 9, a << 3, a >> 2, a << s, a >> s,
            torch.bitwise_left_shift(a, s), torch.bitwise_right_shift(a, s), torch.bitwise_left_shift(a, 2),
            torch.bitwise_right_shift(a, 1), a << big, a >> big)


@case("math_bitwise_core", ["bitwise_xor.Tensor", "bitwise_xor.Scalar", "bitwise_and.Scalar",
                            "bitwise_or.Scalar"],
      lambda g, d: (ri(g, -100, 100, 2, 4), ri(g, -100, 100, 4), rb(g, 2, 4)), ir="ATEN")
def _(self, a, b, m):
    """Core ATen names of ^ & | with tensors and Python ints; bool xor."""
    return a ^ b, a ^ 7, a & 12, a | 3, m ^ m.flip(1)


# ==========================================================================
# Division family
# ==========================================================================


@case("math_fmod", ["fmod.Tensor", "fmod.Scalar"],
      lambda g, d: (ur(g, -6, 6, 2, 5), nz(g, 5), ri(g, -9, 10, 2, 5), nzi(g, 5)))
def _(self, x, y, a, b):
    """C fmod: the result takes the dividend's sign, floats and int64, tensor and Python-number divisors
    (negative too); fmod by 0.0 is NaN; inf dividend NaN, inf divisor keeps x."""
    z = torch.tensor([0.0, INF, -INF, 2.0, NAN])
    return (torch.fmod(x, y), torch.fmod(x, 1.5), torch.fmod(x, -2), torch.fmod(a, b), torch.fmod(a, 3),
            torch.fmod(a, -4), finite_marked(torch.fmod(x[:, :5], z)), finite_marked(torch.fmod(z, 2.0)), torch.fmod(x, b))


@case("math_div_modes", ["div.Tensor_mode", "div.Scalar_mode", "floor_divide.default", "floor_divide.Scalar",
                         "remainder.Tensor", "remainder.Scalar"],
      lambda g, d: (ur(g, -5, 5, 2, 4), nz(g, 4), ri(g, -9, 10, 2, 4), nzi(g, 4),
                    torch.tensor([1.0, -1.0, 0.3, -0.3, 7.0, 5.0, 0.0, 1e-30]),
                    torch.tensor([0.1, 0.1, 0.1, 0.1, 0.7, -0.5, 0.0, 3.0])))
def _(self, x, y, a, b, p, q):
    """floor/trunc division and remainder, floats and ints, negative operands, Python-number divisors;
    torch's float floor division rounds the exact quotient (1.0 // 0.1 == 9), 0.0 // 0.0 is NaN;
    div.Scalar_mode and floor_divide.Scalar called explicitly."""
    return (torch.div(x, y, rounding_mode="floor"), torch.div(x, y, rounding_mode="trunc"),
            torch.div(a, b, rounding_mode="floor"), torch.div(a, b, rounding_mode="trunc"),
            torch.ops.aten.div.Scalar_mode(x, 3, rounding_mode="floor"),
            torch.ops.aten.div.Scalar_mode(a, -3, rounding_mode="floor"),
            torch.ops.aten.div.Scalar_mode(a, 4, rounding_mode="trunc"),
            torch.ops.aten.div.Scalar_mode(x, -0.7, rounding_mode="trunc"),
            torch.floor_divide(x, y), a // b, torch.ops.aten.floor_divide.Scalar(a, 3),
            torch.ops.aten.floor_divide.Scalar(x, -1.5), finite_marked(p // q), finite_marked(torch.remainder(p, q)),
            torch.remainder(x, y), torch.remainder(a, b), torch.remainder(x, 0.7), torch.remainder(a, -3))


# ==========================================================================
# Composite math
# ==========================================================================


@case("math_logaddexp_logsumexp", ["logaddexp.default", "logaddexp2.default", "logsumexp.default",
                                   "special_logsumexp.default"],
      lambda g, d: (rn(g, 2, 4) * 30, rn(g, 4) * 30, _nan_rows(g)))
def _(self, x, y, r):
    """logaddexp/logaddexp2 with large operands (no overflow), -inf/-inf, inf/inf, NaN; logsumexp stable over
    one and several dims, keepdim, rows of -inf (gives -inf), +inf, NaN; special_logsumexp."""
    e = torch.tensor([-INF, INF, -INF, 1.0, NAN, 1000.0])
    f = torch.tensor([-INF, INF, 2.0, INF, 1.0, 1000.0])
    return (torch.logaddexp(x, y), torch.logaddexp2(x, y), finite_marked(torch.logaddexp(e, f)),
            finite_marked(torch.logaddexp2(e, f)), torch.logsumexp(x, 1), torch.logsumexp(x * 10, (0, 1), keepdim=True),
            finite_marked(torch.logsumexp(r, 1)), finite_marked(torch.logsumexp(r, -1, keepdim=True)),
            torch.special.logsumexp(x, 0))


@case("math_log_sigmoid_logit", ["log_sigmoid.default", "logit.default", "special_logit.default"],
      lambda g, d: (rn(g, 2, 5) * 40, ur(g, 0.01, 0.99, 2, 5), ur(g, -0.5, 1.5, 2, 5)))
def _(self, x, p, w):
    """log_sigmoid stable for large |x| (-100 gives -100, not -inf); logit with and without eps (eps clamps
    into [eps, 1 - eps]); out-of-range logit is NaN; special_logit."""
    return (F.logsigmoid(x), torch.logit(p), torch.logit(w, 0.05), finite_marked(torch.logit(w)),
            torch.special.logit(p, 1e-3), torch.special.logit(p))


@case("math_cumprod", ["cumprod.default"],
      lambda g, d: (nz(g, 3, 7), ri(g, -3, 4, 2, 9), rb(g, 2, 5)))
def _(self, x, a, m):
    """cumprod along each dim, negative dim, int64 (exact) and bool inputs, zeros in the scan, NaN/inf."""
    z = x.clone()
    z[1, 2] = 0.0
    z[2, 1] = NAN
    z[0, 4] = INF
    return (x.cumprod(1), x.cumprod(0), x.cumprod(-1), a.cumprod(1), m.cumprod(1), finite_marked(z.cumprod(1)),
            torch.cumprod(a, 0, dtype=torch.float32))


@case("math_hypot_xlogy", ["hypot.default", "xlogy.Tensor", "xlogy.Scalar_Self", "xlogy.Scalar_Other",
                           "special_xlogy.default", "special_xlogy.self_scalar", "special_xlogy.other_scalar"],
      lambda g, d: (rn(g, 2, 4), rn(g, 4), pos(g, 2, 4), ri(g, 0, 3, 2, 4)))
def _(self, x, y, p, k):
    """hypot with broadcasting, huge operands (no overflow), inf with NaN (inf); xlogy with x == 0 (0, even
    for y == 0), y NaN (NaN), Python-number sides, int64 x; special_xlogy."""
    h = torch.tensor([3e30, -3e30, 0.0, INF, NAN, 0.0])
    v = torch.tensor([4e30, 1.0, 0.0, NAN, 1.0, -0.0])
    z = torch.tensor([0.0, 0.0, 0.0, 2.0, 1.5])
    w = torch.tensor([0.0, NAN, 2.0, 0.0, INF])
    return (torch.hypot(x, y), finite_marked(torch.hypot(h, v)), torch.xlogy(x, p), torch.xlogy(k, p),
            finite_marked(torch.xlogy(z, w)), torch.xlogy(2.0, p), torch.xlogy(x, 3.0), torch.special.xlogy(k, p),
            torch.special.xlogy(2.0, p), torch.special.xlogy(x, 3.0), torch.special.xlogy(0.0, p))


@case("math_elementwise_misc", ["frac.default", "deg2rad.default", "rad2deg.default", "nan_to_num.default",
                                "lerp.Scalar", "lerp.Tensor", "heaviside.default", "copysign.Tensor",
                                "copysign.Scalar", "sgn.default", "positive.default"],
      lambda g, d: (rn(g, 2, 5) * 3, rn(g, 5), ur(g, -1, 2, 2, 5), with_specials(g, 2, 5), grid(g, 2, 5)))
def _(self, x, y, w, s, z):
    """frac (negative values, inf -> NaN), deg2rad/rad2deg, nan_to_num with default (dtype max) and explicit
    replacements, lerp with scalar and tensor weights below/above 0.5, heaviside at 0 / NaN, copysign with
    -0.0 and NaN signs, sgn, positive."""
    return (torch.frac(x), finite_marked(torch.frac(s)), torch.deg2rad(x), torch.rad2deg(x),
            torch.nan_to_num(s) / 1e30, torch.nan_to_num(s, nan=1.0, posinf=2.0, neginf=-3.0),
            torch.lerp(x, y, 0.3), torch.lerp(x, y, 0.8), torch.lerp(x, y, w), torch.heaviside(z, y),
            finite_marked(torch.heaviside(s, y)), torch.copysign(x, s), torch.copysign(x, -1.0), torch.copysign(x, z),
            torch.sgn(x), torch.positive(x))


@case("math_float_power", ["float_power.Tensor_Tensor", "float_power.Tensor_Scalar", "float_power.Scalar"],
      lambda g, d: (pos(g, 2, 3), rn(g, 3), ri(g, -3, 4, 2, 3)))
def _(self, p, y, a):
    """float_power computes in float64 (results cast back to float32 for the capture): float and int64 bases,
    tensor / Python-number exponents, a number base."""
    return tuple(finite_marked(t.float()) for t in (torch.float_power(p, y), torch.float_power(a, 2), torch.float_power(p, 0.5),
                                     torch.float_power(2.5, y), torch.float_power(a, y)))


@case("math_clamp_tensor_bounds", ["clamp_min.Tensor", "clamp_max.Tensor"],
      lambda g, d: (rn(g, 2, 4), rn(g, 4), ri(g, -5, 6, 2, 4), ri(g, -2, 3, 4)))
def _(self, x, lo, a, b):
    """clamp_min / clamp_max with tensor bounds (broadcast), float and int64."""
    return torch.clamp_min(x, lo), torch.clamp_max(x, lo), torch.clamp_min(a, b), torch.clamp_max(a, b)


@case("math_prod_argmin", ["prod.default", "prod.dim_int", "argmin.default"],
      lambda g, d: (nz(g, 3, 4), ri(g, -3, 4, 3, 4), rb(g, 3, 4)))
def _(self, x, a, m):
    """prod over everything and one dim (float, int64, bool -> int64, with dtype=), argmin with ties (first
    index) over a dim and the flattened tensor."""
    return (x.prod(), a.prod(), m.prod(), x.prod(1), a.prod(0, keepdim=True), x.prod(dtype=torch.float32),
            x.argmin(1), a.argmin(0), a.argmin(), x.argmin(keepdim=True))


EXPLICIT["aten.div.Scalar_mode"] = ("`torch.div(x, 3, rounding_mode=...)` exports as `div.Tensor_mode`; explicit "
                                    "in `math_div_modes`")
EXPLICIT["aten.floor_divide.Scalar"] = "`x // 3` exports as `floor_divide.default`; explicit in `math_div_modes`"


# ==========================================================================
# Aliases and more reductions / scans
# ==========================================================================


@case("math_aliases", ["fix.default", "absolute.default", "negative.default", "true_divide.Tensor",
                       "true_divide.Scalar", "round.decimals", "special_round.default", "special_softmax.default",
                       "special_log_softmax.default", "sinc.default", "special_sinc.default",
                       "special_entr.default", "special_ndtr.default"],
      lambda g, d: (rn(g, 2, 5) * 3, nz(g, 5), ri(g, -5, 6, 2, 5), nzi(g, 5),
                    torch.tensor([0.0, 0.5, -1.0, 2.0, NAN, INF]), torch.tensor([-12.0, -9.0, -3.0, 0.0, 3.0, 9.0])))
def _(self, x, y, a, b, e, t):
    """fix / absolute / negative / true_divide (ints promoted, explicit .Scalar), round with decimals (2, 0,
    -1; ties to even), special_round, special_softmax / log_softmax with dtype, sinc at 0 and ints, special_entr
    at 0 / negative / NaN / inf, special_ndtr in both tails (torch itself underflows to 0 below about -8)."""
    nd = torch.special.ndtr(t)
    return (torch.fix(x), torch.absolute(a), torch.negative(x), torch.true_divide(x, y), torch.true_divide(a, b),
            torch.ops.aten.true_divide.Scalar(a, 4), torch.round(x, decimals=2), torch.round(x * 100, decimals=-1),
            torch.round(x, decimals=0), torch.special.round(x, decimals=1),
            torch.special.softmax(x, 1), torch.special.log_softmax(x, 0, dtype=torch.float32),
            torch.sinc(x), torch.sinc(a), torch.special.sinc(torch.zeros(3) + x[0, :3] * 0),
            finite_marked(torch.special.entr(e)), torch.special.entr(y.abs()), nd)


@case("math_count_aminmax_nan_reductions", ["count_nonzero.default", "count_nonzero.dim_IntList",
                                            "aminmax.default", "nansum.default", "nanmean.default"],
      lambda g, d: (_nan_rows(g), grid(g, 3, 4), ri(g, -1, 2, 3, 4)))
def _(self, x, z, a):
    """count_nonzero over all / one / several dims (NaN counts as non-zero), aminmax over all and one dim with
    keepdim (NaN propagates), nansum / nanmean skipping NaN (a row of only -inf)."""
    mm = torch.aminmax(z, dim=1, keepdim=True)
    m2 = torch.aminmax(x)
    m3 = torch.aminmax(x, dim=1)
    return (torch.count_nonzero(z), torch.count_nonzero(z, 1), torch.count_nonzero(a, dim=(0, 1)),
            torch.count_nonzero(x), mm.min, mm.max, finite_marked(m2.min), finite_marked(m2.max), finite_marked(m3.min), finite_marked(m3.max),
            finite_marked(torch.nansum(x)), finite_marked(torch.nansum(x, 1)), torch.nansum(a, 0), finite_marked(torch.nanmean(x, 1)),
            torch.nanmean(z, (0, 1), keepdim=True))


@case("math_cum_scans", ["cummax.default", "cummin.default", "logcumsumexp.default", "log_sigmoid_forward.default"],
      lambda g, d: (grid(g, 3, 7), ri(g, -3, 4, 2, 9), rn(g, 2, 6) * 30))
def _(self, z, a, w):
    """cummax / cummin with ties (the last tied index, like torch), NaN (sticks, last NaN index), int64;
    logcumsumexp with large and very small terms (no overflow, early terms kept) and -inf; log_sigmoid_forward
    (output and buffer) called explicitly."""
    n = z.clone()
    n[1, 2] = NAN
    n[1, 5] = NAN
    cm = z.cummax(1)
    cn = z.cummin(0)
    nm = n.cummax(1)
    nn_ = n.cummin(1)
    ai = a.cummax(1)
    e = torch.tensor([[-1000.0, 0.0, -INF, 5.0, -1000.0], [-INF, -INF, -INF, 1.0, 2.0]])
    o, buf = torch.ops.aten.log_sigmoid_forward(w)
    return (cm.values, cm.indices, cn.values, cn.indices, finite_marked(nm.values), nm.indices, finite_marked(nn_.values),
            nn_.indices, ai.values, ai.indices, a.cummin(-1).indices, torch.logcumsumexp(w, 1),
            torch.logcumsumexp(w, 0), finite_marked(torch.logcumsumexp(e, 1)), o, buf)


EXPLICIT["aten.true_divide.Scalar"] = "`torch.true_divide(x, 2)` exports as `true_divide.Tensor`; explicit in `math_aliases`"
EXPLICIT["aten.log_sigmoid_forward.default"] = ("`F.logsigmoid` exports as `log_sigmoid`; explicit in "
                                                "`math_cum_scans`")


# ==========================================================================
# Special functions (float64 formulas from ONNX ops)
# ==========================================================================


@case("math_special_functions", ["lgamma.default", "digamma.default", "erfinv.default", "i0.default",
                                 "special_gammaln.default", "special_psi.default", "special_digamma.default",
                                 "special_erfinv.default", "special_i0.default", "mvlgamma.default",
                                 "special_multigammaln.default", "polygamma.default"],
      lambda g, d: (ur(g, -6, 12, 3, 6), ur(g, -0.999, 0.999, 3, 6), ri(g, -3, 30, 2, 5),
                    torch.tensor([1e-30, 1e-6, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0, 171.5, 1e5, 1e30, 3e38]),
                    torch.tensor([-0.5, -1.5, -2.5, -1e-6, -3.3, -100.7, -1e5 + 0.25, 0.0, -0.0, -1.0, -7.0, INF]),
                    torch.tensor([0.0, 1e-7, 0.3, 0.9, 0.99, 0.999, 0.99999, 0.9999999, -0.9999999, 1.0, -1.0, 1.5]),
                    torch.tensor([0.0, 0.1, 1.0, 3.7, 3.8, 10.0, 30.0, 80.0, -5.0, -85.0, 100.0, NAN])))
def _(self, x, u, a, big, neg, e, b):
    """lgamma / digamma on [-6, 12), ints, tiny and huge arguments (lgamma(3e38) ~ 2.6e40 -> inf in float32),
    negative non-integers, poles (lgamma inf, digamma NaN / -inf at +0 / +inf at -0); erfinv over (-1, 1) and
    near +-1 (+-inf at +-1, NaN beyond); i0 small and large (overflows to inf past ~88); the special_* aliases;
    mvlgamma / multigammaln with p = 1, 2, 3; polygamma of order 0."""
    xm = x.abs() + 1.2
    return (finite_marked(torch.lgamma(x)), finite_marked(torch.digamma(x)), finite_marked(torch.lgamma(a)), finite_marked(torch.digamma(a)), finite_marked(torch.lgamma(big)),
            torch.digamma(big), finite_marked(torch.lgamma(neg)), finite_marked(torch.digamma(neg)), torch.erfinv(u),
            finite_marked(torch.erfinv(e)),
            torch.i0(x), finite_marked(torch.i0(b)), finite_marked(torch.special.gammaln(x)), finite_marked(torch.special.psi(x)),
            finite_marked(torch.special.digamma(x)), torch.special.erfinv(u), torch.special.i0(x), torch.mvlgamma(xm, 1),
            torch.mvlgamma(xm, 2), torch.mvlgamma(xm, 3), torch.special.multigammaln(xm, 2),
            finite_marked(torch.polygamma(0, x)))


@case("math_special_tails", ["special_erfcx.default", "special_log_ndtr.default", "special_i0e.default",
                             "special_ndtri.default"],
      lambda g, d: (ur(g, -4, 8, 3, 6), torch.tensor([-30.0, -9.0, -3.0, -1.0, -0.5, 0.0, 0.5, 3.0, 10.0, 1e4]),
                    torch.tensor([-40.0, -10.0, -2.0, -1.01, -0.99, 0.0, 1.0, 5.0, 8.0, 40.0]),
                    torch.tensor([0.0, 1.0, 3.75, 3.8, 50.0, 100.0, 700.0, 1e4, -20.0, -1e4]),
                    ur(g, 1e-4, 1 - 1e-4, 3, 6)))
def _(self, x, a, b, c, u):
    """erfcx (no overflow for large x, relative accuracy in the tail), log_ndtr in the lower tail (log of
    values far below float32's range) and near 0 from above, i0e for large |x| where I0 overflows; ndtri over
    (0, 1), tiny p, and 0 / 1 / outside (-inf, inf, NaN)."""
    p = torch.tensor([1e-30, 1e-10, 1e-3, 0.02, 0.5, 0.9, 0.999, 1 - 1e-7, 0.0, 1.0, 1.5, -0.1])
    return (torch.special.erfcx(x), finite_marked(torch.special.erfcx(a)), torch.special.log_ndtr(x),
            torch.special.log_ndtr(b), torch.special.i0e(x), torch.special.i0e(c),
            torch.special.ndtri(u), finite_marked(torch.special.ndtri(p)))


@case("math_var_std_mean", ["var_mean.dim", "std_mean.dim", "var_mean.correction", "std_mean.correction",
                            "var_mean.default", "std_mean.default"],
      lambda g, d: (rn(g, 3, 5),))
def _(self, x):
    """torch.var_mean / std_mean over one dim, unbiased and not, keepdim (TRAINING IR: the .dim overloads);
    the .correction overloads called explicitly."""
    v, m = torch.var_mean(x, 1)
    s, m2 = torch.std_mean(x, 0, unbiased=False, keepdim=True)
    v3, m3 = torch.ops.aten.var_mean.correction(x, [0, 1], correction=2)
    s4, m4 = torch.ops.aten.std_mean.correction(x, [1], keepdim=True)
    v5, m5 = torch.var_mean(x, unbiased=False)
    s6, m6 = torch.std_mean(x, True)
    return v, m, s, m2, v3, m3, s4, m4, v5, m5, s6, m6


@case("math_var_std_mean_core", ["var_mean.correction"], lambda g, d: (rn(g, 3, 5),), ir="ATEN")
def _(self, x):
    """Core ATen writes var_mean / std_mean as var_mean.correction (std as its sqrt)."""
    v, m = torch.var_mean(x, 1, correction=0)
    s, m2 = torch.std_mean(x, (0, 1), keepdim=True)
    return v, m, s, m2

EXPLICIT["aten.std_mean.correction"] = ("`torch.std_mean` exports as `std_mean.dim` (TRAINING) or `var_mean.correction` "
                                        "and `sqrt` (core ATen); explicit in `math_var_std_mean`")


@case("math_mean_empty", ["mean.dim", "mean.default", "var_mean.default", "sum.dim_IntList"],
      lambda g, d: (torch.zeros(0, 3), torch.zeros(0)))
def _(self, e, z):
    """Means over nothing are NaN like torch (onnxruntime's ReduceMean of an empty slice is 0); the sum of
    nothing is 0."""
    v, m = torch.var_mean(z, unbiased=False)
    return (finite_marked(e.mean(0)), finite_marked(z.mean()), finite_marked(v), finite_marked(m), e.sum(0))
