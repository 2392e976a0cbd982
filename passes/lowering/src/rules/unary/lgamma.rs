use super::special_common::lgamma_rule;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.lgamma.default", lgamma_rule)
    .samples(&["self: T[2,3]", "self: T[3,4]{pos}", "self: i64[2,5]{-3..40}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
