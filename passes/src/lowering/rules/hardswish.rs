use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.hardswish.default", "HardSwish")];
