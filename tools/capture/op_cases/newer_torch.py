# Ops newer than the pinned torch (tools/gen/newer_torch_schemas.json; their rules
# say so). Captured with that torch, skipped under the pin (`min_torch`):
#
#     /path/to/torch-2.15/bin/python tools/capture/capture_op_tests.py --only linalg_polar linalg_matrix_sqrth
#
# Imported by tools/capture/capture_op_tests.py (`case`, `rn`, ... come from op_case_lib).

from __future__ import annotations

import torch

from op_case_lib import case, rn


def _spd_batch(g, *s):
    x = rn(g, *s)
    n = s[-1]
    return x @ x.transpose(-2, -1) / n + 0.5 * torch.eye(n)


@case("linalg_polar", ["linalg_polar.default"],
      lambda g, d: (rn(g, 5, 5), rn(g, 2, 5, 3), rn(g, 2, 2), rn(g, 4, 1), torch.zeros(4, 0)),
      min_torch="2.15")
def _(self, a, b, c, col, e):
    """Polar decomposition A = U H (U with orthonormal columns, H symmetric PSD) of random square, tall
    (batched), 2x2, one-column and empty (4x0) matrices; the square one also in float64."""
    ua, ha = torch.linalg.polar(a)
    ub, hb = torch.linalg.polar(b)
    uc, hc = torch.linalg.polar(c)
    ucol, hcol = torch.linalg.polar(col)
    ue, he = torch.linalg.polar(e)
    ud, hd = torch.linalg.polar(a.double())
    return ua, ha, ub, hb, uc, hc, ucol, hcol, ue, he, ud.float(), hd.float()


@case("linalg_matrix_sqrth", ["linalg_matrix_sqrth.default"],
      lambda g, d: (_spd_batch(g, 2, 4, 4), _spd_batch(g, 5, 5), rn(g, 4, 4), rn(g, 1, 1).abs(), torch.zeros(0, 0)),
      min_torch="2.15")
def _(self, a, b, x, one, e):
    """Principal square root of symmetric positive-definite matrices (batched; read from the lower
    triangle: `b` with its upper triangle scrambled), of a symmetric indefinite one (torch clamps the
    negative eigenvalues to 0), 1x1 and 0x0; the batch also in float64."""
    scrambled = b + torch.triu(torch.ones_like(b), 1) * 3.0
    sym = x + x.transpose(-2, -1)
    return (torch.linalg.matrix_sqrth(a), torch.linalg.matrix_sqrth(scrambled), torch.linalg.matrix_sqrth(sym),
            torch.linalg.matrix_sqrth(one), torch.linalg.matrix_sqrth(e), torch.linalg.matrix_sqrth(a.double()).float())
