use super::special_common::erfinv_rule;
use crate::Rule;

/// `torch.special.erfinv` = erfinv (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_erfinv.default", erfinv_rule)
    .samples(&["self: T[2,3]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
