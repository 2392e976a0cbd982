use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.abs.default", "Abs").dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
