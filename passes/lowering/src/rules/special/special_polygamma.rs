use super::polygamma_common::polygamma_rule;
use crate::Rule;

/// `torch.special.polygamma` = polygamma (see polygamma.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_polygamma.default", polygamma_rule)
    .samples(&["n: 0; self: T[2,3]", "n: 1; self: T[3,4]", "n: 3; self: T[3,4]", "n: 2; self: T[]"])
    .dtypes(&["f32", "f64"])];
