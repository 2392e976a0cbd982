use super::polynomial_common::{polynomial, Kind};
use crate::Rule;

/// torch.special.shifted_chebyshev_polynomial_w (see polynomial_common.rs).
pub const RULES: &[Rule] = &[
    Rule::custom("aten.special_shifted_chebyshev_polynomial_w.default", |c| polynomial(c, Kind::ChebyshevW, true))
        .samples(&[
            "x: T[3,4]; n: T[3,4]{-2..10}",
            "x: T[2,1,3]; n: T[4,1]{0..7}",
            "x: T[]; n: T[]{3..4}",
            "x: T[0,3]; n: T[3]{0..3}",
        ])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.special_shifted_chebyshev_polynomial_w.n_scalar", |c| polynomial(c, Kind::ChebyshevW, true))
        .samples(&["x: T[2,5]; n: 4", "x: T[3]; n: 0", "x: T[3]; n: -2"])
        .dtypes(&["f32", "f64"]),
    Rule::custom("aten.special_shifted_chebyshev_polynomial_w.x_scalar", |c| polynomial(c, Kind::ChebyshevW, true))
        .samples(&["x: 0.5; n: T[2,4]{-1..9}"])
        .dtypes(&["f32", "f64"]),
];
