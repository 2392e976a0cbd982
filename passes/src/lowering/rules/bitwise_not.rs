use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.bitwise_not.default", "Not")];
