use super::bessel_common::{spherical_j0, unary};
use crate::Rule;

/// torch.special.special_spherical_bessel_j0 (see bessel_common.rs).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_spherical_bessel_j0.default", |c| unary(c, |i| spherical_j0(i)))
        .samples(&["x: T[2,3]", "x: T[3,4]{pos}", "x: i64[2,6]{-12..30}", "x: T[0]", "x: T[]"])
        .dtypes(&["f32", "f64", "i64"])];
