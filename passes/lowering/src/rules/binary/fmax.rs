//! `aten.fmax`: ONNX `Max` that ignores NaN: where one side is NaN the other is taken (NaN only when both are),
//! by `IsNaN` and `Where`. On bools `Or` (ONNX `Max` takes no bools).

use super::elementwise_common::fmaxmin;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.fmax.default", |c| fmaxmin(c, "Max"))
    .samples(&["self: T[2,3]; other: T[2,3]", "self: T[2,3]; other: T[3]", "self: T[]; other: T[2]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
