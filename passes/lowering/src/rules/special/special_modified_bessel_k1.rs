use super::bessel_common::{bessel_k, unary};
use crate::Rule;

/// torch.special.special_modified_bessel_k1 (see bessel_common.rs).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_modified_bessel_k1.default", |c| unary(c, |i| bessel_k(i, 1, false)))
        .samples(&["self: T[2,3]", "self: T[3,4]{pos}", "self: i64[2,6]{-12..30}", "self: T[0]", "self: T[]"])
        .dtypes(&["f32", "f64", "i64"])];
