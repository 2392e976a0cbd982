//! `aten.le` (`.Tensor`, `.Scalar`): ONNX `LessOrEqual` with both sides cast to torch's promoted type
//! (`common::comparison_type`). Bools, which ONNX does not order, are compared as int64 0 / 1.

use super::common::compare;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.le.Tensor", |c| compare(c, "LessOrEqual", false))
        .samples(&["self: T[2,3]{0..3}; other: T[3]{0..3}", "self: T[2,3]{0..3}; other: T[2,3]{0..3}"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.le.Scalar", |c| compare(c, "LessOrEqual", false))
        .samples(&["self: T[2,3]{0..3}; other: 1", "self: T[2,3]; other: 0.5"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
