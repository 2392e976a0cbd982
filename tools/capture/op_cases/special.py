# Special functions of torch.special (polygamma of order >= 1, the Bessel
# family, orthogonal polynomials with a tensor degree). Imported by
# tools/capture/capture_op_tests.py (`case`, `ri`, `ur` come from op_case_lib). Every
# case name starts with `special_`, so `ATEN2ONNX_ONLY=special_` runs them.
#
# Captured outputs must be finite: NaN / inf on purpose go through `_sfin`
# (NaN -> -77, +-inf -> +-777), which keeps their positions checked exactly.

from __future__ import annotations

import torch

from op_case_lib import case, finite_marked, ri, ur

_SNAN = float("nan")
_SINF = float("inf")


def _spoints(g):
    """[-9, 9) uniform, with poles, zeros, +-inf, NaN and large values planted."""
    x = ur(g, -9.0, 9.0, 40)
    x[:12] = torch.tensor([0.0, -0.0, -1.0, -3.0, 1.0, 0.5, _SINF, -_SINF, _SNAN, 1e-6, 60.0, -2.5])
    return x


@case("special_polygamma", ["polygamma.default", "special_polygamma.default"],
      lambda g, d: (_spoints(g), ri(g, -4, 20, 2, 5)))
def _(self, x, a):
    """polygamma of orders 1..5 and 9 over [-9, 9) (reflection for x < 1/2), at the poles (+-inf for order >= 2,
    torch's large finite trigamma values at the negative integers), at +-inf (trigamma 0 / NaN, higher orders NaN /
    +-inf), NaN; int64 input (computed in float32); special.polygamma."""
    return (finite_marked(torch.polygamma(1, x)), finite_marked(torch.polygamma(2, x)), finite_marked(torch.polygamma(3, x)),
            finite_marked(torch.polygamma(4, x)), finite_marked(torch.polygamma(5, x)), finite_marked(torch.polygamma(9, x[12:] / 3)),
            finite_marked(torch.polygamma(1, a)), finite_marked(torch.polygamma(2, a)), finite_marked(torch.special.polygamma(3, x)),
            finite_marked(torch.special.polygamma(1, x)))


def _bessel_points(g):
    x = ur(g, -30.0, 30.0, 48)
    x[:16] = torch.tensor([0.0, -0.0, 1e-30, -1e-30, 1e-6, 5.0, 8.0, -8.0, 80.0, 88.7, 95.0, 1e4, _SINF, -_SINF,
                           _SNAN, -1.0])
    return x


@case("special_bessel",
      ["special_bessel_j0.default", "special_bessel_j1.default", "special_bessel_y0.default",
       "special_bessel_y1.default", "special_modified_bessel_i0.default", "special_modified_bessel_i1.default",
       "special_modified_bessel_k0.default", "special_modified_bessel_k1.default",
       "special_scaled_modified_bessel_k0.default", "special_scaled_modified_bessel_k1.default",
       "special_i1.default", "special_i1e.default", "special_spherical_bessel_j0.default"],
      lambda g, d: (_bessel_points(g), ri(g, -10, 40, 2, 6)))
def _(self, x, a):
    """Bessel functions over [-30, 30) and at 0, -0, tiny, the branch points (5, 8), 80..95 (I0/I1 overflow float32
    past ln(FLT_MAX) like torch), 1e4, +-inf (NaN for J/Y/I, 0 for K and i1e), NaN, negative x (NaN for Y and K);
    int64 inputs."""
    s = torch.special
    return (finite_marked(s.bessel_j0(x)), finite_marked(s.bessel_j1(x)), finite_marked(s.bessel_y0(x)), finite_marked(s.bessel_y1(x)),
            finite_marked(s.modified_bessel_i0(x)), finite_marked(s.modified_bessel_i1(x)), finite_marked(s.modified_bessel_k0(x)),
            finite_marked(s.modified_bessel_k1(x)), finite_marked(s.scaled_modified_bessel_k0(x)),
            finite_marked(s.scaled_modified_bessel_k1(x)), finite_marked(s.i1(x)), finite_marked(s.i1e(x)), finite_marked(s.spherical_bessel_j0(x)),
            finite_marked(s.bessel_j0(a)), finite_marked(s.bessel_y1(a)), finite_marked(s.modified_bessel_k1(a)), finite_marked(s.i1e(a)))


def _poly_inputs(g, d):
    x = ur(g, -2.5, 2.5, 12, 1)
    x[:6, 0] = torch.tensor([1.0, -1.0, 0.0, _SINF, _SNAN, 0.5])
    n = torch.tensor([-2.0, -0.5, 0.0, 1.0, 2.0, 3.7, 6.0, 7.0, 9.0, 12.0, _SNAN, _SINF])
    return x, n, ur(g, -1.0, 1.0, 3, 4), ri(g, -1, 10, 4)


@case("special_orthogonal_polynomials",
      [f"special_{p}.{o}" for p in ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
                                     "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
                                     "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
                                     "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
                                     "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p"]
       for o in ["default", "n_scalar", "x_scalar"]],
      _poly_inputs)
def _(self, x, n, u, m):
    """Orthogonal polynomials with a tensor degree broadcast against x (12 x 12): negative, fractional (truncated),
    NaN and inf degrees (0), |x| = 1, 0, inf and NaN, degrees past 6 / 8 where torch switches to trigonometric forms;
    a Python-number degree (n_scalar) and a Python-number x (x_scalar); int64 degrees."""
    s = torch.special
    fs = [s.chebyshev_polynomial_t, s.chebyshev_polynomial_u, s.chebyshev_polynomial_v, s.chebyshev_polynomial_w,
          s.shifted_chebyshev_polynomial_t, s.shifted_chebyshev_polynomial_u, s.shifted_chebyshev_polynomial_v,
          s.shifted_chebyshev_polynomial_w, s.hermite_polynomial_h, s.hermite_polynomial_he,
          s.laguerre_polynomial_l, s.legendre_polynomial_p]
    out = []
    for f in fs:
        out += [finite_marked(f(x, n)), finite_marked(f(u, 5)), finite_marked(f(0.25, n)), finite_marked(f(u, m))]
    return tuple(out)


def _zeta_inputs(g, d):
    x = ur(g, 1.0, 9.0, 6, 1)
    x[:4, 0] = torch.tensor([1.0, 0.5, 2.0, _SINF])
    q = ur(g, -4.0, 9.0, 10)
    q[:5] = torch.tensor([1.0, 0.0, -2.0, -2.5, _SNAN])
    return x, q, ri(g, 2, 7, 2, 4).to(torch.float32), ur(g, 0.1, 5.0, 2, 4)


@case("special_zeta", ["special_zeta.default", "special_zeta.other_scalar", "special_zeta.self_scalar"],
      _zeta_inputs)
def _(self, x, q, xi, qp):
    """Hurwitz zeta broadcast (6 x 10): x == 1 (inf), x < 1 (NaN), x = inf, poles at integers q <= 0 (inf),
    negative non-integer q with integer x (summed) and non-integer x (NaN), NaN q; Python-number q and x."""
    return (finite_marked(torch.special.zeta(x, q)), finite_marked(torch.special.zeta(xi, qp)), finite_marked(torch.special.zeta(xi, 0.75)),
            finite_marked(torch.special.zeta(3.0, qp)))


def _igamma_inputs(g, d):
    a = ur(g, 0.0, 12.0, 8, 1)
    a[:4, 0] = torch.tensor([0.0, _SINF, -1.0, 40.0])
    x = ur(g, 0.0, 15.0, 9)
    x[:4] = torch.tensor([0.0, _SINF, 41.0, _SNAN])
    return a, x


@case("special_igamma", ["igamma.default", "igammac.default", "special_gammainc.default", "special_gammaincc.default"], _igamma_inputs)
def _(self, a, x):
    """Regularized incomplete gamma P and Q broadcast (8 x 9): series and continued-fraction sides, a ~ x ~ 40,
    a == 0, x == 0, infinities, negative a (NaN), NaN x."""
    return (finite_marked(torch.igamma(a, x)), finite_marked(torch.igammac(a, x)), finite_marked(torch.special.gammainc(a, x)),
            finite_marked(torch.special.gammaincc(a, x)))


@case("special_airy_ai", ["special_airy_ai.default"],
      lambda g, d: (torch.cat([ur(g, -12.0, 12.0, 40),
                               torch.tensor([0.0, -2.09, 2.09, -2.1, 2.1, 8.5, 103.0, 104.0, -500.0, _SINF, -_SINF,
                                             _SNAN])]), ri(g, -20, 20, 2, 5)))
def _(self, x, a):
    """Airy Ai over [-12, 12), at torch's branch points +-2.09, the decaying side up to its 0 past 103.892, a large
    negative x (phase rounded in float32 like torch), +-inf (NaN), NaN; int64 input."""
    return finite_marked(torch.special.airy_ai(x)), torch.special.airy_ai(a)
