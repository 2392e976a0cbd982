//! `aten.clamp_min` (a number or a tensor bound): ONNX `Max(x, min)` in the result type, NaN in either
//! propagating as in torch. Bools (no ONNX `Max`) are compared as int64 0 / 1 and cast back.

use super::elementwise_common::bound;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.clamp_min.default", |c| bound(c, "min", "Max"))
        .samples(&["self: T[2,3]; min: 0.25", "self: T[2,3]; min: -1", "self: T[]; min: 0"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.clamp_min.Tensor", |c| bound(c, "min", "Max"))
        .samples(&["self: T[2,3]; min: T[3]", "self: T[2,3]; min: T[]", "self: T[]; min: T[2]"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
