use super::elementwise_common::expm1;
use crate::Rule;

/// `torch.special.expm1` (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_expm1.default", expm1)
    .samples(&["self: T[2,3]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
