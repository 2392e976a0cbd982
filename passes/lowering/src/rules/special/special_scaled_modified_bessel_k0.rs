use super::bessel_common::{bessel_k, unary};
use crate::Rule;

/// torch.special.special_scaled_modified_bessel_k0 (see bessel_common.rs).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_scaled_modified_bessel_k0.default", |c| unary(c, |i| bessel_k(i, 0, true)))
        .samples(&["x: T[2,3]", "x: T[3,4]{pos}", "x: i64[2,6]{-12..30}", "x: T[0]", "x: T[]"])
        .dtypes(&["f32", "f64", "i64"])];
