# Core-ATen completion (issue 7): train-mode batch/instance norm updating running statistics, out= and
# resize_ writes, and the real-input FFTs (imported by tools/capture/capture_op_tests.py).
# Running statistics are updated on clones (cases mutate no input or buffer): the updated clones are returned,
# so the compiler's aten-remove-inplace rewrite (the update becomes a value) is checked numerically.

from __future__ import annotations

import torch
import torch.nn.functional as F

from op_case_lib import BATCH, case, pos, rb, ri, rn


@case("bn_train_running_stats", ["batch_norm.default"],
      lambda g, d: (rn(g, 4, 3, 5), rn(g, 3) * 0.2, pos(g, 3), pos(g, 3), rn(g, 3), rn(g, 2, 3)))
def _(self, x, rm, rv, w, b, x2):
    """F.batch_norm in training mode with running stats (3-D input, then a 2-D input with momentum 0.5):
    normalized with the biased batch variance, running stats blended with momentum and the unbiased variance."""
    rm1, rv1 = rm.clone(), rv.clone()
    y = F.batch_norm(x, rm1, rv1, w, b, training=True, momentum=0.3, eps=1e-5)
    rm2, rv2 = rm.clone(), rv.clone()
    y2 = F.batch_norm(x2, rm2, rv2, None, None, training=True, momentum=0.5, eps=1e-3)
    return y, rm1, rv1, y2, rm2, rv2


@case("native_bn_train_running_stats", ["native_batch_norm.default"],
      lambda g, d: (rn(g, 2, 3, 4, 2), rn(g, 3) * 0.2, pos(g, 3), pos(g, 3), rn(g, 3)))
def _(self, x, rm, rv, w, b):
    """aten.native_batch_norm in training mode with running stats: output, saved mean / rstd, updated stats."""
    rm1, rv1 = rm.clone(), rv.clone()
    y, mean, rstd = torch.ops.aten.native_batch_norm(x, w, b, rm1, rv1, True, 0.2, 1e-3)
    return y, mean, rstd, rm1, rv1


@case("bn_legit_train", ["_native_batch_norm_legit_functional.default"],
      lambda g, d: (rn(g, 5, 3, 4), rn(g, 3) * 0.2, pos(g, 3), pos(g, 3), rn(g, 3)))
def _(self, x, rm, rv, w, b):
    """aten._native_batch_norm_legit.default (core ATen; writes running_mean / running_var): training mode, then
    eval mode (stats read, not written). aten-remove-inplace makes both _native_batch_norm_legit_functional."""
    rm1, rv1 = rm.clone(), rv.clone()
    y, mean, rstd = torch.ops.aten._native_batch_norm_legit.default(x, w, b, rm1, rv1, True, 0.5, 0.6)
    rm2, rv2 = rm.clone(), rv.clone()
    y2, _, _ = torch.ops.aten._native_batch_norm_legit.default(x, None, None, rm2, rv2, False, 0.1, 1e-5)
    return y, mean, rstd, rm1, rv1, y2, rm2, rv2


@case("bn_with_update", ["_batch_norm_with_update_functional.default"],
      lambda g, d: (rn(g, 4, 2, 3), rn(g, 2) * 0.2, pos(g, 2), pos(g, 2), rn(g, 2)))
def _(self, x, rm, rv, w, b):
    """aten._batch_norm_with_update (writes running stats; aten-remove-inplace makes it the _functional form):
    output, saved mean / rstd, updated stats (the uint8 reserve is left out: not a case dtype)."""
    rm1, rv1 = rm.clone(), rv.clone()
    y, mean, rstd, _ = torch.ops.aten._batch_norm_with_update.default(x, w, b, rm1, rv1, 0.1, 1e-5)
    return y, mean, rstd, rm1, rv1


@case("instance_norm_running_stats", ["instance_norm.default"],
      lambda g, d: (rn(g, 3, 2, 5), rn(g, 2) * 0.2, pos(g, 2), pos(g, 2), rn(g, 2), rn(g, 2, 2, 2, 3)))
def _(self, x, rm, rv, w, b, x4):
    """F.instance_norm with use_input_stats and running stats: per-instance statistics for the output, the running
    stats blended with the batch average of the per-instance mean / unbiased variance (as torch computes it)."""
    rm1, rv1 = rm.clone(), rv.clone()
    y = F.instance_norm(x, rm1, rv1, w, b, use_input_stats=True, momentum=0.4, eps=1e-5)
    rm2, rv2 = rm.clone(), rv.clone()
    y2 = F.instance_norm(x4, rm2, rv2, use_input_stats=True, momentum=0.1, eps=1e-3)
    return y, rm1, rv1, y2, rm2, rv2


@case("atan2_out", ["atan2.default"], lambda g, d: (rn(g, 3, 4), rn(g, 3, 4)))
def _(self, y, x):
    """torch.atan2(..., out=o) (aten.atan2.out, core ATen): aten-remove-inplace makes it atan2.default."""
    o = torch.zeros_like(y)
    torch.atan2(y, x, out=o)
    return o + 0


@case("resize_inplace", ["resize.default", "resize_as.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 2, 3), rn(g, 4, 3, 2)))
def _(self, x, t, z):
    """Tensor.resize_ (core ATen) to the same number of elements and to fewer (storage order kept), resize_as_:
    aten-remove-inplace makes them resize / resize_as."""
    a = x.clone()
    a.resize_(6, 2)
    b = x.clone()
    b.resize_(5)
    c = z.clone()
    c.resize_as_(t)
    return a * 1, b * 1, c * 1


@case("fft_c2r_real", ["fft_irfft.default", "fft_irfft2.default", "fft_irfftn.default"],
      lambda g, d: (rn(g, 3, 4, 5), rn(g, 6)))
def _(self, x, v):
    """torch.fft.irfft / irfft2 / irfftn of real inputs (torch promotes them to complex): default length, n / s
    trimming and zero-padding the input, negative dims, the three norms."""
    f = torch.fft
    return (f.irfft(x), f.irfft(x, n=4, dim=1, norm="ortho"), f.irfft(v, n=12, norm="forward"),
            f.irfft2(x), f.irfft2(x, s=(2, 9), dim=(0, 2), norm="ortho"), f.irfftn(x, norm="forward"),
            f.irfftn(x, s=(5, 6), dim=(-1, 0)), f.irfftn(v))


@case("fft_hfft_real", ["fft_hfft.default", "fft_hfft2.default", "fft_hfftn.default"],
      lambda g, d: (rn(g, 3, 4, 5) * 0.2, rn(g, 6) * 0.2))
def _(self, x, v):
    """torch.fft.hfft / hfft2 / hfftn of real inputs: default length, n / s, dims, the three norms."""
    f = torch.fft
    return (f.hfft(x), f.hfft(x, n=4, dim=1, norm="ortho"), f.hfft(v, n=7, norm="forward"),
            f.hfft2(x), f.hfft2(x, s=(2, 9), dim=(0, 2), norm="ortho"), f.hfftn(x, norm="forward"),
            f.hfftn(x, s=(5, 6), dim=(-1, 0)), f.hfftn(v))


@case("fft_shifts", ["fft_fftshift.default", "fft_ifftshift.default"],
      lambda g, d: (rn(g, 5, 6), ri(g, -5, 6, 7), rb(g, 3, 4)))
def _(self, x, i, m):
    """torch.fft.fftshift / ifftshift: all dims, one dim, negative dims, odd and even sizes, int64 and bool."""
    f = torch.fft
    return (f.fftshift(x), f.ifftshift(x), f.fftshift(x, dim=1), f.ifftshift(x, dim=(-2,)), f.fftshift(i),
            f.ifftshift(i), f.fftshift(m, dim=(0, 1)), f.ifftshift(m))


@case("bn_train_dynamic_batch", ["batch_norm.default"],
      lambda g, d: (rn(g, d["batch"], 3, 4), rn(g, 3) * 0.2, pos(g, 3)), dynamic={"x": {0: BATCH}})
def _(self, x, rm, rv):
    """F.batch_norm in training mode with running stats and a dynamic batch: the unbiased variance of the running
    update counts N * L elements at run time."""
    rm1, rv1 = rm.clone(), rv.clone()
    y = F.batch_norm(x, rm1, rv1, training=True, momentum=0.25, eps=1e-5)
    return y, rm1, rv1
