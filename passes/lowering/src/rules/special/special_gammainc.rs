use super::igamma_common::incomplete_gamma;
use crate::Rule;

/// torch.special.gammainc = igamma (see igamma.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_gammainc.default", |c| incomplete_gamma(c, false))
    .samples(&["self: T[3,4]{pos}; other: T[3,4]{pos}", "self: T[]{pos}; other: T[]"])
    .dtypes(&["f32", "f64"])];
