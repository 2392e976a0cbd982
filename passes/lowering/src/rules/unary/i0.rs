use super::special_common::i0_rule;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.i0.default", i0_rule)
    .samples(&["self: T[2,3]", "self: i64[2,5]{-20..20}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
