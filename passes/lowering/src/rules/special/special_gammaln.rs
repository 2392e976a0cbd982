use super::special_common::lgamma_rule;
use crate::Rule;

/// `torch.special.gammaln` = lgamma (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_gammaln.default", lgamma_rule)
    .samples(&["self: T[2,3]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
