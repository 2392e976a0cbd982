# Sorting, searching, statistics, histogram and integration cases (imported
# by tools/capture/capture_op_tests.py; `case`, `rn`, `ri`, `pos`, `grid` come
# from op_case_lib). Every case name starts with `stats_`, so
# `ATEN2ONNX_ONLY=stats_` runs them all.
#
# Captured outputs must be finite: outputs that are NaN / inf on purpose go
# through `_sfin` (NaN -> -77, +-inf -> +-777), which keeps the NaN / inf
# positions checked exactly.

from __future__ import annotations

import torch

from op_case_lib import case, finite_marked, grid, pos, ri, rn

_A = torch.ops.aten


def _with_nans(g, *s):
    """randn with NaNs planted: row 1 has one NaN, row 2 is all NaN (for
    2-D inputs of at least 3 rows)."""
    x = rn(g, *s)
    x[1, 2] = float("nan")
    x[2, :] = float("nan")
    return x


@case("stats_sort", ["argsort.default", "argsort.stable", "msort.default"],
      lambda g, d: (rn(g, 4, 6), ri(g, 0, 3, 3, 9), _with_nans(g, 4, 5)))
def _(self, x, a, n):
    """argsort (default / descending / dim 0 / 0-d), stable argsort with ties (ascending and
    descending, ties in index order), NaN sorted last; msort (dim 0) of float, int64, with NaN."""
    return (torch.argsort(x), torch.argsort(x, dim=0, descending=True), torch.argsort(x[0, 0]),
            torch.argsort(a, dim=1, stable=True), torch.argsort(a, dim=-1, descending=True, stable=True),
            torch.argsort(n, dim=1), torch.msort(x), torch.msort(a), finite_marked(torch.msort(n)))


@case("stats_median_mode", ["nanmedian.default", "nanmedian.dim", "mode.default"],
      lambda g, d: (_with_nans(g, 4, 5), ri(g, 0, 3, 3, 8), rn(g, 3, 4)))
def _(self, n, a, x):
    """nanmedian ignoring NaN (whole tensor; per row with an all-NaN row giving NaN at its first
    index; keepdim; int64 ties), nanmedian of an all-NaN tensor; mode of int64 rows with ties (smallest
    most frequent value, largest index), mode along dim 0 with keepdim, of distinct floats, of a 0-d."""
    v, i = torch.nanmedian(n, 1)
    v2, i2 = torch.nanmedian(n, 0, keepdim=True)
    va, ia = torch.nanmedian(a, 1)
    m, mi = torch.mode(a, 1)
    m0, mi0 = torch.mode(a, 0, keepdim=True)
    mx, mix = torch.mode(x)
    ms, msi = torch.mode(x[0, 0])
    return (finite_marked(torch.nanmedian(n)), finite_marked(v), i, finite_marked(v2), i2, va, ia, torch.nanmedian(a),
            finite_marked(torch.nanmedian(n[2])), m, mi, m0, mi0, mx, mix, ms, msi)


@case("stats_quantile", ["quantile.scalar", "quantile.default", "nanquantile.scalar", "nanquantile.default"],
      lambda g, d: (rn(g, 4, 7), torch.tensor([0.0, 0.25, 0.5, 0.9, 1.0]), _with_nans(g, 4, 5)))
def _(self, x, q, n):
    """quantile / nanquantile with every interpolation (linear, lower, higher, midpoint, nearest),
    a scalar and a 1-D q, over all elements and along a dim (keepdim), with NaN rows (quantile gives
    NaN, nanquantile skips NaN, all-NaN rows give NaN)."""
    out = []
    for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
        out.append(torch.quantile(x, 0.3, dim=1, interpolation=mode))
        out.append(torch.quantile(x, q, dim=0, keepdim=True, interpolation=mode))
        out.append(finite_marked(torch.nanquantile(n, q, dim=1, interpolation=mode)))
    out += [torch.quantile(x, 0.75), torch.quantile(x, q, keepdim=True), finite_marked(torch.quantile(n, 0.4, dim=1)),
            torch.nanquantile(n, 0.6), finite_marked(torch.nanquantile(n, 0.5, dim=1, keepdim=True))]
    return tuple(out)


@case("stats_search", ["searchsorted.Tensor", "searchsorted.Scalar", "bucketize.Tensor", "bucketize.Scalar"],
      lambda g, d: (torch.sort(rn(g, 8)).values, torch.sort(rn(g, 3, 6), dim=1).values, rn(g, 3, 4),
                    grid(g, 5), rn(g, 7)))
def _(self, s, s2, v, t, u):
    """searchsorted on a 1-D sequence (left / right / side=), per-row sequences (out_int32), with a
    sorter (argsort of an unsorted sequence), exact ties, a Python number, NaN values (past the end);
    bucketize of a tensor and a number (right)."""
    vv = torch.cat([v.reshape(-1), s[2:4], torch.tensor([float("nan")])])
    sorter = torch.argsort(u)
    return (torch.searchsorted(s, vv), torch.searchsorted(s, vv, right=True), torch.searchsorted(s, vv, side="right"),
            torch.searchsorted(s2, v, out_int32=True).to(torch.int64), torch.searchsorted(u, v, sorter=sorter),
            torch.searchsorted(s, 0.25), torch.searchsorted(s, 0.25, right=True),
            torch.bucketize(vv, s), torch.bucketize(t, torch.tensor([-1.0, 0.0, 1.0]), right=True),
            torch.bucketize(0.5, s), torch.bucketize(1.0, torch.tensor([-1.0, 0.0, 1.0]), right=True))


@case("stats_isin", ["isin.Tensor_Tensor", "isin.Tensor_Scalar", "isin.Scalar_Tensor"],
      lambda g, d: (ri(g, 0, 6, 3, 4), ri(g, 0, 6, 4), grid(g, 5)))
def _(self, a, t, x):
    """isin of int64 and float tensors (invert, empty test set), against a number and a number
    against a tensor."""
    return (torch.isin(a, t), torch.isin(a, t, invert=True), torch.isin(x, torch.tensor([0.0, 2.0])),
            torch.isin(a, t[:0]), torch.isin(a, 3), torch.isin(x, 1.0, invert=True),
            torch.isin(2, t), torch.isin(0.0, x, invert=True))


@case("stats_histogram", ["histc.default", "histogram.bin_ct", "histogram.bins_tensor"],
      lambda g, d: (rn(g, 40), pos(g, 40), torch.tensor([-1.5, -0.5, 0.0, 0.7, 2.0])))
def _(self, x, w, edges):
    """histc over the data's range, a given range (elements outside skipped, the max in the last
    bin), a constant tensor (range widened by 1); histogram with bin counts (range, weights,
    density) and with given edges (weights, density)."""
    c = torch.full((5,), 0.5)
    return (torch.histc(x, bins=7), torch.histc(x, bins=4, min=-1, max=1), torch.histc(c, bins=3),
            torch.histc(x.clamp(-1, 1), bins=5, min=-1, max=1),
            *torch.histogram(x, bins=6), *torch.histogram(x, bins=5, range=(-1.0, 2.0), weight=w),
            *torch.histogram(x, bins=4, density=True), *torch.histogram(c, bins=2),
            *torch.histogram(x, edges), *torch.histogram(x, edges, weight=w, density=True))


@case("stats_bincount", ["bincount.default"],
      lambda g, d: (ri(g, 0, 6, 25), ri(g, 0, 4, 10), pos(g, 25), ri(g, -3, 4, 25)))
def _(self, a, b, w, iw):
    """bincount: counts (length max + 1, or minlength when longer), of a uint8 input, with float
    weights (summed in float32; negative ones too), and of an empty input (minlength bins, or
    none). Integer weights (a float64 result) are in the rule's differential samples."""
    return (torch.bincount(a), torch.bincount(a, minlength=9), torch.bincount(b.to(torch.uint8)),
            torch.bincount(a, w), torch.bincount(a, iw.float(), minlength=2),
            torch.bincount(a[:0], minlength=3), torch.bincount(a[:0]))


def _histogramdd_cases(x, y, w, v, e0, e1):
    t = torch.histogramdd
    c = torch.full((6, 2), 0.25)
    return (*t(x, [3, 4]), *t(y, 2, weight=v), *t(x, [4, 2], range=[-1.0, 1.0, 0.5, 0.5]),
            *t(x, [3, 5], weight=w, density=True), *t(c, [2, 3]), *t(x[:0], [2, 2]),
            t(x, [e0, e1]).hist, t(x, [e0, e1], weight=w, density=True).hist)


@case("stats_histogramdd", ["histogramdd.default", "histogramdd.int_bins", "histogramdd.TensorList_bins"],
      lambda g, d: (rn(g, 30, 2), rn(g, 4, 5, 3), pos(g, 30), pos(g, 4, 5),
                    torch.tensor([-1.5, -0.5, 0.0, 0.7, 2.0]), torch.tensor([-1.0, 0.25, 1.0])))
def _(self, x, y, w, v, e0, e1):
    """histogramdd (hist and one edge tensor per dim, a list result among others) with bin counts
    (per dim, one int for all dims of a 3-D input with weights; a range, one of its dims empty and
    widened by 0.5; density with weights; a constant input, widened; no points: edges [0, 1]) and with
    given edges (points outside skipped, the last bin closed; weights and density; the edges, returned as
    given, are not outputs)."""
    return _histogramdd_cases(x, y, w, v, e0, e1)


@case("stats_histogramdd_core", ["_histogramdd_bin_edges.default", "_histogramdd_from_bin_cts.default",
                                 "_histogramdd_from_bin_tensors.default"],
      lambda g, d: (rn(g, 30, 2), rn(g, 4, 5, 3), pos(g, 30), pos(g, 4, 5),
                    torch.tensor([-1.5, -0.5, 0.0, 0.7, 2.0]), torch.tensor([-1.0, 0.25, 1.0])), ir="ATEN")
def _(self, x, y, w, v, e0, e1):
    """The same histogramdd calls in core ATen: _histogramdd_bin_edges (a Tensor[] result) and
    _histogramdd_from_bin_cts for bin counts, _histogramdd_from_bin_tensors for given edges."""
    return _histogramdd_cases(x, y, w, v, e0, e1)


@case("stats_unique_consecutive", ["unique_consecutive.default"],
      lambda g, d: (ri(g, 0, 2, 12), grid(g, 3, 4), ri(g, 0, 2, 6, 2)))
def _(self, a, x, r):
    """unique_consecutive of int64 runs (inverse, counts), of a 2-D float tensor (flattened), and of
    rows (dim=0, inverse and counts)."""
    v, inv, cnt = torch.unique_consecutive(a, return_inverse=True, return_counts=True)
    u = torch.unique_consecutive(x)
    rows, rinv, rcnt = torch.unique_consecutive(r, dim=0, return_inverse=True, return_counts=True)
    return v, inv, cnt, u, rows, rinv, rcnt


@case("stats_gradient", ["gradient.scalarint", "gradient.scalararray", "gradient.array", "gradient.scalarrayint",
                         "gradient.scalarrayarray", "gradient.tensorarrayint", "gradient.tensorarray"],
      lambda g, d: (rn(g, 4, 5), ri(g, -5, 6, 6), torch.tensor([0.0, 1.0, 3.0, 3.5]),
                    torch.tensor([0.0, 0.5, 2.0, 2.5, 4.0])))
def _(self, x, a, cx, cy):
    """torch.gradient: default spacing over every dim, scalar spacing (edge_order 2), of int64,
    a dim list with and without a scalar spacing, a list of scalar spacings (with and without dims),
    coordinate tensors (edge_order 1 and 2)."""
    return (*torch.gradient(x), *torch.gradient(x, spacing=2.0, dim=1, edge_order=2), *torch.gradient(a),
            *torch.gradient(x, spacing=0.5, dim=[0, 1]), *torch.gradient(x, dim=[1], edge_order=2),
            *torch.gradient(x, spacing=[2.0, 2.5]), *torch.gradient(x, spacing=[1.5], dim=[-1], edge_order=2),
            *torch.gradient(x, spacing=[cx, cy]), *torch.gradient(x, spacing=[cy], dim=[1], edge_order=2))


@case("stats_trapezoid", ["trapezoid.x", "trapezoid.dx", "trapz.x", "trapz.dx", "cumulative_trapezoid.x",
                          "cumulative_trapezoid.dx"],
      lambda g, d: (rn(g, 3, 5), torch.sort(rn(g, 5)).values, torch.sort(rn(g, 3, 5), dim=1).values,
                    ri(g, -4, 5, 3, 5)))
def _(self, y, x, xx, a):
    """trapezoid / trapz / cumulative_trapezoid with 1-D and full sample points, a scalar dx, along
    dim 0 and -1, int64 y, an empty dim (integral 0)."""
    e = y[:, :0]
    return (torch.trapezoid(y, x), torch.trapezoid(y, xx), torch.trapezoid(y, dx=0.5, dim=0), torch.trapezoid(a),
            torch.trapezoid(e), torch.trapz(y, x), torch.trapz(y, dx=2.0), torch.trapz(e, x[:0]),
            torch.cumulative_trapezoid(y, x), torch.cumulative_trapezoid(y, xx), torch.cumulative_trapezoid(y, dim=0),
            torch.cumulative_trapezoid(a, dx=1.5))


@case("stats_var_std", ["var.default", "std.default"], lambda g, d: (rn(g, 4, 5), rn(g, 1)))
def _(self, x, one):
    """var / std over every element, unbiased and not; one element (unbiased: NaN), 0-d."""
    return (torch.var(x), torch.var(x, False), torch.std(x), torch.std(x, False), finite_marked(torch.var(one)),
            torch.std(one, False), torch.var(x[0, 0], False))


@case("stats_segment_reduce", ["segment_reduce.default"],
      lambda g, d: (rn(g, 7, 3), torch.tensor([2, 0, 3, 2]), rn(g, 3, 6), torch.tensor([[1, 2, 3], [0, 6, 0], [3, 3, 0]])))
def _(self, x, lengths, y, lengths2):
    """segment_reduce with lengths (an empty segment) for sum / mean / max / min / prod with and
    without initial, with offsets, along axis 1 with per-row lengths."""
    offsets = torch.cat([lengths.new_zeros(1), lengths]).cumsum(0)
    out = []
    for r in ("sum", "mean", "max", "min", "prod"):
        out.append(finite_marked(torch.segment_reduce(x, r, lengths=lengths)))
        out.append(torch.segment_reduce(x, r, lengths=lengths, initial=1.5))
        out.append(finite_marked(torch.segment_reduce(x, r, offsets=offsets)))
        out.append(finite_marked(torch.segment_reduce(y, r, lengths=lengths2, axis=1, unsafe=True)))
    return tuple(out)


_FRAMES = ("frames", 5, 9)


@case("stats_var_std_dynamic",
      ["var.correction", "std.correction", "var_mean.correction", "std_mean.correction"],
      lambda g, d: (rn(g, 2, 3, d["frames"]), rn(g, 0, d["frames"])),
      dynamic={"x": {2: _FRAMES}, "e": {1: _FRAMES}})
def _(self, x, e):
    """var / std / var_mean / std_mean over a dynamic time axis (audio feature normalization, hand-written
    instance norms): the element count N of the correction is read at run time; over one dim, two dims,
    every dim, with corrections 1, 0 and 2. `e` is empty through a static 0 beside the dynamic dim: its
    mean and variance are NaN (0 / 0), as torch gives, not onnxruntime's 0 for a mean of nothing."""
    v = x.var(-1)
    s = x.std((1, 2), keepdim=True, correction=0)
    vm = torch.var_mean(x, 2, correction=2)
    sm = torch.std_mean(x)
    em = torch.var_mean(e)
    return (v, s, vm[0], vm[1], sm[0], sm[1], x.var(), finite_marked(em[0]), finite_marked(em[1]), finite_marked(e.mean()),
            finite_marked(e.std(1)))


def _scan_input(g, n):
    """[3, n] small integer-valued floats (ties) with a zero, a NaN and an inf (n >= 5)."""
    x = grid(g, 3, n)
    x[0, 3] = 0.0
    x[1, 2] = float("nan")
    x[2, 1] = float("inf")
    return x


@case("stats_scans_dynamic",
      ["cumprod.default", "cummax.default", "cummin.default", "logcumsumexp.default", "fft_fftshift.default",
       "fft_ifftshift.default"],
      lambda g, d: (_scan_input(g, d["seq"]), ri(g, -3, 4, d["rows"], 2)),
      dynamic={"x": {1: ("seq", 5, 8)}, "a": {0: ("rows", 3, 2)}})
def _(self, x, a):
    """Scans and shifts along dynamic dims (a Loop doubling the step while it is below the run-time length;
    split points read from the shape): cumprod through a zero and an inf, cummax / cummin values and
    indices with ties and a NaN, logcumsumexp with -inf / inf / NaN, fftshift / ifftshift of an odd and an
    even length; int64 cumprod / cummax / cummin / fftshift along a dynamic dim of 3 and 2 rows."""
    mx, mxi = torch.cummax(x, 1)
    mn, mni = torch.cummin(x, -1)
    ai, aii = torch.cummax(a, 0)
    an, ani = torch.cummin(a, 0)
    f = torch.fft
    return (finite_marked(torch.cumprod(x, 1)), finite_marked(mx), mxi, finite_marked(mn), mni,
            finite_marked(torch.logcumsumexp(x, 1)), finite_marked(torch.logcumsumexp(x.flip(1) * 0.5, -1)),
            finite_marked(f.fftshift(x, dim=1)), finite_marked(f.ifftshift(x)), torch.cumprod(a, 0), ai, aii, an, ani,
            f.fftshift(a), f.ifftshift(a, dim=0))
