use crate::Rule;
use super::digamma_common::{digamma_rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.digamma.default", digamma_rule)
    .samples(&["self: T[2,3]", "self: T[3,4]{pos}", "self: i64[2,5]{-3..40}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
