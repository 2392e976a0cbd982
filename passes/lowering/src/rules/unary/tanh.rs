//! `aten.tanh`: ONNX `Tanh`; integer and bool inputs are cast to the float result type first.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.tanh.default", "Tanh").dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
