# Window functions (torch.hann_window and family: constants computed at
# conversion time, passes/lowering/src/rules/helpers/window_common.rs). Imported by
# tools/capture/capture_op_tests.py.

from __future__ import annotations

import torch

from op_case_lib import case, rn


@case("windows", ["hann_window.default", "hann_window.periodic", "hamming_window.default", "hamming_window.periodic",
                  "hamming_window.periodic_alpha", "hamming_window.periodic_alpha_beta", "blackman_window.default",
                  "blackman_window.periodic", "bartlett_window.default", "bartlett_window.periodic"],
      lambda g, d: (rn(g, 2, 8),))
def _(self, x):
    """Every window, periodic and symmetric, lengths 8, 1 and 0, scaled by an input so the outputs are
    not constants of the graph alone."""
    return (x * torch.hann_window(8), x * torch.hann_window(8, periodic=False), torch.hann_window(1, periodic=False),
            x * torch.hamming_window(8), x * torch.hamming_window(8, False), x * torch.hamming_window(8, True, alpha=0.6),
            x * torch.hamming_window(8, False, alpha=0.6, beta=0.3), x * torch.blackman_window(8),
            x * torch.blackman_window(8, periodic=False), x * torch.bartlett_window(8),
            x * torch.bartlett_window(8, periodic=False), torch.hann_window(0))
