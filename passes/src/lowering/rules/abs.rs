use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.abs.default", "Abs").dtypes(&["f32", "i64"])];
