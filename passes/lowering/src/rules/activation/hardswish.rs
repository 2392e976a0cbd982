use crate::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.hardswish.default", "HardSwish").dtypes(&["f32", "f16", "bf16", "f64"])];
