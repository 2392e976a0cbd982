use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.exp.default", "Exp")];
