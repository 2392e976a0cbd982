//! Quantized graphs in the QDQ form (`QuantizeLinear` / `DequantizeLinear`
//! around float ops, as PT2E programs lower): moving data instead of
//! dequantized floats, and removing Q/DQ round trips.
//!
//! Per-tensor dequantization (0-d scale and zero point) moves through every
//! data-movement op; a per-axis one only through Transpose, whose
//! permutation says where its axis goes (other ops would merge or split
//! it); a blocked one not at all. Every rule here is exact: a data-movement op commutes
//! with an elementwise map, and `Q(DQ(q))` with the same parameters gives
//! back `q` when the scale is a normal float32 small enough that no
//! `(q - zp) * scale` overflows.

use super::{
    pattern::{Match, PatternRule, Rhs},
    weights::{only_used_by, transform_head, weight_kind},
    Apply, Rule, Rw,
};
use crate::{
    analysis::TyInfo,
    lang::{dtype, AttrValue, Head},
};
use egg::Id;

pub static RULES: &[Rule] = &[
    Rule {
        name: "dq-through-data-movement",
        roots: &["Reshape", "Unsqueeze", "Squeeze", "Transpose", "Flatten", "Expand"],
        min_opset: 13,
        summary: "Reshape/Unsqueeze/Squeeze/Transpose/Flatten/Expand(DequantizeLinear(q, s, zp)) with 0-d s, zp -> DequantizeLinear(the same op of q, s, zp): the integers move (a quarter of the bytes for int8), and onnxruntime's QDQ propagation has nothing to insert (at opset 21+ it inserts a Q of mismatched zero-point type and fails to load the model, onnxruntime 1.32)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Reshape{..} ?d=(DequantizeLinear{..} ?q ...) ...) | (Unsqueeze{..} ?d=(DequantizeLinear{..} ?q ...) ...) | (Squeeze{..} ?d=(DequantizeLinear{..} ?q ...) ...) | (Transpose{..} ?d=(DequantizeLinear{..} ?q ...) ...) | (Flatten{..} ?d=(DequantizeLinear{..} ?q ...) ...) | (Expand{..} ?d=(DequantizeLinear{..} ?q ...) ...)",
            when: |rw, m| per_tensor(rw, m.head("d"), m.operands("d")),
            rhs: Rhs::Build(dq_through_data_movement),
        }),
        example: r#"
func.func @f(%q: tensor<?x4x6xi8, ["s0"]>) -> tensor<?x6x4xf32, ["s0"]> {
  %s = "onnx.Constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %x = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<?x4x6xi8, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x4x6xf32, ["s0"]>
  %t = "onnx.Transpose"(%x) {perm = array<i64: 0, 2, 1>} : (tensor<?x4x6xf32, ["s0"]>) -> tensor<?x6x4xf32, ["s0"]>
  return %t : tensor<?x6x4xf32, ["s0"]>
}"#,
    },
    Rule {
        name: "dq-per-axis-through-transpose",
        roots: &["Transpose"],
        min_opset: 13,
        summary: "Transpose(DequantizeLinear(q, s, zp) along axis a) -> DequantizeLinear(Transpose(q), s, zp) along the axis a moves to: a quantized Linear's weight (per output channel, transposed for MatMul) becomes an int8 initializer transposed at write time, and onnxruntime's QDQ fusions see DequantizeLinear -> MatMul",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Transpose{..} ?x=(DequantizeLinear{..} ?q ?s ...))",
            when: |rw, m| per_axis(rw, m.head("x"), m.operands("x")),
            rhs: Rhs::Build(dq_per_axis_through_transpose),
        }),
        example: r#"
func.func @f(%q: tensor<3x4xi8>) -> tensor<4x3xf32> {
  %s = "onnx.Constant"() {value = dense<[0.25, 0.5, 0.125]> : tensor<3xf32>} : () -> tensor<3xf32>
  %z = "onnx.Constant"() {value = dense<[-3, 0, 7]> : tensor<3xi8>} : () -> tensor<3xi8>
  %x = "onnx.DequantizeLinear"(%q, %s, %z) {axis = 0 : i64} : (tensor<3x4xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<3x4xf32>
  %t = "onnx.Transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %t : tensor<4x3xf32>
}"#,
    },
    Rule {
        name: "shape-of-dq",
        roots: &["Shape"],
        min_opset: 13,
        summary: "Shape(DequantizeLinear(q, ..)) -> Shape(q) (the same start/end): dequantization keeps the shape",
        apply: Apply::Pattern(PatternRule {
            lhs: "(Shape{..} (DequantizeLinear{..} ?q ...))",
            when: |_, _| true,
            rhs: Rhs::Build(|rw, m| rw.add_like(m.root_head().clone(), vec![m["q"]], m.root())),
        }),
        example: r#"
func.func @f(%q: tensor<?x4xui8, ["s0"]>, %s: tensor<4xf32>) -> (tensor<?x4xf32, ["s0"]>, tensor<1xi64>) {
  %x = "onnx.DequantizeLinear"(%q, %s) {axis = 1 : i64} : (tensor<?x4xui8, ["s0"]>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  %n = "onnx.Shape"(%x) {end = 1 : i64} : (tensor<?x4xf32, ["s0"]>) -> tensor<1xi64>
  return %x, %n : tensor<?x4xf32, ["s0"]>, tensor<1xi64>
}"#,
    },
    Rule {
        name: "q-of-dq",
        roots: &["QuantizeLinear"],
        min_opset: 13,
        summary: "QuantizeLinear(DequantizeLinear(q, s, zp), s, zp) -> q for the same 0-d s and zp, s a float32 constant in [2^-126, 2^110] (then round((q - zp) * s / s) is q - zp for every 8- and 16-bit q)",
        apply: Apply::Pattern(PatternRule {
            lhs: "(QuantizeLinear{..} ?d=(DequantizeLinear{..} ?q ?s ?zp) ?s ?zp) | (QuantizeLinear{..} ?d=(DequantizeLinear{..} ?q ?s) ?s)",
            when: q_of_dq,
            rhs: Rhs::Template("?q"),
        }),
        example: r#"
func.func @f(%q: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %s = "onnx.Constant"() {value = dense<0.0123> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<5> : tensor<i8>} : () -> tensor<i8>
  %x = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  %y = "onnx.QuantizeLinear"(%x, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}"#,
    },
];

/// The integer types the rules move or round-trip (8 and 16 bits).
fn small_int(elem: Option<i32>) -> bool {
    matches!(elem, Some(dtype::INT8 | dtype::UINT8 | dtype::INT16 | dtype::UINT16))
}

/// True for a per-tensor `DequantizeLinear` node (`head`, `operands`):
/// 0-d scale and zero point (or none), no attribute but `axis` (moot then),
/// 8- or 16-bit integers.
fn per_tensor(rw: &Rw<'_>, head: &Head, operands: &[Id]) -> bool {
    let plain = head.attrs.iter().all(|(k, _)| k.as_str() == "axis");
    let scalars = operands[1..].iter().all(|&p| rw.ty(p).and_then(TyInfo::rank) == Some(0));
    plain && (2..=3).contains(&operands.len()) && scalars && small_int(rw.elem(operands[0]))
}

fn dq_through_data_movement(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (head, class, rest) = (m.root_head(), m.root(), &m.root_operands()[1..]);
    let (q, params) = (m["q"], &m.operands("d")[1..]);
    let dims = rw.ty(class)?.dims.clone()?;
    let moved_ty = TyInfo::tensor(rw.elem(q)?, dims);
    let mut operands = vec![q];
    operands.extend_from_slice(rest);
    let moved = rw.add(head.clone(), operands, moved_ty);
    let mut dq_operands = vec![moved];
    dq_operands.extend_from_slice(params);
    rw.add_like(Head::new("DequantizeLinear", vec![]), dq_operands, class)
}

/// True for a per-axis `DequantizeLinear` node (`head`, `operands`): 1-D
/// scale and zero point, no attribute but `axis` (and a 0 `block_size`),
/// 8- or 16-bit integers.
fn per_axis(rw: &Rw<'_>, head: &Head, operands: &[Id]) -> bool {
    let known = head
        .attrs
        .iter()
        .all(|(k, _)| k.as_str() == "axis" || (k.as_str() == "block_size" && head.int("block_size") == Some(0)));
    let vectors = operands[1..].iter().all(|&p| rw.ty(p).and_then(TyInfo::rank) == Some(1));
    known && vectors && (2..=3).contains(&operands.len()) && small_int(rw.elem(operands[0]))
}

fn dq_per_axis_through_transpose(rw: &mut Rw<'_>, m: &Match) -> Option<Id> {
    let (x, class, head) = (m["x"], m.root(), m.root_head());
    let dims = rw.ty(class)?.dims.clone()?;
    let rank = dims.len() as i64;
    let perm: Vec<i64> = match head.ints("perm") {
        Some(p) => p.to_vec(),
        None => (0..rank).rev().collect(),
    };
    let (dq, operands) = (m.head("x"), m.operands("x"));
    let axis = dq.int("axis").unwrap_or(1);
    let axis = if axis < 0 { axis + rank } else { axis };
    if perm.len() as i64 != rank || !(0..rank).contains(&axis) {
        return None;
    }
    let new_axis = perm.iter().position(|&p| p == axis)? as i64;
    let q = operands[0];
    let moved_ty = TyInfo::tensor(rw.elem(q)?, dims);
    // A stored weight used only here is transposed by the writer: an int8
    // initializer in the layout MatMul reads (the weights family's
    // transpose-initializer would see the weight used twice in the e-graph,
    // by this DequantizeLinear and by the moved Transpose).
    let stored = matches!(weight_kind(rw, q).as_deref(), Some("" | "transpose" | "cast"))
        && only_used_by(rw, q, x)
        && only_used_by(rw, x, class);
    let moved = if stored && moved_ty.static_shape().is_some() {
        rw.add(transform_head("transpose", vec![("perm", AttrValue::Ints(perm))]), vec![q], moved_ty)
    } else {
        rw.add(head.clone(), vec![q], moved_ty)
    };
    let mut dq_operands = vec![moved];
    dq_operands.extend_from_slice(&operands[1..]);
    rw.add_like(Head::new("DequantizeLinear", vec![("axis", AttrValue::Int(new_axis))]), dq_operands, class)
}

/// `QuantizeLinear(DequantizeLinear(q, s, zp), s, zp)` is `q` (the same
/// e-classes of parameters: the pattern's repeated `?s`, `?zp`).
fn q_of_dq(rw: &Rw<'_>, m: &Match) -> bool {
    // Only the default saturation (float8 targets are not small ints anyway)
    // and an `output_dtype` that the result type already says.
    let known = m.root_head().attrs.iter().all(|(k, _)| matches!(k.as_str(), "axis" | "saturate" | "output_dtype"));
    let Some(scale) = rw.scalar(m["s"]).filter(|_| rw.elem(m["s"]) == Some(dtype::FLOAT)) else { return false };
    // |q - zp| < 2^17: the product stays normal and finite, and dividing it
    // back is within half a unit of q - zp.
    let in_range = (2f64.powi(-126)..=2f64.powi(110)).contains(&scale);
    known && per_tensor(rw, m.head("d"), m.operands("d")) && rw.same_type(m.root(), m["q"]) && in_range
}
