//! `aten.sigmoid`: ONNX `Sigmoid`; integer and bool inputs are cast to the float result type first.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.sigmoid.default", "Sigmoid").dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
