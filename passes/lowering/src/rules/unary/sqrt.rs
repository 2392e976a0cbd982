//! `aten.sqrt`: ONNX `Sqrt`; integer and bool inputs are cast to the float result type first (negative values
//! give NaN, as in torch).

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.sqrt.default", "Sqrt").dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
