use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.sign.default", "Sign").dtypes(&["f32", "i64"])];
