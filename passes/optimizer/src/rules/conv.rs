//! Convolutions: an inference BatchNormalization after a Conv whose weights
//! and statistics are all initializers is folded into the Conv's weight and
//! bias, computed by the writer (`onnx.weight_transform` kinds
//! `conv_bn_weight` and `conv_bn_bias`, src/export/transform.rs):
//!
//! ```text
//! f[m]  = scale[m] / sqrt(var[m] + epsilon)
//! W'[m] = W[m] * f[m]
//! b'[m] = (b[m] - mean[m]) * f[m] + B[m]        (b = 0 without a bias)
//! ```
//!
//! The writer computes in f64 and rounds once; the folded model differs from
//! the unfolded one by float rounding only (as every BN-folding exporter's).
//! The same fold applies to a ConvTranspose of group 1 (its output channels
//! are axis 1 of `W`: `conv_bn_weight {axis = 1}`) and to a Linear's Gemm
//! (`transB = 1`: the output features are `W`'s rows) before a BatchNorm1d.

use super::{
    pattern::{Match, PatternRule, Rhs},
    weights::{is_weight, transform_head, EXAMPLE_ARCHIVE},
    Apply, Rule, Rw,
};
use crate::lang::{dtype, AttrValue, Head};
use egg::Id;

// The example reads `EXAMPLE_ARCHIVE`.
const _: &str = EXAMPLE_ARCHIVE;

pub static RULES: &[Rule] = &[
    Rule {
    name: "conv-batchnorm",
    roots: &["BatchNormalization"],
    min_opset: 9,
    summary: "BatchNormalization(Conv(x, W, b), scale, B, mean, var) of initializers -> Conv(x, W', b') with W', b' folded by the writer",
    apply: Apply::Pattern(PatternRule {
            lhs: "(BatchNormalization{..} ?y=(Conv{..} ?x ?w ...) ?scale ?shift ?mean ?var)",
            when: |_, _| true,
            rhs: Rhs::Build(conv_batchnorm),
        }),
    example: r#"
func.func @f(%x: tensor<?x3x5x5xf32, ["s0"]>) -> tensor<?x4x5x5xf32, ["s0"]> {
  %w = "onnx.initializer"() {name = "conv.weight"} : () -> tensor<4x3x3x3xf32>
  %b = "onnx.initializer"() {name = "conv.bias"} : () -> tensor<4xf32>
  %s = "onnx.initializer"() {name = "bn.weight"} : () -> tensor<4xf32>
  %B = "onnx.initializer"() {name = "bn.bias"} : () -> tensor<4xf32>
  %m = "onnx.initializer"() {name = "bn.running_mean"} : () -> tensor<4xf32>
  %v = "onnx.initializer"() {name = "bn.running_var"} : () -> tensor<4xf32>
  %0 = "onnx.Conv"(%x, %w, %b) {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x3x5x5xf32, ["s0"]>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x5x5xf32, ["s0"]>
  %1 = "onnx.BatchNormalization"(%0, %s, %B, %m, %v) {epsilon = 9.99999974E-6 : f32} : (tensor<?x4x5x5xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x5x5xf32, ["s0"]>
  return %1 : tensor<?x4x5x5xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "convtranspose-batchnorm",
        roots: &["BatchNormalization"],
        min_opset: 9,
        summary: "BatchNormalization(ConvTranspose(x, W, b)) {group 1} of initializers -> ConvTranspose(x, W', b'), W scaled along its output-channel axis 1 by the writer",
        apply: Apply::Pattern(PatternRule {
            lhs: "(BatchNormalization{..} ?y=(ConvTranspose{..} ?x ?w ...) ?scale ?shift ?mean ?var)",
            when: |_, _| true,
            rhs: Rhs::Build(convtranspose_batchnorm),
        }),
        example: r#"
func.func @f(%x: tensor<?x3x5x5xf32, ["s0"]>) -> tensor<?x4x6x6xf32, ["s0"]> {
  %w = "onnx.initializer"() {name = "convt.weight"} : () -> tensor<3x4x2x2xf32>
  %s = "onnx.initializer"() {name = "bn.weight"} : () -> tensor<4xf32>
  %B = "onnx.initializer"() {name = "bn.bias"} : () -> tensor<4xf32>
  %m = "onnx.initializer"() {name = "bn.running_mean"} : () -> tensor<4xf32>
  %v = "onnx.initializer"() {name = "bn.running_var"} : () -> tensor<4xf32>
  %0 = "onnx.ConvTranspose"(%x, %w) {dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x3x5x5xf32, ["s0"]>, tensor<3x4x2x2xf32>) -> tensor<?x4x6x6xf32, ["s0"]>
  %1 = "onnx.BatchNormalization"(%0, %s, %B, %m, %v) {epsilon = 9.99999974E-6 : f32} : (tensor<?x4x6x6xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x6x6xf32, ["s0"]>
  return %1 : tensor<?x4x6x6xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "gemm-batchnorm",
        roots: &["BatchNormalization"],
        min_opset: 9,
        summary: "BatchNormalization(Gemm(x, W, c) {transB = 1}) of a 2-D x and initializers (a Linear then BatchNorm1d) -> Gemm(x, W', c'), W's rows (output features) scaled by the writer",
        apply: Apply::Pattern(PatternRule {
            lhs: "(BatchNormalization{..} ?y=(Gemm{..} ?x ?w ...) ?scale ?shift ?mean ?var)",
            when: |_, _| true,
            rhs: Rhs::Build(gemm_batchnorm),
        }),
        example: r#"
func.func @f(%x: tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]> {
  %w = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %c = "onnx.initializer"() {name = "conv.bias"} : () -> tensor<4xf32>
  %s = "onnx.initializer"() {name = "bn.weight"} : () -> tensor<4xf32>
  %B = "onnx.initializer"() {name = "bn.bias"} : () -> tensor<4xf32>
  %m = "onnx.initializer"() {name = "bn.running_mean"} : () -> tensor<4xf32>
  %v = "onnx.initializer"() {name = "bn.running_var"} : () -> tensor<4xf32>
  %0 = "onnx.Gemm"(%x, %w, %c) {transB = 1 : i64} : (tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  %1 = "onnx.BatchNormalization"(%0, %s, %B, %m, %v) {epsilon = 9.99999974E-6 : f32} : (tensor<?x4xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  return %1 : tensor<?x4xf32, ["s0"]>
}"#,
    },
];

/// The inference BatchNormalization of `head` over `children`: its input,
/// epsilon, element type and statistics (initializers of `[m]`), when the
/// fold applies.
fn batchnorm_stats(rw: &Rw<'_>, class: Id, head: &Head, children: &[Id]) -> Option<(Id, f32, i32, i64, [Id; 4])> {
    let [y, scale, shift, mean, var] = children[..] else { return None };
    if head.results != 1 || head.int("training_mode").unwrap_or(0) != 0 || !head.fully_known() {
        return None;
    }
    if head.attrs.iter().any(|(k, _)| !matches!(k.as_str(), "epsilon" | "momentum" | "training_mode")) {
        return None;
    }
    let elem = rw.elem(y)?;
    if !matches!(elem, dtype::FLOAT | dtype::DOUBLE) || !rw.same_type(class, y) {
        return None;
    }
    for stat in [scale, shift, mean, var] {
        if !is_weight(rw, stat) || rw.elem(stat) != Some(elem) {
            return None;
        }
    }
    let m = match rw.ty(scale)?.static_shape()?[..] {
        [m] => m,
        _ => return None,
    };
    if [shift, mean, var].iter().any(|s| rw.ty(*s).and_then(|t| t.static_shape()) != Some(vec![m])) {
        return None;
    }
    Some((y, head.float("epsilon").unwrap_or(1e-5), elem, m, [scale, shift, mean, var]))
}

/// The folded weight (`W * f` along `axis`) and bias of a product whose
/// output channels a BatchNormalization scales.
fn folded(
    rw: &mut Rw<'_>,
    w: Id,
    bias: Option<Id>,
    axis: i64,
    epsilon: f32,
    [scale, shift, mean, var]: [Id; 4],
) -> Option<(Id, Id)> {
    let eps = ("epsilon", AttrValue::float(epsilon));
    let weight_attrs = if axis == 0 { vec![eps.clone()] } else { vec![eps.clone(), ("axis", AttrValue::Int(axis))] };
    let folded_w = rw.add_like(transform_head("conv_bn_weight", weight_attrs), vec![w, scale, var], w)?;
    let mut bias_operands = vec![scale, shift, mean, var];
    bias_operands.extend(bias);
    let folded_b = rw.add_like(transform_head("conv_bn_bias", vec![eps]), bias_operands, scale)?;
    Some((folded_w, folded_b))
}

/// A bias operand: `None` when absent (`onnx.none`), `Some(Some(b))` for an
/// initializer vector of `m` elements of `elem`, `Some(None)` otherwise (no fold).
fn vector_bias(rw: &Rw<'_>, operands: &[Id], at: usize, m: i64, elem: i32) -> Option<Option<Id>> {
    match operands.get(at) {
        None => Some(None),
        Some(&b) if rw.ty(b).is_some_and(|t| t.elem.is_none()) => Some(None),
        Some(&b) => {
            (is_weight(rw, b) && rw.ty(b).and_then(|t| t.static_shape()) == Some(vec![m]) && rw.elem(b) == Some(elem))
                .then_some(Some(b))
        }
    }
}

fn convtranspose_batchnorm(rw: &mut Rw<'_>, matched: &Match) -> Option<Id> {
    let class = matched.root();
    let (_, epsilon, elem, m, stats) = batchnorm_stats(rw, class, matched.root_head(), matched.root_operands())?;
    let (ct_head, operands) = (matched.head("y"), matched.operands("y"));
    // Group 1: W is [C_in, C_out, k...], the output channels on axis 1.
    if !ct_head.fully_known() || ct_head.int("group").unwrap_or(1) != 1 || !(2..=3).contains(&operands.len()) {
        return None;
    }
    let (x, w) = (operands[0], operands[1]);
    let wshape = rw.ty(w).and_then(|t| t.static_shape())?;
    if wshape.len() < 3 || wshape[1] != m || !is_weight(rw, w) || rw.elem(w) != Some(elem) {
        return None;
    }
    let bias = vector_bias(rw, operands, 2, m, elem)?;
    let (folded_w, folded_b) = folded(rw, w, bias, 1, epsilon, stats)?;
    rw.add_like(ct_head.clone(), vec![x, folded_w, folded_b], class)
}

fn gemm_batchnorm(rw: &mut Rw<'_>, matched: &Match) -> Option<Id> {
    let class = matched.root();
    let (_, epsilon, elem, m, stats) = batchnorm_stats(rw, class, matched.root_head(), matched.root_operands())?;
    let (gemm_head, operands) = (matched.head("y"), matched.operands("y"));
    // y = x W^T + c: the output features are W's rows, BatchNormalization's
    // channels (axis 1 of the 2-D y).
    let plain = gemm_head.fully_known()
        && gemm_head.int("transA").unwrap_or(0) == 0
        && gemm_head.int("transB").unwrap_or(0) == 1
        && gemm_head.float("alpha").unwrap_or(1.0) == 1.0
        && gemm_head.float("beta").unwrap_or(1.0) == 1.0;
    if !plain || !(2..=3).contains(&operands.len()) {
        return None;
    }
    let (x, w) = (operands[0], operands[1]);
    let wshape = rw.ty(w).and_then(|t| t.static_shape())?;
    if wshape.len() != 2 || wshape[0] != m || !is_weight(rw, w) || rw.elem(w) != Some(elem) {
        return None;
    }
    let bias = vector_bias(rw, operands, 2, m, elem)?;
    let (folded_w, folded_b) = folded(rw, w, bias, 0, epsilon, stats)?;
    rw.add_like(gemm_head.clone(), vec![x, folded_w, folded_b], class)
}

fn conv_batchnorm(rw: &mut Rw<'_>, matched: &Match) -> Option<Id> {
    let class = matched.root();
    let (_, epsilon, elem, m, stats) = batchnorm_stats(rw, class, matched.root_head(), matched.root_operands())?;
    let (conv_head, operands) = (matched.head("y"), matched.operands("y"));
    // W is [C_out, C_in / group, k...]: the output channels on axis 0.
    if !(2..=3).contains(&operands.len()) {
        return None;
    }
    let (x, w) = (operands[0], operands[1]);
    let wshape = rw.ty(w).and_then(|t| t.static_shape())?;
    if wshape.len() < 3 || wshape[0] != m || !is_weight(rw, w) || rw.elem(w) != Some(elem) {
        return None;
    }
    let bias = vector_bias(rw, operands, 2, m, elem)?;
    let (folded_w, folded_b) = folded(rw, w, bias, 0, epsilon, stats)?;
    rw.add_like(conv_head.clone(), vec![x, folded_w, folded_b], class)
}
