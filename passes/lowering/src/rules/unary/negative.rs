use crate::Rule;

/// `torch.negative` = neg.
pub const RULES: &[Rule] = &[Rule::unary("aten.negative.default", "Neg").dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8"])];
