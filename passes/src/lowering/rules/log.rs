use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.log.default", "Log").dtypes(&["f32", "i64", "bool"])];
