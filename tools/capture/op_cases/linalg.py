# Linear algebra cases: det / slogdet / inverse / solve / Cholesky / triangular
# solves / LU / LDL (imported by tools/capture/capture_op_tests.py; `case`, `rn`, ...
# come from op_case_lib). Every case name starts with `linalg_`, so `ATEN2ONNX_ONLY=linalg_`
# runs them all. The rules unroll the algorithms over the static matrix size
# (passes/lowering/src/rules/helpers/linalg_common.rs).
#
# Inputs are well conditioned (diagonally dominant or SPD): the rules follow
# LAPACK's algorithms but not its blocking, so results agree up to rounding.
# Outputs that are NaN / inf on purpose go through `_lfin` (NaN -> -77,
# +-inf -> +-777); int32 pivots / info are returned as int64 (captured cases
# hold float32 / int64 / bool).

from __future__ import annotations

import torch

from op_case_lib import case, rn


def _lfin(t):
    t = torch.where(torch.isnan(t), -77.0, t)
    return torch.where(torch.isinf(t), torch.sign(t) * 777.0, t)


def _dd(g, *s):
    """Random matrices plus 2n on the diagonal: well conditioned, any sign of det."""
    n = s[-1]
    return rn(g, *s) + 2.0 * n * torch.eye(n)


def _spd(g, *s):
    """Symmetric positive-definite: X X^T / n + I."""
    n = s[-1]
    x = rn(g, *s)
    return x @ x.transpose(-2, -1) / n + torch.eye(n)


def _singular(g, n):
    """A rank-deficient n x n matrix (last row = first row + second row)."""
    x = rn(g, n, n)
    x[-1] = x[0] + x[1]
    return x


@case("linalg_det_slogdet_logdet", ["linalg_det.default", "linalg_slogdet.default", "logdet.default"],
      lambda g, d: (rn(g, 2, 4, 4), _spd(g, 3, 3), torch.tensor([[0.0, 1.0], [1.0, 0.0]]),
                    torch.zeros(3, 3), rn(g, 1, 1)))
def _(self, a, s, neg, z, one):
    """det of a batch of random 4x4 (both signs), slogdet's sign and log|det|, logdet of an SPD matrix
    (finite), of a matrix with det -1 (NaN) and of the zero matrix (-inf, sign 0); 1x1."""
    sign, logabs = torch.linalg.slogdet(a)
    zs, zl = torch.linalg.slogdet(z)
    return (torch.linalg.det(a), sign, logabs, torch.logdet(s), _lfin(torch.logdet(neg)),
            _lfin(torch.logdet(z)), zs, _lfin(zl), torch.linalg.det(z), torch.linalg.det(one))


@case("linalg_det_core", ["_linalg_det.default", "_linalg_slogdet.default"],
      lambda g, d: (_dd(g, 2, 3, 3), rn(g, 4, 4)), ir="ATEN")
def _(self, a, b):
    """Core IR: det and slogdet become _linalg_det / _linalg_slogdet (which also compute the LU
    factorization of A^T and its pivots)."""
    sign, logabs = torch.linalg.slogdet(b)
    return torch.linalg.det(a), sign, logabs


@case("linalg_inv", ["linalg_inv.default", "linalg_inv_ex.default", "inverse.default"],
      lambda g, d: (_dd(g, 2, 4, 4), _dd(g, 3, 3), torch.zeros(2, 2)))
def _(self, a, b, z):
    """Inverse of a batch (LU with partial pivoting over the static size), inv_ex with info 0 and
    with info 1 for the zero matrix (whose inverse is inf/NaN like torch's), torch.inverse."""
    inv, info = torch.linalg.inv_ex(b)
    zi, zinfo = torch.linalg.inv_ex(z)
    return torch.linalg.inv(a), inv, info.long(), _lfin(zi), zinfo.long(), torch.inverse(b)


@case("linalg_solve", ["linalg_solve.default", "linalg_solve_ex.default"],
      lambda g, d: (_dd(g, 2, 4, 4), rn(g, 2, 4, 3), rn(g, 2, 4), _dd(g, 3, 3), rn(g, 5, 3)))
def _(self, a, b, v, c, r):
    """Solves with a matrix and a vector right-hand side (batched), left=False (X C = R), solve_ex
    with its info, broadcast batch (a 3x3 against a batch of right-hand sides)."""
    x, info = torch.linalg.solve_ex(c, r.T)
    return (torch.linalg.solve(a, b), torch.linalg.solve(a, v), torch.linalg.solve(c, r, left=False),
            x, info.long(), torch.linalg.solve(c, b[:, :3, :]))


@case("linalg_solve_parts", ["_linalg_solve_ex.default"],
      lambda g, d: (_dd(g, 3, 3), rn(g, 3, 2)))
def _(self, a, b):
    """_linalg_solve_ex (what linalg.solve becomes in core IR, whose export here carries an effect token
    the importer does not take): solution, LU of A, pivots, info."""
    x, lu, piv, info = torch.ops.aten._linalg_solve_ex(a, b)
    return x, lu, piv.long(), info.long()


@case("linalg_cholesky", ["linalg_cholesky.default", "linalg_cholesky_ex.default", "cholesky.default",
                          "cholesky_solve.default", "cholesky_inverse.default"],
      lambda g, d: (_spd(g, 2, 4, 4), _spd(g, 3, 3), rn(g, 3, 2)))
def _(self, a, s, b):
    """Cholesky factors (lower and upper, batched), cholesky_ex with info 0 and with info 2 for a matrix
    that is not positive-definite (only info compared: torch leaves LAPACK's partial work in L),
    cholesky_solve and cholesky_inverse from lower and upper factors."""
    l = torch.linalg.cholesky(s)
    u = torch.linalg.cholesky(s, upper=True)
    lx, info = torch.linalg.cholesky_ex(a)
    _, bad = torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]]) + 0 * s[:2, :2])
    return (l, u, torch.linalg.cholesky(a, upper=True), lx, info.long(), bad.long(), torch.cholesky(s),
            torch.cholesky_solve(b, l), torch.cholesky_solve(b, u, upper=True), torch.cholesky_inverse(l),
            torch.cholesky_inverse(u, upper=True))


@case("linalg_triangular", ["linalg_solve_triangular.default", "triangular_solve.default"],
      lambda g, d: (_dd(g, 2, 4, 4), rn(g, 2, 4, 3), rn(g, 3, 4)))
def _(self, a, b, r):
    """Triangular solves reading only one triangle: upper/lower, left/right, unit diagonal, batched;
    torch.triangular_solve with transpose (and its copy of A)."""
    x1 = torch.linalg.solve_triangular(a, b, upper=True)
    x2 = torch.linalg.solve_triangular(a, b, upper=False, unitriangular=True)
    x3 = torch.linalg.solve_triangular(a, r, upper=True, left=False)
    x4, m = torch.triangular_solve(b, a, upper=False, transpose=True)
    return x1, x2, x3, x4, m


@case("linalg_lu", ["linalg_lu_factor.default", "linalg_lu_factor_ex.default", "linalg_lu.default",
                    "lu_unpack.default", "linalg_lu_solve.default", "lu_solve.default", "_lu_with_info.default"],
      lambda g, d: (rn(g, 2, 4, 4), rn(g, 3, 5), rn(g, 5, 3), rn(g, 2, 4, 2), torch.zeros(3, 3)))
def _(self, a, w, t, b, z):
    """LU with partial pivoting: packed LU and LAPACK's 1-based pivots of square (batched), wide and
    tall matrices; info 0 and info 1 (zero matrix); P, L, U from linalg.lu and lu_unpack; solves from
    the factorization (left, adjoint, right); torch.lu with get_infos."""
    lu, piv = torch.linalg.lu_factor(a)
    wl, wp, wi = torch.linalg.lu_factor_ex(w)
    _, zp, zi = torch.linalg.lu_factor_ex(z)
    p, l, u = torch.linalg.lu(t)
    up, ul, uu = torch.lu_unpack(lu, piv)
    x1 = torch.linalg.lu_solve(lu, piv, b)
    x2 = torch.linalg.lu_solve(lu, piv, b, adjoint=True)
    x3 = torch.linalg.lu_solve(lu, piv, b.transpose(-2, -1), left=False)
    x4 = torch.lu_solve(b, lu, piv)
    tl, tp, ti = torch.lu(t, get_infos=True)
    return (lu, piv.long(), wl, wp.long(), wi.long(), zp.long(), zi.long(), p, l, u, up, ul, uu,
            x1, x2, x3, x4, tl, tp.long(), ti.long())


def _sym(g, *s):
    """Random symmetric matrices."""
    x = rn(g, *s)
    return x + x.transpose(-2, -1)


def _zero_first(x):
    """x with its first row and column zeroed (LDL's info = 1)."""
    x = x.clone()
    x[..., 0, :] = 0.0
    x[..., :, 0] = 0.0
    return x


@case("linalg_ldl", ["linalg_ldl_factor.default", "linalg_ldl_factor_ex.default", "linalg_ldl_solve.default"],
      lambda g, d: (_sym(g, 3, 6, 6) * (1.0 - 0.99 * torch.eye(6)), rn(g, 5, 5), _zero_first(_sym(g, 4, 4)),
                    rn(g, 3, 6, 2), rn(g, 5, 1)))
def _(self, s, t, z, b, c):
    """LDL^T with Bunch-Kaufman pivoting (LAPACK sytrf): symmetric matrices with small diagonals (2x2 pivot
    blocks, negative pivots, row interchanges; batched), a general matrix (only its lower triangle read,
    hermitian=True), a zero first column (info 1); ldl_solve with the batched factors, with int64 pivots,
    and an unbatched factor against a batch of right-hand sides."""
    ld, piv = torch.linalg.ldl_factor(s)
    tl, tp, ti = torch.linalg.ldl_factor_ex(t, hermitian=True)
    zl, zp, zi = torch.linalg.ldl_factor_ex(z)
    x1 = torch.linalg.ldl_solve(ld, piv, b)
    x2 = torch.linalg.ldl_solve(tl, tp.long(), c)
    x3 = torch.linalg.ldl_solve(ld[1], piv[1], b)
    return ld, piv.long(), tl, tp.long(), ti.long(), zl, zp.long(), zi.long(), x1, x2, x3


@case("linalg_tensorsolve_tensorinv", ["linalg_tensorsolve.default", "linalg_tensorinv.default"],
      lambda g, d: (_dd(g, 6, 6).reshape(2, 3, 6), rn(g, 2, 3), _dd(g, 6, 6).reshape(6, 2, 3)))
def _(self, a, b, c):
    """tensorsolve (dims None and dims=(0,)) and tensorinv with ind=1 and ind=2: reshaped to a 6x6
    solve / inverse."""
    return (torch.linalg.tensorsolve(a, b), torch.linalg.tensorsolve(c, b, dims=(0,)),
            torch.linalg.tensorinv(c, ind=1), torch.linalg.tensorinv(a, ind=2))
