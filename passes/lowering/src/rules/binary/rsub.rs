//! `aten.rsub` (`.Scalar`, `.Tensor`): ONNX `Sub(other, alpha * self)` with both operands cast to the result
//! type.

use super::common::rsub;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.rsub.Scalar", rsub)
        .samples(&["self: T[2,3]; other: 1", "self: T[2,3]; other: 2; alpha: 3"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.rsub.Tensor", rsub)
        .samples(&["self: T[2,3]; other: T[3]; alpha: 2", "self: T[2,3]; other: T[2,3]"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];
