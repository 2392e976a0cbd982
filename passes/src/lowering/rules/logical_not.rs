use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::unary("aten.logical_not.default", "Not").dtypes(&["bool", "f32"])];
