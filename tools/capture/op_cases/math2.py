# Issue 7 coverage: products, activations, losses and misc math (imported by
# tools/capture/capture_op_tests.py; `case`, `rn`, `ri`, `pos`, `rb`, ... come
# from op_case_lib). Every case name starts with `math2_`, so `ATEN2ONNX_ONLY=math2_`
# runs them all. Outputs that are NaN / inf on purpose go through `_fin2`
# (NaN -> -77, +-inf -> +-777), which keeps their positions checked exactly.

from __future__ import annotations

import torch
import torch.nn.functional as F

from op_case_lib import case, finite_marked, pos, rb, ri, rn, with_specials

NAN2 = float("nan")
INF2 = float("inf")


@case("math2_products", ["dot.default", "vdot.default", "mv.default", "outer.default", "inner.default",
                         "kron.default", "tensordot.default", "trace.default", "linalg_vecdot.default",
                         "linalg_multi_dot.default"],
      lambda g, d: (rn(g, 5), rn(g, 5), rn(g, 3, 5), rn(g, 2, 3, 4), rn(g, 4, 3), ri(g, -4, 5, 3, 3)))
def _(self, v, w, m, t, u, a):
    """dot / vdot of vectors; mv; outer; inner of a 3-d and a 2-d tensor and with a 0-d operand; kron of
    matrices and of a vector with a matrix; tensordot over two dims (one negative) and with no dims (outer
    product); trace of a float matrix with inf off the diagonal (must not leak) and of an int64 matrix;
    linalg.vecdot with broadcasting and dim=0; linalg.multi_dot with 1-d ends and of three matrices."""
    minf = m.clone()
    minf[0, 1] = INF2
    return (torch.dot(v, w), torch.vdot(v, w), torch.mv(m, v), torch.outer(v, w[:3]), torch.inner(t, m[:, :4]),
            torch.inner(v[0], m), torch.kron(m, u), torch.kron(v, u), torch.tensordot(t, u, dims=([-1, 1], [0, 1])),
            torch.tensordot(v[:2], w[:3], dims=0), torch.trace(minf[:, :3]), torch.trace(a),
            torch.linalg.vecdot(t, m[:, :4]), torch.linalg.vecdot(m, m, dim=0),
            torch.linalg.multi_dot([w, m.T, u.T, v[:4]]), torch.linalg.multi_dot([m, m.T, m]))


@case("math2_add_products", ["addmv.default", "addr.default", "baddbmm.default", "addbmm.default"],
      lambda g, d: (rn(g, 3), rn(g, 3, 4), rn(g, 4), rn(g, 2, 3, 4), rn(g, 2, 4, 5), rn(g, 3, 5)))
def _(self, s, m, v, b1, b2, s2):
    """beta * self + alpha * product: default, with beta/alpha, and beta=0 with NaN / inf in self (torch
    ignores self then) for addmv, addr, baddbmm (broadcast self), addbmm."""
    snan = s.clone()
    snan[1] = NAN2
    mnan = m.clone()
    mnan[2, 1] = NAN2
    s2nan = s2.clone()
    s2nan[0, 0] = INF2
    s2nan[1, 2] = NAN2
    return (torch.addmv(s, m, v), torch.addmv(s, m, v, beta=0.5, alpha=2.0), torch.addmv(snan, m, v, beta=0),
            torch.addr(m, s, v), torch.addr(m, s, v, beta=2.0, alpha=-1.0), torch.addr(mnan, s, v, beta=0),
            torch.addr(s2nan[:, :4], s, v, beta=0, alpha=3),
            torch.baddbmm(s2, b1, b2), torch.baddbmm(s2nan, b1, b2, beta=0, alpha=0.5),
            torch.baddbmm(s2[0], b1, b2, beta=-1.5),
            torch.addbmm(s2, b1, b2), torch.addbmm(s2nan, b1, b2, beta=0), torch.addbmm(s2[1], b1, b2, alpha=2))


@case("math2_power_vander", ["linalg_matrix_power.default", "linalg_vander.default"],
      lambda g, d: (rn(g, 2, 3, 3) * 0.7, ri(g, -2, 3, 3, 3), rn(g, 4)))
def _(self, x, a, v):
    """matrix_power with n = 0 (identity, batched), 1, 2, 3, 6 (torch's binary decomposition) on floats and
    int64; linalg.vander with the default N, N = 2 and N = 6, batched."""
    P = torch.linalg.matrix_power
    return (P(x, 0), P(x, 1), P(x, 2), P(x, 3), P(x, 6), P(a, 5), P(a, 0),
            torch.linalg.vander(v), torch.linalg.vander(v, N=2), torch.linalg.vander(x[0], N=6))


@case("math2_dist_renorm_bilinear", ["dist.default", "renorm.default", "bilinear.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 4), rn(g, 5, 3), rn(g, 5, 4), rn(g, 2, 3, 4), rn(g, 2)))
def _(self, x, y, a, b, w, bias):
    """dist with p = 2, 1, 0, inf, -inf, 3.5 (broadcast) and with a NaN (inf-norm propagates it); renorm
    over dims 0 / 1 with p = 2, 1, inf and a large maxnorm; bilinear with and without bias, batched and
    unbatched."""
    xn = x.clone()
    xn[1, 2] = NAN2
    return (torch.dist(x, y), torch.dist(x, y, 1), torch.dist(x, y, 0), torch.dist(x, y, INF2),
            torch.dist(x, y, -INF2), torch.dist(x, y, 3.5), finite_marked(torch.dist(xn, y, INF2)),
            finite_marked(torch.dist(xn, y, -INF2)), torch.renorm(x, 2, 0, 1.0), torch.renorm(x, 1, 1, 0.5),
            torch.renorm(x, INF2, 0, 0.8), torch.renorm(x, 2, -1, 100.0),
            F.bilinear(a, b, w, bias), F.bilinear(a, b, w), F.bilinear(a[0], b[0], w, bias))


@case("math2_activations", ["relu6.default", "selu.default", "celu.default", "hardshrink.default",
                            "softshrink.default", "threshold.default", "prelu.default", "rrelu.default"],
      lambda g, d: (with_specials(g, 3, 4) * 4, rn(g, 2, 3, 4, 5) * 3, rn(g, 3), ri(g, -9, 10, 4, 3)))
def _(self, x, y, w, a):
    """relu6 / selu / celu (alpha 1, 0.5, -2) / hardshrink (0.5, 1.5, -0.5) / softshrink (0.5, 0) /
    threshold (floats and int64) / rrelu in eval mode with NaN, +-inf and -0.0; prelu with a per-channel
    weight (4-d), one weight, 1-d and 0-d inputs."""
    return (finite_marked(F.relu6(x)), finite_marked(F.selu(x)), finite_marked(F.celu(x)), finite_marked(F.celu(x, 0.5)), finite_marked(F.celu(x, -2.0)),
            finite_marked(F.hardshrink(x)), finite_marked(F.hardshrink(x, 1.5)), finite_marked(F.hardshrink(x, -0.5)),
            finite_marked(F.softshrink(x)), finite_marked(F.softshrink(x, 0.0)), finite_marked(F.threshold(x, 0.3, -5.0)),
            F.threshold(a, 2, 100), finite_marked(F.rrelu(x, 0.1, 0.5, training=False)), F.rrelu(y, training=False),
            F.prelu(y, w), F.prelu(y, w[:1]), F.prelu(y[0, 0, 0], w[:1]), F.prelu(y[0, 0, 0, 0], w[0]),
            F.relu6(y), F.selu(y))


@case("math2_losses", ["cosine_embedding_loss.default", "multi_margin_loss.default",
                       "multilabel_margin_loss.default", "triplet_margin_loss.default"],
      lambda g, d: (rn(g, 4, 5), rn(g, 4, 5), rn(g, 4, 5),
                    torch.tensor([1, -1, 1, -1]), ri(g, 0, 5, 4), torch.tensor([[3, 0, -1, 1, 2], [0, 1, 2, 3, 4],
                                                                              [-1, 2, 3, 0, 0], [4, 4, -1, 2, 1]]),
                    pos(g, 5)))
def _(self, a, p, n, t, y, labels, w):
    """cosine_embedding_loss (margins, every reduction, unbatched); multi_margin_loss with p = 1 / 2, margin,
    weight, every reduction, unbatched (mean: for reduction='none' with a 0-d target torch's export meta says
[1] where eager gives []); multilabel_margin_loss with -1-terminated labels (and a repeated
    label), every reduction, unbatched (mean, same meta quirk); triplet_margin_loss with swap, p = 1 / 3, eps, every reduction."""
    return (F.cosine_embedding_loss(a, p, t), F.cosine_embedding_loss(a, p, t, margin=0.3, reduction="none"),
            F.cosine_embedding_loss(a, p, t, margin=-0.2, reduction="sum"),
            F.cosine_embedding_loss(a[0], p[0], t[1], reduction="none"),
            F.multi_margin_loss(a, y), F.multi_margin_loss(a, y, p=2, margin=0.7, reduction="none"),
            F.multi_margin_loss(a, y, weight=w, reduction="sum"), F.multi_margin_loss(a, y, p=2, weight=w),
            F.multi_margin_loss(a[1:2], y[1:2], reduction="none"), F.multi_margin_loss(a[1], y[1]),
            F.multilabel_margin_loss(a, labels), F.multilabel_margin_loss(a, labels, reduction="none"),
            F.multilabel_margin_loss(a, labels, reduction="sum"),
            F.multilabel_margin_loss(a[0:1], labels[0:1], reduction="none"), F.multilabel_margin_loss(a[0], labels[0]),
            F.triplet_margin_loss(a, p, n), F.triplet_margin_loss(a, p, n, swap=True, reduction="none"),
            F.triplet_margin_loss(a, p, n, margin=2.0, p=1, eps=1e-3, reduction="sum"),
            F.triplet_margin_loss(a, p, n, p=3, swap=True), F.triplet_margin_loss(a[0], p[0], n[0], reduction="none"))


def _close_pairs(g):
    x = rn(g, 12)
    y = x.clone()
    y[0] += 1e-6
    y[1] += 1e-3
    y[2] = NAN2
    x[3] = NAN2
    y[3] = NAN2
    x[4] = INF2
    y[4] = INF2
    x[5] = INF2
    y[5] = -INF2
    x[6] = INF2
    y[6] = 1e30
    y[7] = 0.0
    x[7] = 1e-9
    y[8] += 0.5
    return x, y


@case("math2_float_bits", ["isclose.default", "frexp.Tensor", "ldexp.Tensor", "nextafter.default",
                           "special_xlog1py.default", "special_xlog1py.other_scalar", "special_xlog1py.self_scalar"],
      lambda g, d: (*_close_pairs(g), ri(g, -20, 20, 12), ri(g, -3, 4, 12), with_specials(g, 12),
                    torch.tensor([1e-40, -1e-45, 3.4028234663852886e38, 1.0, 0.5, -2.0, 1.17549435e-38,
                                  -0.0, 0.0, 7.0, 1e-30, 123456.0])))
def _(self, x, y, a, b, s, edge):
    """isclose with default / loose / zero tolerances, equal_nan, inf pairs, int64; frexp of normal,
    subnormal, huge, power-of-two, zero, -0.0, inf and NaN values (exponents as int64); ldexp with int64
    and float exponents (overflow to inf); nextafter towards larger / smaller / equal / NaN / inf operands,
    from 0, subnormals, FLT_MAX and powers of two; xlog1py with x == 0, NaN and small y, and with a number on either side."""
    m, e = torch.frexp(edge)
    ms, es = torch.frexp(s)
    up = torch.full_like(edge, INF2)
    return (torch.isclose(x, y), torch.isclose(x, y, rtol=0.1, atol=0.01), torch.isclose(x, y, equal_nan=True),
            torch.isclose(x, y, rtol=0.0, atol=0.0), torch.isclose(a, b), torch.isclose(a, b, rtol=0.5, atol=1.0),
            m, e.to(torch.int64), finite_marked(ms), es.to(torch.int64),
            finite_marked(torch.ldexp(x, a)), finite_marked(torch.ldexp(x, b.to(torch.float32))), finite_marked(torch.ldexp(edge, a * 10)),
            finite_marked(torch.nextafter(edge, up)), finite_marked(torch.nextafter(edge, -up)), finite_marked(torch.nextafter(edge, edge)),
            finite_marked(torch.nextafter(s, x)), finite_marked(torch.nextafter(x, s)),
            finite_marked(torch.special.xlog1py(x, y.abs())), finite_marked(torch.special.xlog1py(s, x)),
            finite_marked(torch.special.xlog1py(edge, edge.abs() * 1e-3)), finite_marked(torch.special.xlog1py(s, 2.5)),
            finite_marked(torch.special.xlog1py(0.5, x)), finite_marked(torch.special.xlog1py(0.0, s)))


@case("math2_softmax_grad", ["_softmax_backward_data.default", "_safe_softmax.default",
                             "native_dropout_backward.default"],
      lambda g, d: (rn(g, 3, 5), rn(g, 3, 5), rb(g, 3, 5)))
def _(self, g_, x, mask):
    """_softmax_backward_data over dims 1 and 0; _safe_softmax with an all -inf row (0, not NaN) and a row
    with one -inf; native_dropout_backward with scales 2 and 0."""
    xs = x.clone()
    xs[0, :] = -INF2
    xs[1, 2] = -INF2
    out1 = torch.softmax(x, 1)
    out0 = torch.softmax(x, 0)
    return (torch.ops.aten._softmax_backward_data.default(g_, out1, 1, torch.float32),
            torch.ops.aten._softmax_backward_data.default(g_, out0, -2, torch.float32),
            torch.ops.aten._safe_softmax.default(xs, 1), torch.ops.aten._safe_softmax.default(x, 0),
            torch.ops.aten.native_dropout_backward.default(g_, mask, 2.0),
            torch.ops.aten.native_dropout_backward.default(g_, mask, 0.0))


@case("math2_gcd_lcm", ["gcd.default", "lcm.default"],
      lambda g, d: (ri(g, -60, 61, 4, 6), ri(g, -60, 61, 4, 6), ri(g, 0, 13, 6)))
def _(self, a, b, c):
    """gcd and lcm of int64 tensors with zeros, signs and broadcasting (Euclid in an ONNX Loop)."""
    return torch.gcd(a, b), torch.lcm(a, b), torch.gcd(a, c), torch.lcm(c, b)


@case("math2_dynamic_sizes", ["block_diag.default", "multi_margin_loss.default", "multilabel_margin_loss.default",
                              "tensordot.default"],
      lambda g, d: (rn(g, 2, d["n"]), rn(g, d["n"], 3), rn(g, 4, d["c"]), ri(g, 0, 3, 4), _labels(d["c"]),
                    rn(g, d["c"])),
      dynamic={"x": {1: ("n", 4, 6)}, "y": {0: ("n", 4, 6)}, "s": {1: ("c", 5, 7)}, "l": {1: ("c", 5, 7)},
               "v": {0: ("c", 5, 7)}})
def _(self, x, y, s, t, l, v):
    """Ops whose sizes are read from the shape when dynamic: block_diag of a [2, n] and an [n, 3] block and a
    0-d; multi_margin_loss (p 1 and 2, weights, a 1-d input) and multilabel_margin_loss (-1 ending the label
    list, a 1-d input) over a dynamic class count; tensordot over a dynamic contracted dim."""
    F = torch.nn.functional
    w = s[0].abs() + 0.5
    return (torch.block_diag(x, y, v[0]), F.multi_margin_loss(s, t), F.multi_margin_loss(s, t, p=2, weight=w,
                                                                                      reduction="sum"),
            F.multi_margin_loss(v, t[:1], reduction="none"), F.multilabel_margin_loss(s, l),
            F.multilabel_margin_loss(v, l[0], reduction="sum"), torch.tensordot(x, y, dims=([1], [0])))


def _labels(c):
    """[4, c] multilabel targets: label lists ended by -1 (or filling the row)."""
    rows = [[0, 2, -1], [1, -1], [2, 1, 0, -1], [-1]]
    out = torch.zeros(4, c, dtype=torch.int64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = torch.tensor(r)
        if r[-1] != -1:
            out[i, len(r):] = r[-1]
    return out
