//! `aten.trapz` (`.x`, `.dx`), the old name of trapezoid: `sum((l + r) * dx) / 2` with sample points `x`,
//! `(sum(y) - (y0 + yn) * 0.5) * dx` with a scalar `dx`, in the float result type. An empty `dim` integrates to
//! 0.

use super::trapezoid_common::integrate;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.trapz.x", |c| integrate(c, false))
        .samples(&["y: T[3,5]; x: T[5]", "y: T[4,3]; x: T[4,3]; dim: 0", "y: T[3,0]; x: T[0]"])
        .dtypes(&["f32", "f64", "i64"]),
    Rule::custom("aten.trapz.dx", |c| integrate(c, false))
        .samples(&["y: T[3,5]", "y: T[3,5]; dx: 0.25; dim: 0", "y: T[6]; dx: 3.0", "y: T[2,0]"])
        .dtypes(&["f32", "f64", "i64"]),
];
