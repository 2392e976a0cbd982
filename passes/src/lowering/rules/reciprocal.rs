use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.reciprocal.default", "Reciprocal").dtypes(&["f32", "i64", "bool"])];
