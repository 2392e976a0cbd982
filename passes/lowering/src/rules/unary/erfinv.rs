//! `aten.erfinv`: M. Giles' approximation (2010), written out in float64 and cast to the result type (ONNX has
//! no erfinv): ±inf at ±1, NaN outside [-1, 1].

use super::special_common::erfinv_rule;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.erfinv.default", erfinv_rule)
    .samples(&["self: T[2,3]", "self: T[0]", "self: T[]", "self: i64[2,3]{-2..3}"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
