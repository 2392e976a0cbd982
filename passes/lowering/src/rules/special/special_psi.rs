use super::digamma_common::digamma_rule;
use crate::Rule;

/// `torch.special.psi` = digamma (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_psi.default", digamma_rule)
    .samples(&["self: T[2,3]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
