//! onnxruntime's `com.microsoft.GroupQueryAttention` (target `onnxruntime`
//! only): causal self-attention with its rotary embeddings and, when the
//! three projections are MatMuls of one input by weights, the projections
//! packed into one MatMul.
//!
//! ```text
//! Attention(RotaryEmbedding(q, cos, sin) {num_heads = H},
//!           RotaryEmbedding(k, cos, sin) {num_heads = Hkv}, v)
//!   {q_num_heads = H, kv_num_heads = Hkv, is_causal = 1[, scale]}
//!   -> GroupQueryAttention(q, k, v, -, -, seqlens_k, total_sequence_length,
//!                          cos_cache, sin_cache) {do_rotary = 1, ...}
//! q, k, v = MatMul(x, Wq), MatMul(x, Wk), MatMul(x, Wv)   (weights)
//!   -> GroupQueryAttention(MatMul(x, concat(Wq, Wk, Wv)), -, -, ...)
//! ```
//!
//! Conditions (what onnxruntime 1.32's CPU kernel supports, and what makes
//! the op the same function): 3-D float32 `q [B, S, H*D]`, `k`, `v
//! [B, S, Hkv*D]` with the same `S` (self-attention: causal alignment is
//! then unambiguous), H a multiple of Hkv, D a multiple of 16; no mask, no
//! past, no softcap, one output; the rotary embeddings non-interleaved over
//! the whole head, both with the same `cos`/`sin` `[Bc, S, D/2]` whose rows
//! do not depend on the batch: `g(c)` with `c` of batch 1, possibly
//! expanded to the batch, and `g` made of Cos, Sin and products with a
//! one-element constant (what `rotary/rotate-half` builds). Without past
//! the op is a first prompt: it rotates query row `s` with cache row `s`
//! (positions generated from `seqlens_k = S - 1`), so the caches are those
//! rows, `g(c[0])` `[S, D/2]`, whatever positions they encode (an offset
//! `position_ids` input stays right). `seqlens_k` (int32 `[B]`, all
//! `S - 1`) and `total_sequence_length` (int32 scalar `S`) come from a
//! function argument holding the symbolic sizes (shared by every layer).
//! Without the rotary embeddings the op does not pay and the rule does not
//! fire.
//!
//! Checked in onnxruntime 1.32 (CPU, graph optimizations off and on) against
//! a numpy reference, packed and unpacked, (B, S) in (2, 8), (3, 5), (1, 1),
//! (2, 64): max error 3.6e-7.

use super::{
    both_orders,
    ort_normalization::ms_head,
    weights::{is_weight, only_used_by, transform_head},
    Apply, Rule, Rw,
};
use crate::{
    analysis::{Dim, TyInfo},
    lang::{dtype, AttrValue, Discriminant, Head, Tensor, Values},
};
use egg::Id;

pub static RULES: &[Rule] = &[Rule {
    name: "group-query-attention",
    roots: &["Attention"],
    min_opset: 23,
    summary: "causal 3-D Attention of RotaryEmbedding'd q, k (same batch-independent caches), v -> com.microsoft.GroupQueryAttention {do_rotary = 1}, the q/k/v MatMuls packed into one when they share the input",
    apply: Apply::Fn(group_query_attention),
    example: r#"
func.func @f(%x: tensor<?x?x32xf32, ["s0", "s1"]>, %f: tensor<1x?x8xf32, ["s1"]>) -> tensor<?x?x64xf32, ["s0", "s1"]> {
  %wq = "onnx.initializer"() {name = "gqa_wq"} : () -> tensor<32x64xf32>
  %wk = "onnx.initializer"() {name = "gqa_wk"} : () -> tensor<32x32xf32>
  %wv = "onnx.initializer"() {name = "gqa_wv"} : () -> tensor<32x32xf32>
  %q = "onnx.MatMul"(%x, %wq) : (tensor<?x?x32xf32, ["s0", "s1"]>, tensor<32x64xf32>) -> tensor<?x?x64xf32, ["s0", "s1"]>
  %k = "onnx.MatMul"(%x, %wk) : (tensor<?x?x32xf32, ["s0", "s1"]>, tensor<32x32xf32>) -> tensor<?x?x32xf32, ["s0", "s1"]>
  %v = "onnx.MatMul"(%x, %wv) : (tensor<?x?x32xf32, ["s0", "s1"]>, tensor<32x32xf32>) -> tensor<?x?x32xf32, ["s0", "s1"]>
  %b = "onnx.Shape"(%x) {end = 1 : i64, start = 0 : i64} : (tensor<?x?x32xf32, ["s0", "s1"]>) -> tensor<1xi64>
  %rest = "onnx.Shape"(%f) {start = 1 : i64} : (tensor<1x?x8xf32, ["s1"]>) -> tensor<2xi64>
  %shape = "onnx.Concat"(%b, %rest) {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %e = "onnx.Expand"(%f, %shape) : (tensor<1x?x8xf32, ["s1"]>, tensor<3xi64>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  %cos = "onnx.Cos"(%e) : (tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  %sin = "onnx.Sin"(%e) : (tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  %rq = "onnx.RotaryEmbedding"(%q, %cos, %sin) {interleaved = 0 : i64, num_heads = 4 : i64} : (tensor<?x?x64xf32, ["s0", "s1"]>, tensor<?x?x8xf32, ["s0", "s1"]>, tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x64xf32, ["s0", "s1"]>
  %rk = "onnx.RotaryEmbedding"(%k, %cos, %sin) {interleaved = 0 : i64, num_heads = 2 : i64} : (tensor<?x?x32xf32, ["s0", "s1"]>, tensor<?x?x8xf32, ["s0", "s1"]>, tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x32xf32, ["s0", "s1"]>
  %y = "onnx.Attention"(%rq, %rk, %v) {is_causal = 1 : i64, kv_num_heads = 2 : i64, q_num_heads = 4 : i64, scale = 2.500000e-01 : f32} : (tensor<?x?x64xf32, ["s0", "s1"]>, tensor<?x?x32xf32, ["s0", "s1"]>, tensor<?x?x32xf32, ["s0", "s1"]>) -> tensor<?x?x64xf32, ["s0", "s1"]>
  return %y : tensor<?x?x64xf32, ["s0", "s1"]>
}"#,
}];

fn static_dim(d: &Dim) -> Option<i64> {
    if let Dim::Static(n) = d {
        Some(*n)
    } else {
        None
    }
}

/// The dims of a float32 value of rank `rank`.
fn f32_dims(rw: &Rw<'_>, id: Id, rank: usize) -> Option<Vec<Dim>> {
    let t = rw.ty(id)?;
    (t.elem == Some(dtype::FLOAT) && t.rank() == Some(rank)).then(|| t.dims.clone()).flatten()
}

/// The attributes of a plain causal 3-D Attention: `(H, Hkv, scale)`.
fn causal_3d(head: &Head, children: &[Id]) -> Option<(i64, i64, Option<f32>)> {
    if head.results != 1 || children.len() != 3 || head.int("is_causal") != Some(1) {
        return None;
    }
    let plain = head.attrs.iter().all(|(k, v)| match k.as_str() {
        "is_causal" | "q_num_heads" | "kv_num_heads" | "scale" => true,
        "softcap" => *v == AttrValue::float(0.0),
        "qk_matmul_output_mode" => *v == AttrValue::Int(0),
        _ => false,
    });
    let (h, hkv) = (head.int("q_num_heads")?, head.int("kv_num_heads")?);
    (plain && h > 0 && hkv > 0 && h % hkv == 0).then_some((h, hkv, head.float("scale")))
}

/// `(x, cos, sin)` when `r` is `RotaryEmbedding(x, cos, sin) {num_heads = h}`
/// rotating whole heads of `d`, non-interleaved, without position ids.
fn rotary_of(rw: &Rw<'_>, r: Id, h: i64, d: i64) -> Vec<(Id, Id, Id)> {
    let mut out = Vec::new();
    for (rh, c) in rw.producers(r, "RotaryEmbedding") {
        let [x, cos, sin] = c[..] else { continue };
        let plain = rh.results == 1
            && rh.int("num_heads") == Some(h)
            && rh.attrs.iter().all(|(k, v)| match k.as_str() {
                "num_heads" => true,
                "interleaved" => *v == AttrValue::Int(0),
                "rotary_embedding_dim" => *v == AttrValue::Int(0) || *v == AttrValue::Int(d),
                _ => false,
            });
        if plain && rw.same_type(x, r) {
            out.push((x, cos, sin));
        }
    }
    out
}

/// How the batch-independent rows `[S, h]` of a cache `[Bc, S, h]` are
/// rebuilt (checked before anything is added to the e-graph).
enum Rows {
    /// The cache has batch 1: Squeeze it.
    Squeeze(Id),
    /// An elementwise function of a cache with such rows.
    Unary(&'static str, Box<Rows>),
    /// A product with a one-element constant.
    Scaled(Box<Rows>, Id),
}

/// The rows of `c` when they are provably the same for every batch index.
fn batch_rows(rw: &Rw<'_>, c: Id, depth: usize) -> Option<Rows> {
    let d = f32_dims(rw, c, 3)?;
    if d[0] == Dim::Static(1) {
        return Some(Rows::Squeeze(c));
    }
    if depth == 0 {
        return None;
    }
    for (h, ch) in rw.producers(c, "Expand") {
        let Some(xd) = f32_dims(rw, ch[0], 3) else { continue };
        if h.attrs.is_empty() && xd[0] == Dim::Static(1) && xd[1].same(&d[1]) && xd[2].same(&d[2]) {
            return Some(Rows::Squeeze(ch[0]));
        }
    }
    for op in ["Cos", "Sin"] {
        for (h, ch) in rw.producers(c, op) {
            if h.attrs.is_empty() && ch.len() == 1 && rw.same_type(ch[0], c) {
                if let Some(inner) = batch_rows(rw, ch[0], depth - 1) {
                    return Some(Rows::Unary(op, Box::new(inner)));
                }
            }
        }
    }
    for (h, ch) in rw.producers(c, "Mul") {
        for (x, k) in both_orders(&ch) {
            let scalar = rw.scalar(k).is_some()
                && rw.ty(k).is_some_and(|t| {
                    t.elem == Some(dtype::FLOAT) && t.rank().is_some_and(|r| r <= 2) && t.static_shape().is_some()
                });
            if h.attrs.is_empty() && scalar && rw.same_type(x, c) {
                if let Some(inner) = batch_rows(rw, x, depth - 1) {
                    return Some(Rows::Scaled(Box::new(inner), k));
                }
            }
        }
    }
    None
}

/// Builds the `[S, h]` rows described by `rows`.
fn build_rows(rw: &mut Rw<'_>, rows: &Rows, dims: &[Dim]) -> Id {
    let ty = TyInfo::tensor(dtype::FLOAT, dims.to_vec());
    match rows {
        Rows::Squeeze(c) => {
            let axes = rw.const_i64s(&[0]);
            rw.add(Head::new("Squeeze", vec![]), vec![*c, axes], ty)
        }
        Rows::Unary(op, inner) => {
            let x = build_rows(rw, inner, dims);
            rw.add(Head::new(op, vec![]), vec![x], ty)
        }
        Rows::Scaled(inner, k) => {
            let x = build_rows(rw, inner, dims);
            rw.add(Head::new("Mul", vec![]), vec![x, *k], ty)
        }
    }
}

/// A function argument with the symbolic size `s` and the axis holding it.
fn argument_with(rw: &Rw<'_>, s: &egg::Symbol) -> Option<(Id, usize)> {
    let mut found: Option<(Id, usize)> = None;
    for leaf in rw.view.classes_for_op(&Discriminant::Leaf)? {
        let Some(dims) = rw.ty(leaf).and_then(|t| t.dims.as_ref()) else { continue };
        if let Some(i) = dims.iter().position(|d| matches!(d, Dim::Sym(x) if x == s)) {
            if found.is_none_or(|(f, _)| leaf < f) {
                found = Some((leaf, i));
            }
        }
    }
    found
}

fn int32_const(rw: &mut Rw<'_>, shape: Vec<i64>, values: Vec<i64>) -> Id {
    rw.constant(Tensor::scalar_like(dtype::INT32, shape, Values::Ints(values)))
}

/// `(seqlens_k, total_sequence_length)` for a first prompt of `s` tokens and
/// batch `b`: int32 `[B]` all `S - 1`, int32 scalar `S`. `None` when a
/// symbolic size is held by no function argument.
fn sequence_inputs(rw: &mut Rw<'_>, b: &Dim, s: &Dim) -> Option<(Id, Id)> {
    let i32_ty = |dims: Vec<Dim>| TyInfo::tensor(dtype::INT32, dims);
    let i64_1 = TyInfo::tensor(dtype::INT64, vec![Dim::Static(1)]);
    let b_arg = match b {
        Dim::Static(_) => None,
        Dim::Sym(sym) => Some(argument_with(rw, sym)?),
        Dim::Unknown => return None,
    };
    let s_arg = match s {
        Dim::Static(_) => None,
        Dim::Sym(sym) => Some(argument_with(rw, sym)?),
        Dim::Unknown => return None,
    };
    let (s1, total) = match (s, s_arg) {
        (Dim::Static(n), _) => (int32_const(rw, vec![1], vec![*n]), int32_const(rw, vec![], vec![*n])),
        (_, Some((arg, i))) => {
            let shape =
                Head::new("Shape", vec![("end", AttrValue::Int(i as i64 + 1)), ("start", AttrValue::Int(i as i64))]);
            let s64 = rw.add(shape, vec![arg], i64_1.clone());
            let s32 = rw.add(
                Head::new("Cast", vec![("to", AttrValue::Int(dtype::INT32 as i64))]),
                vec![s64],
                i32_ty(vec![Dim::Static(1)]),
            );
            let axes = rw.const_i64s(&[0]);
            let total = rw.add(Head::new("Squeeze", vec![]), vec![s32, axes], i32_ty(vec![]));
            (s32, total)
        }
        _ => return None,
    };
    let minus_one = match s {
        Dim::Static(n) => int32_const(rw, vec![1], vec![n - 1]),
        _ => {
            let one = int32_const(rw, vec![1], vec![1]);
            rw.add(Head::new("Sub", vec![]), vec![s1, one], i32_ty(vec![Dim::Static(1)]))
        }
    };
    if let (Dim::Static(nb), Dim::Static(ns)) = (b, s) {
        let seqlens = int32_const(rw, vec![*nb], vec![ns - 1; *nb as usize]);
        return Some((seqlens, total));
    }
    let b64 = match (b, b_arg) {
        (Dim::Static(n), _) => rw.const_i64s(&[*n]),
        (_, Some((arg, i))) => {
            let shape =
                Head::new("Shape", vec![("end", AttrValue::Int(i as i64 + 1)), ("start", AttrValue::Int(i as i64))]);
            rw.add(shape, vec![arg], i64_1)
        }
        _ => return None,
    };
    let seqlens = rw.add(Head::new("Expand", vec![]), vec![minus_one, b64], i32_ty(vec![b.clone()]));
    Some((seqlens, total))
}

/// `(x, [Wq, Wk, Wv])` when `q`, `k`, `v` are MatMuls of one `x` by 2-D
/// weights of the same K, each used by its MatMul only.
fn shared_projection(rw: &Rw<'_>, parts: [Id; 3]) -> Option<(Id, Vec<Id>)> {
    let mut x: Option<Id> = None;
    let mut weights = Vec::new();
    let mut k_dim: Option<i64> = None;
    for part in parts {
        let (_, c) = rw.producers(part, "MatMul").into_iter().find(|(h, c)| {
            h.attrs.is_empty()
                && c.len() == 2
                && is_weight(rw, c[1])
                && only_used_by(rw, c[1], part)
                && rw.ty(c[1]).and_then(|t| t.static_shape()).is_some_and(|s| s.len() == 2)
                && rw.elem(c[1]) == Some(dtype::FLOAT)
        })?;
        let shape = rw.ty(c[1])?.static_shape()?;
        if x.is_some_and(|x| rw.find(x) != rw.find(c[0])) || k_dim.is_some_and(|k| k != shape[0]) {
            return None;
        }
        x = Some(c[0]);
        k_dim = Some(shape[0]);
        weights.push(c[1]);
    }
    Some((x?, weights))
}

fn group_query_attention(rw: &mut Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<Id> {
    let (h, hkv, scale) = causal_3d(head, children)?;
    let [rq, rk, v] = children[..] else { return None };
    let (qd, kd, vd) = (f32_dims(rw, rq, 3)?, f32_dims(rw, rk, 3)?, f32_dims(rw, v, 3)?);
    let hd = static_dim(&qd[2])?;
    let d = hd / h;
    let same_bs = |o: &[Dim]| o[0].same(&qd[0]) && o[1].same(&qd[1]);
    if hd % h != 0
        || d % 16 != 0
        || !same_bs(&kd)
        || !same_bs(&vd)
        || static_dim(&kd[2]) != Some(hkv * d)
        || static_dim(&vd[2]) != Some(hkv * d)
        || !rw.same_type(class, rq)
    {
        return None;
    }
    for (q, cos, sin) in rotary_of(rw, rq, h, d) {
        for (k, kcos, ksin) in rotary_of(rw, rk, hkv, d) {
            if rw.find(kcos) != rw.find(cos) || rw.find(ksin) != rw.find(sin) {
                continue;
            }
            let cache_ok =
                |c: Id| f32_dims(rw, c, 3).is_some_and(|cd| cd[1].same(&qd[1]) && static_dim(&cd[2]) == Some(d / 2));
            if !cache_ok(cos) || !cache_ok(sin) {
                continue;
            }
            let (Some(cos_rows), Some(sin_rows)) = (batch_rows(rw, cos, 4), batch_rows(rw, sin, 4)) else { continue };
            let Some((seqlens, total)) = sequence_inputs(rw, &qd[0], &qd[1]) else { return None };
            let rows_dims = vec![qd[1].clone(), Dim::Static(d / 2)];
            let cos_cache = build_rows(rw, &cos_rows, &rows_dims);
            let sin_cache = build_rows(rw, &sin_rows, &rows_dims);
            let none = rw.add(Head::new("none", vec![]), vec![], TyInfo { elem: None, dims: None, raw: None });
            let mut attrs = vec![
                ("do_rotary", AttrValue::Int(1)),
                ("kv_num_heads", AttrValue::Int(hkv)),
                ("num_heads", AttrValue::Int(h)),
            ];
            if let Some(s) = scale {
                attrs.push(("scale", AttrValue::float(s)));
            }
            let gqa = ms_head("GroupQueryAttention", attrs);
            let inputs = match shared_projection(rw, [q, k, v]) {
                Some((x, weights)) => {
                    let packed_width = (h + 2 * hkv) * d;
                    let k_dim = rw.ty(weights[0])?.static_shape()?[0];
                    let concat = transform_head("concat", vec![("axis", AttrValue::Int(1))]);
                    let w = rw.add(
                        concat,
                        weights,
                        TyInfo::tensor(dtype::FLOAT, vec![Dim::Static(k_dim), Dim::Static(packed_width)]),
                    );
                    let packed_dims = vec![qd[0].clone(), qd[1].clone(), Dim::Static(packed_width)];
                    let packed =
                        rw.add(Head::new("MatMul", vec![]), vec![x, w], TyInfo::tensor(dtype::FLOAT, packed_dims));
                    vec![packed, none, none]
                }
                None => vec![q, k, v],
            };
            let mut operands = inputs;
            operands.extend([none, none, seqlens, total, cos_cache, sin_cache]);
            return rw.add_like(gqa, operands, class);
        }
    }
    None
}
