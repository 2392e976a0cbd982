use super::bessel_common::{bessel_i, unary};
use crate::Rule;

/// torch.special.special_i1e (see bessel_common.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_i1e.default", |c| unary(c, |i| bessel_i(i, 1, true)))
    .samples(&["self: T[2,3]", "self: T[3,4]{pos}", "self: i64[2,6]{-12..30}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "f64", "i64"])];
