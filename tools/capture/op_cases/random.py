# Random ops at the default opset (23): outputs that do not depend on the
# draw (the distributions are checked in tests/integration/random.rs), and
# fractional max pooling, which is deterministic given its samples.
# Imported by tools/capture/capture_op_tests.py.

from __future__ import annotations

import torch
import torch.nn.functional as F

from op_case_lib import case, pos, rn


@case("random_default_opset", ["rand.default", "randn.default", "rand_like.default", "randn_like.default",
                               "randint.default", "randint.low", "randperm.default", "bernoulli.default",
                               "bernoulli.p", "normal.Tensor_float", "normal.float_float", "normal.float_Tensor",
                               "normal.Tensor_Tensor", "uniform.default"],
      lambda g, d: (rn(g, 3, 4), pos(g, 3, 4) / 2))
def _(self, x, p):
    """The random ops at the default opset (23, where onnxruntime has no Random* kernels: the lowering draws
    from Dropout masks): rand / rand_like in [0, 1), randn / randn_like / normal finite, randint in [low,
    high), randperm sorted is arange, bernoulli in {0, 1} (p = 0 gives 0, p = 1 gives 1), uniform_ in
    [from, to); 0-d and empty sizes."""
    r = torch.rand(3, 4)
    rl = torch.rand_like(x)
    n = torch.randn(2, 5)
    nl = torch.randn_like(x)
    i = torch.randint(5, (4, 3))
    j = torch.randint(-3, 2, (6,))
    perm = torch.randperm(7)
    b = torch.bernoulli(p)
    bp = torch.bernoulli(x, 0.3)
    b0 = torch.bernoulli(x, 0.0)
    b1 = torch.bernoulli(x, 1.0)
    n1 = torch.normal(x, 2.0)
    n2 = torch.normal(1.0, 2.0, (2, 3))
    n3 = torch.normal(1.0, p)
    n4 = torch.normal(x, p)
    u = x.clone().uniform_(-2.0, 3.0)
    r0 = torch.rand(())
    e = torch.randn(0, 3)
    return ((r >= 0) & (r < 1), (rl >= 0) & (rl < 1), n.isfinite(), nl.isfinite(), (i >= 0) & (i < 5),
            (j >= -3) & (j < 2), perm.sort().values, (b == 0) | (b == 1), (bp == 0) | (bp == 1), b0, b1,
            n1.isfinite(), n2.isfinite(), n3.isfinite(), n4.isfinite(), (u >= -2) & (u < 3), (r0 >= 0) & (r0 < 1),
            e.shape[0] + e.sum())


@case("random_distributions", ["cauchy.default", "exponential.default", "geometric.default", "log_normal.default",
                               "normal_functional.default", "multinomial.default", "randint_like.default",
                               "randint_like.low_dtype"],
      lambda g, d: (rn(g, 3, 4), pos(g, 2, 5)))
def _(self, x, w):
    """cauchy_ finite, exponential_ > 0, geometric_ integers >= 1 (float and int64), log_normal_ > 0,
    normal_ finite (normal_ -> normal_functional), multinomial with / without replacement in range and
    without repeats, randint_like / randint_like(low, high, dtype) integers in range."""
    c = x.clone().cauchy_(1.0, 2.0)
    e = x.clone().exponential_(2.0)
    gm = x.clone().geometric_(0.3)
    gi = torch.zeros(5, dtype=torch.int64).geometric_(0.5)
    ln = x.clone().log_normal_(0.5, 0.25)
    nn_ = x.clone().normal_(2.0, 0.5)
    m1 = torch.multinomial(w, 7, replacement=True)
    m2 = torch.multinomial(w, 5)
    m3 = torch.multinomial(w[0], 1)
    ri = torch.randint_like(x, 10)
    rl = torch.randint_like(x, -3, 5, dtype=torch.int64)
    return (c.isfinite(), e > 0, (gm >= 1) & (gm == gm.floor()), gi >= 1, ln > 0, nn_.isfinite(),
            (m1 >= 0) & (m1 < 5), m2.sort(dim=-1).values, (m3 >= 0) & (m3 < 5),
            (ri >= 0) & (ri < 10) & (ri == ri.floor()), (rl >= -3) & (rl < 5), torch.zeros_like(rl))


@case("random_training", ["dropout.default", "feature_dropout.default", "alpha_dropout.default",
                          "feature_alpha_dropout.default", "rrelu.default", "scaled_dot_product_attention.default"],
      lambda g, d: (pos(g, 4, 5), pos(g, 2, 3, 4, 4), rn(g, 2, 3, 5)))
def _(self, x, img, z):
    """Training-mode randomness: dropout (0 or x / (1 - p); p = 0 identity, p = 1 zero), dropout2d (whole
    channels), alpha_dropout / feature_alpha_dropout (kept x * a + b or the dropped constant), rrelu
    (slope in [lower, upper) for x <= 0, identity above), SDPA with dropout_p (finite, p = 1 gives 0)."""
    d = F.dropout(x, 0.5, training=True)
    d0 = F.dropout(x, 0.0, training=True)
    d1 = F.dropout(x, 1.0, training=True)
    c = F.dropout2d(img, 0.5, training=True)
    per_channel = (c.amax(dim=(2, 3)) == c.amin(dim=(2, 3))) | (c.amin(dim=(2, 3)) > 0)
    alpha, p = 1.7580993408473766, 0.3
    a = 1.0 / ((alpha * alpha * p + 1) * (1 - p)) ** 0.5
    dropped = -alpha * a * (1 - p)
    ad = F.alpha_dropout(x, p, training=True)
    ad_ok = ((ad - dropped).abs() < 1e-5) | ((ad - (x * a + alpha * a * p)).abs() < 1e-5)
    fa = F.feature_alpha_dropout(img, p, training=True)
    fa_ok = ((fa - dropped).abs() < 1e-5) | ((fa - (img * a + alpha * a * p)).abs() < 1e-5)
    r = F.rrelu(z, 0.1, 0.3, training=True)
    slope = torch.where(z < 0, r / z, torch.full_like(z, 0.2))
    r_ok = ((z > 0) & (r == z)) | ((z <= 0) & (slope >= 0.1 - 1e-6) & (slope < 0.3 + 1e-6))
    q = z.reshape(1, 2, 3, 5)
    s = F.scaled_dot_product_attention(q, q, q, dropout_p=0.5)
    s1 = F.scaled_dot_product_attention(q, q, q, dropout_p=1.0)
    return ((d == 0) | ((d - 2 * x).abs() < 1e-5), d0, d1, per_channel, ad_ok, fa_ok, r_ok, s.isfinite(), s1)


@case("random_rrelu_core", ["rrelu_with_noise_functional.default"], lambda g, d: (rn(g, 4, 50),), ir="ATEN")
def _(self, x):
    """rrelu in core ATen (rrelu_with_noise_functional on an empty noise): eval mode is leaky_relu with the
    mean slope; training mode draws a slope in [lower, upper) per element <= 0 (identity above), and the
    explicit op returns the drawn slopes as the noise (1 above 0), or the noise unchanged in eval mode."""
    e = F.rrelu(x, 0.1, 0.5, training=False)
    r = F.rrelu(x, 0.1, 0.3, training=True)
    slope = torch.where(x < 0, r / x, torch.full_like(x, 0.2))
    r_ok = ((x > 0) & (r == x)) | ((x <= 0) & (slope >= 0.1 - 1e-6) & (slope < 0.3 + 1e-6))
    out, noise = torch.ops.aten.rrelu_with_noise_functional(x, torch.zeros_like(x), 0.25, 0.75, True)
    n_ok = (((x <= 0) & (noise >= 0.25) & (noise < 0.75) & (out == x * noise))
            | ((x > 0) & (noise == 1.0) & (out == x)))
    out_e, noise_e = torch.ops.aten.rrelu_with_noise_functional(x, x * 2.0, 0.25, 0.75, False)
    return e, r_ok, n_ok, out_e, noise_e


@case("fractional_max_pool", ["fractional_max_pool2d.default", "fractional_max_pool3d.default"],
      lambda g, d: (rn(g, 2, 3, 9, 8), torch.rand(2, 3, 2, generator=g), rn(g, 3, 6, 7, 5),
                    torch.rand(1, 3, 3, generator=g)))
def _(self, x, u, v, w):
    """fractional_max_pool2d / 3d with given samples (deterministic): values and indices, batched and
    unbatched, output size 1, with NaN (the last NaN of a window wins), -inf windows (index of the window
    start) and ties (the first maximum)."""
    o = torch.ops.aten
    xx = x.clone()
    xx[0, 0, 1, 1] = float("nan")
    xx[0, 0, 2, 3] = float("nan")
    xx[1, 2, :4, :4] = float("-inf")
    xx[0, 1] = xx[0, 1].round()
    a, ai = o.fractional_max_pool2d.default(xx, [3, 2], [4, 5], u)
    b, bi = o.fractional_max_pool2d.default(xx[0], [2, 2], [1, 3], u[:1])
    c, ci = o.fractional_max_pool3d.default(v, [2, 3, 2], [2, 3, 2], w)
    fin = lambda t: torch.nan_to_num(t, nan=7.0, neginf=-9.0)
    return fin(a), a.isnan(), ai, fin(b), bi, c, ci
