use super::elementwise_common::exp2;
use crate::Rule;

/// `torch.special.exp2` (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_exp2.default", exp2).samples(&["self: T[2,3]", "self: T[]"]).dtypes(&["f32", "i64"])];
