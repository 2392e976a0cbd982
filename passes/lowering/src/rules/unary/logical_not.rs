//! `aten.logical_not`: ONNX `Not` of `self` cast to bool (nonzero is true).

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.logical_not.default", "Not").dtypes(&["bool", "f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8"])];
