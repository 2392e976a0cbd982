# Shape views as copies, stacking, splitting, flips and simple index ops
# (issue 7 coverage). Imported by tools/capture/capture_op_tests.py;
# `case`, `rn`, `ri`, `rb`, ... come from op_case_lib. Every case name starts with
# `shapes2_` (ATEN2ONNX_ONLY=shapes2_ runs them all).

from __future__ import annotations

import torch

from op_case_lib import case, rb, ri, rn

A = torch.ops.aten


# ==========================================================================
# *_copy variants of the view ops
# ==========================================================================


@case("shapes2_copies", ["alias_copy.default", "as_strided_copy.default", "diagonal_copy.default",
                         "expand_copy.default", "narrow_copy.default", "permute_copy.default",
                         "t_copy.default", "transpose_copy.int", "unsqueeze_copy.default",
                         "view_copy.default", "unfold_copy.default"],
      lambda g, d: (rn(g, 3, 4), rn(g, 3, 1), ri(g, -5, 6, 2, 3, 4), rn(g)))
def _(self, x, c, a, s):
    """The *_copy ops: alias_copy, as_strided_copy (overlapping strides, offset), diagonal_copy
    (offset, dims), expand_copy (with -1), narrow_copy (negative start), permute_copy of int64, t_copy,
    transpose_copy (negative dims, 0-d), unsqueeze_copy (-1), view_copy (-1), unfold_copy."""
    return (A.alias_copy(x), A.as_strided_copy(x, [2, 3], [1, 2], 1), A.diagonal_copy(a, 1, -1, 0),
            A.expand_copy(c, [2, -1, 4]), A.narrow_copy(x, 0, -2, 2), A.permute_copy(a, [2, 0, 1]),
            A.t_copy(x), A.transpose_copy(a, -1, 0), A.transpose_copy(s, 0, -1), A.unsqueeze_copy(x, -1),
            A.view_copy(a, [-1, 4]), A.unfold_copy(x, 1, 2, 1))


@case("shapes2_copies_multi", ["split_with_sizes_copy.default", "squeeze_copy.default", "squeeze_copy.dim",
                               "squeeze_copy.dims", "unbind_copy.int"],
      lambda g, d: (rn(g, 1, 5, 1), rb(g, 3, 2)))
def _(self, x, m):
    """split_with_sizes_copy (sizes [2,3] on dim 1, one empty piece), squeeze_copy (all, dim, dims incl.
    a non-1 dim), unbind_copy on dim -1 of a bool tensor."""
    return (*A.split_with_sizes_copy(x, [2, 0, 3], 1), A.squeeze_copy(x), A.squeeze_copy.dim(x, -1),
            A.squeeze_copy.dims(x, [0, 1]), *A.unbind_copy(m, -1))


# ==========================================================================
# atleast, ravel, reshape_as, stacking
# ==========================================================================


@case("shapes2_atleast", ["atleast_1d.default", "atleast_2d.default", "atleast_3d.default",
                          "atleast_1d.Sequence", "atleast_2d.Sequence", "atleast_3d.Sequence"],
      lambda g, d: (rn(g), rn(g, 3), ri(g, -5, 6, 2, 3), rb(g, 2, 3, 4)))
def _(self, s, v, m, t):
    """atleast_1d/2d/3d of 0-d, 1-D, 2-D (int64) and 3-D (bool) tensors, and the Sequence overloads."""
    return (torch.atleast_1d(s), torch.atleast_2d(s), torch.atleast_3d(s), torch.atleast_2d(v),
            torch.atleast_3d(v), torch.atleast_3d(m), torch.atleast_1d(t).logical_not(),
            *torch.atleast_1d(s, v * 2), *torch.atleast_2d(s * 3, m + 1), *torch.atleast_3d(v, m, ~t))


@case("shapes2_ravel", ["ravel.default", "reshape_as.default"],
      lambda g, d: (rn(g, 2, 3), rn(g, 3, 2), ri(g, -5, 6), rn(g, 0, 3)))
def _(self, x, y, s, e):
    """ravel of 2-D, 0-d int64 and empty; reshape_as (of a 0-d into [1,1], of an empty)."""
    return (torch.ravel(x), torch.ravel(s), torch.ravel(e), x.reshape_as(y), s.reshape_as(torch.ones(1, 1)),
            e.reshape_as(torch.ones(3, 0)))


@case("shapes2_stack", ["hstack.default", "vstack.default", "dstack.default", "column_stack.default"],
      lambda g, d: (rn(g), rn(g, 3), rn(g, 2, 3), ri(g, -5, 6, 2, 3), rn(g, 2, 3, 2)))
def _(self, s, v, m, i, t):
    """hstack of 0-d and 1-D, of 2-D (float + int64 promotes); vstack of 1-D and 2-D; dstack of 1-D, of
    2-D and 3-D; column_stack of 0-d/1-D/2-D."""
    return (torch.hstack([s, v, s]), torch.hstack([m, i]), torch.vstack([v, m]), torch.vstack([s, s]),
            torch.dstack([v, v]), torch.dstack([m, t]), torch.column_stack([m[0], m[1], m.t()]),
            torch.column_stack([s, s]))


# ==========================================================================
# Splitting
# ==========================================================================


@case("shapes2_split", ["hsplit.int", "hsplit.array", "vsplit.int", "vsplit.array", "dsplit.int",
                        "dsplit.array", "tensor_split.sections", "tensor_split.indices",
                        "unsafe_chunk.default", "unsafe_split.Tensor"],
      lambda g, d: (rn(g, 4, 6, 2), ri(g, -5, 6, 7)))
def _(self, x, v):
    """hsplit/vsplit/dsplit by sections and at indices (out of order, negative, past the end),
    tensor_split into uneven sections and at indices, unsafe_chunk and unsafe_split (last piece short)."""
    return (*torch.hsplit(x, 3), *torch.hsplit(x, [4, 1]), *torch.vsplit(x, 2), *torch.vsplit(x, [-1, 9]),
            *torch.dsplit(x, 2), *torch.dsplit(x, [1]), *torch.hsplit(v, [2, 5]),
            *torch.tensor_split(v, 3), *torch.tensor_split(x, [1, 4], dim=1),
            *A.unsafe_chunk(x, 4, 1), *A.unsafe_split(v, 3))


# ==========================================================================
# Flips, rotations, windows
# ==========================================================================


@case("shapes2_flip", ["fliplr.default", "flipud.default", "rot90.default", "unfold.default"],
      lambda g, d: (rn(g, 3, 4), ri(g, -5, 6, 2, 3, 4), rn(g, 7)))
def _(self, x, a, v):
    """fliplr, flipud (1-D and int64 3-D), rot90 with k = 1, 2, 3, -1 and dims (2, 0); Tensor.unfold with a
    step larger than the size, a window the whole dim, and on dim 0."""
    return (torch.fliplr(x), torch.flipud(v), torch.flipud(a), torch.rot90(x), torch.rot90(x, 2),
            torch.rot90(x, 3), torch.rot90(a, -1, [2, 0]), v.unfold(0, 2, 3), x.unfold(1, 4, 1),
            a.unfold(0, 1, 1), x.unfold(-1, 2, 2))


# ==========================================================================
# Real-only identities
# ==========================================================================


@case("shapes2_real", ["resolve_conj.default", "resolve_neg.default", "conj_physical.default", "real.default",
                       "isreal.default", "angle.default", "matrix_H.default"],
      lambda g, d: (torch.tensor([-1.5, 0.0, -0.0, float("nan"), 2.0, float("-inf")]), ri(g, -5, 6, 2, 3),
                    rn(g, 2, 3, 4), rn(g, 2, 3)))
def _(self, y, a, m, x):
    """resolve_conj / resolve_neg / conj_physical / real of real tensors are the input; isreal is all
    true; angle is pi for negatives (and -inf), 0 for zeros (also -0.0), NaN for NaN (shown as 7 by
    nan_to_num: outputs must be finite), int64 promotes;
    x.H (matrix_H, 2-D only) transposes."""
    return (torch.resolve_conj(x) * 2, torch.resolve_neg(a) + 1, torch.conj_physical(x) * 1, torch.real(x) + 0,
            torch.isreal(a), torch.angle(y).nan_to_num(7.0), torch.angle(x), torch.angle(a), A.matrix_H(m[0]))


# ==========================================================================
# Diagonals and block matrices, products
# ==========================================================================


@case("shapes2_diag", ["linalg_diagonal.default", "diagflat.default", "block_diag.default",
                       "cartesian_prod.default", "combinations.default"],
      lambda g, d: (rn(g, 2, 3, 4), rn(g, 2, 2), ri(g, -5, 6, 3), rn(g), rn(g, 4)))
def _(self, x, m, i, s, v):
    """linalg.diagonal (default dims, offset and dims); diagflat of a matrix (offset 1) and of an int64
    vector (offset -2); block_diag of 0-d, int64 1-D and 2-D (promotes); cartesian_prod of two and of three
    tensors; combinations with r=0 (r > 0 does not export: torch traces it to data-dependent sizes)."""
    return (torch.linalg.diagonal(x), torch.linalg.diagonal(x, offset=1, dim1=0, dim2=2),
            torch.diagflat(m, 1), torch.diagflat(i, -2), torch.block_diag(s, i, m),
            torch.cartesian_prod(v, i.float()), torch.cartesian_prod(i, i, i),
            torch.combinations(v, 0))


# ==========================================================================
# Reductions to a size, chunk_cat, creation
# ==========================================================================


@case("shapes2_sum_to_size", ["sum_to_size.default", "_chunk_cat.default"],
      lambda g, d: (rn(g, 2, 3, 4), ri(g, -5, 6, 2, 3), rb(g, 2, 3), rn(g, 3, 5), rn(g, 3, 2, 2)))
def _(self, x, a, m, p, q):
    """sum_to_size: leading dims away, a size-1 dim kept, the same size (no-op), int64, bool (sums to
    int64); _chunk_cat of tensors padded to a multiple of the chunks (dim 1, and dim 0)."""
    return (x.sum_to_size(3, 1), x.sum_to_size(1, 1, 4), x.sum_to_size(2, 3, 4), a.sum_to_size(3),
            m.sum_to_size(1, 3), A._chunk_cat([p, q], 1, 2), A._chunk_cat([p, q], 0, 2))


@case("shapes2_creation", ["eye.default", "eye.m", "empty_permuted.default"], lambda g, d: (rn(g, 3, 3),))
def _(self, x):
    """eye(3) added to x, eye(2, 4), eye(4, 2) int64, eye(0), empty_permuted (values unspecified) filled."""
    e = torch.empty_permuted((2, 3), (1, 0)).fill_(2.0)
    return (x + torch.eye(3), torch.eye(2, 4), torch.eye(4, 2, dtype=torch.int64), torch.eye(0), e,
            torch.eye(3, dtype=torch.bool))


# ==========================================================================
# nonzero variants
# ==========================================================================


@case("shapes2_nonzero", ["nonzero_static.default", "nonzero_numpy.default"],
      lambda g, d: (torch.tensor([[0.0, 1.5, 0.0], [float("nan"), 0.0, -2.0]]), torch.tensor([0, 3, 0, 1])))
def _(self, x, a):
    """nonzero_static cut to 2 rows, padded to 6 rows with -1 and with 9; as_tuple nonzero (nonzero_numpy)
    of a matrix (NaN counts as nonzero) and of an int64 vector."""
    return (torch.nonzero_static(x, size=2), torch.nonzero_static(x, size=6),
            torch.nonzero_static(a, size=5, fill_value=9), *torch.nonzero(x, as_tuple=True),
            *torch.nonzero(a, as_tuple=True))


# ==========================================================================
# linspace / logspace with tensor bounds, put, strided scatter, masked index
# ==========================================================================


@case("shapes2_space", ["linspace.Tensor_Tensor", "linspace.Tensor_Scalar", "linspace.Scalar_Tensor",
                        "logspace.Tensor_Tensor", "logspace.Tensor_Scalar", "logspace.Scalar_Tensor"],
      lambda g, d: (torch.tensor(-1.5), torch.tensor(2.25), torch.tensor(3)))
def _(self, a, b, n):
    """linspace / logspace with 0-d tensor bounds (both, start only, end only), an int64 bound, an int64
    result (bounds truncated), one step and base 2."""
    return (torch.linspace(a, b, 7), torch.linspace(a, 4.0, 5), torch.linspace(-2, b, 4),
            torch.linspace(n, b, 6), torch.linspace(a, b, 5, dtype=torch.int64), torch.linspace(a, b, 1),
            torch.logspace(a, b, 5), torch.logspace(a, 1.0, 4, base=2.0), torch.logspace(0, n, 4))


@case("shapes2_scatter", ["put.default", "as_strided_scatter.default"],
      lambda g, d: (rn(g, 3, 4), torch.tensor([[0, -1], [5, 11]]), rn(g, 4), rn(g, 2, 2), rb(g, 2, 3)))
def _(self, x, i, v, s, m):
    """put with flat and negative indices, accumulate with a repeated index, into bool (accumulate is a
    logical or); as_strided_scatter of a [2,2] block with strides (1, 2) and an offset."""
    return (torch.put(x, i, v), torch.put(x, torch.tensor([1, 1, -1, 0]), v, accumulate=True),
            torch.put(m, torch.tensor([0, 0, 4]), torch.tensor([True, True, False]), accumulate=True),
            torch.as_strided_scatter(x, s, (2, 2), (1, 2), 1))


@case("shapes2_masked_index", ["_unsafe_masked_index.default", "_unsafe_masked_index_put_accumulate.default"],
      lambda g, d: (rn(g, 5, 5), ri(g, 0, 8, 6, 1), ri(g, -7, 5, 1, 6), rn(g, 6, 6)))
def _(self, x, i, j, v):
    """_unsafe_masked_index / _unsafe_masked_index_put_accumulate with indices out of bounds (above the
    size and below -size) where the mask is false: they are clamped, then masked by fill / by adding 0."""
    mask = (i < 5) & (j >= -5)
    return (A._unsafe_masked_index(x, mask, [i, j], 0.5),
            A._unsafe_masked_index_put_accumulate(x, mask, [i, j], v))


@case("shapes2_tensor_split_tensor", ["tensor_split.tensor_indices_or_sections"], lambda g, d: (rn(g, 7), rn(g, 2, 5)))
def _(self, v, x):
    """tensor_split by a 0-d tensor of sections (a constant: static piece sizes), on dim 0 and dim -1.
    (A 1-D tensor of indices gives data-dependent sizes at export: the rule refuses it.)"""
    return (*torch.tensor_split(v, torch.tensor(3)), *torch.tensor_split(x, torch.tensor(2), dim=-1))


# ==========================================================================
# roll of dynamic sizes (Swin's shifted windows on a dynamic image)
# ==========================================================================


@case("shapes2_roll_dynamic", ["roll.default", "sym_size.int"],
      lambda g, d: (rn(g, 2, d["h"], d["w"], 3), ri(g, -5, 6, d["h"], 4)),
      dynamic={"x": {1: ("h", 5, 7), 2: ("w", 6, 4)}, "a": {0: ("h", 5, 7)}})
def _(self, x, a):
    """roll along dynamic dims: Swin's (-3, -3) on (H, W) and back (3, 3); -9 on W (|shift| > size);
    a shift computed from a dynamic size (H // 2); the flattened tensor (no dims); an int64 tensor."""
    return (x.roll((-3, -3), (1, 2)), x.roll((3, 3), (1, 2)), x.roll(-9, 2), x.roll(x.shape[1] // 2, 1),
            x.roll(5), a.roll(2, 0))


@case("shapes2_slice_scatter_dynamic", ["slice_scatter.default"],
      lambda g, d: (rn(g, 2, d["h"], d["w"]), rn(g, 2, d["h"], 2)),
      dynamic={"x": {1: ("h", 5, 7), 2: ("w", 6, 5)}, "y": {1: ("h", 5, 7)}}, dim_min={"h": 5, "w": 5})
def _(self, x, y):
    """Slice assignments with negative starts on dynamic dims: Swin's shifted-window mask (regions
    [0:-3], [-3:-1], [-1:] of H and W numbered 0..8 in a zeros tensor of x's size), z[:, :, -2:] = y,
    z[:, -4:] = 1."""
    m = torch.zeros_like(x)
    cnt = 0
    for h in (slice(0, -3), slice(-3, -1), slice(-1, None)):
        for w in (slice(0, -3), slice(-3, -1), slice(-1, None)):
            m[:, h, w] = cnt
            cnt += 1
    z = x.clone()
    z[:, :, -2:] = y
    z[:, -4:] = 1.0
    return m, z


@case("shapes2_squeeze_dynamic", ["squeeze.default", "squeeze.dim", "squeeze.dims"],
      lambda g, d: (rn(g, d["batch"], 1, 3), rn(g, 1, d["batch"], 1)),
      dynamic={"x": {0: ("batch", 2, 3)}, "y": {1: ("batch", 2, 3)}})
def _(self, x, y):
    """squeeze next to a dynamic dim (torch.export keeps a dynamic dim, taken not to be 1; the
    capture's result type says so): x.squeeze() [B,1,3] -> [B,3], x.squeeze(0) (nothing),
    y.squeeze() [1,B,1] -> [B], y.squeeze((0, 1))."""
    return x.squeeze(), x.squeeze(0), y.squeeze(), y.squeeze((0, 1))


@case("shapes2_view_write_dynamic", ["view.default", "div.Tensor", "mul.Tensor"],
      lambda g, d: (rn(g, d["batch"], 8), rn(g, 4)), dynamic={"x": {0: ("batch", 2, 3)}})
def _(self, x, s):
    """In-place ops through a view of a tensor of dynamic shape (DeBERTa divides a viewed score
    tensor in place): y.view(-1, 4).div_(s); y.view(B, 2, 4)[:, 1].mul_(3); y is returned."""
    y = x * 1.5
    y.view(-1, 4).div_(s)
    y.view(x.shape[0], 2, 4)[:, 1].mul_(3.0)
    return y


@case("shapes2_sym_pow", ["new_zeros.default", "new_full.default", "sym_size.int"],
      lambda g, d: (rn(g, d["batch"], 3),), dynamic={"x": {0: ("batch", 4, 6)}}, dim_min={"batch": 4})
def _(self, x):
    """Integer powers of a dynamic size (DINOv2 counts its patches as (H // p) ** 2): a zeros
    tensor of (B // 2) ** 2 + 1 elements; a (B // 2) ** 3 x 2 tensor of 1.5."""
    n = x.shape[0] // 2
    return x.new_zeros(n ** 2 + 1), x.new_full((n ** 3, 2), 1.5)


@case("shapes2_cat_legacy_empty", ["cat.default"], lambda g, d: (rn(g, 2, 2, d["seq"], 4), ri(g, -5, 6, 3)),
      dynamic={"k": {2: ("seq", 3, 5)}})
def _(self, k, a):
    """torch.cat skips 1-D tensors of size 0 (legacy): Hugging Face's DynamicLayer starts its key cache
    as torch.tensor([]) and concatenates 4-D states on dim -2; the empty tensor last; an int64 tensor
    with an empty float tensor (the result dtype promotes)."""
    empty = k.new_zeros(0)
    return (torch.cat([empty, k], dim=-2), torch.cat([k, empty, k], dim=2),
            torch.cat([a, torch.tensor([])], dim=0))


@case("shapes2_chunk_cat_dynamic", ["_chunk_cat.default"],
      lambda g, d: (rn(g, 2, d["auto:p"], 3), rn(g, 2, d["auto:q"]), ri(g, -5, 6, d["auto:r"])),
      dynamic={"p": {1: ("auto:p", 5, 6)}, "q": {1: ("auto:q", 7, 5)}, "r": {0: ("auto:r", 9, 6)}})
def _(self, p, q, r):
    """_chunk_cat along dynamic lengths: each padded with (n - L mod n) mod n zeros (none when n divides L)
    and viewed as [..., n, -1] with the sizes read from the shape; trailing dims, int64, dim 0."""
    a = A._chunk_cat([p, q.unsqueeze(-1).expand(2, q.shape[1], 3)], 1, 4)
    return a, A._chunk_cat([q, q], 1, 3), A._chunk_cat([r], 0, 3)
