# Complex tensors between ops (passes/lowering/src/complex.rs: a complex
# value is lowered as its real view, a trailing dim of 2). The captured
# inputs and outputs are real (the harness reads float32/int64/bool only):
# the models build complex values from real inputs and return real views,
# parts or magnitudes.

from __future__ import annotations

import torch

from op_case_lib import case, pos, rn


@case("complex_build_and_arith",
      ["complex.default", "polar.default", "view_as_real.default", "view_as_complex.default", "real.default",
       "imag.default", "abs.default", "angle.default", "_conj.default", "resolve_conj.default", "mul.Tensor",
       "div.Tensor", "add.Tensor", "sub.Tensor", "neg.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 3, 4), pos(g, 3, 4), rn(g, 4)))
def _(self, x, y, r, v):
    """torch.complex / polar / view_as_complex, real / imag / abs / angle, conj, and complex add, sub, mul, div
    (complex by complex, by a real tensor, by a Python number, broadcast)."""
    z = torch.complex(x, y)
    w = torch.polar(r, x)
    u = torch.view_as_complex(torch.stack([y, x], -1))
    vr = torch.view_as_real
    return (vr(z), z.real * 1, z.imag * 1, z.abs(), z.angle(), vr(torch.resolve_conj(z.conj())),
            vr(z * w), vr(z / w), vr(z * v), vr(v / w), vr(z + x), vr(z - 2 * w), vr(z * 2.5), vr(u + 1), vr(-z),
            vr(z * u.conj()))


@case("complex_layout",
      ["reshape.default", "permute.default", "transpose.int", "unsqueeze.default", "squeeze.dim", "select.int",
       "slice.Tensor", "cat.default", "stack.default", "expand.default", "clone.default"],
      lambda g, d: (rn(g, 2, 3, 4), rn(g, 2, 3, 4)))
def _(self, x, y):
    """Layout ops on complex tensors: dims normalized against the complex rank (negative dims), reshape sizes,
    select / slice / cat / stack / expand."""
    z = torch.complex(x, y)
    vr = torch.view_as_real
    return (vr(z.reshape(6, 4) * 1), vr(z.permute(2, 0, -2) * 1), vr(z.transpose(0, -1) * 1),
            vr(z.unsqueeze(-1) * 1), vr(z[:1].squeeze(0) * 1), vr(z[:, -1] * 1), vr(z[..., 1:3] * 1),
            vr(torch.cat([z, z * 2], -1)), vr(torch.stack([z, z], -2)), vr(z[:, :1].expand(2, 5, 4) * 1),
            vr(z.clone()))


@case("complex_fft_default",
      ["fft_fft.default", "fft_ifft.default", "fft_rfft.default", "fft_ihfft.default", "fft_fft2.default",
       "fft_ifft2.default", "fft_rfft2.default", "fft_ihfft2.default", "fft_fftn.default", "fft_ifftn.default",
       "fft_rfftn.default", "fft_ihfftn.default", "fft_irfft.default", "fft_hfft.default"],
      lambda g, d: (rn(g, 3, 4, 6), rn(g, 3, 4, 6)))
def _(self, x, y):
    """torch.fft on real and complex tensors in the default IR: fft / ifft / rfft / ihfft in 1, 2 and n dims with
    n / s (trim and pad), dims and the three norms, irfft / hfft of a complex input."""
    f = torch.fft
    vr = torch.view_as_real
    z = torch.complex(x, y)
    return (vr(f.fft(x)), vr(f.fft(z, n=8, dim=1, norm="ortho")), vr(f.ifft(z, norm="forward")), vr(f.rfft(x, n=5)),
            vr(f.ihfft(x, dim=0).resolve_conj()), vr(f.fft2(z)), vr(f.ifft2(x, s=(2, 7))), vr(f.rfft2(x, norm="ortho")),
            vr(f.ihfft2(x).resolve_conj()), vr(f.fftn(z, dim=(0, -1))), vr(f.ifftn(z, s=(5, 3), norm="ortho")), vr(f.rfftn(x)),
            vr(f.ihfftn(x, s=(4, 4)).resolve_conj()), f.irfft(z), f.irfft(z, n=9, dim=0, norm="ortho"), f.hfft(z, n=7))


FFT_SEQ = ("seq", 5, 8)  # an odd and an even length: the one-sided trim keeps n // 2 + 1 bins


@case("complex_fft_dynamic_length",
      ["fft_fftn.default", "fft_fft.default", "fft_rfft.default", "fft_ifft.default"],
      lambda g, d: (rn(g, 2, d["seq"], 4), rn(g, 2, d["seq"], 4)), dynamic={"x": {1: FFT_SEQ}, "y": {1: FFT_SEQ}})
def _(self, x, y):
    """FFTs along a dynamic dim (FNet's fftn over the sequence, real part): DFT lengths, the normalizations and
    the one-sided trim read the size at run time."""
    f = torch.fft
    vr = torch.view_as_real
    z = torch.complex(x, y)
    return (f.fftn(x, dim=(1, 2)).real, vr(f.fft(z, dim=1, norm="ortho")), vr(f.rfft(x, dim=1)),
            vr(f.rfft(x, dim=1, norm="forward")), vr(f.ifft(z, dim=-2)))


@case("complex_fft_dynamic_length_core", ["_fft_r2c.default", "_fft_c2c.default"],
      lambda g, d: (rn(g, 2, d["seq"], 4), rn(g, 2, d["seq"], 4)), dynamic={"x": {1: FFT_SEQ}, "y": {1: FFT_SEQ}},
      ir="ATEN")
def _(self, x, y):
    """The core-ATen prims along a dynamic dim: _fft_r2c (one-sided, ortho) and _fft_c2c (forward, inverse)."""
    f = torch.fft
    vr = torch.view_as_real
    z = torch.complex(x, y)
    return (f.fftn(x, dim=(1, 2)).real, vr(f.rfft(x, dim=1, norm="ortho")), vr(f.ifft(z, dim=1)),
            vr(f.fft2(z, dim=(1, 2), norm="forward")))


@case("complex_fft_core",
      ["_fft_r2c.default", "_fft_c2c.default", "_fft_c2r.default", "view_as_real.default"],
      lambda g, d: (rn(g, 3, 4, 6), rn(g, 3, 4, 6)), ir="ATEN")
def _(self, x, y):
    """torch.fft after run_decompositions(): the core-ATen prims _fft_r2c (onesided or not), _fft_c2c (forward,
    inverse, normalizations) and _fft_c2r (last_dim_size)."""
    f = torch.fft
    vr = torch.view_as_real
    z = torch.complex(x, y)
    return (vr(f.fft(x)), vr(f.rfft(x, norm="ortho")), vr(f.rfftn(x)), vr(f.fft2(z, norm="forward")),
            vr(f.ifft(z)), vr(f.ifftn(z, dim=(0, 2), norm="ortho")), f.irfft(z), f.irfft2(z, s=(3, 9)),
            f.hfft(z, n=7, norm="ortho"), f.irfftn(z, norm="forward"))


@case("complex_neg_view", ["_neg_view.default", "resolve_neg.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 3, 4)))
def _(self, x, y):
    """aten._neg_view (a lazily negated complex view) and resolve_neg."""
    z = torch.complex(x, y)
    return (torch.view_as_real(torch.resolve_neg(torch.ops.aten._neg_view(z))),)


@case("complex_stft", ["stft.default", "abs.default", "view_as_real.default"],
      lambda g, d: (rn(g, 2, 64), pos(g, 12)))
def _(self, x, w):
    """torch.stft with return_complex=True followed by abs / view_as_real (the common pattern): center with
    reflect padding, a window shorter than n_fft, hop length, normalized, two-sided."""
    s1 = torch.stft(x, 16, hop_length=4, window=torch.ones(16), return_complex=True)
    s2 = torch.stft(x, 16, hop_length=5, win_length=12, window=w, normalized=True, onesided=False,
                    return_complex=True)
    s3 = torch.stft(x[0], 8, center=False, return_complex=True)
    return s1.abs(), torch.view_as_real(s2), torch.view_as_real(s3)


@case("complex_conj_physical_core", ["_conj_physical.default", "view_as_real.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 3, 4)), ir="ATEN")
def _(self, x, y):
    """torch.conj_physical of a complex tensor after run_decompositions() (aten._conj_physical)."""
    z = torch.complex(x, y)
    return (torch.view_as_real(torch.conj_physical(z)),)


@case("complex_layout_dynamic",
      ["unsqueeze.default", "view.default", "reshape.default", "expand.default", "squeeze.dim", "mul.Tensor",
       "polar.default", "view_as_complex.default", "view_as_real.default"],
      lambda g, d: (rn(g, 2, d["s"], 8), pos(g, d["s"], 4), rn(g, d["s"], 4)),
      dynamic={"x": {1: ("s", 3, 5)}, "r": {0: ("s", 3, 5)}, "t": {0: ("s", 3, 5)}})
def _(self, x, r, t):
    """Complex layout ops on a dynamic sequence (Llama 4's rotary embedding: freqs_cis = polar(r, t)
    [S, 4] unsqueezed to [1, S, 1, 4] against queries viewed as complex [B, S, 1, 4]): unsqueeze,
    view and reshape with a dynamic size, expand to a dynamic size, squeeze of a static 1 next to a
    dynamic dim."""
    f = torch.polar(r, t)
    q = torch.view_as_complex(x.reshape(2, x.shape[1], 1, 4, 2))
    rot = q * f[None, :, None, :]
    flat = torch.view_as_real(rot.view(2, -1))
    re = torch.view_as_real(rot.reshape(x.shape[1] * 2, 4))
    ex = torch.view_as_real(f.unsqueeze(0).expand(3, -1, -1))
    sq = torch.view_as_real(rot.squeeze(2))
    return flat, re, ex, sq
