# Neural-network op cases (convolution, pooling, padding, resampling,
# normalization, distances, losses, backward ops). Imported by
# tools/capture/capture_op_tests.py; `case`, `rn`, `ri`, `pos`, ... come from op_case_lib.

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

from op_case_lib import BATCH, EXPLICIT, case, pos, ri, rn, ur

# ==========================================================================
# Resampling: every upsample mode, scales or sizes, align_corners both ways
# ==========================================================================

HW = ("hw", 5, 7)


@case("interp_nearest_frac", ["upsample_nearest2d.vec"], lambda g, d: (rn(g, 1, 2, 5, 6),))
def _(self, x):
    """F.interpolate nearest with non-integer scale factors (torch maps coordinates with 1/scale, not
    in/out): 1.5; (0.6, 0.35) downsampling; (2.1, 1.1) (2x and identity shortcuts of torch); 3.0;
    recompute_scale_factor=True (sizes)."""
    return (F.interpolate(x, scale_factor=1.5), F.interpolate(x, scale_factor=(0.6, 0.35)),
            F.interpolate(x, scale_factor=(2.1, 1.1)), F.interpolate(x, scale_factor=3.0),
            F.interpolate(x, scale_factor=1.7, recompute_scale_factor=True))


@case("interp_nearest_dynamic", ["upsample_nearest2d.vec"], lambda g, d: (rn(g, 1, 2, d["hw"], 4),),
      dynamic={"x": {2: HW}})
def _(self, x):
    """nn.Upsample(scale_factor=2) and scale 3 on a dynamic height (Resize with scales)."""
    return F.interpolate(x, scale_factor=2.0), F.interpolate(x, scale_factor=(3.0, 2.0))


@case("interp_nearest_1d_3d", ["upsample_nearest1d.vec", "upsample_nearest3d.vec"],
      lambda g, d: (rn(g, 1, 2, 5), rn(g, 1, 2, 3, 4, 5)))
def _(self, x, v):
    """nearest 1-D: scale 2, 1.5, size 8; 3-D: scale 2, (1.5, 0.8, 2.5), size (4, 5, 3)."""
    return (F.interpolate(x, scale_factor=2.0), F.interpolate(x, scale_factor=1.5), F.interpolate(x, size=8),
            F.interpolate(v, scale_factor=2.0), F.interpolate(v, scale_factor=(1.5, 0.8, 2.5)),
            F.interpolate(v, size=(4, 5, 3)))


@case("interp_nearest_exact", ["_upsample_nearest_exact1d.vec", "_upsample_nearest_exact2d.vec",
                               "_upsample_nearest_exact3d.vec"],
      lambda g, d: (rn(g, 1, 2, 5), rn(g, 1, 2, 5, 6), rn(g, 1, 2, 3, 4, 5)))
def _(self, x, y, v):
    """mode='nearest-exact' 1-D/2-D/3-D: scale 2, 1.5, (0.6, 0.35), sizes."""
    m = "nearest-exact"
    return (F.interpolate(x, scale_factor=2.0, mode=m), F.interpolate(x, scale_factor=1.5, mode=m),
            F.interpolate(y, scale_factor=(0.6, 0.35), mode=m), F.interpolate(y, size=(7, 4), mode=m),
            F.interpolate(y, scale_factor=2.0, mode=m),
            F.interpolate(v, scale_factor=(1.5, 0.8, 2.5), mode=m), F.interpolate(v, size=(4, 5, 3), mode=m))


@case("interp_linear", ["upsample_linear1d.vec", "upsample_bilinear2d.vec", "upsample_trilinear3d.vec"],
      lambda g, d: (rn(g, 1, 2, 5), rn(g, 1, 2, 5, 6), rn(g, 1, 2, 3, 4, 5)))
def _(self, x, y, v):
    """linear / bilinear / trilinear with non-integer scales (1.7, (1.5, 1.7), (0.6, 0.35)), align_corners
    both ways, output size 1, and sizes."""
    out = []
    for ac in (False, True):
        out += [F.interpolate(x, scale_factor=1.7, mode="linear", align_corners=ac),
                F.interpolate(x, size=1, mode="linear", align_corners=ac),
                F.interpolate(y, scale_factor=(1.5, 1.7), mode="bilinear", align_corners=ac),
                F.interpolate(y, scale_factor=(0.6, 0.35), mode="bilinear", align_corners=ac),
                F.interpolate(y, size=(1, 3), mode="bilinear", align_corners=ac),
                F.interpolate(v, scale_factor=(1.5, 0.8, 2.5), mode="trilinear", align_corners=ac),
                F.interpolate(v, size=(4, 5, 3), mode="trilinear", align_corners=ac)]
    return tuple(out)


@case("interp_bilinear_dynamic", ["upsample_bilinear2d.vec"], lambda g, d: (rn(g, 1, 2, d["hw"], 4),),
      dynamic={"x": {2: HW}})
def _(self, x):
    """bilinear scale 2 on a dynamic height, align_corners both ways."""
    return (F.interpolate(x, scale_factor=2.0, mode="bilinear"),
            F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=True))


@case("interp_bicubic", ["upsample_bicubic2d.vec"], lambda g, d: (rn(g, 1, 2, 5, 6),))
def _(self, x):
    """bicubic (A = -0.75, taps clamped at the border): scale 2, (1.5, 1.7), (0.6, 0.35), size (1, 3),
    align_corners both ways."""
    out = []
    for ac in (False, True):
        out += [F.interpolate(x, scale_factor=2.0, mode="bicubic", align_corners=ac),
                F.interpolate(x, scale_factor=(1.5, 1.7), mode="bicubic", align_corners=ac),
                F.interpolate(x, scale_factor=(0.6, 0.35), mode="bicubic", align_corners=ac),
                F.interpolate(x, size=(1, 3), mode="bicubic", align_corners=ac)]
    return tuple(out)


def _init_pos_table(m):
    m.table = nn.Parameter(torch.randn(1, 3, 4, 4, generator=torch.Generator().manual_seed(5)))


@case("interp_bicubic_dynamic_size", ["upsample_bicubic2d.vec"], lambda g, d: (rn(g, 1, 2, d["h"], d["w"]),),
      dynamic={"x": {2: ("h", 16, 24), 3: ("w", 40, 20)}}, dim_min={"h": 16, "w": 16}, init=_init_pos_table)
def _(self, x):
    """bicubic to an output size computed from dynamic sizes (DINOv2 resizes its 4x4 position table to
    the image's patch grid (H // 8, W // 8)): the static table up and down (W // 8 = 2 < 4 in
    set_1), align_corners both ways; the dynamic input itself to (H // 2 + 1, W + 3)."""
    h, w = x.shape[2], x.shape[3]
    return (F.interpolate(self.table, size=(h // 8, w // 8), mode="bicubic", align_corners=False),
            F.interpolate(self.table, size=(h // 8, w // 8), mode="bicubic", align_corners=True),
            F.interpolate(x, size=(h // 2 + 1, w + 3), mode="bicubic", align_corners=False))


@case("upsample_default_overloads",
      ["upsample_nearest1d.default", "upsample_nearest3d.default", "_upsample_nearest_exact1d.default",
       "_upsample_nearest_exact2d.default", "_upsample_nearest_exact3d.default", "upsample_linear1d.default",
       "upsample_trilinear3d.default", "upsample_bicubic2d.default", "upsample_nearest2d.default",
       "upsample_bilinear2d.default"],
      lambda g, d: (rn(g, 1, 2, 5), rn(g, 1, 2, 5, 6), rn(g, 1, 2, 2, 3, 4)))
def _(self, x, y, v):
    """Explicit .default overloads (F.interpolate exports .vec), with sizes only and with scales."""
    a = torch.ops.aten
    return (a.upsample_nearest1d.default(x, [7]), a.upsample_nearest1d.default(x, [7], 1.5),
            a.upsample_nearest3d.default(v, [3, 4, 6], 1.5, 1.5, 1.6),
            a._upsample_nearest_exact1d.default(x, [7], 1.5),
            a._upsample_nearest_exact2d.default(y, [7, 10], 1.5, 1.7),
            a._upsample_nearest_exact3d.default(v, [4, 6, 8]),
            a.upsample_linear1d.default(x, [7], False, 1.5), a.upsample_linear1d.default(x, [7], True),
            a.upsample_trilinear3d.default(v, [3, 4, 6], False, 1.5, 1.5, 1.6),
            a.upsample_bicubic2d.default(y, [7, 10], False, 1.5, 1.7),
            a.upsample_nearest2d.default(y, [7, 10], 1.5, 1.7),
            a.upsample_bilinear2d.default(y, [7, 10], False, 1.5, 1.7))


for _t in ["upsample_nearest1d", "upsample_nearest3d", "_upsample_nearest_exact1d", "_upsample_nearest_exact2d",
           "_upsample_nearest_exact3d", "upsample_linear1d", "upsample_trilinear3d", "upsample_bicubic2d"]:
    EXPLICIT[f"aten.{_t}.default"] = ("`F.interpolate` exports the `.vec` overload; explicit in "
                                     "`upsample_default_overloads`")


# ==========================================================================
# Padding: reflect / replicate / circular, negative pads, unbatched, empty
# ==========================================================================


def _pad_modes(x3, x4, x5, u):
    out = []
    for m in ("reflect", "replicate"):
        out += [F.pad(x3, (2, 1), mode=m), F.pad(x3, (-1, 2), mode=m), F.pad(x3, (3, -2), mode=m),
                F.pad(x4, (1, 2, 2, 1), mode=m), F.pad(x4, (-1, 2, 2, -3), mode=m),
                F.pad(x5, (1, 0, 1, 2, 2, 1), mode=m), F.pad(u, (1, 2, 1, 1), mode=m)]
    out += [F.pad(x3, (2, 1), mode="circular"), F.pad(x4, (2, 1, -1, 3), mode="circular")]
    return tuple(out)


@case("pad_modes_training", ["pad.default"],
      lambda g, d: (rn(g, 1, 2, 6), rn(g, 1, 2, 5, 6), rn(g, 1, 2, 3, 4, 5), rn(g, 2, 4, 5)))
def _(self, x3, x4, x5, u):
    """F.pad reflect / replicate 1-D/2-D/3-D with negative pads (crop), unbatched 2-D; circular with
    negative pads (TRAINING IR keeps aten.pad)."""
    return _pad_modes(x3, x4, x5, u)


SEQ57 = ("seq", 5, 7)


def _pad_dynamic(x, a):
    s = x.shape[1]
    return (F.pad(x, (0, 0, 0, (4 - s % 4) % 4)), F.pad(x, (1, 2, s // 2, 0), value=0.5),
            F.pad(x, (0, 0, 1, 4 - s), value=-1.0), F.pad(a, (0, (4 - s % 4) % 4), value=7))


@case("pad_dynamic", ["pad.default", "sym_size.int"],
      lambda g, d: (rn(g, 2, d["seq"], 3), ri(g, -5, 6, 2, d["seq"])), dynamic={"x": {1: SEQ57}, "a": {1: SEQ57}},
      dim_min={"seq": 5})
def _(self, x, a):
    """F.pad (constant) by amounts computed from a dynamic dim: Swin's pad to a multiple of the window
    (4 - S % 4) % 4, S // 2 before with value 0.5, 1 before and a crop by 4 - S after (S >= 5;
    value -1), an int64 tensor."""
    return _pad_dynamic(x, a)


@case("constant_pad_nd_dynamic", ["constant_pad_nd.default", "sym_size.int"],
      lambda g, d: (rn(g, 2, d["seq"], 3), ri(g, -5, 6, 2, d["seq"])), dynamic={"x": {1: SEQ57}, "a": {1: SEQ57}},
      dim_min={"seq": 5}, ir="ATEN")
def _(self, x, a):
    """Core ATen of pad_dynamic (constant_pad_nd with pad amounts computed in the graph)."""
    return _pad_dynamic(x, a)


def _init_weight_norm(m):
    g = torch.Generator().manual_seed(11)
    wn = torch.nn.utils.parametrizations.weight_norm
    m.conv = wn(nn.Conv1d(4, 6, 3, padding=1), dim=2)
    m.lin = wn(nn.Linear(5, 3))
    m.whole = wn(nn.Linear(5, 3), dim=None)
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.randn(p.shape, generator=g))


@case("weight_norm", ["_weight_norm.default"],
      lambda g, d: (rn(g, 2, 4, 7), rn(g, 3, 5), rn(g, 3, 4, 2), rn(g, 1, 4, 1)), init=_init_weight_norm)
def _(self, x, y, v, s):
    """nn.utils.parametrizations.weight_norm in eval: a Conv1d normalized along its kernel dim (dim=2,
    Wav2Vec2's positional convolution), a Linear (dim=0), a Linear over the whole weight (dim=None,
    torch's -1); torch._weight_norm of inputs along a middle dim (1)."""
    return self.conv(x), self.lin(y), self.whole(y), torch._weight_norm(v, s, 1)


@case("pad_modes_explicit", ["reflection_pad1d.default", "reflection_pad2d.default", "reflection_pad3d.default",
                             "replication_pad1d.default", "replication_pad2d.default", "replication_pad3d.default"],
      lambda g, d: (rn(g, 1, 2, 6), rn(g, 1, 2, 5, 6), rn(g, 1, 2, 3, 4, 5), rn(g, 2, 4, 5)))
def _(self, x3, x4, x5, u):
    """torch.ops.aten.reflection_padNd / replication_padNd (the core ops of F.pad's modes; export
    decomposes F.pad itself): positive, negative (crop) pads, unbatched."""
    a = torch.ops.aten
    out = []
    for p1, p2, p3 in ((a.reflection_pad1d, a.reflection_pad2d, a.reflection_pad3d),
                       (a.replication_pad1d, a.replication_pad2d, a.replication_pad3d)):
        out += [p1(x3, [2, 1]), p1(x3, [-1, 2]), p1(x3, [3, -2]), p2(x4, [1, 2, 2, 1]), p2(x4, [-1, 2, 2, -3]),
                p3(x5, [1, 0, 1, 2, 2, 1]), p2(u, [1, 2, 1, 1]), p1(u, [-1, 3])]
    return tuple(out)


for _t in ["reflection_pad1d", "reflection_pad2d", "reflection_pad3d", "replication_pad1d", "replication_pad2d",
           "replication_pad3d"]:
    EXPLICIT[f"aten.{_t}.default"] = "export decomposes `F.pad`; explicit in `pad_modes_explicit`"


# ==========================================================================
# Convolution: unbatched, 1-D/3-D, transposed, groups, dilation, padding modes
# ==========================================================================


def _init_convs(m):
    g = torch.Generator().manual_seed(7)
    m.w1 = nn.Parameter(torch.randn(4, 2, 3, generator=g))
    m.w2 = nn.Parameter(torch.randn(6, 1, 3, 2, generator=g))
    m.w3 = nn.Parameter(torch.randn(3, 2, 2, 3, 2, generator=g))
    m.wt1 = nn.Parameter(torch.randn(2, 3, 3, generator=g))
    m.wt3 = nn.Parameter(torch.randn(2, 2, 2, 3, 2, generator=g))
    m.b = nn.Parameter(torch.randn(6, generator=g))


@case("conv_variants", ["conv1d.default", "conv2d.default", "conv3d.default", "conv_transpose1d.default",
                        "conv_transpose3d.input", "conv1d.padding", "conv3d.padding", "conv2d.padding"],
      lambda g, d: (rn(g, 2, 9), rn(g, 1, 3, 7, 6), rn(g, 2, 4, 5, 4), rn(g, 1, 2, 5), rn(g, 2, 3, 4, 3)),
      init=_init_convs)
def _(self, x1, x2, x3, t1, t3):
    """Unbatched conv1d (dilation 2, padding 2) and conv3d; depthwise conv2d (groups 3, stride (2, 1));
    padding='same' 1-D/2-D/3-D and 'valid'; conv_transpose1d (stride 2, output_padding 1) and unbatched
    conv_transpose3d (stride (2, 1, 2), padding 1)."""
    w1, w2, w3 = self.w1, self.w2, self.w3
    return (F.conv1d(x1, w1, self.b[:4], padding=2, dilation=2),
            F.conv2d(x2, w2, self.b, stride=(2, 1), padding=(0, 1), groups=3),
            F.conv3d(x3, w3, None, stride=(2, 1, 1), padding=(1, 1, 2), dilation=(1, 1, 2)),
            F.conv1d(x1, w1, padding="same"),
            F.conv2d(x2, w2, padding="same", groups=3),
            F.conv3d(x3.unsqueeze(0), w3, padding="same"), F.conv3d(x3, w3, padding="valid"),
            F.conv_transpose1d(t1, self.wt1, self.b[:3], stride=2, padding=1, output_padding=1),
            F.conv_transpose3d(t3, self.wt3, stride=(2, 1, 2), padding=1, output_padding=(1, 0, 1)))


@case("conv_variants_core", ["convolution.default"],
      lambda g, d: (rn(g, 2, 9), rn(g, 1, 3, 7, 6), rn(g, 2, 4, 5, 4), rn(g, 1, 2, 5), rn(g, 2, 3, 4, 3)),
      init=_init_convs, ir="ATEN")
def _(self, x1, x2, x3, t1, t3):
    """Core ATen of conv_variants (unbatched inputs, 1-D/3-D, transposed, 'same')."""
    w1, w2, w3 = self.w1, self.w2, self.w3
    return (F.conv1d(x1, w1, self.b[:4], padding=2, dilation=2),
            F.conv2d(x2, w2, self.b, stride=(2, 1), padding=(0, 1), groups=3),
            F.conv3d(x3, w3, None, stride=(2, 1, 1), padding=(1, 1, 2), dilation=(1, 1, 2)),
            F.conv1d(x1, w1, padding="same"),
            F.conv_transpose1d(t1, self.wt1, self.b[:3], stride=2, padding=1, output_padding=1),
            F.conv_transpose3d(t3, self.wt3, stride=(2, 1, 2), padding=1, output_padding=(1, 0, 1)))


# ==========================================================================
# Pooling: 1-D/3-D, unbatched, ceil_mode, count_include_pad, divisor_override,
# indices, adaptive pools with non-divisible sizes
# ==========================================================================


@case("avg_pool_variants", ["avg_pool1d.default", "avg_pool2d.default", "avg_pool3d.default"],
      lambda g, d: (rn(g, 1, 2, 9), rn(g, 2, 6, 7), rn(g, 1, 2, 5, 5, 6)))
def _(self, x1, x2, x3):
    """avg_pool1d (ceil_mode, padding, count_include_pad False); unbatched avg_pool2d (ceil_mode with an
    overhanging window, divisor_override); avg_pool3d (stride 2, padding, ceil)."""
    return (F.avg_pool1d(x1, 3, stride=2, padding=1, ceil_mode=True),
            F.avg_pool1d(x1, 3, stride=2, padding=1, count_include_pad=False),
            F.avg_pool2d(x2, 3, stride=2, padding=1, ceil_mode=True),
            F.avg_pool2d(x2, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
            F.avg_pool2d(x2, 2, divisor_override=3),
            F.avg_pool3d(x3, 3, stride=2, padding=1, ceil_mode=True),
            F.avg_pool3d(x3, (2, 3, 2), count_include_pad=False, padding=(1, 1, 0)))


@case("avg_pool_variants_core", ["avg_pool2d.default", "avg_pool3d.default"],
      lambda g, d: (rn(g, 1, 2, 9), rn(g, 2, 6, 7), rn(g, 1, 2, 5, 5, 6)), ir="ATEN")
def _(self, x1, x2, x3):
    """Core ATen of avg_pool_variants (avg_pool1d becomes avg_pool2d)."""
    return (F.avg_pool1d(x1, 3, stride=2, padding=1, ceil_mode=True),
            F.avg_pool2d(x2, 3, stride=2, padding=1, ceil_mode=True),
            F.avg_pool2d(x2, 2, divisor_override=3),
            F.avg_pool3d(x3, 3, stride=2, padding=1, ceil_mode=True))


@case("max_pool_variants", ["max_pool1d.default", "max_pool2d.default", "max_pool3d.default",
                            "max_pool2d_with_indices.default", "max_pool3d_with_indices.default",
                            "max_pool1d_with_indices.default"],
      lambda g, d: (rn(g, 2, 2, 9), rn(g, 3, 6, 7), rn(g, 1, 2, 5, 5, 6)))
def _(self, x1, x2, x3):
    """max pools 1-D/2-D/3-D with their indices (torch's per-plane flat indices): ceil_mode, padding,
    dilation, unbatched 2-D."""
    v1, i1 = F.max_pool1d(x1, 3, stride=2, padding=1, ceil_mode=True, return_indices=True)
    v2, i2 = F.max_pool2d(x2, 3, stride=2, padding=1, ceil_mode=True, return_indices=True)
    v3, i3 = F.max_pool3d(x3, 2, dilation=2, return_indices=True)
    return (F.max_pool1d(x1, 2), F.max_pool2d(x2, (3, 2), stride=(2, 1), padding=1),
            F.max_pool3d(x3, 3, stride=2, padding=1, ceil_mode=True), v1, i1, v2, i2, v3, i3)


@case("max_pool_variants_core", ["max_pool2d_with_indices.default", "max_pool3d_with_indices.default"],
      lambda g, d: (rn(g, 3, 6, 7), rn(g, 1, 2, 5, 5, 6)), ir="ATEN")
def _(self, x2, x3):
    """Core ATen max pools with used indices; unbatched; 3-D ceil_mode."""
    v2, i2 = F.max_pool2d(x2, 3, stride=2, padding=1, ceil_mode=True, return_indices=True)
    v3, i3 = F.max_pool3d(x3, 3, stride=2, padding=1, ceil_mode=True, return_indices=True)
    return v2, i2, v3, i3, F.max_pool3d(x3, 2)


@case("adaptive_pool_variants", ["adaptive_avg_pool1d.default", "adaptive_avg_pool2d.default",
                                 "adaptive_avg_pool3d.default", "adaptive_max_pool1d.default",
                                 "adaptive_max_pool2d.default", "adaptive_max_pool3d.default"],
      lambda g, d: (rn(g, 2, 3, 7), rn(g, 1, 2, 7, 5), rn(g, 2, 5, 7, 6)))
def _(self, x1, x2, x3):
    """Adaptive avg / max pools 1-D/2-D/3-D with sizes that do not divide the input (overlapping bins),
    that do, upsampling bins, unbatched 3-D; max pools with indices."""
    m1, i1 = F.adaptive_max_pool1d(x1, 3, return_indices=True)
    m2, i2 = F.adaptive_max_pool2d(x2, (3, 4), return_indices=True)
    m3, i3 = F.adaptive_max_pool3d(x3, (3, 2, 4), return_indices=True)
    return (F.adaptive_avg_pool1d(x1, 3), F.adaptive_avg_pool1d(x1, 1), F.adaptive_avg_pool2d(x2, (3, 4)),
            F.adaptive_avg_pool2d(x2, (9, 5)), F.adaptive_avg_pool3d(x3, (3, 2, 4)),
            F.adaptive_avg_pool3d(x3, 1), m1, i1, m2, i2, m3, i3, F.adaptive_max_pool2d(x2, 1))


@case("adaptive_pool_variants_core", ["_adaptive_avg_pool2d.default",
                                      "_adaptive_avg_pool3d.default"],
      lambda g, d: (rn(g, 1, 3, 7), rn(g, 1, 2, 7, 5), rn(g, 1, 2, 5, 7, 6)), ir="ATEN")
def _(self, x1, x2, x3):
    """Core ATen adaptive average pools with non-divisible sizes."""
    return (F.adaptive_avg_pool1d(x1, 3), F.adaptive_avg_pool2d(x2, (3, 4)), F.adaptive_avg_pool3d(x3, (3, 2, 4)))


AH, AW = ("h", 5, 7), ("w", 9, 4)


def _adaptive_avg_dynamic(x1, x2, x3):
    return (F.adaptive_avg_pool1d(x1, 3), F.adaptive_avg_pool2d(x2, (7, 7)), F.adaptive_avg_pool2d(x2, (2, 3)),
            F.adaptive_avg_pool2d(x2, (1, 4)), F.adaptive_avg_pool3d(x3, (2, 3, 4)))


@case("adaptive_avg_pool_dynamic", ["adaptive_avg_pool1d.default", "adaptive_avg_pool2d.default",
                                    "adaptive_avg_pool3d.default"],
      lambda g, d: (rn(g, 2, 3, d["w"]), rn(g, 2, 3, d["h"], d["w"]), rn(g, 1, 2, d["h"], 6, d["w"])),
      dynamic={"x1": {2: AW}, "x2": {2: AH, 3: AW}, "x3": {2: AH, 4: AW}})
def _(self, x1, x2, x3):
    """Adaptive average pools of dynamic spatial sizes (VGG's / AlexNet's 7x7 / 6x6 pooling exported
    with dynamic image sizes): overlapping bins, upsampling bins (W = 4 < 7 in set_1), a dynamic dim
    pooled to 1 next to another, 3-D with a static middle dim."""
    return _adaptive_avg_dynamic(x1, x2, x3)


@case("adaptive_avg_pool_dynamic_core", ["_adaptive_avg_pool2d.default", "_adaptive_avg_pool3d.default"],
      lambda g, d: (rn(g, 2, 3, d["w"]), rn(g, 2, 3, d["h"], d["w"]), rn(g, 1, 2, d["h"], 6, d["w"])),
      dynamic={"x1": {2: AW}, "x2": {2: AH, 3: AW}, "x3": {2: AH, 4: AW}}, ir="ATEN")
def _(self, x1, x2, x3):
    """Core ATen of adaptive_avg_pool_dynamic."""
    return _adaptive_avg_dynamic(x1, x2, x3)


@case("adaptive_max_pool_dynamic", ["adaptive_max_pool1d.default", "adaptive_max_pool2d.default",
                                    "adaptive_max_pool3d.default"],
      lambda g, d: (rn(g, 2, 3, d["w"]), rn(g, 2, 3, d["h"], d["w"]), rn(g, 1, 2, d["h"], 6, d["w"])),
      dynamic={"x1": {2: AW}, "x2": {2: AH, 3: AW}, "x3": {2: AH, 4: AW}})
def _(self, x1, x2, x3):
    """Adaptive max pools (values and indices) of dynamic spatial sizes: global (CBAM's channel
    attention, timm's max / avgmax pooling), overlapping bins, upsampling bins (W = 4 < 7 in set_1),
    3-D with a static middle dim."""
    return (F.adaptive_max_pool1d(x1, 3, return_indices=True), F.adaptive_max_pool2d(x2, 1, return_indices=True),
            F.adaptive_max_pool2d(x2, (7, 7), return_indices=True), F.adaptive_max_pool2d(x2, (2, 3)),
            F.adaptive_max_pool3d(x3, (2, 3, 4), return_indices=True))


# ==========================================================================
# Normalization and channel rearrangements
# ==========================================================================


@case("norm_variants", ["instance_norm.default", "pixel_unshuffle.default", "channel_shuffle.default"],
      lambda g, d: (rn(g, 2, 3, 4, 5), rn(g, 2, 6, 4, 6), rn(g, 3, 4, 5)))
def _(self, x, y, z):
    """F.instance_norm with / without affine (2-D and 1-D), F.pixel_unshuffle 2 (also with 2 leading
    dims), F.channel_shuffle 3 and 2."""
    w = torch.linspace(0.5, 1.5, 3)
    return (F.instance_norm(x), F.instance_norm(x, weight=w, bias=w - 1.0), F.instance_norm(z),
            F.pixel_unshuffle(y, 2), F.pixel_unshuffle(y.view(2, 2, 3, 4, 6), 2),
            F.channel_shuffle(y, 3), F.channel_shuffle(z, 3 if False else 1) + 0, torch.channel_shuffle(z, 1))


@case("norm_variants_core", ["native_group_norm.default", "_native_batch_norm_legit.no_stats"],
      lambda g, d: (rn(g, 2, 6, 4, 5), rn(g, 3, 4, 5)), ir="ATEN")
def _(self, x, z):
    """Core ATen of F.group_norm (2-D and 1-D, affine and not) and F.instance_norm (which becomes
    _native_batch_norm_legit.no_stats)."""
    w = torch.linspace(0.5, 1.5, 6)
    return (F.group_norm(x, 3, w, w - 1.0), F.group_norm(x, 2), F.group_norm(z, 2),
            F.instance_norm(x), F.instance_norm(z))


@case("batch_norm_train_core", ["_native_batch_norm_legit_functional.default"],
      lambda g, d: (rn(g, 2, 3, 4, 5), rn(g, 5, 4), rn(g, 3), pos(g, 3)), ir="ATEN")
def _(self, x, y, rm, rv):
    """Core ATen of F.batch_norm in training mode (batch statistics) with running stats (clones, updated
    in place and returned: momentum 0.1 and 0.3, unbiased variance) and without weight/bias."""
    m, v = rm.clone(), rv.clone()
    w = torch.linspace(0.5, 1.5, 3)
    out = F.batch_norm(x, m, v, w, w - 1.0, training=True, momentum=0.3)
    m4, v4 = torch.zeros(4), torch.ones(4)
    out1 = F.batch_norm(y, m4, v4, training=True)
    return out, m, v, out1, m4, v4, F.batch_norm(y, None, None, training=True)


# ==========================================================================
# Distances, embedding bags, grid sampling
# ==========================================================================


@case("distances", ["cdist.default", "pdist.default", "cosine_similarity.default", "pairwise_distance.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 5, 4), rn(g, 2, 3, 4)))
def _(self, a, b, c):
    """torch.cdist p=2/1/0/inf/3 (batched too), F.pdist p=2/1/inf, F.cosine_similarity (broadcast, dim 0,
    large eps), F.pairwise_distance p=2/1/3/inf with keepdim."""
    return (torch.cdist(a, b), torch.cdist(a, b, p=1.0), torch.cdist(a, b, p=0.0),
            torch.cdist(a, b, p=float("inf")), torch.cdist(c, c, p=3.0),
            F.pdist(b), F.pdist(b, p=1.0), F.pdist(a, p=float("inf")),
            F.cosine_similarity(a, b[:3]), F.cosine_similarity(c, a, dim=-1), F.cosine_similarity(c, c + 1, dim=0),
            F.cosine_similarity(a, a * 0, eps=0.5),
            F.pairwise_distance(a, b[:3]), F.pairwise_distance(a, b[0], p=1.0, keepdim=True),
            F.pairwise_distance(c, c.flip(0), p=3.0), F.pairwise_distance(a, b[1:4], p=float("inf")))


@case("distances_core", ["_cdist_forward.default", "_pdist_forward.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 5, 4), rn(g, 2, 3, 4)), ir="ATEN")
def _(self, a, b, c):
    """Core ATen of torch.cdist / F.pdist (p = 2, 1, 0, inf, 3)."""
    return (torch.cdist(a, b), torch.cdist(a, b, p=1.0), torch.cdist(a, b, p=0.0),
            torch.cdist(a, b, p=float("inf")), torch.cdist(c, c, p=3.0), F.pdist(b), F.pdist(b, p=1.0))


@case("embedding_bag_modes", ["embedding_bag.padding_idx"],
      lambda g, d: (rn(g, 10, 3), ri(g, 0, 10, 8), ri(g, 0, 10, 3, 4), rn(g, 8)))
def _(self, w, idx, idx2, psw):
    """F.embedding_bag sum / mean / max with offsets (an empty bag), per_sample_weights, padding_idx,
    include_last_offset, and 2-D input (fixed-size bags)."""
    off = torch.tensor([0, 3, 3, 6])
    out = []
    for mode in ("sum", "mean", "max"):
        out += [F.embedding_bag(idx, w, off, mode=mode), F.embedding_bag(idx2, w, mode=mode),
                F.embedding_bag(idx, w, off, mode=mode, padding_idx=idx[0].item() if False else 4),
                F.embedding_bag(idx, w, torch.tensor([0, 2, 5, 8]), mode=mode, include_last_offset=True)]
    out.append(F.embedding_bag(idx, w, off, mode="sum", per_sample_weights=psw))
    return tuple(out)


@case("embedding_bag_dynamic", ["embedding_bag.padding_idx"],
      lambda g, d: (rn(g, 10, 3), ri(g, 0, 10, d["batch"], 4), ri(g, 0, 10, 2 * d["batch"] + 1)),
      dynamic={"idx2": {0: BATCH}, "idx": {0: ("n", 5, 7)}})
def _(self, w, idx2, idx):
    """nn.EmbeddingBag as a model uses it, with a dynamic number of bags: 2-D input (batch of fixed-size
    bags; mean, max, sum with padding_idx) and 1-D input with offsets over a dynamic length; the
    offset2bag / bag_size / max_indices results of dynamic size are unused."""
    off = torch.tensor([0, 2, 2])
    return (F.embedding_bag(idx2, w, mode="mean"), F.embedding_bag(idx2, w, mode="max"),
            F.embedding_bag(idx2, w, mode="sum", padding_idx=3), F.embedding_bag(idx, w, off, mode="mean"))


@case("affine_grid_dynamic", ["affine_grid_generator.default", "grid_sampler.default"],
      lambda g, d: (rn(g, d["batch"], 2, 5, 7), rn(g, d["batch"], 2, 3) * 0.5 + torch.eye(2, 3),
                    rn(g, d["batch"], 1, 3, 4, 5), rn(g, d["batch"], 3, 4) * 0.3 + torch.eye(3, 4)),
      dynamic={"x": {0: BATCH}, "theta": {0: BATCH}, "v": {0: BATCH}, "theta3": {0: BATCH}})
def _(self, x, theta, v, theta3):
    """A spatial transformer: F.affine_grid over the input's size (dynamic batch; F.affine_grid's size
    checks make torch.export specialize H and W), both align_corners, then F.grid_sample; a 5-D grid;
    a 1-pixel-wide grid (a size-1 dim sits at 0)."""
    g = F.affine_grid(theta, list(x.shape), align_corners=False)
    ga = F.affine_grid(theta, [x.shape[0], 2, x.shape[2], 1], align_corners=True)
    g3 = F.affine_grid(theta3, list(v.shape), align_corners=False)
    return F.grid_sample(x, g, align_corners=False), ga, g3


@case("embedding_max_norm", ["embedding_renorm.default"],
      lambda g, d: (rn(g, 10, 3), ri(g, 0, 10, 8), ri(g, 0, 10, 3, 4)))
def _(self, w, idx, idx2):
    """nn.Embedding(max_norm=...) through F.embedding: rows the indices name (repeated ones once)
    renormalised in place on a clone of the table (p = 2, 1, inf), then gathered; the renormalised
    table itself is an output too."""
    out = []
    for p in (2.0, 1.0, float("inf")):
        t = w.clone() * 2.0
        out += [F.embedding(idx2 if p == 1.0 else idx, t, max_norm=0.8, norm_type=p), t]
    return tuple(out)


@case("embedding_bag_core", ["_embedding_bag.default"],
      lambda g, d: (rn(g, 10, 3), ri(g, 0, 10, 8), rn(g, 8)), ir="ATEN")
def _(self, w, idx, psw):
    """Core ATen of F.embedding_bag in training-free form (explicit _embedding_bag): sum with
    per_sample_weights, mean, max, padding_idx."""
    off = torch.tensor([0, 3, 3, 6])
    a = torch.ops.aten
    return (a._embedding_bag.default(w, idx, off, False, 0, False, psw)[0],
            a._embedding_bag.default(w, idx, off, False, 1)[0],
            a._embedding_bag.default(w, idx, off, False, 2, False, None, False, 4)[0])


EXPLICIT["aten._embedding_bag.default"] = ("core ATen makes F.embedding_bag `_embedding_bag_forward_only`; "
                                           "explicit in `embedding_bag_core`")


def _grid_sample_all(x, grid):
    out = []
    for mode in ("bilinear", "nearest", "bicubic"):
        for pm in ("zeros", "border", "reflection"):
            for ac in (False, True):
                out.append(F.grid_sample(x, grid, mode=mode, padding_mode=pm, align_corners=ac))
    return tuple(out)


@case("grid_sample_modes_core", ["grid_sampler_2d.default"],
      lambda g, d: (rn(g, 2, 3, 5, 6), ur(g, -1.2, 1.2, 2, 4, 3, 2)), ir="ATEN")
def _(self, x, grid):
    """Core ATen of grid_sample_modes (grid_sampler_2d)."""
    return _grid_sample_all(x, grid)


@case("grid_sample_modes", ["grid_sampler.default"], lambda g, d: (rn(g, 2, 3, 5, 6), ur(g, -1.2, 1.2, 2, 4, 3, 2)))
def _(self, x, grid):
    """F.grid_sample bilinear / nearest / bicubic x zeros / border / reflection x align_corners (grid
    slightly out of range)."""
    out = []
    for mode in ("bilinear", "nearest", "bicubic"):
        for pm in ("zeros", "border", "reflection"):
            for ac in (False, True):
                out.append(F.grid_sample(x, grid, mode=mode, padding_mode=pm, align_corners=ac))
    return tuple(out)


# ==========================================================================
# Losses (TRAINING IR keeps them as distinct ops), each reduction
# ==========================================================================


def _sign(g, *s):
    return torch.where(torch.rand(*s, generator=g) < 0.5, -1.0, 1.0)


@case("losses_regression", ["mse_loss.default", "l1_loss.default", "smooth_l1_loss.default",
                            "huber_loss.default", "soft_margin_loss.default", "margin_ranking_loss.default",
                            "hinge_embedding_loss.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 3, 4), _sign(g, 3, 4)))
def _(self, x, y, s):
    """mse / l1 / smooth_l1 (beta 1, 0.5, 0) / huber (delta 1, 0.5) / soft_margin / margin_ranking (margin
    0, 0.5) / hinge_embedding (margin 1, 0.5; targets +-1) with reduction mean, sum, none."""
    out = []
    for r in ("mean", "sum", "none"):
        out += [F.mse_loss(x, y, reduction=r), F.l1_loss(x, y, reduction=r),
                F.smooth_l1_loss(x, y, reduction=r), F.smooth_l1_loss(x, y, reduction=r, beta=0.5),
                F.smooth_l1_loss(x, y, reduction=r, beta=0.0), F.huber_loss(x, y, reduction=r),
                F.huber_loss(x, y, reduction=r, delta=0.5), F.soft_margin_loss(x, s, reduction=r),
                F.margin_ranking_loss(x, y, s, reduction=r), F.margin_ranking_loss(x, y, s, margin=0.5, reduction=r),
                F.hinge_embedding_loss(x, s, reduction=r), F.hinge_embedding_loss(x, s, margin=0.5, reduction=r)]
    return tuple(out)


@case("losses_probabilistic", ["binary_cross_entropy.default", "binary_cross_entropy_with_logits.default",
                               "kl_div.default", "poisson_nll_loss.default"],
      lambda g, d: (rn(g, 3, 4), ur(g, 0.01, 0.99, 3, 4), ur(g, 0.0, 1.0, 3, 4), pos(g, 4), ur(g, 0.0, 3.0, 3, 4)))
def _(self, x, p, t, w, k):
    """binary_cross_entropy (weight, p with exact 0 / 1 entries: the -100 log clamp), with_logits (weight,
    pos_weight), kl_div (log_target both ways, batchmean), poisson_nll_loss (log_input both ways, full)."""
    p01 = torch.cat([p[:2], torch.tensor([[0.0, 1.0, 0.5, 1.0]])])
    out = []
    for r in ("mean", "sum", "none"):
        out += [F.binary_cross_entropy(p, t, reduction=r), F.binary_cross_entropy(p01, t, weight=w, reduction=r),
                F.binary_cross_entropy_with_logits(x, t, reduction=r),
                F.binary_cross_entropy_with_logits(x, t, weight=w, pos_weight=w + 0.5, reduction=r),
                F.kl_div(x, t, reduction=r), F.kl_div(x, x.exp() * 0.1, reduction=r, log_target=True),
                F.poisson_nll_loss(x, k, reduction=r), F.poisson_nll_loss(p, k, log_input=False, full=True, reduction=r)]
    out.append(F.kl_div(x, t, reduction="batchmean"))
    return tuple(out)


@case("losses_classification", ["nll_loss_nd.default", "cross_entropy_loss.default"],
      lambda g, d: (rn(g, 4, 3), ri(g, 0, 3, 4), rn(g, 2, 3, 4, 5), ri(g, 0, 3, 2, 4, 5), pos(g, 3),
                    ur(g, 0.0, 1.0, 4, 3)))
def _(self, x, t, x4, t4, w, prob):
    """nll_loss / cross_entropy: weight, ignore_index (a target set to it), label_smoothing, probability
    targets, 4-D (N, C, H, W) inputs, unbatched, each reduction."""
    ti = t.clone()
    ti[1] = -100
    lp = F.log_softmax(x, 1)
    out = []
    for r in ("mean", "sum", "none"):
        out += [F.nll_loss(lp, t, reduction=r), F.nll_loss(lp, ti, weight=w, reduction=r),
                F.nll_loss(F.log_softmax(x4, 1), t4, weight=w, reduction=r, ignore_index=2),
                F.cross_entropy(x, t, reduction=r), F.cross_entropy(x, ti, weight=w, reduction=r),
                F.cross_entropy(x, ti, label_smoothing=0.2, reduction=r),
                F.cross_entropy(x, ti, weight=w, label_smoothing=0.1, reduction=r),
                F.cross_entropy(x4, t4, weight=w, reduction=r, label_smoothing=0.05),
                F.cross_entropy(x, prob, reduction=r), F.cross_entropy(x, prob, weight=w, label_smoothing=0.3,
                                                                       reduction=r)]
    out += [F.cross_entropy(x[0], t[0]), F.nll_loss(lp[0], t[0])]
    return tuple(out)


@case("linear_cross_entropy_chunked", ["linear.default", "cross_entropy_loss.default", "zeros.default"],
      lambda g, d: (rn(g, 5, 4), rn(g, 7, 4), ri(g, 0, 7, 5), rn(g, 7), pos(g, 7), rn(g, 4), ri(g, 0, 7)))
def _(self, x, w, t, b, cw, x1, t1):
    """F.linear_cross_entropy with LinearCrossEntropyOptions (torch 2.13's batch-chunked path, exported as
    the custom ops torch_nn._linear_cross_entropy_batch_chunked[_no_reduction], which the importer rewrites
    into linear + cross_entropy_loss + zeros for the empty gradient slots): mean with a bias, sum with a
    class weight and ignore_index, none with both, an unbatched input, a chunk size past the batch."""
    o = torch.nn.LinearCrossEntropyOptions(batch_chunk_size=2)
    return (F.linear_cross_entropy(x, w, t, linear_bias=b, reduction="mean", options=o),
            F.linear_cross_entropy(x, w, t, weight=cw, reduction="sum", ignore_index=3, options=o),
            F.linear_cross_entropy(x, w, t, linear_bias=b, weight=cw, reduction="none", ignore_index=2,
                                   options=o),
            F.linear_cross_entropy(x1, w, t1, reduction="mean", options=o),
            F.linear_cross_entropy(x, w, t, reduction="mean",
                                   options=torch.nn.LinearCrossEntropyOptions(batch_chunk_size=16)))


@case("nll_loss_explicit", ["nll_loss.default", "nll_loss2d.default", "nll_loss_forward.default",
                            "nll_loss2d_forward.default"],
      lambda g, d: (rn(g, 4, 3), ri(g, 0, 3, 4), rn(g, 2, 3, 4, 5), ri(g, 0, 3, 2, 4, 5), pos(g, 3)))
def _(self, x, t, x4, t4, w):
    """Explicit nll_loss / nll_loss2d / nll_loss_forward / nll_loss2d_forward (F.nll_loss exports
    nll_loss_nd): weight, ignore_index, reductions, total_weight."""
    a = torch.ops.aten
    return (a.nll_loss.default(x, t), a.nll_loss.default(x, t, w, 0, 1), a.nll_loss2d.default(x4, t4, w, 2),
            *a.nll_loss_forward.default(x, t, w, 1, 2), *a.nll_loss_forward.default(x, t, None, 2, -100),
            *a.nll_loss2d_forward.default(x4, t4, w, 1, 0))


for _t in ["nll_loss", "nll_loss2d", "nll_loss_forward", "nll_loss2d_forward"]:
    EXPLICIT[f"aten.{_t}.default"] = "`F.nll_loss` exports `nll_loss_nd`; explicit in `nll_loss_explicit`"


# ==========================================================================
# Unfold / fold / max_unpool
# ==========================================================================


@case("unfold_fold", ["im2col.default", "col2im.default"], lambda g, d: (rn(g, 2, 3, 6, 5), rn(g, 2, 18, 16)))
def _(self, x, cols):
    """F.unfold (kernel (3, 2), dilation (2, 1), padding (1, 2), stride (2, 1); unbatched) and F.fold of
    matching columns (overlapping patches summed)."""
    return (F.unfold(x, (3, 2), dilation=(2, 1), padding=(1, 2), stride=(2, 1)), F.unfold(x[0], 2, stride=2),
            F.fold(cols, (6, 5), (3, 2), dilation=(2, 1), padding=(1, 2), stride=(2, 1)),
            F.fold(F.unfold(x, 2), (6, 5), 2))


@case("unfold_dynamic", ["im2col.default"],
      lambda g, d: (rn(g, 2, 6, d["s"], 1), rn(g, 2, 3, d["s"], d["t"]), rn(g, 0, 2, d["s"], d["t"])),
      dynamic={"x": {2: ("s", 5, 9)}, "y": {2: ("s", 5, 9), 3: ("t", 6, 10)}, "z": {2: ("s", 5, 9), 3: ("t", 6, 10)}},
      dim_min={"s": 3, "t": 3})
def _(self, x, y, z):
    """F.unfold on a dynamic sequence (ConvBERT's span-based dynamic convolution: [B, C, S, 1],
    kernel (3, 1), padding (1, 0)), on dynamic H and W with dilation, stride and padding, and on an
    empty batch (the result's sizes are spelled out: a reshape to [0, C*k, -1] is ambiguous)."""
    return (F.unfold(x, (3, 1), padding=(1, 0)), F.unfold(y, (2, 3), dilation=(2, 1), padding=(1, 2), stride=(2, 1)),
            F.unfold(y, 1), F.unfold(z, 2) + 1)


@case("max_unpool", ["max_unpool2d.default", "max_unpool3d.default"],
      lambda g, d: (rn(g, 2, 3, 6, 8), rn(g, 1, 2, 4, 4, 6)))
def _(self, x, v):
    """F.max_unpool2d / 3d of max_pool results (default and explicit output_size), unbatched 2-D."""
    p, i = F.max_pool2d(x, 2, return_indices=True)
    p3, i3 = F.max_pool3d(v, 2, return_indices=True)
    pu, iu = F.max_pool2d(x[0], 3, stride=2, return_indices=True)
    return (F.max_unpool2d(p, i, 2), F.max_unpool2d(p, i, 2, output_size=(7, 8)), F.max_unpool3d(p3, i3, 2),
            F.max_unpool2d(pu, iu, 3, stride=2, output_size=(6, 8)))


# ==========================================================================
# Core ATen backward ops (as a training graph calls them)
# ==========================================================================


@case("backward_ops", ["convolution_backward.default", "native_layer_norm_backward.default",
                       "native_group_norm_backward.default", "avg_pool2d_backward.default",
                       "max_pool2d_with_indices_backward.default", "embedding_dense_backward.default",
                       "_adaptive_avg_pool2d_backward.default"],
      lambda g, d: (rn(g, 2, 4, 7, 6), rn(g, 4, 2, 3, 2), rn(g, 2, 4, 4, 2), rn(g, 2, 3, 4), ri(g, 0, 6, 2, 3),
                    rn(g, 2, 3, 6)))
def _(self, x, w, go, h, idx, e):
    """Explicit backward ops with torch's own forward results: convolution_backward (groups 2, stride,
    dilation; and transposed), native_layer_norm_backward, native_group_norm_backward,
    avg_pool2d_backward (ceil_mode, count_include_pad False), max_pool2d_with_indices_backward,
    embedding_dense_backward (padding_idx, scale_grad_by_freq), _adaptive_avg_pool2d_backward."""
    a = torch.ops.aten
    m = [True, True, True]
    gi, gw, gb = a.convolution_backward.default(go, x, w, [4], [2, 2], [1, 0], [1, 2], False, [0, 0], 2, m)
    wt = w[:, :, :, :1].transpose(0, 1).contiguous()  # [2, 4, 3, 1]: transposed weight, groups 2 -> Cout 8
    y = a.convolution.default(x[:, :, :4, :4], wt.reshape(4, 2, 3, 1), None, [2, 1], [1, 0], [1, 1], True, [1, 0],
                              2)
    ti, tw, tb = a.convolution_backward.default(y * 0.5 + 1, x[:, :, :4, :4], wt.reshape(4, 2, 3, 1), [4], [2, 1],
                                                [1, 0], [1, 1], True, [1, 0], 2, m)
    out, mean, rstd = a.native_layer_norm.default(h, [4], torch.linspace(0.5, 1.5, 4), torch.zeros(4), 1e-5)
    li, lw, lb = a.native_layer_norm_backward.default(h * 0.3, h, [4], mean, rstd, torch.linspace(0.5, 1.5, 4),
                                                      torch.zeros(4), m)
    gout, gmean, grstd = a.native_group_norm.default(x, torch.linspace(0.5, 1.5, 4), None, 2, 4, 42, 2, 1e-5)
    ni, nw, nb = a.native_group_norm_backward.default(x * 0.1, x, gmean, grstd, torch.linspace(0.5, 1.5, 4), 2, 4,
                                                      42, 2, m)
    pooled = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)
    ai = a.avg_pool2d_backward.default(pooled + 1, x, [3, 3], [2, 2], [1, 1], True, False, None)
    mv, mi = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    mxi = a.max_pool2d_with_indices_backward.default(mv * 2, x, [3, 3], [2, 2], [1, 1], [1, 1], False, mi)
    ei = a.embedding_dense_backward.default(e, idx, 6, 2, False)
    ef = a.embedding_dense_backward.default(e, idx, 6, -1, True)
    ad = a._adaptive_avg_pool2d_backward.default(F.adaptive_avg_pool2d(x, (3, 4)), x)
    return gi, gw, gb, ti, tw, tb, li, lw, lb, ni, nw, nb, ai, mxi, ei, ef, ad


for _t in ["convolution_backward", "native_layer_norm_backward", "native_group_norm_backward", "avg_pool2d_backward",
           "max_pool2d_with_indices_backward", "embedding_dense_backward", "_adaptive_avg_pool2d_backward"]:
    EXPLICIT[f"aten.{_t}.default"] = ("backward ops appear in training graphs (aot_autograd); explicit in "
                                     "`backward_ops`")


def _with_nans(g, *s):
    x = torch.randn(s, generator=g)
    return torch.where(torch.rand(s, generator=g) < 0.08, torch.full(s, float("nan")), x)


@case("max_pool_nan", ["max_pool2d_with_indices.default", "max_pool1d.default", "adaptive_max_pool2d.default",
                       "max_pool3d_with_indices.default"],
      lambda g, d: (_with_nans(g, 2, 3, 7, 8), _with_nans(g, 1, 2, 4, 5, 6)))
def _(self, x, v):
    """NaN propagation of max pools (torch: a window with a NaN gives NaN, index of its last NaN): max_pool2d
    with indices and padding, max_pool1d, adaptive_max_pool2d (divisible and not), max_pool3d."""
    v2, i2 = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    a1, ai1 = F.adaptive_max_pool2d(x, (7, 4), return_indices=True)
    a2, ai2 = F.adaptive_max_pool2d(x, (3, 5), return_indices=True)
    v3, i3 = F.max_pool3d(v, 2, return_indices=True)
    outs = (v2, F.max_pool1d(x[0], 2), a1, a2, v3)
    # Outputs must be finite: the NaN mask, and the values with NaN replaced.
    return (*(torch.isnan(o) for o in outs), *(torch.where(torch.isnan(o), 7.0, o) for o in outs),
            i2, ai1, ai2, i3)


@case("nn_misc_explicit", ["_adaptive_avg_pool3d_backward.default", "avg_pool3d_backward.default",
                           "max_pool3d_with_indices_backward.default", "native_batch_norm.default",
                           "native_channel_shuffle.default", "embedding_bag.default"],
      lambda g, d: (rn(g, 1, 2, 5, 6, 4), rn(g, 2, 6, 3, 3), rn(g, 10, 3), ri(g, 0, 10, 8)))
def _(self, v, x, w, idx):
    """Explicit 3-D pool backward ops (adaptive avg, avg with ceil_mode / count_include_pad False, max with
    indices), native_batch_norm (training without running stats; eval with them), native_channel_shuffle,
    embedding_bag.default (mean and max)."""
    a = torch.ops.aten
    ad = a._adaptive_avg_pool3d_backward.default(F.adaptive_avg_pool3d(v, (2, 4, 3)), v)
    ap = F.avg_pool3d(v, 2, stride=2, padding=(1, 0, 1), ceil_mode=True, count_include_pad=False)
    ab = a.avg_pool3d_backward.default(ap * 2, v, [2, 2, 2], [2, 2, 2], [1, 0, 1], True, False, None)
    mv, mi = F.max_pool3d(v, 2, return_indices=True)
    mb = a.max_pool3d_with_indices_backward.default(mv + 1, v, [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1], False, mi)
    wt = torch.linspace(0.5, 1.5, 6)
    bn, bm, br = a.native_batch_norm.default(x, wt, wt - 1, None, None, True, 0.1, 1e-5)
    be = a.native_batch_norm.default(x, wt, None, torch.zeros(6) + 0.1, torch.ones(6) * 1.5, False, 0.1, 1e-5)[0]
    off = torch.tensor([0, 3, 3, 6])
    return (ad, ab, mb, bn, bm, br, be, a.native_channel_shuffle.default(x, 3),
            a.embedding_bag.default(w, idx, off, False, 1)[0], a.embedding_bag.default(w, idx, off, False, 2)[0])


for _t in ["_adaptive_avg_pool3d_backward", "avg_pool3d_backward", "max_pool3d_with_indices_backward",
           "native_batch_norm", "native_channel_shuffle", "embedding_bag"]:
    EXPLICIT[f"aten.{_t}.default"] = "not produced by torch.export of ordinary code; explicit in `nn_misc_explicit`"


@case("embedding_bag_forward_only_core", ["_embedding_bag_forward_only.default"],
      lambda g, d: (rn(g, 10, 3), ri(g, 0, 10, 8), ri(g, 0, 10, 3, 4), rn(g, 8)), ir="ATEN")
def _(self, w, idx, idx2, psw):
    """Core ATen of F.embedding_bag (sum with per_sample_weights, mean, max with padding_idx, 2-D input,
    include_last_offset)."""
    off = torch.tensor([0, 3, 3, 6])
    return (F.embedding_bag(idx, w, off, mode="sum", per_sample_weights=psw), F.embedding_bag(idx2, w, mode="mean"),
            F.embedding_bag(idx, w, off, mode="max", padding_idx=4),
            F.embedding_bag(idx, w, torch.tensor([0, 2, 5, 8]), mode="mean", include_last_offset=True))


@case("batch_norm_batch_stats", ["batch_norm.default"], lambda g, d: (rn(g, 2, 3, 4, 5), rn(g, 5, 4)))
def _(self, x, y):
    """F.batch_norm in training mode without running statistics (nothing to update): batch statistics,
    with and without affine."""
    w = torch.linspace(0.5, 1.5, 3)
    return F.batch_norm(x, None, None, w, w - 1, training=True), F.batch_norm(y, None, None, training=True)


@case("local_response_norm", ["avg_pool3d.default"], lambda g, d: (rn(g, 2, 6, 4, 5), rn(g, 2, 5, 7)))
def _(self, x, y):
    """F.local_response_norm (decomposes into pad + avg_pool3d over the channel window): size 3 on 4-D,
    size 2 on 3-D input, non-default alpha / beta / k."""
    return F.local_response_norm(x, 3), F.local_response_norm(y, 2, alpha=1e-2, beta=0.5, k=2.0)


def _aa_cases(x):
    out = []
    for mode in ("bilinear", "bicubic"):
        out += [F.interpolate(x, size=(3, 4), mode=mode, antialias=True),
                F.interpolate(x, scale_factor=(0.4, 0.7), mode=mode, antialias=True),
                F.interpolate(x, size=(11, 5), mode=mode, antialias=True),
                F.interpolate(x, size=(3, 4), mode=mode, antialias=True, align_corners=True)]
    return tuple(out)


@case("interp_antialias", ["_upsample_bilinear2d_aa.vec", "_upsample_bicubic2d_aa.vec"],
      lambda g, d: (rn(g, 1, 2, 8, 9),))
def _(self, x):
    """F.interpolate(antialias=True) bilinear / bicubic: downsampling by sizes and by scales, mixed up/down,
    align_corners."""
    return _aa_cases(x)


@case("interp_antialias_core", ["_upsample_bilinear2d_aa.default", "_upsample_bicubic2d_aa.default"],
      lambda g, d: (rn(g, 1, 2, 8, 9),), ir="ATEN")
def _(self, x):
    """Core ATen of interp_antialias (the .default overloads)."""
    return _aa_cases(x)


@case("interp_bicubic_dynamic", ["upsample_bicubic2d.vec"], lambda g, d: (rn(g, 1, 2, d["hw"], 4),),
      dynamic={"x": {2: HW}})
def _(self, x):
    """bicubic with integer scale factors on a dynamic height (Resize cubic), align_corners both ways."""
    return (F.interpolate(x, scale_factor=2.0, mode="bicubic"),
            F.interpolate(x, scale_factor=(3.0, 2.0), mode="bicubic", align_corners=True))


@case("lp_pool", ["avg_pool1d.default", "avg_pool2d.default"], lambda g, d: (rn(g, 2, 3, 9), pos(g, 1, 2, 6, 7)))
def _(self, x, y):
    """F.lp_pool1d / lp_pool2d (no distinct ATen op: sign * relu(|x|^p) pooled by avg_pool, times the
    window size, ^(1/p)): p = 2 and 3, strides."""
    return F.lp_pool1d(x, 2, 3, stride=2), F.lp_pool2d(y, 3.0, 2), F.lp_pool2d(y, 2, (3, 2), stride=(2, 1))


# ==========================================================================
# Grouped matmul (mixture-of-experts layers)
# ==========================================================================


@case("grouped_mm", ["_grouped_mm.default"],
      lambda g, d: (rn(g, d["s"], 8), rn(g, 3, 8, 8), ri(g, 0, 3, d["s"]), rn(g, 2, 6, 8)),
      dynamic={"x": {0: ("s", 6, 9)}, "ids": {0: ("s", 6, 9)}})
def _(self, x, w, ids, b):
    """torch._grouped_mm (bfloat16: torch.export's meta kernel takes no other dtype) as Hugging Face MoE
    experts call it: rows sorted by expert id, offsets from histc + cumsum (data-dependent, groups may
    be empty); fixed offsets [2, 2, S] (an empty group); 3-D x 3-D (a batched matmul); results
    in float32."""
    x, w, b = x.bfloat16(), w.bfloat16(), b.bfloat16()
    ids_sorted, perm = torch.sort(ids)
    rows = x[perm]
    counts = torch.histc(ids_sorted.float(), bins=3, min=0, max=2)
    offs = torch.cumsum(counts, dim=0, dtype=torch.int32)
    fixed = torch.stack([torch.tensor(2), torch.tensor(2), torch.tensor(x.shape[0])]).to(torch.int32)
    return (torch._grouped_mm(rows, w, offs=offs).float(), torch._grouped_mm(x, w, offs=fixed).float(),
            torch._grouped_mm(b, w[:2]).float())


def _moe_fallback(x, w, ids, n_groups):
    import transformers.integrations.moe  # noqa: F401  (registers torch.ops.transformers)

    ids_sorted, perm = torch.sort(ids)
    counts = torch.histc(ids_sorted.float(), bins=n_groups, min=0, max=n_groups - 1)
    offs = torch.cumsum(counts, dim=0, dtype=torch.int32)
    return torch.ops.transformers.grouped_mm_fallback(x[perm], w, offs)


@case("grouped_mm_transformers", ["_grouped_mm.default"],
      lambda g, d: (rn(g, d["s"], 8), rn(g, 4, 8, 5), ri(g, 0, 5, d["s"])),
      dynamic={"x": {0: ("s", 6, 9)}, "ids": {0: ("s", 6, 9)}})
def _(self, x, w, ids):
    """transformers' float32 stand-in for torch._grouped_mm (torch.ops.transformers.grouped_mm_fallback,
    what Mixtral / Qwen-MoE experts capture in float32; the importer reads it as aten._grouped_mm):
    4 experts, ids in [0, 5) so that rows of id 4 fall past the last offset (zeros), groups may be
    empty."""
    return _moe_fallback(x, w, ids, 4)


def _lowest_float_mask(g):
    """[2, 1, 4, 5] additive mask of 0 and torch.finfo(float32).min, batch 1 query 2 entirely the lowest float."""
    keep = torch.rand(2, 1, 4, 5, generator=g) > 0.4
    keep[:, :, :, 0] = True
    keep[1, 0, 2] = False
    return torch.zeros(2, 1, 4, 5).masked_fill(~keep, torch.finfo(torch.float32).min)


@case("sdpa_lowest_float_mask", ["scaled_dot_product_attention.default"],
      lambda g, d: (rn(g, 2, 2, 4, 8), rn(g, 2, 2, 5, 8), rn(g, 2, 2, 5, 8), _lowest_float_mask(g),
                    ri(g, 0, 2, 2, 5)))
def _(self, q, k, v, fm, pad):
    """Float masks holding torch.finfo(float32).min, as Hugging Face builds them: a mask given as an input (a
    query row of batch 1 is the lowest float everywhere) and one computed in the graph,
    (1 - pad) * finfo.min with an all-padding batch row. torch averages V over such a row (every score
    rounds to the same lowest float); onnxruntime's Attention returns 0 there unless the mask is rewritten."""
    F = torch.nn.functional
    pad = pad.clone()
    pad[0] = 1
    pad[1] = 0
    built = ((1.0 - pad.float()) * torch.finfo(torch.float32).min)[:, None, None, :]
    return (F.scaled_dot_product_attention(q, k, v, attn_mask=fm),
            F.scaled_dot_product_attention(q, k, v, attn_mask=built, scale=0.5))


@case("sdpa_masked_rows", ["scaled_dot_product_attention.default", "_scaled_dot_product_flash_attention_for_cpu.default"],
      lambda g, d: (rn(g, 2, 2, 4, 8), rn(g, 2, 2, 5, 8), rn(g, 2, 2, 5, 8), rn(g, 4, 5) > 0))
def _(self, q, k, v, m):
    """Attention rows whose keys are all masked give 0, as torch's kernels do (a plain softmax gives NaN, which
    0 * NaN in the next attention spreads everywhere): a boolean mask with an all-False query row, an additive
    float mask with an all -inf row, the same in float16 (where exactly 0, no NaN: the values are computed in
    float32 and differ from torch's kernel, which rounds the unnormalized weights to float16 before the value
    product, by up to 1 float16 ulp; the differential test checks them at the float16 tolerance), and torch's
    CPU flash-attention op called directly (output and logsumexp)."""
    F = torch.nn.functional
    m = m.clone()
    m[1] = False
    m[:, 0] = m[:, 0] | (torch.arange(4) != 1)
    f = torch.zeros(4, 5).masked_fill(~m, float("-inf"))
    h = F.scaled_dot_product_attention(q.half(), k.half(), v.half(), attn_mask=m)
    hf = F.scaled_dot_product_attention(q.half(), k.half(), v.half(), attn_mask=f.half(), scale=0.3)
    o, lse = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, attn_mask=f)
    oc, lc = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, is_causal=True)
    # A second layer reading the first's output: NaN would spread through it.
    x = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
    y = F.scaled_dot_product_attention(q, x.repeat(1, 1, 2, 1)[:, :, :5], x.repeat(1, 1, 2, 1)[:, :, :5])
    return (x, F.scaled_dot_product_attention(q, k, v, attn_mask=f), h == 0, hf == 0, h.isnan(), o, lse, oc, lc, y)


HEAD = ("head", 8, 6)


@case("sdpa_dynamic_head_size", ["scaled_dot_product_attention.default",
                                 "_scaled_dot_product_flash_attention_for_cpu.default"],
      lambda g, d: (rn(g, 2, 2, 4, d["head"]), rn(g, 2, 2, 5, d["head"]), rn(g, 2, 2, 5, d["head"])),
      dynamic={"q": {3: HEAD}, "k": {3: HEAD}, "v": {3: HEAD}})
def _(self, q, k, v):
    """Attention whose head size is a dynamic dim: torch's default scale 1 / sqrt(E) read from the shape at
    run time (causal and not, the CPU flash-attention op), and an explicit scale."""
    F = torch.nn.functional
    o, lse = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q, k, v)
    return (F.scaled_dot_product_attention(q, k, v), F.scaled_dot_product_attention(q, k, v, is_causal=True),
            F.scaled_dot_product_attention(q, k, v, scale=0.25), o, lse)


CLASSES = ("classes", 5, 7)


@case("cross_entropy_dynamic_classes", ["cross_entropy_loss.default"],
      lambda g, d: (rn(g, 4, d["classes"]), ri(g, 0, 5, 4), torch.softmax(rn(g, 4, d["classes"]), 1),
                    rn(g, 2, d["classes"], 3)),
      dynamic={"x": {1: CLASSES}, "p": {1: CLASSES}, "y": {1: CLASSES}})
def _(self, x, t, p, y):
    """cross_entropy with a dynamic class count: label smoothing's ls / C and the mean over probability
    targets read C (and the other dims) from the shape; class targets with ignore_index, 3-D input."""
    F = torch.nn.functional
    t2 = t.clone()
    t2[1] = -1
    return (F.cross_entropy(x, t, label_smoothing=0.2), F.cross_entropy(x, t2, ignore_index=-1, label_smoothing=0.1,
                                                                      reduction="sum"),
            F.cross_entropy(x, p), F.cross_entropy(x, p, label_smoothing=0.3, reduction="none"),
            F.cross_entropy(y, t[:2, None].expand(2, 3).clone(), label_smoothing=0.1))


@case("shuffles_dynamic", ["pixel_unshuffle.default", "channel_shuffle.default", "pixel_shuffle.default"],
      lambda g, d: (rn(g, 2, d["c*3"], 2, 3), rn(g, 2, 3, d["h*2"], d["w*2"]), ri(g, -5, 6, 2, 3, d["h*2"], 4)),
      dynamic={"x": {1: ("c*3", 6, 9)}, "y": {2: ("h*2", 4, 6), 3: ("w*2", 6, 10)}, "a": {2: ("h*2", 4, 6)}})
def _(self, x, y, a):
    """channel_shuffle with a dynamic channel count (3 groups), pixel_unshuffle with dynamic H and W (float and
    int64, 4-D and with a leading batch of 2-D), pixel_shuffle of the result back."""
    F = torch.nn.functional
    u = F.pixel_unshuffle(y, 2)
    return F.channel_shuffle(x, 3), u, F.pixel_shuffle(u, 2), F.pixel_unshuffle(a, 2)

@case("avg_pool_divisor_ceil_dynamic", ["avg_pool2d.default", "avg_pool1d.default"],
      lambda g, d: (rn(g, 2, 3, d["auto:h"], d["auto:w"]), rn(g, 2, 3, d["auto:v"])),
      dynamic={"x": {2: ("auto:h", 7, 10), 3: ("auto:w", 8, 11)}, "y": {2: ("auto:v", 8, 11)}})
def _(self, x, y):
    """avg_pool with divisor_override and ceil_mode on dynamic sizes (Dim.AUTO: torch guards the ceil_mode
    branch on divisibility): the last window may overhang the padded input (then it still divides by the
    override), the right pad (or crop) computed from the run-time size; with and without padding, 1-D."""
    F = torch.nn.functional
    return (F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, divisor_override=5),
            F.avg_pool2d(x, (2, 3), (3, 2), 0, ceil_mode=True, divisor_override=4),
            F.avg_pool1d(y, 4, 3, 2, ceil_mode=True), F.avg_pool2d(x, 3, 3, ceil_mode=True, divisor_override=2))


def _shared_memory_init(self):
    g = torch.Generator().manual_seed(7)
    self.mem_k = nn.Parameter(torch.randn(1, 2, 5, 8, generator=g))
    self.mem_v = nn.Parameter(torch.randn(1, 2, 5, 8, generator=g))


@case("sdpa_kv_batch_broadcast", ["scaled_dot_product_attention.default"],
      lambda g, d: (rn(g, d["b"], 2, 4, 8), rn(g, d["b"], 2, 5, 8)), init=_shared_memory_init,
      dynamic={"q": {0: ("b", 3, 4)}, "v": {0: ("b", 3, 4)}})
def _(self, q, v):
    """SDPA broadcasts a batch-1 key/value over the query's batch (a learned, shared memory): K and V are
    [1, 2, 5, 8] parameters, Q of batch 3 (4 on set_1). ONNX Attention does not broadcast the batch, so the
    optimizer must not fuse it (onnxruntime refused the fused op: 'inconsistent batch_size'); a second SDPA
    with a value of the query's own batch and the shared key, and a third with its own key and value."""
    F = torch.nn.functional
    return (F.scaled_dot_product_attention(q, self.mem_k, self.mem_v),
            F.scaled_dot_product_attention(q, self.mem_k, v),
            F.scaled_dot_product_attention(q, v, v, is_causal=True))
