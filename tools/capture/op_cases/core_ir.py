# Core-IR cases (ir="ATEN": the program after ep.run_decompositions()), for the
# forms only core ATen produces: effect tokens (`with_effects`), decomposed
# ops... (imported by tools/capture/capture_op_tests.py; `case`, `rn`, ... come
# from op_case_lib). Every case name starts with `core_`, so `ATEN2ONNX_ONLY=core_` runs
# them all.

from __future__ import annotations

import torch
import torch.nn as nn

from op_case_lib import case, rn, ur


def _core_dd(g, *s):
    """Random matrices plus 2n on the diagonal: well conditioned."""
    n = s[-1]
    return rn(g, *s) + 2.0 * n * torch.eye(n)


def _core_spd(g, *s):
    """Symmetric positive-definite: X X^T / n + I."""
    n = s[-1]
    x = rn(g, *s)
    return x @ x.transpose(-2, -1) / n + torch.eye(n)


@case("core_linalg_inv", ["linalg_inv_ex.default", "_linalg_check_errors.default"],
      lambda g, d: (_core_dd(g, 2, 3, 3), _core_spd(g, 4, 4)), ir="ATEN")
def _(self, a, s):
    """Core IR of linalg.inv and linalg.cholesky: the factorization, then `_linalg_check_errors` on its
    info, wrapped in `with_effects` with an effect token in the graph signature (the importer drops the
    token and unwraps the check, which lowers to nothing)."""
    return torch.linalg.inv(a), torch.linalg.cholesky(s)


def _init_core_bilinear(m):
    m.bl = nn.Bilinear(4, 3, 5)


@case("core_bilinear", ["_trilinear.default"], lambda g, d: (rn(g, 6, 4), rn(g, 6, 3)),
      init=_init_core_bilinear, ir="ATEN")
def _(self, x1, x2):
    """nn.Bilinear in core IR: `_trilinear(x1, W, x2, [1, 3], [0], [1, 2], [2, 3])` plus the bias."""
    return self.bl(x1, x2)


@case("core_grid_sample_3d", ["grid_sampler_3d.default"],
      lambda g, d: (rn(g, 2, 3, 4, 5, 6), ur(g, -1.2, 1.2, 2, 3, 2, 4, 3)), ir="ATEN", opset=20)
def _(self, x, grid):
    """F.grid_sample on a 5-D input (grid_sampler_3d): trilinear with zeros / border / reflection padding,
    nearest, both align_corners."""
    F = torch.nn.functional
    return (F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False),
            F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=True),
            F.grid_sample(x, grid, mode="bilinear", padding_mode="reflection", align_corners=False),
            F.grid_sample(x, grid, mode="nearest", padding_mode="zeros", align_corners=True))


@case("core_avg_pool_ceil_divisor", ["avg_pool2d.default", "avg_pool3d.default"],
      lambda g, d: (rn(g, 2, 3, 6, 7), rn(g, 1, 2, 5, 6, 5)), ir="ATEN")
def _(self, x, v):
    """avg_pool with divisor_override and a ceil_mode window overhanging the padded input (the rule pads
    with zeros explicitly): 2-D with padding, 3-D without."""
    F = torch.nn.functional
    return (F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, divisor_override=2),
            F.avg_pool3d(v, (2, 3, 2), 2, ceil_mode=True, divisor_override=3))

