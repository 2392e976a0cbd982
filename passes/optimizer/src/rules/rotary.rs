//! Rotary position embeddings spelled out, fused into the standard
//! `RotaryEmbedding` op (opset 23).
//!
//! `rotate-half`: the "rotate half" form of Llama-style models,
//!
//! ```text
//! x * cos + Concat(Neg(x[..., D/2:]), x[..., :D/2]) * sin
//! ```
//!
//! with `x [B, H, S, D]` (float32, D static and even), and `cos`, `sin` of
//! shape `[Bc, 1, S, D]` made by `Unsqueeze(c, axes=[1])` from a `[Bc, S, D]`
//! value whose two halves are provably equal: `Concat(a, a)` on the last
//! axis, or `Cos`/`Sin` of such a Concat (then the half is `Cos(a)`), either
//! possibly times a one-element constant (RoPE's `attention_scaling`). That
//! equality is what makes the spelled-out form the op's `interleaved = 0`
//! rotation: `out[:h] = x1 cos - x2 sin`, `out[h:] = x2 cos + x1 sin`. The
//! op takes the half caches `[B, S, D/2]` without `position_ids`;
//! onnxruntime 1.32 requires their batch to be the input's (a cache of
//! batch 1 does not broadcast), so a batch-1 cache is expanded to the
//! input's batch, read from a function argument carrying the same symbolic
//! size (one `Shape` shared by every layer), or a constant when static.
//!
//! `partial-rotary`: models that rotate only the first `r` of a head's `D`
//! features (GPT-NeoX's `rotary_pct`, Phi, StableLM) write
//! `Concat(rotated(x[..., :r]), x[..., r:])`; once `rotate-half` made the
//! first part `RotaryEmbedding(x[..., :r], cos, sin)`, the whole is
//! `RotaryEmbedding(x, cos, sin) {rotary_embedding_dim = r}`, which rotates
//! the first `r` features and passes the rest through.
//!
//! `rotary-3d`: a `RotaryEmbedding` of `Transpose(Reshape(y, [B, S, H, D]),
//! [0, 2, 1, 3])` with `y [B, S, H*D]` is the 3-D op on `y` (`num_heads = H`)
//! reshaped and transposed the same way: the attention rules can then take
//! `y`'s rotated value directly (`attention/attention-3d`), and the
//! head-splitting Reshape/Transpose go.

use super::{both_orders, norm_axis, Apply, Rule, Rw};
use crate::{
    analysis::{Dim, TyInfo},
    lang::{dtype, AttrValue, Discriminant, Head},
};
use egg::Id;

pub static RULES: &[Rule] = &[
    Rule {
        name: "rotate-half",
        roots: &["Add"],
        min_opset: 23,
        summary: "x * cos + Concat(-x[h:], x[:h]) * sin, cos/sin halves equal -> RotaryEmbedding(x, cos[:h], sin[:h]) {interleaved = 0}; the halves of x also as the two results of a Split, the caches also concatenated after their Unsqueeze (yobx)",
        apply: Apply::Fn(rotate_half),
        example: r#"
func.func @f(%x: tensor<?x2x5x8xf32, ["s0"]>, %a: tensor<1x5x4xf32>) -> (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) {
  %cat = "onnx.Concat"(%a, %a) {axis = -1 : i64} : (tensor<1x5x4xf32>, tensor<1x5x4xf32>) -> tensor<1x5x8xf32>
  %cos = "onnx.Cos"(%cat) : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %sin = "onnx.Sin"(%cat) : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %c4 = "onnx.Unsqueeze"(%cos, %one) : (tensor<1x5x8xf32>, tensor<1xi64>) -> tensor<1x1x5x8xf32>
  %s4 = "onnx.Unsqueeze"(%sin, %one) : (tensor<1x5x8xf32>, tensor<1xi64>) -> tensor<1x1x5x8xf32>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %half = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %end = "onnx.Constant"() {value = dense<9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %x1 = "onnx.Slice"(%x, %zero, %half, %ax, %one) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %x2 = "onnx.Slice"(%x, %half, %end, %ax, %one) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %n = "onnx.Neg"(%x2) : (tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x4xf32, ["s0"]>
  %rot = "onnx.Concat"(%n, %x1) {axis = -1 : i64} : (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m1 = "onnx.Mul"(%x, %c4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m2 = "onnx.Mul"(%rot, %s4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %y = "onnx.Add"(%m1, %m2) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %ca = "onnx.Cos"(%a) : (tensor<1x5x4xf32>) -> tensor<1x5x4xf32>
  %sa = "onnx.Sin"(%a) : (tensor<1x5x4xf32>) -> tensor<1x5x4xf32>
  %cu = "onnx.Unsqueeze"(%ca, %one) : (tensor<1x5x4xf32>, tensor<1xi64>) -> tensor<1x1x5x4xf32>
  %su = "onnx.Unsqueeze"(%sa, %one) : (tensor<1x5x4xf32>, tensor<1xi64>) -> tensor<1x1x5x4xf32>
  %c4b = "onnx.Concat"(%cu, %cu) {axis = -1 : i64} : (tensor<1x1x5x4xf32>, tensor<1x1x5x4xf32>) -> tensor<1x1x5x8xf32>
  %s4b = "onnx.Concat"(%su, %su) {axis = -1 : i64} : (tensor<1x1x5x4xf32>, tensor<1x1x5x4xf32>) -> tensor<1x1x5x8xf32>
  %h:2 = "onnx.Split"(%x) {axis = -1 : i64, num_outputs = 2 : i64} : (tensor<?x2x5x8xf32, ["s0"]>) -> (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>)
  %nb = "onnx.Neg"(%h#1) : (tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x4xf32, ["s0"]>
  %rotb = "onnx.Concat"(%nb, %h#0) {axis = -1 : i64} : (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m3 = "onnx.Mul"(%x, %c4b) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m4 = "onnx.Mul"(%rotb, %s4b) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %y2 = "onnx.Add"(%m3, %m4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  return %y, %y2 : tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "partial-rotary",
        roots: &["Concat"],
        min_opset: 23,
        summary: "Concat(RotaryEmbedding(x[..., :r], cos, sin), x[..., r:]) on the last axis -> RotaryEmbedding(x, cos, sin) {rotary_embedding_dim = r} (partial rotary: GPT-NeoX rotary_pct, Phi)",
        apply: Apply::Fn(partial_rotary),
        example: r#"
func.func @f(%x: tensor<?x2x5x12xf32, ["s0"]>, %a: tensor<1x5x4xf32>) -> tensor<?x2x5x12xf32, ["s0"]> {
  %zero = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %four = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %eight = "onnx.Constant"() {value = dense<8> : tensor<1xi64>} : () -> tensor<1xi64>
  %end = "onnx.Constant"() {value = dense<9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %xr = "onnx.Slice"(%x, %zero, %eight, %ax, %one) : (tensor<?x2x5x12xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x8xf32, ["s0"]>
  %xp = "onnx.Slice"(%x, %eight, %end, %ax, %one) : (tensor<?x2x5x12xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %cat = "onnx.Concat"(%a, %a) {axis = -1 : i64} : (tensor<1x5x4xf32>, tensor<1x5x4xf32>) -> tensor<1x5x8xf32>
  %cos = "onnx.Cos"(%cat) : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %sin = "onnx.Sin"(%cat) : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %c4 = "onnx.Unsqueeze"(%cos, %one) : (tensor<1x5x8xf32>, tensor<1xi64>) -> tensor<1x1x5x8xf32>
  %s4 = "onnx.Unsqueeze"(%sin, %one) : (tensor<1x5x8xf32>, tensor<1xi64>) -> tensor<1x1x5x8xf32>
  %x1 = "onnx.Slice"(%xr, %zero, %four, %ax, %one) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %x2 = "onnx.Slice"(%xr, %four, %end, %ax, %one) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %n = "onnx.Neg"(%x2) : (tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x4xf32, ["s0"]>
  %rot = "onnx.Concat"(%n, %x1) {axis = -1 : i64} : (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m1 = "onnx.Mul"(%xr, %c4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m2 = "onnx.Mul"(%rot, %s4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %r = "onnx.Add"(%m1, %m2) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %y = "onnx.Concat"(%r, %xp) {axis = -1 : i64} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x12xf32, ["s0"]>
  return %y : tensor<?x2x5x12xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "rotary-3d",
        roots: &["RotaryEmbedding"],
        min_opset: 23,
        summary: "RotaryEmbedding(Transpose(Reshape(y, [B,S,H,D]), [0,2,1,3])) -> Transpose(Reshape(RotaryEmbedding(y) {num_heads = H}))",
        apply: Apply::Fn(rotary_3d),
        example: r#"
func.func @f(%y: tensor<?x5x16xf32, ["s0"]>, %c: tensor<?x5x4xf32, ["s0"]>, %s: tensor<?x5x4xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]> {
  %shape = "onnx.Constant"() {value = dense<[-1, 5, 2, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "onnx.Reshape"(%y, %shape) : (tensor<?x5x16xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x5x2x8xf32, ["s0"]>
  %t = "onnx.Transpose"(%r) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x5x2x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %e = "onnx.RotaryEmbedding"(%t, %c, %s) {interleaved = 0 : i64} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x5x4xf32, ["s0"]>, tensor<?x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %b = "onnx.Transpose"(%e) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x5x2x8xf32, ["s0"]>
  %shape3 = "onnx.Constant"() {value = dense<[-1, 5, 16]> : tensor<3xi64>} : () -> tensor<3xi64>
  %o = "onnx.Reshape"(%b, %shape3) : (tensor<?x5x2x8xf32, ["s0"]>, tensor<3xi64>) -> tensor<?x5x16xf32, ["s0"]>
  return %o : tensor<?x5x16xf32, ["s0"]>
}"#,
    },
];

/// The dims of a float32 value of rank `rank`.
pub(super) fn f32_dims(rw: &Rw<'_>, id: Id, rank: usize) -> Option<Vec<Dim>> {
    let t = rw.ty(id)?;
    (t.elem == Some(dtype::FLOAT) && t.rank() == Some(rank)).then(|| t.dims.clone()).flatten()
}

fn static_dim(d: &Dim) -> Option<i64> {
    if let Dim::Static(n) = d {
        Some(*n)
    } else {
        None
    }
}

/// The concat axis of a Concat head (normalised), if it has only that attribute.
fn concat_axis(head: &Head, rank: usize) -> Option<usize> {
    (head.attrs.len() == 1).then_some(())?;
    norm_axis(head.int("axis")?, rank)
}

/// True when `slice` (operands of a Slice) takes `[start, end)` of the last
/// axis of a rank-`rank` input of last dim `d`, step 1.
fn slice_last(rw: &Rw<'_>, c: &[Id], rank: usize, d: i64, start: i64, end: i64) -> bool {
    let (Some(s), Some(e)) = (c.get(1).and_then(|&i| rw.ints(i)), c.get(2).and_then(|&i| rw.ints(i))) else {
        return false;
    };
    let axes_ok = match c.get(3) {
        Some(&a) => rw.ints(a).is_some_and(|a| a.len() == 1 && norm_axis(a[0], rank) == Some(rank - 1)),
        None => rank == 1,
    };
    let steps_ok = match c.get(4) {
        Some(&st) => rw.ints(st).is_some_and(|st| st == [1]),
        None => true,
    };
    // Slice clamps the end to the dim: any end >= d is the dim.
    let end_ok = e.len() == 1 && (e[0] == end || (end == d && e[0] >= d));
    axes_ok && steps_ok && s == [start] && end_ok
}

/// The half of a cache whose two halves are provably equal: the cache is
/// `g(Concat(a, a))` on the last axis, `g(x) = f(x) * scale` with `f` in
/// Cos/Sin or none and an optional one-element float constant `scale` (the
/// `attention_scaling` of some RoPE variants); the half is `g(a)`.
struct Half {
    a: Id,
    dims: Vec<Dim>,
    f: Option<&'static str>,
    scale: Option<Id>,
}

fn equal_halves(rw: &Rw<'_>, c: Id) -> Option<Half> {
    let rank = rw.ty(c)?.rank()?;
    let halves = |id: Id| -> Option<Id> {
        rw.producers(id, "Concat").into_iter().find_map(|(h, ch)| {
            (ch.len() == 2 && rw.find(ch[0]) == rw.find(ch[1]) && concat_axis(&h, rank) == Some(rank - 1))
                .then_some(ch[0])
        })
    };
    let unscaled = |id: Id| -> Option<(Id, Option<&'static str>)> {
        if let Some(a) = halves(id) {
            return Some((a, None));
        }
        ["Cos", "Sin"].into_iter().find_map(|op| {
            rw.producers(id, op)
                .into_iter()
                .find_map(|(h, ch)| (h.attrs.is_empty() && ch.len() == 1).then(|| halves(ch[0])).flatten())
                .map(|a| (a, Some(op)))
        })
    };
    if let Some((a, f)) = unscaled(c) {
        return Some(Half { a, dims: f32_dims(rw, a, 3)?, f, scale: None });
    }
    for (h, ch) in rw.producers(c, "Mul") {
        for (inner, k) in both_orders(&ch) {
            let scalar = rw.scalar(k).is_some()
                && rw.ty(k).is_some_and(|t| {
                    t.elem == Some(dtype::FLOAT) && t.rank().is_some_and(|r| r <= rank) && t.static_shape().is_some()
                });
            if !h.attrs.is_empty() || !scalar || !rw.same_type(inner, c) {
                continue;
            }
            if let Some((a, f)) = unscaled(inner) {
                return Some(Half { a, dims: f32_dims(rw, a, 3)?, f, scale: Some(k) });
            }
        }
    }
    None
}

/// `[Bc, S, D]` value `c` when `c4 [Bc, 1, S, D]` is `Unsqueeze(c, [1])`.
fn unsqueezed_at_1(rw: &Rw<'_>, c4: Id) -> Option<Id> {
    rw.producers(c4, "Unsqueeze").into_iter().find_map(|(h, ch)| {
        let axes = rw.ints(*ch.get(1)?)?;
        (h.attrs.is_empty() && axes.len() == 1 && norm_axis(axes[0], 4) == Some(1) && rw.ty(ch[0])?.rank() == Some(3))
            .then_some(ch[0])
    })
}

/// The half cache of `c4 [Bc, 1, S, D]`: `Unsqueeze(c, [1])` of a `c` with
/// equal halves, or `Concat(Unsqueeze(h, [1]), Unsqueeze(h, [1]))` on the
/// last axis (yobx unsqueezes before concatenating): `h`.
fn cache_half(rw: &Rw<'_>, c4: Id) -> Option<Half> {
    if let Some(half) = unsqueezed_at_1(rw, c4).and_then(|c3| equal_halves(rw, c3)) {
        return Some(half);
    }
    rw.producers(c4, "Concat").into_iter().find_map(|(head, ch)| {
        let same = ch.len() == 2 && rw.find(ch[0]) == rw.find(ch[1]) && concat_axis(&head, 4) == Some(3);
        let h = same.then(|| unsqueezed_at_1(rw, ch[0])).flatten()?;
        Some(Half { a: h, dims: f32_dims(rw, h, 3)?, f: None, scale: None })
    })
}

/// A 1-element int64 value holding the size `dim`: a constant when static,
/// else `Shape(arg)[i:i+1]` of a function argument with that symbolic dim.
pub(super) fn dim_value(rw: &mut Rw<'_>, dim: &Dim) -> Option<Id> {
    match dim {
        Dim::Static(n) => Some(rw.const_i64s(&[*n])),
        Dim::Sym(s) => {
            let mut found: Option<(Id, usize)> = None;
            for leaf in rw.view.classes_for_op(&Discriminant::Leaf)? {
                let Some(dims) = rw.ty(leaf).and_then(|t| t.dims.as_ref()) else { continue };
                if let Some(i) = dims.iter().position(|d| matches!(d, Dim::Sym(x) if x == s)) {
                    if found.is_none_or(|(f, _)| leaf < f) {
                        found = Some((leaf, i));
                    }
                }
            }
            let (leaf, i) = found?;
            let head =
                Head::new("Shape", vec![("end", AttrValue::Int(i as i64 + 1)), ("start", AttrValue::Int(i as i64))]);
            Some(rw.add(head, vec![leaf], TyInfo::tensor(dtype::INT64, vec![Dim::Static(1)])))
        }
        Dim::Unknown => None,
    }
}

/// The cache `g(a) [B, S, h]` for an input of batch `batch`: `a` itself
/// when its batch is the input's, else `a` expanded from batch 1 first (`g`
/// is elementwise: `g(Expand(a)) = Expand(g(a))`, and the Cos and Sin
/// caches then share one Expand).
fn cache_for_batch(rw: &mut Rw<'_>, half: Half, batch: &Dim) -> Option<Id> {
    let Half { a, dims: ad, f, scale } = half;
    let (base, dims) = if ad[0].same(batch) {
        (a, ad)
    } else if ad[0] == Dim::Static(1) {
        let b = dim_value(rw, batch)?;
        let rest = rw.add(
            Head::new("Shape", vec![("start", AttrValue::Int(1))]),
            vec![a],
            TyInfo::tensor(dtype::INT64, vec![Dim::Static(2)]),
        );
        let shape = rw.add(
            Head::new("Concat", vec![("axis", AttrValue::Int(0))]),
            vec![b, rest],
            TyInfo::tensor(dtype::INT64, vec![Dim::Static(3)]),
        );
        let dims = vec![batch.clone(), ad[1].clone(), ad[2].clone()];
        (rw.add(Head::new("Expand", vec![]), vec![a, shape], TyInfo::tensor(dtype::FLOAT, dims.clone())), dims)
    } else {
        return None;
    };
    let mut out = base;
    if let Some(op) = f {
        out = rw.add(Head::new(op, vec![]), vec![out], TyInfo::tensor(dtype::FLOAT, dims.clone()));
    }
    if let Some(k) = scale {
        out = rw.add(Head::new("Mul", vec![]), vec![out, k], TyInfo::tensor(dtype::FLOAT, dims));
    }
    Some(out)
}

/// `x` when `rot` is `Concat(Neg(x[..., h:]), x[..., :h])` on the last axis
/// (`x` of last dim `2h`, rank 4).
fn rotated_half_of(rw: &Rw<'_>, rot: Id) -> Vec<Id> {
    let mut out = Vec::new();
    for (ch_head, ch) in rw.producers(rot, "Concat") {
        let [neg, x1] = ch[..] else { continue };
        if concat_axis(&ch_head, 4) != Some(3) {
            continue;
        }
        for (nh, nc) in rw.producers(neg, "Neg") {
            let [x2] = nc[..] else { continue };
            if !nh.attrs.is_empty() {
                continue;
            }
            out.extend(split_halves_of(rw, x1, x2));
            for (sh2, s2) in rw.producers(x2, "Slice") {
                let x = s2[0];
                let Some(d) = f32_dims(rw, x, 4).and_then(|d| static_dim(&d[3])) else { continue };
                if !sh2.attrs.is_empty() || d % 2 != 0 || d == 0 || !slice_last(rw, &s2, 4, d, d / 2, d) {
                    continue;
                }
                let first = rw.producers(x1, "Slice").into_iter().any(|(sh1, s1)| {
                    sh1.attrs.is_empty() && rw.find(s1[0]) == rw.find(x) && slice_last(rw, &s1, 4, d, 0, d / 2)
                });
                if first {
                    out.push(x);
                }
            }
        }
    }
    out
}

/// `x` when `x1` and `x2` are results 0 and 1 of one `Split(x)` into two
/// equal halves of the last axis (yobx's rotate-half; `x` rank 4, float32,
/// last dim static and even).
fn split_halves_of(rw: &Rw<'_>, x1: Id, x2: Id) -> Vec<Id> {
    let mut out = Vec::new();
    for (i2, t) in rw.projections(x2) {
        let first = rw.projections(x1).into_iter().any(|(i1, t1)| i1 == 0 && rw.find(t1) == rw.find(t));
        if i2 != 1 || !first {
            continue;
        }
        for (sh, sc) in rw.producers(t, "Split") {
            let x = sc[0];
            let Some(d) = f32_dims(rw, x, 4).and_then(|d| static_dim(&d[3])) else { continue };
            let axis_ok = norm_axis(sh.int("axis").unwrap_or(0), 4) == Some(3);
            let attrs_ok = sh.attrs.iter().all(|(k, _)| matches!(k.as_str(), "axis" | "num_outputs"));
            let two = sh.results == 2 && sh.int("num_outputs").is_none_or(|n| n == 2);
            // No sizes (equal halves), or the sizes [d/2, d/2].
            let sizes_ok = match sc.get(1) {
                None => true,
                Some(&s) if !rw.producers(s, "none").is_empty() => true,
                Some(&s) => rw.ints(s).is_some_and(|v| v[..] == [d / 2, d / 2]),
            };
            if axis_ok && attrs_ok && two && sizes_ok && d % 2 == 0 && d > 0 {
                out.push(x);
            }
        }
    }
    out
}

fn rotate_half(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    if !head.attrs.is_empty() {
        return None;
    }
    for (m1, m2) in both_orders(children) {
        for (h1, c1) in rw.producers(m1, "Mul") {
            for (x, cos4) in both_orders(&c1) {
                let Some(xd) = f32_dims(rw, x, 4) else { continue };
                if !h1.attrs.is_empty() || !rw.same_type(class, x) {
                    continue;
                }
                for (h2, c2) in rw.producers(m2, "Mul") {
                    for (rot, sin4) in both_orders(&c2) {
                        if !h2.attrs.is_empty() || !rotated_half_of(rw, rot).iter().any(|&r| rw.find(r) == rw.find(x)) {
                            continue;
                        }
                        if let Some(fused) = fuse(rw, class, x, &xd, cos4, sin4) {
                            return Some(fused);
                        }
                    }
                }
            }
        }
    }
    None
}

/// `RotaryEmbedding(x, cos half, sin half)` when `cos4` and `sin4` are the
/// `[Bc, 1, S, D]` caches of equal halves matching `x [B, H, S, D]`.
fn fuse(rw: &mut Rw<'_>, class: Id, x: Id, xd: &[Dim], cos4: Id, sin4: Id) -> Option<Id> {
    let fits = |rw: &Rw<'_>, c4: Id| {
        f32_dims(rw, c4, 4).is_some_and(|d| {
            (d[0] == Dim::Static(1) || d[0].same(&xd[0]))
                && d[1] == Dim::Static(1)
                && d[2].same(&xd[2])
                && d[3].same(&xd[3])
        })
    };
    if !fits(rw, cos4) || !fits(rw, sin4) {
        return None;
    }
    let (ch, sh) = (cache_half(rw, cos4)?, cache_half(rw, sin4)?);
    let half =
        |d: &[Dim]| d[1].same(&xd[2]) && static_dim(&d[2]).zip(static_dim(&xd[3])).is_some_and(|(h, d)| 2 * h == d);
    if !half(&ch.dims) || !half(&sh.dims) {
        return None;
    }
    let (cc, sc) = (cache_for_batch(rw, ch, &xd[0])?, cache_for_batch(rw, sh, &xd[0])?);
    let fused = Head::new("RotaryEmbedding", vec![("interleaved", AttrValue::Int(0))]);
    rw.add_like(fused, vec![x, cc, sc], class)
}

/// `(y, H)` when `x4 [B, H, S, D]` is `Transpose(Reshape(y, ..), [0, 2, 1, 3])`
/// with `y [B, S, H*D]` (float32, H and D static).
pub(super) fn split_heads_of(rw: &Rw<'_>, x4: Id) -> Option<(Id, i64)> {
    let xd = f32_dims(rw, x4, 4)?;
    for (th, tc) in rw.producers(x4, "Transpose") {
        if th.attrs.len() != 1 || th.ints("perm") != Some(&[0, 2, 1, 3]) {
            continue;
        }
        for (rh, rc) in rw.producers(tc[0], "Reshape") {
            let y = rc[0];
            let (Some(td), Some(yd)) = (f32_dims(rw, tc[0], 4), f32_dims(rw, y, 3)) else { continue };
            let (Some(h), Some(d), Some(hd)) = (static_dim(&td[2]), static_dim(&td[3]), static_dim(&yd[2])) else {
                continue;
            };
            // allowzero is moot: the dims are matched through the types.
            let allowzero_ok = rh.attrs.iter().all(|(k, _)| k.as_str() == "allowzero");
            if allowzero_ok && td[0].same(&yd[0]) && td[1].same(&yd[1]) && h * d == hd && xd[1] == td[2] {
                return Some((y, h));
            }
        }
    }
    None
}

/// `x` when `v` is `Slice(x, [start, end))` of the last axis of the 4-D
/// float32 `x` (step 1; an `end` of `D` or beyond when `end` is `D`).
fn last_axis_slice_of(rw: &Rw<'_>, v: Id, start: i64, end: i64) -> Vec<Id> {
    rw.producers(v, "Slice")
        .into_iter()
        .filter_map(|(h, c)| {
            let x = *c.first()?;
            let d = static_dim(f32_dims(rw, x, 4)?.last()?)?;
            let end = if end < 0 { d } else { end };
            (h.attrs.is_empty() && slice_last(rw, &c, 4, d, start, end)).then_some(x)
        })
        .collect()
}

fn partial_rotary(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let [r, p] = children else { return None };
    let rd = f32_dims(rw, *r, 4)?;
    let cd = f32_dims(rw, class, 4)?;
    if concat_axis(head, 4)? != 3 {
        return None;
    }
    let (Some(rot), Some(d)) = (static_dim(&rd[3]), static_dim(&cd[3])) else { return None };
    if rot <= 0 || rot >= d || rot % 2 != 0 {
        return None;
    }
    for (h, c) in rw.producers(*r, "RotaryEmbedding") {
        // The plain 4-D form `rotate-half` writes (no position ids, no
        // num_heads, the whole of its input rotated).
        let plain = h.results == 1
            && c.len() == 3
            && h.attrs.iter().all(|(k, v)| k.as_str() == "interleaved" && *v == AttrValue::Int(0));
        if !plain {
            continue;
        }
        let rotated = last_axis_slice_of(rw, c[0], 0, rot);
        let passed = last_axis_slice_of(rw, *p, rot, -1);
        let Some(&x) = rotated.iter().find(|&&x| passed.iter().any(|&y| rw.find(y) == rw.find(x))) else { continue };
        if !rw.same_type(class, x) {
            continue;
        }
        let fused = Head::new(
            "RotaryEmbedding",
            vec![("interleaved", AttrValue::Int(0)), ("rotary_embedding_dim", AttrValue::Int(rot))],
        );
        return rw.add_like(fused, vec![x, c[1], c[2]], class);
    }
    None
}

fn rotary_3d(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let [x4, c, s] = children else { return None };
    if head.results != 1 || head.int("num_heads").is_some() {
        return None;
    }
    if !head.attrs.iter().all(|(k, _)| matches!(k.as_str(), "interleaved" | "rotary_embedding_dim")) {
        return None;
    }
    let (y, h) = split_heads_of(rw, *x4)?;
    // Rebuild the Transpose(Reshape(.)) of `x4` around the 3-D op.
    for (th, tc) in rw.producers(*x4, "Transpose") {
        for (rh, rc) in rw.producers(tc[0], "Reshape") {
            if rw.find(rc[0]) != rw.find(y) || th.ints("perm") != Some(&[0, 2, 1, 3]) {
                continue;
            }
            let mut attrs: Vec<(&str, AttrValue)> = head.attrs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            attrs.push(("num_heads", AttrValue::Int(h)));
            let r3 = rw.add_like(Head::new("RotaryEmbedding", attrs), vec![y, *c, *s], y)?;
            let r4 = rw.add_like((*rh).clone(), vec![r3, rc[1]], tc[0])?;
            return rw.add_like((*th).clone(), vec![r4], class);
        }
    }
    None
}
