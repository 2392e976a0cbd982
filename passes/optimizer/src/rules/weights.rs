//! Weight transforms done by the writer instead of at run time: a
//! Transpose or Cast whose input is an initializer (or a weight transform)
//! becomes an `onnx.weight_transform` (see `onnx_ir::WEIGHT_TRANSFORM_OP`):
//! an initializer the writer computes while streaming it out of the
//! memory-mapped archive (src/export/transform.rs), never a copy in the IR.
//!
//! A weight is only transformed when the transform is its only use (in the
//! e-graph): a weight also used as it is (tied embeddings: a Gather of the
//! table and a Transpose of it for the output projection) would otherwise
//! be written twice.

use super::{
    pattern::{Match, PatternRule, Rhs},
    Apply, Rule, Rw,
};
use crate::{
    analysis::embeds,
    lang::{dtype, AttrValue, Head, ONode},
};
use egg::{Id, Symbol};

/// The op type (default domain) of an `onnx.weight_transform` in the e-graph.
pub const WEIGHT_TRANSFORM: &str = "weight_transform";

/// An example's module attribute naming the fixture archive its
/// `onnx.initializer`s read (`tests/fixtures/optimizer/weights.pt2`, written by
/// `tools/capture/capture_weight_fixture.py`).
pub const EXAMPLE_ARCHIVE: &str = "tests/fixtures/optimizer/weights.pt2";

pub static RULES: &[Rule] = &[
    Rule {
        name: "transpose-initializer",
        roots: &["Transpose"],
        min_opset: 1,
        summary: "Transpose(w) of an initializer w used only there -> weight_transform{transpose}(w), done by the writer",
        apply: Apply::Pattern(PatternRule { lhs: "(Transpose{..} ?w)", when: |_, _| true, rhs: Rhs::Build(transpose_initializer) }),
        example: r#"
func.func @f(%x: tensor<?x4xf32, ["s0"]>) -> tensor<?x5xf32, ["s0"]> {
  %w = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<5x4xf32>
  %t = "onnx.Transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
  %0 = "onnx.MatMul"(%x, %t) : (tensor<?x4xf32, ["s0"]>, tensor<4x5xf32>) -> tensor<?x5xf32, ["s0"]>
  return %0 : tensor<?x5xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "gather-initializer",
        roots: &["Gather"],
        min_opset: 13,
        summary: "Gather(w, k) of an initializer w at a constant one-element index k -> weight_transform{reshape}(weight_transform{slice}(w)), done by the writer (an embedding row of a constant id)",
        apply: Apply::Pattern(PatternRule { lhs: "(Gather{..} ?w ?k)", when: |_, _| true, rhs: Rhs::Build(gather_initializer) }),
        example: r#"
func.func @f(%x: tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]> {
  %w = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<5x4xf32>
  %k = "onnx.Constant"() {value = dense<-2> : tensor<i64>} : () -> tensor<i64>
  %g = "onnx.Gather"(%w, %k) {axis = 0 : i64} : (tensor<5x4xf32>, tensor<i64>) -> tensor<4xf32>
  %0 = "onnx.Add"(%x, %g) : (tensor<?x4xf32, ["s0"]>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  return %0 : tensor<?x4xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "cast-initializer",
        roots: &["Cast"],
        min_opset: 1,
        summary: "Cast(w) of an initializer w used only there -> weight_transform{cast}(w) (float to float, or exact), done by the writer",
        apply: Apply::Pattern(PatternRule { lhs: "(Cast{..} ?w)", when: |_, _| true, rhs: Rhs::Build(cast_initializer) }),
        example: r#"
func.func @f(%x: tensor<?x4xf32, ["s0"]>) -> tensor<?x3xf32, ["s0"]> {
  %w = "onnx.initializer"() {name = "h16.weight"} : () -> tensor<3x4xf16>
  %c = "onnx.Cast"(%w) {to = 1 : i64} : (tensor<3x4xf16>) -> tensor<3x4xf32>
  %t = "onnx.Transpose"(%c) {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %0 = "onnx.MatMul"(%x, %t) : (tensor<?x4xf32, ["s0"]>, tensor<4x3xf32>) -> tensor<?x3xf32, ["s0"]>
  return %0 : tensor<?x3xf32, ["s0"]>
}"#,
    },
];

/// True for the casts a weight transform does (the writer applies the same
/// test): floats to floats, rounded to nearest even as onnxruntime's Cast
/// does, and conversions that keep every value.
pub fn cast_supported(from: i32, to: i32) -> bool {
    (dtype::is_float(from) && dtype::is_float(to)) || embeds(from, to)
}

/// True when the e-class `id` holds an initializer or a weight transform.
pub fn is_weight(rw: &Rw<'_>, id: Id) -> bool {
    weight_kind(rw, id).is_some()
}

/// `Some("")` for an initializer, `Some(kind)` for a weight transform.
pub fn weight_kind(rw: &Rw<'_>, id: Id) -> Option<String> {
    rw.view[rw.find(id)].nodes.iter().find_map(|n| match n {
        ONode::Op(h, c) if h.domain.as_str().is_empty() && h.op.as_str() == "initializer" && c.is_empty() => {
            Some(String::new())
        }
        ONode::Op(h, _) if h.domain.as_str().is_empty() && h.op.as_str() == WEIGHT_TRANSFORM => match h.attr("kind") {
            Some(AttrValue::Str(k)) => Some(k.clone()),
            _ => None,
        },
        _ => None,
    })
}

/// True when every e-node using `id` is in e-class `user`.
pub fn only_used_by(rw: &Rw<'_>, id: Id, user: Id) -> bool {
    let user = rw.find(user);
    rw.view[rw.find(id)].parents().all(|p| rw.find(p) == user)
}

/// A weight transform of `kind` with `attrs` over `operands`.
pub fn transform_head(kind: &str, mut attrs: Vec<(&str, AttrValue)>) -> Head {
    attrs.push(("kind", AttrValue::Str(kind.to_string())));
    Head::new(WEIGHT_TRANSFORM, attrs)
}

fn transpose_initializer(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (w, class, head) = (m["w"], m.root(), m.root_head());
    // A transpose of a stored tensor (or of a transpose or cast of one) is a
    // strided view for the writer; other sources would need a gather.
    let kind = weight_kind(rw, w)?;
    if !matches!(kind.as_str(), "" | "transpose" | "cast") || !only_used_by(rw, w, class) {
        return None;
    }
    let rank = rw.ty(w)?.static_shape()?.len();
    let perm: Vec<i64> = match head.attr("perm") {
        None if head.attrs.is_empty() => (0..rank as i64).rev().collect(),
        Some(AttrValue::Ints(p)) if head.attrs.len() == 1 => p.clone(),
        _ => return None,
    };
    let mut sorted = perm.clone();
    sorted.sort();
    if sorted != (0..rank as i64).collect::<Vec<_>>() {
        return None;
    }
    let ty = rw.ty(class)?.clone();
    ty.static_shape()?;
    Some(rw.add(transform_head("transpose", vec![("perm", AttrValue::Ints(perm))]), vec![w], ty))
}

fn cast_initializer(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (w, class, head) = (m["w"], m.root(), m.root_head());
    if !is_weight(rw, w) || !only_used_by(rw, w, class) {
        return None;
    }
    // `to` only (`saturate` matters for float8 targets, which are not cast here).
    let to = head.int("to")?;
    if head.attrs.iter().any(|(k, _)| *k != Symbol::from("to") && *k != Symbol::from("saturate")) {
        return None;
    }
    let from = rw.elem(w)?;
    let ty = rw.ty(class)?.clone();
    if ty.elem != Some(to as i32) || !cast_supported(from, to as i32) || ty.static_shape().is_none() {
        return None;
    }
    Some(rw.add(transform_head("cast", vec![]), vec![w], ty))
}

/// `Gather(w, k)` with `k` a constant of one element `i` (any rank) along
/// axis `a` of a stored initializer: the `[.., 1, ..]` slice of `w` at `i`
/// (a strided view for the writer), reshaped to the result's shape. `w`
/// may have other uses (the e-graph keeps the Gather it replaces): written
/// besides `w`, the slice costs one row of it.
fn gather_initializer(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (w, k, class, head) = (m["w"], m["k"], m.root(), m.root_head());
    if weight_kind(rw, w)?.as_str() != "" {
        return None;
    }
    if head.attrs.iter().any(|(name, _)| name.as_str() != "axis") {
        return None;
    }
    let dims = rw.ty(w)?.static_shape()?;
    let a = super::norm_axis(head.int("axis").unwrap_or(0), dims.len())?;
    let [i] = rw.ints(k)?[..] else { return None };
    let i = if i < 0 { i + dims[a] } else { i };
    if !(0..dims[a]).contains(&i) {
        return None;
    }
    let ty = rw.ty(class)?.clone();
    let out = ty.static_shape()?;
    let mut row = dims.clone();
    row[a] = 1;
    if row.iter().product::<i64>() != out.iter().product::<i64>() {
        return None;
    }
    let row_ty =
        crate::analysis::TyInfo::tensor(ty.elem?, row.iter().map(|&d| crate::analysis::Dim::Static(d)).collect());
    let slice = transform_head("slice", vec![("axis", AttrValue::Int(a as i64)), ("start", AttrValue::Int(i))]);
    let sliced = rw.add(slice, vec![w], row_ty);
    if row == out {
        return Some(sliced);
    }
    Some(rw.add(transform_head("reshape", vec![]), vec![sliced], ty))
}
