use super::special_common::i0_rule;
use crate::Rule;

/// `torch.special.i0` = i0 (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_i0.default", i0_rule).samples(&["self: T[2,3]", "self: T[]"]).dtypes(&["f32", "i64"])];
