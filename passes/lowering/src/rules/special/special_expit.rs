use crate::Rule;

/// `torch.special.expit` = sigmoid (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] = &[Rule::unary("aten.special_expit.default", "Sigmoid").dtypes(&["f32", "i64"])];
