# Tensor creation, shape/view, indexing/scatter, sorting and data-dependent op
# cases. Imported by tools/capture/capture_op_tests.py; `case`, `rn`, `ri`,
# `pos`, `rb`, ... come from op_case_lib. Every case name starts with
# `tensors_` (ATEN2ONNX_ONLY=tensors_ runs them all).

from __future__ import annotations

import torch
import torch.nn.functional as F

from op_case_lib import case, grid, pos, rb, ri, rn

NAN = float("nan")


def _perm_rows(g, rows, n):  # int64 [rows, n]: each row a permutation of 0..n-1
    return torch.stack([torch.randperm(n, generator=g) for _ in range(rows)])


# ==========================================================================
# Fixes: arange with float bounds, diff n=0, 0-d index_select / transpose
# ==========================================================================


@case("tensors_arange_float", ["arange.default", "arange.start", "arange.start_step"],
      lambda g, d: (rn(g, 3),))
def _(self, x):
    """arange with float bounds where float32 Range would give one element too many: (-1, 1, 0.1),
    (0, 1, 0.1), negative step (1, -1, -0.3), (0.1, 1.3), end 3.5; int64 dtype with float bounds (torch
    truncates them); an empty range."""
    return (torch.arange(-1.0, 1.0, 0.1), torch.arange(0, 1, 0.1), torch.arange(1.0, -1.0, -0.3),
            torch.arange(0.1, 1.3), torch.arange(3.5), torch.arange(-2.5, 3, 1.5, dtype=torch.int64),
            torch.arange(10, 1, -0.7), torch.arange(2.0, 2.0), x * 2)


@case("tensors_diff_n0", ["diff.default"], lambda g, d: (rn(g, 3, 5), rn(g, 3, 2), rn(g, 1, 5)))
def _(self, x, p, a):
    """diff with n=0 returns the input unchanged even with prepend/append; n=1 with prepend on dim=-1 and
    append on dim=-2; n larger than the length (empty result)."""
    return (torch.diff(x, n=0, prepend=p), torch.diff(x, n=0, dim=0, append=a), torch.diff(x, dim=-1, prepend=p),
            torch.diff(x, dim=-2, append=a), torch.diff(x, n=7))


@case("tensors_zero_d", ["index_select.default", "transpose.int"],
      lambda g, d: (rn(g), torch.tensor([0]), torch.tensor(0), rn(g, 4, 5), ri(g, 0, 5, 3)))
def _(self, s, i1, i0, x, idx):
    """0-d inputs: index_select(s, 0, [0]) and with a 0-d index, transpose(0, -1) of a 0-d tensor;
    index_select with dim=-1 and a 0-d index on a matrix."""
    return (torch.index_select(s, 0, i1), torch.index_select(s, -1, i0), s.transpose(0, -1) * 2,
            torch.index_select(x, -1, i0), torch.index_select(x, 1, idx))


# ==========================================================================
# Boolean-mask indexing and assignment (data-dependent shapes)
# ==========================================================================


@case("tensors_mask_index", ["index.Tensor"],
      lambda g, d: (rn(g, 4, 5), rn(g, 3, 4, 2), torch.tensor([[0, 2], [1, 1]])))
def _(self, x, y, k):
    """x[x > 0] (2-D mask, 1-D result of data-dependent length); y[:, mask over dim 1]; y[mask over the
    first two dims]; x[mask on dim 0, int index on dim 1]; y[int, :, int] (index tensors separated by a
    slice: block first)."""
    m = y[0, :, 0] > 0
    return (x[x > 0], y[:, m], y[y[..., 0] > 0], x[x[:, 0] > 0, 1], y[k[0], :, k[1]])


@case("tensors_mask_put", ["index_put.default"], lambda g, d: (rn(g, 4, 5), rn(g, 5), rn(g, 3, 4, 2)))
def _(self, x, v, y):
    """x[x > 0] = 0 (scalar); x[mask over dim 0] = v (row broadcast); accumulate=True with a mask;
    y[:, mask over dim 1] = 1.5; y[mask over dims 0,1] += 1 via index_put_ accumulate."""
    a = x.clone()
    a[x > 0] = 0.0
    b = x.clone()
    b[x[:, 0] > 0] = v
    c = x.clone()
    c.index_put_((x < 0,), torch.tensor(2.0), accumulate=True)
    e = y.clone()
    e[:, y[0, :, 0] > 0] = 1.5
    f = y.clone()
    f.index_put_((y[..., 1] > 0,), torch.tensor([1.0, -1.0]), accumulate=True)
    return a, b, c, e, f


# ==========================================================================
# Creation
# ==========================================================================


@case("tensors_empty", ["empty.memory_format", "empty_like.default", "new_empty.default",
                        "empty_strided.default", "new_empty_strided.default"],
      lambda g, d: (rn(g, 2, 3), ri(g, 0, 5, 4)))
def _(self, x, a):
    """empty / empty_like / new_empty / empty_strided / new_empty_strided (values unspecified in
    torch) then filled: fill_(1.5), fill_(2) on int64, zero_(), copy_ of x, empty of size 0."""
    e = torch.empty(2, 3).fill_(1.5)
    el = torch.empty_like(a).fill_(2)
    ne = x.new_empty((3,)).zero_()
    es = torch.empty_strided((2, 3), (1, 2)).copy_(x)
    ns = x.new_empty_strided((2, 2), (2, 1)).fill_(-1.0)
    z = torch.empty(0, 3).fill_(1.0)
    return e + x, el, ne, es, ns, z


@case("tensors_broadcast", ["broadcast_to.default", "broadcast_tensors.default"],
      lambda g, d: (rn(g, 3, 1), rn(g, 4), rn(g), rb(g, 1, 4)))
def _(self, x, y, s, m):
    """broadcast_to (with -1, of a 0-d tensor); broadcast_tensors of [3,1], [4], a 0-d tensor and a bool
    [1,4]."""
    a, b, c, d = torch.broadcast_tensors(x, y, s, m)
    return torch.broadcast_to(x, (2, -1, 5)), torch.broadcast_to(s, (2, 3)), a, b, c, d


@case("tensors_linspace", ["linspace.default", "logspace.default"], lambda g, d: (rn(g, 5),))
def _(self, x):
    """linspace (0, 1, 5) added to x; (-2.5, 3, 7); decreasing (3, -1, 4); steps 1 and 0; int64 dtype
    (truncation); logspace base 10 and 2, int64 dtype."""
    return (x + torch.linspace(0, 1, 5), torch.linspace(-2.5, 3, 7), torch.linspace(3, -1, 4),
            torch.linspace(1, 2, 1), torch.linspace(1, 2, 0), torch.linspace(0, 10, 4, dtype=torch.int64),
            torch.logspace(0, 2, 5), torch.logspace(-1, 1, 4, base=2.0),
            torch.logspace(0, 3, 4, dtype=torch.int64))


@case("tensors_meshgrid", ["meshgrid.indexing"], lambda g, d: (rn(g, 2), rn(g, 3), rn(g, 4)))
def _(self, a, b, c):
    """meshgrid with indexing='ij' and 'xy' (two and three inputs)."""
    return (*torch.meshgrid(a, b, indexing="ij"), *torch.meshgrid(a, b, c, indexing="xy"))


@case("tensors_meshgrid_default", ["meshgrid.default"], lambda g, d: (rn(g, 2), rn(g, 3)))
def _(self, a, b):
    """torch.ops.aten.meshgrid.default (no indexing: 'ij')."""
    return tuple(torch.ops.aten.meshgrid.default([a, b]))


# ==========================================================================
# Diagonals, cross
# ==========================================================================


@case("tensors_diagonal", ["diagonal.default", "diag.default", "diag_embed.default",
                           "diagonal_scatter.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 2, 3, 4), rn(g, 3), rn(g, 2, 3)))
def _(self, x, y, v, w):
    """diagonal with offsets 0, 1, -2, out of range (empty) and dims (-1, 0); diag of a vector (offsets 1,
    -2) and of a matrix; diag_embed (offset 1, dims (0, 2)); diagonal_scatter with an offset and dims."""
    return (torch.diagonal(x), torch.diagonal(x, 1), torch.diagonal(x, -2), torch.diagonal(x, 5),
            torch.diagonal(y, 1, -1, 0), torch.diag(v, 1), torch.diag(v, -2), torch.diag(x, 1),
            torch.diag_embed(w), torch.diag_embed(w, 1, 0, 2),
            torch.diagonal_scatter(x, v, 0), torch.diagonal_scatter(y, torch.ones(4, 1), -2, 1, 0))


@case("tensors_diagonal_core", ["diagonal.default"], lambda g, d: (rn(g, 3, 4),), ir="ATEN")
def _(self, x):
    """Core ATen: torch.diagonal(x, 1) and x.diagonal() * 2."""
    return torch.diagonal(x, 1), x.diagonal() * 2


@case("tensors_cross", ["cross.default", "linalg_cross.default"],
      lambda g, d: (rn(g, 4, 3), rn(g, 4, 3), ri(g, -5, 6, 3, 2), ri(g, -5, 6, 3, 2)))
def _(self, a, b, i, j):
    """torch.cross(dim=1), torch.cross(dim=0) on int64, torch.linalg.cross (dim -1) with broadcasting."""
    return torch.cross(a, b, dim=1), torch.cross(i, j, dim=0), torch.linalg.cross(a, b[:1])


# ==========================================================================
# Sorting
# ==========================================================================


def _nan_rows(g):
    x = torch.randn(3, 6, generator=g)
    x[0, 1] = NAN
    x[0, 4] = NAN
    x[1, 0] = float("inf")
    x[1, 3] = NAN
    return x


@case("tensors_sort", ["sort.default", "sort.stable"],
      lambda g, d: (rn(g, 3, 5), ri(g, 0, 3, 2, 7), _nan_rows(g), rb(g, 6)))
def _(self, x, a, n, m):
    """sort ascending / descending on dims 1 and 0; int64 with ties (stable order of indices); NaN counted
    largest (indices only: last ascending, first descending, in index order); stable=True; bool."""
    v0, i0 = torch.sort(x)
    v1, i1 = torch.sort(x, dim=0, descending=True)
    v2, i2 = torch.sort(a, stable=True)
    v3, i3 = torch.sort(a, descending=True, stable=True)
    _, i4 = torch.sort(n)
    _, i5 = torch.sort(n, descending=True)
    v6, i6 = torch.sort(m, stable=True)
    return v0, i0, v1, i1, v2, i2, v3, i3, i4, i5, v6, i6


@case("tensors_topk", ["topk.default"], lambda g, d: (rn(g, 3, 5), _nan_rows(g)))
def _(self, x, n):
    """topk largest k=2 on dim 1, smallest k=3 on dim 0, k=0; NaN counted largest (indices)."""
    v0, i0 = torch.topk(x, 2)
    v1, i1 = torch.topk(x, 3, dim=0, largest=False)
    v2, _ = torch.topk(x, 0)
    _, i3 = torch.topk(n, 3)
    _, i4 = torch.topk(n, 2, largest=False)
    return v0, i0, v1, i1, v2, i3, i4


@case("tensors_kthvalue_median", ["kthvalue.default", "median.default", "median.dim"],
      lambda g, d: (rn(g, 3, 5), ri(g, -5, 6, 4, 3), _nan_rows(g)))
def _(self, x, a, n):
    """kthvalue k=2 dim 1 and k=3 dim 0 keepdim; median of all (lower median of an even count), of int64;
    median.dim with keepdim; rows with NaN give NaN and the index of the first NaN (indices checked)."""
    k0 = torch.kthvalue(x, 2)
    k1 = torch.kthvalue(x, 3, dim=0, keepdim=True)
    m1 = torch.median(x, 1)
    m2 = torch.median(x[:, :4], 1, keepdim=True)
    _, mi = torch.median(n, 1)
    return (k0.values, k0.indices, k1.values, k1.indices, torch.median(x), torch.median(x[:, :4]),
            torch.median(a), m1.values, m1.indices, m2.values, torch.median(n).isnan(), mi)


# ==========================================================================
# Scatter and index_* ops
# ==========================================================================


@case("tensors_scatter", ["scatter.src", "scatter.value", "scatter.reduce", "scatter.value_reduce",
                          "scatter_add.default"],
      lambda g, d: (rn(g, 3, 5), _perm_rows(g, 3, 5), rn(g, 3, 5), ri(g, 0, 3, 4, 5), rn(g, 4, 6),
                    ri(g, 0, 3, 1, 5)))
def _(self, x, p, s, i, t, q):
    """scatter of src along dim 1 with permutation rows and along dim 0 with a smaller index; scatter of a
    value; reduce='add' / 'multiply' (tensor and value); scatter_add with duplicates and an index smaller
    than src."""
    return (x.scatter(1, p, s), x.scatter(0, q, s), x.scatter(1, p[:, :2], 2.5),
            x.scatter(0, i, t[:, :5], reduce="add"), x.scatter(0, i, t, reduce="multiply"),
            x.scatter(0, i, 1.5, reduce="add"), torch.scatter_add(x, 0, i, t), torch.scatter_add(x, 1, p[:2, :3], t))


@case("tensors_scatter_reduce", ["scatter_reduce.two"],
      lambda g, d: (rn(g, 3, 5), ri(g, 0, 3, 4, 5), rn(g, 4, 5), ri(g, -5, 6, 3, 5), ri(g, -5, 6, 4, 5)))
def _(self, x, i, s, a, b):
    """scatter_reduce sum / prod / mean / amax / amin with include_self True and False (float); mean of
    int64 (floor division) both ways; amax of int64 without self; NaN in self or src propagates through
    amax / amin (NaN positions compared)."""
    out = []
    for r in ("sum", "prod", "mean", "amax", "amin"):
        for inc in (True, False):
            out.append(x.scatter_reduce(0, i, s, r, include_self=inc))
    out += [a.scatter_reduce(0, i, b, "mean"), a.scatter_reduce(0, i, b, "mean", include_self=False),
            a.scatter_reduce(0, i, b, "amax", include_self=False)]
    # NaN propagates through amax / amin (onnxruntime's max / min drop it): which positions are NaN.
    sn = s.clone()
    sn[1, 2] = float("nan")
    xn = x.clone()
    xn[2, 0] = float("nan")
    for r in ("amax", "amin"):
        for inc in (True, False):
            out.append(xn.scatter_reduce(0, i, sn, r, include_self=inc).isnan())
    return tuple(out)


@case("tensors_index_ops", ["index_add.default", "index_copy.default", "index_fill.int_Scalar",
                            "index_fill.int_Tensor", "index_reduce.default"],
      lambda g, d: (rn(g, 5, 3), torch.tensor([0, 4, 0, 2]), rn(g, 4, 3), torch.tensor([3, 1]), rn(g, 2, 3)))
def _(self, x, i, s, j, t):
    """index_add (duplicates accumulate, alpha=2, dim -1), index_copy with unique indices, index_fill
    with a number (negative index) and a 0-d tensor, index_reduce prod / mean / amax / amin with and
    without self."""
    out = [x.index_add(0, i, s), x.index_add(0, i, s, alpha=2), x.t().index_add(-1, i, s.t()),
           x.index_copy(0, j, t), x.index_fill(0, torch.tensor([-1, 1]), 2.5), x.index_fill(1, j[1:], torch.tensor(-3.0))]
    for r in ("prod", "mean", "amax", "amin"):
        for inc in (True, False):
            out.append(x.index_reduce(0, i, s, r, include_self=inc))
    return tuple(out)


@case("tensors_masked", ["masked_scatter.default", "masked_select.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 12), rb(g, 3, 4), rb(g, 4)))
def _(self, x, s, m, r):
    """masked_scatter (mask [3,4], broadcast row mask [4]); masked_select (2-D mask, broadcast row
    mask)."""
    return (x.masked_scatter(m, s), x.masked_scatter(r, s), torch.masked_select(x, m),
            torch.masked_select(x, r))


@case("tensors_nonzero", ["nonzero.default", "argwhere.default", "_assert_scalar.default"],
      lambda g, d: (rn(g, 3, 4), ri(g, 0, 2, 5), rb(g, 2, 3, 2)))
def _(self, x, a, m):
    """nonzero of a float comparison, of int64 and bool (3-D); argwhere."""
    return torch.nonzero(x > 0), torch.nonzero(a), torch.nonzero(m), torch.argwhere(x < 0)


@case("tensors_nonzero_core", ["nonzero.default"], lambda g, d: (rn(g, 3, 4),), ir="ATEN")
def _(self, x):
    """Core ATen nonzero."""
    return torch.nonzero(x > 0)


@case("tensors_take", ["take.default", "take_along_dim.default"],
      lambda g, d: (rn(g, 3, 4), torch.tensor([[0, 11], [-1, 5]]), ri(g, 0, 4, 3, 2), ri(g, 0, 3, 5, 1)))
def _(self, x, i, j, k):
    """take with negative indices; take_along_dim on dim 1, on dim 0 with a broadcast [5,1] index,
    without dim (flattened)."""
    return (torch.take(x, i), torch.take_along_dim(x, j, 1), torch.take_along_dim(x, k, 0),
            torch.take_along_dim(x, j.flatten()))


@case("tensors_repeat_interleave", ["repeat_interleave.self_int", "repeat_interleave.self_Tensor",
                                    "repeat_interleave.Tensor"],
      lambda g, d: (rn(g, 3, 2), torch.tensor([1, 0, 3]), torch.tensor([2, 1])))
def _(self, x, r, s):
    """repeat_interleave by an int on dim 0, -1 and flattened; by a tensor on dim 0 (a zero count) and -1;
    torch.repeat_interleave(repeats)."""
    return (x.repeat_interleave(2, dim=0), x.repeat_interleave(3, dim=-1), x.repeat_interleave(2),
            x.repeat_interleave(r, dim=0), x.repeat_interleave(s, dim=-1), torch.repeat_interleave(r))


@case("tensors_tile_movedim", ["tile.default", "movedim.int", "movedim.intlist", "swapaxes.default",
                               "moveaxis.int"],
      lambda g, d: (rn(g, 2, 3, 4), ri(g, 0, 5, 3)))
def _(self, x, a):
    """tile with fewer, equal and more dims than the rank, on int64; movedim single and lists; swapaxes;
    moveaxis."""
    return (torch.tile(x, (2,)), torch.tile(x, (1, 2, 1)), torch.tile(a, (2, 2)), torch.movedim(x, 0, -1),
            torch.movedim(x, (0, 1), (2, 0)), torch.swapaxes(x, 0, 2), torch.moveaxis(x, -1, 0))


@case("tensors_as_strided", ["as_strided.default"], lambda g, d: (rn(g, 3, 4),))
def _(self, x):
    """as_strided of a contiguous input: a transposed 2x2 window, overlapping rows (stride 0), an offset."""
    return (x.as_strided((2, 2), (1, 4)), x.as_strided((2, 3), (0, 1)), x.as_strided((3, 3), (3, 1), 2),
            torch.as_strided(x, (2,), (5,), 1))


@case("tensors_item", ["item.default"], lambda g, d: (rn(g, 6), torch.tensor([3])))
def _(self, x, n):
    """x[:n.item()] with a data-dependent slice end (item -> a symbolic int); a float item as a
    multiplier; an int item as a fill value of torch.full."""
    k = n.item()
    torch._check(k >= 0)
    torch._check(k <= 6)
    return x[:k] * 2, x * x.sum().item(), torch.full((2,), n.max().item())


@case("tensors_item_core", ["_local_scalar_dense.default"], lambda g, d: (rn(g, 6), torch.tensor([4])),
      ir="ATEN")
def _(self, x, n):
    """Core ATen: .item() is _local_scalar_dense."""
    k = n.item()
    torch._check(k >= 0)
    torch._check(k <= 6)
    return x[:k] + 1


# ==========================================================================
# Random ops: outputs that do not depend on the draw (the distributions are
# checked in tests/integration/random.rs). Converted at opset 21: onnxruntime
# 1.32 has no kernels for the opset-22 versions of RandomUniformLike,
# RandomNormalLike and Bernoulli.
# ==========================================================================


@case("tensors_random", ["rand.default", "randn.default", "rand_like.default", "randn_like.default",
                         "randint.default", "randint.low", "randperm.default", "bernoulli.default",
                         "bernoulli.p", "normal.Tensor_float", "normal.float_float", "normal.float_Tensor",
                         "normal.Tensor_Tensor", "uniform.default"],
      lambda g, d: (rn(g, 3, 4), pos(g, 3, 4) / 2), opset=21)
def _(self, x, p):
    """Range checks of each random op: rand / rand_like in [0, 1), randn / randn_like / normal finite,
    randint in [low, high), randperm sorted is arange, bernoulli in {0, 1}, uniform_ in [from, to)."""
    r = torch.rand(3, 4)
    rl = torch.rand_like(x)
    n = torch.randn(2, 5)
    nl = torch.randn_like(x)
    i = torch.randint(5, (4, 3))
    j = torch.randint(-3, 2, (6,))
    perm = torch.randperm(7)
    b = torch.bernoulli(p)
    bp = torch.bernoulli(x, 0.3)
    n1 = torch.normal(x, 2.0)
    n2 = torch.normal(1.0, 2.0, (2, 3))
    n3 = torch.normal(1.0, p)
    n4 = torch.normal(x, p)
    u = x.clone().uniform_(-2.0, 3.0)
    return ((r >= 0) & (r < 1), (rl >= 0) & (rl < 1), n.isfinite(), nl.isfinite(), (i >= 0) & (i < 5),
            (j >= -3) & (j < 2), perm.sort().values, (b == 0) | (b == 1), (bp == 0) | (bp == 1),
            n1.isfinite(), n2.isfinite(), n3.isfinite(), n4.isfinite(), (u >= -2) & (u < 3))


@case("tensors_dropout_core", ["native_dropout.default", "normal_functional.default"], lambda g, d: (pos(g, 4, 5),), ir="ATEN", opset=21)
def _(self, x):
    """Core ATen F.dropout(training=True) is native_dropout: each element is 0 or 2x (p=0.5), the mask
    says which; training=False is the identity; x.normal_() is normal_functional."""
    y = F.dropout(x, 0.5, training=True)
    n = x.clone().normal_(1.0, 0.5)
    return (y == 0) | ((y - 2 * x).abs() < 1e-6), F.dropout(x, 0.5, training=False), n.isfinite()


@case("tensors_unique", ["_unique2.default", "unique_dim.default"],
      lambda g, d: (ri(g, -2, 3, 3, 4), grid(g, 8), ri(g, 0, 2, 6, 2)))
def _(self, a, x, r):
    """torch.unique (sorted values, inverse shaped like the input, counts) on int64 and float; without
    inverse/counts; unique rows (dim=0) and columns (dim=1) with inverse and counts."""
    v, inv, cnt = torch.unique(a, return_inverse=True, return_counts=True)
    u = torch.unique(x)
    rows, rinv, rcnt = torch.unique(r, dim=0, return_inverse=True, return_counts=True)
    cols = torch.unique(r.t(), dim=1)
    return v, inv, cnt, u, rows, rinv, rcnt, cols


@case("tensors_diagonal_dynamic", ["diagonal.default"], lambda g, d: (rn(g, 2, d["n"], d["n"]),),
      dynamic={"x": {1: ("n", 4, 6), 2: ("n", 4, 6)}})
def _(self, x):
    """diagonal over two dynamic dims (offset 0, dims (1, 2) and (-1, -2)); torch.export cannot keep
    other offsets dynamic (its guard on min(n, n - offset) fails)."""
    return torch.diagonal(x, 0, 1, 2), torch.diagonal(x, 0, -1, -2) * 2


@case("tril_triu_indices", ["tril_indices.default", "triu_indices.default"], lambda g, d: (rn(g, 4, 4),))
def _(self, x):
    """torch.tril_indices / triu_indices (constants of the row and column indices of a triangle, as
    DLRM-style pairwise interactions gather them), with offsets, a non-square matrix and int32."""
    i = torch.tril_indices(4, 4, -1)
    return (x[i[0], i[1]], torch.triu_indices(3, 5, 1), torch.tril_indices(3, 2, 1),
            torch.triu_indices(4, 4, dtype=torch.int32).long(), torch.tril_indices(0, 3))


@case("tensors_split_unbacked_sizes", ["split_with_sizes.default"],
      lambda g, d: (rn(g, d["tokens"], 4), ri(g, 0, 3, d["tokens"])),
      dynamic={"x": {0: ("tokens", 9, 11)}, "expert": {0: ("tokens", 9, 11)}})
def _(self, x, expert):
    """A mixture-of-experts dispatch (JetMoE): tokens sorted by expert, split by the per-expert
    counts read with tolist() (unbacked sizes along a dynamic dim), each group reduced and scaled."""
    counts = (expert[:, None] == torch.arange(3)).sum(0).tolist()
    order = torch.argsort(expert, stable=True)
    parts = x[order].split(counts, 0)
    return tuple(p.sum(0) * (i + 1) for i, p in enumerate(parts))


@case("tensors_diagonal_family_dynamic", ["diagonal.default", "diag_embed.default", "diagonal_scatter.default",
                                   "diagflat.default"],
      lambda g, d: (rn(g, 2, d["n"], d["m"]), rn(g, 3, d["n"]), ri(g, -5, 6, d["n"], 2)),
      dynamic={"x": {1: ("n", 4, 6), 2: ("m", 5, 8)}, "v": {1: ("n", 4, 6)}, "a": {0: ("n", 4, 6)}})
def _(self, x, v, a):
    """The diagonal family along dynamic dims (positions computed in the graph): diagonal with offsets of
    both signs and both dim orders, diag_embed of a dynamic length at offsets 0 / 2 / -1 and dims (0, 2),
    diagonal_scatter into a dynamic pair, diagflat of a dynamic int64 tensor with an offset."""
    d = torch.diagonal(x, 1, 1, 2)
    s = torch.diagonal_scatter(x, torch.diagonal(x, -1, 1, 2) * 2.0, -1, 1, 2)
    return (torch.diagonal(x, 0, 1, 2), d, torch.diagonal(x, -2, 2, 1), torch.diag_embed(v),
            torch.diag_embed(v, 2), torch.diag_embed(v, -1, 0, 2), s, torch.diagflat(a, 1), torch.diagflat(v, -2))


@case("tensors_zero", ["zero.default"], lambda g, d: (rn(g, 2, 3), ri(g, -5, 5, 4), rb(g, 3, 2)))
def _(self, x, a, m):
    """aten.zero (the functional form of zero_) of float32, int64 and bool tensors: zeros of each one's shape and
    dtype, plus x so the output keeps x's values too."""
    return (torch.ops.aten.zero.default(x) + x, torch.ops.aten.zero.default(a), torch.ops.aten.zero.default(m))
