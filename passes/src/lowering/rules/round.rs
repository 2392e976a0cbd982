use super::common::rounding;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.round.default", |c| rounding(c, "Round"))
    .samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
