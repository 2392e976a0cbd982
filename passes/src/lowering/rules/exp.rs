use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.exp.default", "Exp").dtypes(&["f32", "i64", "bool"])];
