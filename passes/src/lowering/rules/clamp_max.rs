use super::clamp_min::bound;
use crate::lowering::Rule;

pub const RULES: &[Rule] =
    &[Rule::custom("aten.clamp_max.default", |c| bound(c, "max", "Min")).samples(&["self: T[2,3]; max: 0.25"])];
