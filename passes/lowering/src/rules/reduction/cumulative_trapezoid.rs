//! `aten.cumulative_trapezoid` (`.x`, `.dx`): torch's formulas in the float result type: `cumsum((l + r) * dx)
//! / 2` with sample points `x`, `cumsum(dx / 2 * (l + r))` with a scalar `dx`, `l` / `r` the neighbouring
//! samples along `dim`. 0-d inputs are refused, as by torch.

use super::trapezoid_common::integrate;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.cumulative_trapezoid.x", |c| integrate(c, true))
        .samples(&[
            "y: T[3,5]; x: T[5]",
            "y: T[3,5]; x: T[3,5]; dim: 1",
            "y: T[4,3]; x: T[4]; dim: 0",
            "y: T[2,3,4]; x: T[3,4]; dim: -2",
            "y: T[6]; x: T[6]",
            "y: T[3,1]; x: T[1]",
            "y: T[3,0]; x: T[0]",
        ])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.cumulative_trapezoid.dx", |c| integrate(c, true))
        .samples(&["y: T[3,5]", "y: T[3,5]; dx: 0.5; dim: 0", "y: T[2,3,4]; dx: 2; dim: -2", "y: T[6]; dx: -1.5", "y: T[3,1]", "y: T[3,0]"])
        .dtypes(&["f32", "f64", "i64"]),
];
