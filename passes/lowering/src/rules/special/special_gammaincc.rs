use super::igamma_common::incomplete_gamma;
use crate::Rule;

/// torch.special.gammaincc = igammac (see igamma.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_gammaincc.default", |c| incomplete_gamma(c, true))
    .samples(&["self: T[3,4]{pos}; other: T[3,4]{pos}", "self: T[]{pos}; other: T[]"])
    .dtypes(&["f32", "f64"])];
