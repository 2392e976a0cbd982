use crate::Rule;

/// torch.igamma(a, x): the regularized lower incomplete gamma function P.
use super::igamma_common::incomplete_gamma;

pub const RULES: &[Rule] = &[Rule::custom("aten.igamma.default", |c| incomplete_gamma(c, false))
    .samples(&[
        "self: T[3,4]{pos}; other: T[3,4]{pos}",
        "self: T[2,5]{0..30}; other: T[2,5]{0..40}",
        "self: T[4,1]; other: T[5]",
        "self: T[]{pos}; other: T[]",
        "self: T[0,3]; other: T[3]",
    ])
    .dtypes(&["f32", "f64"])];
