//! `aten.eq` (`.Tensor`, `.Scalar`): ONNX `Equal` with both sides cast to torch's promoted type
//! (`common::comparison_type`: a float number against an integer tensor compares in float32). Bools are
//! compared as int64 0 / 1.

use super::common::compare;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.eq.Tensor", |c| compare(c, "Equal", false))
        .samples(&["self: T[2,3]{0..3}; other: T[3]{0..3}", "self: T[2,3]{0..3}; other: T[2,3]{0..3}"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.eq.Scalar", |c| compare(c, "Equal", false))
        .samples(&["self: T[2,3]{0..3}; other: 1", "self: T[2,3]; other: 0.5"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
