//! `aten.isneginf`: ONNX `IsInf(detect_positive=0)` on floats; false for integers and bools.

use super::isinf_common::inf;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.isneginf.default", |c| inf(c, false, true))
    .samples(&["self: T[2,3]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
