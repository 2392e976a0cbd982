use crate::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.exp.default", "Exp").dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
