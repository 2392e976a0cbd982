//! `aten.trapezoid` (`.x`, `.dx`): torch's trapezoid rule in the float result type: `sum((l + r) * dx) / 2` with
//! sample points `x` (a 1-D `x` laid along `dim`), `(sum(y) - (y0 + yn) * 0.5) * dx` with a scalar `dx`. An
//! empty `dim` integrates to 0; 0-d inputs are refused, as by torch.

use crate::Rule;
use super::trapezoid_common::integrate;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.trapezoid.x", |c| integrate(c, false))
        .samples(&[
            "y: T[3,5]; x: T[5]",
            "y: T[3,5]; x: T[3,5]; dim: 1",
            "y: T[4,3]; x: T[4]; dim: 0",
            "y: T[2,3,4]; x: T[3,4]; dim: -2",
            "y: T[2,4]; x: T[1,4]",
            "y: T[6]; x: T[6]",
            "y: T[3,1]; x: T[1]",
            "y: T[3,0]; x: T[0]",
        ])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.trapezoid.dx", |c| integrate(c, false))
        .samples(&[
            "y: T[3,5]",
            "y: T[3,5]; dx: 0.5; dim: 0",
            "y: T[2,3,4]; dx: 2; dim: -2",
            "y: T[6]; dx: -1.5",
            "y: T[3,1]",
            "y: T[3,0]",
        ])
        .dtypes(&["f32", "f64", "i64"]),
];
