use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.reciprocal.default", "Reciprocal")];
