//! `aten.expm1`: `exp(x) - 1` corrected for the rounding of `exp` near 0 (Kahan): `(u - 1) * x / log(u)` with
//! `u = exp(x)`; `x` where `u == 1`, -1 where `u - 1 == -1`, `u` where it is infinite.

use super::elementwise_common::expm1;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.expm1.default", expm1)
    .samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
