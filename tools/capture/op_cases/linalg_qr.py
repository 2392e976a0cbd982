# Householder QR family: geqrf / linalg_qr / qr / householder_product / ormqr
# (imported by tools/capture/capture_op_tests.py; `case`, `rn`, ... come from
# op_case_lib). Every case name starts with `linalg_qr`, so `ATEN2ONNX_ONLY=linalg_qr`
# runs them all. The rules run LAPACK's unblocked Householder algorithms
# (geqr2 / org2r / orm2r) in an ONNX Loop, in float64
# (passes/lowering/src/rules/helpers/householder_common.rs): Q, R, the reflectors and
# tau are LAPACK's, equal to torch's up to rounding.

from __future__ import annotations

import torch

from op_case_lib import case, rn


def _qr_zero_col(g, *s):
    """Random matrix whose second column is exactly zero (rank-deficient: tau = 0 for it)."""
    x = rn(g, *s)
    x[..., :, 1] = 0.0
    return x


@case("linalg_qr_modes", ["linalg_qr.default"],
      lambda g, d: (rn(g, 5, 3), rn(g, 2, 3, 4), _qr_zero_col(g, 4, 4), rn(g, 1, 1), torch.zeros(3, 0)))
def _(self, tall, wide, zc, one, empty):
    """linalg.qr reduced / complete / r of a tall matrix, a batch of wide ones (k = m reflectors),
    a square matrix with a zero column (rank-deficient), 1x1, and an empty 3x0 (complete: Q = I)."""
    q, r = torch.linalg.qr(tall)
    qc, rc = torch.linalg.qr(tall, mode="complete")
    _, rr = torch.linalg.qr(tall, mode="r")
    qw, rw = torch.linalg.qr(wide)
    qz, rz = torch.linalg.qr(zc)
    q1, r1 = torch.linalg.qr(one)
    qe, re = torch.linalg.qr(empty, mode="complete")
    return q, r, qc, rc, rr, qw, rw, qz, rz, q1, r1, qe, re


@case("linalg_qr_legacy", ["qr.default"], lambda g, d: (rn(g, 2, 4, 3), rn(g, 3, 5)))
def _(self, a, w):
    """torch.qr with some=True (reduced) and some=False (complete), batched and wide."""
    q, r = torch.qr(a)
    qc, rc = torch.qr(a, some=False)
    qw, rw = torch.qr(w, some=False)
    return q, r, qc, rc, qw, rw


@case("linalg_qr_geqrf", ["geqrf.default", "linalg_householder_product.default"],
      lambda g, d: (rn(g, 5, 4), rn(g, 2, 3, 6), _qr_zero_col(g, 4, 3)))
def _(self, a, w, zc):
    """geqrf's compact form (R above, reflectors below the diagonal) and tau of a tall matrix, a
    batch of wide ones and one with a zero column (tau 0); householder_product rebuilds Q from
    them (orgqr), also with fewer reflectors than columns."""
    pa, ta = torch.geqrf(a)
    pw, tw = torch.geqrf(w)
    pz, tz = torch.geqrf(zc)
    q = torch.linalg.householder_product(pa, ta)
    q2 = torch.linalg.householder_product(pa, ta[:2])
    qz = torch.linalg.householder_product(pz, tz)
    return pa, ta, pw, tw, pz, tz, q, q2, qz


@case("linalg_qr_ormqr", ["ormqr.default"],
      lambda g, d: (rn(g, 4, 4), rn(g, 4), rn(g, 4, 3), rn(g, 3, 4), rn(g, 2, 5, 2), rn(g, 2, 2),
                    rn(g, 2, 5, 3)))
def _(self, a, tau, c, cr, b, btau, bc):
    """ormqr: Q C, Q^T C, C Q, C Q^T with Q from 4 reflectors, and a batch with 2 reflectors of
    length 5 (tau from random values, as torch accepts any)."""
    return (torch.ormqr(a, tau, c), torch.ormqr(a, tau, c, transpose=True),
            torch.ormqr(a, tau, cr, left=False), torch.ormqr(a, tau, cr, left=False, transpose=True),
            torch.ormqr(b, btau, bc), torch.ormqr(b, btau, bc, transpose=True))


@case("linalg_qr_matrix_exp", ["matrix_exp.default", "linalg_matrix_exp.default"],
      lambda g, d: (rn(g, 2, 4, 4), rn(g, 3, 3) * 3.0, torch.zeros(2, 2)))
def _(self, a, big, z):
    """matrix_exp in float64 (the rule refuses float32, whose torch rounding it cannot reproduce):
    a batch of random 4x4, a 3x3 of norm ~10 (several squarings), the zero matrix (identity)."""
    return (torch.matrix_exp(a.double()).float(), torch.linalg.matrix_exp(big.double()).float(),
            torch.matrix_exp(z.double()).float())
