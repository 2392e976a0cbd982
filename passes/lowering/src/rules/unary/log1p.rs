//! `aten.log1p`: `log(1 + x)` corrected for the rounding of `u = 1 + x`: `log(u) * x / (u - 1)`, `x` itself
//! where `u == 1` (|x| below float epsilon), `log(u)` where `u` is infinite.

use super::elementwise_common::log1p;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.log1p.default", log1p)
    .samples(&["self: T[2,3]{pos}", "self: T[2,3]", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"])];
