//! `aten.clamp_max` (a number or a tensor bound): ONNX `Min(x, max)` in the result type, NaN in either
//! propagating as in torch. Bools (no ONNX `Min`) are compared as int64 0 / 1 and cast back.

use super::elementwise_common::bound;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.clamp_max.default", |c| bound(c, "max", "Min"))
        .samples(&["self: T[2,3]; max: 0.25", "self: T[2,3]; max: 2", "self: T[]; max: 0"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.clamp_max.Tensor", |c| bound(c, "max", "Min"))
        .samples(&["self: T[2,3]; max: T[3]", "self: T[2,3]; max: T[]", "self: T[]; max: T[2]"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
