# Singular values / symmetric eigenvalues and what is computed from them
# (svdvals, svd without vectors, eigvalsh, pinv, matrix_rank, cond,
# spectral / nuclear norms), lowered by Jacobi rotations in an ONNX Loop
# (passes/lowering/src/rules/helpers/linalg_jacobi_common.rs). Imported by
# tools/capture/capture_op_tests.py (`case`, `rn`, ... come from op_case_lib). Every case
# name starts with `jacobi_`, so `ATEN2ONNX_ONLY=jacobi_` runs them all.
#
# Rank-deficient inputs are products of thin factors (their rank is exact
# and their zero singular values are far below torch's tolerance).

from __future__ import annotations

import torch

from op_case_lib import case, rn


def _lowrank(g, *s, r=2):
    """A [*, m, n] matrix of rank r: (m x r) @ (r x n)."""
    *b, m, n = s
    return rn(g, *b, m, r) @ rn(g, *b, r, n)


def _sym(g, *s):
    x = rn(g, *s)
    return x + x.transpose(-2, -1)


@case("jacobi_svdvals", ["linalg_svdvals.default"],
      lambda g, d: (rn(g, 2, 5, 3), rn(g, 4, 6), _lowrank(g, 6, 6), torch.zeros(3, 3), rn(g, 1, 1)))
def _(self, a, b, c, z, o):
    """Singular values (descending) of tall, wide, rank-deficient, zero and 1x1 matrices."""
    return (torch.linalg.svdvals(a), torch.linalg.svdvals(b), torch.linalg.svdvals(c),
            torch.linalg.svdvals(z), torch.linalg.svdvals(o))


@case("jacobi_svd_values", ["linalg_svd.default", "svd.default"],
      lambda g, d: (rn(g, 2, 4, 3), rn(g, 3, 5)))
def _(self, a, b):
    """torch.linalg.svd / torch.svd with only the singular values used, and torch.svd(compute_uv=False)
    (zero U and V)."""
    u, s, v = torch.svd(b, compute_uv=False)
    return torch.linalg.svd(a)[1], torch.svd(b)[1], u, s, v


@case("jacobi_svd_core", ["_linalg_svd.default"],
      lambda g, d: (rn(g, 2, 4, 3), _lowrank(g, 5, 5)), ir="ATEN")
def _(self, a, b):
    """Core IR: svdvals, the spectral and nuclear norms and matrix_rank become `_linalg_svd`."""
    return (torch.linalg.svdvals(a), torch.linalg.matrix_norm(a, 2), torch.linalg.matrix_norm(b, "nuc"),
            torch.linalg.matrix_rank(b))


@case("jacobi_eigvalsh", ["linalg_eigvalsh.default", "linalg_eigh.default"],
      lambda g, d: (_sym(g, 3, 4, 4), rn(g, 5, 5), _lowrank(g, 4, 4) @ _lowrank(g, 4, 4).mT))
def _(self, a, b, c):
    """Eigenvalues (ascending) of symmetric matrices; UPLO 'L' / 'U' read one triangle of a
    non-symmetric input; a rank-deficient PSD matrix; eigh with only eigenvalues used."""
    return (torch.linalg.eigvalsh(a), torch.linalg.eigvalsh(b), torch.linalg.eigvalsh(b, UPLO="U"),
            torch.linalg.eigvalsh(c), torch.linalg.eigh(a)[0])


@case("jacobi_eigh_core", ["_linalg_eigh.default"],
      lambda g, d: (_sym(g, 2, 5, 5), rn(g, 3, 3)), ir="ATEN")
def _(self, a, b):
    """Core IR: eigvalsh and matrix_rank(hermitian=True) become `_linalg_eigh(compute_v=False)`."""
    return torch.linalg.eigvalsh(a, UPLO="U"), torch.linalg.matrix_rank(b, hermitian=True)


@case("jacobi_pinv", ["linalg_pinv.atol_rtol_tensor", "linalg_pinv.atol_rtol_float"],
      lambda g, d: (rn(g, 2, 4, 3), rn(g, 3, 5), _lowrank(g, 6, 5), _sym(g, 4, 4), torch.tensor([0.3, 2.0])))
def _(self, a, b, c, s, tol):
    """pinv of tall, wide and rank-deficient matrices, hermitian (lower triangle), rtol as a number,
    atol as a batch of tensors."""
    return (torch.linalg.pinv(a), torch.linalg.pinv(b, rtol=0.3), torch.linalg.pinv(c),
            torch.linalg.pinv(s, hermitian=True), torch.linalg.pinv(a, atol=tol, rtol=None))


@case("jacobi_pinv_rcond", ["linalg_pinv.default", "linalg_pinv.rcond_tensor", "pinverse.default"],
      lambda g, d: (rn(g, 3, 4), _lowrank(g, 2, 5, 5), torch.tensor(0.2)))
def _(self, a, b, rc):
    """The legacy rcond overloads (atol = 0, rtol = rcond) and torch.pinverse (its default rcond 1e-15
    only on a full-rank matrix: on a rank-deficient one torch inverts its own rounding noise)."""
    return (torch.ops.aten.linalg_pinv.default(a, 0.05), torch.ops.aten.linalg_pinv.rcond_tensor(b, rc),
            torch.pinverse(a), torch.pinverse(b, rcond=0.01))


@case("jacobi_matrix_rank", ["linalg_matrix_rank.atol_rtol_tensor", "linalg_matrix_rank.atol_rtol_float",
                             "linalg_matrix_rank.default", "linalg_matrix_rank.tol_tensor"],
      lambda g, d: (_lowrank(g, 3, 6, 5, r=3), rn(g, 4, 4), _lowrank(g, 5, 5) @ _lowrank(g, 5, 5).mT,
                    torch.tensor([0.1, 2.0, 100.0])))
def _(self, a, b, s, tol):
    """matrix_rank of rank-deficient, full-rank and symmetric (hermitian=True) matrices, with
    every tolerance form."""
    return (torch.linalg.matrix_rank(a), torch.linalg.matrix_rank(b, atol=1.0, rtol=0.1),
            torch.linalg.matrix_rank(s, hermitian=True), torch.linalg.matrix_rank(a, atol=tol),
            torch.ops.aten.linalg_matrix_rank.default(b, 0.5),
            torch.ops.aten.linalg_matrix_rank.tol_tensor(a, tol[0]))


@case("jacobi_cond_norms", ["linalg_cond.default", "linalg_cond.p_str", "linalg_matrix_norm.default",
                            "linalg_matrix_norm.str_ord"],
      lambda g, d: (rn(g, 2, 4, 4) + 8.0 * torch.eye(4), rn(g, 3, 5)))
def _(self, a, b):
    """Condition numbers (p None, -2, 1, inf, 'fro', 'nuc') and the spectral / nuclear norms."""
    return (torch.linalg.cond(a), torch.linalg.cond(b), torch.linalg.cond(a, -2), torch.linalg.cond(a, 1),
            torch.linalg.cond(a, float("inf")), torch.linalg.cond(a, "fro"), torch.linalg.cond(a, "nuc"),
            torch.linalg.matrix_norm(b, 2), torch.linalg.matrix_norm(b, -2), torch.linalg.matrix_norm(a, "nuc"),
            torch.norm(b, p="nuc"))


@case("jacobi_nuclear_norm", ["nuclear_norm.default", "nuclear_norm.dim"],
      lambda g, d: (rn(g, 2, 3, 4),))
def _(self, a):
    """torch.nuclear_norm over the last two dims and over chosen dims (keepdim)."""
    return torch.nuclear_norm(a[0]), torch.nuclear_norm(a[1], keepdim=True), torch.ops.aten.nuclear_norm.dim(a, [2, 0], True)
