//! `aten.log_sigmoid`: `min(x, 0) - log1p(exp(-|x|))`, written out with elementwise ops (stable for large |x|).
//! The log1p is corrected for the rounding of `u = 1 + e`: `log(u) * e / (u - 1)`, `e` itself where `u == 1`.

use super::act_common::log_sigmoid;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.log_sigmoid.default", |c| Ok(vec![log_sigmoid(c)?]))
    .samples(&["self: T[2,3]", "self: T[0,3]", "self: T[]"])
    .dtypes(&["f32", "f16", "bf16", "f64"])];
